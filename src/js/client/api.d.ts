// Types of the client API: the values client/api.js exports, and the types they use.
export { generateNonce, buildAttestRequest, validateAttestRequest } from './edgeattest.js';
export type {
  AttestEndpoint, Arch, ClaimsVersion, EvidenceInput, AttestRequestOptions, AttestRequestBody,
  ValidatedAttestRequest, EvidenceEncoding, P384Jwk, CoreVerifyOptions, SignatureCheckData,
  VerifiedAttestationResultData, VerifiedDeviceResult, VerifiedJwtResult,
} from './edgeattest.js';
export * from './token.js';
export * from './jwks.js';

/** Every error this package throws is an `Error` named `EdgeAttestError` with these members. */
export interface EdgeAttestError extends Error {
  name: 'EdgeAttestError';
  /** Stable machine-readable code, e.g. `ERR_REQUEST_INVALID_NONCE`. Never renamed. */
  code: string;
  /** The input member concerned, e.g. `evidence_list[2].certificate`, when there is one. */
  field?: string;
}
