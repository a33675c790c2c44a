// appraiseRego(result, policy) in the Rego module (pkg/rego/, `edgeattest/rego`): the Rego
// translations of NVIDIA's JSON policies decide as `appraise` does on the same objects
// verifyAttestationResult returns (a real NRAS result, a refused one, a re-signed real Hopper
// device with one claim changed), the minimum-driver example, NVIDIA's own Rego v0 policies,
// and the coded refusals of hostile policies; the other modules do not carry it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import {
  EdgeAttestError, appraise, createDetachedEat, createJwks, generateKeyPair, signJwt,
  verifyAttestationResult,
} from '../../pkg/index.js';
import * as rego from '../../pkg/rego/index.js';
import * as service from '../../pkg/service/index.js';
import * as remote from '../../pkg/index.js';
import * as local from '../../pkg/local/index.js';
import { capture } from './support/fixtures.mjs';

const fixtures = new URL('../fixtures/', import.meta.url);
const text = (path) => readFileSync(new URL(path, fixtures), 'utf8');
const json = (path) => JSON.parse(text(path));
const jsonPolicy = (name) => text(`nvidia/policies/nvtrust/${name}.json`);
const regoPolicy = (name) => text(`policies/rego/${name}.rego`);
const NONCE = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const NOW = 1_800_000_000;
const times = { iss: 'https://edgeattest.test', iat: NOW, nbf: NOW, exp: NOW + 3600, jti: 'j' };

async function hopperResult(edit = () => {}) {
  const { privateKey, publicJwk } = await generateKeyPair({ kid: 'k', backend: 'software' });
  const claims = { ...json('nvidia/nras/nvat/hopperClaimsv3_decoded.json')['GPU-0'], ...times };
  edit(claims);
  const device = await signJwt(claims, privateKey, { kid: 'k' });
  const overall = {
    sub: 'NVIDIA-PLATFORM-ATTESTATION', ...times, 'x-nvidia-ver': '3.0',
    'x-nvidia-overall-att-result': true, eat_nonce: NONCE,
  };
  const result = await createDetachedEat(overall, { 'GPU-0': device }, privateKey, { kid: 'k' });
  const jwks = createJwks([{ kid: 'k', key: publicJwk }]);
  return verifyAttestationResult(result, jwks, { nonce: NONCE, now: NOW, allowFailedResult: true, signers: 'any' });
}

// Failed rules as [scope, path, expected, found, status], sorted.
const failures = (decision) => [
  ...decision.overall.filter((r) => r.status !== 'pass').map((r) => [null, r]),
  ...decision.devices.flatMap((d) => d.rules.filter((r) => r.status !== 'pass').map((r) => [d.label, r])),
].map(([scope, r]) => JSON.stringify([scope, r.path, r.expected, r.found, r.status])).sort();

function agree(name, result) {
  const byJson = appraise(result, jsonPolicy(name));
  const byRego = rego.appraiseRego(result, regoPolicy(name));
  assert.equal(byRego.version, 'rego');
  assert.equal(byRego.passed, byJson.passed, name);
  assert.deepEqual(byRego.devices.map((d) => [d.label, d.passed]), byJson.devices.map((d) => [d.label, d.passed]), name);
  assert.deepEqual(failures(byRego), failures(byJson), name);
  return byRego;
}

test('a real 8-GPU NRAS result: the Rego translation passes it as the JSON policy does', async () => {
  const c = capture('v3_8gpu_success_20260629');
  const result = await verifyAttestationResult(c.response, c.jwks, { nonce: c.nonce, now: c.iat });
  const decision = agree('remote_v3_NVGPURemotePolicyExample', result);
  assert.equal(decision.passed, true);
  assert.deepEqual(decision.devices.map((d) => d.label), ['GPU-0', 'GPU-1', 'GPU-2', 'GPU-3', 'GPU-4', 'GPU-5', 'GPU-6', 'GPU-7']);
  // Bytes work as text does.
  assert.equal(rego.appraiseRego(result, new TextEncoder().encode(regoPolicy('remote_v3_NVGPURemotePolicyExample'))).passed, true);
});

