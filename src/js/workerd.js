// Entry for workerd and Cloudflare Workers: the bundler or runtime gives a compiled
// WebAssembly.Module for a .wasm import, which is instantiated synchronously.
import wasmModule from './edgeattest_bg.wasm';
import { initNow } from './init.js';

initNow(wasmModule);

export * from './api.js';
export { init } from './init.js';
