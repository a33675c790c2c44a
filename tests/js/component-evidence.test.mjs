// The verifier component's `evidence` interface against the npm package on every evidence
// fixture (tests/fixtures/nvidia/evidence: each transcript, every serialized device, the
// Blackwell FSP CMW), each also tampered, with a wrong chain, expired and with a wrong nonce:
// verify-evidence; the device report with the RIMs its evidence names (matching and
// mismatching RIM fixtures) and each revocation input; its two-phase plan with the host's
// verdicts; batches; hostile arguments (coded errors, no trap, the instance still usable).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import '../../pkg/local/index.js';
import {
  evidenceReport, identifyRim, prepareEvidence, prepareEvidenceReport, runtimeEvidence, verifyChecksSoftware,
  verifyEvidence,
} from '../../pkg/local/edgeattest.js';
import {
  agree, caught, cmwFixtures, optionsOf, codedError, deviceReportToJs, evidenceReportToJs, deviceResultToJs, doc, evidenceFixtures, loadComponent, rimFixtures,
  transcriptBytes, witAnswer, witEvidenceOptions, witReportOptions,
} from './support/component.mjs';

const NOW = 1_790_000_000;
const LATER = 2_100_000_000;

let wit;
before(async () => {
  wit = await loadComponent();
});

const device = (o) => ({ evidence: doc(o.evidence), certificate: o.certificate });
const plainChecks = (checks) => checks.map((c) => ({ publicKey: [...c.publicKey], message: [...c.message], signature: [...c.signature] }));

/** One byte of the transcript flipped in the middle of its measurements. */
function tampered(fixture) {
  const bytes = Uint8Array.from(transcriptBytes(fixture));
  bytes[200] ^= 1;
  return bytes;
}

test('verify-evidence agrees with verifyEvidence on every evidence fixture, tampered, with a wrong chain, expired and with a wrong nonce', (t) => {
  const all = evidenceFixtures();
  assert.ok(all.length >= 38, `${all.length} fixtures`);
  const outcomes = new Map();
  all.forEach((fixture, i) => {
    const other = all.find((f, j) => j > i && f.certificate !== fixture.certificate) ?? all[0];
    const variants = [
      ['as recorded', { ...optionsOf(fixture), now: NOW }],
      ['tampered', { ...optionsOf(fixture), evidence: tampered(fixture), now: NOW }],
      ['wrong chain', { ...optionsOf(fixture), certificate: other.certificate, now: NOW }],
      ['expired', { ...optionsOf(fixture), now: LATER }],
      ['wrong nonce', { ...optionsOf(fixture), nonce: 'ab'.repeat(32), now: NOW }],
      ['FWID required', { ...optionsOf(fixture), now: NOW, requireFwid: true }],
    ];
    for (const [what, options] of variants) {
      const js = caught(() => verifyEvidence(options));
      const component = caught(() => wit.evidence.verifyEvidence(witEvidenceOptions(options), device(options)));
      const outcome = agree(js, component, `${fixture.label} ${what}`, evidenceReportToJs) === 'error' ? js.err.code : 'pass';
      if (js.ok) {
        assert.deepEqual(
          [component.ok.arch, component.ok.profile, component.ok.ueid, component.ok.hwmodelChip ?? null],
          [js.ok.arch, js.ok.profile, js.ok.ueid, js.ok.hwmodelChip],
        );
      }
      outcomes.set(`${what}: ${outcome}`, (outcomes.get(`${what}: ${outcome}`) ?? 0) + 1);
    }
  });
  t.diagnostic(JSON.stringify(Object.fromEntries(outcomes)));
  // The negative variants fail, and never pass: each with its own code.
  for (const what of ['tampered', 'wrong chain', 'wrong nonce']) assert.equal(outcomes.get(`${what}: pass`), undefined, what);
  assert.ok(outcomes.get('as recorded: pass') >= 30);
  assert.ok(outcomes.has('tampered: ERR_EVIDENCE_SIGNATURE') && outcomes.has('wrong nonce: ERR_EVIDENCE_NONCE_MISMATCH'));
});

