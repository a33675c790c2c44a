// OCSP over HTTP for any host with fetch (browsers, Node, Deno, workerd): the wasm core
// builds the requests and checks the answers; this module only POSTs them, each with a
// timeout, all of a chain's requests at once (at most 4 per chain).
import { ocspRequests, checkOcspResponses, serviceLimits } from './edgeattest.js';
import { coded } from './error.js';
import { fetchCapped } from './http.js';

/** @import { OcspChainKind, OcspChainStatus, RevocationComponent, RevocationRule } from './edgeattest.js' */

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
