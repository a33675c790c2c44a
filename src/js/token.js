// Token verification (ES384 JWS/JWT, JWKS, detached EAT): the WebCrypto backend and the
// public wrappers around the wasm core. Keys and minting are keys.js's.
//
// Verification is two-phase: the core (wasm) parses, checks headers and selects keys, then
// hands out signature checks {publicKey (SEC1), message, signature (r||s)}; this module runs
// them with crypto.subtle.verify in parallel (or in wasm with the software backend) and
// feeds the verdicts back; the core then checks claims, digests and devices.
import {
  KeySet,
  P384PrivateKey,
  P384PublicKey,
  prepareJwtVerification,
  prepareAttestationResultVerification,
  verifyChecksSoftware as verifyChecksInWasm,
} from './edgeattest.js';
import { EdgeAttestError } from './error.js';
import { defaultTokenBackend, setDefaultTokenBackend } from './backend.js';
import { runSignatureChecks } from './webcrypto.js';
import { asBytes, verifyKeyed } from './twophase.js';

export { KeySet, P384PrivateKey, P384PublicKey };

/**
 * @import { AttestEndpoint, CoreVerifyOptions, RevocationPolicy, P384Jwk, SignatureCheckData, VerifiedJwtResult, VerifiedAttestationResultData, Appraisal, VerdictLevel } from './edgeattest.js'
 * @import { EdgeAttestErrorCode, VerdictErrorCode } from './error.js'
 */

/**
 * One token's verdict. When verifyAttestationResult rejects, the error (code and field of
 * the first failure) carries `verdicts`: the overall token (label null), then every device,
 * and `level`: the worst token failure on the verdict scale ("forged", "wrong-nonce" or
 * "expired"; null when the caller's options were wrong).
 * @typedef {object} TokenVerdict
 * @property {string | null} label
 * @property {boolean} verified
 * @property {string | null} code
 * @property {string | null} field
 * @property {'digest' | 'signature' | 'claims' | 'time' | 'nonce' | null} stage The check the
 *   token failed, in the order the core runs them; null when it verified.
 * @property {string | null} message Why it failed that check, in words; null when it verified.
 * @property {Array<'digest' | 'signature' | 'claims' | 'time' | 'nonce'>} held The checks that
 *   held before the one it failed (all of them when it verified), in order.
 * @property {string | null} digest The submods digest that bound a device token, when it matched.
 * @property {Record<string, unknown> | null} payload
 */

/**
 * Who may sign: `'any'` (no pinning), or the anchors a signing key's `x5c` chain must reach,
 * each `{ spkiSha256 }` (hex SHA-256 of a CA's DER SubjectPublicKeyInfo) or `{ certificate }`
 * (a CA certificate, one PEM block). The core's written form.
 * @typedef {NonNullable<CoreVerifyOptions['signers']>} Signers
 */

/**
 * 'webcrypto' (crypto.subtle) or 'software' (P-384 in wasm).
 * @typedef {'webcrypto' | 'software'} TokenBackend
 */

/**
 * A JWKS as JSON text, bytes, a plain object, or a parsed KeySet.
 * @typedef {string | Uint8Array | { keys: object[] } | KeySet | KeySetResolver} JwksInput
 */

/**
 * A function giving the key set (createRemoteJWKSet's): asked with `{}`, then — when the set
 * holds no key for the token — once more with `{ unknownKey: true }`. Its `signers`, when set
 * (createRemoteJWKSet's option), pin the verifications that use it unless they name their own.
 * @typedef {((hint: { unknownKey?: boolean }) => Promise<string | Uint8Array | { keys: object[] } | KeySet>) & { readonly signers?: Signers }} KeySetResolver
 */

