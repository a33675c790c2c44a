import type { KeySet } from './edgeattest.js';

export interface RemoteJWKSetOptions {
  /** Milliseconds the whole fetch (headers and body) may take; default 5000. */
  timeoutDuration?: number;
  /** Least milliseconds between two fetches made for an unknown `kid`; default 30000. */
  cooldownDuration?: number;
  /** Milliseconds a fetched set is used without asking again; default 600000. */
  cacheMaxAge?: number;
  /** Largest body accepted, in bytes; default 262144. */
  maxBytes?: number;
  /** Extra request headers (`accept: application/json` is sent). */
  headers?: Record<string, string>;
  /** The fetch to use; default `globalThis.fetch`. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** The clock in milliseconds; default `Date.now`. */
  now?: () => number;
}

/**
 * What createRemoteJWKSet returns: pass it as the key set of verifyJwt or
 * verifyAttestationResult. Rejects with an EdgeAttestError: `ERR_JWKS_FETCH_TIMEOUT`,
 * `ERR_JWKS_FETCH_FAILED`, `ERR_JWKS_REDIRECT` (a redirect to another origin, more than 3
 * within the origin, or one whose target the runtime hides), `ERR_JWKS_HTTP_STATUS` (with
 * `status`), `ERR_JWKS_NOT_JSON`, `ERR_JWKS_TOO_LARGE` (with `limit`; the body is cancelled
 * where it passes it), `ERR_JWKS_INVALID`.
 */
export interface RemoteJWKSet {
  (hint?: { unknownKey?: boolean }): Promise<KeySet>;
  /** The cached set is younger than `cacheMaxAge`. */
  readonly fresh: boolean;
  /** A fetch happened less than `cooldownDuration` ago. */
  readonly coolingDown: boolean;
  /** A fetch is in flight. */
  readonly reloading: boolean;
  /** Fetches the set now (sharing a fetch in flight). */
  reload(): Promise<void>;
  /** A copy of the last set fetched, or undefined. */
  jwks(): { keys: object[] } | undefined;
}

/**
 * The JWKS at `url` (an attestation service's `/.well-known/jwks.json`), as jose's
 * createRemoteJWKSet: fetched with a timeout and a size cap, cached, fetched again on an
 * unknown `kid` at most once per cooldown, concurrent fetches shared. `url` is https:, or
 * http: on loopback only (`localhost`, 127.0.0.0/8, `[::1]`): another http: URL throws
 * `ERR_JWKS_INSECURE_URL` (field `url`). Fetched with `redirect: 'manual'`; a redirect within
 * the URL's origin is followed (at most 3), any other is `ERR_JWKS_REDIRECT` — in browsers,
 * which hide a redirect's target, every redirect is.
 *
 * @throws EdgeAttestError `ERR_JWKS_INSECURE_URL` for an http: URL off loopback,
 * `ERR_INVALID_ARGUMENT` for options of the wrong shape; the set it returns rejects with the
 * `ERR_JWKS_*` codes of {@link RemoteJWKSet}.
 *
 * @example
 * ```ts
 * const jwks = createRemoteJWKSet('https://nras.attestation.nvidia.com/.well-known/jwks.json', { timeoutDuration: 3000 });
 * declare const token: string;
 * const { payload } = await verifyJwt(token, jwks);
 * ```
 */
export function createRemoteJWKSet(url: string | URL, options?: RemoteJWKSetOptions): RemoteJWKSet;
