// Hand-written: the binding's own shapes, spliced beside the generated ../rim.d.ts.
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

