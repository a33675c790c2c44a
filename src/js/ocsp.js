// OCSP over HTTP for any host with fetch (browsers, Node, Deno, workerd): the wasm core
// builds the requests and checks the answers; this module only POSTs them, each with a
// timeout, all of a chain's requests at once (at most 4 per chain).
import { ocspRequests, checkOcspResponses, serviceLimits, signerOcspRequests, checkSignerOcsp } from './edgeattest.js';
import { coded } from './error.js';
import { fetchCapped } from './http.js';

/** @import { OcspChainKind, OcspChainStatus, RevocationComponent, RevocationPolicy, RevocationRule, SignerOcspStatus } from './edgeattest.js' */

/**
 * Options of fetchOcspStatus.
 * @typedef {object} FetchOcspStatusOptions
 * @property {OcspChainKind} [kind] Default "device" (the leaf is not asked about); "rim" asks about the signer too.
 * @property {string} [url] The responder; default NVIDIA_OCSP_URL. Certificates' own AIA URLs are never used.
 * @property {(url: string, init: RequestInit) => Promise<Response>} [fetch] Default globalThis.fetch.
 * @property {number} [timeoutMs] Per request; default 10000 (NVIDIA's verifier's budget).
 * @property {RevocationRule} [rule] What passes besides `good`, each with a warning in `warnings` (`allowUnknown`, `revokedGracePeriod`, `allowHold`); default strict, as NVIDIA's service.
 * @property {boolean} [allowHold] Shorthand for `rule.allowHold`: count certificateHold as good (`held: true`), with a warning.
 * @property {RevocationComponent} [component] Which chain it is (`deviceChain`, `driverRimChain`, ...), named in the warnings.
 * @property {number} [now] Unix seconds; default the host clock.
 * @property {Uint8Array[]} [nonces] One 32-byte nonce per request; default crypto.getRandomValues.
 */

/**
 * NVIDIA's OCSP responder, the default `url` (plain RFC 6960 over HTTP POST).
 * @type {string}
 */
export const NVIDIA_OCSP_URL = 'https://ocsp.ndis.nvidia.com/';

/**
 * Asks an OCSP responder (NVIDIA's by default) about a certificate chain: POSTs the chain's
 * OCSP requests (`ocspRequests`), each within `timeoutMs`, and checks the answers
 * (`checkOcspResponses`: signer, signature, certificate, times, nonce). Resolves with the
 * chain's status; network failures are not thrown: they make the certificate's status
 * `failed` with `ERR_OCSP_UNAVAILABLE` (service code 5001).
 *
 * @param {string} chainPem
 * @param {FetchOcspStatusOptions} [options]
 * @returns {Promise<OcspChainStatus>}
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for options of the wrong
 * shape (`fetch`, `url`, `timeoutMs`), `ERR_CHAIN_PEM` / `ERR_CERT_*` for a chain that does
 * not read.
 *
 * @example
 * ```ts
 * declare const certificate: string; // the device's chain (PEM, leaf first)
 * const revocation = await fetchOcspStatus(certificate, { kind: 'device' });
 * if (revocation.status !== 'good') console.error(revocation.status, revocation.serviceCode);
 * ```
 */
export async function fetchOcspStatus(chainPem, options = {}) {
  const { kind = 'device', url = NVIDIA_OCSP_URL, timeoutMs = 10_000, allowHold = false, rule, component, now, nonces } = options;
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') throw coded('ERR_INVALID_ARGUMENT', 'fetch must be a function', 'fetch');
  if (typeof url !== 'string') throw coded('ERR_INVALID_ARGUMENT', 'url must be a string', 'url');
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw coded('ERR_INVALID_ARGUMENT', 'timeoutMs must be a positive number', 'timeoutMs');
  const requests = ocspRequests(chainPem, { kind, nonces });
  const answers = await Promise.all(requests.map((r) => fetchAnswer(fetchFn, url, r, timeoutMs)));
  return checkOcspResponses(chainPem, kind, answers, now, { allowHold, rule, component });
}

/**
 * Options of fetchSignerOcsp.
 * @typedef {object} FetchSignerOcspOptions
 * @property {'any' | ({ spkiSha256: string } | { certificate: string })[]} [signers] The anchors the result was verified with; default NRAS's.
 * @property {RevocationPolicy} [revocation] The revocation policy; its `signerChain` rule applies (`allowUnknown`, `revokedGracePeriod`, `allowHold`). Default strict.
 * @property {string} [url] Ask this responder instead of the one each certificate names.
 * @property {(url: string, init: RequestInit) => Promise<Response>} [fetch] Default globalThis.fetch.
 * @property {number} [timeoutMs] Per request; default 10000.
 * @property {number} [now] Unix seconds; default the host clock.
 * @property {Uint8Array[]} [nonces] One 32-byte nonce per request; default crypto.getRandomValues.
 * @property {boolean} [cache] Reuse an answer this module fetched for the same certificate and responder until its `cacheUntil` (the earlier of its nextUpdate and a day); default true. Every reused answer is checked again, against the nonce it was fetched with.
 */

/** Answers about signer certificates: `${url} ${cacheKey}` → { body, nonce, until }, oldest first. */
const signerAnswers = new Map();
/** At most this many answers are kept (a relying party sees few signers). */
const SIGNER_ANSWERS_MAX = 64;

