// Every body the worker or the package reads goes through one bounded reader (src/js/body.js):
// a Content-Length over the limit is refused before a byte is read, and a body without one is
// cancelled as soon as the bytes received pass the limit. Each test counts the bytes pulled
// from the source stream: "refused" is not enough, the refusal must come after little more
// than the limit (at most one 64 KiB chunk past it), not after the whole body.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AttestationService, createFetchCache, devKeySet, fetchOcspStatus, serviceLimits } from '../../pkg/service/index.js';
import { discardBody, readBody } from '../../pkg/service/body.js';
import { answerFetchStep } from '../../pkg/service/fetch.js';
import { countingBody, countingByteBody, importWorker, postWith } from './support/body-source.mjs';
import { freshSigningKeyPem } from './support/worker.mjs';
import { pkiText } from './support/ocsp-responder.mjs';

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;
const limits = serviceLimits();
/** The OCSP relay's cap on a request (www/worker-ocsp-relay.js). */
const RELAY_REQUEST_BYTES = 64 * 1024;
const RESPONDER = 'https://ocsp.example/';
const keys = devKeySet(Math.floor(Date.now() / 1000));

let worker;
let env;
const realFetch = globalThis.fetch;

before(async () => {
  worker = await importWorker();
  env = {
    EDGEATTEST_SIGNING_KEY: await freshSigningKeyPem(),
    EDGEATTEST_RIM_SERVICE_URL: 'off',
    EDGEATTEST_BUNDLED_RIMS: 'off',
    EDGEATTEST_OCSP_URL: RESPONDER,
    EDGEATTEST_API_KEYS: JSON.stringify(keys.keyStore),
    EDGEATTEST_SIM_UPSTREAM: 'http://127.0.0.1:1/',
    EDGEATTEST_LIST_UPSTREAM: 'https://lists.example/',
  };
});

after(() => {
  globalThis.fetch = realFetch;
});

/** `fetch` answers every request with `answer()` for the length of `run`. */
async function withFetch(answer, run) {
  const seen = [];
  globalThis.fetch = async (url, init) => {
    seen.push(String(url));
    return answer(url, init);
  };
  try {
    return await run(seen);
  } finally {
    globalThis.fetch = realFetch;
  }
}

