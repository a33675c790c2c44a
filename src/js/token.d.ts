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
 * the first failure) carries `verdicts`: the overall token (label null), then every device.
 */
export interface TokenVerdict {
  label: string | null;
  verified: boolean;
  code: string | null;
  field: string | null;
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

export function getTokenBackend(): TokenBackend;
export function setTokenBackend(backend?: TokenBackend): void;
export function createKeySet(jwks: Exclude<JwksInput, KeySetResolver>): KeySet;
export function verifyChecksWebCrypto(checks: SignatureCheckData[]): Promise<boolean[]>;
export function verifyChecksSoftware(checks: SignatureCheckData[]): boolean[];
export function verifyJwt(token: string, jwks: JwksInput, options?: VerifyTokenOptions): Promise<VerifiedJwtResult>;
export function verifyAttestationResult(
  result: string | Uint8Array | unknown[] | { eat: string },
  jwks: JwksInput,
  options?: VerifyTokenOptions,
): Promise<VerifiedAttestationResultData>;

export function generateKeyPair(options?: {
  backend?: TokenBackend;
  kid?: string;
  extractable?: boolean;
}): Promise<{ privateKey: SigningKeyInput; publicJwk: P384Jwk }>;
export function importPrivateKey(
  input: string | P384Jwk | object,
  options?: { backend?: TokenBackend; extractable?: boolean },
): Promise<SigningKeyInput>;
export function importPublicKey(input: string | object | Uint8Array | ArrayBuffer): P384PublicKey;
export function exportJwk(key: P384PrivateKey | P384PublicKey | CryptoKey, options?: { kid?: string }): Promise<P384Jwk>;
export function exportSpki(key: P384PrivateKey | P384PublicKey | CryptoKey): Promise<string>;
export function exportPkcs8(key: P384PrivateKey): string;
export function createJwks(
  entries: { kid: string; key: P384Jwk | object | P384PublicKey | P384PrivateKey; x5c?: string[] }[],
): { keys: P384Jwk[] };

export function signJwt(claims: Record<string, unknown>, key: SigningKeyInput, options: SignOptions): Promise<string>;
export function createDetachedEat(
  overallClaims: Record<string, unknown>,
  devices: Record<string, Record<string, unknown> | string> | [string, Record<string, unknown> | string][],
  key: SigningKeyInput,
  options: SignOptions,
): Promise<[["JWT", string], Record<string, string>]>;
export function createV1Result(token: string): { eat: string };
