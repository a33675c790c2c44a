// The host side of an exchange's fetch step: the core names each resource (a RIM from the
// RIM service, an OCSP request for the configured responder) and this module fetches it —
// with timeouts, a body cap, bounded concurrency, one fetch per resource however many
// requests wait for it, and a cache — and answers in the core's FetchAnswer shape. Only OCSP
// answers the core verified are cached (exchange.cacheable()); RIM envelopes are signed
// documents the core verifies on every use, so they are cached as fetched. The timeouts, the
// concurrency, the cache's size and its lifetimes are the core's (serviceLimits()), which the
// `wasi:http` component reads too; asked once, when first used, as the browser entry loads
// the wasm module after import.
import { serviceLimits } from './edgeattest.js';
import { fetchCapped } from './http.js';

/** @import { AttestationService, FetchAnswer, FetchResource, OcspCacheEntry, SourceState } from './edgeattest.js' */

/**
 * A cache of fetch answers: a FetchAnswer by key until a Unix second, judged on the clock of
 * the request using it (`now`, which a replay may fix); may be async. `count`, optional: the
 * live entries holding a body under `prefix` (`ocsp:`, `rim:`), reported in /health.
 * @typedef {{
 *   get(key: string, now: number): FetchAnswerLike | undefined | Promise<FetchAnswerLike | undefined>;
 *   put(key: string, value: FetchAnswerLike, until: number, now: number): void | Promise<void>;
 *   count?(prefix: string, now?: number): number;
 * }} FetchCache
 */

/**
 * What a cache holds: a body (with the nonce that fetched an OCSP answer) or a RIM service 404.
 * @typedef {{ body: Uint8Array; nonce?: Uint8Array } | { error: 'status'; status: number }} FetchAnswerLike
 */

let readLimits;
/** The core's limits (constants of the build), read from wasm once. */
const coreLimits = () => (readLimits ??= serviceLimits());

/**
 * An in-memory FetchCache of at most `limit` entries (default
 * `serviceLimits().fetchCacheEntries`, 4096), oldest dropped first; an entry past its `until`
 * (on the request's clock) is not returned.
 *
 * @param {{ limit?: number }} [options]
 * @returns {FetchCache & { readonly size: number }}
 *
 * @example
 * ```ts
 * declare const service: AttestationService;
 * declare const request: ServiceRequest;
 * const cache = createFetchCache({ limit: 1024 }); // one per process, shared by its requests
 * const response = await handleRequest(service, request, { cache });
 * ```
 */
export function createFetchCache(options = {}) {
  let { limit } = options;
  const entries = new Map();
  const clock = () => Math.floor(Date.now() / 1000);
  const most = () => (limit ??= coreLimits().fetchCacheEntries);
  return {
    get(key, now = clock()) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.until <= now) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    put(key, value, until, now = clock()) {
      if (!(until > now)) return;
      entries.delete(key);
      while (entries.size >= most()) entries.delete(entries.keys().next().value);
      entries.set(key, { value, until });
    },
    /** Live entries holding a body under `prefix` (`ocsp:`, `rim:`): /health's cached entries. */
    count(prefix, now = clock()) {
      let count = 0;
      for (const [key, entry] of entries) if (entry.until > now && entry.value.body && key.startsWith(prefix)) count += 1;
      return count;
    },
    get size() {
      return entries.size;
    },
  };
}

/** @type {FetchCache & { readonly size: number }} */
const sharedCache = createFetchCache();
/** The cache handleRequest uses when given none (its entries are counted for /health). */
export { sharedCache as defaultFetchCache };
/** Fetches in flight by cache key, shared by concurrent requests. */
const inFlight = new Map();

/** The cache key of a resource. */
function keyOf(resource) {
  return resource.kind === 'ocsp' ? `ocsp:${resource.cacheKey}` : `rim:${resource.url}`;
}

/** One resource from the network, as a FetchAnswer. */
function fetchOne(resource, { fetch, ocspTimeoutMs, rimTimeoutMs, maxBytes }) {
  const ocsp = resource.kind === 'ocsp';
  const init = ocsp
    ? { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: resource.request }
    : { method: 'GET', headers: { accept: 'application/json' } };
  return fetchCapped(fetch, resource.url, init, { timeoutMs: ocsp ? ocspTimeoutMs : rimTimeoutMs, maxBytes });
}

/**
 * What one answer of a source says of it, for the service's /health: reachable when it
 * answered (any HTTP status under 500); `previous` keeps the last failure after a success.
 */
function sourceStateOf(answer, previous) {
  const reached = !('error' in answer) || answer.error === 'status';
  return { reachable: reached && !(answer.status >= 500), lastError: 'error' in answer ? (answer.error === 'status' ? `HTTP ${answer.status}` : answer.error) : previous?.lastError };
}

/** What a host last saw of each source, for the service's /health. */
function noteSource(seen, resource, answer) {
  const kind = resource.kind === 'ocsp' ? 'ocsp' : 'rim';
  seen[kind] = sourceStateOf(answer, seen[kind]);
}

/** Per service, per source: how many states were recorded (a probe's staleness check). */
const recordings = new WeakMap();
const recordingsOf = (service) => {
  let counts = recordings.get(service);
  if (!counts) recordings.set(service, (counts = {}));
  return counts;
};

/**
 * Records on `service` what was seen of its sources (`seen`: state by kind), with the number
 * of answers `cache` holds for each when it can count them (createFetchCache, the worker's).
 * @param {AttestationService} service
 * @param {Record<string, SourceState>} seen
 * @param {FetchCache} [cache]
 * @param {number} [now]
 * @returns {void}
 */
