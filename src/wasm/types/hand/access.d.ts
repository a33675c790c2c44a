// Hand-written declarations spliced into the generated edgeattest.d.ts by the
// typescript_custom_section in src/wasm/access.rs (so they exist only in the builds that have that
// module); names from the other fragments and the generated classes are in scope there.
export type Scope =
  | "lab:simulation_read" | "lab:simulation_create" | "lab:simulation_edit"
  | "lab:simulation_delete" | "lab:simulation_start_stop" | "lab:image_read"
  | "lab:image_write" | "lab:image_publish" | "lab:image_sharing" | "lab:image_claiming"
  | "lab:marketplace_demo_write" | "lab:marketplace_demo_publish" | "lab:training_instructor";
export type Role =
  | "lab_user" | "lab_org_admin" | "lab_instructor" | "lab_demo_manager"
  | "lab_image_uploader" | "lab_image_publisher" | "lab_image_sharer" | "lab_image_claimer";

/** A stored key (key-store JSON form): never the key, only its SHA-256 digest. */
export interface KeyRecord {
  id: string;
  type: "personal" | "service";
  /** 64 hex digits: SHA-256 of the key text. */
  digest: string;
  /** Personal keys only. */
  roles?: Role[];
  /** Service keys only. */
  scopes?: Scope[];
  /** Services the key was issued for; it grants nothing elsewhere ("simulation"). */
  services: string[];
  /** Unix seconds. */
  expiresAt?: number;
  /** Unix seconds. */
  revokedAt?: number;
}
export interface KeyStoreJson { keys: KeyRecord[] }

/** The parts of a request the gateway looks at. */
export interface GatewayRequestInit {
  method: string;
  /** The path with optional ?query, or a full URL (only its path and query are used). */
  url: string;
  /** The Authorization header value, if any (`headers.get("authorization")`). */
  authorization?: string | null;
  /**
   * Every client header: a `Headers` object or [name, value] pairs. The decision's
   * `forward.headers` is built from them; without them it holds the gateway's headers only.
   * At most 128 headers and 64 KiB (431 `ERR_ACCESS_TOO_MANY_HEADERS`,
   * `ERR_ACCESS_HEADERS_TOO_LARGE`).
   */
  headers?: Iterable<[string, string]> | null;
}

export interface GatewayOptions {
  /** WWW-Authenticate realm; default "edgeattest". */
  realm?: string;
  /** The service keys must be issued for; default "simulation". */
  service?: string;
}

/**
 * A denial's body: the members of every error body of the service (`code`, `message`,
 * `field`, `status`), then the details of a 403 or 405. The RFC 6750 `error`,
 * `error_description` and `scope` are in the `WWW-Authenticate` header only.
 */
export interface AccessErrorBody {
  /** `ERR_ACCESS_*`. */
  code: string;
  /** The sentence of the challenge's `error_description`. */
  message: string;
  /** "Authorization" (or "access_token") for credential refusals. */
  field?: string;
  status: number;
  route?: string;
  requirement?: "all_of" | "any_of";
  requiredScopes?: Scope[];
  grantedScopes?: Scope[];
  missingScopes?: Scope[];
  allowedMethods?: string[];
}

/** Exactly what to send upstream: request `target` with `headers`, the method and the body. */
export interface GatewayForward {
  /** The canonical path, without the query. */
  path: string;
  /** The canonical path and the query without method overrides (`_method`). */
  target: string;
  /** The client's headers that survive stripping, then the gateway's own, each once. */
  headers: [string, string][];
  /** The gateway's own X-Edgeattest-* headers (also in `headers`). */
  setHeaders: [string, string][];
  /** The client's header names that were stripped, "Authorization" first. */
  removeHeaders: string[];
}

/** What the gateway must do: forward (allow) or answer with status, headers and body. */
export interface GatewayDecision {
  allow: boolean;
  /** 0 when forwarded. */
  status: number;
  /** [name, value] pairs for the answer (usable with `new Headers(...)`). */
  headers: [string, string][];
  body: AccessErrorBody | null;
  forward: GatewayForward | null;
  /** For the host's logs only; never send it to the client. */
  audit: { reason: string; keyId?: string; route?: string };
}

export interface EvaluateAccessOptions extends GatewayOptions {
  /** Required when the first argument is a key or an Authorization value. */
  keyStore?: string | KeyStoreJson;
  /** Unix seconds; default now. */
  now?: number;
}

export interface CreateApiKeyOptions {
  type: "personal" | "service";
  id: string;
  roles?: Role[];
  scopes?: Scope[];
  /** Default ["simulation"]. */
  services?: string[];
  expiresAt?: number;
}

/** A new key: show `key` once, store `record`. */
export interface CreatedApiKey { key: string; redacted: string; record: KeyRecord }

export interface ParsedApiKey { type: "personal" | "service"; redacted: string; digest: string }

export interface DevKey {
  id: string; type: "personal" | "service"; key: string;
  roles?: Role[]; scopes: Scope[]; services: string[]; expiresAt: number;
}
export interface DevKeySet { keys: DevKey[]; keyStore: KeyStoreJson }

export interface AccessRoute {
  method: string; path: string; resource: string;
  requires: { all_of: Scope[] } | { any_of: Scope[] };
  basis: "direct" | "inferred"; rationale: string;
}
