// Types of the service API: the values service/api.js exports, and the types they use.
export {
  generateNonce, buildAttestRequest, validateAttestRequest, AttestationService, ServiceExchange,
  verifyEvidence,
  prepareEvidence, verifyCertificateChain, EvidenceBatch, evidenceReport, prepareEvidenceReport,
  EvidenceReportPlan, verifyRim, prepareRim, openRimEnvelope, identifyRim,
  architectures, rimIds, runtimeEvidence, compareGpuRims, compareSwitchRim, VerifiedRim, PendingRim, evaluateAccess,
  gatewayDecision, ApiGateway, createApiKey, parseApiKey, hashApiKey, accessRouteTable, roleScopes,
  devKeySet, deprecationNotices, deprecationHeaders, deprecationRegistry, checkDeprecatedRequest,
  checkDeprecatedQuery, attestDeprecationHeaders, formatRfc3339, formatHttpDate,
  ListTable, generateDataset, listPage, listSchemas, listLimits, ocspRequests, checkOcspResponses,
  serviceLimits, errorResponse, bearerToken, appraise, readServiceBindings,
} from './edgeattest.js';
export type {
  AttestEndpoint, Arch, Architecture, ClaimsVersion, EvidenceInput, AttestRequestOptions, AttestRequestBody,
  ValidatedAttestRequest, AttestationServiceOptions, ServiceRequest, ServiceResponse, ServiceStep,
  FetchResource, FetchAnswer, OcspCacheEntry, SourceState, ProbeTarget,
  EvidenceEncoding, DeviceEvidenceInput, VerifyEvidenceOptions, PrepareEvidenceOptions,
  SignatureCheck, EvidenceReport, DeviceResult, ChainReportJs, RimOptions, RimCertChain,
  GoldenMeasurement, RimDocumentJson, VerifiedRimJson, RimIdentity, RuntimeEvidenceInput, RuntimeEvidenceOptions,
  RimComparison, EvidenceReportOptions, StageStatus, StageId, ReportStage, ReportFailure,
  ReportRimStep, DeviceReport,
  RimEnvelopeJson, AccessErrorBody, AccessRoute, CreateApiKeyOptions, CreatedApiKey, DevKey,
  DevKeySet, EvaluateAccessOptions, GatewayDecision, GatewayForward, GatewayOptions, GatewayRequestInit,
  KeyRecord, KeyStoreJson, ParsedApiKey, Role, Scope, DeprecationCheck, DeprecationErrorBody,
  DeprecationNotice, DeprecationOptions, DeprecationQueryCheck, DeprecationRow, P384Jwk,
  CoreVerifyOptions, SignatureCheckData, VerifiedAttestationResultData, VerifiedDeviceResult, Appraisal, DeviceAppraisal, AppraisalReason, VerdictLevel,
  VerifiedJwtResult, ListColumn, ListLimits, ListPage, ListPath, ListResponse, ListSchema,
  OcspChainKind, OcspRequestsOptions, OcspRequestJs, OcspAnswer, CheckOcspOptions, OcspStatusJs,
  OcspCertificateStatus, OcspChainStatus, ServiceLimits, ServiceBindings, TestPkiCollateral, ErrorResponseInit, ErrorResponse,
  RuleStatus, RuleOutcome, DeviceDecision, PolicyDecision, EarData, EarStatus, EarSubmod,
  TrustworthinessVector,
} from './edgeattest.js';
export * from './token.js';
export * from './keys.js';
export * from './ear.js';
export * from './jwks.js';
export * from './evidence.js';
export * from './service.js';
export { createFetchCache, type FetchCache, type FetchAnswerLike } from './fetch.js';
export type { VerifyKeyCache, WebCryptoCheck } from './webcrypto.js';
export * from './ocsp.js';

export { EdgeAttestError } from './error.js';
export type { EdgeAttestErrorCode, VerdictErrorCode } from './error.js';
export type * from './claims.js';
