// OCSP over HTTP for any host with fetch (browsers, Node, Deno, workerd): the wasm core
// builds the requests and checks the answers; this module only POSTs them, each with a
// timeout, all of a chain's requests at once (at most 4 per chain).
import { ocspRequests, checkOcspResponses, serviceLimits } from './edgeattest.js';
import { coded } from './error.js';
import { fetchCapped } from './http.js';

/** NVIDIA's OCSP responder (plain RFC 6960 over HTTP POST). */
export const NVIDIA_OCSP_URL = 'https://ocsp.ndis.nvidia.com/';

/**
 * Asks `url` about the certificates of `chainPem` that NVIDIA's verifiers ask about and
 * resolves to the chain's status (checkOcspResponses). Network failures are not thrown:
 * they make the certificate's status `failed` with ERR_OCSP_UNAVAILABLE (service code 5001).
 */
export async function fetchOcspStatus(chainPem, options = {}) {
  const { kind = 'device', url = NVIDIA_OCSP_URL, timeoutMs = 10_000, allowHold = false, now, nonces } = options;
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') throw coded('ERR_INVALID_ARGUMENT', 'fetch must be a function', 'fetch');
  if (typeof url !== 'string') throw coded('ERR_INVALID_ARGUMENT', 'url must be a string', 'url');
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw coded('ERR_INVALID_ARGUMENT', 'timeoutMs must be a positive number', 'timeoutMs');
  const requests = ocspRequests(chainPem, { kind, nonces });
  const answers = await Promise.all(requests.map((r) => fetchAnswer(fetchFn, url, r, timeoutMs)));
  return checkOcspResponses(chainPem, kind, answers, now, { allowHold });
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
