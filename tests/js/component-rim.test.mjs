// The verifier component's `rim` interface against the npm package on every RIM fixture
// (NVIDIA's nvat and nvtrust documents, the generated Blackwell and OCSP ones): verify-rim,
// prepare-rim with the host's verdicts, identify-rim, at several times (trusted, expired and
// invalid chains, tampered and unsupported documents); the runtime values and RIM ids of
// every evidence fixture; and compare-gpu-rims / compare-switch-rim of every evidence fixture
// against every verified RIM of its architecture (matching and mismatching measurements).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  compareGpuRims, compareSwitchRim, identifyRim, openRimEnvelope, prepareRim, rimIds, runtimeEvidence,
  verifyChecksSoftware, verifyEvidence, verifyRim,
} from '../../pkg/local/edgeattest.js';
import '../../pkg/local/index.js';
import {
  agree, caught, optionsOf, codedError, comparisonToJs, doc, evidenceFixtures, loadComponent, rimFixtures, runtimeFromJs,
  runtimeToJs, utf8,
} from './support/component.mjs';

const NOWS = [1_704_067_200, 1_748_736_000, 1_790_000_000, 1_830_000_000];
const EVIDENCE_NOW = 1_790_000_000;

let wit;
before(async () => {
  wit = await loadComponent();
});

const rimOptions = (now, anchors) => ({ now: BigInt(now), trustAnchors: anchors });
/** The typed `rim-document` as the JS `toJSON().document` (alternatives as hex). */
const documentToJs = (d) => ({
  name: d.name, tagId: d.tagId ?? null, version: d.version ?? null,
  meta: Object.fromEntries(Object.entries(d.meta).map(([k, v]) => [k, v ?? null])),
  measurements: d.measurements.map((m) => ({ ...m, alternatives: m.alternatives.map((a) => Buffer.from(a).toString('hex')) })),
  opaqueFloors: d.opaqueFloors.map((f) => ({ ...f, minSvn: Number(f.minSvn) })),
});
const verifiedToJs = (rim) => ({
  json: JSON.parse(rim.toJson()), document: documentToJs(rim.document()), trusted: rim.trusted(), version: rim.colloquialVersion(),
  chain: (({ status, expiration, errorCode, problem, subjects }) => ({
    status, expiration: expiration === undefined ? null : Number(expiration), errorCode: errorCode ?? null, problem: problem ?? null, subjects,
  }))(rim.certChain()),
});
const jsVerifiedToJs = (rim) => {
  const json = rim.toJSON();
  const { ocspStatus, ...chain } = json.certChain;
  assert.equal(ocspStatus, 'not-checked');
  return { json, document: json.document, trusted: rim.isTrusted, version: rim.colloquialVersion, chain };
};
const plainChecks = (checks) => checks.map((c) => ({ publicKey: [...c.publicKey], message: [...c.message], signature: [...c.signature] }));

test('verify-rim, prepare-rim and identify-rim agree with the JS API on every RIM fixture at every time', (t) => {
  const rims = rimFixtures();
  assert.ok(rims.length >= 50, `${rims.length} RIMs`);
  const seen = { trusted: 0, expired: 0, invalid: 0, errors: new Set() };
  for (const { label, xml, anchors } of rims) {
    agree(caught(() => identifyRim(xml)), caught(() => wit.rim.identifyRim(utf8(xml))), `${label} identity`,
      (id) => ({ ...id, arch: id.arch ?? null, product: id.product ?? null }));
    for (const now of NOWS) {
      const where = `${label} at ${now}`;
      const js = caught(() => verifyRim(xml, { now, trustAnchorPem: anchors }));
      const component = caught(() => wit.rim.verifyRim(utf8(xml), rimOptions(now, anchors)));
      if (agree(js, component, where, verifiedToJs, jsVerifiedToJs) === 'error') {
        seen.errors.add(js.err.code);
      } else {
        seen[js.ok.isTrusted ? 'trusted' : js.ok.toJSON().certChain.status] += 1;
      }
      // Two phases: the same checks; the host's verdicts give the same RIM, a forged one the same refusal.
      const jsPending = caught(() => prepareRim(xml, { now, trustAnchorPem: anchors }));
      const pending = caught(() => wit.rim.prepareRim(utf8(xml), rimOptions(now, anchors)));
      if (agree(jsPending, pending, `${where} prepared`, () => true, () => true) === 'error') continue;
      const checks = pending.ok.signatureChecks();
      assert.deepEqual(plainChecks(checks), plainChecks(jsPending.ok.signatureChecks()), where);
      const verdicts = [...verifyChecksSoftware(checks)].map(Boolean);
      agree(caught(() => jsPending.ok.finish(verdicts)), caught(() => pending.ok.finish(verdicts)), `${where} finished`, verifiedToJs, jsVerifiedToJs);
      codedError(() => pending.ok.finish(verdicts), 'ERR_BATCH_CONSUMED', `${where} second finish`);
      const forged = verdicts.map((v, i) => (i === 0 ? !v : v));
      agree(
        caught(() => prepareRim(xml, { now, trustAnchorPem: anchors }).finish(forged)),
        caught(() => wit.rim.prepareRim(utf8(xml), rimOptions(now, anchors)).finish(forged)),
        `${where} forged`, verifiedToJs, jsVerifiedToJs,
      );
    }
  }
  // Every kind of verdict occurs: trusted, expired and invalid chains, refused documents.
  assert.ok(seen.trusted > 10 && seen.expired > 0 && seen.invalid > 0, JSON.stringify({ ...seen, errors: [...seen.errors] }));
  t.diagnostic(`${rims.length} RIMs × ${NOWS.length} times: ${JSON.stringify({ ...seen, errors: [...seen.errors] })}`);
  for (const code of ['ERR_RIM_SIGNATURE_INVALID']) assert.ok(seen.errors.has(code), `no fixture refused with ${code}: ${[...seen.errors]}`);
});

