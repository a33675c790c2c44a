// The host side of an exchange's fetch step: the core names each resource (a RIM from the
// RIM service and its mirrors, an OCSP request for the configured responder and its mirrors)
// and decides how to fetch it — which URL next, how long to wait, when to retry and give up,
// which source's breaker is open, when a kept copy stands in (service.fetchAttempts) — and
// this module does the I/O: timeouts, a body cap, bounded concurrency, one fetch per resource
// however many requests wait for it, and a cache. Only OCSP answers the core verified are
// cached (exchange.cacheable()); RIM envelopes are signed documents the core verifies on
// every use, so they are cached as fetched. Past their freshness, entries are kept (RIMs
// `rimKeepSeconds`, OCSP answers the service's `ocspStaleIfError`) for stale-if-error. The
// timeouts, the concurrency, the cache's size and its lifetimes are the core's
// (serviceLimits()), which the `wasi:http` component reads too; asked once, when first used,
// as the browser entry loads the wasm module after import.
import { serviceLimits } from './edgeattest.js';
import { fetchCapped } from './http.js';

/** @import { AttestationService, FetchAnswer, FetchResource, OcspCacheEntry, ServiceExchange, SourceState } from './edgeattest.js' */

/**
 * A cache of fetch answers: a FetchAnswer by key until a Unix second, judged on the clock of
 * the request using it (`now`, which a replay may fix); may be async. `put`'s `keepUntil`
 * (default `until`): how long the entry is kept past its freshness, for `getKept`, which
 * gives it with its `until` once it is no longer fresh (stale-if-error; optional). `count`,
 * optional: the live entries holding a body under `prefix` (`ocsp:`, `rim:`), reported in
 * /health.
 * @typedef {{
 *   get(key: string, now: number): FetchAnswerLike | undefined | Promise<FetchAnswerLike | undefined>;
 *   put(key: string, value: FetchAnswerLike, until: number, now: number, keepUntil?: number): void | Promise<void>;
 *   getKept?(key: string, now: number): { value: FetchAnswerLike; until: number } | undefined | Promise<{ value: FetchAnswerLike; until: number } | undefined>;
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
  /** The entry of `key` while it is kept, else undefined (and it is dropped). */
  const held = (key, now) => {
    const entry = entries.get(key);
    if (entry && entry.keepUntil <= now) entries.delete(key);
    return entry && entry.keepUntil > now ? entry : undefined;
  };
  return {
    get(key, now = clock()) {
      const entry = held(key, now);
      return entry && entry.until > now ? entry.value : undefined;
    },
    /** An entry past its freshness but still kept: `{ value, until }`. */
    getKept(key, now = clock()) {
      const entry = held(key, now);
      return entry && entry.until <= now ? { value: entry.value, until: entry.until } : undefined;
    },
    put(key, value, until, now = clock(), keepUntil = until) {
      if (!(Math.max(until, keepUntil) > now)) return;
      entries.delete(key);
      while (entries.size >= most()) entries.delete(entries.keys().next().value);
      entries.set(key, { value, until, keepUntil: Math.max(until, keepUntil) });
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

/** One attempt at `url` for a resource, as a FetchAnswer (`{body}` or `{error, status?}`). */
async function fetchOne(resource, url, { fetch, timeoutMs, maxBytes }) {
  const ocsp = resource.kind === 'ocsp';
  const init = ocsp
    ? { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: resource.request }
    : { method: 'GET', headers: { accept: resource.accept ?? 'application/json' } };
  const answer = await fetchCapped(fetch, url, init, { timeoutMs, maxBytes });
  return 'error' in answer ? { error: answer.error, status: answer.status } : { body: answer.body };
}

/** Waits `ms` milliseconds. */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the core's attempts for `resource` (service.fetchAttempts): each fetch within its
 * timeout, each wait, until the core gives the answer. `kept`: the cache's kept copy, if any.
 * Notes what each attempt saw in `seen` (by kind, for /health).
 */
async function attemptAll(service, resource, kept, { fetch, timeoutMs, maxBytes, seen, clock, wait }) {
  const attempts = service.fetchAttempts(resource, { timeoutMs, nowMs: clock(), ...(kept ? { kept } : {}) });
  try {
    for (;;) {
      const attempt = attempts.next(clock());
      if (attempt.kind === 'done') return attempt.answer;
      if (attempt.kind === 'wait') {
        await wait(attempt.ms);
        continue;
      }
      const answer = await fetchOne(resource, attempt.url, { fetch, timeoutMs: attempt.timeoutMs, maxBytes });
      noteSource(seen, resource, answer);
      attempts.answered(answer, clock());
    }
  } finally {
    attempts.free();
  }
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
  seen[kind] = { ...sourceStateOf(answer, seen[kind]), ...(seen[kind]?.keptSeconds !== undefined ? { keptSeconds: seen[kind].keptSeconds } : {}) };
}

/** Notes that a kept answer `seconds` past its freshness stood in for a `kind` source. */
function noteKept(seen, kind, seconds) {
  const state = seen[kind] ?? { reachable: false };
  seen[kind] = { ...state, keptSeconds: Math.max(state.keptSeconds ?? 0, Math.min(seconds, 2 ** 32 - 1)) };
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
 * Answers one fetch step: one FetchAnswer per resource, in order, each fetched as
 * `service.fetchAttempts` says (its sources in order, retries, breakers, a kept copy when
 * every source fails). `options.fetch === false` answers every resource `not-fetched` (a host
 * without network access). `clock` (milliseconds) and `wait` time the attempts (tests).
 * `onAnswer(index, answer)` is called with each answer as soon as it is ready.
 * @param {AttestationService} service
 * @param {FetchResource[]} resources
 * @param {{ fetch?: ((url: string, init: RequestInit) => Promise<Response>) | false; cache?: FetchCache; ocspTimeoutMs?: number; rimTimeoutMs?: number; concurrency?: number; now?: number; seen?: Record<string, SourceState>; clock?: () => number; wait?: (ms: number) => Promise<void>; onAnswer?: (index: number, answer: FetchAnswer) => void }} [options]
 * @returns {Promise<FetchAnswer[]>}
 */
export async function answerFetchStep(service, resources, options = {}) {
  const limits = coreLimits();
  const {
    fetch = globalThis.fetch,
    cache = sharedCache,
    ocspTimeoutMs = limits.ocspTimeoutMs,
    rimTimeoutMs = limits.rimTimeoutMs,
    concurrency = limits.fetchConcurrency,
    now = Math.floor(Date.now() / 1000),
    seen = {},
    clock = Date.now,
    wait = sleep,
    onAnswer,
  } = options;
  const answers = new Array(resources.length);
  const give = (index, answer) => {
    answers[index] = answer;
    onAnswer?.(index, answer);
  };
  if (fetch === false || typeof fetch !== 'function') {
    resources.forEach((_, index) => give(index, { error: 'not-fetched' }));
    return answers;
  }
  let next = 0;
  const worker = async () => {
    while (next < resources.length) {
      const index = next++;
      const resource = resources[index];
      const key = keyOf(resource);
      const cached = await cache.get(key, now);
      if (cached) {
        give(index, cached);
        continue;
      }
      // One fetch per resource however many requests wait; the sharers of an OCSP fetch
      // answer with the nonce of the request that fetched (the core names it).
      // Registered before any await, so that a concurrent request finds it.
      let pending = inFlight.get(key);
      if (!pending) {
        const timeoutMs = resource.kind === 'ocsp' ? ocspTimeoutMs : rimTimeoutMs;
        const fetched = (async () => {
          const kept = await cache.getKept?.(key, now);
          const keptBody = kept?.value?.body ? { body: kept.value.body, ...(kept.value.nonce ? { nonce: kept.value.nonce } : {}) } : undefined;
          // The core's cap on a fetched body (MAX_FETCHED_BYTES).
          const answer = await attemptAll(service, resource, keptBody, { fetch, timeoutMs, maxBytes: limits.maxFetchedBytes, seen, clock, wait });
          return { answer, keptUntil: kept?.until };
        })();
        const entry = { answer: fetched, nonce: resource.nonce };
        pending = { ...entry, owner: true };
        inFlight.set(key, entry);
        fetched.finally(() => inFlight.get(key) === entry && inFlight.delete(key));
      }
      const { nonce } = pending;
      const { answer, keptUntil } = await pending.answer;
      if (answer.stale) {
        noteKept(seen, resource.kind === 'ocsp' ? 'ocsp' : 'rim', Math.max(0, now - (keptUntil ?? now)));
        give(index, answer);
      } else if (resource.kind === 'ocsp') {
        // Fetched now for this request: checked against its own nonce; fetched for another
        // request: checked against that one's.
        give(index, 'error' in answer || pending.owner ? answer : { body: answer.body, nonce });
      } else {
        if ('body' in answer) await cache.put(key, { body: answer.body }, now + limits.rimCacheSeconds, now, now + limits.rimKeepSeconds);
        if (answer.status === 404) await cache.put(key, { error: 'status', status: 404 }, now + limits.rimMissSeconds, now);
        give(index, answer);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, resources.length)) }, worker));
  return answers;
}

/**
 * Answers an exchange's fetch round: each resource is fetched as soon as the exchange hands it
 * out and given to it as soon as it arrives (`exchange.fetchedOne`), so that the round's later
 * batch — the RIMs' chains' OCSP queries, handed out once the RIM documents are answered —
 * starts while the first batch's other fetches still run. Options as `answerFetchStep`'s.
 * @param {AttestationService} service
 * @param {ServiceExchange} exchange
 * @param {FetchResource[]} resources the `fetch` step's
 * @param {Parameters<typeof answerFetchStep>[2]} [options]
 * @returns {Promise<void>}
 */
export async function answerFetchRound(service, exchange, resources, options = {}) {
  const running = [];
  let offset = exchange.fetchOffset();
  const start = (batch, at) => {
    const onAnswer = (index, answer) => {
      exchange.fetchedOne(at + index, answer);
      if (exchange.fetchOffset() === offset) return;
      const next = exchange.step();
      if (next.kind !== 'fetch') return;
      offset = exchange.fetchOffset();
      start(next.resources, offset);
    };
    running.push(answerFetchStep(service, batch, { ...options, onAnswer }));
  };
  start(resources, offset);
  // A batch started while waiting is appended, and waited for in turn.
  for (let i = 0; i < running.length; i++) await running[i];
}

/**
 * Stores the OCSP answers the core verified (`exchange.cacheable()`).
 * @param {OcspCacheEntry[]} entries
 * @param {number} now
 * @param {FetchCache} [cache]
 * @returns {Promise<void>}
 */
export async function cacheVerified(entries, now, cache = sharedCache) {
  for (const { cacheKey, body, nonce, until, keepUntil } of entries) {
    await cache.put(`ocsp:${cacheKey}`, { body, nonce }, until, now, keepUntil);
  }
}