/** The RIM fixtures of a device's versions (driver; VBIOS, switch BIOS or FSP firmware), with the anchors they need. */
function rimsNamed(fixture) {
  let hwmodel;
  try {
    hwmodel = verifyEvidence({ ...optionsOf(fixture), now: NOW }).hwmodelChip ?? undefined;
  } catch {
    return [];
  }
  const runtime = runtimeEvidence({ evidence: fixture.evidence, arch: fixture.arch, hwmodel, firmwareVersion: fixture.firmwareVersion });
  const named = (kind, version) => rimFixtures().filter((r) => {
    const id = caught(() => identifyRim(r.xml)).ok;
    return version && id?.kind === kind && id.arch === fixture.arch && id.version === version;
  });
  const drivers = named('driver', runtime.driverVersion);
  const firmwares = named('firmware', runtime.vbiosVersion ?? runtime.firmwareVersionHint);
  const combos = [];
  for (const driver of drivers.length ? drivers : [undefined]) {
    for (const firmware of firmwares.length ? firmwares : [undefined]) {
      if (!driver && !firmware) continue;
      const anchors = [...new Set([driver?.anchors, firmware?.anchors].filter(Boolean))].join('');
      combos.push({
        label: `${driver?.label ?? '-'} + ${firmware?.label ?? '-'}`,
        rims: { driver: driver?.xml, firmware: firmware?.xml },
        rimAnchors: anchors || undefined,
      });
    }
  }
  return combos;
}

const REVOCATIONS = [
  { status: 'good' }, { status: 'revoked', message: 'keyCompromise' }, { status: 'unknown' },
  { status: 'not-checked', message: 'no responder configured' }, { status: 'failed' }, { status: 'not-checked' },
  { status: 'good', warnings: ['a revocation rule let an unknown answer pass'] }, { status: 'good', warnings: [] },
];

test('verify-device-report and report-plan agree with evidenceReport / prepareEvidenceReport on every fixture with the RIMs it names and each revocation input', (t) => {
  const verdicts = new Map();
  let withRims = 0;
  for (const fixture of evidenceFixtures()) {
    const base = { ...optionsOf(fixture), now: NOW };
    const runs = [['no RIMs', base], ['tampered', { ...base, evidence: tampered(fixture) }]];
    const combos = rimsNamed(fixture);
    if (combos.length) withRims += 1;
    combos.forEach((combo, i) => {
      runs.push([combo.label, { ...base, rims: combo.rims, rimAnchors: combo.rimAnchors, firmwareVersion: fixture.firmwareVersion }]);
      if (i === 0) {
        for (const revocation of REVOCATIONS) runs.push([`${combo.label} ${JSON.stringify(revocation)}`, { ...base, rims: combo.rims, rimAnchors: combo.rimAnchors, revocation }]);
      }
    });
    for (const [what, options] of runs) {
      const label = `${fixture.label}: ${what}`;
      const js = caught(() => evidenceReport(options));
      const component = caught(() => wit.evidence.verifyDeviceReport(witReportOptions(options)));
      agree(js, component, label, deviceReportToJs);
      if (!js.ok) continue;
      const key = `${js.ok.verdict}${js.ok.measres ? ` measres ${js.ok.measres}` : ''}`;
      verdicts.set(key, (verdicts.get(key) ?? 0) + 1);
      // A failed device is never read as passed: the typed verdict and the first failure say so.
      if (js.ok.verdict === 'failed') assert.equal(component.ok.failure.code, js.ok.failure.code, label);
    }
    // Two phases with the host's verdicts, then forged ones; a plan finishes once.
    const options = runs.at(-1)[1];
    const jsPlan = caught(() => prepareEvidenceReport(options));
    const plan = caught(() => wit.evidence.ReportPlan.prepare(witReportOptions(options)));
    if (agree(jsPlan, plan, `${fixture.label} plan`, () => true, () => true) === 'error') continue;
    const checks = plan.ok.signatureChecks();
    assert.deepEqual(plainChecks(checks), plainChecks(jsPlan.ok.signatureChecks()), fixture.label);
    const host = [...verifyChecksSoftware(checks)].map(Boolean);
    agree(caught(() => jsPlan.ok.finish(host)), caught(() => plan.ok.finish(host)), `${fixture.label} finished`, deviceReportToJs);
    codedError(() => plan.ok.finish(host), 'ERR_BATCH_CONSUMED', `${fixture.label} second finish`);
    const forged = host.map(() => false);
    agree(
      caught(() => prepareEvidenceReport(options).finish(forged)),
      caught(() => wit.evidence.ReportPlan.prepare(witReportOptions(options)).finish(forged)),
      `${fixture.label} forged`, deviceReportToJs,
    );
    agree(
      caught(() => prepareEvidenceReport(options).finish([true])),
      caught(() => wit.evidence.ReportPlan.prepare(witReportOptions(options)).finish([true])),
      `${fixture.label} one verdict`, deviceReportToJs,
    );
    agree(
      caught(() => prepareEvidenceReport(options).verify()),
      caught(() => wit.evidence.ReportPlan.prepare(witReportOptions(options)).verify()),
      `${fixture.label} verified in software`, deviceReportToJs,
    );
  }
  t.diagnostic(`${withRims} devices with RIM fixtures: ${JSON.stringify(Object.fromEntries(verdicts))}`);
  assert.ok(withRims >= 4, `${withRims}`);
  for (const key of ['passed measres success', 'failed measres fail', 'partial measres success', 'failed']) {
    assert.ok(verdicts.has(key), `no report was ${key}: ${[...verdicts.keys()]}`);
  }
});

