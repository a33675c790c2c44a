// A bounded load run against the edge worker on loopback (issue 11): a fixed number of
// requests, concurrency 32, a mix of valid attest requests (real NVIDIA evidence), invalid
// ones (malformed JSON, a bad nonce, a wrong method, an unknown path, a non-JSON media type)
// and oversize bodies; plus health, JWKS and preflight. Properties: no 5xx, no dropped
// connection, every answer a JSON body (but 204), and memory steady:
//   - the wasm module's linear memory and its externref table stop growing after the first
//     quarter of the run (a leak in the Rust core or of wasm-bindgen objects grows them);
//   - the workerd process stays within what workerd itself holds for the same traffic: a
//     baseline worker (the same wasm module instantiated, every request's body read and
//     answered with a small JSON 404) is driven with the same requests first.
// Why a baseline rather than a fixed RSS bound: workerd's RSS under this traffic is a
// high-water mark of its own (V8 heap grown between lazy collections, socket and body
// buffers: the 2 MiB oversize bodies dominate). Measured (2 shared cores), the baseline
// worker reaches 230-270 MiB and the edge worker 210-315 MiB, both levelling off between
// 6000 and 10,000 requests and dropping again when idle, while wasm memory stays at 4 MiB (the
// 2 MiB oversize body passed to the core, plus the core's own) and the externref table at
// a fixed length. The worker runs from a copy of target/worker with one added entry module
// (www/load-probe.js) that answers /__load-probe with those two sizes and passes every
// other request to www/worker.js unchanged. Figures go to the test output and to
// tests/artifacts/hardening-load.json. Traffic goes only to 127.0.0.1; no RIM service is
// configured, so the worker makes no outbound request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKER_ROOT } from '../../pkg-config/worker-options.mjs';
import { startWorker } from './support/worker.mjs';
import { buildAttestRequest, generateNonce } from '../../pkg/index.js';
import { hopper, ls10 } from './support/fixtures.mjs';

// 5760 requests take about 20 s (2 shared cores): long enough for workerd's memory to level
// off, so that a leak stands out from its high-water mark.
const REQUESTS = Number(process.env.EDGEATTEST_LOAD_REQUESTS ?? 5760);
const CONCURRENCY = 32;
const MAX_BODY_BYTES = 2 * 1024 * 1024;

const recorded = readFileSync(new URL('../fixtures/nvidia/nras/teep/v3_1gpu_success_20260629_request.json', import.meta.url));

function mix(i) {
  const json = { 'content-type': 'application/json' };
  switch (i % 12) {
    case 0:
    case 1:
      return { kind: 'valid', method: 'POST', path: '/v3/attest/gpu', headers: json, body: recorded };
    case 2:
      return {
        kind: 'valid',
        method: 'POST',
        path: '/v4/attest/gpu',
        headers: json,
        body: JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce: generateNonce(), evidence: [hopper] })),
      };
    case 3:
      return {
        kind: 'valid',
        method: 'POST',
        path: '/v4/attest/switch',
        headers: json,
        body: JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce: generateNonce(), evidence: [ls10] })),
      };
    case 4:
      return { kind: 'invalid', method: 'POST', path: '/v4/attest/gpu', headers: json, body: '{"nonce": "12", "arch": ' };
    case 5:
      return { kind: 'invalid', method: 'POST', path: '/v3/attest/gpu', headers: json, body: JSON.stringify({ nonce: 'zz', arch: 'HOPPER', evidence_list: [] }) };
    case 6:
      return { kind: 'oversize', method: 'POST', path: '/v4/attest/gpu', headers: json, body: new Uint8Array(MAX_BODY_BYTES + 1).fill(0x20) };
    case 7:
      return { kind: 'invalid', method: 'PUT', path: '/v4/attest/gpu', headers: json, body: '{}' };
    case 8:
      return { kind: 'invalid', method: 'GET', path: `/nowhere/${i}`, headers: {} };
    case 9:
      return { kind: 'invalid', method: 'POST', path: '/v4/attest/switch', headers: { 'content-type': 'text/plain' }, body: 'hello' };
    case 10:
      return { kind: 'meta', method: 'GET', path: i % 24 === 10 ? '/health' : '/.well-known/jwks.json', headers: {} };
    default:
      return { kind: 'meta', method: 'OPTIONS', path: '/v4/attest/gpu', headers: { origin: 'https://example.test', 'access-control-request-method': 'POST' } };
  }
}

