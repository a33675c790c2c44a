// checkTopology / checkResultsTopology through the package: the real PPCIE node of NVIDIA's
// verifier tests (8 Hopper GPUs, 4 LS10 switches, one nonce) passes every rule; the same node
// without a switch, with a GPU given twice, or with a switch among the GPUs fails exactly the
// rules it breaks, with the links named; a tampered transcript throws its device's own code;
// bad options and results that are not verified data are refused with a code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkTopology, checkResultsTopology, verifyAttestationResult } from '../../pkg/local/index.js';

const repo = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const serialized = (name) => JSON.parse(repo(`tests/fixtures/nvidia/evidence/serialized/${name}`));
const gpuItems = serialized('nvtrust_ppcie_gpu_evidence_8gpu.json');
const switchItems = serialized('nvtrust_ppcie_switch_evidence_4sw.json');
// As NVIDIA's SDK writes them: base64 evidence, base64 of the PEM chain (the binding takes both).
const device = ({ evidence, certificate }) => ({ evidence, certificate });
const GPUS = gpuItems.map(device);
const SWITCHES = switchItems.map(device);
const NONCE = gpuItems[0].nonce;

const options = ({ gpus = GPUS, switches = SWITCHES, ...more } = {}) => ({
  gpus: { devices: gpus, nonce: NONCE, arch: 'HOPPER' },
  switches: { devices: switches, nonce: NONCE, arch: 'LS10' },
  ...more,
});
const rule = (report, id) => report.rules.find((r) => r.rule === id);
const failedIds = (report) => report.rules.filter((r) => r.status === 'failed').map((r) => r.rule);

// The real node's report, computed once: several tests read its PDIs.
const real = checkTopology(options());

test('the fixtures are one node: 8 GPUs and 4 switches answering one nonce', () => {
  assert.equal(GPUS.length, 8);
  assert.equal(SWITCHES.length, 4);
  for (const item of [...gpuItems, ...switchItems]) assert.equal(item.nonce, NONCE);
});

test('checkTopology: the real node passes, every rule as the report says', () => {
  assert.equal(real.verdict, 'passed');
  assert.deepEqual(real.failedRules, []);
  assert.equal(real.expectedGpus, 8);
  assert.equal(real.expectedSwitches, 4);
  assert.equal(real.rules.length, 14);
  for (const r of real.rules) {
    assert.ok(['passed', 'skipped'].includes(r.status), r.rule);
    assert.deepEqual(r.findings, [], r.rule);
  }
  // From evidence the GPUs' own PDIs are known: nothing is skipped.
  assert.deepEqual(real.rules.filter((r) => r.status === 'skipped'), []);
  assert.deepEqual(real.gpus.map((g) => g.label), Array.from({ length: 8 }, (_, i) => `GPU-${i}`));
  assert.deepEqual(real.switches.map((s) => s.label), ['SWITCH-0', 'SWITCH-1', 'SWITCH-2', 'SWITCH-3']);
  assert.equal(real.gpus[0].pdi, '2921CE551E4EEDA3');
  assert.equal(real.switches[0].pdi, '666E93E19DEC7D2D');
  // Every GPU lists the 4 switches; every switch lists the 8 GPUs: 32 links each way.
  const switchPdis = real.switches.map((s) => s.pdi).sort();
  const gpuPdis = real.gpus.map((g) => g.pdi).sort();
  for (const gpu of real.gpus) assert.deepEqual(gpu.links, switchPdis, gpu.label);
  for (const sw of real.switches) assert.deepEqual([...sw.links].sort(), gpuPdis, sw.label);
  assert.equal(new Set(gpuPdis).size, 8);
  assert.equal(new Set(switchPdis).size, 4);
});

test('checkTopology: a node missing SWITCH-3 fails switch-count and each GPU\'s link to it', () => {
  const missing = real.switches[3].pdi;
  const report = checkTopology(options({ switches: SWITCHES.slice(0, 3) }));
  assert.equal(report.verdict, 'failed');
  assert.deepEqual(report.failedRules, ['switch-count', 'gpu-switch-present']);
  assert.deepEqual(failedIds(report), report.failedRules);
  assert.deepEqual(rule(report, 'switch-count').findings.map((f) => f.message), ['3 switches given, 4 expected']);
  assert.deepEqual(
    rule(report, 'gpu-switch-present').findings.map(({ gpu, switch: sw, pdi }) => ({ gpu, switch: sw, pdi })),
    Array.from({ length: 8 }, (_, i) => ({ gpu: `GPU-${i}`, switch: null, pdi: missing })),
  );
  for (const f of rule(report, 'gpu-switch-present').findings) assert.ok(f.message.length > 0);
});

