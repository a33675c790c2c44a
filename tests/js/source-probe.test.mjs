// Offline is said at once: the worker probes its sources (the RIM service, the OCSP responder)
// from its first request, and /health says whether they answer — before any attestation — with
// what fails and what to do; an expected network failure is one log line, never a native stack
// trace; an attestation that fails for want of collateral says the cause and the remedy in its
// tokens, claims 2.0 as 3.0. Sources: a closed loopback port, an unresolvable `.invalid` host,
// and loopback stubs that answer.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { startWorker } from './support/worker.mjs';
import { fixtureText } from './support/fixtures.mjs';
import { runtimeOutput, filterLine } from '../../pkg-config/workerd-output.mjs';
import { healthBanner, settledHealth } from '../../pkg-config/health-banner.mjs';
import { closedPort } from './support/flaky-source.mjs';

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
/** workerd's native stack trace, or a line of its C++ sources. */
const NATIVE_TRACE = /^stack:|\.c\+\+:\d+/m;
/** The probe's budget (3 s) and a margin. */
const SETTLE_MS = 8000;

const workers = [];
const servers = [];
after(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});


/** The worker with `bindings`, its workerd output (as the local server shows it) collected. */
async function worker(bindings) {
  const output = [];
  const push = (line) => output.push(line);
  const started = await startWorker({ bindings, handleRuntimeStdio: runtimeOutput({ out: push, err: push }) });
  workers.push(started);
  return { ...started, output };
}

/** /health once the probe has ended (the banner's way: pkg-config/health-banner.mjs). */
const health = (origin) => settledHealth(() => fetch(`${origin}/health`), { timeoutMs: SETTLE_MS });

