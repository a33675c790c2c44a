// The edgeattest edge worker: a module worker (fetch handler) for workerd and Cloudflare
// Workers. It serves the attestation service (decided by the wasm core), the verification
// page at /ui/ and the API reference at /docs/ (static assets). This file only moves bytes:
// it reads the request, fetches RIM documents the core asks for, and writes the core's response.
//
// Bindings (local: from environment variables, see pkg-config/local-config.mjs; Cloudflare:
// pkg-config/wrangler.toml): EDGEATTEST_SIGNING_KEY (PKCS#8 PEM or private JWK),
// EDGEATTEST_CRYPTO ("webcrypto", the default: the key is imported as a non-extractable
// CryptoKey and every ECDSA operation runs in crypto.subtle; "software": all in wasm),
// EDGEATTEST_FIXED_TIME (replays only: answer as at this RFC 3339 time or Unix second),
// EDGEATTEST_SIGNING_CERTIFICATE (its PEM chain, published as x5c),
// EDGEATTEST_RETIRED_KEYS (JWKS), EDGEATTEST_ISSUER (the tokens' iss; unset: each request's
// own origin — set it in production), EDGEATTEST_REQUIRE_FWID ("on": fail Hopper evidence
// without an FWID with 4016), EDGEATTEST_POLICY (a relying-party policy, NVIDIA's JSON
// format: a device that fails it fails with 4091), EDGEATTEST_TRUST_ANCHORS,
// EDGEATTEST_RIM_TRUST_ANCHORS (PEM), EDGEATTEST_RIM_DOCUMENTS (JSON [{name, xml}]),
// EDGEATTEST_BUNDLED_RIMS ("off": not the fixtures' RIMs), EDGEATTEST_RIM_SERVICE_URL (default
// NVIDIA's https://rim.attestation.nvidia.com/v1/rim/; "off": only the RIMs held),
// EDGEATTEST_OCSP_URL (default NVIDIA's https://ocsp.ndis.nvidia.com/; "off": revocation not
// checked, the warning claim says so), EDGEATTEST_OCSP_TIMEOUT_MS (default 5000),
// EDGEATTEST_FETCH_CACHE ("off": every attestation asks the sources again),
// EDGEATTEST_RIM_MIRRORS, EDGEATTEST_OCSP_MIRRORS (sources tried after the first),
// EDGEATTEST_RIM_FORMATS ("xml", the default, or "corim-preferred": the RIM requests' Accept),
// EDGEATTEST_OCSP_STALE_IF_ERROR (seconds a kept OCSP answer may serve past nextUpdate),
// EDGEATTEST_TEST_PKI (development only, "on": also the edgeattest TEST PKI, worker-test-pki.js); the gateway's (worker-gateway.js): EDGEATTEST_SIM_UPSTREAM,
// EDGEATTEST_API_KEYS, EDGEATTEST_API_KEYS_KV; the lists' (worker-lists.js):
// EDGEATTEST_LIST_UPSTREAM; ASSETS (Workers static assets, the page and the API reference).
import { AttestationService, EdgeAttestError, createFetchCache, handleRequest, importSigningKey, readServiceBindings, serviceLimits } from '../pkg/service/workerd.js';
import { readBody } from '../pkg/service/body.js';
import { errorAnswer } from './worker-answer.js';
import { drain, readRequestBody } from './worker-body.js';
import { gateway } from './worker-gateway.js';
import { isListPath, lists } from './worker-lists.js';
import { isMirrorRimRequest, mirrorRim } from './worker-mirror.js';
import { isOcspRelayPath, ocspRelay } from './worker-ocsp-relay.js';
import { probeWhenDue } from './worker-probe.js';
import { BUNDLED_RIMS } from './rims.js';
import { TEST_PKI, withTestPkiAnswers } from './worker-test-pki.js';

/**
 * The core's body limit (MAX_BODY_BYTES): past it the core answers 413. And its cap on a
 * fetched body (MAX_FETCHED_BYTES), which bounds what the Cache API gives back too.
 */
const { maxBodyBytes, maxFetchedBytes } = serviceLimits();

