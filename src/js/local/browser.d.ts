/**
 * NVIDIA GPU and switch attestation verified on the relying party's side: the API of
 * `edgeattest` plus local evidence, certificate chain, RIM and OCSP verification and runtime
 * values, from a module of its own (about twice the size of `edgeattest`'s). Import
 * everything from here when you verify evidence locally: verified RIMs are handles that only
 * this module accepts. In browsers call `await init()` once first.
 *
 * @packageDocumentation
 * @module edgeattest/local
 */
export * from './api.js';
export { init, type InitInput } from './init.js';
