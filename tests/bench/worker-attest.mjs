// The non-signature CPU of an attestation in the edge worker (issue 19, item 2): a V4
// attestation (claims 3.0) of 1 GPU and of 8 GPUs through the real worker (target/worker) in
// workerd, beside a signature-replay probe worker in another workerd that receives the same
// request body and makes exactly the WebCrypto calls the real request makes — the same
// `crypto.subtle.verify` calls (same keys, signatures and messages, in the same parallel
// batches) and the same `sign` calls (same signing key, same-sized inputs) — and answers the
// recorded answer's bytes. Both workers sit behind the same Workers static-assets router
// (the ASSETS binding with the worker invoked ahead of assets, as pkg-config/wrangler.toml
// deploys it): in workerd that router runs in the worker's own process, about 0.4 ms of CPU
// per request, which on Cloudflare is the platform's and not the worker's; the probe pays it
// too, so the ratio compares the worker's own work with the signature calls. Every request
// carries a fresh nonce, as a fleet's do: the test PKI's devices (the real Hopper transcript,
// re-signed by the test leaves with each request's nonce: tests/js/support/ocsp-responder.mjs),
// so that the worker verifies each request's evidence, as in production, and its memo holds
// only what repeats across requests (the CA certificates' checks). The probe replays one
// recorded request's calls: a P-384 verify or sign costs the same whatever the bytes.
// Requests ask for `accept-encoding: identity`: no gzip inside
// workerd, as on Cloudflare, where the edge compresses outside the worker's CPU time. Imported keys are kept across requests in both, as the
// worker keeps them. The calls are recorded from the same request through the package's own
// handleRequest in Node, with a recording crypto.subtle.
//
// CPU: each workerd process's CPU time (the sum over its threads of /proc/<pid>/task/<tid>/
// schedstat, nanoseconds), read around each request, so it counts the worker's own work and
// none of this client's. Rounds alternate real, probe, real, probe, ...; medians and the ratio.
// Wall-clock latency (client side) is reported beside it.
//
// Run after `bash pkg-config/build.sh`:  node tests/bench/worker-attest.mjs [rounds=40]
// WARM_UP=N (default 20) requests of each kind first. After 20 the worker's wasm is still
// mostly unoptimised (V8 tiers wasm up by use: its non-signature CPU in workerd falls about
// half over the first ~2000 requests); WARM_UP=300 measures the steady state.
// (EDGEATTEST_BENCH_ROOT=/path/to/checkout: measure that checkout's build instead.)
// Prints a table and one line per figure for pkg-config/bench.sh:
//   BENCH worker-attest.<request>.cpu <worker ms> <probe ms> <ratio> <=1.10
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { webcrypto } from 'node:crypto';
import { Miniflare } from 'miniflare';
import { pathToFileURL } from 'node:url';
import { freshSigningKeyPem, startWorker } from '../js/support/worker.mjs';
import { pkiText, testDevice } from '../js/support/ocsp-responder.mjs';
import { workerdPids } from './support.mjs';
import { assetsOptions } from '../../pkg-config/worker-options.mjs';

// EDGEATTEST_BENCH_ROOT: another checkout whose build (pkg/, target/worker/) is measured
// instead of this one's, e.g. a commit before a change, with this same script.
const ROOT = process.env.EDGEATTEST_BENCH_ROOT
  ? pathToFileURL(`${process.env.EDGEATTEST_BENCH_ROOT.replace(/\/?$/, '/')}`)
  : new URL('../../', import.meta.url);
const { AttestationService, handleRequest, importSigningKey } = await import(new URL('pkg/service/index.js', ROOT));
const { buildAttestRequest } = await import(new URL('pkg/index.js', ROOT));
const WORKER_ROOT = new URL('target/worker/', ROOT).pathname;