test('verify-device-report: a chain the revocation rule let pass (held, allowHold) is relaxed with its warnings, as evidenceReport; strict is not', () => {
  // The held chain's recorded answers (tests/fixtures/generated/ocsp, as component-ocsp.test.mjs
  // feeds them), checked by the component's own `ocsp` interface.
  const pki = new URL('../fixtures/generated/ocsp/', import.meta.url);
  const nonce = (name) => new Uint8Array(createHash('sha256').update(`edgeattest ocsp fixture ${name}`).digest());
  const answer = (name) => witAnswer({ body: readFileSync(new URL(`responses/${name}.der`, pki)), nonce: nonce(name) });
  const manifest = JSON.parse(readFileSync(new URL('responses/manifest.json', pki), 'utf8'));
  const held = wit.ocsp.checkOcspResponses(
    readFileSync(new URL('chain_hold.pem', pki), 'utf8'), 'device',
    ['brom_hold', 'ica', 'identity'].map(answer), BigInt(manifest['brom_good.der'].now), JSON.stringify({ allowHold: true }),
  );
  assert.deepEqual([held.status, held.held, held.warnings.length], ['good', true, 1]);
  // A device whose report passes with good revocation, then with the held chain's answer.
  const withRims = (f, c) => ({ ...optionsOf(f), now: NOW, rims: c.rims, rimAnchors: c.rimAnchors, firmwareVersion: f.firmwareVersion });
  const passing = evidenceFixtures().flatMap((f) => rimsNamed(f).map((c) => withRims(f, c)))
    .find((o) => evidenceReport({ ...o, revocation: { status: 'good' } }).verdict === 'passed');
  assert.ok(passing, 'a device that passes with its RIMs');
  const options = { ...passing, revocation: { status: held.status, warnings: held.warnings } };
  const js = evidenceReport(options);
  assert.equal(js.revocation, 'relaxed');
  for (const component of [
    wit.evidence.verifyDeviceReport(witReportOptions(options)),
    wit.evidence.ReportPlan.prepare(witReportOptions(options)).verify(),
  ]) {
    assert.equal(component.revocation, 'relaxed', 'a relaxed chain is never reported good');
    assert.deepEqual(deviceReportToJs(component), js);
    const stage = component.stages.find((s) => s.id === 'revocation');
    assert.ok(stage.detail.includes(held.warnings[0]), `the revocation stage names the warning: ${stage.detail}`);
  }
  // Strict (no options): the held chain is revoked, and so is the report's revocation.
  const strict = wit.ocsp.checkOcspResponses(
    readFileSync(new URL('chain_hold.pem', pki), 'utf8'), 'device',
    ['brom_hold', 'ica', 'identity'].map(answer), BigInt(manifest['brom_good.der'].now), undefined,
  );
  const refused = wit.evidence.verifyDeviceReport(witReportOptions({ ...options, revocation: { status: strict.status, warnings: strict.warnings } }));
  assert.deepEqual([strict.status, refused.revocation, refused.verdict], ['revoked', 'failed', 'failed']);
  assert.equal(wit.evidence.verifyDeviceReport(witReportOptions({ ...options, revocation: { status: 'good' } })).revocation, 'good');
});

