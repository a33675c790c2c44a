// Wraps an optimised wasm32-wasip2 core module into a WebAssembly Component, reading the WIT
// world from the module's `component-type` custom sections (wit-bindgen's), as the
// toolchain's wasm-component-ld does; jco's wasm-tools build, so no native wasm-tools.
//   node pkg-config/component-new.mjs CORE.wasm OUT.wasm
import { readFileSync, writeFileSync } from 'node:fs';
import { componentNew } from '@bytecodealliance/jco-transpile/wasm-tools';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node pkg-config/component-new.mjs CORE.wasm OUT.wasm');
  process.exit(2);
}
writeFileSync(output, await componentNew(readFileSync(input)));
