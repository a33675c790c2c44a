import type { AttestationService, ServiceRequest, ServiceResponse } from './edgeattest.js';

export { createVerifyKeyCache } from './backend.js';
export type { VerifyKeyCache } from './webcrypto.js';
import type { VerifyKeyCache } from './webcrypto.js';

/** Options of handleRequest. */
export interface HandleRequestOptions {
  /** Unix seconds; default: the host's clock. */
  now?: number;
  /** The private signing key, for a service made with `publicKey`. */
  signingKey?: CryptoKey;
  /** Default: globalThis.crypto.subtle. */
  subtle?: SubtleCrypto;
  /** Imported verification keys kept across requests; default: the package's shared cache (for the global crypto.subtle). */
  keyCache?: VerifyKeyCache;
  /** Where the ECDSA checks run: crypto.subtle (default where it exists) or the wasm module. */
  backend?: 'webcrypto' | 'software';
  /**
   * Fetches what verified devices need: RIM documents the service lacks (GET) and OCSP
   * answers (POST application/ocsp-request). Default: globalThis.fetch. `false`: a host
   * without network access — missing RIMs fail with 5009 and revocation is left unchecked,
   * with the warning claim. (Replaces the `fetchRims` callback of earlier releases.)
   */
  fetch?: ((url: string, init: RequestInit) => Promise<Response>) | false;
  /** Where fetched answers are kept; default one shared in-memory cache (createFetchCache()). */
  cache?: FetchCache;
  /** Per OCSP request; default `serviceLimits().ocspTimeoutMs` (5000). */
  ocspTimeoutMs?: number;
  /** Per RIM document; default `serviceLimits().rimTimeoutMs` (10000). */
  rimTimeoutMs?: number;
  /** Fetches at once for one request; default `serviceLimits().fetchConcurrency` (8). */
  concurrency?: number;
}

/**
 * A cache of fetch answers: a FetchAnswer by key until a Unix second, judged on the clock of
 * the request using it (`now`, which a replay may fix); may be async.
 */
export interface FetchCache {
  get(key: string, now: number): FetchAnswerLike | undefined | Promise<FetchAnswerLike | undefined>;
  put(key: string, value: FetchAnswerLike, until: number, now: number): void | Promise<void>;
  /** Optional: the live entries holding a body under `prefix` (`ocsp:`, `rim:`), reported in /health. */
  count?(prefix: string, now?: number): number;
}

/** What a cache holds: a body (with the nonce that fetched an OCSP answer) or a RIM service 404. */
export type FetchAnswerLike = { body: Uint8Array; nonce?: Uint8Array } | { error: 'status'; status: number };

/**
 * An in-memory FetchCache of at most `limit` entries (default
 * `serviceLimits().fetchCacheEntries`, 4096), oldest dropped first; an entry past its `until`
 * (on the request's clock) is not returned.
 *
 * @example
 * ```ts
 * declare const service: AttestationService;
 * declare const request: ServiceRequest;
 * const cache = createFetchCache({ limit: 1024 }); // one per process, shared by its requests
 * const response = await handleRequest(service, request, { cache });
 * ```
 */
export function createFetchCache(options?: { limit?: number }): FetchCache & { readonly size: number };

/**
 * Answers one request to the attestation service with every ECDSA check and signature in
 * WebCrypto (or in wasm: `backend`), fetching what verified devices need (RIM documents the
 * service lacks, OCSP answers) through `fetch` with per-fetch budgets and `cache`. The
 * service's own refusals are responses (a status and an error body), not rejections.
 *
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for options of the wrong
 * shape (e.g. `fetch` neither a function nor false), `ERR_SIGNING_KEY_REQUIRED` when the
 * service was made with `publicKey` and no `signingKey` is given, or what
 * `AttestationService.begin` throws for a request of the wrong shape.
 *
 * @example
 * ```ts
 * declare const signingKeyPem: string; // PKCS#8
 * const service = new AttestationService({ signingKey: signingKeyPem, issuer: 'https://attest.example.com' });
 * async function serve(request: Request): Promise<Response> {
 *   const url = new URL(request.url);
 *   const answer = await handleRequest(service, {
 *     method: request.method,
 *     path: url.pathname + url.search,
 *     origin: url.origin,
 *     headers: [...request.headers],
 *     body: new Uint8Array(await request.arrayBuffer()),
 *   });
 *   return new Response(answer.body, { status: answer.status, headers: answer.headers });
 * }
 * ```
 */
export function handleRequest(service: AttestationService, request: ServiceRequest, options?: HandleRequestOptions): Promise<ServiceResponse>;

/**
 * Imports a P-384 private key (PKCS#8 PEM or private JWK text) as a non-extractable WebCrypto
 * key, with its public JWK (text) for a service made with `publicKey`: the private key then
 * never enters wasm memory.
 *
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for a key that is not a
 * string, `ERR_INVALID_KEY` for one WebCrypto cannot import as a P-384 signing key.
 *
 * @example
 * ```ts
 * declare const signingKeyPem: string; // PKCS#8
 * declare const request: ServiceRequest;
 * const { privateKey, publicJwk } = await importSigningKey(signingKeyPem);
 * const service = new AttestationService({ publicKey: publicJwk });
 * const response = await handleRequest(service, request, { signingKey: privateKey });
 * ```
 */
export function importSigningKey(text: string, subtle?: SubtleCrypto): Promise<{ privateKey: CryptoKey; publicJwk: string }>;
