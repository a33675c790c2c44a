// Body sources for the bounded-reader tests: a stream that makes its bytes only when pulled,
// counts them and records a cancel, so that a test can say how much of a body was read.
import { register } from 'node:module';

/**
 * A body of `total` bytes (each `fill`), made in `chunk`-byte pieces only when the reader
 * pulls (highWaterMark 0: nothing is made ahead). `pulled` counts the bytes handed out,
 * `cancelled` says whether the reader cancelled.
 */
export function countingBody(total, { chunk = 64 * 1024, fill = 0x30 } = {}) {
  const source = { pulled: 0, cancelled: false };
  source.stream = new ReadableStream(underlying(source, total, chunk, fill), { highWaterMark: 0 });
  return source;
}

/** The underlying source of a counting body: its pull and cancel, counted into `source`. */
function underlying(source, total, chunk, fill) {
  return {
    pull(controller) {
      if (source.pulled >= total) {
        controller.close();
        // A byte stream's pending read into the reader's buffer ends with the stream.
        controller.byobRequest?.respond(0);
        return;
      }
      const size = Math.min(chunk, total - source.pulled);
      source.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(fill));
    },
    cancel() {
      source.cancelled = true;
    },
  };
}

/**
 * `countingBody` as a byte stream (`type: 'bytes'`, as a runtime's request and answer bodies
 * are), whose readers may read into their own buffer (BYOB). `reads` counts the reads its
 * reader was asked for, either kind.
 */
export function countingByteBody(total, { chunk = 64 * 1024, fill = 0x30 } = {}) {
  const source = { pulled: 0, cancelled: false, reads: 0 };
  const stream = new ReadableStream({ type: 'bytes', ...underlying(source, total, chunk, fill) }, { highWaterMark: 0 });
  const getReader = stream.getReader.bind(stream);
  stream.getReader = (options) => {
    const reader = getReader(options);
    const read = reader.read.bind(reader);
    reader.read = (...args) => {
      source.reads += 1;
      return read(...args);
    };
    return reader;
  };
  source.stream = stream;
  return source;
}

/** A Request whose body is `source` (no content-length unless `headers` gives one: chunked). */
export function postWith(url, source, headers = {}) {
  return new Request(url, { method: 'POST', body: source.stream, duplex: 'half', headers });
}

let hooked = false;

/**
 * The built edge worker (target/worker/www/worker.js), imported into this process: its router,
 * called with Requests whose bodies the test controls. The worker's package entry (workerd.js)
 * imports its .wasm file as a compiled module, as workerd does; a module hook does that here.
 */
export async function importWorker() {
  if (!hooked) {
    const hooks = `export async function load(url, context, next) {
      if (!url.endsWith('.wasm')) return next(url, context);
      const source = 'import { readFileSync } from "node:fs"; export default new WebAssembly.Module(readFileSync(new URL(' + JSON.stringify(url) + ')));';
      return { format: 'module', source, shortCircuit: true };
    }`;
    register(`data:text/javascript,${encodeURIComponent(hooks)}`);
    hooked = true;
  }
  return (await import('../../../target/worker/www/worker.js')).default;
}
