// Hand-written: the binding's own shapes, spliced beside the generated ../evidence.d.ts.
/** One device: its transcript and its certificate chain. */
export interface DeviceEvidenceInput {
  /**
   * Raw transcript bytes, or a string: hex, base64 (generation 2, NVIDIA's SDKs) or base64 of
   * hex text (generation 1) — recognised from the text, or as `evidenceEncoding` says. Or a
   * CMW (RATS conceptual message wrapper): NVIDIA's verifier input (`collect-evidence-v2`)
   * as JSON text or bytes, its CBOR form as bytes or their base64, or a lone transcript
   * record; reports say which in `evidenceForm`.
   */
  evidence: Uint8Array | ArrayBuffer | string;
  /**
   * PEM chain text (leaf first), or base64 of it as in requests. Absent when the evidence is
   * a CMW carrying the chain (and refused then).
   */
  certificate?: string;
}

export interface VerifyEvidenceOptions extends DeviceEvidenceInput {
  /** The caller's nonce: 64 hex characters or 32 bytes. */
  nonce: string | Uint8Array;
  arch: Arch;
  /** Unix seconds; default the host clock. */
  now?: number;
  /** PEM anchors; default the NVIDIA Device Identity CA embedded in the module. */
  trustAnchors?: string;
  /** The encoding every string `evidence` must be in; default: recognised from the text. */
  evidenceEncoding?: EvidenceEncoding;
  /**
   * Fail evidence that could carry an FWID but does not (Hopper firmware from before FWID
   * reporting) with ERR_EVIDENCE_FWID_MISSING (service code 4016). Default false: passed, as
   * NVIDIA's verifiers do, and reported as `fwid: "not-in-evidence"`.
   */
  requireFwid?: boolean;
}

export interface PrepareEvidenceOptions extends Omit<VerifyEvidenceOptions, "evidence" | "certificate"> {
  /** The devices; absent when `evidence` is a CMW of several devices. */
  devices?: DeviceEvidenceInput[];
  /** A CMW of the request's devices (NVIDIA's verifier input), instead of `devices`. */
  evidence?: Uint8Array | ArrayBuffer | string;
}

/** One ECDSA P-384/SHA-384 verification: SEC1 key, message, raw r||s signature. */
export interface SignatureCheck { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array; }

/** Options of runtimeEvidence. */
export interface RuntimeEvidenceOptions {
  /** Raw transcript bytes, or a string (hex, base64, base64 of hex text). */
  evidence: Uint8Array | ArrayBuffer | string;
  /** The encoding a string `evidence` must be in; default: recognised from the text. */
  evidenceEncoding?: EvidenceEncoding;
  arch: Arch;
  /** The chip name the device certificate gives (`hwmodelChip` of an EvidenceReport). */
  hwmodel?: string;
  /** The request's `firmware_version` (Blackwell FSP). */
  firmwareVersion?: string;
}

/** Options of evidenceReport / prepareEvidenceReport: one device, its RIMs, its revocation. */
export interface EvidenceReportOptions extends VerifyEvidenceOptions {
  /** The RIM documents (XML text or bytes) to judge the device by; one its profile does not use is ignored. */
  rims?: { driver?: string | Uint8Array; firmware?: string | Uint8Array };
  /** PEM anchors of the RIM signers; default NVIDIA's RIM root embedded in the module. */
  rimAnchors?: string;
  /** The request's `firmware_version` (Blackwell FSP evidence names its firmware RIM by it). */
  firmwareVersion?: string;
  /** What the host learnt of the device chain's revocation (the core does no I/O); default not checked. */
  revocation?: { status: "good" | "not-checked" | "revoked" | "unknown" | "failed"; message?: string; /** checkOcspResponses's `warnings`: a `good` chain passed under a revocation rule (the report says `relaxed`). */ warnings?: string[] };
}
