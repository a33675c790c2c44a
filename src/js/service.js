// The attestation service with the WebCrypto backend: the wasm core routes, parses and
// decides; every ECDSA verification and every token signature of a request runs in
// crypto.subtle, in parallel batches, and the private key can stay a non-extractable
// CryptoKey that never enters wasm memory.
import { runSignatureChecks } from './webcrypto.js';
import { answerFetchStep, cacheVerified, defaultFetchCache } from './fetch.js';
import { coded } from './error.js';

const ES384 = { name: 'ECDSA', hash: 'SHA-384' };
const ECDSA_P384 = { name: 'ECDSA', namedCurve: 'P-384' };
/** Imported verification keys kept across requests (device and RIM CAs recur). */
const KEY_CACHE_LIMIT = 512;


/** A bounded cache of imported public keys, by SEC1 hex: the oldest entry goes first. */
export function createVerifyKeyCache(limit = KEY_CACHE_LIMIT) {
  const entries = new Map();
  return {
    get(id) {
      return entries.get(id);
    },
    set(id, key) {
      if (entries.size >= limit) entries.delete(entries.keys().next().value);
      entries.set(id, key);
    },
    get size() {
      return entries.size;
    },
  };
}

const sharedKeyCache = createVerifyKeyCache();

/**
 * Answers one request of an AttestationService. With the `webcrypto` backend (the default
 * where crypto.subtle exists) the evidence, chain, RIM and OCSP checks run in crypto.subtle;
 * with `software` in the wasm module. Tokens are signed with `signingKey` (a private
 * CryptoKey, ECDSA P-384) when the service was made with `publicKey`; a service that holds
 * its key signs in the core. What the verified devices need — RIM documents the service
 * lacks, OCSP answers for their chains and their RIMs' chains — is fetched with `fetch`
 * (default globalThis.fetch; `false` for a host without network access: revocation is then
 * left unchecked, with the warning claim), with timeouts, a 2 MiB cap, 8 fetches at once and
 * `cache` (default one shared in-memory cache; see createFetchCache). The sources' state is
 * recorded on the service for /health. Resolves to the ServiceResponse.
 */
export async function handleRequest(service, request, options = {}) {
  const { now = Math.floor(Date.now() / 1000), signingKey, subtle = globalThis.crypto?.subtle, keyCache = sharedKeyCache } = options;
  const backend = options.backend ?? (subtle ? 'webcrypto' : 'software');
  if (backend !== 'webcrypto' && backend !== 'software') throw coded('ERR_INVALID_ARGUMENT', "backend must be 'webcrypto' or 'software'", 'backend');
  if (backend === 'webcrypto' && !subtle) throw coded('ERR_INVALID_ARGUMENT', 'crypto.subtle is not available', 'subtle');
  if (options.fetch !== undefined && options.fetch !== false && typeof options.fetch !== 'function') {
    throw coded('ERR_INVALID_ARGUMENT', 'fetch must be a function or false', 'fetch');
  }
  const fetching = { fetch: options.fetch, cache: options.cache, ocspTimeoutMs: options.ocspTimeoutMs, rimTimeoutMs: options.rimTimeoutMs, concurrency: options.concurrency, now, seen: {} };
  for (const key of Object.keys(fetching)) if (fetching[key] === undefined) delete fetching[key];
  const exchange = service.begin(request, now);
  try {
    for (;;) {
      const step = exchange.step();
      if (step.kind === 'respond') {
        await cacheVerified(exchange.cacheable(), now, fetching.cache);
        for (const [kind, seen] of Object.entries(fetching.seen)) {
          // A cache that can count (createFetchCache, the worker's) reports its entries.
          const cached = fetching.cache ?? defaultFetchCache;
          const cachedEntries = typeof cached.count === 'function' ? cached.count(`${kind}:`, now) : undefined;
          service.setSourceState(kind, Number.isSafeInteger(cachedEntries) ? { ...seen, cachedEntries } : seen);
        }
        return step.response;
      }
      if (step.kind === 'verify') {
        if (backend === 'software') exchange.verifyInCore();
        else exchange.verified(await runSignatureChecks(step.checks, subtle, keyCache));
      } else if (step.kind === 'fetch') {
        exchange.fetched(await answerFetchStep(step.resources, fetching));
      } else {
        if (!signingKey) {
          throw coded('ERR_SIGNING_KEY_REQUIRED', 'the service publishes an external key: pass signingKey (a private CryptoKey)', 'signingKey');
        }
        const signatures = await Promise.all(step.inputs.map((input) => subtle.sign(ES384, signingKey, input)));
        exchange.signed(signatures.map((signature) => new Uint8Array(signature)));
      }
    }
  } finally {
    exchange.free();
  }
}

function pemBody(text) {
  const match = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(text);
  if (!match) return null;
  return Uint8Array.from(atob(match[1].replace(/\s+/g, '')), (c) => c.charCodeAt(0));
}

/**
 * Imports a P-384 private key (PKCS#8 PEM or private JWK text) into WebCrypto as a
 * non-extractable signing key. Resolves to `{ privateKey, publicJwk }`: the CryptoKey for
 * handleRequest and the public JWK text for `new AttestationService({ publicKey })`.
 */
export async function importSigningKey(text, subtle = globalThis.crypto?.subtle) {
  if (typeof text !== 'string') throw coded('ERR_INVALID_ARGUMENT', 'the signing key must be a string', 'signingKey');
  let jwk;
  try {
    if (text.trim().startsWith('{')) {
      jwk = JSON.parse(text);
    } else {
      const der = pemBody(text);
      if (!der) throw new Error('not a PKCS#8 PEM');
      const extractable = await subtle.importKey('pkcs8', der, ECDSA_P384, true, ['sign']);
      jwk = await subtle.exportKey('jwk', extractable);
    }
    if (jwk?.kty !== 'EC' || jwk.crv !== 'P-384' || typeof jwk.d !== 'string') throw new Error('not a P-384 private key');
    const privateKey = await subtle.importKey('jwk', { kty: 'EC', crv: 'P-384', x: jwk.x, y: jwk.y, d: jwk.d }, ECDSA_P384, false, ['sign']);
    const publicJwk = JSON.stringify({ kty: 'EC', crv: 'P-384', x: jwk.x, y: jwk.y });
    // The pair must agree: a signature by the private key verifies with the public one.
    const publicKey = await subtle.importKey('jwk', JSON.parse(publicJwk), ECDSA_P384, false, ['verify']);
    const probe = new TextEncoder().encode('edgeattest signing key check');
    if (!(await subtle.verify(ES384, publicKey, await subtle.sign(ES384, privateKey, probe), probe))) {
      throw new Error('the public coordinates do not belong to the private key');
    }
    return { privateKey, publicJwk };
  } catch (error) {
    if (error?.code) throw error;
    throw coded('ERR_INVALID_KEY', `the signing key could not be imported: ${error?.message ?? error}`, 'signingKey');
  }
}
