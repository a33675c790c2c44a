// Service benchmark through the edge worker in workerd (Miniflare), on loopback, for each
// crypto backend (EDGEATTEST_CRYPTO=webcrypto, the default, and software), in one run:
//   1. V4 attestation, claims 3.0, of 1 GPU, 8 GPUs and 4 switches: median and p99 latency
//      over sequential requests, and the workerd process's CPU time per request (user +
//      system, from /proc, so it counts only the worker's work, not this client's); both
//      backends run at once, in alternating chunks of requests (webcrypto, software, ...);
//   2. a bounded load run: a fixed number of mixed requests (valid, invalid, oversize) at
//      concurrency 16; throughput, p50/p99 latency, status counts, errors.
// Run after `bash pkg-config/build.sh`:  node tests/bench/service.mjs [requests=400]
// The last lines are machine-readable (pkg-config/bench.sh): the software backend against
// the WebCrypto one, `BENCH service.<request>.software-vs-webcrypto.<cpu|latency> <software
// ms> <webcrypto ms> <ratio>`, and the load runs' throughput (`BENCH service.load.<backend>`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startWorker } from '../js/support/worker.mjs';
import { workerdPids } from './support.mjs';

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


/** CPU milliseconds (user + system) the workerd processes have used. */
function workerdCpuMs(pids) {
  const tick = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) * tick; // utime, stime
  }, 0);
}

const SEQUENTIAL = 25;
const CHUNK = 5; // requests per backend before switching (CPU ticks are 10 ms: chunks, not single requests)
const BACKENDS = ['webcrypto', 'software'];
const rows = [];
const bench = [];

/** Workers for every backend, each with its own workerd processes (found by difference). */
async function startWorkers() {
  const workers = {};
  for (const backend of BACKENDS) {
    const before = new Set(workerdPids());
    const worker = await startWorker({ bindings: { EDGEATTEST_CRYPTO: backend } });
    const post = (path, body, headers = { 'content-type': 'application/json' }) =>
      fetch(`${worker.origin}${path}`, { method: 'POST', headers, body });
    workers[backend] = { worker, post, pids: workerdPids().filter((pid) => !before.has(pid)) };
  }
  return workers;
}

/** Sequential requests of each kind, the backends alternating chunk by chunk. */
async function sequential(workers) {
  for (const [name, [path, body]] of Object.entries(bodies)) {
    const times = Object.fromEntries(BACKENDS.map((b) => [b, []]));
    const cpu = Object.fromEntries(BACKENDS.map((b) => [b, 0]));
    const status = {};
    for (const backend of BACKENDS) {
      for (let i = 0; i < 3; i++) await (await workers[backend].post(path, body)).arrayBuffer(); // warm up
    }
    for (let done = 0; done < SEQUENTIAL; done += CHUNK) {
      for (const backend of BACKENDS) {
        const { post, pids } = workers[backend];
        const cpuBefore = workerdCpuMs(pids);
        for (let i = 0; i < Math.min(CHUNK, SEQUENTIAL - done); i++) {
          const t = performance.now();
          const response = await post(path, body);
          await response.arrayBuffer();
          times[backend].push(performance.now() - t);
          status[backend] = response.status;
        }
        cpu[backend] += workerdCpuMs(pids) - cpuBefore;
      }
    }
    const median = {};
    for (const backend of BACKENDS) {
      const sorted = times[backend].sort((a, b) => a - b);
      median[backend] = { latency: quantile(sorted, 0.5), cpu: cpu[backend] / SEQUENTIAL };
      rows.push(`| ${backend} | ${name} | ${quantile(sorted, 0.5).toFixed(1)} | ${quantile(sorted, 0.99).toFixed(1)} | ${median[backend].cpu.toFixed(1)} | ${status[backend]} |`);
    }
    const id = name.replace(/\s+/g, '').toLowerCase();
    for (const what of ['cpu', 'latency']) {
      const [sw, wc] = [median.software[what], median.webcrypto[what]];
      bench.push(`BENCH service.${id}.software-vs-webcrypto.${what} ${sw.toFixed(1)}ms ${wc.toFixed(1)}ms ${(sw / wc).toFixed(2)}`);
    }
  }
}

/** Bounded load: fixed count, mixed kinds, concurrency 16, against one backend's worker. */
async function load(backend, { worker, post }) {
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
  rows.push(`load (${backend}): ${total} requests, concurrency 16, ${(total / seconds).toFixed(1)} req/s, ` +
    `p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms, ` +
    `statuses ${JSON.stringify(statuses)}, 5xx ${fivexx}, connection errors ${errors}`);
  bench.push(`BENCH service.load.${backend} ${(total / seconds).toFixed(1)}req/s - -`);
  if (fivexx > 0 || errors > 0) process.exitCode = 1;
}

const workers = await startWorkers();
try {
  await sequential(workers);
  for (const backend of BACKENDS) await load(backend, workers[backend]);
} finally {
  for (const { worker } of Object.values(workers)) await worker.stop();
}

console.log('| backend | request | median ms | p99 ms | workerd CPU ms/request | status |');
console.log('|---|---|---:|---:|---:|---|');
for (const row of rows.filter((r) => r.startsWith('|'))) console.log(row);
for (const row of rows.filter((r) => !r.startsWith('|'))) console.log(row);
console.log('');
for (const line of bench) console.log(line);
