export interface RimOptions {
  /** Unix seconds for the certificate validity check; default: the host clock. */
  now?: number;
  /** PEM trust anchors replacing the NVIDIA RIM root. */
  trustAnchorPem?: string;
}

/** One ECDSA P-384/SHA-384 check: SEC1 public key, message, raw r||s signature. */
export interface SignatureCheckData {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/** Evidence values for RIM ids and comparison (see the Rust docs of RuntimeEvidence). */
export interface RuntimeEvidenceInput {
  /** SPDM measurement blocks by 1-based index: hex text or bytes. */
  measurements?: Record<string, string | Uint8Array>;
  driverVersion?: string;
  vbiosVersion?: string;
  project?: string;
  projectSku?: string;
  chipSku?: string;
  chipInfo?: string;
  nvdec0Status?: number;
  opaque?: { id: number; valueType?: number; value: string | Uint8Array }[];
  hwmodel?: string;
  apsku?: number;
  firmwareVersionHint?: string;
}