test('a refused result and one changed claim fail the same rules in both formats', async () => {
  const c = capture('v3_8gpu_nonce_mismatch_20260520');
  const error = await verifyAttestationResult(c.response, c.jwks, { nonce: c.nonce, now: c.iat }).catch((e) => e);
  assert.equal(error.code, 'ERR_ATTESTATION_FAILED');
  assert.equal(agree('remote_v3_NVGPURemotePolicyExample', error.result).passed, false);
  assert.equal(agree('remote_v4_NVGPURemotePolicyExample', await hopperResult()).passed, true);
  const changed = await hopperResult((c) => { c['x-nvidia-gpu-vbios-rim-cert-chain']['x-nvidia-cert-status'] = 'expired'; });
  const decision = agree('remote_v4_NVGPURemotePolicyExample', changed);
  assert.deepEqual(decision.devices[0].rules, [{
    path: '/x-nvidia-gpu-vbios-rim-cert-chain/x-nvidia-cert-status', expected: 'valid', found: 'expired', status: 'mismatch',
  }]);
});

test('the minimum-driver example compares dot components as numbers', async () => {
  const policy = regoPolicy('minimum_driver_version');
  assert.equal(rego.appraiseRego(await hopperResult(), policy).passed, true); // 550.90.07
  for (const [version, passes] of [['535.104.05', true], ['535.104.4', false], ['535.99.99', false], ['1000.0', true], ['535.x.05', false]]) {
    const result = await hopperResult((c) => { c['x-nvidia-gpu-driver-version'] = version; });
    assert.equal(rego.appraiseRego(result, policy).passed, passes, version);
  }
});

test("NVIDIA's own Rego v0 policies run unchanged and allow what they say", async () => {
  const nvat = (name) => text(`nvidia/policies/nvat/${name}.rego`);
  // NVIDIA's SDK adds these OCSP members to every chain claim; its policies require them.
  const withSdkMembers = (edit = () => {}) => hopperResult((c) => {
    for (const [name, chain] of Object.entries(c)) {
      if (name.endsWith('-cert-chain')) Object.assign(chain, { 'x-nvidia-cert-ocsp-nonce-matches': true, 'x-nvidia-cert-ocsp-response-valid': true });
    }
    edit(c);
  });
  const revoked = await withSdkMembers((c) => { c['x-nvidia-gpu-driver-rim-cert-chain']['x-nvidia-cert-ocsp-status'] = 'revoked'; });
  assert.equal(rego.appraiseRego(await withSdkMembers(), nvat('overall_result_evaluator')).passed, true);
  assert.equal(rego.appraiseRego(revoked, nvat('overall_result_evaluator')).passed, false);
  assert.equal(rego.appraiseRego(revoked, nvat('allow_gpu_driver_rim_cert_revoked')).passed, true);
  assert.equal(rego.appraiseRego(revoked, nvat('allow_gpu_driver_rim_cert_unknown')).passed, false);
  // The claims as NRAS recorded them lack the SDK's members: refused, not passed.
  assert.equal(rego.appraiseRego(await hopperResult(), nvat('overall_result_evaluator')).passed, false);
  assert.equal(rego.appraiseRego(await hopperResult(), nvat('rp-policy-permissive')).passed, true);
  assert.equal(rego.appraiseRego(await hopperResult(), nvat('switch_relying_party_policy')).passed, false);
});

test('the page list holds every translation, the example and NVIDIA\'s own, as in the fixtures', () => {
  const page = JSON.parse(readFileSync(new URL('../../www/samples/policies-rego.json', import.meta.url), 'utf8'));
  assert.equal(page.policies.length, 23);
  for (const p of page.policies) assert.equal(p.policy, text(p.file.replace('tests/fixtures/', '')), p.id);
});

