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
   * RIM services tried in order after `rimServiceUrl` when it fails (at most 4 `http(s)`
   * URLs, each a base like `rimServiceUrl`'s), e.g. an edgeattest mirror or dstack's proxy.
   * Default: none.
   */
  rimMirrors?: string[];
  /**
   * OCSP responders tried in order after `ocspUrl` when it fails (at most 4), relaying the
   * same CA's answers. Default: none.
   */
  ocspMirrors?: string[];
  /**
   * Which formats the fetch step asks the RIM service for: `"xml"` (the default: NVIDIA
   * publishes no GPU CoRIM yet) or `"corim-preferred"` (CoRIMs first, the JSON envelope
   * still accepted).
   */
  rimFormats?: "xml" | "corim-preferred";
  /**
   * Seconds past its `nextUpdate` a kept OCSP answer may still be used when every
   * responder fails (stale-if-error), at most 604800 (a week). Default 0: never. The risk:
   * a certificate revoked after the answer was signed passes for that long; every token
   * that relied on such an answer says so in `x-nvidia-attestation-warning`.
   */
  ocspStaleIfError?: number;
  /**
   * Whether the service keeps the OCSP answers and RIM documents it verified for the next
   * requests, each while it is fresh (`EDGEATTEST_FETCH_CACHE`). Default: true; false:
   * every attestation asks its sources again.
   */
  fetchCache?: boolean;
  /**
   * A relying-party policy every device must meet, in NVIDIA's JSON format (text; see
   * `appraise`). A device that passed NVIDIA's checks but fails the policy's device rules
   * fails with 4091 RELYING_PARTY_POLICY_NOT_MET, its error details naming the failed
   * rules. Default: none, as the real service.
   */
  policy?: string;
  /**
   * The revocation policy (JSON text of a `RevocationPolicy`: per component,
   * `allowUnknown`, `revokedGracePeriod`, `allowHold`), every relaxation a warning of the
   * device token. Default: strict, as the real service.
   */
  revocationPolicy?: string;
}

/** A request as the host received it. */
export interface ServiceRequest {
  method: string;
  /** The path, e.g. "/v4/attest/gpu"; a query string after "?" is read only for "result" (result=ear: the EAT Attestation Result). */
  path: string;
  /** The origin the request was addressed to (`new URL(request.url).origin`): the tokens' iss when no issuer is configured. */
  origin?: string;
  headers?: [string, string][] | Record<string, string>;
  body?: Uint8Array | string;
}

/** A response for the host to send. */
export interface ServiceResponse {
  status: number;
  headers: [string, string][];
  /** A fresh buffer: the type says so (`buffer: ArrayBuffer`), so that TypeScript's DOM types take it as a Response body. */
  body: Uint8Array & { readonly buffer: ArrayBuffer };
}

/** One thing to fetch. */
export type FetchResource =
  | {
    "kind": "rim";
    id: string;
    url: string;
    fallbacks: string[];
    /** The request's Accept header: "application/json" (the envelope), or the CoRIM types first when the service asks for CoRIMs. */
    accept: string;
  }
  | {
    "kind": "ocsp";
    url: string;
    fallbacks: string[];
    request: Uint8Array & { readonly buffer: ArrayBuffer };
    nonce: Uint8Array;
    cacheKey: string;
  };

/** What the host does next for a resource. */
export type FetchAttempt =
  | {
    "kind": "fetch";
    url: string;
    timeoutMs: number;
  }
  | {
    "kind": "wait";
    ms: number;
  }
  | {
    "kind": "done";
    answer: FetchAnswer;
  };

/** An OCSP response that verified, for the host's cache. */
export interface OcspCacheEntry {
  cacheKey: string;
  body: Uint8Array;
  nonce: Uint8Array;
  until: number;
  keepUntil: number;
}

/** What the host last saw of a remote source (the RIM service, the OCSP responder). */
export interface SourceState {
  /** Whether its last fetch got an answer (undefined: not asked yet). */
  reachable?: boolean;
  /** The last failure, e.g. 'timeout' or 'HTTP 503'. */
  lastError?: string;
  /** Answers held in the host's cache. */
  cachedEntries?: number;
  /** Seconds past its freshness of the stalest kept answer the last fetch used (stale-if-error). */
  keptSeconds?: number;
}

/** One source a host should probe: its kind and the URL to ask (`HEAD`). */
export interface ProbeTarget {
  kind: 'rim' | 'ocsp';
  url: string;
}

/** What an `Exchange` needs next. */
export type ServiceStep =
  | {
    "kind": "verify";
    checks: SignatureCheck[];
  }
  | {
    "kind": "fetch";
    resources: FetchResource[];
  }
  | {
    "kind": "sign";
    inputs: Uint8Array[];
  }
  | {
    "kind": "respond";
    response: ServiceResponse;
  };
