// A remote key set, as jose's createRemoteJWKSet: the service's JWKS (GET
// /.well-known/jwks.json) fetched with a timeout and a size cap, cached for maxAge, fetched
// again when a token names a key the set does not hold — at most once per cooldown — with
// concurrent callers sharing one fetch. The result is a resolver that verifyJwt and
// verifyAttestationResult accept in place of a key set.
//
// Only the URL given here is ever fetched: a token's `jku`/`x5u` never are, nor another
// origin a redirect names. The URL is https:, or http: on this machine (loopback) only: a key
// set fetched in the clear from elsewhere could be anyone's. Every failure is an
// EdgeAttestError with a stable code; the key set itself is validated by the core (P-384
// only) before it is used or cached.
//
// Signer pinning (`signers`) happens per verification, not at the fetch: a key is usable when
// its x5c chain reaches an anchor at the token's `iat` and at the time of the check, which a
// fetch cannot know, and a key dropped at the fetch would turn a pinning failure into an
// "unknown key" (and a refetch). The set is kept whole; the resolver carries its signers,
// which verifyJwt, verifyAttestationResult and verifyEar apply unless the call names its own.
import { readBody } from './body.js';
import { EdgeAttestError, coded, invalidArgument as argument } from './error.js';
import { KeySet, checkSigners } from './edgeattest.js';

/**
 * @import { Signers } from './token.js'
 */

/**
 * @typedef {object} RemoteJWKSetOptions
 * @property {Signers} [signers] The anchors a key's x5c chain must reach for the verifications
 *   that use this set (a call's own `signers` wins); default NVIDIA's attestation service's
 *   (see verifyJwt). Checked here: another shape throws `ERR_INVALID_ARGUMENT` (field `signers`).
 * @property {number} [timeoutDuration] Milliseconds the whole fetch (headers and body) may take; default 5000.
 * @property {number} [cooldownDuration] Least milliseconds between two fetches made for an unknown `kid`; default 30000.
 * @property {number} [cacheMaxAge] Milliseconds a fetched set is used without asking again; default 600000.
 * @property {number} [maxBytes] Largest body accepted, in bytes; default 262144.
 * @property {Record<string, string>} [headers] Extra request headers (`accept: application/json` is sent).
 * @property {(url: string, init: RequestInit) => Promise<Response>} [fetch] The fetch to use; default `globalThis.fetch`.
 * @property {() => number} [now] The clock in milliseconds; default `Date.now`.
 */

/**
 * What createRemoteJWKSet returns: pass it as the key set of verifyJwt or
 * verifyAttestationResult. Rejects with an EdgeAttestError: `ERR_JWKS_FETCH_TIMEOUT`,
 * `ERR_JWKS_FETCH_FAILED`, `ERR_JWKS_REDIRECT` (a redirect to another origin, more than 3
 * within the origin, or one whose target the runtime hides), `ERR_JWKS_HTTP_STATUS` (with
 * `status`), `ERR_JWKS_NOT_JSON`, `ERR_JWKS_TOO_LARGE` (with `limit`; the body is cancelled
 * where it passes it), `ERR_JWKS_INVALID`.
 *
 * Its members: `fresh` (the cached set is younger than `cacheMaxAge`), `coolingDown` (a fetch
 * happened less than `cooldownDuration` ago), `reloading` (a fetch is in flight), `reload()`
 * (fetches the set now, sharing a fetch in flight), `jwks()` (a copy of the last set fetched,
 * or undefined), `signers` (the option given, or undefined: the default anchors).
 * @typedef {{
 *   (hint?: { unknownKey?: boolean }): Promise<KeySet>;
 *   readonly signers: Signers | undefined;
 *   readonly fresh: boolean;
 *   readonly coolingDown: boolean;
 *   readonly reloading: boolean;
 *   reload(): Promise<void>;
 *   jwks(): { keys: object[] } | undefined;
 * }} RemoteJWKSet
 */

