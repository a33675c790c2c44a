// Entry for browsers and bundlers (export condition `browser`): nothing happens at import —
// no top-level await, no fetch — so bundlers can tree-shake it, IIFE bundles work, and the
// wasm file is fetched only by `await init()`, which must come before any other call (until
// then they throw ERR_NOT_INITIALIZED). init() looks for the wasm file with
// `new URL('./edgeattest_bg.wasm', import.meta.url)` (init.js), which Vite and webpack 5
// resolve and emit themselves.
export * from './api.js';
export { init } from './init.js';