test('checkTopology: a GPU given twice fails gpu-unique, and the switches list one GPU not attested', () => {
  // GPU-6's evidence replaced by GPU-7's: still 8 reports, which NVIDIA's rules all pass.
  const report = checkTopology(options({ gpus: [...GPUS.slice(0, 6), GPUS[7], GPUS[7]] }));
  assert.equal(report.verdict, 'failed');
  assert.deepEqual(report.failedRules, ['gpu-unique', 'switch-gpu-present']);
  const [unique] = rule(report, 'gpu-unique').findings;
  assert.equal(unique.gpu, 'GPU-7');
  assert.equal(unique.pdi, real.gpus[7].pdi);
  assert.deepEqual(
    rule(report, 'switch-gpu-present').findings.map(({ gpu, switch: sw, pdi }) => ({ gpu, switch: sw, pdi })),
    Array.from({ length: 4 }, (_, i) => ({ gpu: null, switch: `SWITCH-${i}`, pdi: real.gpus[6].pdi })),
  );
  // NVIDIA's own rules (counts, consistency) pass it: only edgeattest's GPU side catches it.
  for (const id of ['gpu-count', 'switch-count', 'gpu-switch-count', 'switch-gpu-count', 'gpu-switch-consistent', 'switch-gpu-consistent']) {
    assert.equal(rule(report, id).status, 'passed', id);
  }
});

test('checkTopology: expected counts are the caller\'s', () => {
  // 3 switches expected: the count passes, but every GPU still lists a fourth.
  const report = checkTopology(options({ switches: SWITCHES.slice(0, 3), expectedSwitches: 3 }));
  assert.equal(report.expectedSwitches, 3);
  assert.equal(rule(report, 'switch-count').status, 'passed');
  assert.deepEqual(report.failedRules, ['gpu-switch-count', 'gpu-switch-present']);
  assert.equal(report.verdict, 'failed');
});

test('checkTopology: a switch among the GPUs is ERR_TOPOLOGY_WRONG_DEVICE', () => {
  // Given with its own arch, a switch verifies, and the topology refuses it among the GPUs.
  assert.throws(
    () => checkTopology({ ...options(), gpus: { devices: SWITCHES, nonce: NONCE, arch: 'LS10' } }),
    (e) => e.code === 'ERR_TOPOLOGY_WRONG_DEVICE' && /GPU-0/.test(e.message),
  );
  assert.throws(
    () => checkTopology({ ...options(), switches: { devices: GPUS, nonce: NONCE, arch: 'HOPPER' } }),
    (e) => e.code === 'ERR_TOPOLOGY_WRONG_DEVICE' && /SWITCH-0/.test(e.message),
  );
  // Under the GPUs' arch it does not verify at all: its own code, naming it.
  assert.throws(
    () => checkTopology({ ...options(), gpus: { devices: [GPUS[0], SWITCHES[0], ...GPUS.slice(2)], nonce: NONCE, arch: 'HOPPER' } }),
    (e) => e.code === 'ERR_EVIDENCE_ARCH_MISMATCH' && /^GPU-1: /.test(e.message),
  );
});

test('checkTopology: a tampered GPU transcript throws its own code, naming the GPU', () => {
  const bytes = Buffer.from(GPUS[3].evidence, 'base64');
  bytes[bytes.length - 10] ^= 0x01; // inside the signature
  const gpus = GPUS.map((d, i) => (i === 3 ? { ...d, evidence: bytes.toString('base64') } : d));
  assert.throws(() => checkTopology(options({ gpus })), (e) => {
    assert.equal(e.code, 'ERR_EVIDENCE_SIGNATURE');
    assert.match(e.message, /^GPU-3: /);
    return true;
  });
  // A byte of the measurements, under the signature: the same refusal.
  const body = Buffer.from(GPUS[5].evidence, 'base64');
  body[200] ^= 0x01;
  const other = GPUS.map((d, i) => (i === 5 ? { ...d, evidence: body.toString('base64') } : d));
  assert.throws(() => checkTopology(options({ gpus: other })), (e) => e.code === 'ERR_EVIDENCE_SIGNATURE' && /^GPU-5: /.test(e.message));
  // A switch's too, named as a switch.
  const sw = Buffer.from(SWITCHES[2].evidence, 'base64');
  sw[sw.length - 20] ^= 0x80;
  const switches = SWITCHES.map((d, i) => (i === 2 ? { ...d, evidence: sw.toString('base64') } : d));
  assert.throws(() => checkTopology(options({ switches })), (e) => e.code === 'ERR_EVIDENCE_SIGNATURE' && /^SWITCH-2: /.test(e.message));
});

