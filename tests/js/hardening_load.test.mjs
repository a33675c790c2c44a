// A bounded load run against the edge worker on loopback (issue 11): a fixed number of
// requests, concurrency 32, a mix of valid attest requests (real NVIDIA evidence), invalid
// ones (malformed JSON, a bad nonce, a wrong method, an unknown path, a non-JSON media type)
// and oversize bodies; plus health, JWKS and preflight. Properties: no 5xx, no dropped
// connection, every answer a JSON body (but 204), the workerd process's memory steady
// between the first and the last third of the run. Figures go to the test output and to
// tests/artifacts/hardening-load.json. Traffic goes only to 127.0.0.1; no RIM service is
// configured, so the worker makes no outbound request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { startWorker } from './support/worker.mjs';
import { buildAttestRequest, generateNonce } from '../../pkg/index.js';
import { hopper, ls10 } from './support/fixtures.mjs';

const REQUESTS = Number(process.env.EDGEATTEST_LOAD_REQUESTS ?? 1920);
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

test(`load: ${REQUESTS} mixed requests at concurrency ${CONCURRENCY}, no 5xx, no dropped connection, memory steady`, { timeout: 900_000 }, async () => {
  const worker = await startWorker();
  try {
    const statuses = {};
    const byKind = {};
    const failures = [];
    const latencies = [];
    const rss = [];
    let next = 0;
    let done = 0;
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
        if (request.kind === 'oversize' && response.status !== 413) failures.push(`oversize answered ${response.status}`);
      } catch (error) {
        failures.push(`${request.method} ${request.path}: connection error ${error.cause?.code ?? ''} ${error.message}`);
      }
      done += 1;
      if (done % Math.ceil(REQUESTS / 12) === 0) rss.push(workerdRssKib());
    }
    async function lane() {
      while (next < REQUESTS) await one(next++);
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]);
    const third = Math.max(1, Math.floor(rss.length / 3));
    const early = Math.max(...rss.slice(0, third));
    const late = Math.max(...rss.slice(-third));
    const figures = {
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      seconds: Number(seconds.toFixed(1)),
      requestsPerSecond: Number((REQUESTS / seconds).toFixed(1)),
      statuses,
      byKind,
      latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), max: Math.round(latencies.at(-1)) },
      workerdRssMiB: rss.map((kib) => Number((kib / 1024).toFixed(1))),
      failures: failures.length,
    };
    mkdirSync(new URL('../artifacts/', import.meta.url), { recursive: true });
    writeFileSync(new URL('../artifacts/hardening-load.json', import.meta.url), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(JSON.stringify(figures));
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} failures`);
    assert.equal(Object.values(statuses).reduce((a, b) => a + b, 0), REQUESTS);
    assert.ok(rss.length >= 3 && early > 0, `workerd memory sampled: ${rss}`);
    // Steady: the last third's peak within 64 MiB of the first third's peak. Measured here
    // (2 shared cores): valid requests alone plateau near 120 MiB; 2 MiB oversize bodies
    // alone swing between 205 and 237 MiB (garbage collected lazily); the default mix of
    // 1920 requests rises by about 30 MiB, a 5760-request mix by about 100 MiB without a
    // plateau yet, so longer runs are not yet shown steady (see the report of issue 11).
    assert.ok(late <= early + 64 * 1024, `workerd memory grew from ${early} KiB to ${late} KiB`);
  } finally {
    await worker.stop();
  }
});
