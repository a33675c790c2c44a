// The local verifier's API (`edgeattest/local`): the default API of `edgeattest` plus what
// verifying evidence on the relying party's side needs — evidence, certificate chains, RIMs,
// OCSP and runtime values — from the wasm module built with the verifier bindings (Cargo
// feature `js-verifier`). One module, because a verified RIM (`VerifiedRim`) is a handle that
// only the instance that verified it accepts. The attestation service, access control, lists
// and deprecations are in `edgeattest/service` (service/api.js), which holds this API too.
// Shared by this directory's entry modules (index.js, workerd.js, ...), copies of the root
// ones; entry modules instantiate the wasm module first; nothing here touches wasm at import
// time.
//
// The wasm exports are listed by name: the module's internals (two-phase verification
// plumbing wrapped by token.js, initSync) stay private. api.d.ts is made from this module
// at build time (pkg-config/js-types.mjs); tests/js/package.test.mjs checks the two.

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
export {
  generateNonce, buildAttestRequest, validateAttestRequest, verifyEvidence, prepareEvidence,
  verifyCertificateChain, EvidenceBatch, evidenceReport, prepareEvidenceReport,
  EvidenceReportPlan, verifyRim, prepareRim, openRimEnvelope, identifyRim, architectures,
  rimIds, runtimeEvidence, compareGpuRims, compareSwitchRim, VerifiedRim, PendingRim,
  ocspRequests, checkOcspResponses, serviceLimits, appraise,
  checkTopology, checkResultsTopology,
} from './edgeattest.js';
export * from './token.js';
export * from './keys.js';
export * from './ear.js';
// verifyEar of either encoding, in place of ear.js's (which refuses a CWT EAR).
export { verifyEar } from './ear_cwt.js';
export * from './jwks.js';
export * from './evidence.js';
export * from './ocsp.js';
// The verification-key cache runSignatureChecks takes (service.js exports it in the service).
export { createVerifyKeyCache } from './backend.js';
export { EdgeAttestError } from './error.js';
// The signature-check types the API takes (webcrypto.js has no value here to re-export).
/**
 * @typedef {import('./webcrypto.js').VerifyKeyCache} VerifyKeyCache
 * @typedef {import('./webcrypto.js').WebCryptoCheck} WebCryptoCheck
 */