test('evidence-batch agrees with prepareEvidence on every group of fixtures sharing a nonce and architecture', (t) => {
  const groups = new Map();
  for (const fixture of evidenceFixtures()) {
    const key = `${fixture.nonce} ${fixture.arch}`;
    groups.set(key, [...(groups.get(key) ?? []), fixture]);
  }
  let devices = 0;
  for (const [key, members] of groups) {
    const common = { nonce: members[0].nonce, arch: members[0].arch, now: NOW };
    const list = members.map((m) => ({ evidence: m.evidence, certificate: m.certificate }));
    const batchOptions = { options: witEvidenceOptions(common), devices: list.map(device) };
    const jsBatch = caught(() => prepareEvidence({ ...common, devices: list }));
    const batch = caught(() => wit.evidence.EvidenceBatch.prepare(batchOptions));
    if (agree(jsBatch, batch, key, () => true, () => true) === 'error') continue;
    const checks = batch.ok.signatureChecks();
    assert.deepEqual(plainChecks(checks), plainChecks(jsBatch.ok.signatureChecks()), key);
    const host = [...verifyChecksSoftware(checks)].map(Boolean);
    const toJs = (results) => results.map(deviceResultToJs);
    agree(caught(() => jsBatch.ok.finish(host)), caught(() => batch.ok.finish(host)), `${key} finished`, toJs);
    codedError(() => batch.ok.verify(), 'ERR_BATCH_CONSUMED', `${key} verify after finish`);
    agree(
      caught(() => prepareEvidence({ ...common, devices: list }).verify()),
      caught(() => wit.evidence.EvidenceBatch.prepare(batchOptions).verify()),
      `${key} software`, toJs,
    );
    const forged = host.map((v, i) => (i === host.length - 1 ? !v : v));
    agree(
      caught(() => prepareEvidence({ ...common, devices: list }).finish(forged)),
      caught(() => wit.evidence.EvidenceBatch.prepare(batchOptions).finish(forged)),
      `${key} forged`, toJs,
    );
    devices += members.length;
  }
  t.diagnostic(`${groups.size} batches, ${devices} devices`);
  assert.ok(devices >= 30, `${devices}`);
});

test('a CMW (JSON and CBOR) is evidence everywhere: verify-evidence, the batch and the device report agree with the JS entries and say its form', () => {
  const fsp = evidenceFixtures().find((f) => f.label.endsWith('.cmw.json'));
  for (const cmw of cmwFixtures()) {
    const options = { ...optionsOf(cmw), now: NOW };
    const js = caught(() => verifyEvidence(options));
    assert.ok(js.ok, `${cmw.label}: ${js.err?.code}`);
    assert.equal(js.ok.evidenceForm, cmw.label);
    const component = caught(() => wit.evidence.verifyEvidence(witEvidenceOptions(options), device(options)));
    agree(js, component, cmw.label, evidenceReportToJs);
    assert.equal(component.ok.evidenceForm, cmw.label === 'json-cmw' ? 'json-cmw' : 'cbor-cmw');
    // Everything but the form is the report of the bare transcript and its chain.
    const plainOptions = { ...optionsOf(fsp), now: NOW };
    const plain = wit.evidence.verifyEvidence(witEvidenceOptions(plainOptions), device(plainOptions));
    assert.equal(plain.evidenceForm, 'plain');
    assert.deepEqual({ ...evidenceReportToJs(component.ok), evidenceForm: 'plain' }, evidenceReportToJs(plain));

    // Refusals agree: the chain given twice, another nonce, the transcript tampered inside.
    for (const [what, variant] of [
      ['chain given twice', { ...options, certificate: fsp.certificate }],
      ['another nonce', { ...options, nonce: 'ab'.repeat(32) }],
    ]) {
      const refused = caught(() => verifyEvidence(variant));
      assert.ok(refused.err, `${cmw.label} ${what} must be refused`);
      agree(refused, caught(() => wit.evidence.verifyEvidence(witEvidenceOptions(variant), device(variant))), `${cmw.label} ${what}`, evidenceReportToJs);
    }

    // A batch of the one CMW, and the device report with its firmware hint.
    const batchOptions = { options: witEvidenceOptions(options), devices: [device(options)] };
    const toJs = (results) => results.map(deviceResultToJs);
    const jsBatch = prepareEvidence({ ...options, evidence: undefined, devices: [{ evidence: cmw.evidence }] }).verify();
    assert.equal(jsBatch[0].ok, true, JSON.stringify(jsBatch[0].error));
    agree({ ok: jsBatch }, caught(() => wit.evidence.EvidenceBatch.prepare(batchOptions).verify()), `${cmw.label} batch`, toJs);
    const report = caught(() => evidenceReport(options));
    const witReport = caught(() => wit.evidence.verifyDeviceReport(witReportOptions(options)));
    agree(report, witReport, `${cmw.label} device report`, deviceReportToJs);
    assert.equal(report.ok.evidence.evidenceForm, cmw.label);
  }
});

