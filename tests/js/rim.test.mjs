// RIM verification and comparison through the wasm package, with both signature backends:
// the software one inside wasm (verifyRim) and WebCrypto (prepareRim + crypto.subtle).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../pkg/local/index.js'; // instantiates the wasm module
import {
  verifyRim, prepareRim, openRimEnvelope, rimIds, compareGpuRims, compareSwitchRim, runtimeEvidence,
} from '../../pkg/local/edgeattest.js';
import { fixtureText, hexBytes } from './support/fixtures.mjs';

const DRIVER = fixtureText('rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml');
const LS10_RIM = fixtureText('rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml');
const JUNE_2025 = 1748736000;

function rejects(fn, code) {
  assert.throws(fn, (error) => {
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, code, error.message);
    return true;
  });
}

// SPDM measurement blocks of a transcript (notes §a), keyed by 1-based index.
function blocks(path) {
  const raw = hexBytes(path);
  const r = raw.subarray(37);
  const len = r[5] | (r[6] << 8) | (r[7] << 16);
  const records = r.subarray(8, 8 + len);
  const out = {};
  for (let i = 0; i < records.length;) {
    const size = records[i + 2] | (records[i + 3] << 8);
    const valueSize = records[i + 5] | (records[i + 6] << 8);
    out[String(records[i])] = records.subarray(i + 7, i + 7 + valueSize);
    i += 4 + size;
  }
  return out;
}

test('verifyRim: signature, document and chain status', () => {
  const rim = verifyRim(DRIVER, { now: JUNE_2025 });
  assert.equal(rim.isTrusted, true);
  assert.equal(rim.colloquialVersion, '550.144.03');
  const json = rim.toJSON();
  assert.equal(json.certChain.status, 'valid');
  assert.equal(json.document.meta.firmwareManufacturerId, '5703');
  assert.equal(json.document.measurements.length, 64);
  assert.equal(verifyRim(DRIVER, { now: 1811808000 }).toJSON().certChain.status, 'expired');
});

test('verifyRim: tampered and unsupported documents throw coded errors', () => {
  rejects(() => verifyRim(DRIVER.replace('index="0" active="False"', 'index="0" active="True"'), { now: JUNE_2025 }),
    'ERR_RIM_DIGEST_MISMATCH');
  rejects(() => verifyRim(fixtureText('rims/nvat/incorrect_signature_driver_rim.xml'), { now: JUNE_2025 }),
    'ERR_RIM_SIGNATURE_INVALID');
  rejects(() => verifyRim(DRIVER.replaceAll('xml-c14n11', 'xml-exc-c14n'), { now: JUNE_2025 }),
    'ERR_RIM_UNSUPPORTED_ALGORITHM');
  rejects(() => verifyRim(42, {}), 'ERR_INVALID_ARGUMENT');
  rejects(() => verifyRim(DRIVER, { now: -1 }), 'ERR_INVALID_ARGUMENT');
});

test('prepareRim: the same verdicts with WebCrypto', async () => {
  const pending = prepareRim(new TextEncoder().encode(DRIVER), { now: JUNE_2025 });
  const checks = pending.signatureChecks();
  assert.equal(checks.length, 4);
  const verdicts = [];
  for (const check of checks) {
    const key = await crypto.subtle.importKey('raw', check.publicKey, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['verify']);
    verdicts.push(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, key, check.signature, check.message));
  }
  assert.deepEqual(verdicts, [true, true, true, true]);
  const rim = pending.finish(verdicts);
  assert.equal(rim.isTrusted, true);
  rejects(() => pending.finish(verdicts), 'ERR_BATCH_CONSUMED'); // one code for every use-once object (issue 18)
  rejects(() => prepareRim(DRIVER, { now: JUNE_2025 }).finish([false, true, true, true]), 'ERR_RIM_SIGNATURE_INVALID');
});

test('compareSwitchRim: the LS10 report matches all 31 measurements', () => {
  const rim = verifyRim(LS10_RIM, { now: 1798761600 });
  const result = compareSwitchRim(rim, {
    measurements: blocks('evidence/switch/nvat_ls10_96.10.55.00.01_report.hex'),
    vbiosVersion: '96.10.55.00.01',
  });
  assert.equal(result.measres, 'success');
  assert.equal(result.compared, 31);
  assert.equal(result.allMatch, true);
  assert.deepEqual(result.mismatches, []);
});

