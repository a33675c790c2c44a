// EAT Attestation Results (EAR): a relying party's check of the EAR an attestation service
// returns for `Accept: application/eat+jwt; eat_profile="tag:github.com,2023:veraison/ear"`
// (or `?result=ear`). The signature and times are verifyJwt's; the profile, the shape and
// the status are the core's (readEar).
import { readEar } from './edgeattest.js';
import { verifyJwt } from './token.js';

/** The claims every EAR carries. */
const EAR_CLAIMS = ['eat_profile', 'iat', 'ear.verifier-id', 'submods'];

/**
 * Verifies an EAR (compact ES384 JWT) with the service's JWKS (as verifyJwt takes it), then
 * reads it: options as verifyJwt's — pass `nonce` (eat_nonce must equal it) and `maxTokenAge`.
 * Resolves to EarData; a verified EAR may say "contraindicated": read `affirming` (true only
 * when every device is affirming) or `status`. Rejects with ERR_EAR_PROFILE, ERR_EAR_SHAPE or
 * verifyJwt's codes (ERR_EAT_NONCE_MISMATCH, ERR_JWS_SIGNATURE_VERIFICATION_FAILED, ...).
 */
export async function verifyEar(token, jwks, options = {}) {
  const requiredClaims = [...new Set([...(options?.requiredClaims ?? []), ...EAR_CLAIMS])];
  const { payload } = await verifyJwt(token, jwks, { ...options, requiredClaims });
  return readEar(payload);
}
