// Hand-written: the binding's own shapes, spliced beside the generated ../service.d.ts.
/**
 * The host's answer for one FetchResource: the body fetched now; an OCSP response from the
 * host's cache with the nonce that fetched it; a copy kept past its freshness, given because
 * every source failed (`stale: true`, as `FetchAttempts` decides); or why there is none ('not-fetched': the
 * host does not fetch this — a missing RIM then fails with 5009, an unasked OCSP query
 * leaves revocation unchecked with the warning claim).
 */
export type FetchAnswer =
  | { body: Uint8Array }
  | { body: Uint8Array; nonce: Uint8Array }
  | { body: Uint8Array; nonce?: Uint8Array; stale: true }
  | { error: 'unreachable' | 'timeout' | 'status' | 'too-large' | 'not-fetched'; status?: number };
/**
 * A RIM service envelope whose document verified, for the host's mirror: keep `body` under
 * `mirror-rim:<id>` until `until` (Unix seconds).
 */
export interface MirrorEntry {
  id: string;
  body: Uint8Array;
  until: number;
}
/**
 * The mirror's answer to `GET /v1/rim/<id>`: the response; `store`, a fetched envelope that
 * verified (keep it); `fetch`, where to fetch the envelope when nothing held verified (ask
 * `mirrorRim` again with the answer's body).
 */
export interface MirrorAnswer {
  response: ServiceResponse;
  store?: MirrorEntry;
  fetch?: string;
}
