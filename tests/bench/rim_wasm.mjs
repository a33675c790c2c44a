// RIM benchmark in wasm (Node): parse + C14N + digest (prepareRim), full verification with
// the in-wasm software backend (verifyRim) and with WebCrypto (prepareRim + crypto.subtle),
// and the comparison. Build pkg/ first (bash pkg-config/build.sh), then:
//
//   node tests/bench/rim_wasm.mjs
import { readFileSync } from 'node:fs';
import '../../pkg/index.js';
import { verifyRim, prepareRim, compareGpuRims } from '../../pkg/edgeattest.js';

const root = new URL('../fixtures/nvidia/', import.meta.url);
const text = (p) => readFileSync(new URL(p, root), 'utf8');
const NOW = 1704067200;
const options = { now: NOW };

async function measure(fn) {
  for (let i = 0; i < 3; i++) await fn();
  const samples = [];
  const start = performance.now();
  while (performance.now() - start < 1000 || samples.length < 10) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1] * 1000; // µs
}

async function webcrypto(xml) {
  const pending = prepareRim(xml, options);
  const verdicts = await Promise.all(pending.signatureChecks().map(async (c) => {
    const key = await crypto.subtle.importKey('raw', c.publicKey, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['verify']);
    return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, key, c.signature, c.message);
  }));
  return pending.finish(verdicts);
}

function blocks(path) {
  const raw = Buffer.from(text(path).trim(), 'hex');
  const r = raw.subarray(37);
  const len = r[5] | (r[6] << 8) | (r[7] << 16);
  const records = r.subarray(8, 8 + len);
  const out = {};
  for (let i = 0; i < records.length;) {
    const size = records[i + 2] | (records[i + 3] << 8);
    const valueSize = records[i + 5] | (records[i + 6] << 8);
    out[String(records[i])] = new Uint8Array(records.subarray(i + 7, i + 7 + valueSize));
    i += 4 + size;
  }
  return out;
}

const docs = [
  ['driver RIM', 'rims/nvtrust/Driver_RIM_test_no_gpu.swidtag'],
  ['VBIOS RIM', 'rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag'],
];
console.log(`edgeattest RIM benchmark (wasm in Node ${process.version}), median per call`);
for (const [label, path] of docs) {
  const xml = text(path);
  const prepare = await measure(() => prepareRim(xml, options));
  const software = await measure(() => verifyRim(xml, options));
  const web = await measure(() => webcrypto(xml));
  console.log(`  ${label.padEnd(11)} ${String(xml.length).padStart(6)} B  parse+C14N+digest ${prepare.toFixed(1).padStart(8)} µs   ` +
    `verify, wasm p384 ${software.toFixed(1).padStart(8)} µs   verify, WebCrypto ${web.toFixed(1).padStart(8)} µs`);
}
const driver = verifyRim(text(docs[0][1]), options);
const firmware = verifyRim(text(docs[1][1]), options);
const evidence = {
  measurements: blocks('evidence/hopper/gonvtrust_hopper_545.00_report.hex'),
  driverVersion: '545.00', vbiosVersion: '96.00.5E.00.01', nvdec0Status: 0x55,
};
const compare = await measure(() => {
  if (!compareGpuRims(driver, firmware, evidence).allMatch) throw new Error('mismatch');
});
console.log(`  compare driver+VBIOS (32 records)        ${compare.toFixed(1).padStart(8)} µs`);