test('compareGpuRims: go-nvtrust 545.00 report against the test RIMs, and the NVDEC0 rule', () => {
  const driver = verifyRim(fixtureText('rims/nvtrust/Driver_RIM_test_no_gpu.swidtag'), { now: 1704067200 });
  const firmware = verifyRim(fixtureText('rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag'), { now: 1704067200 });
  const evidence = {
    measurements: blocks('evidence/hopper/gonvtrust_hopper_545.00_report.hex'),
    driverVersion: '545.00',
    vbiosVersion: '96.00.5E.00.01',
    nvdec0Status: 0x55,
  };
  const ok = compareGpuRims(driver, firmware, evidence);
  assert.equal(ok.measres, 'success');
  assert.equal(ok.allMatch, true);
  assert.equal(ok.nvdec0, 'disabled');
  const wrong36 = { ...evidence, nvdec0Status: 0xaa, measurements: { ...evidence.measurements, 36: '00'.repeat(48) } };
  const failed = compareGpuRims(driver, firmware, wrong36);
  assert.equal(failed.measres, 'fail');
  assert.deepEqual(failed.mismatches.map((m) => [m.index, m.measurementSource]), [[35, 'Driver']]);
  rejects(() => compareGpuRims(firmware, firmware, evidence), 'ERR_RIM_INDEX_CONFLICT');
});

test('rimIds and openRimEnvelope', async () => {
  assert.deepEqual(
    rimIds('HOPPER', { driverVersion: '545.00', vbiosVersion: '96.00.5E.00.01', project: '1010', projectSku: '0200', chipSku: '882' }),
    { driver: 'NV_GPU_DRIVER_GH100_545.00', firmware: 'NV_GPU_VBIOS_1010_0200_882_96005E0001' },
  );
  assert.deepEqual(rimIds('LS10', { vbiosVersion: '96.10.55.00.01' }), { driver: null, firmware: 'NV_SWITCH_BIOS_5612_0002_890_9610550001' });
  rejects(() => rimIds('HOPPER', {}), 'ERR_RIM_ID_MISSING_INPUT');

  const id = 'NV_GPU_DRIVER_GH100_550.144.03';
  const bytes = new TextEncoder().encode(DRIVER);
  const sha256 = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
  const body = { id, rim: Buffer.from(bytes).toString('base64'), sha256, rim_format: 'TCG' };
  const envelope = openRimEnvelope(body, id);
  assert.equal(envelope.rimFormat, 'TCG');
  assert.equal(verifyRim(envelope.rim, { now: JUNE_2025 }).isTrusted, true);
  rejects(() => openRimEnvelope({ ...body, sha256: '00'.repeat(32) }, id), 'ERR_RIM_ENVELOPE_SHA256_MISMATCH');
  rejects(() => openRimEnvelope(body, 'NV_GPU_DRIVER_GH100_1.0'), 'ERR_RIM_ENVELOPE_ID_MISMATCH');
});

test('runtimeEvidence: the core reads the comparison values from a transcript', () => {
  const hopper = runtimeEvidence({
    evidence: fixtureText('evidence/hopper/nvat_hopper_580.159.03_report.hex').trim(),
    evidenceEncoding: 'hex',
    arch: 'HOPPER',
    hwmodel: 'GH100',
  });
  assert.deepEqual(rimIds('HOPPER', hopper), { driver: 'NV_GPU_DRIVER_GH100_580.159.03', firmware: 'NV_GPU_VBIOS_1010_0205_862_9600740020' });
  assert.equal(Object.keys(hopper.measurements).length, 64);
  assert.equal(hopper.hwmodel, 'GH100');
  assert.equal(hopper.apsku, undefined);

  // The LS10 values compare as the hand-read blocks do: all 31 measurements match.
  const path = 'evidence/switch/nvat_ls10_96.10.55.00.01_report.hex';
  const ls10 = runtimeEvidence({ evidence: hexBytes(path), arch: 'LS10' });
  assert.equal(ls10.vbiosVersion, '96.10.55.00.01');
  assert.deepEqual(rimIds('LS10', ls10), { driver: null, firmware: 'NV_SWITCH_BIOS_5612_0002_890_9610550001' });
  for (const [index, value] of Object.entries(blocks(path))) assert.equal(ls10.measurements[index], Buffer.from(value).toString('hex'), `block ${index}`);
  const rim = verifyRim(LS10_RIM, { now: 1780272000 });
  const comparison = compareSwitchRim(rim, ls10);
  assert.equal(comparison.measres, 'success');
  assert.equal(comparison.compared, 31);

  // Evidence text is decoded by the core's one rule: the same code at every entry.
  rejects(() => runtimeEvidence({ evidence: 'zz', evidenceEncoding: 'hex', arch: 'HOPPER' }), 'ERR_EVIDENCE_ENCODING');
  rejects(() => runtimeEvidence({ evidence: 'zz', evidenceEncoding: 'sideways', arch: 'HOPPER' }), 'ERR_INVALID_ARGUMENT');
  rejects(() => runtimeEvidence({ evidence: hexBytes(path).subarray(0, 40), arch: 'LS10' }), 'ERR_EVIDENCE_TRUNCATED');
  rejects(() => runtimeEvidence({ evidence: new Uint8Array(10), arch: 'HOPPER' }), 'ERR_EVIDENCE_UNEXPECTED_VALUE');
  rejects(() => runtimeEvidence({ evidence: hexBytes(path), arch: 'AMPERE' }), 'ERR_INVALID_ARGUMENT');
  rejects(() => runtimeEvidence(null), 'ERR_INVALID_ARGUMENT');
});
