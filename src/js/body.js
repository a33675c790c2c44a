// Reading a body within a byte limit: a request's (the worker's routes) or an answer's (RIM
// service, OCSP responder, JWKS, list source). The limit bounds what is read, not only what is
// kept: a Content-Length above it is refused before a byte is read, and otherwise the running
// total is checked as the bytes arrive and the stream is cancelled as soon as it passes the
// limit, so a body without a length (chunked) costs at most the limit plus one chunk. A
// declared length within the limit is not trusted: the bytes are counted all the same.
// The one reader of a body stream in the package and the worker.
import { coded } from './error.js';

/**
 * What a byte stream's first read asks for when the body declares no length; each later read
 * that finds the buffer full doubles it (never past the limit plus one byte).
 */
const FIRST_READ_BYTES = 16 * 1024;

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
  const { size, bytes } = await collect(message, limit, cancelDeclared);
  if (size > limit) {
    const detail = status === null ? { limit, size } : { status, limit, size };
    throw coded(code, `${what} has more than ${limit} bytes`, undefined, detail);
  }
  return bytes;
}

/**
 * Reads and drops `message`'s body, at most `limit` bytes (declared or received: past them
 * the stream is cancelled). Resolves to whether the whole body was read.
 */
export async function discardBody(message, limit) {
  const stream = opened(message, limit, true);
  if (typeof stream === 'number') return stream <= limit;
  return (await eachChunk(stream.getReader(), limit, () => {})) <= limit;
}

/** The Content-Length `message` declares, a number, or undefined. */
function declaredLength(message) {
  const declared = message.headers?.get?.('content-length');
  return declared && /^\d+$/.test(declared) ? Number(declared) : undefined;
}

/**
 * `message`'s body stream, or the size that ends the reading before a byte is read: 0 for no
 * body, a declared Content-Length over `limit` (the stream then cancelled when
 * `cancelDeclared`; not awaited: a source that never settles its cancel must not hold the
 * caller).
 */
function opened(message, limit, cancelDeclared) {
  const stream = message.body;
  if (stream === null) return 0;
  if (typeof stream?.getReader !== 'function') throw new TypeError('the body is not a ReadableStream');
  const declared = declaredLength(message);
  if (declared !== undefined && declared > limit) {
    if (cancelDeclared) stream.cancel().catch(() => {});
    return declared;
  }
  return stream;
}

/**
 * The body's size and, within `limit`, its bytes. A byte stream (a runtime's request or
 * answer body) is read into one buffer the reader fills (`fill`): a few reads, no chunk
 * copied twice; another stream chunk by chunk (`eachChunk`).
 */
async function collect(message, limit, cancelDeclared) {
  const stream = opened(message, limit, cancelDeclared);
  if (typeof stream === 'number') return { size: stream, bytes: new Uint8Array(0) };
  const byob = byobReader(stream);
  if (byob) return fill(byob, limit, declaredLength(message));
  const chunks = [];
  const size = await eachChunk(stream.getReader(), limit, (chunk) => chunks.push(chunk));
  if (size > limit || chunks.length === 1) return { size, bytes: chunks[0] };
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { size, bytes };
}

/** A BYOB reader of `stream` when it is a byte stream, else undefined (it stays unlocked). */
function byobReader(stream) {
  try {
    return stream.getReader({ mode: 'byob' });
  } catch {
    return undefined;
  }
}

/**
 * Reads a byte stream into one buffer: first the declared length plus one byte (where a body
 * longer than it declared shows), else FIRST_READ_BYTES, doubled each time it is full, never
 * past `limit` + 1 bytes. A read never asks for more than the buffer's free space, so the
 * bytes are counted as they arrive: a full buffer of `limit` + 1 is a body past the limit, and
 * the stream is cancelled there. While the declared length is not yet received, a read waits
 * for all of it (`min`): the runtime gathers the network's pieces itself, and a declared body
 * costs two reads (its bytes, then its end) instead of one per piece — in workerd, behind the
 * assets router, a piece per read is most of a request body's cost. A runtime without `min`
 * ignores it: a read then returns what has arrived. Resolves to the size and the bytes (a view
 * of the buffer).
 */
async function fill(reader, limit, declared) {
  const cap = limit + 1;
  let buffer = new ArrayBuffer(Math.min(declared === undefined ? FIRST_READ_BYTES : declared + 1, cap));
  let size = 0;
  for (;;) {
    if (size === buffer.byteLength) {
      if (size === cap) {
        reader.cancel().catch(() => {});
        return { size };
      }
      const grown = new Uint8Array(Math.min(size * 2, cap));
      grown.set(new Uint8Array(buffer, 0, size));
      buffer = grown.buffer;
    }
    const min = declared > size ? declared - size : 1;
    const { done, value } = await reader.read(new Uint8Array(buffer, size, buffer.byteLength - size), { min });
    // The read hands the buffer back in `value` (the one given is detached), with the bytes
    // it filled: at the end too, when the stream closed before `min` was reached. A stream
    // cancelled meanwhile gives none.
    if (value === undefined) throw new TypeError('the body stream was cancelled while it was read');
    buffer = value.buffer;
    size += value.byteLength;
    if (done) return { size, bytes: new Uint8Array(buffer, 0, size) };
  }
}

/**
 * Each chunk to `take` while the total stays within `limit`. Resolves to the total; a total
 * past `limit` means the stream was cancelled there.
 */
async function eachChunk(reader, limit, take) {
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
