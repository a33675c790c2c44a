// EAT Attestation Results (EAR): a relying party's check of the EAR an attestation service
// returns for `Accept: application/eat+jwt; eat_profile="tag:github.com,2023:veraison/ear"`
// (or `?result=ear`). The signature and times are verifyJwt's; the profile, the shape and
// the status are the core's (readEar).
import { readEar } from './edgeattest.js';
import { verifyJwt } from './token.js';

/**
 * @import { EarData } from './edgeattest.js'
 * @import { JwksInput, VerifyTokenOptions } from './token.js'
 */

/** The claims every EAR carries. */
const EAR_CLAIMS = ['eat_profile', 'iat', 'ear.verifier-id', 'submods'];

/**
 * Verifies an EAR (EAT Attestation Result: a compact ES384 JWT, the service's answer to
 * `?result=ear`) with the service's JWKS as `verifyJwt` does, then reads it by the core's
 * rules (profile, shape, trustworthiness tiers). Pass `nonce` and `maxTokenAge`, and the
 * service's root as `signers` (`[{ certificate }]`): an EAR is our service's answer, not NRAS's,
 * so the default anchors (NVIDIA's) refuse it with `ERR_SIGNER_UNTRUSTED`. A verified EAR may
 * say "contraindicated": read `affirming` or `status`.
 *
 * @param {string} token
 * @param {JwksInput} jwks
 * @param {VerifyTokenOptions} [options]
 * @returns {Promise<EarData>}
 * @throws EdgeAttestError (as a rejection) `ERR_EAR_PROFILE` (another profile),
 * `ERR_EAR_SHAPE` (with `field`), or `verifyJwt`'s codes (`ERR_JWS_*`, `ERR_JWT_*`,
 * `ERR_JWKS_*`, `ERR_SIGNER_*`, `ERR_EAT_NONCE_MISMATCH`).
 *
 * @example
 * ```ts
 * declare const root: string; // the service's EDGEATTEST_SIGNING_CERTIFICATE chain's root, PEM
 * const jwks = createRemoteJWKSet('https://attest.example.com/.well-known/jwks.json', { signers: [{ certificate: root }] });
 * declare const token: string, nonce: string;
 * const ear = await verifyEar(token, jwks, { nonce, maxTokenAge: 300 });
 * if (!ear.affirming) console.error(ear.status, ear.submods);
 * ```
 */
export async function verifyEar(token, jwks, options = {}) {
  const requiredClaims = [...new Set([...(options?.requiredClaims ?? []), ...EAR_CLAIMS])];
  const { payload } = await verifyJwt(token, jwks, { ...options, requiredClaims });
  return readEar(payload);
}
