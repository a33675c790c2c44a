// Fetching from outside sources (RIM service, OCSP responder) for every host with fetch: one
// timeout over the whole exchange, body included, and a size cap checked as the body streams
// (body.js), so a source that stalls or sends no content-length cannot hold the host.
import { readBody } from './body.js';
import { EdgeAttestError } from './error.js';

/**
 * One request whose answer is 200 with a body of at most `maxBytes`, within `timeoutMs` from
 * the request to the body's last byte. Never rejects: resolves to `{ body }`, or `{ error }`
 * with 'timeout', 'unreachable' (and `detail`, the fetch's error message), 'too-large', or
 * 'status' (and `status`); a HEAD's 200 is an empty body. Redirects are not followed: a source
 * is the URL configured, not one it names.
 */
export async function fetchCapped(fetchFn, url, init, { timeoutMs, maxBytes }) {
  const controller = new AbortController();
  let timer;
  // A fetch that ignores its signal still ends here at the deadline.
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ error: 'timeout' });
    }, timeoutMs);
  });
  const attempt = (async () => {
    try {
      const response = await fetchFn(url, { ...init, redirect: 'manual', signal: controller.signal });
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        return { error: 'status', status: response.status };
      }
      // A HEAD's answer has no body (its Content-Length is the GET's).
      if (init.method === 'HEAD') {
        await response.body?.cancel().catch(() => {});
        return { body: new Uint8Array(0) };
      }
      return { body: await readBody(response, maxBytes, { what: `the answer of ${url}` }) };
    } catch (error) {
      if (controller.signal.aborted) return { error: 'timeout' };
      // readBody's refusal past maxBytes; a stream that fails is 'unreachable'.
      if (error instanceof EdgeAttestError) return { error: 'too-large' };
      return { error: 'unreachable', detail: String(error?.message ?? error) };
    }
  })();
  try {
    return await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
