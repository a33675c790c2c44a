// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// The attestation service (src/wasm/service.rs): its options, requests, exchanges and
// host answers, in the service module only; names from the other fragments and the
// generated classes are in scope there.

/**
 * A service's configuration as text (the JS `AttestationServiceOptions`): exactly one of the
 * signing key and the public key; everything else optional. The service reads and checks it
 * (`build`).
 */
export interface AttestationServiceOptions {
  /** The signing key, held by the service: PKCS#8 PEM or a private JWK (JSON text). */
  signingKey?: string;
  /**
   * The public half of a signing key the host keeps (a non-extractable WebCrypto key): a
   * public JWK (JSON text) or SPKI PEM. The service then answers attestation requests only
   * through `begin()` / `handleRequest()`, and the host signs.
   */
  publicKey?: string;
  /** The key's `kid`; default: its RFC 7638 thumbprint. */
  kid?: string;
  /** The key's certificate chain (PEM, leaf first), published in the JWKS as `x5c`. */
  certificate?: string;
  /** Retired keys still published in the JWKS: a JWKS (JSON text). */
  retiredKeys?: string;
  /**
   * The tokens' `iss`: the service's base URL. Default: the origin of the request being
   * answered (`ServiceRequest.origin`), which the client chooses through `Host` — set it in
   * production.
   */
  issuer?: string;
  /**
   * Fail devices whose firmware could report an FWID but did not (Hopper firmware from
   * before FWID reporting) with 4016. Default false: passed as NVIDIA's verifiers do, with
   * a warning claim naming it.
   */
  requireFwid?: boolean;
  /**
   * Token lifetime: seconds from `iat` to `exp`, 60 (`MIN_TOKEN_LIFETIME`) to 86400
   * (`MAX_TOKEN_LIFETIME`); default 3600 (`DEFAULT_TOKEN_LIFETIME`).
   */
  tokenLifetime?: number;
  /** Extra device root certificates (PEM), trusted besides the NVIDIA device root. */
  trustAnchors?: string;
  /** Extra RIM root certificates (PEM), trusted besides the NVIDIA RIM root. */
  rimTrustAnchors?: string;
  /**
   * The RIM service missing RIM documents are fetched from (the exchange's fetch step names
   * `<url><id>`). Default: NVIDIA's, `https://rim.attestation.nvidia.com/v1/rim/`; `null`
   * or `"off"`: off (only the documents added with `addRim` / `addRimEnvelope`).
   */
  rimServiceUrl?: string | null;
  /**
   * The OCSP responder asked about device and RIM certificates. Default: NVIDIA's,
   * `https://ocsp.ndis.nvidia.com/`; `null` or `"off"`: off (revocation not checked; every
   * token says so in `x-nvidia-attestation-warning`).
   */
  ocspUrl?: string | null;
  /**
   * A relying-party policy every device must meet, in NVIDIA's JSON format (text; see
   * `appraise`). A device that passed NVIDIA's checks but fails the policy's device rules
   * fails with 4091 RELYING_PARTY_POLICY_NOT_MET, its error details naming the failed
   * rules. Default: none, as the real service.
   */
  policy?: string;
}