/**
 * @typedef {object} VerifyTokenOptions
 * @property {string | string[]} [issuer] Accepted `iss` value(s).
 * @property {string | string[]} [audience] Accepted `aud` value(s): the token's `aud` must name one.
 * @property {string} [subject] Required `sub`.
 * @property {string} [nonce] Expected `eat_nonce` (the challenge sent).
 * @property {number} [clockTolerance] Clock tolerance in seconds.
 * @property {number} [maxTokenAge] Maximum age in seconds (requires `iat`).
 * @property {string[]} [requiredClaims] Claims that must be present.
 * @property {string} [typ] Required header `typ` (normalised as jose does).
 * @property {string[] | Record<string, boolean>} [crit] Understood `crit` extensions (names, or jose's { name: true }).
 * @property {number} [now] The time of the check in Unix seconds (default: now).
 * @property {Date} [currentDate] The time of the check as a Date (jose's option; `now` wins).
 * @property {TokenBackend} [backend] Signature backend for this call; the x5c chain's link
 *   signatures run on it too.
 * @property {Signers} [signers] Who may have signed: the anchors the signing key's `x5c`
 *   chain must reach (`{ spkiSha256 }`: the hex SHA-256 of a CA's SubjectPublicKeyInfo;
 *   `{ certificate }`: a CA certificate, PEM), several at once for a rotation, or `'any'` to
 *   opt out (the result then says `signer: { pinned: false }`). Default: NVIDIA's attestation
 *   service, pinned by the key of "NVIDIA Attestation Service GPU Intermediate 004" (the root
 *   CA 001's certificate is not public). Under pinning the key must carry `x5c`
 *   (`ERR_SIGNER_NO_X5C`) whose leaf is the key (`ERR_SIGNER_KEY_MISMATCH`), reaching an anchor
 *   by valid ES384 links (`ERR_SIGNER_UNTRUSTED`), every certificate valid at the token's
 *   `iat` and now (`ERR_SIGNER_EXPIRED`), allowed to sign (`ERR_SIGNER_KEY_USAGE`). To verify
 *   our own service's tokens, pass the root of its `EDGEATTEST_SIGNING_CERTIFICATE` chain as
 *   `{ certificate }`.
 * @property {'detached' | 'v1'} [format]
 *   verifyAttestationResult only: the result shape expected — 'detached' (V2–V4, the
 *   default) or 'v1' ({"eat": token}). A result of the other shape is refused with
 *   ERR_EAT_FORMAT_MISMATCH.
 * @property {AttestEndpoint} [endpoint]
 *   verifyAttestationResult only: the attest endpoint the request went to; the expected shape
 *   is the one it answers with ('/v1/attest/gpu' → 'v1', the others → 'detached'). Must agree
 *   with `format` when both are given.
 * @property {boolean} [allowFailedResult]
 *   verifyAttestationResult only. By default an authentic result is refused when its verdict
 *   is not a pass: the service's `x-nvidia-overall-att-result` is false, or a device token
 *   says it failed (ERR_ATTESTATION_FAILED), or the verdict is absent
 *   (ERR_ATTESTATION_RESULT_MISSING). A signature only proves who wrote the result, not that
 *   the GPU passed, and a resolved promise must never read as a pass — the way jose's
 *   jwtVerify refuses a well-signed token whose claims fail their checks instead of leaving
 *   the checks to the caller. The rejection (AttestationVerdictError) still carries
 *   `appraisal` and the verified `result`.
 *
 *   `true` resolves with a failed result instead, for tools that display failures (the
 *   verification page, diagnostics); the caller must then read `appraisal.passed`. A device
 *   token whose claims do not read (a check claim of the wrong type, no verdict claim) fails
 *   with ERR_EAT_CLAIMS_UNREADABLE, resolved by this option too, as a failure.
 * @property {boolean} [allowUnknownRevocation]
 *   verifyAttestationResult only. By default a passing result is refused
 *   (ERR_REVOCATION_UNCONFIRMED) unless every device token confirms its certificate chains
 *   good: claims 3.0/4.0 chain objects `valid` with OCSP `good`; claims 1.0/2.0 chains
 *   validated without a "revocation not checked" warning. `true` accepts it; the result then
 *   says `revocationRelaxed: true`. It is `allowUnknown` on every component of `revocation`
 *   (merged when both are given).
 * @property {RevocationPolicy} [revocation]
 *   verifyAttestationResult only: per component (`deviceChain`, `switchChain`,
 *   `driverRimChain`, `vbiosRimChain`) what a chain not confirmed good may be and still pass:
 *   `allowUnknown`, `revokedGracePeriod` (seconds after the chain object's
 *   `x-edgeattest-cert-revocation-time`, which this crate's service writes; NRAS's claims
 *   have none, so a revoked NRAS chain always fails), `allowHold`. Strict by
 *   default. Each acceptance sets `revocationRelaxed` and is a warning of its device.
 */


