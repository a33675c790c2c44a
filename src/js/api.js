// The package's default API (`edgeattest`): what a relying party of an attestation service
// needs — nonces, attest requests, checking the tokens that come back, appraising them with a
// policy and reading EARs — from the wasm module built without the local-verification,
// service, access, list and deprecation bindings (Cargo features `js-verifier` and
// `js-service` off), about half the size of `edgeattest/local`.
// Local verification of evidence, certificate chains, RIMs and OCSP is `edgeattest/local`
// (local/api.js), which holds this API too. Shared by every entry module (index.js,
// workerd.js, ...); entry modules instantiate the wasm module first; nothing here touches wasm
// at import time.
//
// The wasm exports are listed by name: the module's internals (two-phase verification
// plumbing wrapped by token.js, initSync) stay private. api.d.ts is made from this module
// at build time (pkg-config/js-types.mjs); tests/js/package.test.mjs checks the two.

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
export { generateNonce, buildAttestRequest, validateAttestRequest, appraise } from './edgeattest.js';
export * from './token.js';
export * from './keys.js';
export * from './ear.js';
export * from './jwks.js';
// The verification-key cache the token checks take.
export { createVerifyKeyCache } from './backend.js';
export { EdgeAttestError } from './error.js';
// The signature-check types the API takes (webcrypto.js has no value here to re-export).
/**
 * @typedef {import('./webcrypto.js').VerifyKeyCache} VerifyKeyCache
 */