let service;
let serviceError;
/** The private CryptoKey when EDGEATTEST_CRYPTO is webcrypto. */
let signingKey;
/** Where the ECDSA checks run: EDGEATTEST_CRYPTO. */
let backend;
/** Fetched RIM envelopes and verified OCSP answers: memory in front of the Cache API. */
let fetchCache;
/** EDGEATTEST_OCSP_TIMEOUT_MS, read with the other bindings. */
let ocspTimeoutMs;
/** EDGEATTEST_FETCH_CACHE. */
let fetchCacheOn;
/** EDGEATTEST_TEST_PKI=on: the test PKI's OCSP answers by the core's cache key. */
let testPkiAnswers;

/**
 * A static file: the page at /ui/, the API reference at /docs/. They live in the ASSETS
 * binding (Workers static assets: target/worker/assets/, by URL path), which the worker asks
 * itself so that every answer keeps the service's conventions (JSON errors, nosniff). The
 * binding runs with html_handling "none": a directory's index.html is named here.
 */
async function serveStatic(request, env, url, prefix) {
  if (url.pathname === prefix) return Response.redirect(new URL(`${prefix}/`, url).toString(), 308);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return errorAnswer(405, 'ERR_METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${url.pathname}`, { allow: 'GET, HEAD' });
  }
  if (!env.ASSETS) return errorAnswer(404, 'ERR_NOT_FOUND', `no resource at ${url.pathname}: this worker has no ASSETS binding`);
  const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
  const headers = new Headers();
  for (const name of ['if-none-match', 'if-modified-since', 'range']) if (request.headers.has(name)) headers.set(name, request.headers.get(name));
  const found = await env.ASSETS.fetch(new URL(path, url), { method: request.method, headers });
  if (found.status === 404) return errorAnswer(404, 'ERR_NOT_FOUND', `no resource at ${url.pathname}`);
  const answer = new Response(found.body, found);
  answer.headers.set('cache-control', 'no-cache');
  answer.headers.set('x-content-type-options', 'nosniff');
  return answer;
}

/** The path prefix of a static file tree, or null. */
function staticPrefix(pathname) {
  for (const prefix of ['/ui', '/docs']) if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return prefix;
  return null;
}

let now;

/** Host names whose origins are development ones: no warning about an unset issuer there. */
const DEVELOPMENT_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The service, created on the first request from the bindings; a configuration error is
 * kept and reported. Nothing of that first request is kept: without EDGEATTEST_ISSUER every
 * request's tokens name that request's own origin.
 */
async function attestationService(env, url) {
  if (service || serviceError) return service;
  try {
    // The core reads the bindings, as the service component reads its environment, and
    // adds the test PKI's collateral when they say so.
    const bindings = readBindings(env);
    if (bindings.testPki) console.warn(`EDGEATTEST_TEST_PKI=on: also trusting the ${TEST_PKI.label}: for development only`);
    const chosen = bindings.crypto;
    now = clock(bindings.fixedTime);
    const options = { ...bindings.options };
    let privateKey;
    if (chosen === 'webcrypto') {
      // The private key lives in WebCrypto only; the core gets the public half.
      const imported = await importSigningKey(options.signingKey);
      privateKey = imported.privateKey;
      options.signingKey = undefined;
      options.publicKey = imported.publicJwk;
    }
    const created = new AttestationService(options);
    if (!env.EDGEATTEST_ISSUER && !DEVELOPMENT_HOSTS.has(url.hostname)) {
      console.warn('EDGEATTEST_ISSUER is not set: each token names the origin its request was sent to (the client chooses it through Host); set EDGEATTEST_ISSUER in production');
    }
    const documents = [...(bindings.bundledRims !== false ? BUNDLED_RIMS : []), ...bindings.rimDocuments];
    for (const { name, xml } of documents) {
      try {
        created.addRim(name, xml);
      } catch (error) {
        console.warn(`RIM ${name} not loaded: ${error.code} ${error.message}`);
      }
    }
    // Set together, after every await: concurrent first requests see all or nothing.
    if (!service) {
      service = created;
      signingKey = privateKey;
      backend = chosen;
      ocspTimeoutMs = bindings.ocspTimeoutMs;
      fetchCacheOn = bindings.fetchCache;
      testPkiAnswers = bindings.testPkiAnswers;
    }
  } catch (error) {
    serviceError = error;
    console.error(`the attestation service is not available: ${error.code ?? ''} ${error.message}`);
  }
  return service;
}

