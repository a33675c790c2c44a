// EARs in either encoding, for `edgeattest/local` and `edgeattest/service`: a JWT EAR (text)
// as ear.js verifies it, a CWT EAR (bytes: `COSE_Sign1`, ES384, draft -04's claims) by the
// wasm core's two phases (prepareEarCwtVerification: structure, the key its `kid` names,
// `signers` pinning, the claims' shape; then the signature checks on WebCrypto or the software
// backend; then the times, the claims and `eat_nonce`). The entries' api.js export this
// module's verifyEar in place of ear.js's, which refuses bytes.
import { prepareEarCwtVerification } from './edgeattest.js';
import { verifyEar as verifyJwtEar } from './ear.js';
import { verifyKeyed } from './twophase.js';

/**
 * @import { EarData } from './edgeattest.js'
 * @import { JwksInput, VerifyTokenOptions } from './token.js'
 */

/**
 * Verifies an EAR (EAT Attestation Result) the service returned, in either encoding: a JWT
 * (text, `application/eat+jwt`, either dialect) as `edgeattest`'s `verifyEar` does, or a CWT
 * (bytes, `application/eat+cwt`: `response.arrayBuffer()`; draft -04 only), a `COSE_Sign1`
 * (ES384) whose header `kid` selects the key of `jwks` as a JWT's does. Both are held to the
 * same rules: the signing key's `x5c` chain must reach `signers` (pass the service's root as
 * `[{ certificate }]`), `iat` not in the future, `exp` not past, `maxTokenAge`,
 * `clockTolerance`, and `nonce` (the hex you sent) equal to `eat_nonce`. The result's
 * `encoding` (`jwt` or `cwt`) and `dialect` say what was read. A verified EAR may say
 * "contraindicated": read `affirming` or `status`. A CWT EAR carries no `iss`, `sub` or
 * `aud`: `issuer`, `audience` or `subject` refuse it.
 *
 * @param {string | Uint8Array | ArrayBuffer} token
 * @param {JwksInput} jwks
 * @param {VerifyTokenOptions} [options]
 * @returns {Promise<EarData>}
 * @throws EdgeAttestError (as a rejection) `ERR_EAR_PROFILE` (another profile),
 * `ERR_EAR_SHAPE` (with `field`), `ERR_CBOR_*` / `ERR_COSE_*` (bytes that are not a CWT this
 * reads), or `verifyJwt`'s codes (`ERR_JWS_SIGNATURE_VERIFICATION_FAILED`, `ERR_JWT_*`,
 * `ERR_JWKS_*`, `ERR_SIGNER_*`, `ERR_EAT_NONCE_MISMATCH`).
 *
 * @example
 * ```ts
 * declare const root: string; // the service's EDGEATTEST_SIGNING_CERTIFICATE chain's root, PEM
 * const jwks = createRemoteJWKSet('https://attest.example.com/.well-known/jwks.json', { signers: [{ certificate: root }] });
 * declare const response: Response, nonce: string; // the answer to Accept: application/eat+cwt; eat_profile="tag:ietf.org,2026:rats/ear#04"
 * const ear = await verifyEar(new Uint8Array(await response.arrayBuffer()), jwks, { nonce, maxTokenAge: 300 });
 * console.log(ear.encoding, ear.dialect); // "cwt" "ietf-04"
 * if (!ear.affirming) console.error(ear.status, ear.submods);
 * ```
 */
export async function verifyEar(token, jwks, options = {}) {
  if (token instanceof ArrayBuffer) token = new Uint8Array(token);
  if (!(token instanceof Uint8Array)) return verifyJwtEar(token, jwks, options);
  return verifyKeyed(prepareEarCwtVerification, token, jwks, options);
}
