// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// The OCSP module (src/wasm/ocsp.rs): a chain's requests and status, in the builds that have
// that module; names from the other fragments and the generated classes are in scope there.

/** Which certificates of a chain are asked about: `device` or `rim` as text. */
export type OcspChainKind = "device" | "rim";

/**
 * The options of a chain's requests (the JS `OcspRequestsOptions`): which certificates
 * (`kind`, required), and optionally the nonces, one per request (default: fresh ones from
 * the caller's randomness).
 */
export interface OcspRequestsOptions {
  /**
   * `device` or `rim`; absent is refused by `requests` (naming
   * `kind`).
   */
  kind: OcspChainKind;
  /** One nonce per request, in chain order. */
  nonces?: Uint8Array[];
}

/**
 * One request of a chain (the JS `OcspRequestJs`): POST `request` as
 * `application/ocsp-request`.
 */
export interface OcspRequestJs {
  /** The certificate asked about: its subject commonName (its whole subject without one). */
  certificate: string;
  /** Its index in the chain (leaf 0); its issuer is `index + 1`. */
  index: number;
  /** Names the certificate, not the request (`cache_key`). */
  cacheKey: string;
  /**
   * The DER `OCSPRequest`: a fresh buffer (`buffer: ArrayBuffer`) in JS, so that
   * TypeScript's DOM types take it as a fetch body.
   */
  request: Uint8Array & { readonly buffer: ArrayBuffer };
  /** Its nonce. */
  nonce: Uint8Array;
}

/**
 * The options of checking a chain's answers (the JS `CheckOcspOptions`): the chain's
 * revocation rule (default strict, as NVIDIA's service), and the component it is, which
 * names the chain in the warnings.
 */
export interface CheckOcspOptions {
  /** What passes besides `good`, each with a warning; default strict. */
  rule?: RevocationRule;
  /**
   * Shorthand for `rule.allowHold` (kept from before `rule`): `true` counts
   * `certificateHold` as good with a warning, as `X-NVIDIA-OCSP-ALLOW-CERT-HOLD` asks.
   */
  allowHold?: boolean;
  /**
   * The component the chain is (names it in the warnings); default by `kind`: a device
   * chain, or "RIM chain".
   */
  component?: RevocationComponent;
}

/**
 * One certificate's answer: its status and times (`thisUpdate`, `nextUpdate` null when it
 * failed), or the failure's code and message.
 */
export interface OcspCertificateStatus {
  /** Its subject commonName (its whole subject without one). */
  subject: string;
  /** `good`, `revoked`, `unknown` or `failed`. */
  status: OcspStatusJs;
  /** The CRL reason of a revoked certificate, when given. */
  reason?: string;
  /** revocationTime, Unix seconds. */
  revokedAt?: number;
  /** thisUpdate, Unix seconds; `None` when it failed. */
  thisUpdate: number | null;
  /** nextUpdate, Unix seconds, when given. */
  nextUpdate: number | null;
  /** `matched` or `not-echoed`. */
  nonce?: "matched" | "not-echoed";
  /** Until when a host may cache the response, Unix seconds (0: do not). */
  cacheUntil?: number;
  /** Why the response was not believed, or could not be had. */
  code?: string;
  /** The same, for people. */
  message?: string;
}

/**
 * A chain's status from its answers (the JS `OcspChainStatus`): `good` only if every
 * certificate is; else the first certificate that is not decides.
 */
export interface OcspChainStatus {
  /** `good`, `revoked`, `unknown` or `failed`. */
  status: OcspStatusJs;
  /** A held certificate was accepted (`allowHold`). */
  held?: boolean;
  /**
   * One warning per non-good outcome the rule let pass, in chain order (empty when
   * strictly good or not good).
   */
  warnings: string[];
  /** The CRL reason of a revoked chain, when given. */
  reason?: string;
  /** Why a failed chain's status could not be had (`ERR_OCSP_*`). */
  code?: string;
  /** The real service's code when not good: 5002, 5003 or 5001. */
  serviceCode?: number;
  /** One entry per certificate asked about, in chain order. */
  certificates: OcspCertificateStatus[];
}

/** The options of the signer chain's OCSP (the JS `SignerOcspOptions`). */
export interface SignerOcspOptions {
  /**
   * The `kid` of the key that signed (the verified result's `signer.kid`); may be absent
   * when the key set holds one key.
   */
  kid: string | null;
  /** The anchors the result was verified with; default NRAS's (`nras`). */
  signers: "any" | ({ spkiSha256: string } | { certificate: string })[];
  /** Requests only: one nonce per request, in order (default: the host's randomness). */
  nonces: Uint8Array[];
  /** Checks only: the revocation policy; its `signerChain` rule applies (default strict). */
  revocation?: RevocationPolicy;
}

/**
 * One request of the signer's chain (the JS `SignerOcspRequest`): POST `request` as
 * `application/ocsp-request` to `url`.
 */
export interface SignerOcspRequest {
  /** The responder the certificate's authorityInfoAccess names (http or https). */
  url: string;
  /** The certificate asked about: its subject commonName (its whole subject without one). */
  certificate: string;
  /** Its index in the chain (leaf 0); its issuer is `index + 1`. */
  index: number;
  /** Names the certificate, not the request (`cache_key`). */
  cacheKey: string;
  /**
   * The DER `OCSPRequest`: a fresh buffer (`buffer: ArrayBuffer`) in JS, so that
   * TypeScript's DOM types take it as a fetch body.
   */
  request: Uint8Array & { readonly buffer: ArrayBuffer };
  /** Its nonce. */
  nonce: Uint8Array;
}

/**
 * The signer chain's revocation (the JS `SignerOcspStatus`). `code` and `message` are set
 * exactly when the policy refuses it; `not-checked` is not a refusal.
 */
export interface SignerOcspStatus {
  /** `good`, `revoked`, `unknown`, `failed`, or `not-checked` (nothing could be asked). */
  status: "good" | "revoked" | "unknown" | "failed" | "not-checked";
  /** The anchor the signer's path reached (absent when the key was not pinned). */
  anchor?: string;
  /** Why nothing was asked (`not-checked`), and what would have it asked. */
  notChecked?: string;
  /** One warning per outcome the `signerChain` rule let pass. */
  warnings: string[];
  /** `ERR_SIGNER_REVOKED` or `ERR_SIGNER_REVOCATION_UNCONFIRMED` when refused. */
  code?: string;
  /** What was refused and what to do. */
  message?: string;
  /** One entry per certificate asked about, in path order. */
  certificates: OcspCertificateStatus[];
}
