// The OCSP relay of the verification page: browsers cannot POST to NVIDIA's responder (it
// sends no CORS headers), so the page posts its OCSP requests here and the worker forwards
// them to the responder it is configured with — that one URL only, never one the client
// names — with a size cap and a timeout. The page checks the answers itself (the wasm core);
// nothing here is trusted. GET names the responder (null: revocation checking is off).
const NVIDIA_OCSP_URL = 'https://ocsp.ndis.nvidia.com/';
/** An OCSP request for one certificate is about 150 bytes; answers are a few KB. */
const MAX_REQUEST_BYTES = 64 * 1024;
const MAX_ANSWER_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;

export const isOcspRelayPath = (pathname) => pathname === '/ocsp';

function json(status, value, headers = {}) {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** The responder the relay forwards to, or null when revocation checking is off. */
function responderOf(env) {
  const value = env.EDGEATTEST_OCSP_URL;
  if (value === 'off') return null;
  return value || NVIDIA_OCSP_URL;
}

export async function ocspRelay(request, env) {
  const responder = responderOf(env);
  // GET answers either way (the page asks before it posts): the responder, or null when off.
  if (request.method === 'GET' || request.method === 'HEAD') return json(200, { responder });
  if (!responder) {
    return json(404, { code: 'ERR_OCSP_RELAY_OFF', message: 'revocation checking is off (EDGEATTEST_OCSP_URL=off)', status: 404 });
  }
  if (request.method !== 'POST') {
    return json(405, { code: 'ERR_METHOD_NOT_ALLOWED', message: `${request.method} is not allowed on /ocsp`, status: 405 }, { allow: 'GET, POST' });
  }
  if (Number(request.headers.get('content-length')) > MAX_REQUEST_BYTES) {
    return json(413, { code: 'ERR_REQUEST_TOO_LARGE', message: `an OCSP request is at most ${MAX_REQUEST_BYTES} bytes`, status: 413 });
  }
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.byteLength > MAX_REQUEST_BYTES) {
    return json(413, { code: 'ERR_REQUEST_TOO_LARGE', message: `an OCSP request is at most ${MAX_REQUEST_BYTES} bytes`, status: 413 });
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
    return json(502, { code: 'ERR_OCSP_UPSTREAM', message: `the OCSP responder could not be reached: ${error.message}`, status: 502 });
  }
  const bytes = new Uint8Array(await answer.arrayBuffer());
  if (bytes.byteLength > MAX_ANSWER_BYTES) {
    return json(502, { code: 'ERR_OCSP_UPSTREAM', message: 'the OCSP responder answered more than 64 KiB', status: 502 });
  }
  return new Response(bytes, { status: answer.status, headers: { 'content-type': 'application/ocsp-response', 'cache-control': 'no-store' } });
}