/**
 * The core's reading of the bindings; without a signing key, the message says how to set one
 * here (the core's says which variable).
 */
function readBindings(env) {
  try {
    return readServiceBindings(env, TEST_PKI);
  } catch (error) {
    if (error.code !== 'ERR_NO_SIGNING_KEY') throw error;
    throw new EdgeAttestError('ERR_NO_SIGNING_KEY', `${error.message} (Cloudflare: wrangler secret put EDGEATTEST_SIGNING_KEY; wrangler dev: node pkg-config/dev-vars.mjs writes .dev.vars)`);
  }
}

/**
 * The clock: Unix seconds now, or EDGEATTEST_FIXED_TIME's, which exists to replay recorded
 * exchanges at their recorded time.
 */
function clock(fixedTime) {
  if (fixedTime === undefined) return () => Math.floor(Date.now() / 1000);
  console.warn(`the clock is fixed at ${new Date(fixedTime * 1000).toISOString()} (EDGEATTEST_FIXED_TIME): for replays only`);
  return () => fixedTime;
}

/**
 * The fetch cache: an in-memory layer (per isolate) in front of the Cache API, which in
 * workerd and Cloudflare Workers is shared by every isolate of a location and outlives them.
 * Entries are fresh until the time the core gives (an OCSP answer's nextUpdate, at most a day;
 * a RIM envelope a day; a RIM service 404 five minutes) and kept past it until `keepUntil`
 * (RIMs `rimKeepSeconds`, OCSP answers EDGEATTEST_OCSP_STALE_IF_ERROR), when a kept copy
 * stands in for sources that all fail; the nonce an OCSP answer was fetched with travels in a
 * header, as the core checks a cached answer against it.
 */
function createWorkerCache() {
  const memory = createFetchCache();
  const shared = globalThis.caches?.default;
  const urlOf = (key) => `https://edgeattest.cache/${encodeURIComponent(key)}`;
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const unhex = (text) => Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));
  /** The Cache API's entry of `key` into memory (a restarted isolate starts empty). */
  const load = async (key, now) => {
    if (!shared) return;
    try {
      const response = await shared.match(urlOf(key));
      if (!response) return;
      const until = Number(response.headers.get('x-edgeattest-until'));
      const keepUntil = Number(response.headers.get('x-edgeattest-keep-until') ?? until) || until;
      const status = response.headers.get('x-edgeattest-status');
      const nonce = response.headers.get('x-edgeattest-nonce');
      const value = status
        ? { error: 'status', status: Number(status) }
        : { body: await readBody(response, maxFetchedBytes), ...(nonce ? { nonce: unhex(nonce) } : {}) };
      // As it was stored: fresh until `until`, kept until `keepUntil`.
      memory.put(key, value, until, now, keepUntil);
      return { value, until, keepUntil };
    } catch {
      return undefined;
    }
  };
  return {
    async get(key, now) {
      const hit = memory.get(key, now);
      if (hit || memory.getKept(key, now)) return hit;
      const loaded = await load(key, now);
      return loaded && loaded.until > now ? loaded.value : undefined;
    },
    async getKept(key, now) {
      const kept = memory.getKept(key, now);
      if (kept) return kept;
      const loaded = await load(key, now);
      return loaded && loaded.until <= now && loaded.keepUntil > now ? { value: loaded.value, until: loaded.until } : undefined;
    },
    /** `defer`: the request's ctx.waitUntil, so that the Cache API write ends after the response. */
    put(key, value, until, now, keepUntil = until, defer) {
      memory.put(key, value, until, now, keepUntil);
      const seconds = Math.floor(Math.max(until, keepUntil) - now);
      if (!shared || seconds <= 0) return undefined;
      const headers = { 'cache-control': `max-age=${seconds}`, 'x-edgeattest-until': String(until), 'x-edgeattest-keep-until': String(Math.max(until, keepUntil)) };
      if (value.nonce) headers['x-edgeattest-nonce'] = hex(value.nonce);
      if (value.error) headers['x-edgeattest-status'] = String(value.status);
      const stored = shared.put(urlOf(key), new Response(value.body ?? null, { headers })).catch((error) => {
        console.warn(`the Cache API refused an entry: ${error.message}`);
      });
      if (!defer) return stored;
      defer(stored);
      return undefined;
    },
    count: (prefix, now) => memory.count(prefix, now),
  };
}