/** Resident memory (KiB) of the workerd processes started under this one. */
function workerdRssKib() {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,comm='], { encoding: 'utf8' });
  const rows = out.trim().split('\n').map((line) => line.trim().split(/\s+/));
  const children = new Map();
  for (const [pid, ppid] of rows) children.set(pid, [...(children.get(pid) ?? []), ppid]);
  const descendants = new Set([String(process.pid)]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [pid, ppid] of rows) {
      if (descendants.has(ppid) && !descendants.has(pid)) {
        descendants.add(pid);
        changed = true;
      }
    }
  }
  return rows.filter(([pid, , , comm]) => descendants.has(pid) && /workerd/.test(comm)).reduce((sum, [, , rss]) => sum + Number(rss), 0);
}

// The probe entry: `initSync()` of an initialised module returns its exports (no second
// instance). BASELINE stands in for www/worker.js.
const PROBE = `import { initSync } from '../pkg/service/edgeattest.js';
import worker from './__TARGET__';
export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/__load-probe') {
      const wasm = initSync();
      return Response.json({ memory: wasm.memory.buffer.byteLength, externrefs: wasm.__wbindgen_externrefs.length });
    }
    return worker.fetch(request, env, ctx);
  },
};
`;
const BASELINE = `import '../pkg/service/workerd.js';
export default {
  async fetch(request) {
    if (request.body) await request.arrayBuffer();
    return Response.json({ code: 'ERR_NOT_FOUND', message: 'baseline', status: 404 }, { status: 404 });
  },
};
`;

