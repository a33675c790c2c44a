// Types of the client API: the values client/api.js exports, and the types they use.
export { generateNonce, buildAttestRequest, validateAttestRequest } from './edgeattest.js';
export type {
  AttestEndpoint, Arch, ClaimsVersion, EvidenceInput, AttestRequestOptions, AttestRequestBody,
  ValidatedAttestRequest, EvidenceEncoding, P384Jwk, CoreVerifyOptions, SignatureCheckData,
  VerifiedAttestationResultData, VerifiedDeviceResult, Appraisal, DeviceAppraisal, AppraisalReason, VerifiedJwtResult,
} from './edgeattest.js';
export * from './token.js';
export * from './jwks.js';

export { EdgeAttestError } from './error.js';
export type { EdgeAttestErrorCode, VerdictErrorCode } from './error.js';
export type * from './claims.js';
