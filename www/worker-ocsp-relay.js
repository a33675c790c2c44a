// The OCSP relay of the verification page: browsers cannot POST to NVIDIA's responder (it
// sends no CORS headers), so the page posts its OCSP requests here and the worker forwards
// them to the responder it is configured with — that one URL only, never one the client
// names — with a size cap and a timeout. The page checks the answers itself (the wasm core);
// nothing here is trusted. GET names the responder (null: revocation checking is off). Both
// bodies, the request and the responder's answer, are read within their caps (readBody): a
// larger one is refused from its Content-Length or where it passes the cap, never read whole
// nor kept.
//
// It is also the verified mirror's OCSP responder (RFC 6960 over POST, for NVIDIA's tools and
// other verifiers): a request the core says a cached answer may answer (mirrorOcspKey:
// unsigned, one SHA-384 CertID, no nonce) is answered with the answer an attestation
// verified, bytes intact (signed by NVIDIA's responder), while it is fresh; every other
// request — one with a nonce gets a fresh answer that echoes it — is relayed.
import { EdgeAttestError, NVIDIA_OCSP_URL, mirrorOcspKey, serviceLimits } from '../pkg/service/workerd.js';
import { readBody } from '../pkg/service/body.js';
import { errorAnswer } from './worker-answer.js';
import { readRequestBody } from './worker-body.js';

/** An OCSP request for one certificate is about 150 bytes: the relay takes 64 KiB at most. */
const MAX_REQUEST_BYTES = 64 * 1024;
/** The core's cap on an OCSP response (MAX_RESPONSE_LEN): a larger one is never read. */
const { maxOcspResponseBytes } = serviceLimits();
const TIMEOUT_MS = 10_000;
/** What the operator of a relay whose responder does not answer can do. */
const RELAY_REMEDY = 'Go online or point EDGEATTEST_OCSP_URL at a reachable responder; to run air-gapped, set EDGEATTEST_OCSP_URL=off (the page then says revocation was not checked)';

export const isOcspRelayPath = (pathname) => pathname === '/ocsp';

/** The responder the relay forwards to, or null when revocation checking is off. */
function responderOf(env) {
  const value = env.EDGEATTEST_OCSP_URL;
  if (value === 'off') return null;
  return value || NVIDIA_OCSP_URL;
}

export async function ocspRelay(request, env, { cache, now } = {}) {
  const responder = responderOf(env);
  // GET answers either way (the page asks before it posts): the responder, or null when off.
  if (request.method === 'GET' || request.method === 'HEAD') {
    return new Response(JSON.stringify({ responder }), { headers: { 'content-type': 'application/json' } });
  }
  if (!responder) {
    return errorAnswer(404, 'ERR_OCSP_RELAY_OFF', 'revocation checking is off (EDGEATTEST_OCSP_URL=off)');
  }
  if (request.method !== 'POST') {
    return errorAnswer(405, 'ERR_METHOD_NOT_ALLOWED', `${request.method} is not allowed on /ocsp`, { allow: 'GET, POST' });
  }
  let body;
  try {
    body = await readRequestBody(request, MAX_REQUEST_BYTES, { what: 'an OCSP request' });
  } catch (error) {
    if (error instanceof EdgeAttestError) return errorAnswer(error.status, error.code, error.message);
    throw error;
  }
  const key = cache && now !== undefined ? mirrorOcspKey(body) : undefined;
  const kept = key ? await cache.get(`ocsp:${key}`, now) : undefined;
  if (kept?.body) {
    return new Response(kept.body, { headers: { 'content-type': 'application/ocsp-response', 'cache-control': 'no-store', 'x-edgeattest-mirror': 'verified' } });
  }
  let answer;
  try {
    answer = await fetch(responder, {
      method: 'POST',
      headers: { 'content-type': 'application/ocsp-request' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    // workerd's message for a failed DNS lookup is "internal error; reference = …": the cause
    // is said in words instead, and what to do.
    const cause = error?.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : 'no connection: its name did not resolve or it refused';
    return errorAnswer(502, 'ERR_OCSP_UPSTREAM', `the OCSP responder ${responder} could not be reached (${cause}), so revocation cannot be checked. ${RELAY_REMEDY}`);
  }
  let bytes;
  try {
    bytes = await readBody(answer, maxOcspResponseBytes, { code: 'ERR_OCSP_UPSTREAM', status: 502, what: 'the OCSP responder\'s answer' });
  } catch (error) {
    if (error instanceof EdgeAttestError) return errorAnswer(error.status, error.code, error.message);
    return errorAnswer(502, 'ERR_OCSP_UPSTREAM', `the OCSP responder's answer could not be read: ${error.message}`);
  }
  return new Response(bytes, { status: answer.status, headers: { 'content-type': 'application/ocsp-response', 'cache-control': 'no-store' } });
}