/** The worker's answer to `request`, its JSON body parsed. */
async function route(request) {
  const response = await worker.fetch(request, env, { waitUntil() {} });
  const text = await response.text();
  return { status: response.status, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
}

/** The source was read to just past `limit`, not further, and cancelled there. */
function stoppedAt(source, limit) {
  assert.ok(source.pulled > limit, `${source.pulled} bytes pulled: the limit ${limit} was not reached`);
  assert.ok(source.pulled <= limit + CHUNK, `${source.pulled} bytes pulled for a limit of ${limit}`);
  assert.equal(source.cancelled, true, 'the source was not cancelled');
}

test('readBody: a body at the limit is read whole; one byte more is cancelled where it passes', async () => {
  for (const total of [0, 1, CHUNK, 3 * CHUNK + 5]) {
    const at = countingBody(total, { fill: 7 });
    const bytes = await readBody(new Response(at.stream), total);
    assert.equal(bytes.byteLength, total);
    assert.ok(bytes.every((b) => b === 7));
    assert.equal(at.cancelled, false);
  }
  const over = countingBody(128 * MiB);
  const error = await readBody(new Response(over.stream), 3 * CHUNK + 5).then(() => assert.fail('read'), (e) => e);
  assert.equal(error.name, 'EdgeAttestError');
  assert.deepEqual([error.code, error.status, error.limit], ['ERR_REQUEST_TOO_LARGE', 413, 3 * CHUNK + 5]);
  assert.equal(error.size, 4 * CHUNK, 'size: the bytes received when reading stopped');
  stoppedAt(over, 3 * CHUNK + 5);
  // A caller reading an upstream's answer names its own code and status (none: null).
  const upstream = await readBody(new Response(countingBody(10).stream), 9, { code: 'ERR_OCSP_UPSTREAM', status: 502, what: 'the answer' }).catch((e) => e);
  assert.deepEqual([upstream.code, upstream.status, upstream.message], ['ERR_OCSP_UPSTREAM', 502, 'the answer has more than 9 bytes']);
  const none = await readBody(new Response(countingBody(10).stream), 9, { code: 'ERR_JWKS_TOO_LARGE', status: null }).catch((e) => e);
  assert.equal('status' in none, false);
  assert.equal((await readBody(new Response(null), 0)).byteLength, 0);
});

test('readBody: a Content-Length over the limit is refused before a byte is read; one within it is not trusted', async () => {
  const declared = countingBody(128 * MiB);
  const error = await readBody(new Response(declared.stream, { headers: { 'content-length': String(128 * MiB) } }), MiB).catch((e) => e);
  assert.deepEqual([error.code, error.size, error.limit], ['ERR_REQUEST_TOO_LARGE', 128 * MiB, MiB]);
  assert.equal(declared.pulled, 0);
  assert.equal(declared.cancelled, true);
  // A length that lies low: the chunks are counted all the same.
  const lying = countingBody(128 * MiB);
  const caught = await readBody(new Response(lying.stream, { headers: { 'content-length': '10' } }), MiB).catch((e) => e);
  assert.equal(caught.code, 'ERR_REQUEST_TOO_LARGE');
  stoppedAt(lying, MiB);
});

/** A message (what readBody reads: headers and a body stream) of `source`, as it is. */
const messageOf = (source, headers = {}) => ({ headers: new Headers(headers), body: source.stream });

test('readBody, a byte stream: read into one buffer within the same limit, a declared body in two reads', async () => {
  for (const total of [0, 1, CHUNK, 3 * CHUNK + 5]) {
    for (const headers of [{}, { 'content-length': String(total) }]) {
      const at = countingByteBody(total, { fill: 7 });
      const bytes = await readBody(messageOf(at, headers), total);
      assert.equal(bytes.byteLength, total);
      assert.ok(bytes.every((b) => b === 7));
      assert.equal(at.cancelled, false);
      // Declared: one read waits for all of it, one sees its end (not one read per chunk).
      if (headers['content-length']) assert.equal(at.reads, total ? 2 : 1, `${at.reads} reads for ${total} declared bytes`);
    }
  }
  // Without a length the buffer grows as the bytes come (16 KiB first, doubled).
  const chunked = countingByteBody(5 * MiB + 3, { fill: 9 });
  const whole = await readBody(messageOf(chunked), 8 * MiB);
  assert.equal(whole.byteLength, 5 * MiB + 3);
  assert.ok(whole.every((b) => b === 9));
  // One byte more than the limit: cancelled where it passes, none kept.
  for (const headers of [{}, { 'content-length': '10' }, { 'content-length': String(3 * CHUNK + 5) }]) {
    const over = countingByteBody(128 * MiB);
    const error = await readBody(messageOf(over, headers), 3 * CHUNK + 5).then(() => assert.fail('read'), (e) => e);
    assert.deepEqual([error.code, error.status, error.limit], ['ERR_REQUEST_TOO_LARGE', 413, 3 * CHUNK + 5]);
    assert.equal(error.size, 3 * CHUNK + 6, 'size: the bytes received when reading stopped');
    stoppedAt(over, 3 * CHUNK + 5);
  }
  // A Content-Length over the limit: refused before a byte is read, as for any stream.
  const declared = countingByteBody(128 * MiB);
  const refused = await readBody(messageOf(declared, { 'content-length': String(128 * MiB) }), MiB).catch((e) => e);
  assert.deepEqual([refused.code, refused.size, declared.pulled, declared.cancelled], ['ERR_REQUEST_TOO_LARGE', 128 * MiB, 0, true]);
  // A length that lies high ends where the body does.
  const short = countingByteBody(100, { fill: 3 });
  assert.equal((await readBody(messageOf(short, { 'content-length': '5000' }), MiB)).byteLength, 100);
  // A failing byte stream rejects with its own error.
  const failing = new ReadableStream({ type: 'bytes', pull(controller) { controller.error(new TypeError('connection reset')); } });
  const error = await readBody({ headers: new Headers(), body: failing }, MiB).catch((e) => e);
  assert.deepEqual([error.name, error.code], ['TypeError', undefined]);
});

test('readBody: a failing stream rejects with its own error, not a coded refusal', async () => {
  const failing = new ReadableStream({ pull(controller) { controller.error(new TypeError('connection reset')); } });
  const error = await readBody(new Response(failing), MiB).catch((e) => e);
  assert.equal(error.name, 'TypeError');
  assert.equal(error.code, undefined);
});

test('discardBody: reads and drops at most its limit, then cancels', async () => {
  const small = countingBody(3 * CHUNK);
  assert.equal(await discardBody(new Response(small.stream), 3 * CHUNK), true);
  assert.equal(small.cancelled, false);
  const big = countingBody(128 * MiB);
  assert.equal(await discardBody(new Response(big.stream), MiB), false);
  stoppedAt(big, MiB);
});

test('the worker\'s OCSP relay: a 128 MiB chunked request is refused 413 after reading little more than 64 KiB', async () => {
  await withFetch(() => assert.fail('nothing is relayed'), async () => {
    const source = countingBody(128 * MiB);
    const answer = await route(postWith('http://127.0.0.1/ocsp', source, { 'content-type': 'application/ocsp-request' }));
    assert.equal(answer.status, 413, answer.text);
    assert.equal(answer.body.code, 'ERR_REQUEST_TOO_LARGE');
    stoppedAt(source, RELAY_REQUEST_BYTES);
    // Declared over the cap: refused without reading.
    const declared = countingBody(128 * MiB);
    const refused = await route(postWith('http://127.0.0.1/ocsp', declared, { 'content-length': String(128 * MiB) }));
    assert.equal(refused.status, 413);
    assert.equal(declared.pulled, 0);
    assert.equal(declared.cancelled, true);
  });
});

test('the worker\'s OCSP relay: a 256 MiB answer is cancelled past the core\'s OCSP cap; one at the cap is relayed', async () => {
  let answerSource;
  await withFetch(() => new Response((answerSource = countingBody(256 * MiB)).stream, { headers: { 'content-type': 'application/ocsp-response' } }), async (seen) => {
    const answer = await route(postWith('http://127.0.0.1/ocsp', countingBody(100)));
    assert.deepEqual(seen, [RESPONDER]);
    assert.equal(answer.status, 502, answer.text);
    assert.equal(answer.body.code, 'ERR_OCSP_UPSTREAM');
    assert.match(answer.body.message, new RegExp(`more than ${limits.maxOcspResponseBytes} bytes`));
    stoppedAt(answerSource, limits.maxOcspResponseBytes);
  });
  await withFetch(() => new Response((answerSource = countingBody(limits.maxOcspResponseBytes)).stream), async () => {
    const answer = await route(postWith('http://127.0.0.1/ocsp', countingBody(RELAY_REQUEST_BYTES)));
    assert.equal(answer.status, 200);
    assert.equal(answer.text.length, limits.maxOcspResponseBytes);
    assert.equal(answerSource.cancelled, false);
  });
});

test('the worker\'s attest endpoint: a 128 MiB chunked request gets the core\'s 413 after reading little more than its limit', async () => {
  const source = countingBody(128 * MiB);
  const answer = await route(postWith('http://127.0.0.1/v4/attest/gpu', source, { 'content-type': 'application/json' }));
  assert.equal(answer.status, 413, answer.text);
  assert.equal(answer.body.code, 'ERR_REQUEST_TOO_LARGE');
  stoppedAt(source, limits.maxBodyBytes);
  // Declared over the limit: the core's 413 names the declared size, nothing was read.
  const declared = countingBody(128 * MiB);
  const refused = await route(postWith('http://127.0.0.1/v4/attest/gpu', declared, { 'content-type': 'application/json', 'content-length': String(128 * MiB) }));
  assert.equal(refused.status, 413);
  assert.match(refused.body.message, new RegExp(`${128 * MiB} bytes exceeds the limit of ${limits.maxBodyBytes} bytes`));
  assert.equal(declared.pulled, 0);
  assert.equal(declared.cancelled, true, 'declared past the drain limit (16 MiB): cut');
  // Declared over the limit but within the drain limit: refused from its length, then read
  // and dropped after the answer so that the client's connection is kept.
  const drained = countingBody(3 * MiB);
  const kept = await route(postWith('http://127.0.0.1/v4/attest/gpu', drained, { 'content-type': 'application/json', 'content-length': String(3 * MiB) }));
  assert.equal(kept.status, 413);
  assert.match(kept.body.message, new RegExp(`${3 * MiB} bytes exceeds`));
  assert.deepEqual([drained.pulled, drained.cancelled], [3 * MiB, false]);
  // At the limit the body is read and judged as JSON (a 400, not a 413).
  const at = countingBody(limits.maxBodyBytes, { fill: 0x20 });
  const read = await route(postWith('http://127.0.0.1/v4/attest/gpu', at, { 'content-type': 'application/json' }));
  assert.equal(read.status, 400, read.text.slice(0, 200));
  assert.equal(at.pulled, limits.maxBodyBytes);
  assert.equal(at.cancelled, false);
});

test('the worker\'s gateway: a forwarded request\'s body is cut at the core\'s body limit', async () => {
  const simulations = `Bearer ${keys.keys.find((key) => key.id === 'svc-ci-simulations').key}`;
  await withFetch(() => assert.fail('nothing is forwarded'), async () => {
    const source = countingBody(128 * MiB);
    const answer = await route(postWith('http://127.0.0.1/api/v3/simulations/import/', source, { authorization: simulations, 'content-type': 'application/json' }));
    assert.equal(answer.status, 413, answer.text);
    assert.equal(answer.body.code, 'ERR_REQUEST_TOO_LARGE');
    stoppedAt(source, limits.maxBodyBytes);
  });
});

test('the worker\'s lists: a list source past 32 MiB is cancelled there and answered 502', async () => {
  let source;
  await withFetch(() => new Response((source = countingBody(64 * MiB)).stream, { headers: { 'content-type': 'application/json' } }), async (seen) => {
    const answer = await route(new Request('http://127.0.0.1/analytics/alerts/filter'));
    assert.equal(seen.length, 1);
    assert.equal(answer.status, 502, answer.text);
    assert.equal(answer.body.code, 'ERR_LIST_SOURCE');
    stoppedAt(source, 32 * MiB);
  });
});

test('the fetch step: a RIM answer past the core\'s cap is cancelled there and answered too-large; one at the cap is taken', async () => {
  let source;
  const rim = [{ kind: 'rim', id: 'NV_GPU_DRIVER_GH100_1', url: 'https://rim.example/v1/rim/NV_GPU_DRIVER_GH100_1', fallbacks: [] }];
  const service = new AttestationService({ signingKey: env.EDGEATTEST_SIGNING_KEY });
  const big = async () => new Response((source = countingBody(256 * MiB)).stream);
  assert.deepEqual(await answerFetchStep(service, rim, { fetch: big, cache: createFetchCache() }), [{ error: 'too-large' }]);
  stoppedAt(source, limits.maxFetchedBytes);
  const exact = async () => new Response((source = countingBody(limits.maxFetchedBytes)).stream);
  const [taken] = await answerFetchStep(service, rim, { fetch: exact, cache: createFetchCache() });
  assert.equal(taken.body.byteLength, limits.maxFetchedBytes);
  assert.equal(source.cancelled, false);
});

test('fetchOcspStatus: a responder\'s answer past the core\'s OCSP cap is cancelled there', async () => {
  const sources = [];
  const fetch = async () => {
    const source = countingBody(256 * MiB);
    sources.push(source);
    return new Response(source.stream);
  };
  const status = await fetchOcspStatus(pkiText('chain_good.pem'), { fetch });
  assert.notEqual(status.status, 'good');
  assert.ok(sources.length > 0);
  for (const source of sources) stoppedAt(source, limits.maxOcspResponseBytes);
});
