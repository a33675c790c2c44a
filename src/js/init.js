// Loading the wasm module: `init(input?)`, shared by every entry. The browser entry
// (browser.js) does nothing at import — bundlers can tree-shake it and `require()` it — so its
// users call `await init()` once; the other entries instantiate at import and init() resolves
// at once. Before the module is loaded every API throws ERR_NOT_INITIALIZED (the glue's
// guard, pkg-config/harden-glue.mjs).
import loadGlue, { initSync } from './edgeattest.js';
import { coded } from './error.js';

let loaded = false;
let pending;

// Node reads file: URLs from disk (its fetch cannot); no static `node:` import, so bundlers
// and browsers never see one. Deno's fetch reads file: URLs itself.
function readFileUrl(url) {
  const fs = globalThis.process?.getBuiltinModule?.('node:fs');
  return fs ? fs.readFileSync(url) : undefined;
}

function isSource(input) {
  return typeof input === 'string' || input instanceof URL
    || (typeof Request === 'function' && input instanceof Request)
    || (typeof Response === 'function' && input instanceof Response)
    || input instanceof ArrayBuffer || ArrayBuffer.isView(input)
    || input instanceof WebAssembly.Module
    || (typeof input?.then === 'function'); // a Promise<Response>, e.g. fetch(url)
}

async function load(input) {
  let source = input;
  let where = 'the given source';
  if (source === undefined) {
    try {
      // The pattern Vite and webpack 5 recognise: they emit the file and rewrite the URL.
      source = new URL('./edgeattest_bg.wasm', import.meta.url);
    } catch (cause) {
      throw coded('ERR_WASM_LOAD', 'the wasm module\'s URL is unknown here (no import.meta.url, e.g. an IIFE bundle): pass it to init(), e.g. init(\'/assets/edgeattest_bg.wasm\')', 'input', { cause });
    }
  }
  if (typeof source === 'string' || source instanceof URL) {
    where = String(source);
    if (where.startsWith('file:')) source = readFileUrl(source) ?? source;
  }
  try {
    await loadGlue({ module_or_path: source });
  } catch (cause) {
    throw coded('ERR_WASM_LOAD', `could not load the edgeattest wasm module from ${where}: ${cause?.message ?? cause} (serve edgeattest_bg.wasm from the package, or pass its URL, bytes or a WebAssembly.Module to init())`, 'input', { cause });
  }
}

/**
 * What init() can load the wasm module from.
 * @typedef {string | URL | Request | Response | PromiseLike<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module} InitInput
 */

/**
 * Loads the package's wasm module. Needed once before any other call in the browser entry
 * (the one bundlers pick); the Node, Deno, workerd and default entries load it at import, so
 * there it resolves at once. Idempotent: later calls return the same promise and ignore
 * `input`; after a failure the next call tries again.
 *
 * @param {InitInput} [input] Where the `edgeattest_bg.wasm` file is: its URL (default: next to the
 * package's JS module, which Vite and webpack 5 resolve and emit), a `Response` (or a promise
 * of one, e.g. `fetch(url)`), its bytes, or a compiled `WebAssembly.Module`.
 * @returns {Promise<void>}
 * @throws EdgeAttestError `ERR_WASM_LOAD` (not found, not wasm, no URL known) or
 * `ERR_INVALID_ARGUMENT` (an input of another kind), as a rejection.
 *
 * @example
 * ```ts
 * await init(); // the browser entry: once, before any other call
 * ```
 */
export function init(input) {
  if (loaded) return Promise.resolve();
  if (input !== undefined && (input === null || !isSource(input))) {
    return Promise.reject(coded('ERR_INVALID_ARGUMENT', 'input must be a URL, a Response, a BufferSource or a WebAssembly.Module', 'input'));
  }
  pending ??= load(input).then(
    () => { loaded = true; },
    (error) => { pending = undefined; throw error; },
  );
  return pending;
}

/**
 * For the entries that instantiate at import: bytes or a compiled module, synchronously.
 * @param {BufferSource | WebAssembly.Module} module
 */
export function initNow(module) {
  initSync({ module });
  loaded = true;
}
