// Device evidence through the npm package: software and WebCrypto backends on real fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  verifyEvidence, prepareEvidence, verifyCertificateChain, verifyEvidenceBatch, runSignatureChecks,
} from '../../pkg/local/index.js';
import { fixtureText, hexBytes } from './support/fixtures.mjs';

const N931 = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const NOW = 1_790_000_000;
const hopper = {
  evidence: hexBytes('evidence/hopper/nvtrust_hopper_550.90.07_report.hex'),
  certificate: fixtureText('evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem'),
};
const generated = (file) => readFileSync(new URL(`../fixtures/generated/${file}`, import.meta.url), 'utf8');
const serialized = (file) => JSON.parse(fixtureText(`evidence/serialized/${file}`));

function rejects(fn, code) {
  assert.throws(fn, (error) => {
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, code, error.message);
    return true;
  });
}

test('verifyEvidence: the Hopper sample behind a real service token', () => {
  const report = verifyEvidence({ ...hopper, nonce: N931, arch: 'HOPPER', now: NOW });
  assert.equal(report.ueid, '478176379286082186618948445787393647364802107249');
  assert.equal(report.hwmodel, 'GH100 A01 GSP BROM');
  assert.equal(report.hwmodelChip, 'GH100');
  assert.equal(report.driverVersion, '550.90.07');
  assert.equal(report.vbiosVersion, '96.00.9F.00.01');
  assert.equal(report.fwid, 'matched');
  assert.deepEqual(report.certChain.status, 'valid');
  assert.equal(report.certChain.expirationDate, '9999-12-31T23:59:59Z');
  assert.equal(report.certChain.ocspStatus, 'not-checked');
  assert.equal(report.measurements.length, 64);
  assert.equal(report.nonce, N931);
  assert.ok(report.nonceMatch && report.signatureVerified && report.reportParsed && report.archCheck);
});

test('verifyEvidence: request encodings (generation 2 base64, generation 1 base64 of hex)', () => {
  const b64 = Buffer.from(hopper.evidence).toString('base64');
  const certB64 = Buffer.from(hopper.certificate).toString('base64');
  const a = verifyEvidence({ evidence: b64, certificate: certB64, nonce: N931, arch: 'HOPPER', now: NOW });
  const hexB64 = Buffer.from(Buffer.from(hopper.evidence).toString('hex')).toString('base64');
  const b = verifyEvidence({
    evidence: hexB64, certificate: hopper.certificate, nonce: N931, arch: 'HOPPER', now: NOW, evidenceEncoding: 'base64-hex',
  });
  assert.deepEqual(a, b);
});

test('verifyEvidence: each failure has its own code', () => {
  rejects(() => verifyEvidence({ ...hopper, nonce: '00'.repeat(32), arch: 'HOPPER', now: NOW }), 'ERR_EVIDENCE_NONCE_MISMATCH');
  rejects(() => verifyEvidence({ ...hopper, nonce: N931, arch: 'LS10', now: NOW }), 'ERR_EVIDENCE_ARCH_MISMATCH');
  rejects(() => verifyEvidence({
    evidence: hexBytes('evidence/hopper/nvat_hopper_560.00_INVALID_SIGNATURE_report.hex'),
    certificate: fixtureText('evidence/hopper/nvat_hopper_570.124.03_certchain.pem'),
    nonce: N931, arch: 'HOPPER', now: NOW,
  }), 'ERR_EVIDENCE_SIGNATURE');
  rejects(() => verifyEvidence({
    evidence: hexBytes('evidence/hopper/trustee_hopper_580.95.05_report_trailing_byte.hex'),
    certificate: fixtureText('evidence/hopper/trustee_hopper_580.95.05_certchain.pem'),
    nonce: '87d8e24ab336adafe228d49e83d745f6dba4ae505372b6a5704820856b343fec', arch: 'HOPPER', now: NOW,
  }), 'ERR_EVIDENCE_TRAILING_BYTES');
  rejects(() => verifyEvidence({
    evidence: hexBytes('evidence/hopper/gonvtrust_hopper_545.00_report.hex'),
    certificate: fixtureText('evidence/hopper/gonvtrust_INVALID_certchain_missing_brom.pem'),
    nonce: '4cff7f5380ead8fad8ec2c531c110aca4302a88f603792801a8ca29ee151af2e', arch: 'HOPPER', now: NOW,
  }), 'ERR_CHAIN_ISSUER_NOT_FOUND');
  const truncated = hopper.evidence.slice(0, 100);
  rejects(() => verifyEvidence({ ...hopper, evidence: truncated, nonce: N931, arch: 'HOPPER', now: NOW }), 'ERR_EVIDENCE_TRUNCATED');
  rejects(() => verifyEvidence({ ...hopper, nonce: N931, arch: 'AMPERE', now: NOW }), 'ERR_INVALID_ARGUMENT');
});

