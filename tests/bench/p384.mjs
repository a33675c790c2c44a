// One ECDSA P-384/SHA-384 verify with the software backend (P-384 in wasm, for hosts without
// WebCrypto), through the package's software path (verifyChecksSoftware, as token and
// evidence verification run it), beside two yardsticks in the same run, alternating rounds
// (A, B, C, A, B, C, ...), medians:
//   - webcrypto: crypto.subtle.verify in Node with the key imported beforehand, one at a time;
//   - native: node:crypto verify (OpenSSL, synchronous), the floor of a native verify.
// The check is a real one: a Hopper device's evidence signature (leaf key, its transcript).
//
//   bash pkg-config/build.sh && node tests/bench/p384.mjs
//
// Environment: BENCH_ROUNDS (default 15), BENCH_ROUND_MS (default 150), EDGEATTEST_PKG
// another pkg/ dir (to compare builds). Target (issue 19, item 4): software <= 2.0 ms.
// One machine-readable line per result: `BENCH <name> <ms> <yardstick ms> <ratio>`.
import { readFileSync } from 'node:fs';
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { localEntry, median, measure } from './support.mjs';

const { prepareEvidence, verifyChecksSoftware } = await localEntry(process.env.EDGEATTEST_PKG);

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 150);
const TARGET_MS = 2.0;

const root = new URL('../fixtures/nvidia/evidence/hopper/', import.meta.url);
const batch = prepareEvidence({
  nonce: '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb',
  arch: 'HOPPER',
  now: 1_790_000_000,
  devices: [{
    evidence: Buffer.from(readFileSync(new URL('nvtrust_hopper_550.90.07_report.hex', root), 'utf8').trim(), 'hex').toString('base64'),
    certificate: readFileSync(new URL('nvtrust_hopper_550.90.07_certchain.pem', root), 'utf8'),
  }],
});
const checks = batch.signatureChecks();
batch.free();
const check = checks.at(-1); // the evidence signature: the leaf key over the transcript
const bad = { ...check, signature: Uint8Array.from(check.signature, (b, i) => (i === 95 ? b ^ 1 : b)) };

const subtle = globalThis.crypto.subtle;
const key = await subtle.importKey('raw', check.publicKey, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['verify']);
const x = Buffer.from(check.publicKey.subarray(1, 49)).toString('base64url');
const y = Buffer.from(check.publicKey.subarray(49)).toString('base64url');
const nodeKey = createPublicKey({ key: { kty: 'EC', crv: 'P-384', x, y }, format: 'jwk' });

// Every arm must give the right answer, both ways, before it is timed.
const agree = async () => {
  const soft = verifyChecksSoftware([check, bad]);
  const web = [await subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, key, check.signature, check.message),
    await subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, key, bad.signature, bad.message)];
  const native = [check, bad].map((c) => nodeVerify('sha384', c.message, { key: nodeKey, dsaEncoding: 'ieee-p1363' }, c.signature));
  for (const v of [soft, web, native]) if (v[0] !== true || v[1] !== false) throw new Error(`verdicts disagree: ${JSON.stringify({ soft, web, native })}`);
};
await agree();

const arms = {
  software: () => { if (!verifyChecksSoftware([check])[0]) throw new Error('software verify failed'); },
  webcrypto: async () => { if (!(await subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, key, check.signature, check.message))) throw new Error('webcrypto verify failed'); },
  native: () => { if (!nodeVerify('sha384', check.message, { key: nodeKey, dsaEncoding: 'ieee-p1363' }, check.signature)) throw new Error('native verify failed'); },
};

const counts = {};
for (const [name, fn] of Object.entries(arms)) {
  for (let i = 0; i < 10; i++) await fn();
  counts[name] = Math.max(1, Math.round(ROUND_MS / Math.max(await measure(fn, 10), 0.005)));
}
const samples = Object.fromEntries(Object.keys(arms).map((n) => [n, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, fn] of Object.entries(arms)) samples[name].push(await measure(fn, counts[name]));
}
const [soft, web, native] = ['software', 'webcrypto', 'native'].map((n) => median(samples[n]));

console.log(`node ${process.version}; one P-384/SHA-384 verify (message ${check.message.length} B); ${ROUNDS} alternating rounds, medians`);
console.log(`software (wasm)  ${soft.toFixed(3)} ms  (target <= ${TARGET_MS} ms: ${soft <= TARGET_MS ? 'yes' : 'NO'})`);
console.log(`webcrypto        ${web.toFixed(3)} ms  software/webcrypto ${(soft / web).toFixed(2)}`);
console.log(`native (openssl) ${native.toFixed(3)} ms  software/native ${(soft / native).toFixed(2)}`);
console.log(`BENCH p384.software-verify.vs-webcrypto ${soft.toFixed(3)} ${web.toFixed(3)} ${(soft / web).toFixed(3)}`);
console.log(`BENCH p384.software-verify.vs-native ${soft.toFixed(3)} ${native.toFixed(3)} ${(soft / native).toFixed(3)}`);