/** The codes of verifyAttestationResult's verdict rules (the result is authentic, its verdict refused). */
const VERDICT_CODES = new Set(['ERR_ATTESTATION_FAILED', 'ERR_ATTESTATION_RESULT_MISSING', 'ERR_EAT_CLAIMS_UNREADABLE', 'ERR_REVOCATION_UNCONFIRMED']);

/**
 * The rejection of verifyAttestationResult when every token is authentic but the verdict is
 * not a pass (ERR_ATTESTATION_FAILED) or absent (ERR_ATTESTATION_RESULT_MISSING), a device
 * token's claims do not read as their claims version defines them (ERR_EAT_CLAIMS_UNREADABLE),
 * or the verdict is a pass whose certificate chains are not confirmed good
 * (ERR_REVOCATION_UNCONFIRMED). Its message names the device and why.
 */
export class AttestationVerdictError extends EdgeAttestError {
  /**
   * As EdgeAttestError's: the wasm core makes these errors, with the members below.
   * @param {EdgeAttestErrorCode} code
   * @param {string} message
   * @param {{ field?: string; cause?: unknown }} [options]
   */
  constructor(code, message, options) {
    super(code, message, options);
    // Declarations of the members the core sets, for the types; no effect.
    /** @type {VerdictErrorCode} */
    this.code;
    /**
     * Why: the verdict and each device's reasons.
     * @type {Appraisal}
     */
    this.appraisal;
    /**
     * The verdict level: `appraisal.level`.
     * @type {VerdictLevel}
     */
    this.level;
    /**
     * The verified (authentic) result, as verifyAttestationResult would have resolved it.
     * @type {VerifiedAttestationResultData}
     */
    this.result;
  }

  /**
   * True for verifyAttestationResult's refusals of an authentic result (a verdict code and an
   * appraisal), from any copy of the package: `error instanceof AttestationVerdictError`
   * narrows `error` to this type.
   * @param {unknown} value
   * @returns {value is AttestationVerdictError}
   */
  static [Symbol.hasInstance](value) {
    return EdgeAttestError[Symbol.hasInstance](value)
      && VERDICT_CODES.has(value.code)
      && typeof value.appraisal === 'object' && value.appraisal !== null;
  }
}

const subtle = globalThis.crypto?.subtle;

/**
 * The signature backend used when an operation names none: the one `setTokenBackend` set, else
 * 'webcrypto' where `crypto.subtle` exists and 'software' elsewhere.
 *
 * @returns {TokenBackend}
 *
 * @example
 * ```ts
 * console.log(getTokenBackend()); // "webcrypto" in browsers, Node, Deno and workers
 * ```
 */
export function getTokenBackend() {
  return defaultTokenBackend();
}

/**
 * Sets the default signature backend of the token functions; without an argument, back to
 * the host's default.
 *
 * @param {TokenBackend} [backend]
 * @returns {void}
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a value other than 'webcrypto' and
 * 'software'.
 *
 * @example
 * ```ts
 * setTokenBackend('software'); // P-384 in wasm from now on
 * setTokenBackend(); // the host's default again
 * ```
 */