const rounds = Number(process.argv[2] ?? 40);
const WARM_UP = Number(process.env.WARM_UP ?? 20);
// The test PKI and its RIMs, in the worker and in the recording alike: no bundled RIM, no
// source (startWorker turns the RIM service and OCSP off).
const PKI = new URL('../fixtures/generated/ocsp/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('rims/manifest.json', PKI), 'utf8'));
const RIM_DOCUMENTS = ['driver', 'vbios'].map((kind) => ({
  name: `${manifest[kind]}.xml`, xml: readFileSync(new URL(`rims/${manifest[kind]}.xml`, PKI), 'utf8'),
}));
const ANCHORS = { trustAnchors: pkiText('root.pem'), rimTrustAnchors: pkiText('rim_root.pem') };
const BINDINGS = {
  EDGEATTEST_TRUST_ANCHORS: ANCHORS.trustAnchors,
  EDGEATTEST_RIM_TRUST_ANCHORS: ANCHORS.rimTrustAnchors,
  EDGEATTEST_BUNDLED_RIMS: 'off',
  EDGEATTEST_RIM_DOCUMENTS: JSON.stringify(RIM_DOCUMENTS),
};

const DEVICES = { '1gpu': ['good'], '8gpu': Array.from({ length: 8 }, (_, n) => `node_${n}`) };
/** A V4 request (claims 3.0) of `stems`' devices, all asked with one new nonce. */
async function freshBody(stems) {
  const nonce = webcrypto.getRandomValues(Buffer.alloc(32)).toString('hex');
  const devices = await Promise.all(stems.map((stem) => testDevice(stem, webcrypto.subtle, nonce)));
  return JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: devices, claimsVersion: '3.0' }));
}
// Every request's body, made before any is timed: warm-up, rounds, and the recording's two.
const bodies = {};
for (const [name, stems] of Object.entries(DEVICES)) {
  bodies[name] = [];
  for (let i = 0; i < 2 * (WARM_UP + rounds) + 2; i++) bodies[name].push(await freshBody(stems));
}

const b64 = (bytes) => Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString('base64');

/**
 * The WebCrypto calls one warm request makes, recorded through handleRequest with the
 * worker's configuration (the test PKI and its RIMs, no RIM service, no OCSP): verify batches
 * (each a parallel Promise.all of the core's checks) and sign inputs. `warm`: a request
 * before it, with another nonce.
 */
async function record(pem, warm, body, origin) {
  const { privateKey, publicJwk } = await importSigningKey(pem);
  const service = new AttestationService({ publicKey: publicJwk, rimServiceUrl: null, ocspUrl: null, ...ANCHORS });
  for (const { name, xml } of RIM_DOCUMENTS) service.addRim(name, xml);
  const real = webcrypto.subtle;
  const calls = [];
  const raw = new WeakMap(); // imported key -> its SEC1 bytes (the keys are not extractable)
  const subtle = {
    async importKey(format, data, ...rest) {
      const key = await real.importKey(format, data, ...rest);
      raw.set(key, b64(data));
      return key;
    },
    async verify(algorithm, key, signature, message) {
      const call = { kind: 'verify', publicKey: raw.get(key), signature: b64(signature), message: b64(message) };
      calls.push(call);
      call.ok = await real.verify(algorithm, key, signature, message);
      return call.ok;
    },
    sign(algorithm, key, input) {
      calls.push({ kind: 'sign', input: b64(input) });
      return real.sign(algorithm, key, input);
    },
  };
  // The exchange asks for one step at a time: calls between two of its steps are one batch.
  const steps = [];
  const request = (text) => ({ method: 'POST', path: '/v4/attest/gpu', origin, headers: [['content-type', 'application/json']], body: new TextEncoder().encode(text) });
  const recordingService = new Proxy(service, {
    get(target, name) {
      if (name !== 'begin') return Reflect.get(target, name).bind?.(target) ?? Reflect.get(target, name);
      return (...args) => {
        const exchange = target.begin(...args);
        return new Proxy(exchange, {
          get(inner, key) {
            const value = Reflect.get(inner, key);
            if (key !== 'step') return typeof value === 'function' ? value.bind(inner) : value;
            return () => {
              steps.push(calls.length);
              return inner.step();
            };
          },
        });
      };
    },
  });
  // The worker's steady state: a request after the first, whose checks of the CA
  // certificates the service's memo holds (the bench warms the worker up the same way), and
  // whose evidence is new.
  const first = await handleRequest(service, request(warm), { signingKey: privateKey, subtle: real, backend: 'webcrypto' });
  if (first.status !== 200) throw new Error(`recording: first status ${first.status}`);
  const answer = await handleRequest(recordingService, request(body), { signingKey: privateKey, subtle, backend: 'webcrypto' });
  service.free();
  if (answer.status !== 200) throw new Error(`recording: status ${answer.status}`);
  const batches = [];
  for (let i = 0; i < steps.length; i++) {
    const batch = calls.slice(steps[i], steps[i + 1] ?? calls.length);
    if (batch.length) batches.push(batch);
  }
  if (calls.some((call) => call.kind === 'verify' && !call.ok)) throw new Error('recording: a check failed');
  return { batches, answer: b64(answer.body), answerBytes: answer.body.length, verifies: calls.filter((c) => c.kind === 'verify').length, signs: calls.filter((c) => c.kind === 'sign').length };
}