/** Every evidence fixture whose transcript parses, with its runtime values (JS shape). */
function runtimes() {
  const out = [];
  for (const fixture of evidenceFixtures()) {
    let hwmodel;
    try {
      hwmodel = verifyEvidence({ ...optionsOf(fixture), now: EVIDENCE_NOW }).hwmodelChip ?? undefined;
    } catch {
      hwmodel = undefined;
    }
    const options = { evidence: fixture.evidence, arch: fixture.arch, hwmodel, firmwareVersion: fixture.firmwareVersion };
    const js = caught(() => runtimeEvidence(options));
    const component = caught(() => wit.evidence.readRuntimeEvidence({ ...options, evidence: doc(options.evidence) }));
    agree(js, component, `${fixture.label} runtime values`, runtimeToJs);
    if (js.ok) out.push({ label: fixture.label, arch: fixture.arch, runtime: js.ok });
  }
  return out;
}

test('read-runtime-evidence, rim-ids-of, compare-gpu-rims and compare-switch-rim agree on every evidence fixture against every RIM of its architecture', (t) => {
  const devices = runtimes();
  assert.ok(devices.length >= 35, `${devices.length} devices`);
  // Every RIM that verifies (at a time its chain is valid, if any), by architecture and kind.
  const verified = [];
  for (const { label, xml, anchors } of rimFixtures()) {
    const identity = caught(() => identifyRim(xml)).ok;
    const js = caught(() => verifyRim(xml, { now: EVIDENCE_NOW, trustAnchorPem: anchors })).ok;
    if (!identity?.arch || !js) continue;
    verified.push({ label, identity, js, wit: wit.rim.verifyRim(utf8(xml), rimOptions(EVIDENCE_NOW, anchors)) });
  }
  const counts = { match: 0, mismatch: 0, refused: 0, ids: 0 };
  for (const { label, arch, runtime } of devices) {
    const witRuntime = runtimeFromJs(runtime);
    if (agree(caught(() => rimIds(arch, runtime)), caught(() => wit.rim.rimIdsOf(arch, witRuntime)), `${label} ids`,
      (ids) => ({ driver: ids.driver ?? null, firmware: ids.firmware })) === 'value') counts.ids += 1;
    const ofKind = (kind) => verified.filter((r) => r.identity.arch === arch && r.identity.kind === kind);
    const pairs = arch === 'LS10'
      ? ofKind('firmware').map((f) => [null, f])
      : ofKind('driver').flatMap((d) => ofKind('firmware').map((f) => [d, f]));
    for (const [driver, firmware] of pairs) {
      const where = `${label} × ${driver?.label ?? '-'} × ${firmware.label}`;
      const js = driver ? caught(() => compareGpuRims(driver.js, firmware.js, runtime)) : caught(() => compareSwitchRim(firmware.js, runtime));
      const component = driver
        ? caught(() => wit.rim.compareGpuRims(driver.wit, firmware.wit, witRuntime))
        : caught(() => wit.rim.compareSwitchRim(firmware.wit, witRuntime));
      if (agree(js, component, where, comparisonToJs) === 'error') {
        counts.refused += 1;
        continue;
      }
      // A failed comparison is `fail` in the typed enum and never all-match.
      assert.equal(component.ok.measres === 'success', js.ok.measurementsMatch, where);
      if (!js.ok.measurementsMatch) assert.equal(component.ok.allMatch, false, where);
      counts[js.ok.allMatch ? 'match' : 'mismatch'] += 1;
    }
  }
  t.diagnostic(`${devices.length} devices, ${verified.length} verified RIMs: ${JSON.stringify(counts)}`);
  assert.ok(counts.match >= 2 && counts.mismatch >= 100 && counts.ids >= 30, JSON.stringify(counts));
});

