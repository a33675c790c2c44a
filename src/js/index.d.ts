/**
 * NVIDIA GPU and switch attestation for relying parties: attest requests, token verification,
 * and local evidence, certificate chain, RIM and OCSP verification. The attestation service,
 * access control, lists and deprecations are in `edgeattest/service`. In browsers call
 * `await init()` once first.
 *
 * @packageDocumentation
 * @module edgeattest
 */
export * from './api.js';
export { init, type InitInput } from './init.js';
