/** What init() can load the wasm module from. */
export type InitInput =
  | string
  | URL
  | Request
  | Response
  | PromiseLike<Response>
  | ArrayBuffer
  | ArrayBufferView
  | WebAssembly.Module;

/**
 * Loads the package's wasm module. Needed once before any other call in the browser entry
 * (the one bundlers pick); the Node, Deno, workerd and default entries load it at import, so
 * there it resolves at once. Idempotent: later calls return the same promise and ignore
 * `input`; after a failure the next call tries again.
 *
 * @param input Where the `edgeattest_bg.wasm` file is: its URL (default: next to the
 * package's JS module, which Vite and webpack 5 resolve and emit), a `Response` (or a promise
 * of one, e.g. `fetch(url)`), its bytes, or a compiled `WebAssembly.Module`.
 * @throws EdgeAttestError `ERR_WASM_LOAD` (not found, not wasm, no URL known) or
 * `ERR_INVALID_ARGUMENT` (an input of another kind), as a rejection.
 *
 * @example
 * ```ts
 * await init(); // the browser entry: once, before any other call
 * ```
 */
export function init(input?: InitInput): Promise<void>;