// The probe: reads the body as the worker does, replays the recorded batches with keys
// imported once per isolate (as the worker's key cache keeps them), answers as many bytes.
const PROBE = `
const ECDSA = { name: 'ECDSA', namedCurve: 'P-384' };
const ES384 = { name: 'ECDSA', hash: 'SHA-384' };
const bytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
let ready;
async function prepare(env) {
  const recordings = JSON.parse(env.RECORDINGS);
  const pem = env.SIGNING_KEY.replace(/-----[^-]+-----|\\s/g, '');
  const signingKey = await crypto.subtle.importKey('pkcs8', bytes(pem), ECDSA, false, ['sign']);
  const keys = new Map();
  const out = {};
  for (const [name, { batches, answer }] of Object.entries(recordings)) {
    const prepared = [];
    for (const batch of batches) {
      const calls = [];
      for (const call of batch) {
        if (call.kind === 'sign') { calls.push({ sign: bytes(call.input) }); continue; }
        let key = keys.get(call.publicKey);
        if (!key) keys.set(call.publicKey, key = await crypto.subtle.importKey('raw', bytes(call.publicKey), ECDSA, false, ['verify']));
        calls.push({ key, signature: bytes(call.signature), message: bytes(call.message) });
      }
      prepared.push(calls);
    }
    out[name] = { batches: prepared, answer: bytes(answer) };
  }
  return { signingKey, recordings: out };
}
export default {
  async fetch(request, env) {
    ready ??= prepare(env);
    const { signingKey, recordings } = await ready;
    const body = new Uint8Array(await request.arrayBuffer());
    const recording = recordings[new URL(request.url).searchParams.get('replay')];
    for (const batch of recording.batches) {
      const results = await Promise.all(batch.map((call) => call.sign
        ? crypto.subtle.sign(ES384, signingKey, call.sign).then((s) => s.byteLength === 96)
        : crypto.subtle.verify(ES384, call.key, call.signature, call.message)));
      if (!results.every(Boolean)) return new Response('replay failed', { status: 500 });
    }
    return new Response(body.length ? recording.answer : null, { headers: { 'content-type': 'application/json' } });
  },
};
`;


/** CPU nanoseconds the threads of `pids` have run (schedstat: nanosecond resolution). */
function cpuNs(pids) {
  let sum = 0;
  for (const pid of pids) {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        sum += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // a thread that ended between the listing and the read
      }
    }
  }
  return sum;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const pem = await freshSigningKeyPem();