export function setTokenBackend(backend) {
  setDefaultTokenBackend(backend);
}

// ---- key sets ----------------------------------------------------------------------------

/**
 * A parsed key set, for verifying many tokens against one JWKS without reading it each time.
 * Only ES384 P-384 keys are usable; the `x5c` a key carries is kept, and validated against
 * the verification's `signers` when a token names the key.
 *
 * @param {Exclude<JwksInput, KeySetResolver>} jwks
 * @returns {KeySet}
 * @throws EdgeAttestError `ERR_JWKS_INVALID` for a set with duplicate members or a malformed
 * key, `ERR_INVALID_ARGUMENT` for an input that is not text, bytes or an object.
 *
 * @example
 * ```ts
 * const response = await fetch('https://nras.attestation.nvidia.com/.well-known/jwks.json');
 * const keys = createKeySet(await response.text());
 * console.log(keys.kids);
 * ```
 */
export function createKeySet(jwks) {
  return jwks instanceof KeySet ? jwks : new KeySet(asBytes(jwks));
}

// ---- WebCrypto signature checks --------------------------------------------------------

/**
 * Runs signature checks (from a two-phase verification: `PendingRim`, `EvidenceBatch`,
 * `ServiceExchange`) with WebCrypto: one boolean each, in order. A key or signature of another
 * size is a failed check, not a throw.
 *
 * @param {SignatureCheckData[]} checks
 * @returns {Promise<boolean[]>}
 *
 * @example
 * ```ts
 * declare const checks: SignatureCheckData[]; // e.g. a PendingRim's signatureChecks()
 * const verdicts = await verifyChecksWebCrypto(checks);
 * ```
 */
export function verifyChecksWebCrypto(checks) {
  return runSignatureChecks(checks, subtle);
}

/**
 * Runs signature checks (from a two-phase verification) with the wasm core's P-384: one
 * boolean each, in order.
 *
 * @param {SignatureCheckData[]} checks
 * @returns {boolean[]}
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for checks of the wrong shape.
 *
 * @example
 * ```ts
 * declare const checks: SignatureCheckData[];
 * const verdicts = verifyChecksSoftware(checks);
 * console.log(verdicts.every(Boolean));
 * ```
 */
export function verifyChecksSoftware(checks) {
  return Array.from(verifyChecksInWasm(checks), (verdict) => verdict === 1);
}

/**
 * Verifies one ES384 JWT against a key set, as jose's `jwtVerify` does: the header (`alg`
 * ES384 only, `typ`, `crit`; `jku`/`x5u` never fetched), the signature by the key its `kid`
 * names — a key whose `x5c` chain reaches one of `signers` (by default NVIDIA's attestation
 * service's; `'any'` opts out), reported as `signer` —, then the times (`exp`, `nbf`, `iat` with `clockTolerance` and `maxTokenAge`) and the
 * claims asked for (`issuer`, `audience`, `subject`, `nonce` as `eat_nonce`, `requiredClaims`).
 * Resolves with the header and claims.
 *
 * @param {string} token
 * @param {JwksInput} jwks
 * @param {VerifyTokenOptions} [options]
 * @returns {Promise<VerifiedJwtResult>}
 * @throws EdgeAttestError (as a rejection) whose code names the first failed check:
 * `ERR_JWS_*` (e.g. `ERR_JWS_SIGNATURE_VERIFICATION_FAILED`, `ERR_JWS_INVALID`),
 * `ERR_JOSE_ALG_NOT_ALLOWED`, `ERR_JWKS_*` (e.g. `ERR_JWKS_NO_MATCHING_KEY`), `ERR_SIGNER_*`
 * (the key's x5c chain does not reach `signers`: `ERR_SIGNER_NO_X5C`, `ERR_SIGNER_KEY_MISMATCH`,
 * `ERR_SIGNER_UNTRUSTED`, `ERR_SIGNER_EXPIRED`, `ERR_SIGNER_KEY_USAGE`), `ERR_JWT_*`
 * (e.g. `ERR_JWT_EXPIRED`, `ERR_JWT_CLAIM_VALIDATION_FAILED`), `ERR_EAT_NONCE_MISMATCH`;
 * `ERR_INVALID_ARGUMENT` for options of the wrong shape.
 *
 * @example
 * ```ts
 * const jwks = createRemoteJWKSet('https://nras.attestation.nvidia.com/.well-known/jwks.json');
 * declare const token: string;
 * const { payload, protectedHeader } = await verifyJwt(token, jwks, { issuer: 'https://nras.attestation.nvidia.com' });
 * ```
 */
