import type { AttestationService, ServiceRequest, ServiceResponse } from './edgeattest.js';

/** A bounded cache of imported WebCrypto verification keys. */
export interface VerifyKeyCache {
  get(id: string): Promise<CryptoKey> | undefined;
  set(id: string, key: Promise<CryptoKey>): void;
  readonly size: number;
}

/** Creates a key cache holding at most `limit` keys (default 512), oldest evicted first. */
export function createVerifyKeyCache(limit?: number): VerifyKeyCache;

/** Options of handleRequest. */
export interface HandleRequestOptions {
  /** Unix seconds; default: the host's clock. */
  now?: number;
  /** The private signing key, for a service made with `publicKey`. */
  signingKey?: CryptoKey;
  /** Default: globalThis.crypto.subtle. */
  subtle?: SubtleCrypto;
  /** Imported verification keys kept across requests; default: one shared cache. */
  keyCache?: VerifyKeyCache;
  /** Where the ECDSA checks run: crypto.subtle (default where it exists) or the wasm module. */
  backend?: 'webcrypto' | 'software';
  /** Called with the ids of RIM documents verified devices need and the service lacks. */
  fetchRims?: (ids: string[]) => Promise<void>;
}

/** Answers one request with every ECDSA check and signature in WebCrypto. */
export function handleRequest(service: AttestationService, request: ServiceRequest, options?: HandleRequestOptions): Promise<ServiceResponse>;

/** Imports a P-384 private key (PKCS#8 PEM or private JWK text) as a non-extractable WebCrypto key. */
export function importSigningKey(text: string, subtle?: SubtleCrypto): Promise<{ privateKey: CryptoKey; publicJwk: string }>;