test('checkTopology: options of the wrong shape are ERR_INVALID_ARGUMENT with the field', () => {
  const refuses = (value, field) => assert.throws(() => checkTopology(value), (e) => {
    assert.equal(e.code, 'ERR_INVALID_ARGUMENT', JSON.stringify(field));
    if (field) assert.equal(e.field, field);
    return true;
  });
  refuses(options({ gpus: [{ evidence: 42, certificate: GPUS[0].certificate }, ...GPUS.slice(1)] }), 'gpus.devices[0].evidence');
  refuses({ ...options(), gpus: { devices: GPUS, arch: 'HOPPER' } }, 'gpus.nonce');
  refuses(options({ gpus: GPUS.slice(0, 1).map((d) => ({ ...d, certificate: 7 })) }), 'gpus.devices[0].certificate');
  refuses({ ...options(), switches: undefined });
  refuses(options({ unknownOption: true }), 'unknownOption');
  refuses(options({ expectedGpus: 'eight' }), 'expectedGpus');
  refuses(undefined);
  refuses('gpus');
});

test('checkResultsTopology: what is not a passed pair of one node is refused with its code', async () => {
  // Recorded results of the page's samples (TEST PKI devices; one GPU, one switch, one nonce).
  const { results } = JSON.parse(repo('www/samples/results.json'));
  const verify = (id, more = {}) => {
    const r = results.find((x) => x.id === id);
    return verifyAttestationResult(r.result, r.jwks, {
      nonce: r.nonce, now: r.recordedAt, signers: [{ certificate: r.signerAnchor }], ...more,
    });
  };
  const gpu = await verify('recorded-testpki-hopper-550.90.07');
  const sw = await verify('recorded-testpki-ls10-96.10.55.00.01');
  const tampered = await verify('recorded-testpki-hopper-tampered', { allowFailedResult: true });
  assert.equal(gpu.overallResult, true);
  assert.equal(sw.overallResult, true);
  assert.equal(tampered.overallResult, false);
  const code = (expected, field) => (e) => {
    assert.equal(e.code, expected, e.message);
    if (field) assert.equal(e.field, field);
    return true;
  };

  // Neither device is in PPCIE mode: a report, failed, never a pass.
  const report = checkResultsTopology(gpu, sw, { matchGpuPdis: false, expectedGpus: 1, expectedSwitches: 1 });
  assert.equal(report.verdict, 'failed');
  assert.deepEqual(report.failedRules, ['gpu-reports-switches', 'switch-reports-gpus', 'gpu-switch-count', 'switch-gpu-count']);
  assert.deepEqual(report.rules.filter((r) => r.status === 'skipped').map((r) => r.rule), ['switch-gpu-present', 'gpu-linked-to-switches']);
  // Results carry no GPU PDI: matching the switches' GPU lists fails unless turned off.
  const matched = checkResultsTopology(gpu, sw, { expectedGpus: 1, expectedSwitches: 1 });
  assert.equal(rule(matched, 'switch-gpu-present').status, 'failed');

  // What is not a result object at all.
  for (const value of [null, undefined, 'result', 42, {}]) {
    assert.throws(() => checkResultsTopology(value, sw, { matchGpuPdis: false }), code('ERR_INVALID_ARGUMENT', 'result'));
    assert.throws(() => checkResultsTopology(gpu, value, { matchGpuPdis: false }), code('ERR_INVALID_ARGUMENT', 'result'));
  }
  assert.throws(() => checkResultsTopology(gpu, sw, { matchGpuPdis: 'no' }), code('ERR_INVALID_ARGUMENT', 'matchGpuPdis'));
  assert.throws(() => checkResultsTopology(gpu, sw, { expectedGpu: 8 }), code('ERR_INVALID_ARGUMENT', 'expectedGpu'));
  // A verified result that did not pass (allowFailedResult kept it).
  assert.throws(() => checkResultsTopology(tampered, sw, { matchGpuPdis: false }), code('ERR_TOPOLOGY_RESULT_FAILED'));
  assert.throws(() => checkResultsTopology(gpu, tampered, { matchGpuPdis: false }), code('ERR_TOPOLOGY_RESULT_FAILED'));

  // The result is read from its data, as appraise reads it: edited copies stand for a switch
  // result of another nonce, a GPU that says it is one among the switches, and a bad PDI list.
  const copy = (value) => JSON.parse(JSON.stringify(value));
  const otherNonce = copy(sw);
  otherNonce.overall.payload.eat_nonce = '00'.repeat(32);
  assert.throws(() => checkResultsTopology(gpu, otherNonce, { matchGpuPdis: false }), code('ERR_TOPOLOGY_NONCE_MISMATCH'));
  const typed = copy(gpu);
  typed.devices[0].payload['x-nvidia-device-type'] = 'gpu';
  assert.throws(() => checkResultsTopology(gpu, typed, { matchGpuPdis: false }), (e) => code('ERR_TOPOLOGY_WRONG_DEVICE')(e) && /GPU-0 is not a switch/.test(e.message));
  const badList = copy(gpu);
  badList.devices[0].payload['x-nvidia-gpu-switch-pdis'] = ['not-a-pdi'];
  assert.throws(() => checkResultsTopology(badList, sw, { matchGpuPdis: false }), code('ERR_TOPOLOGY_CLAIM_INVALID'));
});
