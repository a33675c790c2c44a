// Token API (ES384 JWS/JWT, JWKS, detached EAT): types of token.js.
import type {
  AttestEndpoint,
  KeySet,
  P384PrivateKey,
  P384PublicKey,
  P384Jwk,
  SignatureCheckData,
  VerifiedJwtResult,
  VerifiedAttestationResultData,
  Appraisal,
  VerdictLevel,
} from './edgeattest.js';
import { EdgeAttestError, type VerdictErrorCode } from './error.js';

export { KeySet, P384PrivateKey, P384PublicKey } from './edgeattest.js';
export type {
  P384Jwk,
  SignatureCheckData,
  VerifiedJwtResult,
  VerifiedDeviceResult,
  VerifiedAttestationResultData,
  Appraisal,
  DeviceAppraisal,
  AppraisalReason,
  VerdictLevel,
} from './edgeattest.js';

/**
 * The rejection of verifyAttestationResult when every token is authentic but the verdict is
 * not a pass (ERR_ATTESTATION_FAILED) or absent (ERR_ATTESTATION_RESULT_MISSING), a device
 * token's claims do not read as their claims version defines them (ERR_EAT_CLAIMS_UNREADABLE),
 * or the verdict is a pass whose certificate chains are not confirmed good
 * (ERR_REVOCATION_UNCONFIRMED). Its message names the device and why.
 */
export class AttestationVerdictError extends EdgeAttestError {
  code: VerdictErrorCode;
  /** Why: the verdict and each device's reasons. */
  appraisal: Appraisal;
  /** The verdict level: `appraisal.level`. */
  level: VerdictLevel;
  /** The verified (authentic) result, as verifyAttestationResult would have resolved it. */
  result: VerifiedAttestationResultData;
  /**
   * True for verifyAttestationResult's refusals of an authentic result (a verdict code and an
   * appraisal), from any copy of the package: `error instanceof AttestationVerdictError`
   * narrows `error` to this type.
   */
  static [Symbol.hasInstance](value: unknown): value is AttestationVerdictError;
}

/**
 * One token's verdict. When verifyAttestationResult rejects, the error (code and field of
 * the first failure) carries `verdicts`: the overall token (label null), then every device,
 * and `level`: the worst token failure on the verdict scale ("forged", "wrong-nonce" or
 * "expired"; null when the caller's options were wrong).
 */
export interface TokenVerdict {
  label: string | null;
  verified: boolean;
  code: string | null;
  field: string | null;
  /** The check the token failed, in the order the core runs them; null when it verified. */
  stage: 'digest' | 'signature' | 'claims' | 'time' | 'nonce' | null;
  /** Why it failed that check, in words; null when it verified. */
  message: string | null;
  /** The checks that held before the one it failed (all of them when it verified), in order. */
  held: Array<'digest' | 'signature' | 'claims' | 'time' | 'nonce'>;
  /** The submods digest that bound a device token, when it matched. */
  digest: string | null;
  payload: Record<string, unknown> | null;
}

/** 'webcrypto' (crypto.subtle) or 'software' (P-384 in wasm). */
export type TokenBackend = 'webcrypto' | 'software';

/** A JWKS as JSON text, bytes, a plain object, or a parsed KeySet. */
export type JwksInput = string | Uint8Array | { keys: object[] } | KeySet | KeySetResolver;
/**
 * A function giving the key set (createRemoteJWKSet's): asked with `{}`, then — when the set
 * holds no key for the token — once more with `{ unknownKey: true }`.
 */
export type KeySetResolver = (hint: { unknownKey?: boolean }) => Promise<string | Uint8Array | { keys: object[] } | KeySet>;

