// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// Tokens (src/wasm/token.rs): verify options, verified results and the key classes, in the
// builds that have that module; names from the other fragments and the generated classes
// are in scope there.

/** One ECDSA P-384/SHA-384 verification: a public key, a message and a raw `r‖s` signature. */
export interface SignatureCheckData {
  /** SEC1 encoding of the public key (uncompressed `04‖x‖y`, 97 bytes, or compressed). */
  publicKey: Uint8Array;
  /** The signed message (hashed with SHA-384 by the check). */
  message: Uint8Array;
  /** The raw `r‖s` signature. */
  signature: Uint8Array;
}

/**
 * A P-384 JSON Web Key as this crate writes it (RFC 7518 §6.2): members in the order the
 * real attestation service uses (`kty`, `crv`, `kid`, `x5c`, `x`, `y`), `d` only for private
 * keys.
 */
export interface P384Jwk {
  /** Always `EC`. */
  kty: "EC";
  /** Always `P-384`. */
  crv: "P-384";
  /** Key id. */
  kid?: string;
  /** Certificate chain (base64 DER, leaf first), carried unchanged. */
  x5c?: string[];
  /** base64url of the 48-byte x coordinate. */
  x: string;
  /** base64url of the 48-byte y coordinate. */
  y: string;
  /** base64url of the 48-byte private scalar (private keys only). */
  d?: string;
}

/**
 * Verification options in their written form: camelCase members, every one optional here
 * (the JS `CoreVerifyOptions`, where `now` is required). The core does not read `now`, the
 * verification time: it is declared so that a reader refusing unknown members accepts it,
 * and the caller reads it (`Now` is how it is written: Unix seconds in JSON, the JS value in
 * the binding, where a `Date` is allowed too) and passes the time to `prepare_jwt`
 * and `prepare_attestation_result`.
 */
export interface CoreVerifyOptions {
  /** The verification time as written (read by the caller, see above). */
  now: number;
  /** Accepted `iss` values: one or a list. */
  issuer?: string | string[];
  /** Accepted `aud` values: one or a list. */
  audience?: string | string[];
  /** Required `sub`. */
  subject?: string;
  /** Expected `eat_nonce`. */
  nonce?: string;
  /** Clock tolerance: non-negative seconds, fractions dropped; default 0. */
  clockTolerance?: number;
  /** Maximum token age: non-negative seconds, fractions dropped. */
  maxTokenAge?: number;
  /** Claims that must be present. */
  requiredClaims?: string[];
  /** Required header `typ`. */
  typ?: string;
  /** Header extensions understood in `crit`. */
  crit?: string[];
  /** Results only: the expected shape, `v1` or `detached` (default `detached`). */
  format?: "detached" | "v1";
  /** Results only: the attest path the request went to; its shape is expected. */
  endpoint?: AttestEndpoint;
  /** Results only: resolve with an authentic result whose verdict is not a pass. */
  allowFailedResult?: boolean;
  /**
   * Results only: resolve with a passing result whose chains are not confirmed `good`
   * (shorthand: `allowUnknown` on every component of `revocation`, merged into it).
   */
  allowUnknownRevocation?: boolean;
  /**
   * Results only: per component, which chains that are not confirmed `good` a passing
   * result may have (`allowUnknown`, `revokedGracePeriod`, `allowHold`); default strict.
   */
  revocation?: RevocationPolicy;
  /**
   * Which keys may sign: `'any'` (no pinning), or trusted anchors, each the hex SHA-256
   * of a certificate's DER SubjectPublicKeyInfo or a CA certificate (PEM). Default: NVIDIA's
   * attestation CA (the key of its GPU Intermediate 004).
   */
  signers?: "any" | ({ spkiSha256: string } | { certificate: string })[];
}

/** One certificate of a signer's path, as reported. */
export interface SignerCertificate {
  /** Subject, RFC 4514 text. */
  subject: string;
  /** Issuer, RFC 4514 text. */
  issuer: string;
  /** notBefore, Unix seconds. */
  notBefore: number;
  /** notAfter, Unix seconds. */
  notAfter: number;
}

/**
 * Who signed a token, as written (the JS `VerifiedSigner`): `{pinned: false}` under
 * `signers: 'any'`, else the anchor reached (`spkiSha256:<hex>` or
 * `certificate:<subject>`), the path leaf first, and the key's `kid`.
 */
export interface VerifiedSigner {
  /** Whether the key's `x5c` chain was validated to an anchor. */
  pinned: boolean;
  /** The anchor reached (pinned only). */
  anchor?: string;
  /** The path, leaf first (pinned only). */
  chain?: SignerCertificate[];
  /** The key's `kid` (pinned only). */
  kid?: string | null;
}

/** A verified JWT as written (the JS `VerifiedJwtResult`). */
export interface VerifiedJwtResult {
  payload: Record<string, unknown>;
  protectedHeader: Record<string, unknown>;
  kid: string | null;
  /** Who signed it. */
  signer: VerifiedSigner;
}