export function recordSources(service, seen, cache = sharedCache, now = Math.floor(Date.now() / 1000)) {
  const counts = recordingsOf(service);
  for (const [kind, state] of Object.entries(seen)) {
    const cachedEntries = typeof cache?.count === 'function' ? cache.count(`${kind}:`, now) : undefined;
    service.setSourceState(kind, Number.isSafeInteger(cachedEntries) ? { ...state, cachedEntries } : state);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
}

/**
 * Probes the service's sources: one HEAD to each configured one (service.probeTargets()), all
 * at once, each within `timeoutMs` (default the core's probeTimeoutMs), and records what it
 * saw on the service, so that /health says at once whether they answer — before any
 * attestation needs them. Cheap: no body is read. Never rejects; resolves to the states by
 * kind.
 * @param {AttestationService} service
 * @param {{ fetch?: (url: string, init: RequestInit) => Promise<Response>; timeoutMs?: number; cache?: FetchCache; now?: number }} [options]
 * @returns {Promise<Record<string, SourceState>>}
 */
export async function probeSources(service, options = {}) {
  const { fetch = globalThis.fetch, timeoutMs = coreLimits().probeTimeoutMs, cache, now } = options;
  const seen = {};
  if (typeof fetch !== 'function') return seen;
  const before = { ...recordingsOf(service) };
  await Promise.all(service.probeTargets().map(async ({ kind, url }) => {
    const answer = await fetchCapped(fetch, url, { method: 'HEAD' }, { timeoutMs, maxBytes: 0 });
    // Any answer under 500 (a 404 or 405 to a HEAD of the base URL too) is a source that answers.
    const state = sourceStateOf(answer);
    seen[kind] = state.reachable ? { reachable: true } : state;
  }));
  // What an attestation's own fetch saw while the probe ran is newer: the probe leaves it.
  const counts = recordingsOf(service);
  recordSources(service, Object.fromEntries(Object.entries(seen).filter(([kind]) => counts[kind] === before[kind])), cache, now);
  return seen;
}

/**
 * Answers one fetch step: one FetchAnswer per resource, in order. `options.fetch === false`
 * answers every resource `not-fetched` (a host without network access).
 * @param {FetchResource[]} resources
 * @param {{ fetch?: ((url: string, init: RequestInit) => Promise<Response>) | false; cache?: FetchCache; ocspTimeoutMs?: number; rimTimeoutMs?: number; concurrency?: number; now?: number; seen?: Record<string, SourceState> }} [options]
 * @returns {Promise<FetchAnswer[]>}
 */
export async function answerFetchStep(resources, options = {}) {
  const limits = coreLimits();
  const {
    fetch = globalThis.fetch,
    cache = sharedCache,
    ocspTimeoutMs = limits.ocspTimeoutMs,
    rimTimeoutMs = limits.rimTimeoutMs,
    concurrency = limits.fetchConcurrency,
    now = Math.floor(Date.now() / 1000),
    seen = {},
  } = options;
  if (fetch === false || typeof fetch !== 'function') return resources.map(() => ({ error: 'not-fetched' }));
  const answers = new Array(resources.length);
  let next = 0;
  const worker = async () => {
    while (next < resources.length) {
      const index = next++;
      const resource = resources[index];
      const key = keyOf(resource);
      const cached = await cache.get(key, now);
      if (cached) {
        answers[index] = cached;
        continue;
      }
      // One fetch per resource and source however many requests wait; the sharers of an
      // OCSP fetch answer with the nonce of the request that fetched (the core names it).
      const flight = `${key} ${resource.url}`;
      let pending = inFlight.get(flight);
      if (!pending) {
        // The core's cap on a fetched body (MAX_FETCHED_BYTES).
        const fetched = fetchOne(resource, { fetch, ocspTimeoutMs, rimTimeoutMs, maxBytes: limits.maxFetchedBytes });
        const entry = { answer: fetched, nonce: resource.nonce };
        pending = { ...entry, owner: true };
        inFlight.set(flight, entry);
        fetched.finally(() => inFlight.get(flight) === entry && inFlight.delete(flight));
      }
      const { nonce } = pending;
      const answer = await pending.answer;
      noteSource(seen, resource, answer);
      if (resource.kind === 'ocsp') {
        // Fetched now for this request: checked against its own nonce; fetched for another
        // request: checked against that one's.
        answers[index] = 'error' in answer
          ? { error: answer.error, status: answer.status }
          : pending.owner ? { body: answer.body } : { body: answer.body, nonce };
      } else {
        if ('body' in answer) await cache.put(key, { body: answer.body }, now + limits.rimCacheSeconds, now);
        if (answer.status === 404) await cache.put(key, { error: 'status', status: 404 }, now + limits.rimMissSeconds, now);
        answers[index] = 'error' in answer ? { error: answer.error, status: answer.status } : { body: answer.body };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, resources.length)) }, worker));
  return answers;
}

/**
 * Stores the OCSP answers the core verified (`exchange.cacheable()`).
 * @param {OcspCacheEntry[]} entries
 * @param {number} now
 * @param {FetchCache} [cache]
 * @returns {Promise<void>}
 */
export async function cacheVerified(entries, now, cache = sharedCache) {
  for (const { cacheKey, body, nonce, until } of entries) {
    await cache.put(`ocsp:${cacheKey}`, { body, nonce }, until, now);
  }
}
