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
// plumbing wrapped by token.js, initSync) stay private. api.d.ts lists the same names, and
// tests/js/package.test.mjs checks that the two lists and the module agree.
export {
  generateNonce, buildAttestRequest, validateAttestRequest, verifyEvidence, prepareEvidence,
  verifyCertificateChain, EvidenceBatch, evidenceReport, prepareEvidenceReport,
  EvidenceReportPlan, verifyRim, prepareRim, openRimEnvelope, identifyRim, architectures,
  rimIds, runtimeEvidence, compareGpuRims, compareSwitchRim, VerifiedRim, PendingRim,
  ocspRequests, checkOcspResponses, serviceLimits, appraise,
} from './edgeattest.js';
export * from './token.js';
export * from './keys.js';
export * from './ear.js';
export * from './jwks.js';
export * from './evidence.js';
export * from './ocsp.js';
// The verification-key cache runSignatureChecks takes (service.js exports it in the service).
export { createVerifyKeyCache } from './backend.js';
export { EdgeAttestError } from './error.js';