/** A verified device of a detached result as written (the JS `VerifiedDeviceResult`). */
export interface VerifiedDeviceResult {
  label: string;
  digest: string;
  /** The device token's claims: one of the service's claim sets, or unknown claims. */
  payload: DeviceClaims;
  protectedHeader: Record<string, unknown>;
  kid: string | null;
  /** Who signed the device token. */
  signer: VerifiedSigner;
}

/**
 * One reason a device failed, as written (the JS `AppraisalReason`): the claim, its value,
 * and what it means as a sentence.
 */
export interface AppraisalReason {
  claim: string;
  value: unknown;
  message: string;
}

/** The verdict level, worst first (the derived order compares levels: `Forged < Passed`). */
export type VerdictLevel =
  | "forged"
  | "wrong-nonce"
  | "expired"
  | "failed"
  | "passed-with-warnings"
  | "passed";

/** One device's appraisal, as written (the JS `DeviceAppraisal`). */
export interface DeviceAppraisal {
  /** The device label ("GPU-0"; a V1 result's one GPU is "GPU-0"). */
  label: string;
  /**
   * false when a claim says a check failed, true when `measres` says success and nothing
   * failed, null when the token says neither.
   */
  passed: boolean | null;
  /**
   * The token confirms every certificate chain it names good (claims 3.0/4.0: each chain
   * object `valid` and OCSP `good`; 1.0/2.0: the chains validated and no "not checked"
   * warning).
   */
  revocationConfirmed: boolean;
  /**
   * Why it failed, most decisive first (the service's error, the evidence, the RIMs, the
   * measurement comparison, the platform state).
   */
  reasons: AppraisalReason[];
  /**
   * What a pass of this device does not prove: each part of the service's
   * `x-nvidia-attestation-warning`, and revocation not confirmed good.
   */
  warnings: string[];
}

/**
 * What a verified attestation result says, as written (the JS `Appraisal`): the service's
 * verdict and each device's.
 */
export interface Appraisal {
  /** "failed", "passed-with-warnings" (a device carries warnings) or "passed". */
  level: VerdictLevel;
  /** True only when `overallResult` is true and no device says it failed. */
  passed: boolean;
  /** The service's `x-nvidia-overall-att-result`, null when absent. */
  overallResult: boolean | null;
  /** True when every device confirms its chains good. */
  revocationConfirmed: boolean;
  devices: DeviceAppraisal[];
}

/** A verified attestation result as written (the JS `VerifiedAttestationResultData`). */
export interface VerifiedAttestationResultData {
  format: "v1" | "detached";
  /** The overall token (V1: the GPU's single token). */
  overall: VerifiedJwtResult & { payload: OverallTokenClaims };
  /** Empty for V1 (its one token is the GPU's); never empty for a detached result. */
  devices: VerifiedDeviceResult[];
  /** The service's `x-nvidia-overall-att-result`; always a boolean for V1. */
  overallResult: boolean | null;
  /**
   * The form the evidence came in, from the overall token's `x-edgeattest-evidence-form`:
   * `plain` when absent, null when it names a form this version does not know.
   */
  evidenceForm: "plain" | "json-cmw" | "cbor-cmw" | null;
  /** Why the result passed or failed, per device. */
  appraisal: Appraisal;
  /**
   * True when the result passed but was accepted only because the revocation policy
   * (`revocation`, or `allowUnknownRevocation`) accepted chains not confirmed good; the
   * appraisal's device warnings name each chain and the rule member.
   */
  revocationRelaxed: boolean;
  /** Who signed the result (its overall token). */
  signer: VerifiedSigner;
}

/**
 * The revocation policy of every component (the JS `RevocationPolicy`); every member is
 * optional and strict by default.
 */
export interface RevocationPolicy {
  /** A GPU's device certificate chain. */
  deviceChain?: RevocationRule;
  /** The chain of the driver RIM's signer. */
  driverRimChain?: RevocationRule;
  /** The chain of the VBIOS RIM's signer. */
  vbiosRimChain?: RevocationRule;
  /** An NVSwitch's device certificate chain. */
  switchChain?: RevocationRule;
  /** The chain of the key that signed an attestation result (relying party). */
  signerChain?: RevocationRule;
}

/**
 * What one component's chain accepts besides `good` (the JS `RevocationRule`); every member
 * is optional and strict by default.
 */
export interface RevocationRule {
  /** OCSP `unknown`, or no answer, passes with a warning. */
  allowUnknown?: boolean;
  /**
   * Seconds after its revocation time during which a revoked certificate passes with a
   * warning.
   */
  revokedGracePeriod?: number;
  /** `certificateHold` passes with a warning. */
  allowHold?: boolean;
}

/** The components a `RevocationPolicy` has a rule for. */
export type RevocationComponent =
  | "deviceChain"
  | "driverRimChain"
  | "vbiosRimChain"
  | "switchChain"
  | "signerChain";
