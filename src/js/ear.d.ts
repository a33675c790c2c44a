import type { EarData } from './edgeattest.js';
import type { JwksInput, VerifyTokenOptions } from './token.js';

/**
 * Verifies an EAR (compact ES384 JWT) with the service's JWKS, then reads it by the core's
 * rules. Pass `nonce` and `maxTokenAge`. A verified EAR may say "contraindicated": read
 * `affirming` or `status`. Rejects with ERR_EAR_PROFILE, ERR_EAR_SHAPE or verifyJwt's codes.
 */
export function verifyEar(token: string, jwks: JwksInput, options?: VerifyTokenOptions): Promise<EarData>;