export async function verifyJwt(token, jwks, options = {}) {
  return verifyKeyed(prepareJwtVerification, token, jwks, options);
}

/**
 * Verifies an attestation service's answer (NRAS's detached EAT for V2–V4, or V1's
 * `{"eat": token}`) and resolves **only when it is authentic and says every device passed**:
 * every token's signature and times as {@link verifyJwt} checks them, the overall token's
 * `eat_nonce` against `options.nonce`, each device token bound by its `submods` digest, the
 * device tokens' claims read as their claims version defines them, the service's verdict, and
 * revocation confirmed `good` for every certificate chain.
 *
 * Rejects with an {@link AttestationVerdictError} when the result is authentic but its verdict
 * is refused (ERR_ATTESTATION_FAILED, ERR_ATTESTATION_RESULT_MISSING,
 * ERR_EAT_CLAIMS_UNREADABLE, ERR_REVOCATION_UNCONFIRMED: it carries `appraisal` and `result`),
 * and with an EdgeAttestError naming the failed check otherwise (a signature, key, digest,
 * nonce or time: the result cannot be trusted; its `verdicts` give every token's). The signing
 * key must reach `signers` as for {@link verifyJwt}; the result's `signer` says who signed. A recorded
 * result verifies at the time it was issued: pass `currentDate` (or `now`).
 *
 * @param {string | Uint8Array | unknown[] | { eat: string }} result
 * @param {JwksInput} jwks
 * @param {VerifyTokenOptions} [options]
 * @returns {Promise<VerifiedAttestationResultData>}
 * @throws AttestationVerdictError (as a rejection) `ERR_ATTESTATION_FAILED`,
 * `ERR_ATTESTATION_RESULT_MISSING`, `ERR_EAT_CLAIMS_UNREADABLE`, `ERR_REVOCATION_UNCONFIRMED`
 * for an authentic result whose verdict is refused.
 * @throws EdgeAttestError (as a rejection) for a result that cannot be trusted: `ERR_EAT_*`
 * (e.g. `ERR_EAT_NONCE_MISMATCH`, `ERR_EAT_DIGEST_MISMATCH`, `ERR_EAT_FORMAT_MISMATCH`),
 * `ERR_JWS_*`, `ERR_JWKS_*`, `ERR_SIGNER_*`, `ERR_JWT_*` as {@link verifyJwt}; `ERR_INVALID_ARGUMENT` for
 * options of the wrong shape.
 *
 * @example
 * ```ts
 * const jwks = createRemoteJWKSet('https://nras.attestation.nvidia.com/.well-known/jwks.json');
 * declare const nonce: string; // the nonce the attest request carried
 * declare const response: Response; // the service's answer to it
 * try {
 *   const verified = await verifyAttestationResult(await response.json(), jwks, { nonce });
 *   console.log('attested:', verified.devices.map((device) => device.label));
 * } catch (error) {
 *   if (error instanceof AttestationVerdictError) console.error(error.appraisal.devices);
 *   throw error;
 * }
 * ```
 */
export async function verifyAttestationResult(result, jwks, options = {}) {
  return verifyKeyed(prepareAttestationResultVerification, asBytes(result), jwks, options);
}
