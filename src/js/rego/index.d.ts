/**
 * Rego relying-party policies (NVIDIA's C++ SDK format) over a verified result, evaluated by
 * regorus in a wasm module of their own (`appraiseRego`). In browsers call `await init()`
 * once first.
 *
 * @packageDocumentation
 * @module edgeattest/rego
 */
export * from './api.js';
export { init, type InitInput } from './init.js';
