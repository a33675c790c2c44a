// Types of the package's default API: the values api.js exports, and the types they use.
export { generateNonce, buildAttestRequest, validateAttestRequest, appraise } from './edgeattest.js';
export type {
  AttestEndpoint, Arch, ClaimsVersion, EvidenceInput, AttestRequestOptions, AttestRequestBody,
  ValidatedAttestRequest, EvidenceEncoding, P384Jwk, CoreVerifyOptions, SignatureCheckData,
  VerifiedAttestationResultData, VerifiedDeviceResult, Appraisal, DeviceAppraisal,
  AppraisalReason, VerdictLevel, VerifiedJwtResult, RuleStatus, RuleOutcome, DeviceDecision, PolicyDecision,
  EarData, EarStatus, EarSubmod, TrustworthinessVector,
} from './edgeattest.js';
export * from './token.js';
export * from './keys.js';
export * from './ear.js';
export * from './jwks.js';
export { createVerifyKeyCache } from './backend.js';
export type { VerifyKeyCache } from './webcrypto.js';

export { EdgeAttestError } from './error.js';
export type { EdgeAttestErrorCode, VerdictErrorCode } from './error.js';
export type * from './claims.js';