test('open-rim-envelope agrees with openRimEnvelope (decoded document, its coev, id and digest refusals)', () => {
  const xml = rimFixtures()[0].xml;
  const id = 'NV_GPU_DRIVER_GH100_535.86.09';
  const bytes = utf8(xml);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const body = { id, rim: Buffer.from(bytes).toString('base64'), sha256, rim_format: 'TCG', last_updated: '2025-01-01' };
  // A CoRIM's evidence mapping rides beside it (`#6.570`), kept for the host: any bytes here.
  const coev = Buffer.from([0xd9, 0x02, 0x3a, 0xa0]);
  const cases = [
    [body, id], [body, 'NV_GPU_DRIVER_GH100_1.0'], [{ ...body, sha256: '00'.repeat(32) }, id], [{ ...body, rim: '***' }, id],
    [{ ...body, id: 7 }, id], [{ rim: body.rim }, id], ['[]', id], ['{"id":', id],
    [{ ...body, coev: coev.toString('base64'), coev_sha256: createHash('sha256').update(coev).digest('hex') }, id],
    [{ ...body, coev: coev.toString('base64') }, id], [{ ...body, coev: coev.toString('base64'), coev_sha256: sha256 }, id],
  ];
  for (const [b, expected] of cases) {
    const text = typeof b === 'string' ? b : JSON.stringify(b);
    agree(caught(() => openRimEnvelope(text, expected)), caught(() => wit.rim.openRimEnvelope(utf8(text), expected)), text.slice(0, 60),
      (e) => ({ id: e.id, rim: [...e.rim], rimFormat: e.rimFormat ?? null, lastUpdated: e.lastUpdated ?? null, requestId: e.requestId ?? null, coev: e.coev ? [...e.coev] : null }),
      (e) => ({ ...e, rim: [...e.rim], coev: e.coev ? [...e.coev] : null }));
  }
});

test('hostile rim arguments: coded errors, no trap, the instance stays usable', () => {
  const { xml } = rimFixtures().find((r) => r.label.endsWith('NV_GPU_DRIVER_GH100_550.144.03.xml'));
  const rim = wit.rim.verifyRim(utf8(xml), rimOptions(1_748_736_000));
  const big = utf8('<'.repeat(8 * 1024 * 1024));
  const deep = utf8(`${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`);
  const runtime = { measurements: [], opaque: [] };
  codedError(() => wit.rim.prepareRim(big, rimOptions(1_748_736_000)), 'ERR_RIM_TOO_LARGE', '8 MiB RIM');
  codedError(() => wit.rim.identifyRim(big), 'ERR_RIM_TOO_LARGE', '8 MiB RIM identity');
  codedError(() => wit.rim.identifyRim(deep), 'ERR_RIM_TOO_DEEP', 'deep XML');
  codedError(() => wit.rim.identifyRim(utf8('\u0000')), 'ERR_RIM_MALFORMED_XML', 'NUL');
  codedError(() => wit.rim.openRimEnvelope(big, 'x'), 'ERR_RIM_ENVELOPE_JSON', '8 MiB envelope');
  codedError(() => wit.rim.openRimEnvelope(utf8('['.repeat(100_000)), 'x'), 'ERR_RIM_ENVELOPE_JSON', 'deep envelope');
  codedError(() => wit.rim.rimIdsOf('VOLTA', runtime), 'ERR_INVALID_ARGUMENT', 'unknown arch');
  codedError(() => wit.rim.rimIdsOf('HOPPER', runtime), 'ERR_RIM_ID_MISSING_INPUT', 'no values');
  codedError(() => wit.rim.compareGpuRims(rim, rim, { ...runtime, measurements: [[0, new Uint8Array(48)]] }), 'ERR_INVALID_ARGUMENT', 'block 0');
  codedError(() => wit.rim.compareGpuRims(rim, rim, { ...runtime, measurements: Array.from({ length: 300 }, (_, i) => [1 + (i % 255), new Uint8Array(1)]) }), 'ERR_INVALID_ARGUMENT', '300 blocks');
  codedError(() => wit.rim.compareGpuRims(rim, rim, runtime), 'ERR_RIM_INDEX_CONFLICT', 'the same RIM twice');
  codedError(() => wit.rim.prepareRim(utf8(xml), rimOptions(2 ** 40)), 'ERR_INVALID_ARGUMENT', 'now out of range');
  const pending = wit.rim.prepareRim(utf8(xml), rimOptions(1_748_736_000));
  codedError(() => pending.finish([true]), 'ERR_RIM_SIGNATURE_INVALID', 'one verdict for four checks (as in JS)');
  codedError(() => pending.signatureChecks(), 'ERR_BATCH_CONSUMED', 'checks after finish');
  assert.equal(wit.rim.verifyRim(utf8(xml), rimOptions(1_748_736_000)).trusted(), true);
});
