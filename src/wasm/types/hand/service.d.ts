// Hand-written: the binding's own shapes, spliced beside the generated ../service.d.ts.
/** An HTTP request as the host received it. */
export interface ServiceRequest {
  method: string;
  /** The path, e.g. "/v4/attest/gpu"; a query string after "?" is read only for "result" (result=ear: the EAT Attestation Result). */
  path: string;
  /** The origin the request was addressed to (`new URL(request.url).origin`): the tokens' iss when no issuer is configured. */
  origin?: string;
  headers?: [string, string][] | Record<string, string>;
  body?: Uint8Array | string;
}

/** The response for the host to send. */
export interface ServiceResponse {
  status: number;
  headers: [string, string][];
  /** A fresh buffer: the type says so (`buffer: ArrayBuffer`), so that TypeScript's DOM types take it as a Response body. */
  body: Uint8Array & { readonly buffer: ArrayBuffer };
}

/** Something a ServiceExchange asks its host to fetch. */
export type FetchResource =
  /** GET url: the RIM service's envelope for RIM `id`. */
  | { kind: 'rim'; id: string; url: string }
  /** POST request (content-type application/ocsp-request) to url; cacheKey names the certificate asked about. */
  | { kind: 'ocsp'; url: string; request: Uint8Array & { readonly buffer: ArrayBuffer }; nonce: Uint8Array; cacheKey: string };

/**
 * The host's answer for one FetchResource: the body fetched now; an OCSP response from the
 * host's cache with the nonce that fetched it; or why there is none ('not-fetched': the
 * host does not fetch this — a missing RIM then fails with 5009, an unasked OCSP query
 * leaves revocation unchecked with the warning claim).
 */
export type FetchAnswer =
  | { body: Uint8Array }
  | { body: Uint8Array; nonce: Uint8Array }
  | { error: 'unreachable' | 'timeout' | 'status' | 'too-large' | 'not-fetched'; status?: number };

/** An OCSP response that verified, for the host's cache, until `until` (Unix seconds). */
export interface OcspCacheEntry {
  cacheKey: string;
  body: Uint8Array;
  nonce: Uint8Array;
  until: number;
}

/** What the host last saw of a remote source, for /health. */
export interface SourceState {
  /** Whether its last fetch got an answer (undefined: not asked yet). */
  reachable?: boolean;
  /** The last failure, e.g. 'timeout' or 'HTTP 503'. */
  lastError?: string;
  /** Answers held in the host's cache. */
  cachedEntries?: number;
}

/** A source to probe: `kind` as setSourceState takes it, `url` the one to ask (HEAD). */
export interface ProbeTarget {
  kind: 'rim' | 'ocsp';
  url: string;
}

/** What a ServiceExchange needs next. */
export type ServiceStep =
  | { kind: 'verify'; checks: SignatureCheck[] }
  | { kind: 'fetch'; resources: FetchResource[] }
  | { kind: 'sign'; inputs: Uint8Array[] }
  | { kind: 'respond'; response: ServiceResponse };