/** The fetch cache for one request: its Cache API writes handed to the request's waitUntil. */
function requestCache(cache, ctx) {
  const defer = typeof ctx?.waitUntil === 'function' ? (promise) => ctx.waitUntil(promise) : undefined;
  return {
    get: cache.get,
    getKept: cache.getKept,
    put: (key, value, until, now, keepUntil) => cache.put(key, value, until, now, keepUntil, defer),
    count: cache.count,
  };
}

/**
 * The request body for the core and its size in bytes. A body over the core's limit is read
 * no further than the limit (declared: not at all) and never kept, nor copied into wasm: its
 * size — declared, or received when reading stopped — alone makes the core answer 413.
 */
async function requestBody(request) {
  if (!request.body) return { body: undefined, size: 0 };
  try {
    const body = await readRequestBody(request, maxBodyBytes);
    return { body, size: body.byteLength };
  } catch (error) {
    if (!(error instanceof EdgeAttestError)) throw error;
    return { body: undefined, size: error.size };
  }
}

/** A cache that keeps nothing: every attestation asks the sources again (fresh OCSP nonces). */
const NO_CACHE = { get: () => undefined, put: () => {} };

/** EDGEATTEST_FETCH_CACHE: `off` asks the sources for every attestation. */
function fetchCacheOf() {
  return fetchCacheOn ? (fetchCache ??= createWorkerCache()) : NO_CACHE;
}

/** With EDGEATTEST_TEST_PKI=on, the test PKI's OCSP answers in front of the cache. */
const testPkiCache = (cache) => (testPkiAnswers ? withTestPkiAnswers(cache, testPkiAnswers) : cache);

/** The answer to one request, by path. */
async function route(request, env, ctx) {
  const url = new URL(request.url);
  const prefix = staticPrefix(url.pathname);
  if (prefix) return serveStatic(request, env, url, prefix);
  // Browsers ask every origin for /favicon.ico (the API reference's pages name no icon): the
  // page's icon answers it.
  if (url.pathname === '/favicon.ico') return serveStatic(request, env, new URL('/ui/icon.svg', url), '/ui');
  // The target of the Link rel="deprecation" the service sends (/deprecations#<row id>): the
  // page's deprecation panel, which opens its registry at the row (the fragment is kept).
  if (url.pathname === '/deprecations' && ['GET', 'HEAD'].includes(request.method)) return Response.redirect(new URL('/ui/', url).toString(), 302);
  if (url.pathname.startsWith('/api/')) return gateway(request, env, url);
  if (isListPath(url.pathname)) return lists(request, env, url);
  // The relay is also the mirror's OCSP responder: verified answers from the fetch cache.
  if (isOcspRelayPath(url.pathname)) return ocspRelay(request, env, { cache: (await attestationService(env, url)) ? fetchCacheOf() : NO_CACHE, now: now?.() });

  const svc = service ?? (await attestationService(env, url));
  if (!svc) {
    return errorAnswer(503, serviceError?.code ?? 'ERR_SERVICE_UNAVAILABLE', `the attestation service is not configured: ${serviceError?.message}`);
  }
  // The sources are probed from the first request on (in the background), so that /health
  // says at once whether they answer.
  probeWhenDue(svc, ctx, { now: now(), cache: fetchCacheOf() });
  if (isMirrorRimRequest(request, url)) return mirrorRim(svc, request, url, { cache: requestCache(fetchCacheOf(), ctx), now: now() });
  const { body, size } = await requestBody(request);
  // The core judges the size from content-length: give it the size actually received.
  const headers = [...request.headers].filter(([name]) => name !== 'content-length');
  if (body === undefined && size > 0) headers.push(['content-length', String(size)]);
  const answer = await handleRequest(
    svc,
    { method: request.method, path: url.pathname + url.search, origin: url.origin, headers, body },
    { now: now(), signingKey, backend, cache: testPkiCache(requestCache(fetchCacheOf(), ctx)), ocspTimeoutMs },
  );
  return new Response(request.method === 'HEAD' || answer.status === 204 ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
}

export default {
  async fetch(request, env = {}, ctx) {
    const response = await route(request, env, ctx);
    await drain(request);
    return response;
  },
};
