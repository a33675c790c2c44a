/** Which certificates of a chain are asked about: "device" (not the leaf), "rim" (the signer too); never the root. */
export type OcspChainKind = "device" | "rim";

export interface OcspRequestsOptions {
  kind: OcspChainKind;
  /** One 32-byte nonce per request; default: crypto.getRandomValues. */
  nonces?: Uint8Array[];
}

/**
 * The answer for one request: the response body with the nonce of the request that fetched
 * it (from a cache: the nonce stored beside it), or why there is none.
 */
export type OcspAnswer =
  | { body: Uint8Array | ArrayBuffer; nonce?: Uint8Array }
  | { error: "unreachable" | "timeout" | "status" | "too-large" | "not-fetched"; status?: number };

export type OcspStatusJs = "good" | "revoked" | "unknown" | "failed";
