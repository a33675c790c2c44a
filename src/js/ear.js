// EAT Attestation Results (EAR): a relying party's check of the JWT EAR an attestation service
// returns for `Accept: application/eat+jwt` with `eat_profile` the veraison profile
// (`tag:github.com,2023:veraison/ear`, or `?result=ear`) or draft -04's
// (`tag:ietf.org,2026:rats/ear#04`). The signature and times are verifyJwt's; the dialect, the
// shape, the status and the nonce (text in the veraison dialect, bytes in -04) are the
// core's (readEar). A CWT EAR (bytes) is read by `edgeattest/local` and `edgeattest/service`
// (ear_cwt.js, whose verifyEar takes either): the CBOR and COSE readers stay out of this
// entry's module, whose verifyEar refuses bytes with ERR_EAR_CWT_UNSUPPORTED.
import { readEar } from './edgeattest.js';
import { coded } from './error.js';
import { verifyJwt } from './token.js';

/**
 * @import { EarData } from './edgeattest.js'
 * @import { JwksInput, VerifyTokenOptions } from './token.js'
 */

/** The claims every EAR carries (the verifier id's name is the dialect's: readEar checks it). */
const EAR_CLAIMS = ['eat_profile', 'iat', 'submods'];

/**
 * Verifies a JWT EAR (EAT Attestation Result: a compact ES384 JWT, the service's answer to
 * `?result=ear` or `Accept: application/eat+jwt`) with the service's JWKS as `verifyJwt` does,
 * then reads it by the core's rules in the dialect its profile names (veraison or -04: the
 * result's `dialect` and `encoding` say which), with its shape, trustworthiness tiers and
 * `eat_nonce` (-04 carries the nonce's bytes: `nonce` is the hex you sent either way). A CWT
 * EAR (`application/eat+cwt`, bytes) is read by `verifyEar` of `edgeattest/local` (and
 * `edgeattest/service`); this entry refuses it with `ERR_EAR_CWT_UNSUPPORTED`, keeping CBOR
 * and COSE out of its module. Pass `nonce` and `maxTokenAge`, and the
 * service's root as `signers` (`[{ certificate }]`): an EAR is our service's answer, not NRAS's,
 * so the default anchors (NVIDIA's) refuse it with `ERR_SIGNER_UNTRUSTED`. A verified EAR may
 * say "contraindicated": read `affirming` or `status`.
 *
 * @param {string | Uint8Array} token
 * @param {JwksInput} jwks
 * @param {VerifyTokenOptions} [options]
 * @returns {Promise<EarData>}
 * @throws EdgeAttestError (as a rejection) `ERR_EAR_CWT_UNSUPPORTED` (bytes: a CWT EAR, read
 * by `edgeattest/local`), `ERR_EAR_PROFILE` (another profile),
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
  if (token instanceof Uint8Array || token instanceof ArrayBuffer) {
    throw coded('ERR_EAR_CWT_UNSUPPORTED', "a CWT EAR (bytes) is read by verifyEar of 'edgeattest/local' (or 'edgeattest/service'); 'edgeattest' reads JWT EARs only", 'token');
  }
  const requiredClaims = [...new Set([...(options?.requiredClaims ?? []), ...EAR_CLAIMS])];
  // The nonce is compared by readEar, once the dialect says how it is carried.
  const { nonce, ...rest } = options ?? {};
  const { payload } = await verifyJwt(token, jwks, { ...rest, requiredClaims });
  return readEar(payload, nonce);
}
