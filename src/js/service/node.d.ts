/**
 * The whole of edgeattest: the API of `edgeattest` plus the attestation service, access
 * control (API keys, scopes, the gateway), lists and deprecations, from the wasm module with
 * every binding — what the edge worker loads. In browsers call `await init()` once first.
 *
 * @packageDocumentation
 * @module edgeattest/service
 */
export * from './api.js';
export { init, type InitInput } from './init.js';