/** Resolves once `lines` hold a line matching `pattern`, or fails after `ms`. */
async function logged(lines, pattern, ms = SETTLE_MS) {
  const deadline = Date.now() + ms;
  while (!lines.some((line) => pattern.test(line))) {
    if (Date.now() > deadline) assert.fail(`no log line matches ${pattern}:\n${lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A loopback source that answers every request with `status`, and what it was asked. */
async function stub(status) {
  const asked = [];
  const server = createHttpServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    request.resume();
    response.writeHead(status).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${server.address().port}`, asked };
}

/** The recorded Hopper request (NVIDIA's device and chain), as /v3 (claims 2.0) or /v4 with `claimsVersion`. */
function hopperRequest(claimsVersion) {
  const body = JSON.parse(fixtureText('nras/teep/v3_1gpu_success_20260629_request.json'));
  return JSON.stringify(claimsVersion ? { ...body, claims_version: claimsVersion } : body);
}

async function attest(origin, path, body) {
  const response = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  const [[, overall], devices] = JSON.parse(text);
  return { overall: payload(overall), gpu: payload(devices['GPU-0']) };
}

test('unreachable sources: /health says OFFLINE before any attestation, the log one line each, no stack trace', async () => {
  const rimUrl = `http://127.0.0.1:${await closedPort()}/v1/rim/`;
  const ocspUrl = 'http://ocsp.edgeattest-probe.invalid/';
  const w = await worker({ EDGEATTEST_RIM_SERVICE_URL: rimUrl, EDGEATTEST_OCSP_URL: ocspUrl });
  const { status, health: h } = await health(w.origin);
  assert.equal(status, 200);
  assert.equal(h.overallStatus, 'DEGRADED');
  assert.equal(h.network, 'OFFLINE');
  // The spec's fields say it too.
  assert.equal(h.rimServiceHealth.checks.rimService, 'DOWN');
  assert.equal(h.rimServiceHealth.checks.rimServiceLastError, 'unreachable');
  assert.equal(h.ocspServiceHealth.overallStatus, 'DOWN');
  // The name's lookup fails at once where a resolver answers; a resolver that does not (a
  // sandbox, a loaded machine) outlasts the probe's 3 s: then it is a timeout, said as one.
  const ocspWhy = h.ocspServiceHealth.service.lastError;
  assert.ok(['unreachable', 'timeout'].includes(ocspWhy), ocspWhy);
  // The cause and the remedy, in words, for each source.
  for (const part of [`The RIM service ${rimUrl} is unreachable`, `The OCSP responder ${ocspUrl} is unreachable`,
    'its name did not resolve', ocspWhy === 'timeout' ? 'no answer in time' : '', '5008', '5001',
    'EDGEATTEST_RIM_SERVICE_URL=off', 'EDGEATTEST_OCSP_URL=off', 'Go online']) {
    assert.ok(h.networkDetail.includes(part), `${part}: ${h.networkDetail}`);
  }
  // workerd's failed DNS lookup: one line naming the host; the worker's probe: one line a source.
  if (ocspWhy === 'unreachable') await logged(w.output, /^workerd: DNS lookup failed for ocsp\.edgeattest-probe\.invalid \(/);
  const said = (url, why = 'unreachable') => `edgeattest: source probe: the ${url === rimUrl ? 'RIM service' : 'OCSP responder'} ${url} does not answer (${why}): GET /health says what fails and what to do`;
  await logged(w.output, { test: (line) => line === said(ocspUrl, ocspWhy) });
  await logged(w.output, { test: (line) => line === said(rimUrl) });
  assert.doesNotMatch(w.output.join('\n'), NATIVE_TRACE);

  // An attestation that needs them: each token says the cause and the remedy, 2.0 as 3.0.
  for (const [path, version] of [['/v3/attest/gpu', undefined], ['/v4/attest/gpu', '2.0'], ['/v4/attest/gpu', '3.0']]) {
    const { overall, gpu } = await attest(w.origin, path, hopperRequest(version));
    const label = `${path} ${version ?? '(2.0)'}`;
    assert.equal(overall['x-nvidia-overall-att-result'], false, label);
    const details = gpu['x-nvidia-error-details'];
    assert.ok(details, `${label}: x-nvidia-error-details: ${JSON.stringify(gpu)}`);
    assert.ok([5001, 5008].includes(details.code), `${label}: ${details.code}`);
    assert.match(details.description, /Go online/, label);
    assert.match(details.description, /air-gapped/, label);
  }
  // The page's OCSP relay: a JSON error body with the cause and the remedy in words.
  const relay = await fetch(`${w.origin}/ocsp`, { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: new Uint8Array(16) });
  assert.equal(relay.status, 502);
  const error = await relay.json();
  assert.equal(error.code, 'ERR_OCSP_UPSTREAM');
  assert.match(error.message, new RegExp(`^the OCSP responder ${ocspUrl.replace(/[.]/g, '\\.')} could not be reached \\(no connection: its name did not resolve or it refused\\)`));
  assert.match(error.message, /Go online .* EDGEATTEST_OCSP_URL=off/);
  assert.doesNotMatch(error.message, /internal error/);
  // Said once a host in a while (the failure is the same), and still no stack trace.
  assert.doesNotMatch(w.output.join('\n'), NATIVE_TRACE);
});

test('reachable sources: ONLINE and UP, one HEAD each, not again within the interval', async () => {
  const rims = await stub(404);
  const ocsp = await stub(405);
  const w = await worker({ EDGEATTEST_RIM_SERVICE_URL: `${rims.url}/v1/rim/`, EDGEATTEST_OCSP_URL: `${ocsp.url}/` });
  const { status, health: h } = await health(w.origin);
  assert.equal(status, 200);
  assert.equal(h.network, 'ONLINE');
  assert.equal(h.overallStatus, 'UP');
  assert.equal(h.rimServiceHealth.checks.rimService, 'UP');
  assert.equal(h.ocspServiceHealth.overallStatus, 'UP');
  assert.match(h.networkDetail, /answers\./);
  for (let i = 0; i < 3; i += 1) await fetch(`${w.origin}/health`).then((r) => r.arrayBuffer());
  assert.deepEqual(rims.asked, ['HEAD /v1/rim/']);
  assert.deepEqual(ocsp.asked, ['HEAD /']);
  assert.deepEqual(w.output.filter((line) => /source probe/.test(line)), [], 'nothing to say of sources that answer');
});

test('a source that answers 503 is down: PARTLY_OFFLINE, with its status', async () => {
  const rims = await stub(503);
  const ocsp = await stub(200);
  const w = await worker({ EDGEATTEST_RIM_SERVICE_URL: `${rims.url}/v1/rim/`, EDGEATTEST_OCSP_URL: `${ocsp.url}/` });
  const { health: h } = await health(w.origin);
  assert.equal(h.network, 'PARTLY_OFFLINE');
  assert.equal(h.overallStatus, 'DEGRADED');
  assert.equal(h.rimServiceHealth.checks.rimServiceLastError, 'HTTP 503');
  assert.match(h.networkDetail, /is unreachable \(HTTP 503\)/);
});

test('air-gapped (both sources off): AIR_GAPPED and UP at once, nothing asked', async () => {
  const w = await worker({});
  const response = await fetch(`${w.origin}/health`);
  const h = await response.json();
  assert.equal(h.network, 'AIR_GAPPED');
  assert.equal(h.overallStatus, 'UP');
  assert.match(h.networkDetail, /EDGEATTEST_RIM_SERVICE_URL=off/);
  assert.match(h.networkDetail, /revocation is not checked/);
});

test('the start banner says what /health says: the status, the network, and the remedy', () => {
  const origin = 'http://127.0.0.1:8787';
  const detail = "NVIDIA's RIM service https://rim.attestation.nvidia.com/v1/rim/ is unreachable (no connection): Go online. "
    + "NVIDIA's OCSP responder https://ocsp.ndis.nvidia.com/ is unreachable (no answer in time): set EDGEATTEST_OCSP_URL=off.";
  const lines = healthBanner(origin, 200, { overallStatus: 'DEGRADED', network: 'OFFLINE', networkDetail: detail });
  assert.equal(lines[0], `edgeattest service: ${origin}/  (health: DEGRADED; network: OFFLINE)`);
  assert.match(lines[1], /^sources: {12}NVIDIA's RIM service/);
  const text = lines.slice(1).join('\n');
  assert.equal(text.replace(/\s+/g, ' '), `sources: ${detail}`, 'every word, wrapped');
  for (const line of text.split('\n')) assert.ok(line.length <= 100, line);
  assert.equal(healthBanner(origin, 200, { overallStatus: 'UP', network: 'UNKNOWN' })[1].startsWith('sources:            not probed yet'), true);
  // No health object (a 503 with another body): the HTTP status.
  assert.deepEqual(healthBanner(origin, 503, undefined), [`edgeattest service: ${origin}/  (health: HTTP 503)`]);
});

test('the banner waits for the probe: /health asked until it is no longer UNKNOWN, within the time given', async () => {
  const answers = ['UNKNOWN', 'UNKNOWN', 'OFFLINE'];
  let asked = 0;
  const fake = async () => Response.json({ overallStatus: 'UP', network: answers[Math.min(asked++, 2)] });
  assert.equal((await settledHealth(fake, { timeoutMs: 5000, intervalMs: 1 })).health.network, 'OFFLINE');
  assert.equal(asked, 3);
  const never = async () => Response.json({ network: 'UNKNOWN' });
  assert.equal((await settledHealth(never, { timeoutMs: 30, intervalMs: 5 })).health.network, 'UNKNOWN');
});

test('workerd\'s output: a failed DNS lookup is one line; any other error keeps its stack trace', () => {
  const state = { skipStack: false };
  const dns = 'workerd/jsg/util.c++:405: error: e = kj/async-io-unix.c++:1298: failed: DNS lookup failed.; params.host = rim.example.invalid; params.service = ; gai_strerror(status) = Name or service not known';
  const stack = 'stack: /x/workerd@51f50be /x/workerd@51f5bb0 /x/workerd@35832b0';
  assert.equal(filterLine(dns, state), 'workerd: DNS lookup failed for rim.example.invalid (Name or service not known): the host cannot resolve it (offline?); GET /health says what fails and what to do');
  assert.equal(filterLine(stack, state), null);
  const other = 'workerd/jsg/util.c++:405: error: e = kj/async-io-unix.c++:99: failed: something unexpected';
  assert.equal(filterLine(other, state), other);
  assert.equal(filterLine(stack, state), stack);
  assert.equal(filterLine('Uncaught Error: boom', state), 'Uncaught Error: boom');
  // The same failure as workerd's request context logs it too: said once in 10 s, no stack.
  const again = dns.replace('workerd/jsg/util.c++:405', 'workerd/io/io-context.c++:443');
  const t0 = Date.now();
  const fresh = { skipStack: false };
  assert.match(filterLine(dns, fresh, t0), /^workerd: DNS lookup failed for rim\.example\.invalid/);
  assert.equal(filterLine(`${stack}; sentryErrorContext = jsgInternalError`, fresh, t0), null);
  assert.equal(filterLine(again, fresh, t0 + 5), null);
  assert.equal(filterLine(stack, fresh, t0 + 5), null);
  assert.match(filterLine(again, fresh, t0 + 10_001), /^workerd: DNS lookup failed/);
});
