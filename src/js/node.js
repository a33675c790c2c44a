// Entry for Node and Deno (export conditions `node`, `deno`): the wasm module is read and
// instantiated synchronously at import, without top-level await, so `import` works and so
// does `require()` where Node loads ES modules with it (22.12+, 20.19+; 20.17 with
// --experimental-require-module).
import { readFileSync } from 'node:fs';
import { initNow } from './init.js';

initNow(readFileSync(new URL('./edgeattest_bg.wasm', import.meta.url)));

export * from './api.js';
export { init } from './init.js';
