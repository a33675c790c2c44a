/**
 * NVIDIA GPU and switch attestation: attest requests, token verification, local evidence and
 * RIM verification, and the attestation service, from one WebAssembly module. In browsers
 * call `await init()` once first.
 *
 * @packageDocumentation
 * @module edgeattest
 */
export * from './api.js';
export { init, type InitInput } from './init.js';