test('hostile and malformed policies throw coded errors', async () => {
  const result = await hopperResult();
  const head = 'package policy\nimport rego.v1\n';
  const cases = [
    [`${head}nv_match if count([x | some x in numbers.range(1, 100000000)]) > 0`, 'ERR_REGO_BUILTIN'],
    // Any spelling that reaches a builtin is checked on the compiled program.
    [`${head}nv_match if count(numbers["range"](1, 100000000)) > 0`, 'ERR_REGO_BUILTIN'],
    // A value doubled 40 times by sharing, compared once: charged by its size.
    [`${head}${Array.from({ length: 40 }, (_, i) => `a${i + 1} := [a${i}, a${i}]\nb${i + 1} := [b${i}, b${i}]\n`).join('')}a0 := [1, 2]\nb0 := [1, 2]\nnv_match if a40 == b40`, 'ERR_REGO_BUDGET'],
    [`${head}letters := split("abcdefghijklmnopqrstuvwxyz", "")\nxs := [[a, b, c, d] |\n some a in letters\n some b in letters\n some c in letters\n some d in letters\n]\nnv_match if count(xs) > 0`, 'ERR_REGO_BUDGET'],
    [`${head}nv_match if a\na if b\nb if a`, ['ERR_REGO_RECURSION', 'ERR_REGO_BUDGET']],
    [`${head}x := ${'['.repeat(30)}1${']'.repeat(30)}\nnv_match := true`, 'ERR_REGO_TOO_DEEP'],
    [`${head}nv_match if {`, 'ERR_REGO_PARSE'],
    [`${head}nv_match := "yes"`, 'ERR_REGO_RESULT'],
    [`${head}nv_match := true\n# ${'x'.repeat(70_000)}`, 'ERR_POLICY_TOO_LARGE'],
  ];
  for (const [policy, code] of cases) {
    assert.throws(() => rego.appraiseRego(result, policy), (e) => {
      assert.ok(e instanceof EdgeAttestError && e instanceof rego.EdgeAttestError, String(e));
      assert.ok([code].flat().includes(e.code), `${e.code}: ${e.message}`);
      return true;
    });
  }
  for (const bad of [null, 'text', {}, { format: 'detached', overall: {}, devices: [] }]) {
    assert.throws(() => rego.appraiseRego(bad, `${head}nv_match := true`), (e) => e.code === 'ERR_INVALID_ARGUMENT' && e.field === 'result');
  }
  assert.throws(() => rego.appraiseRego(result, 42), (e) => e.code === 'ERR_INVALID_ARGUMENT' && e.field === 'policy');
});

test('only the Rego module has appraiseRego, and it has nothing else of the package', () => {
  for (const other of [service, remote, local]) assert.equal(other.appraiseRego, undefined);
  assert.equal(appraise.name === 'appraise' && typeof rego.appraiseRego, 'function');
  assert.deepEqual(Object.keys(rego).sort(), ['EdgeAttestError', 'RegoPolicy', 'appraiseRego', 'init', 'prepareRegoPolicy']);
});

// The Rego translations in the fixtures, by name.
const translations = () => readdirSync(new URL('policies/rego/', fixtures))
  .filter((file) => file.endsWith('.rego')).map((file) => file.slice(0, -'.rego'.length));

test('a prepared policy decides as its text does, for every bundled policy and result, reused across them', async () => {
  const c = capture('v3_8gpu_success_20260629');
  const refused = capture('v3_8gpu_nonce_mismatch_20260520');
  const results = [
    await verifyAttestationResult(c.response, c.jwks, { nonce: c.nonce, now: c.iat }),
    (await verifyAttestationResult(refused.response, refused.jwks, { nonce: refused.nonce, now: refused.iat }).catch((e) => e)).result,
    await hopperResult(),
    await hopperResult((claims) => { claims['x-nvidia-gpu-driver-version'] = '535.104.4'; }),
    await hopperResult((claims) => { claims['x-nvidia-gpu-vbios-rim-cert-chain']['x-nvidia-cert-status'] = 'expired'; }),
    await hopperResult((claims) => { delete claims.measres; }),
  ];
  const names = translations();
  assert.ok(names.length >= 15, names.join());
  let passed = 0;
  let failed = 0;
  for (const name of names) {
    const policy = rego.prepareRegoPolicy(regoPolicy(name));
    assert.ok(policy instanceof rego.RegoPolicy);
    assert.equal(policy.syntax, 'v1', name);
    // Each result twice, in turn: one compiled policy, many results, as many decisions.
    for (const round of [1, 2]) {
      for (const [i, result] of results.entries()) {
        const byText = (() => { try { return rego.appraiseRego(result, regoPolicy(name)); } catch (error) { return error.code; } })();
        const byPrepared = (() => { try { return policy.appraise(result); } catch (error) { return error.code; } })();
        const through = (() => { try { return rego.appraiseRego(result, policy); } catch (error) { return error.code; } })();
        assert.deepEqual(byPrepared, byText, `${name}, result ${i}, round ${round}`);
        assert.deepEqual(through, byText, `${name}, result ${i}, round ${round}`);
        if (round === 1 && typeof byText === 'object') byText.passed ? passed++ : failed++;
      }
    }
    policy.free();
  }
  // Both outcomes are covered.
  assert.ok(passed >= 2 && failed >= 20, `${passed} passed, ${failed} failed`);
  // NVIDIA's own v0 policies: prepared as v0, deciding as their text does.
  const v0 = rego.prepareRegoPolicy(text('nvidia/policies/nvat/rp-policy-permissive.rego'));
  assert.equal(v0.syntax, 'v0');
  assert.equal(v0.appraise(results[2]).passed, true);
  v0.free();
});

