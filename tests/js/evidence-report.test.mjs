// evidenceReport / prepareEvidenceReport: the core's device report through the package, the
// same with WebCrypto verdicts as with the software backend, and its refusals coded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { evidenceReport, prepareEvidenceReport, runSignatureChecks } from '../../pkg/local/index.js';

const repo = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const ls10 = JSON.parse(repo('www/samples/evidence.json')).samples.find((s) => s.id === 'ls10-96.10.55.00.01');
const switchRim = repo('tests/fixtures/nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml');
const NOW = Date.UTC(2026, 6, 1) / 1000;
const options = (more = {}) => ({
  evidence: ls10.evidenceHex, certificate: ls10.certificatePem, nonce: ls10.nonce, arch: 'LS10', now: NOW,
  rims: { firmware: switchRim }, ...more,
});

test('evidenceReport: LS10 with its RIM is partial until revocation is known, then passed', () => {
  const report = evidenceReport(options());
  assert.equal(report.verdict, 'partial');
  assert.equal(report.revocation, 'not-checked');
  assert.deepEqual(report.notChecked, ['revocation (OCSP)']);
  assert.equal(report.rims.driver.status, 'not-applicable');
  assert.equal(report.rims.firmware.id, 'NV_SWITCH_BIOS_5612_0002_890_9610550001');
  assert.equal(report.measres, 'success');
  assert.equal(report.evidence.arch, 'LS10');
  // Plain objects, not Maps.
  assert.equal(Object.getPrototypeOf(report.comparison.attesterClaims), Object.prototype);
  assert.equal(evidenceReport(options({ revocation: { status: 'good' } })).verdict, 'passed');
  const revoked = evidenceReport(options({ revocation: { status: 'revoked', message: 'keyCompromise' } }));
  assert.equal(revoked.verdict, 'failed');
  assert.deepEqual([revoked.failure.code, revoked.failure.message], ['ERR_CERT_REVOKED', 'keyCompromise']);
});

test('prepareEvidenceReport: WebCrypto verdicts give the software report; a plan finishes once', async () => {
  const plan = prepareEvidenceReport(options());
  const checks = plan.signatureChecks();
  const report = plan.finish(await runSignatureChecks(checks));
  assert.deepEqual(report, evidenceReport(options()));
  assert.throws(() => plan.finish([]), (e) => e.code === 'ERR_BATCH_CONSUMED');
  plan.free();
  const short = prepareEvidenceReport(options());
  assert.throws(() => short.finish([true]), (e) => e.code === 'ERR_CHAIN_VERDICT_COUNT');
  const forged = prepareEvidenceReport(options());
  const verdicts = (await runSignatureChecks(forged.signatureChecks())).map(() => false);
  const failed = forged.finish(verdicts);
  assert.equal(failed.verdict, 'failed');
  assert.equal(failed.failure.stage, 'certificate-chain');
});

test('evidenceReport: a tampered transcript fails at its signature, the rest not reached', () => {
  const hex = ls10.evidenceHex;
  const flipped = (parseInt(hex.slice(400, 402), 16) ^ 1).toString(16).padStart(2, '0');
  const report = evidenceReport(options({ evidence: hex.slice(0, 400) + flipped + hex.slice(402) }));
  assert.equal(report.verdict, 'failed');
  assert.deepEqual([report.failure.code, report.failure.stage, report.failure.serviceCode], ['ERR_EVIDENCE_SIGNATURE', 'evidence-signature', 4013]);
  assert.deepEqual(report.stages.slice(0, 4).map((s) => s.status), ['passed', 'passed', 'failed', 'not-checked']);
  assert.equal(report.evidence, null);
});

test('evidenceReport: bad options are refused with a code and a field', () => {
  const refused = (more, code, field) => assert.throws(() => evidenceReport(options(more)), (e) => {
    assert.equal(e.code, code);
    if (field) assert.equal(e.field, field);
    return true;
  });
  refused({ nonce: 'xyz' }, 'ERR_REQUEST_INVALID_NONCE', 'nonce');
  refused({ arch: 'VOLTA' }, 'ERR_INVALID_ARGUMENT', 'arch');
  refused({ rims: { firmware: 42 } }, 'ERR_INVALID_ARGUMENT', 'rims.firmware');
  refused({ revocation: { status: 7 } }, 'ERR_INVALID_ARGUMENT', 'revocation.status');
  assert.throws(() => evidenceReport(options({ rimAnchors: 'not a PEM' })), (e) => /^ERR_/.test(e.code));
});

test('evidenceReport: the GPU mode its evidence signs (580.159.03: spt), null where none is signed', () => {
  const hex = (path) => repo(path).trim();
  const spt = evidenceReport({
    evidence: hex('tests/fixtures/nvidia/evidence/hopper/nvat_hopper_580.159.03_report.hex'),
    certificate: repo('tests/fixtures/nvidia/evidence/hopper/nvat_hopper_580.159.03_certchain.pem'),
    nonce: hex('tests/fixtures/nvidia/evidence/hopper/nvat_hopper_580.159.03_report.hex').slice(8, 72),
    arch: 'HOPPER', now: NOW,
  });
  // No RIMs given: the verdict is not a pass, and the mode is still what the GPU signed.
  assert.notEqual(spt.verdict, 'passed');
  assert.equal(spt.evidence.mode, 'spt');
  assert.equal(evidenceReport(options()).evidence.mode, null);
});