test('hostile evidence arguments: coded errors, no trap, the instance stays usable', () => {
  const [fixture] = evidenceFixtures().filter((f) => f.label.includes('nvtrust_hopper_550.90.07'));
  const ok = { ...optionsOf(fixture), now: NOW };
  const big = 'A'.repeat(32 * 1024 * 1024);
  const report = (more) => witReportOptions({ ...ok, ...more });
  codedError(() => wit.evidence.verifyDeviceReport(report({ nonce: 'xyz' })), 'ERR_REQUEST_INVALID_NONCE');
  codedError(() => wit.evidence.verifyDeviceReport(report({ arch: 'VOLTA' })), 'ERR_INVALID_ARGUMENT', 'unknown arch');
  codedError(() => wit.evidence.verifyDeviceReport(report({ rimAnchors: 'not a PEM' })), 'ERR_RIM_CERTIFICATE', 'RIM anchors');
  codedError(() => wit.evidence.verifyDeviceReport(report({ now: 2 ** 40 })), 'ERR_INVALID_ARGUMENT', 'now out of range');
  // 32 MiB of evidence is a failed report (as in JS: a report throws only for bad options).
  const junk = wit.evidence.verifyDeviceReport(report({ evidence: big }));
  assert.deepEqual([junk.verdict, junk.failure.code, junk.failure.stage], ['failed', 'ERR_EVIDENCE_UNEXPECTED_VALUE', 'evidence-parsed']);
  // A 32 MiB RIM is the RIM's failure inside the report, not a trap.
  const huge = wit.evidence.verifyDeviceReport(report({ rims: { firmware: big } }));
  assert.equal(huge.verdict, 'failed');
  assert.equal(huge.rims.firmware.status, 'failed');
  codedError(() => wit.evidence.EvidenceBatch.prepare({ options: witEvidenceOptions(ok), devices: Array.from({ length: 100 }, () => device(ok)) }), 'ERR_INVALID_ARGUMENT', '100 devices');
  // An empty batch is empty, as in JS.
  assert.deepEqual(wit.evidence.EvidenceBatch.prepare({ options: witEvidenceOptions(ok), devices: [] }).verify(), []);
  assert.deepEqual(prepareEvidence({ ...ok, devices: [] }).verify(), []);
  codedError(() => wit.evidence.readRuntimeEvidence({ evidence: doc('zz'), evidenceEncoding: 'hex', arch: 'HOPPER' }), 'ERR_EVIDENCE_ENCODING');
  codedError(() => wit.evidence.readRuntimeEvidence({ evidence: doc('zz'), evidenceEncoding: 'sideways', arch: 'HOPPER' }), 'ERR_INVALID_ARGUMENT');
  codedError(() => wit.evidence.readRuntimeEvidence({ evidence: doc(new Uint8Array(10)), arch: 'HOPPER' }), 'ERR_EVIDENCE_UNEXPECTED_VALUE');
  codedError(() => wit.evidence.readRuntimeEvidence({ evidence: doc(big), arch: 'HOPPER' }), 'ERR_EVIDENCE_UNEXPECTED_VALUE', '32 MiB runtime evidence');
  const plan = wit.evidence.ReportPlan.prepare(report({}));
  plan.verify();
  codedError(() => plan.signatureChecks(), 'ERR_BATCH_CONSUMED', 'checks after verify');
  codedError(() => wit.evidence.ReportPlan.prepare(report({})).finish([true]), 'ERR_CHAIN_VERDICT_COUNT', 'one verdict');
  assert.equal(wit.evidence.verifyDeviceReport(report({ revocation: { status: 'good' } })).evidence.ueid, verifyEvidence(ok).ueid);
});