test('a prepared hostile policy is refused at every appraisal, and a static refusal when prepared', async () => {
  const result = await hopperResult();
  const head = 'package policy\nimport rego.v1\n';
  const doubling = `${head}${Array.from({ length: 40 }, (_, i) => `a${i + 1} := [a${i}, a${i}]\nb${i + 1} := [b${i}, b${i}]\n`).join('')}a0 := [1, 2]\nb0 := [1, 2]\nnv_match if a40 == b40`;
  const crossProduct = `${head}letters := split("abcdefghijklmnopqrstuvwxyz", "")\nxs := [[a, b, c, d] |\n some a in letters\n some b in letters\n some c in letters\n some d in letters\n]\nnv_match if count(xs) > 0`;
  for (const hostile of [doubling, crossProduct]) {
    const policy = rego.prepareRegoPolicy(hostile);
    for (let i = 0; i < 3; i++) {
      assert.throws(() => policy.appraise(result), (e) => e.code === 'ERR_REGO_BUDGET', `call ${i}`);
      assert.throws(() => rego.appraiseRego(result, policy), (e) => e.code === 'ERR_REGO_BUDGET', `call ${i}`);
    }
    policy.free();
  }
  // No appraisal inherits what another spent: a loop of more than half the instruction budget
  // (refused when run twice in one appraisal) passes at every call.
  const halfBudget = `${head}l := split("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN", "")\nloop(x) if { every a in l { every b in l { every c in l { a != x } } } }\n`;
  assert.throws(() => rego.appraiseRego(result, `${halfBudget}nv_match if { loop("-"); loop("+") }`), (e) => e.code === 'ERR_REGO_BUDGET');
  const once = rego.prepareRegoPolicy(`${halfBudget}nv_match if loop("-")`);
  for (let i = 0; i < 3; i++) assert.equal(once.appraise(result).passed, true, `call ${i}`);
  once.free();
  for (const [policy, code] of [
    [`${head}nv_match if count([x | some x in numbers.range(1, 100000000)]) > 0`, 'ERR_REGO_BUILTIN'],
    [`${head}x := ${'['.repeat(30)}1${']'.repeat(30)}\nnv_match := true`, 'ERR_REGO_TOO_DEEP'],
    [`${head}nv_match if {`, 'ERR_REGO_PARSE'],
    [`${head}allow := true`, 'ERR_REGO_RESULT'],
    [`${head}nv_match := true\n# ${'x'.repeat(70_000)}`, 'ERR_POLICY_TOO_LARGE'],
    [42, 'ERR_INVALID_ARGUMENT'],
  ]) {
    assert.throws(() => rego.prepareRegoPolicy(policy), (e) => e instanceof rego.EdgeAttestError && e.code === code, code);
  }
  // A result that is not verified data, with a prepared policy.
  const policy = rego.prepareRegoPolicy(`${head}nv_match := true`);
  assert.throws(() => policy.appraise({}), (e) => e.code === 'ERR_INVALID_ARGUMENT' && e.field === 'result');
  assert.throws(() => rego.appraiseRego(null, policy), (e) => e.code === 'ERR_INVALID_ARGUMENT' && e.field === 'result');
  policy.free();
});

test('a freed RegoPolicy throws a coded error, and RegoPolicy has no constructor', async () => {
  const result = await hopperResult();
  const policy = rego.prepareRegoPolicy(regoPolicy('remote_v4_NVGPURemotePolicyExample'));
  assert.equal(policy.appraise(result).passed, true);
  policy.free();
  const freed = (e) => e instanceof rego.EdgeAttestError && e.code === 'ERR_INVALID_ARGUMENT';
  assert.throws(() => policy.appraise(result), freed);
  assert.throws(() => rego.appraiseRego(result, policy), freed);
  assert.throws(() => policy.syntax, freed);
  assert.throws(() => new rego.RegoPolicy(), (e) => freed(e) && /RegoPolicy has no constructor/.test(e.message));
  // The module still works.
  assert.equal(rego.appraiseRego(result, regoPolicy('remote_v4_NVGPURemotePolicyExample')).passed, true);
});
