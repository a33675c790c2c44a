/**
 * NVIDIA GPU and switch attestation for relying parties of an attestation service (NVIDIA's
 * NRAS, or edgeattest's own): nonces and attest requests, checking the tokens that come back,
 * appraising them with a policy, and EARs. Local verification of evidence, certificate chains,
 * RIMs and OCSP is `edgeattest/local`; the attestation service, access control, lists and
 * deprecations are `edgeattest/service`; Rego policies `edgeattest/rego`. In browsers call
 * `await init()` once first.
 *
 * @packageDocumentation
 * @module edgeattest
 */
export * from './api.js';
export { init, type InitInput } from './init.js';
