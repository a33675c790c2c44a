// The attestation service with the WebCrypto backend: the wasm core routes, parses and
// decides; every ECDSA verification and every token signature of a request runs in
// crypto.subtle, in parallel batches, and the private key can stay a non-extractable
// CryptoKey that never enters wasm memory.
import { chooseBackend } from './backend.js';
import { ECDSA_P384, ES384, runSignatureChecks } from './webcrypto.js';
import { answerFetchStep, cacheVerified, defaultFetchCache, recordSources } from './fetch.js';
import { coded } from './error.js';
import { importPrivateKey } from './token.js';

export { createVerifyKeyCache } from './backend.js';

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
        await cacheVerified(exchange.cacheable(), now, fetching.cache);
        recordSources(service, fetching.seen, fetching.cache ?? defaultFetchCache, now);
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

/**
 * Imports a P-384 private key (PKCS#8 PEM or private JWK text) into WebCrypto as a
 * non-extractable signing key. Resolves to `{ privateKey, publicJwk }`: the CryptoKey for
 * handleRequest and the public JWK text for `new AttestationService({ publicKey })`. The core
 * reads and checks the key (a JWK's x/y must be d's point) through importPrivateKey.
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
