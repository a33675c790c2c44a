// Hand-written: the binding's own shapes, spliced beside the generated ../access.d.ts.
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
export interface AccessErrorBody extends AccessDetail {
  /** `ERR_ACCESS_*`. */
  code: string;
  /** The sentence of the challenge's `error_description`. */
  message: string;
  /** "Authorization" (or "access_token") for credential refusals. */
  field?: string;
  status: number;
}

/** A new key: show `key` once, store `record`. */
export interface CreatedApiKey { key: string; redacted: string; record: KeyRecord }

export interface DevKey {
  id: string; type: "personal" | "service"; key: string;
  roles?: Role[]; scopes: Scope[]; services: string[]; expiresAt: number;
}

export interface AccessRoute {
  method: string; path: string; resource: string;
  requires: { all_of: Scope[] } | { any_of: Scope[] };
  basis: "direct" | "inferred"; rationale: string;
}
