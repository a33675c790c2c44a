// The attestation service with the WebCrypto backend: the wasm core routes, parses and
// decides; every ECDSA verification and every token signature of a request runs in
// crypto.subtle, in parallel batches, and the private key can stay a non-extractable
// CryptoKey that never enters wasm memory.
import { chooseBackend } from './backend.js';
import { ECDSA_P384, ES384, runSignatureChecks } from './webcrypto.js';
import { answerFetchRound, cacheVerified, defaultFetchCache, recordSources } from './fetch.js';
import { coded } from './error.js';
import { cacheMirrored } from './mirror.js';
import { importPrivateKey } from './keys.js';

export { createVerifyKeyCache } from './backend.js';

/**
 * @import { AttestationService, ServiceRequest, ServiceResponse } from './edgeattest.js'
 * @import { FetchCache } from './fetch.js'
 * @import { VerifyKeyCache } from './webcrypto.js'
 */

/**
 * Options of handleRequest.
 * @typedef {object} HandleRequestOptions
 * @property {number} [now] Unix seconds; default: the host's clock.
 * @property {CryptoKey} [signingKey] The private signing key, for a service made with `publicKey`.
 * @property {SubtleCrypto} [subtle] Default: globalThis.crypto.subtle.
 * @property {VerifyKeyCache} [keyCache] Imported verification keys kept across requests; default: the package's shared cache (for the global crypto.subtle).
 * @property {'webcrypto' | 'software'} [backend] Where the ECDSA checks run: crypto.subtle (default where it exists) or the wasm module.
 * @property {((url: string, init: RequestInit) => Promise<Response>) | false} [fetch]
 *   Fetches what verified devices need: RIM documents the service lacks (GET) and OCSP
 *   answers (POST application/ocsp-request). Default: globalThis.fetch. `false`: a host
 *   without network access — missing RIMs fail with 5009 and revocation is left unchecked,
 *   with the warning claim. (Replaces the `fetchRims` callback of earlier releases.)
 * @property {FetchCache} [cache] Where fetched answers are kept; default one shared in-memory cache (createFetchCache()). Past their freshness, entries it keeps (`getKept`) stand in when every source fails (stale-if-error).
 * @property {number} [ocspTimeoutMs] Per OCSP request; default `serviceLimits().ocspTimeoutMs` (5000).
 * @property {number} [rimTimeoutMs] Per RIM document; default `serviceLimits().rimTimeoutMs` (10000).
 * @property {number} [concurrency] Fetches at once for one request; default `serviceLimits().fetchConcurrency` (8).
 */

/**
 * Answers one request to the attestation service with every ECDSA check and signature in
 * WebCrypto (or in wasm: `backend`), fetching what verified devices need (RIM documents the
 * service lacks, OCSP answers) through `fetch` with per-fetch budgets and `cache`. The
 * service's own refusals are responses (a status and an error body), not rejections.
 *
 * @param {AttestationService} service
 * @param {ServiceRequest} request
 * @param {HandleRequestOptions} [options]
 * @returns {Promise<ServiceResponse>}
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
export async function handleRequest(service, request, options = {}) {
  const { now = Math.floor(Date.now() / 1000), signingKey, subtle = globalThis.crypto?.subtle, keyCache } = options;
  const backend = chooseBackend(options.backend, subtle);
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
        service.remember(exchange);
        await cacheVerified(exchange.cacheable(), now, fetching.cache);
        await cacheMirrored(exchange.verifiedRims(), now, fetching.cache);
        recordSources(service, fetching.seen, fetching.cache ?? defaultFetchCache, now);
        return step.response;
      }
      if (step.kind === 'verify') {
        if (backend === 'software') exchange.verifyInCore();
        else exchange.verified(await runSignatureChecks(step.checks, subtle, keyCache));
      } else if (step.kind === 'fetch') {
        await answerFetchRound(service, exchange, step.resources, fetching);
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

/**
 * Imports a P-384 private key (PKCS#8 PEM or private JWK text) as a non-extractable WebCrypto
 * key, with its public JWK (text) for a service made with `publicKey`: the private key then
 * never enters wasm memory.
 *
 * @param {string} text
 * @param {SubtleCrypto} [subtle]
 * @returns {Promise<{ privateKey: CryptoKey; publicJwk: string }>}
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
export async function importSigningKey(text, subtle = globalThis.crypto?.subtle) {
  if (typeof text !== 'string') throw coded('ERR_INVALID_ARGUMENT', 'the signing key must be a string', 'signingKey');
  let key;
  try {
    key = await importPrivateKey(text, { backend: 'software' });
    const privateKey = await subtle.importKey('pkcs8', key.toPkcs8Der(), ECDSA_P384, false, ['sign']);
    const { kty, crv, x, y } = key.toJwk();
    return { privateKey, publicJwk: JSON.stringify({ kty, crv, x, y }) };
  } catch (error) {
    throw coded('ERR_INVALID_KEY', `the signing key could not be imported: ${error?.message ?? error}`, 'signingKey', { cause: error });
  } finally {
    key?.free();
  }
}
