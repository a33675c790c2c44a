// The OCSP relay of the verification page: browsers cannot POST to NVIDIA's responder (it
// sends no CORS headers), so the page posts its OCSP requests here and the worker forwards
// them to the responder it is configured with — that one URL only, never one the client
// names — with a size cap and a timeout. The page checks the answers itself (the wasm core);
// nothing here is trusted. GET names the responder (null: revocation checking is off).
import { NVIDIA_OCSP_URL, serviceLimits } from '../pkg/service/workerd.js';
import { errorAnswer } from './worker-answer.js';

/** An OCSP request for one certificate is about 150 bytes: the relay takes 64 KiB at most. */
const MAX_REQUEST_BYTES = 64 * 1024;
/** The core's cap on an OCSP response (MAX_RESPONSE_LEN): a larger one is never read. */
const { maxOcspResponseBytes } = serviceLimits();
const TIMEOUT_MS = 10_000;

export const isOcspRelayPath = (pathname) => pathname === '/ocsp';

/** The responder the relay forwards to, or null when revocation checking is off. */
function responderOf(env) {
  const value = env.EDGEATTEST_OCSP_URL;
  if (value === 'off') return null;
  return value || NVIDIA_OCSP_URL;
}

export async function ocspRelay(request, env) {
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
  if (Number(request.headers.get('content-length')) > MAX_REQUEST_BYTES) {
    return errorAnswer(413, 'ERR_REQUEST_TOO_LARGE', `an OCSP request is at most ${MAX_REQUEST_BYTES} bytes`);
  }
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.byteLength > MAX_REQUEST_BYTES) {
    return errorAnswer(413, 'ERR_REQUEST_TOO_LARGE', `an OCSP request is at most ${MAX_REQUEST_BYTES} bytes`);
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
    return errorAnswer(502, 'ERR_OCSP_UPSTREAM', `the OCSP responder could not be reached: ${error.message}`);
  }
  const bytes = new Uint8Array(await answer.arrayBuffer());
  if (bytes.byteLength > maxOcspResponseBytes) {
    return errorAnswer(502, 'ERR_OCSP_UPSTREAM', `the OCSP responder answered more than ${maxOcspResponseBytes} bytes`);
  }
  return new Response(bytes, { status: answer.status, headers: { 'content-type': 'application/ocsp-response', 'cache-control': 'no-store' } });
}
