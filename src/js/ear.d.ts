import type { EarData } from './edgeattest.js';
import type { JwksInput, VerifyTokenOptions } from './token.js';

/**
 * Verifies an EAR (EAT Attestation Result: a compact ES384 JWT, the service's answer to
 * `?result=ear`) with the service's JWKS as `verifyJwt` does, then reads it by the core's
 * rules (profile, shape, trustworthiness tiers). Pass `nonce` and `maxTokenAge`. A verified
 * EAR may say "contraindicated": read `affirming` or `status`.
 *
 * @throws EdgeAttestError (as a rejection) `ERR_EAR_PROFILE` (another profile),
 * `ERR_EAR_SHAPE` (with `field`), or `verifyJwt`'s codes (`ERR_JWS_*`, `ERR_JWT_*`,
 * `ERR_JWKS_*`, `ERR_EAT_NONCE_MISMATCH`).
 *
 * @example
 * ```ts
 * const jwks = createRemoteJWKSet('https://attest.example.com/.well-known/jwks.json');
 * declare const token: string, nonce: string;
 * const ear = await verifyEar(token, jwks, { nonce, maxTokenAge: 300 });
 * if (!ear.affirming) console.error(ear.status, ear.submods);
 * ```
 */
export function verifyEar(token: string, jwks: JwksInput, options?: VerifyTokenOptions): Promise<EarData>;
