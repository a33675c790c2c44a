// Hand-written: the binding's own shapes, spliced beside the generated ../attest.d.ts.
/** One device for buildAttestRequest. */
export interface EvidenceInput {
  /**
   * The raw SPDM transcript: bytes, or a string — hex, base64, or base64 of hex text,
   * recognised from the text (or as `evidenceEncoding` says). The request carries it in the
   * endpoint's own encoding whatever it came in.
   */
  evidence: Uint8Array | ArrayBuffer | string;
  /** The certificate chain as PEM text, leaf first. */
  certificate: string;
  /** Firmware version hint (V3/V4 only), e.g. "96.00.9F.00.01". */
  firmwareVersion?: string;
}

export interface AttestRequestOptions {
  endpoint: AttestEndpoint;
  /** 64 hex characters; generated from crypto.getRandomValues when absent. */
  nonce?: string;
  /** Required for GPU endpoints; switch endpoints default to "LS10". */
  arch?: Arch;
  /** V4 only; absent means the endpoint's default (3.0 on V4). */
  claimsVersion?: ClaimsVersion;
  evidence: EvidenceInput[];
  /**
   * The encoding every string `evidence` must be in; text in another is refused with
   * ERR_EVIDENCE_ENCODING. Default: recognised from the text.
   */
  evidenceEncoding?: EvidenceEncoding;
}

/** A request body as sent to the service (shape depends on the endpoint). */
export interface AttestRequestBody {
  nonce: string;
  arch?: Arch;
  evidence?: string;
  certificate?: string;
  evidences?: { evidence: string; certificate: string }[];
  evidence_list?: { evidence: string; certificate: string; firmware_version?: string }[];
  claims_version?: ClaimsVersion;
}
