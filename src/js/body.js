// Reading a body within a byte limit: a request's (the worker's routes) or an answer's (RIM
// service, OCSP responder, JWKS, list source). The limit bounds what is read, not only what is
// kept: a Content-Length above it is refused before a byte is read, and otherwise the running
// total is checked as each chunk arrives and the stream is cancelled as soon as it passes the
// limit, so a body without a length (chunked) costs at most the limit plus one chunk. A
// declared length within the limit is not trusted: the chunks are counted all the same.
// The one loop over a body stream in the package and the worker.
import { coded } from './error.js';

/**
 * The bytes of `message`'s body (a Request or a Response: `headers`, and `body` a stream or
 * null), at most `limit`. Past the limit the stream is cancelled and an EdgeAttestError is
 * thrown with `code` and `status` (default ERR_REQUEST_TOO_LARGE, 413: a request body;
 * callers reading an upstream's answer give their own; `status: null` for none), `limit`, and
 * `size`: the declared length, or the bytes received when reading stopped (a lower bound). A
 * stream that fails rejects with its own error, never an EdgeAttestError. `cancelDeclared:
 * false` leaves a body refused by its Content-Length alone untouched (nothing was read), for a
 * caller that reads and drops it after answering, to keep its connection (the worker's drain).
 */
export async function readBody(message, limit, { code = 'ERR_REQUEST_TOO_LARGE', status = 413, what = 'the request body', cancelDeclared = true } = {}) {
  const chunks = [];
  const size = await pull(message, limit, (chunk) => chunks.push(chunk), cancelDeclared);
  if (size > limit) {
    const detail = status === null ? { limit, size } : { status, limit, size };
    throw coded(code, `${what} has more than ${limit} bytes`, undefined, detail);
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads and drops `message`'s body, at most `limit` bytes (declared or received: past them
 * the stream is cancelled). Resolves to whether the whole body was read.
 */
export async function discardBody(message, limit) {
  return (await pull(message, limit, () => {})) <= limit;
}

/**
 * The one loop: each chunk to `take` while the total stays within `limit`. Resolves to the
 * total; a total past `limit` means the stream was cancelled there (or, declared, never read,
 * and cancelled when `cancelDeclared`).
 */
async function pull(message, limit, take, cancelDeclared = true) {
  const stream = message.body;
  if (stream === null) return 0;
  if (typeof stream?.getReader !== 'function') throw new TypeError('the body is not a ReadableStream');
  const declared = message.headers?.get?.('content-length');
  if (declared && /^\d+$/.test(declared) && Number(declared) > limit) {
    // Not awaited: a source that never settles its cancel must not hold the caller.
    if (cancelDeclared) stream.cancel().catch(() => {});
    return Number(declared);
  }
  const reader = stream.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return size;
    if (!(value instanceof Uint8Array)) {
      reader.cancel().catch(() => {});
      throw new TypeError('a body chunk is not a Uint8Array');
    }
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      return size;
    }
    take(value);
  }
}
