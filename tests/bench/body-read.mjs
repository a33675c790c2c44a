// What the bounded body reader (src/js/body.js, readBody) costs against reading the same body
// whole with arrayBuffer(), which the worker did for a request with a Content-Length within
// the limit before every body went through readBody. The bodies are real V4 attest requests
// (1 GPU and 8 GPUs, tests/fixtures/nvidia/evidence/serialized/) and one at the core's limit
// (2 MiB), each a Request whose body arrives in 16 KiB chunks of a byte stream, as an HTTP
// runtime delivers it. Rounds alternate readBody and arrayBuffer on fresh Requests; medians and
// the ratio. readBody reads a byte stream into one buffer, a declared body in one read that
// waits for all of it (see body.js). In Node arrayBuffer() is itself JavaScript (undici
// collects the chunks); workerd's is native. In workerd, behind the assets router (an A/B of
// two worker builds, CPU per request), readBody costs about 70 µs more than arrayBuffer() for
// the 1-GPU body and 85 µs for the 8-GPU one: its second read, which waits for the body's end
// (a declared length is not trusted, so the end is read). A chunk-by-chunk read costs 170 µs
// and 400 µs more.
//
// Run after `bash pkg-config/build.sh`:  node tests/bench/body-read.mjs [rounds=30]
// Prints a table and one line per figure for pkg-config/bench.sh:
//   BENCH body-read.<body> <readBody µs> <arrayBuffer µs> <ratio>
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { serviceLimits } from '../../pkg/service/index.js';
import { readBody } from '../../pkg/service/body.js';
import { median } from './support.mjs';

const rounds = Number(process.argv[2] ?? 30);
const CHUNK = 16 * 1024;
const root = new URL('../fixtures/nvidia/evidence/serialized/', import.meta.url);
const v4 = (file) => {
  const items = JSON.parse(readFileSync(new URL(file, root), 'utf8'));
  return JSON.stringify({ nonce: items[0].nonce, arch: 'HOPPER', claims_version: '3.0', evidence_list: items.map(({ evidence, certificate }) => ({ evidence, certificate })) });
};
const { maxBodyBytes } = serviceLimits();
const bodies = {
  '1gpu': new TextEncoder().encode(v4('nvat_hopper_evidence.json')),
  '8gpu': new TextEncoder().encode(v4('nvtrust_ppcie_gpu_evidence_8gpu.json')),
  limit: new Uint8Array(maxBodyBytes).fill(0x20),
};

/**
 * A Request with `bytes` as its body, in CHUNK-byte chunks, and its Content-Length. The body
 * is a byte stream, as a runtime's request body is, so readBody reads it as it reads one there.
 */
function request(bytes) {
  let offset = 0;
  const stream = new ReadableStream({
    type: 'bytes',
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + CHUNK));
      offset += CHUNK;
    },
  });
  return new Request('http://127.0.0.1/v4/attest/gpu', { method: 'POST', body: stream, duplex: 'half', headers: { 'content-length': String(bytes.byteLength) } });
}

/** Mean µs per read over `n` fresh Requests. */
async function time(read, bytes, n) {
  let total = 0;
  for (let i = 0; i < n; i++) {
    const r = request(bytes);
    const start = performance.now();
    const body = await read(r);
    total += performance.now() - start;
    if (body.byteLength !== bytes.byteLength) throw new Error(`read ${body.byteLength} of ${bytes.byteLength} bytes`);
  }
  return (total / n) * 1000;
}

const ours = (r) => readBody(r, maxBodyBytes);
const yardstick = async (r) => new Uint8Array(await r.arrayBuffer());
const lines = [];
console.log(`body read: readBody vs arrayBuffer, ${rounds} alternating rounds, node ${process.version}`);
console.log('| body | bytes | readBody µs | arrayBuffer µs | ratio |\n|---|---|---|---|---|');
for (const [name, bytes] of Object.entries(bodies)) {
  const n = bytes.byteLength > 1024 * 1024 ? 5 : 50;
  for (let i = 0; i < 3; i++) { await time(ours, bytes, n); await time(yardstick, bytes, n); } // warm-up
  const a = [];
  const b = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await time(ours, bytes, n));
    b.push(await time(yardstick, bytes, n));
  }
  const [mine, theirs] = [median(a), median(b)];
  console.log(`| ${name} | ${bytes.byteLength} | ${mine.toFixed(1)} | ${theirs.toFixed(1)} | ${(mine / theirs).toFixed(2)} |`);
  lines.push(`BENCH body-read.${name} ${mine.toFixed(1)}us ${theirs.toFixed(1)}us ${(mine / theirs).toFixed(2)}`);
}
for (const line of lines) console.log(line);
