// Appraising a verified 8-GPU result with NVIDIA's JSON policy (`appraise`, issue 20) and with
// its Rego translation (`appraiseRego`, pkg/rego/: regorus), the Rego policy compiled per call
// (its text) and compiled once (`prepareRegoPolicy`), against the cost of verifying that result
// (`verifyAttestationResult`, WebCrypto, the key set parsed once) and against the JSON policy,
// alternating in one run: the real NRAS result of 8 H100s recorded 2026-06-29 and nvtrust's
// remote 3.0 GPU policy, through the release package (pkg/).
//   node tests/bench/policy.mjs [rounds]
import { readFileSync } from 'node:fs';
import { appraise, createKeySet, verifyAttestationResult } from '../../pkg/index.js';
import { appraiseRego, prepareRegoPolicy } from '../../pkg/rego/index.js';
import { measure, median } from './support.mjs';

const rounds = Number(process.argv[2] ?? 15);
const fixtures = new URL('../fixtures/nvidia/', import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, fixtures), 'utf8'));
const name = 'v3_8gpu_success_20260629';
const response = JSON.stringify(json(`nras/teep/${name}_response.json`));
const keys = createKeySet(json(`nras/teep/${name}_jwks.json`));
const nonce = json(`nras/teep/${name}_request.json`).nonce;
const iat = JSON.parse(Buffer.from(JSON.parse(response)[0][1].split('.')[1], 'base64url')).iat;
const policy = readFileSync(new URL('policies/nvtrust/remote_v3_NVGPURemotePolicyExample.json', fixtures), 'utf8');
const regoPolicy = readFileSync(new URL('../fixtures/policies/rego/remote_v3_NVGPURemotePolicyExample.rego', import.meta.url), 'utf8');
const options = { nonce, now: iat, backend: 'webcrypto' };

const verified = await verifyAttestationResult(response, keys, options);
const decision = appraise(verified, policy);
if (!decision.passed || decision.devices.length !== 8) throw new Error('the recorded result must pass its policy');
const regoDecision = appraiseRego(verified, regoPolicy);
if (!regoDecision.passed || regoDecision.devices.length !== 8) throw new Error('the recorded result must pass the Rego translation');
const prepared = prepareRegoPolicy(regoPolicy);
if (JSON.stringify(prepared.appraise(verified)) !== JSON.stringify(regoDecision)) throw new Error('the prepared policy must decide as the text does');

const verify = () => verifyAttestationResult(response, keys, options);
const appraiseOnce = () => appraise(verified, policy);
const appraiseRegoOnce = () => appraiseRego(verified, regoPolicy);
const appraisePreparedOnce = () => appraiseRego(verified, prepared);
for (let i = 0; i < 20; i++) { await verify(); appraiseOnce(); appraiseRegoOnce(); appraisePreparedOnce(); }
const a = [];
const b = [];
const c = [];
const d = [];
for (let r = 0; r < rounds; r++) {
  a.push(await measure(appraiseOnce, 40));
  b.push(await measure(verify, 10));
  c.push(await measure(appraiseRegoOnce, 10));
  d.push(await measure(appraisePreparedOnce, 40));
}
prepared.free();
const ours = median(a);
const yard = median(b);
const rego = median(c);
const regoPrepared = median(d);
console.log(`appraise 8 GPUs (${decision.devices.length * 17 + 2} rules): ${ours.toFixed(3)} ms; verify the same result: ${yard.toFixed(3)} ms`);
console.log(`BENCH policy.appraise-8gpu-vs-verify ${ours.toFixed(3)}ms ${yard.toFixed(3)}ms ${(ours / yard).toFixed(3)}`);
console.log(`appraise 8 GPUs with the Rego translation: ${rego.toFixed(3)} ms (${(rego / ours).toFixed(1)}x the JSON policy)`);
console.log(`BENCH policy.appraise-rego-8gpu-vs-verify ${rego.toFixed(3)}ms ${yard.toFixed(3)}ms ${(rego / yard).toFixed(3)}`);
console.log(`BENCH policy.appraise-rego-vs-json-8gpu ${rego.toFixed(3)}ms ${ours.toFixed(3)}ms ${(rego / ours).toFixed(3)}`);
console.log(`appraise 8 GPUs with the Rego translation prepared once: ${regoPrepared.toFixed(3)} ms (${(regoPrepared / ours).toFixed(1)}x the JSON policy)`);
console.log(`BENCH policy.appraise-rego-prepared-vs-json-8gpu ${regoPrepared.toFixed(3)}ms ${ours.toFixed(3)}ms ${(regoPrepared / ours).toFixed(3)} <=2`);