/**
 * Asks whether the chain of the key that signed a verified result is revoked. The key
 * (`verified.signer.kid` in `jwks`) is pinned again under `signers`; each certificate of its
 * path that names an OCSP responder, and whose issuer is on the path, is asked about at that
 * responder (a trusted CA wrote the URL; `url` overrides it), and the answers are judged under
 * `revocation.signerChain`.
 *
 * Resolves with the status when it passes: `good` (each outcome the rule let pass is a
 * warning in `warnings`), or `not-checked` when nothing could be asked (`notChecked` says
 * why: NRAS's signing certificate names no responder and its intermediate's issuer is not
 * public, so NRAS's results are `not-checked`). Rejects when the rule refuses it, with
 * `ERR_SIGNER_REVOKED` or `ERR_SIGNER_REVOCATION_UNCONFIRMED` (unknown, unanswered, or an
 * answer not believed) and the status as `revocation`.
 *
 * @param {{ signer?: { pinned: boolean; kid?: string | null } }} verified What verifyAttestationResult, verifyJwt or verifyEar resolved with.
 * @param {string | Uint8Array | { keys: object[] } | import('./jwks.js').RemoteJWKSet} jwks The key set it was verified with (a remote set: the set it last fetched, and its `signers` unless `options.signers` is given).
 * @param {FetchSignerOcspOptions} [options]
 * @returns {Promise<SignerOcspStatus>}
 * @throws EdgeAttestError (as a rejection) `ERR_SIGNER_REVOKED`, `ERR_SIGNER_REVOCATION_UNCONFIRMED`
 * (with `revocation`), `ERR_SIGNER_*` for a key that no longer pins, `ERR_INVALID_ARGUMENT`
 * for options of the wrong shape.
 *
 * @example
 * ```ts
 * declare const result: string; // NRAS's answer (JSON text)
 * declare const jwks: { keys: object[] };
 * const verified = await verifyAttestationResult(result, jwks, { nonce: '…' });
 * const revocation = await fetchSignerOcsp(verified, jwks);
 * if (revocation.status === 'not-checked') console.warn(revocation.notChecked);
 * ```
 */
export async function fetchSignerOcsp(verified, jwks, options = {}) {
  const { revocation, url, timeoutMs = 10_000, now, nonces } = options;
  let { signers } = options;
  if (typeof jwks === 'function' && typeof jwks.jwks === 'function') {
    // A remote set (createRemoteJWKSet): the set it last fetched, and its anchors.
    signers ??= jwks.signers;
    jwks = jwks.jwks();
    if (jwks === undefined) throw coded('ERR_INVALID_ARGUMENT', 'jwks is a remote key set that has not fetched yet: verify with it first', 'jwks');
  }
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') throw coded('ERR_INVALID_ARGUMENT', 'fetch must be a function', 'fetch');
  if (url !== undefined && typeof url !== 'string') throw coded('ERR_INVALID_ARGUMENT', 'url must be a string', 'url');
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw coded('ERR_INVALID_ARGUMENT', 'timeoutMs must be a positive number', 'timeoutMs');
  const signer = verified?.signer;
  if (typeof signer !== 'object' || signer === null) throw coded('ERR_INVALID_ARGUMENT', 'verified must be a verified result or token (with signer)', 'verified');
  const kid = signer.kid ?? undefined;
  // Unpinned: the core says so (nothing trusted to ask about).
  const core = { kid, signers: signer.pinned ? signers : 'any' };
  const requests = signerOcspRequests(jwks, { ...core, nonces }, now);
  const clock = now ?? Math.floor(Date.now() / 1000);
  const keys = requests.map((r) => `${url ?? r.url} ${r.cacheKey}`);
  const useCache = options.cache !== false;
  const cached = (key) => {
    const hit = useCache ? signerAnswers.get(key) : undefined;
    return hit?.until > clock ? hit : undefined;
  };
  const answers = await Promise.all(requests.map((r, n) => {
    const hit = cached(keys[n]);
    return hit ? { body: hit.body, nonce: hit.nonce } : fetchAnswer(fetchFn, url ?? r.url, r, timeoutMs);
  }));
  const status = checkSignerOcsp(jwks, answers, now, { ...core, revocation });
  // Keep what verified and may be cached (the core's cacheUntil); drop what no longer verifies.
  status.certificates.forEach((certificate, n) => {
    signerAnswers.delete(keys[n]);
    if (useCache && answers[n].body && certificate.status !== 'failed' && certificate.cacheUntil > clock) {
      signerAnswers.set(keys[n], { body: answers[n].body, nonce: answers[n].nonce, until: certificate.cacheUntil });
      if (signerAnswers.size > SIGNER_ANSWERS_MAX) signerAnswers.delete(signerAnswers.keys().next().value);
    }
  });
  if (status.code) throw coded(status.code, status.message ?? status.code, undefined, { revocation: status });
  return status;
}

/** One POST; resolves to an OcspAnswer, never rejects. */
async function fetchAnswer(fetchFn, url, request, timeoutMs) {
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/ocsp-request', accept: 'application/ocsp-response' },
    body: request.request,
  };
  // The largest response the core reads (MAX_RESPONSE_LEN): a larger body is not read.
  const answer = await fetchCapped(fetchFn, url, init, { timeoutMs, maxBytes: serviceLimits().maxOcspResponseBytes });
  // `detail` (why a fetch failed) is for people, not an OcspAnswer member.
  return 'body' in answer ? { body: answer.body, nonce: request.nonce } : { error: answer.error, status: answer.status };
}