/** Starts www/worker.js (or the baseline) behind the probe, from a copy of target/worker. */
async function startProbed(baseline) {
  const root = mkdtempSync(join(tmpdir(), 'edgeattest-load-'));
  cpSync(WORKER_ROOT, root, { recursive: true });
  if (baseline) writeFileSync(join(root, 'www', 'load-baseline.js'), BASELINE);
  writeFileSync(join(root, 'www', 'load-probe.js'), PROBE.replace('__TARGET__', baseline ? 'load-baseline.js' : 'worker.js'));
  const worker = await startWorker({ rootPath: root, modulesRoot: root, scriptPath: 'www/load-probe.js' });
  return {
    origin: worker.origin,
    probe: async () => (await fetch(`${worker.origin}/__load-probe`)).json(),
    stop: async () => {
      await worker.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Drives REQUESTS requests of the mix at CONCURRENCY; samples memory 12 times. */
async function drive(worker, oversizeStatus) {
  const statuses = {};
  const byKind = {};
  const failures = [];
  const latencies = [];
  const samples = [];
  let next = 0;
  let done = 0;
  let sampling = Promise.resolve();
  const sample = async () => {
    const { memory, externrefs } = await worker.probe();
    samples.push({ done, rssKib: workerdRssKib(), wasmMemory: memory, externrefs });
  };
  const started = performance.now();
  async function one(i) {
    const request = mix(i);
    const t0 = performance.now();
    try {
      const response = await fetch(`${worker.origin}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
      const text = await response.text();
      latencies.push(performance.now() - t0);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      const key = `${request.kind} ${response.status}`;
      byKind[key] = (byKind[key] ?? 0) + 1;
      if (response.status >= 500) failures.push(`${request.method} ${request.path}: ${response.status} ${text.slice(0, 200)}`);
      if (response.status !== 204 && request.method !== 'HEAD') {
        try {
          JSON.parse(text);
        } catch {
          failures.push(`${request.method} ${request.path}: ${response.status} body is not JSON: ${text.slice(0, 100)}`);
        }
      }
      if (request.kind === 'oversize' && response.status !== oversizeStatus) failures.push(`oversize answered ${response.status}`);
    } catch (error) {
      failures.push(`${request.method} ${request.path}: connection error ${error.cause?.code ?? ''} ${error.message}`);
    }
    done += 1;
    if (done % Math.ceil(REQUESTS / 12) === 0) sampling = sampling.then(sample);
  }
  async function lane() {
    while (next < REQUESTS) await one(next++);
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  await sampling;
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]);
  return { statuses, byKind, failures, samples, seconds, latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), max: Math.round(latencies.at(-1)) } };
}

/** One run in a fresh workerd process; oversize bodies must get `oversizeStatus`. */
async function driveProbed(baseline, oversizeStatus) {
  const worker = await startProbed(baseline);
  try {
    return await drive(worker, oversizeStatus);
  } finally {
    await worker.stop();
  }
}

const mib = (bytes) => Number((bytes / 1048576).toFixed(1));

test(`load: ${REQUESTS} mixed requests at concurrency ${CONCURRENCY}, no 5xx, no dropped connection, memory steady`, { timeout: 1_800_000 }, async () => {
  // The baseline first, in its own workerd process, stopped before the edge worker starts.
  const baseline = await driveProbed(true, 404);
  const run = await driveProbed(false, 413);
  const { statuses, byKind, failures, samples } = run;
  const peak = (list) => Math.max(...list.map((s) => s.rssKib));
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const warm = samples[quarter - 1];
  const last = samples.at(-1);
  const figures = {
    requests: REQUESTS,
    concurrency: CONCURRENCY,
    seconds: Number(run.seconds.toFixed(1)),
    requestsPerSecond: Number((REQUESTS / run.seconds).toFixed(1)),
    statuses,
    byKind,
    latencyMs: run.latencyMs,
    samplesAtRequests: samples.map((s) => s.done),
    workerdRssMiB: samples.map((s) => mib(s.rssKib * 1024)),
    wasmMemoryMiB: samples.map((s) => mib(s.wasmMemory)),
    externrefTable: samples.map((s) => s.externrefs),
    baseline: {
      seconds: Number(baseline.seconds.toFixed(1)),
      statuses: baseline.statuses,
      workerdRssMiB: baseline.samples.map((s) => mib(s.rssKib * 1024)),
    },
    failures: failures.length,
  };
  mkdirSync(new URL('../artifacts/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../artifacts/hardening-load.json', import.meta.url), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(JSON.stringify(figures));
  assert.deepEqual(failures.slice(0, 10), [], `${failures.length} failures`);
  assert.deepEqual(baseline.failures.slice(0, 10), [], `baseline: ${baseline.failures.length} failures`);
  assert.equal(Object.values(statuses).reduce((a, b) => a + b, 0), REQUESTS);
  assert.ok(samples.length >= 8 && baseline.samples.length >= 8 && peak(samples) > 0, `memory sampled: ${samples.length}`);
  // The wasm side: no growth at all after the first quarter (linear memory never shrinks,
  // so any leak of the core's allocations or of wasm-bindgen handles shows as growth).
  assert.equal(last.wasmMemory, warm.wasmMemory, `wasm memory grew after warm-up: ${figures.wasmMemoryMiB} MiB`);
  assert.equal(last.externrefs, warm.externrefs, `externref table grew after warm-up: ${figures.externrefTable}`);
  assert.ok(last.wasmMemory <= 16 * 1048576, `wasm memory ${mib(last.wasmMemory)} MiB`);
  // The process: within 96 MiB of what workerd holds for the same traffic. Measured (2
  // shared cores, WebCrypto backend), the baseline levels off near 250-270 MiB and the edge
  // worker near 280-315 MiB (WebCrypto's per-request promises and keys in flight), at most
  // 45 MiB above it, at 5760 and at 11,520 requests alike; at 1920 the worker stays below
  // the baseline. A worker-side leak of 32 KiB per request (180 MiB over the default run)
  // fails this with the worker 157 MiB above the baseline; the wasm checks above catch much
  // smaller leaks of the core.
  const allowance = 96 * 1024;
  assert.ok(peak(samples) <= peak(baseline.samples) + allowance, `workerd RSS peaked at ${mib(peak(samples) * 1024)} MiB, the baseline at ${mib(peak(baseline.samples) * 1024)} MiB`);
});