export interface VerifyTokenOptions {
  /** Accepted `iss` value(s). */
  issuer?: string | string[];
  /** Accepted `aud` value(s): the token's `aud` must name one. */
  audience?: string | string[];
  /** Required `sub`. */
  subject?: string;
  /** Expected `eat_nonce` (the challenge sent). */
  nonce?: string;
  /** Clock tolerance in seconds. */
  clockTolerance?: number;
  /** Maximum age in seconds (requires `iat`). */
  maxTokenAge?: number;
  /** Claims that must be present. */
  requiredClaims?: string[];
  /** Required header `typ` (normalised as jose does). */
  typ?: string;
  /** Understood `crit` extensions (names, or jose's { name: true }). */
  crit?: string[] | Record<string, boolean>;
  /** The time of the check in Unix seconds (default: now). */
  now?: number;
  /** The time of the check as a Date (jose's option; `now` wins). */
  currentDate?: Date;
  /** Signature backend for this call. */
  backend?: TokenBackend;
  /**
   * verifyAttestationResult only: the result shape expected — 'detached' (V2–V4, the
   * default) or 'v1' ({"eat": token}). A result of the other shape is refused with
   * ERR_EAT_FORMAT_MISMATCH.
   */
  format?: 'detached' | 'v1';
  /**
   * verifyAttestationResult only: the attest endpoint the request went to; the expected shape
   * is the one it answers with ('/v1/attest/gpu' → 'v1', the others → 'detached'). Must agree
   * with `format` when both are given.
   */
  endpoint?: AttestEndpoint;
  /**
   * verifyAttestationResult only. By default an authentic result is refused when its verdict
   * is not a pass: the service's `x-nvidia-overall-att-result` is false, or a device token
   * says it failed (ERR_ATTESTATION_FAILED), or the verdict is absent
   * (ERR_ATTESTATION_RESULT_MISSING). A signature only proves who wrote the result, not that
   * the GPU passed, and a resolved promise must never read as a pass — the way jose's
   * jwtVerify refuses a well-signed token whose claims fail their checks instead of leaving
   * the checks to the caller. The rejection (AttestationVerdictError) still carries
   * `appraisal` and the verified `result`.
   *
   * `true` resolves with a failed result instead, for tools that display failures (the
   * verification page, diagnostics); the caller must then read `appraisal.passed`. A device
   * token whose claims do not read (a check claim of the wrong type, no verdict claim) fails
   * with ERR_EAT_CLAIMS_UNREADABLE, resolved by this option too, as a failure.
   */
  allowFailedResult?: boolean;
  /**
   * verifyAttestationResult only. By default a passing result is refused
   * (ERR_REVOCATION_UNCONFIRMED) unless every device token confirms its certificate chains
   * good: claims 3.0/4.0 chain objects `valid` with OCSP `good`; claims 1.0/2.0 chains
   * validated without a "revocation not checked" warning. `true` accepts it; the result then
   * says `revocationRelaxed: true`.
   */
  allowUnknownRevocation?: boolean;
}

export interface SignOptions {
  /** The key id written in the header (required). */
  kid: string;
}

export type SigningKeyInput = CryptoKey | P384PrivateKey;

/**
 * The signature backend used when an operation names none: the one `setTokenBackend` set, else
 * 'webcrypto' where `crypto.subtle` exists and 'software' elsewhere.
 *
 * @example
 * ```ts
 * console.log(getTokenBackend()); // "webcrypto" in browsers, Node, Deno and workers
 * ```
 */
export function getTokenBackend(): TokenBackend;
/**
 * Sets the default signature backend of the token functions; without an argument, back to
 * the host's default.
 *
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a value other than 'webcrypto' and
 * 'software'.
 *
 * @example
 * ```ts
 * setTokenBackend('software'); // P-384 in wasm from now on
 * setTokenBackend(); // the host's default again
 * ```
 */
export function setTokenBackend(backend?: TokenBackend): void;
/**
 * A parsed key set, for verifying many tokens against one JWKS without reading it each time.
 * Only ES384 P-384 keys are usable; the `x5c` a key carries is kept, not validated.
 *
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
export function createKeySet(jwks: Exclude<JwksInput, KeySetResolver>): KeySet;
/**
 * Runs signature checks (from a two-phase verification: `PendingRim`, `EvidenceBatch`,
 * `ServiceExchange`) with WebCrypto: one boolean each, in order. A key or signature of another
 * size is a failed check, not a throw.
 *
 * @example
 * ```ts
 * declare const checks: SignatureCheckData[]; // e.g. a PendingRim's signatureChecks()
 * const verdicts = await verifyChecksWebCrypto(checks);
 * ```
 */
