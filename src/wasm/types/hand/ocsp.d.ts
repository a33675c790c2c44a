// Hand-written: the binding's own shapes, spliced beside the generated ../ocsp.d.ts.

/**
 * The answer for one request: the response body with the nonce of the request that fetched
 * it (from a cache: the nonce stored beside it), or why there is none.
 */
export type OcspAnswer =
  | { body: Uint8Array | ArrayBuffer; nonce?: Uint8Array }
  | { error: "unreachable" | "timeout" | "status" | "too-large" | "not-fetched"; status?: number };

export type OcspStatusJs = "good" | "revoked" | "unknown" | "failed";
