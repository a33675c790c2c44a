// Hand-written declarations spliced into the generated edgeattest.d.ts by the
// typescript_custom_section in src/wasm/ocsp.rs (so they exist only in the builds that have that
// module); names from the other fragments and the generated classes are in scope there.
/** Which certificates of a chain are asked about: "device" (not the leaf), "rim" (the signer too); never the root. */
export type OcspChainKind = "device" | "rim";

export interface OcspRequestsOptions {
  kind: OcspChainKind;
  /** One 32-byte nonce per request; default: crypto.getRandomValues. */
  nonces?: Uint8Array[];
}

/** One OCSP request: POST `request` with content type application/ocsp-request. */
export interface OcspRequestJs {
  /** The certificate asked about: its subject commonName (the full subject without one). */
  certificate: string;
  /** Its index in the chain (leaf = 0); its issuer is index + 1. */
  index: number;
  /** Names the certificate, not the request: "sha384:<issuerKeyHash hex>:<serial hex>". */
  cacheKey: string;
  /** A fresh buffer (`buffer: ArrayBuffer`), so that TypeScript's DOM types take it as a fetch body. */
  request: Uint8Array & { readonly buffer: ArrayBuffer };
  nonce: Uint8Array;
}

/**
 * The answer for one request: the response body with the nonce of the request that fetched
 * it (from a cache: the nonce stored beside it), or why there is none.
 */
export type OcspAnswer =
  | { body: Uint8Array | ArrayBuffer; nonce?: Uint8Array }
  | { error: "unreachable" | "timeout" | "status" | "too-large" | "not-fetched"; status?: number };

export interface CheckOcspOptions {
  /** Count certificateHold as good (reported as `held`), as X-NVIDIA-OCSP-ALLOW-CERT-HOLD asks. */
  allowHold?: boolean;
}

export type OcspStatusJs = "good" | "revoked" | "unknown" | "failed";

export interface OcspCertificateStatus {
  subject: string;
  status: OcspStatusJs;
  /** The CRL reason of a revoked certificate, e.g. "keyCompromise", "certificateHold". */
  reason?: string;
  /** Unix seconds, for a revoked certificate. */
  revokedAt?: number;
  /** Why a failed response was not believed, e.g. ERR_OCSP_SIGNATURE_INVALID. */
  code?: string;
  message?: string;
  /** Unix seconds; null when the response failed. */
  thisUpdate: number | null;
  nextUpdate: number | null;
  nonce?: "matched" | "not-echoed";
  /** Until when a host may cache the response (Unix seconds; 0: do not cache). */
  cacheUntil?: number;
}

/** A chain's status: good only if every certificate is; else the first non-good one decides. */
export interface OcspChainStatus {
  status: OcspStatusJs;
  /** A held certificate was accepted (allowHold). */
  held?: boolean;
  reason?: string;
  code?: string;
  /** The real service's code when not good: 5002 revoked, 5003 unknown, 5001 failed. */
  serviceCode?: number;
  certificates: OcspCertificateStatus[];
}
