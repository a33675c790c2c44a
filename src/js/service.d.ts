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

/** An in-memory FetchCache of at most `limit` entries (default `serviceLimits().fetchCacheEntries`, 4096), oldest dropped first. */
export function createFetchCache(options?: { limit?: number }): FetchCache & { readonly size: number };

/** Answers one request with every ECDSA check and signature in WebCrypto. */
export function handleRequest(service: AttestationService, request: ServiceRequest, options?: HandleRequestOptions): Promise<ServiceResponse>;

/** Imports a P-384 private key (PKCS#8 PEM or private JWK text) as a non-extractable WebCrypto key. */
export function importSigningKey(text: string, subtle?: SubtleCrypto): Promise<{ privateKey: CryptoKey; publicJwk: string }>;
