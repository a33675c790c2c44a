// Hand-written: the binding's own shapes, spliced beside the generated ../rim.d.ts.
export interface RimOptions {
  /** Unix seconds for the certificate validity check; default: the host clock. */
  now?: number;
  /** PEM trust anchors replacing the NVIDIA RIM root. */
  trustAnchorPem?: string;
}