export function verifyChecksWebCrypto(checks: SignatureCheckData[]): Promise<boolean[]>;
/**
 * Runs signature checks (from a two-phase verification) with the wasm core's P-384: one
 * boolean each, in order.
 *
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for checks of the wrong shape.
 *
 * @example
 * ```ts
 * declare const checks: SignatureCheckData[];
 * const verdicts = verifyChecksSoftware(checks);
 * console.log(verdicts.every(Boolean));
 * ```
 */
export function verifyChecksSoftware(checks: SignatureCheckData[]): boolean[];
/**
 * Verifies one ES384 JWT against a key set, as jose's `jwtVerify` does: the header (`alg`
 * ES384 only, `typ`, `crit`; `jku`/`x5u` never fetched), the signature by the key its `kid`
 * names, then the times (`exp`, `nbf`, `iat` with `clockTolerance` and `maxTokenAge`) and the
 * claims asked for (`issuer`, `audience`, `subject`, `nonce` as `eat_nonce`, `requiredClaims`).
 * Resolves with the header and claims.
 *
 * @throws EdgeAttestError (as a rejection) whose code names the first failed check:
 * `ERR_JWS_*` (e.g. `ERR_JWS_SIGNATURE_VERIFICATION_FAILED`, `ERR_JWS_INVALID`),
 * `ERR_JOSE_ALG_NOT_ALLOWED`, `ERR_JWKS_*` (e.g. `ERR_JWKS_NO_MATCHING_KEY`), `ERR_JWT_*`
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
export function verifyJwt(token: string, jwks: JwksInput, options?: VerifyTokenOptions): Promise<VerifiedJwtResult>;
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
 * nonce or time: the result cannot be trusted; its `verdicts` give every token's). A recorded
 * result verifies at the time it was issued: pass `currentDate` (or `now`).
 *
 * @throws AttestationVerdictError (as a rejection) `ERR_ATTESTATION_FAILED`,
 * `ERR_ATTESTATION_RESULT_MISSING`, `ERR_EAT_CLAIMS_UNREADABLE`, `ERR_REVOCATION_UNCONFIRMED`
 * for an authentic result whose verdict is refused.
 * @throws EdgeAttestError (as a rejection) for a result that cannot be trusted: `ERR_EAT_*`
 * (e.g. `ERR_EAT_NONCE_MISMATCH`, `ERR_EAT_DIGEST_MISMATCH`, `ERR_EAT_FORMAT_MISMATCH`),
 * `ERR_JWS_*`, `ERR_JWKS_*`, `ERR_JWT_*` as {@link verifyJwt}; `ERR_INVALID_ARGUMENT` for
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
export function verifyAttestationResult(
  result: string | Uint8Array | unknown[] | { eat: string },
  jwks: JwksInput,
  options?: VerifyTokenOptions,
): Promise<VerifiedAttestationResultData>;

/**
 * A new P-384 signing key and its public JWK (WebCrypto by default; `extractable` false unless
 * asked).
 *
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for an unknown backend,
 * `ERR_NO_RANDOMNESS` (software backend) when the host has no randomness.
 *
 * @example
 * ```ts
 * const { privateKey, publicJwk } = await generateKeyPair({ kid: 'key-1' });
 * const jwks = createJwks([{ kid: 'key-1', key: publicJwk }]);
 * ```
 */
export function generateKeyPair(options?: {
  backend?: TokenBackend;
  kid?: string;
  extractable?: boolean;
}): Promise<{ privateKey: SigningKeyInput; publicJwk: P384Jwk }>;
/**
 * A signing key from PKCS#8 PEM or a private JWK (P-384 only).
 *
 * @throws EdgeAttestError (as a rejection) `ERR_JWK_*` (e.g. `ERR_JWK_UNSUPPORTED`,
 * `ERR_JWK_KEY_MISMATCH`), `ERR_KEY_*` (e.g. `ERR_KEY_ENCODING_INVALID`) for a key that does
 * not read.
 *
 * @example
 * ```ts
 * declare const pkcs8Pem: string; // -----BEGIN PRIVATE KEY----- …
 * const key = await importPrivateKey(pkcs8Pem);
 * const token = await signJwt({ sub: 'device-1' }, key, { kid: 'key-1' });
 * ```
 */
