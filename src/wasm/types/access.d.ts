// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// Access control (src/wasm/access.rs): scopes, decisions and keys, in the builds that
// have that module; names from the other fragments and the generated classes are in
// scope there.

export type Scope =
  | "lab:simulation_read"
  | "lab:simulation_create"
  | "lab:simulation_edit"
  | "lab:simulation_delete"
  | "lab:simulation_start_stop"
  | "lab:image_read"
  | "lab:image_write"
  | "lab:image_publish"
  | "lab:image_sharing"
  | "lab:image_claiming"
  | "lab:marketplace_demo_write"
  | "lab:marketplace_demo_publish"
  | "lab:training_instructor";

export type Role =
  | "lab_user"
  | "lab_org_admin"
  | "lab_instructor"
  | "lab_demo_manager"
  | "lab_image_uploader"
  | "lab_image_publisher"
  | "lab_image_sharer"
  | "lab_image_claimer";

/** Key records, found by digest. */
export interface KeyStoreJson {
  keys: KeyRecord[];
}

/** The detail members of a denial's body (`code` is `ERR_ACCESS_*`). */
export interface AccessDetail {
  /** The route pattern, once resolved (403, 405). */
  route?: string;
  /** `all_of` or `any_of` (403). */
  requirement?: "all_of" | "any_of";
  /** The scopes the route requires (403). */
  requiredScopes?: Scope[];
  /** The scopes the key holds on this service (403). */
  grantedScopes?: Scope[];
  /** Required scopes the key lacks (403). */
  missingScopes?: Scope[];
  /** The methods the route accepts (405). */
  allowedMethods?: string[];
}

/**
 * What to send upstream for an allowed request: `target` and `headers` are the whole of
 * it; the host copies them and adds nothing but the method and the body.
 */
export interface GatewayForward {
  /** The canonical path, without the query. */
  path: string;
  /** The canonical path and the query without method overrides: what to request upstream. */
  target: string;
  /**
   * The headers to send: the client's that survive stripping, in order, then the
   * gateway's own (`set_headers`), each of those exactly once.
   */
  headers: [string, string][];
  /** The gateway's own headers (also in `headers`). */
  setHeaders: [string, string][];
  /**
   * The client's header names stripped, `Authorization` always first: for hosts that
   * edit the incoming headers (delete these, then set `set_headers`) instead of
   * sending `headers`.
   */
  removeHeaders: string[];
}

/** The gateway's decision. */
export interface GatewayDecision {
  /** Whether the request may go upstream. */
  allow: boolean;
  /** The status to answer with; 0 when the request is forwarded (upstream answers). */
  status: number;
  /** Response headers to answer with (denials and preflights). */
  headers: [string, string][];
  /**
   * The JSON body of a denial: the members of every error body of the service
   * (`ErrorBody`: `code`, `message`, `field`, `status`), then the details of a 403 or
   * 405 (`AccessDetail`). Absent members are omitted.
   * The RFC 6750 members (`error`, `error_description`, `scope`) are in the
   * `WWW-Authenticate` challenge only, never in the body: `message` is the same sentence as
   * the challenge's `error_description`, and `field` names the `Authorization` header (or
   * the `access_token` query parameter) for credential refusals.
   */
  body: AccessErrorBody | null;
  /** How to forward an allowed request. */
  forward: GatewayForward | null;
  /** For the host's logs only. */
  audit: {
    /**
     * `allowed`, `preflight`, or the precise denial reason: `no_credentials`,
     * `unsupported_scheme`, a malformation name, `malformed_key`, `unknown_key`,
     * `revoked`, `expired`, `wrong_service`, `invalid_path`, `unknown_route`,
     * `method_not_allowed`, `insufficient_scope`.
     */
    reason: string;
    /** The record id of the key, once found. */
    keyId?: string;
    /** The route pattern, once resolved. */
    route?: string;
  };
}

/**
 * The gateway's options (the JS `GatewayOptions`, and `EvaluateAccessOptions`, which adds
 * `keyStore` and `now`). Absent members keep the defaults.
 */
export interface EvaluateAccessOptions {
  /** The `WWW-Authenticate` realm; default `DEFAULT_REALM`. */
  realm?: string;
  /** The service keys must be issued for; default `SIMULATION_SERVICE`. */
  service?: string;
  /** `evaluateAccess` given key text: the store to look it up in. */
  keyStore?: string | KeyStoreJson;
  /** `evaluateAccess`: the time of the decision. */
  now?: number;
}

/**
 * A new key as a host asks for it (the JS `CreateApiKeyOptions`): the `KeyRequest`
 * members, the record's `id` and its optional `expiresAt`. `roles` or `scopes` given as
 * `null` is present and empty (refused on the other key type as any other value).
 */
export interface CreateApiKeyOptions {
  /** `personal` or `service`; required. */
  type: "personal" | "service";
  /** The record's id; required. */
  id: string;
  /** As `roles`. */
  roles?: Role[];
  /** As `scopes`. */
  scopes?: Scope[];
  /** As `services`. */
  services?: string[];
  /** When the key stops working. */
  expiresAt?: number;
}

/** A key checked offline (`parseApiKey`): its type, redacted form and digest (hex). */
export interface ParsedApiKey {
  /** `personal` or `service`. */
  type: "personal" | "service";
  /** `eak_svc_…abcd`. */
  redacted: string;
  /** The SHA-256 of the key text, as a store keeps it. */
  digest: string;
}

/** The development key set with its store (`devKeySet`): `{keys, keyStore}`. */
export interface DevKeySet {
  /** The keys, secrets included (`dev_key_set`). */
  keys: DevKey[];
  /** Their records. */
  keyStore: KeyStoreJson;
}