const DEFAULTS = {
  timeoutDuration: 5_000,
  cooldownDuration: 30_000,
  cacheMaxAge: 600_000,
  maxBytes: 256 * 1024,
};

/**
 * Redirects followed within the JWKS's own origin (a moved path); one to another origin is
 * refused, as are more hops than this.
 */
const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A host on this machine: `localhost`, 127.0.0.0/8 or [::1] (URL gives IPv4 normalized). */
function isLoopback(url) {
  const host = url.hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function duration(options, name) {
  const value = options[name] ?? DEFAULTS[name];
  if (!Number.isFinite(value) || value < 0) throw argument(name, 'must be a number of milliseconds, 0 or more');
  return value;
}

/** `application/json` or any `+json` type, with any parameters (RFC 8259 §11, RFC 6839). */
function isJson(contentType) {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

/**
 * The JWKS at `url` (an attestation service's `/.well-known/jwks.json`), as jose's
 * createRemoteJWKSet: fetched with a timeout and a size cap, cached, fetched again on an
 * unknown `kid` at most once per cooldown, concurrent fetches shared. `url` is https:, or
 * http: on loopback only (`localhost`, 127.0.0.0/8, `[::1]`): another http: URL throws
 * `ERR_JWKS_INSECURE_URL` (field `url`). Fetched with `redirect: 'manual'`; a redirect within
 * the URL's origin is followed (at most 3), any other is `ERR_JWKS_REDIRECT` — in browsers,
 * which hide a redirect's target, every redirect is. The set is served whole; `signers` pins
 * the verifications that use it (each key's x5c chain checked per token, see verifyJwt).
 *
 * @param {string | URL} url
 * @param {RemoteJWKSetOptions} [options]
 * @returns {RemoteJWKSet}
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
export function createRemoteJWKSet(url, options = {}) {
  let target;
  try {
    target = new URL(url);
  } catch {
    throw argument('url', 'must be an absolute URL');
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw argument('url', 'must be an https: URL');
  if (target.protocol === 'http:' && !isLoopback(target)) {
    throw coded('ERR_JWKS_INSECURE_URL', `the JWKS URL ${target.href} is http: on a host other than this machine: use https:`, 'url');
  }
  if (options === null || typeof options !== 'object') throw argument('options', 'must be an object');
  const timeoutDuration = duration(options, 'timeoutDuration');
  const cooldownDuration = duration(options, 'cooldownDuration');
  const cacheMaxAge = duration(options, 'cacheMaxAge');
  const maxBytes = duration(options, 'maxBytes');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw argument('fetch', 'must be a function (no global fetch here)');
  const clock = options.now ?? Date.now;
  if (typeof clock !== 'function') throw argument('now', 'must be a function returning milliseconds');
  const headers = { accept: 'application/json', ...options.headers };
  // The core's reader of the option, now, so that a wrong shape fails here and not at each use.
  const { signers } = options;
  if (signers !== undefined) checkSigners(signers);

  let current; // { json, set, at }
  let pending;
  let lastFetch = -Infinity;

  /** One GET of `url`, within the timeout's signal; a failure of the fetch itself is coded. */
  async function get(url, signal) {
    try {
      return await fetchImpl(url.href, { method: 'GET', headers, signal, redirect: 'manual' });
    } catch (error) {
      if (signal.aborted) throw timedOut();
      throw coded('ERR_JWKS_FETCH_FAILED', `the JWKS at ${target.href} could not be fetched: ${error?.message ?? error}`);
    }
  }

  const refusedRedirect = (why) => coded('ERR_JWKS_REDIRECT', `the JWKS at ${target.href} redirects ${why}`);

  /** The answer at the URL, redirects within its origin followed (MAX_REDIRECTS). */
  async function answer(signal) {
    let url = target;
    for (let hops = 0; ; hops += 1) {
      const response = await get(url, signal);
      // A fetch that follows redirects despite 'manual' (an injected one): where it ended.
      if (response.redirected && response.url && new URL(response.url).origin !== target.origin) {
        await response.body?.cancel().catch(() => {});
        throw refusedRedirect(`to another origin (${new URL(response.url).origin})`);
      }
      if (response.type !== 'opaqueredirect' && !REDIRECT_STATUSES.has(response.status)) return response;
      await response.body?.cancel().catch(() => {});
      if (response.type === 'opaqueredirect') throw refusedRedirect('to a target this runtime does not show (an opaque redirect)');
      const location = response.headers.get('location');
      if (!location) throw refusedRedirect(`with HTTP ${response.status} and no Location`);
      let next;
      try {
        next = new URL(location, url);
      } catch {
        throw refusedRedirect(`to ${location}, not a URL`);
      }
      if (next.origin !== target.origin) throw refusedRedirect(`to another origin (${next.origin})`);
      if (hops === MAX_REDIRECTS) throw refusedRedirect(`more than ${MAX_REDIRECTS} times`);
      url = next;
    }
  }

  async function load() {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutDuration);
    try {
      const response = await answer(controller.signal);
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel().catch(() => {});
        throw coded('ERR_JWKS_HTTP_STATUS', `the JWKS at ${target.href} answered HTTP ${response.status}`, undefined, { status: response.status });
      }
      const contentType = response.headers.get('content-type');
      if (!isJson(contentType)) {
        await response.body?.cancel().catch(() => {});
        throw coded('ERR_JWKS_NOT_JSON', `the JWKS at ${target.href} is ${contentType ?? 'of no media type'}, not JSON`);
      }
      let bytes;
      try {
        bytes = await readBody(response, maxBytes, { code: 'ERR_JWKS_TOO_LARGE', status: null, what: `the JWKS at ${target.href}` });
      } catch (error) {
        if (controller.signal.aborted) throw timedOut();
        if (error instanceof EdgeAttestError) throw error;
        throw coded('ERR_JWKS_FETCH_FAILED', `the JWKS at ${target.href} could not be read: ${error?.message ?? error}`);
      }
      let json;
      try {
        json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      } catch {
        throw coded('ERR_JWKS_NOT_JSON', `the JWKS at ${target.href} is not valid JSON`);
      }
      // The core validates the set (P-384 keys, distinct kids): ERR_JWKS_INVALID otherwise.
      // As UTF-8 bytes, encoded natively (see token.js); JSON.stringify of a parsed value.
      const set = new KeySet(new TextEncoder().encode(JSON.stringify(json)));
      return { json, set, at: clock() };
    } finally {
      clearTimeout(timer);
    }
  }

  const timedOut = () => coded('ERR_JWKS_FETCH_TIMEOUT', `the JWKS at ${target.href} did not arrive within ${timeoutDuration} ms`, undefined, { timeout: timeoutDuration });

  function reload() {
    // Concurrent callers share the fetch in flight.
    pending ??= (async () => {
      lastFetch = clock();
      try {
        current = await load();
        return current.set;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  }

  const fresh = () => current !== undefined && clock() - current.at < cacheMaxAge;
  const coolingDown = () => clock() - lastFetch < cooldownDuration;

  /**
   * The key set: the cached one while fresh; fetched again when stale, or — `hint.unknownKey`
   * (verifyJwt asks so after ERR_JWKS_NO_MATCHING_KEY) — unless a fetch happened within the
   * cooldown, in which case the cached set is returned and the token's key stays unknown.
   */
  async function resolver(hint = {}) {
    if (pending) return pending;
    if (!fresh()) return reload();
    if (hint?.unknownKey && !coolingDown()) return reload();
    return current.set;
  }

  Object.defineProperties(resolver, {
    fresh: { get: fresh },
    coolingDown: { get: coolingDown },
    reloading: { get: () => pending !== undefined },
    reload: { value: async () => { await reload(); } },
    jwks: { value: () => (current ? structuredClone(current.json) : undefined) },
    signers: { value: signers === undefined ? undefined : Object.freeze(structuredClone(signers)), enumerable: true },
  });
  return resolver;
}
