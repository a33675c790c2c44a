// Entry for browsers, Node and Deno. The wasm module is instantiated once, at import (top-level
// await), so every exported function is ready to call. Cloudflare Workers/workerd resolve the
// package to workerd.js instead, where a .wasm import is a compiled WebAssembly.Module.
import init, { initSync } from './edgeattest.js';

const wasmUrl = new URL('./edgeattest_bg.wasm', import.meta.url);
if (wasmUrl.protocol === 'file:') {
  // Node and Deno: fetch() cannot read file: URLs in Node.
  const { readFile } = await import('node:fs/promises');
  initSync({ module: await readFile(wasmUrl) });
} else {
  await init({ module_or_path: wasmUrl });
}

export * from './api.js';
