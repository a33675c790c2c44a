// Fetching from outside sources (RIM service, OCSP responder, a JWKS) for every host with
// fetch: one timeout over the whole exchange, body included, and a size cap checked as the
// body streams, so a source that stalls or sends no content-length cannot hold the host.

/**
 * The body of `response`, read as it streams; null past `maxBytes` (the rest is abandoned).
 */
export async function readCapped(response, maxBytes) {
  const declared = Number(response.headers?.get?.('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    return bytes.byteLength > maxBytes ? null : bytes;
  }
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * One request whose answer is 200 with a body of at most `maxBytes`, within `timeoutMs` from
 * the request to the body's last byte. Never rejects: resolves to `{ body }`, or `{ error }`
 * with 'timeout', 'unreachable', 'too-large', or 'status' (and `status`). Redirects are not
 * followed: a source is the URL configured, not one it names.
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
      const body = await readCapped(response, maxBytes);
      return body ? { body } : { error: 'too-large' };
    } catch (error) {
      if (controller.signal.aborted) return { error: 'timeout' };
      return { error: 'unreachable', detail: String(error?.message ?? error) };
    }
  })();
  try {
    return await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