test('verifyEvidence: a configured trust store and the FWID check', () => {
  const options = {
    evidence: Uint8Array.from(Buffer.from(generated('evidence_test_leaf.hex').trim(), 'hex')),
    nonce: N931, arch: 'HOPPER', now: NOW, trustAnchors: generated('test_root.pem'),
  };
  assert.equal(verifyEvidence({ ...options, certificate: generated('chain_valid.pem') }).fwid, 'matched');
  rejects(() => verifyEvidence({ ...options, certificate: generated('chain_fwid_mismatch.pem') }), 'ERR_EVIDENCE_FWID_MISMATCH');
  rejects(() => verifyEvidence({ ...options, certificate: generated('chain_valid.pem'), trustAnchors: undefined }), 'ERR_CHAIN_UNTRUSTED_ROOT');
  const expired = verifyEvidence({ ...options, certificate: generated('chain_expired_leaf.pem') });
  assert.equal(expired.certChain.status, 'expired');
});

function batchOptions(file) {
  const items = serialized(file);
  return {
    nonce: items[0].nonce,
    arch: items[0].arch,
    now: NOW,
    devices: items.map((i) => ({ evidence: i.evidence, certificate: i.certificate })),
  };
}

test('WebCrypto and software backends agree on the 8-GPU and 4-switch sets', async () => {
  for (const [file, count, checks] of [
    ['nvtrust_ppcie_gpu_evidence_8gpu.json', 8, 26],
    ['nvtrust_ppcie_switch_evidence_4sw.json', 4, 14],
  ]) {
    const options = batchOptions(file);
    const web = await verifyEvidenceBatch(options);
    assert.equal(web.length, count);
    assert.ok(web.every((r) => r.ok), JSON.stringify(web.find((r) => !r.ok)));
    const batch = prepareEvidence(options);
    assert.equal(batch.signatureChecks().length, checks);
    const soft = batch.verify();
    assert.deepEqual(web, soft);
    rejects(() => batch.verify(), 'ERR_BATCH_CONSUMED');
  }
});

test('WebCrypto verdicts reject a tampered check and finish maps failures to devices', async () => {
  const batch = prepareEvidence(batchOptions('nvtrust_ppcie_gpu_evidence_8gpu.json'));
  const checks = batch.signatureChecks();
  const tampered = checks.map((c, i) => (i === 0 ? { ...c, message: Uint8Array.from(c.message, (b, j) => (j === 5 ? b ^ 1 : b)) } : c));
  const verdicts = await runSignatureChecks(tampered);
  assert.equal(verdicts.filter((v) => !v).length, 1);
  const results = batch.finish(verdicts);
  assert.equal(results.filter((r) => !r.ok).length >= 1, true);
  const failed = results.find((r) => !r.ok);
  assert.ok(['ERR_CHAIN_SIGNATURE_INVALID', 'ERR_EVIDENCE_SIGNATURE'].includes(failed.error.code));
  rejects(() => prepareEvidence(batchOptions('nvtrust_ppcie_gpu_evidence_8gpu.json')).finish([true]), 'ERR_CHAIN_VERDICT_COUNT');
});

test('verifyCertificateChain: status, ueid, leaf key; failures', () => {
  const chain = verifyCertificateChain({ certificate: fixtureText('evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem'), now: NOW });
  assert.equal(chain.status, 'valid');
  assert.equal(chain.ueid, '694931143880983876767046803400974855445978836716');
  assert.equal(chain.hwmodel, 'LS_10 A01 FSP BROM');
  assert.equal(chain.leafPublicKey.length, 97);
  rejects(() => verifyCertificateChain({ certificate: generated('chain_pathlen_violation.pem'), trustAnchors: generated('test_root.pem'), now: NOW }), 'ERR_CHAIN_PATH_LEN');
  rejects(() => verifyCertificateChain({ certificate: generated('chain_expired_leaf.pem'), trustAnchors: generated('test_root.pem'), now: NOW, enforceTime: true }), 'ERR_CHAIN_EXPIRED');
});

test('runSignatureChecks: a signature or key of another size is a failed check before any backend (Firefox accepts Wycheproof tcId 153)', async () => {
  const batch = prepareEvidence(batchOptions('nvtrust_ppcie_gpu_evidence_8gpu.json'));
  const [check] = batch.signatureChecks();
  // A backend that says yes to everything, as Firefox's does to the 2-byte DER `0201`.
  const lenient = {
    importKey: async () => ({}),
    verify: async () => true,
  };
  const shapes = [
    check,
    { ...check, signature: Uint8Array.of(0x02, 0x01) },
    { ...check, signature: check.signature.subarray(0, 95) },
    { ...check, publicKey: Uint8Array.of(0x02, ...check.publicKey.subarray(1, 49)) },
    { ...check, publicKey: Uint8Array.of(0x05, ...check.publicKey.subarray(1)) },
  ];
  assert.deepEqual(await runSignatureChecks(shapes, lenient), [true, false, false, false, false]);
  batch.free?.();
});
