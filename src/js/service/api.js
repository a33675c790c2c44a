// The service API (`edgeattest/service`): everything — the verifier API of `edgeattest` plus
// the attestation service, access control, lists and deprecations — from the wasm module
// built with every binding (Cargo feature `js-full`). What the edge worker loads. Shared by
// this directory's entry modules (index.js, workerd.js, ...), copies of the root ones; entry
// modules instantiate the wasm module first; nothing here touches wasm at import time.
//
// The wasm exports are listed by name: the module's internals (two-phase verification
// plumbing wrapped by token.js, initSync) stay private. api.d.ts is made from this module
// at build time (pkg-config/js-types.mjs); tests/js/package.test.mjs checks the two.

/**
 * The whole of edgeattest: the API of `edgeattest` plus the attestation service, access
 * control (API keys, scopes, the gateway), lists and deprecations, from the wasm module with
 * every binding — what the edge worker loads. In browsers call `await init()` once first.
 *
 * @packageDocumentation
 * @module edgeattest/service
 */
export {
  generateNonce, buildAttestRequest, validateAttestRequest, AttestationService, ServiceExchange,
  verifyEvidence,
  prepareEvidence, verifyCertificateChain, EvidenceBatch, evidenceReport, prepareEvidenceReport,
  EvidenceReportPlan, verifyRim, prepareRim, openRimEnvelope, identifyRim,
  architectures, rimIds, runtimeEvidence, compareGpuRims, compareSwitchRim, VerifiedRim, PendingRim, evaluateAccess,
  gatewayDecision, ApiGateway, createApiKey, parseApiKey, hashApiKey, accessRouteTable, roleScopes,
  devKeySet, deprecationNotices, deprecationHeaders, deprecationRegistry, checkDeprecatedRequest,
  checkDeprecatedQuery, attestDeprecationHeaders, formatRfc3339, formatHttpDate,
  ListTable, generateDataset, listPage, listSchemas, listLimits, ocspRequests, checkOcspResponses, mirrorOcspKey,
  serviceLimits, errorResponse, bearerToken, appraise, readServiceBindings, FetchAttempts,
  checkTopology, checkResultsTopology, replayAttestation,
} from './edgeattest.js';
export * from './token.js';
export * from './keys.js';
export * from './ear.js';
// verifyEar of either encoding, in place of ear.js's (which refuses a CWT EAR).
export { verifyEar } from './ear_cwt.js';
// Composite EARs: our GPU submodules beside the caller's CPU appraisal, signed and verified.
export * from './ear_composite.js';
export * from './jwks.js';
export * from './evidence.js';
export * from './service.js';
export { createFetchCache } from './fetch.js';
export { cacheMirrored, mirrorRimKey } from './mirror.js';
export * from './ocsp.js';
export { EdgeAttestError } from './error.js';
// The signature-check types the API takes (webcrypto.js has no value here to re-export).
/**
 * @typedef {import('./webcrypto.js').VerifyKeyCache} VerifyKeyCache
 * @typedef {import('./webcrypto.js').WebCryptoCheck} WebCryptoCheck
 */