export function importPrivateKey(
  input: string | P384Jwk | object,
  options?: { backend?: TokenBackend; extractable?: boolean },
): Promise<SigningKeyInput>;
/**
 * A public key from SPKI (PEM, DER) or a public JWK (P-384 only).
 *
 * @throws EdgeAttestError `ERR_JWK_*` (e.g. `ERR_JWK_INVALID`), `ERR_KEY_*` (e.g.
 * `ERR_KEY_NOT_ON_CURVE`) for a key that does not read.
 *
 * @example
 * ```ts
 * declare const spkiPem: string; // -----BEGIN PUBLIC KEY----- …
 * const key = importPublicKey(spkiPem);
 * const jwk = await exportJwk(key, { kid: 'key-1' });
 * ```
 */
export function importPublicKey(input: string | object | Uint8Array | ArrayBuffer): P384PublicKey;
/**
 * The public JWK of a key (with `kid` when given); never the private part.
 *
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for a key of another kind.
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const jwk = await exportJwk(privateKey, { kid: 'key-1' }); // { kty: 'EC', crv: 'P-384', x, y, kid }
 * ```
 */
export function exportJwk(key: P384PrivateKey | P384PublicKey | CryptoKey, options?: { kid?: string }): Promise<P384Jwk>;
/**
 * The SPKI PEM of a key's public part.
 *
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for a key of another kind.
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const pem = await exportSpki(privateKey); // -----BEGIN PUBLIC KEY----- …
 * ```
 */
export function exportSpki(key: P384PrivateKey | P384PublicKey | CryptoKey): Promise<string>;
/**
 * The PKCS#8 PEM of a software private key (a WebCrypto key exports through `crypto.subtle`).
 * The PEM is the secret key: store it as one.
 *
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a key that is not a `P384PrivateKey`.
 *
 * @example
 * ```ts
 * const pem = exportPkcs8(P384PrivateKey.generate());
 * ```
 */
export function exportPkcs8(key: P384PrivateKey): string;
/**
 * A JWKS from public keys and their ids (and `x5c` chains), as a service publishes it.
 *
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for entries that are not an array, a key
 * that is private or of another kind; `ERR_JWK_*` for a JWK that does not read.
 *
 * @example
 * ```ts
 * const { publicJwk } = await generateKeyPair({ kid: 'key-1' });
 * const body = JSON.stringify(createJwks([{ kid: 'key-1', key: publicJwk }])); // serve at /.well-known/jwks.json
 * ```
 */
export function createJwks(
  entries: { kid: string; key: P384Jwk | object | P384PublicKey | P384PrivateKey; x5c?: string[] }[],
): { keys: P384Jwk[] };

/**
 * An ES384 JWT of `claims`, signed with `key`, its header naming `options.kid`.
 *
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for a missing `kid` or a key
 * that is not a P-384 signing key.
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const token = await signJwt({ iss: 'https://attest.example.com', iat: Math.floor(Date.now() / 1000) }, privateKey, { kid: 'key-1' });
 * ```
 */
export function signJwt(claims: Record<string, unknown>, key: SigningKeyInput, options: SignOptions): Promise<string>;
/**
 * A detached EAT as NRAS answers V2–V4: the overall token (its `submods` holding each device
 * token's digest) and the device tokens by label, all signed with `key`. For services and
 * tests that answer as NRAS does.
 *
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for a missing `kid`, a key
 * that is not a P-384 signing key, or devices of the wrong shape.
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const nonce = generateNonce();
 * const result = await createDetachedEat(
 *   { iss: 'https://attest.example.com', eat_nonce: nonce, 'x-nvidia-overall-att-result': true },
 *   { 'GPU-0': { measres: 'success' } },
 *   privateKey,
 *   { kid: 'key-1' },
 * );
 * ```
 */
export function createDetachedEat(
  overallClaims: Record<string, unknown>,
  devices: Record<string, Record<string, unknown> | string> | [string, Record<string, unknown> | string][],
  key: SigningKeyInput,
  options: SignOptions,
): Promise<[["JWT", string], Record<string, string>]>;
/**
 * A V1 answer (`{"eat": token}`) around one token, as NRAS's `/v1/attest/gpu` answers.
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const body = createV1Result(await signJwt({ 'x-nvidia-overall-att-result': true }, privateKey, { kid: 'key-1' }));
 * ```
 */
export function createV1Result(token: string): { eat: string };