const real = await startWorker({ bindings: { EDGEATTEST_SIGNING_KEY: pem, ...BINDINGS }, rootPath: WORKER_ROOT, modulesRoot: WORKER_ROOT });
const realPids = workerdPids();
// Recorded with the worker's origin: the tokens name it as their issuer.
const recordings = {};
for (const [name, list] of Object.entries(bodies)) recordings[name] = await record(pem, list.pop(), list.pop(), real.origin);
const probeMf = new Miniflare({
  host: '127.0.0.1',
  port: 0,
  modules: true,
  script: PROBE,
  compatibilityDate: '2025-01-01',
  // The worker's own assets and router configuration: the same router work per request.
  assets: assetsOptions(WORKER_ROOT),
  bindings: { RECORDINGS: JSON.stringify(recordings), SIGNING_KEY: pem },
});
const probeOrigin = (await probeMf.ready).origin;
const probePids = workerdPids().filter((pid) => !realPids.includes(pid));
if (!realPids.length || !probePids.length) throw new Error('no workerd process found for one of the workers');

const samples = {};
try {
  const targets = {
    worker: { pids: realPids, url: () => `${real.origin}/v4/attest/gpu` },
    probe: { pids: probePids, url: (name) => `${probeOrigin}/v4/attest/gpu?replay=${name}` },
  };
  const post = async (who, name) => {
    const { pids, url } = targets[who];
    const cpu = cpuNs(pids);
    const t = performance.now();
    // identity: no gzip of the answer inside workerd (on Cloudflare the edge compresses,
    // outside the worker's CPU time).
    // Worker and probe each take a body never sent before.
    const response = await fetch(url(name), { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' }, body: bodies[name].pop() });
    const answer = await response.arrayBuffer();
    const wall = performance.now() - t;
    const used = cpuNs(pids) - cpu;
    if (response.status !== 200) throw new Error(`${who} ${name}: status ${response.status}: ${Buffer.from(answer).toString().slice(0, 200)}`);
    if (who === 'worker' && answer.byteLength !== recordings[name].answerBytes) {
      // Same claims, same size; a different size means the recording is not this request's.
      throw new Error(`worker ${name}: ${answer.byteLength} bytes, the recording's answer had ${recordings[name].answerBytes}`);
    }
    return { cpu: used / 1e6, wall };
  };
  for (const name of Object.keys(bodies)) {
    for (let i = 0; i < WARM_UP; i++) for (const who of ['worker', 'probe']) await post(who, name);
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(bodies)) {
      for (const who of round % 2 ? ['probe', 'worker'] : ['worker', 'probe']) {
        const { cpu, wall } = await post(who, name);
        (samples[`${who}|${name}|cpu`] ??= []).push(cpu);
        (samples[`${who}|${name}|wall`] ??= []).push(wall);
      }
    }
  }
} finally {
  await real.stop();
  await probeMf.dispose();
}

console.log(`worker-attest (${new URL('.', ROOT).pathname}): ${rounds} rounds alternating worker and probe; CPU = workerd process CPU (schedstat) per request`);
console.log('| request | verify + sign calls | worker CPU ms | probe CPU ms | CPU ratio | worker wall ms | probe wall ms | wall ratio |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
const lines = [];
for (const name of Object.keys(bodies)) {
  const m = (who, what) => median(samples[`${who}|${name}|${what}`]);
  const cpuRatio = m('worker', 'cpu') / m('probe', 'cpu');
  const wallRatio = m('worker', 'wall') / m('probe', 'wall');
  const { verifies, signs } = recordings[name];
  console.log(`| ${name} | ${verifies} + ${signs} | ${m('worker', 'cpu').toFixed(2)} | ${m('probe', 'cpu').toFixed(2)} | ${cpuRatio.toFixed(2)} | ${m('worker', 'wall').toFixed(2)} | ${m('probe', 'wall').toFixed(2)} | ${wallRatio.toFixed(2)} |`);
  lines.push(`BENCH worker-attest.${name}.cpu ${m('worker', 'cpu').toFixed(2)}ms ${m('probe', 'cpu').toFixed(2)}ms ${cpuRatio.toFixed(3)} <=1.10`);
}
for (const line of lines) console.log(line);
