// Types of the package's API: the values api.js exports, and the types they use.
export {
  generateNonce, buildAttestRequest, validateAttestRequest, verifyEvidence, prepareEvidence,
  verifyCertificateChain, EvidenceBatch, evidenceReport, prepareEvidenceReport,
  EvidenceReportPlan, verifyRim, prepareRim, openRimEnvelope, identifyRim, architectures,
  rimIds, runtimeEvidence, compareGpuRims, compareSwitchRim, VerifiedRim, PendingRim,
  ocspRequests, checkOcspResponses, serviceLimits, appraise,
} from './edgeattest.js';
export type {
  AttestEndpoint, Arch, Architecture, ClaimsVersion, EvidenceInput, AttestRequestOptions,
  AttestRequestBody, ValidatedAttestRequest, EvidenceEncoding, DeviceEvidenceInput,
  VerifyEvidenceOptions, PrepareEvidenceOptions, SignatureCheck, EvidenceReport, DeviceResult,
  ChainReportJs, RimOptions, RimCertChain, GoldenMeasurement, RimDocumentJson, VerifiedRimJson,
  RimIdentity, RuntimeEvidenceInput, RuntimeEvidenceOptions, RimComparison,
  EvidenceReportOptions, StageStatus, StageId, ReportStage, ReportFailure, ReportRimStep,
  DeviceReport, RimEnvelopeJson, P384Jwk, CoreVerifyOptions, SignatureCheckData,
  VerifiedAttestationResultData, VerifiedDeviceResult, Appraisal, DeviceAppraisal,
  AppraisalReason, VerdictLevel, VerifiedJwtResult, OcspChainKind, OcspRequestsOptions, OcspRequestJs,
  OcspAnswer, CheckOcspOptions, OcspStatusJs, OcspCertificateStatus, OcspChainStatus,
  ServiceLimits, RuleStatus, RuleOutcome, DeviceDecision, PolicyDecision, EarData, EarStatus,
  EarSubmod, TrustworthinessVector,
} from './edgeattest.js';
export * from './token.js';
export * from './keys.js';
export * from './ear.js';
export * from './jwks.js';
export * from './evidence.js';
export * from './ocsp.js';
export { createVerifyKeyCache } from './backend.js';
export type { VerifyKeyCache, WebCryptoCheck } from './webcrypto.js';

export { EdgeAttestError } from './error.js';
export type { EdgeAttestErrorCode, VerdictErrorCode } from './error.js';
export type * from './claims.js';
