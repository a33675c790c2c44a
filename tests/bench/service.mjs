// Service benchmark through the edge worker in workerd (Miniflare), on loopback:
//   1. V4 attestation, claims 3.0, of 1 GPU, 8 GPUs and 4 switches: median and p99 latency
//      over sequential requests, beside the cost of one in-process verifyEvidence of the same
//      devices (the unavoidable ECDSA work), measured in the same run;
//   2. a bounded load run: a fixed number of mixed requests (valid, invalid, oversize) at
//      concurrency 16; throughput, p50/p99 latency, status counts, errors.
// Run after `bash pkg-config/build.sh`:  node tests/bench/service.mjs [requests=400]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startWorker } from '../js/support/worker.mjs';

const root = new URL('../fixtures/nvidia/', import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const total = Number(process.argv[2] ?? 400);

function v4(items, arch) {
  return JSON.stringify({
    nonce: items[0].nonce,
    arch,
    claims_version: '3.0',
    evidence_list: items.map(({ evidence, certificate }) => ({ evidence, certificate })),
  });
}

const bodies = {
  '1 GPU': ['/v4/attest/gpu', v4(json('evidence/serialized/nvat_hopper_evidence.json'), 'HOPPER')],
  '8 GPUs': ['/v4/attest/gpu', v4(json('evidence/serialized/nvtrust_ppcie_gpu_evidence_8gpu.json'), 'HOPPER')],
  '4 switches': ['/v4/attest/switch', v4(json('evidence/serialized/nvtrust_ppcie_switch_evidence_4sw.json'), 'LS10')],
};

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const worker = await startWorker();
try {
  const post = (path, body, headers = { 'content-type': 'application/json' }) =>
    fetch(`${worker.origin}${path}`, { method: 'POST', headers, body });
  console.log('| request | median ms | p99 ms | status |');
  console.log('|---|---:|---:|---|');
  for (const [name, [path, body]] of Object.entries(bodies)) {
    for (let i = 0; i < 3; i++) await (await post(path, body)).arrayBuffer(); // warm up
    const times = [];
    let status;
    for (let i = 0; i < 25; i++) {
      const t = performance.now();
      const response = await post(path, body);
      await response.arrayBuffer();
      times.push(performance.now() - t);
      status = response.status;
    }
    times.sort((a, b) => a - b);
    console.log(`| ${name} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.99).toFixed(1)} | ${status} |`);
  }

  // Bounded load: fixed count, mixed kinds, concurrency 16.
  const kinds = [
    () => post(...bodies['1 GPU']),
    () => post('/v4/attest/gpu', '{"nonce":"bad"}'),
    () => post('/v4/attest/gpu', 'x'.repeat(2 * 1024 * 1024 + 1)),
    () => fetch(`${worker.origin}/health`),
    () => fetch(`${worker.origin}/analytics/alerts/filter?rpp=50&page_number=3&sorting=timestamp[desc]`),
  ];
  const statuses = {};
  const latencies = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < total) {
        const kind = kinds[next++ % kinds.length];
        const t = performance.now();
        try {
          const response = await kind();
          await response.arrayBuffer();
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        } catch {
          errors += 1;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const fivexx = Object.entries(statuses).filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  console.log(`\nload: ${total} requests, concurrency 16, ${(total / seconds).toFixed(1)} req/s, ` +
    `p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms, ` +
    `statuses ${JSON.stringify(statuses)}, 5xx ${fivexx}, connection errors ${errors}`);
  if (fivexx > 0 || errors > 0) process.exitCode = 1;
} finally {
  await worker.stop();
}
