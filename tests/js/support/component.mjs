// Shared by tests/js/component*.test.mjs (not component-service*): the `edgeattest:verifier`
// component (target/component/edgeattest-verifier.wasm, built by pkg-config/build-component.sh)
// transpiled by jco and run on preview2-shim in this Node process, and the WIT values read
// back into the JS API's shapes, so that every answer can be compared with pkg/ whole.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { transpile, writeFiles } from '@bytecodealliance/jco-transpile';

const root = new URL('../../../', import.meta.url);
const COMPONENT = new URL('target/component/edgeattest-verifier.wasm', root);

/** The component's exports ({ attest, evidence, rim, ocsp, token, policy }), transpiled once per test file. */
export async function loadComponent() {
  assert.ok(
    existsSync(COMPONENT),
    `${COMPONENT.pathname} is missing: build it with \`bash pkg-config/build-component.sh\``,
  );
  // Under target/ of this checkout, so the output resolves node_modules/@bytecodealliance/preview2-shim.
  const outDir = new URL(`target/component/jco-test-${process.pid}/`, root).pathname;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const { files } = await transpile(COMPONENT.pathname, { outDir, name: 'verifier', optimize: false });
  await writeFiles(files);
  process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
  return import(pathToFileURL(`${outDir}verifier.js`).href);
}

export const utf8 = (s) => new TextEncoder().encode(s);
/** A WIT `document`. */
export const doc = (v) => (typeof v === 'string' ? { tag: 'text', val: v } : { tag: 'bytes', val: v });

/** The component's error value: jco-transpile throws the WIT error itself (`payload` in the CLI's output). */
export function caught(fn) {
  try {
    return { ok: fn() };
  } catch (e) {
    return { err: e?.payload ?? e };
  }
}

/** The JS API's answer or error, sync or async. */
export async function settled(fn) {
  try {
    return { ok: await fn() };
  } catch (e) {
    return { err: e };
  }
}

/** The coded error of any WIT failure: an `error`, or a `result-error` case. */
function witError(err) {
  if (err.tag === 'coded') return err.val;
  if (err.tag === 'rejected' || err.tag === 'refused') return err.val.error;
  return err;
}

/** Both sides threw the same coded error (code, field, message). */
export function sameError(js, component, label) {
  assert.ok(js, `${label}: the JS API answered where the component threw ${JSON.stringify(component.err)}`);
  assert.ok(component.err, `${label}: the component answered where the JS API threw ${js.code}`);
  const err = witError(component.err);
  assert.equal(err.code, js.code, `${label}: ${err.message}`);
  assert.equal(err.field ?? undefined, js.field ?? undefined, label);
  assert.equal(err.message, js.message, label);
}

/** The component threw a coded WIT error with this code (no trap, no other exception). */
export function codedError(fn, code, label = code) {
  const { ok, err } = caught(fn);
  assert.equal(ok, undefined, `${label}: expected ${code}, got a value`);
  const e = witError(err);
  assert.equal(typeof e.message, 'string', `${label}: not a coded WIT error: ${e}`);
  assert.equal(e.code, code, `${label}: ${e.message}`);
  return e;
}

/** Agreement: both answered (compared as `toJs(component)` against `fromJs(js)`) or both threw alike. */
export function agree(js, component, label, toJs = (v) => v, fromJs = (v) => v) {
  if (js.err) {
    sameError(js.err, component, label);
    return 'error';
  }
  assert.ok(component.ok !== undefined, `${label}: the component threw ${JSON.stringify(component.err)}`);
  assert.deepEqual(toJs(component.ok), fromJs(js.ok), label);
  return 'value';
}

const num = (v) => (v === undefined ? null : Number(v));
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const bytesOf = (v) => (typeof v === 'string' ? Uint8Array.from(Buffer.from(v, 'hex')) : v);

// ---- tokens ----------------------------------------------------------------------------

/** A WIT `appraisal` as the JS `Appraisal` (a reason's value is the token's JSON), whole. */
export const appraisalToJs = (a) => ({
  level: a.level,
  passed: a.passed,
  overallResult: a.overallResult ?? null,
  devices: a.devices.map((d) => ({
    label: d.label,
    passed: d.passed ?? null,
    reasons: d.reasons.map((r) => ({ claim: r.claim, value: JSON.parse(r.value), message: r.message })),
    revocationConfirmed: d.revocationConfirmed,
    warnings: d.warnings,
  })),
  revocationConfirmed: a.revocationConfirmed,
});

/** A `refused` case is the JS verdict error: code, message, level, appraisal and result. */
export function sameRefusal(js, component, label) {
  assert.equal(component.ok, undefined, `${label}: a refused verdict must never be a success value`);
  assert.equal(component.err?.tag, 'refused', label);
  const refusal = component.err.val;
  assert.equal(refusal.error.code, js.code, label);
  assert.equal(refusal.error.message, js.message, label);
  assert.equal(refusal.level, js.level, label);
  assert.deepEqual(appraisalToJs(refusal.appraisal), js.appraisal, label);
  assert.deepEqual(appraisalToJs(refusal.result.appraisal()), js.appraisal, label);
  assert.deepEqual(JSON.parse(refusal.result.data()), js.result, label);
  return refusal;
}

/** WIT `verify-options` from the JS API's (now, issuer, nonce, format, allowUnknownRevocation, signers, revocation). */
export function witVerifyOptions(o) {
  return {
    now: BigInt(o.now), issuer: o.issuer ? [o.issuer] : [], audience: [], subject: undefined, nonce: o.nonce,
    clockTolerance: undefined, maxTokenAge: undefined, requiredClaims: [], typ: undefined, crit: [],
    format: o.format, endpoint: undefined, allowUnknownRevocation: o.allowUnknownRevocation ?? false,
    signers: o.signers === undefined ? undefined : JSON.stringify(o.signers),
    revocation: o.revocation === undefined ? undefined : JSON.stringify(o.revocation),
  };
}

/** A rejection carries every token's verdict and the level, as the JS error's `verdicts` and `level`. */
export function sameVerdicts(js, component, label) {
  assert.ok(js.verdicts, `${label}: the JS error has no verdicts`);
  assert.equal(component.err.tag, 'rejected', label);
  assert.deepEqual(verdictsToJs(component.err.val.verdicts), js.verdicts, label);
  assert.ok('level' in js, `${label}: the JS error has no level`);
  assert.equal(component.err.val.level ?? null, js.level, `${label}: level`);
}

/** A `rejected` case's verdicts as the JS error's `verdicts`. */
export const verdictsToJs = (verdicts) => verdicts.map((v) => ({
  label: v.label ?? null, verified: v.error === undefined, code: v.error?.code ?? null, field: v.error?.field ?? null,
  stage: v.stage ?? null, message: v.message ?? null, held: [...v.held], digest: v.digest ?? null, payload: v.claims === undefined ? null : JSON.parse(v.claims),
}));

/** A WIT `policy-decision` as the JS `PolicyDecision` (expected and found values are JSON). */
export function decisionToJs(d) {
  const rules = (list) => list.map((r) => ({
    path: r.path, expected: JSON.parse(r.expected), ...(r.found === undefined ? {} : { found: JSON.parse(r.found) }), status: r.status,
  }));
  return {
    passed: d.passed, version: d.version, overall: rules(d.overall),
    devices: d.devices.map((device) => ({ label: device.label, passed: device.passed, rules: rules(device.rules) })),
  };
}

// ---- evidence --------------------------------------------------------------------------

/** WIT `evidence-options` from the JS API's options. */
export function witEvidenceOptions(o) {
  return {
    nonce: doc(o.nonce), arch: o.arch, now: BigInt(o.now), trustAnchors: o.trustAnchors,
    evidenceEncoding: o.evidenceEncoding, requireFwid: o.requireFwid ?? false,
  };
}

/** WIT `report-options` from the JS API's `EvidenceReportOptions`. */
export function witReportOptions(o) {
  return {
    options: witEvidenceOptions(o),
    device: { evidence: doc(o.evidence), certificate: o.certificate },
    rims: {
      driver: o.rims?.driver === undefined ? undefined : doc(o.rims.driver),
      firmware: o.rims?.firmware === undefined ? undefined : doc(o.rims.firmware),
    },
    rimAnchors: o.rimAnchors,
    firmwareVersion: o.firmwareVersion,
    revocation: o.revocation === undefined
      ? undefined
      : { status: o.revocation.status, message: o.revocation.message, warnings: o.revocation.warnings ?? [] },
  };
}

/**
 * A WIT `evidence-report` as the JS `EvidenceReport`. The four checks a report exists for
 * (parsed, nonce, signature, architecture) are implied by the record, as the chain's
 * `ocspStatus: 'not-checked'` (revocation is the `ocsp` interface's).
 */
export function evidenceReportToJs(r) {
  return {
    arch: r.arch, profile: r.profile, hwmodel: r.hwmodel ?? null, hwmodelChip: r.hwmodelChip ?? null, ueid: r.ueid,
    driverVersion: r.driverVersion ?? null, vbiosVersion: r.vbiosVersion ?? null, mode: r.mode ?? null,
    reportParsed: true, nonceMatch: true, signatureVerified: true, archCheck: true,
    fwid: r.fwid,
    certChain: { status: r.certChain.status, expirationDate: r.certChain.expirationDate, ocspStatus: 'not-checked', subjects: r.certChain.subjects },
    nonce: r.nonce, responderNonce: r.responderNonce, opaqueFormat: r.opaqueFormat,
    measurements: r.measurements.map((m) => ({ index: m.index, valueType: m.valueType, representation: m.representation, value: m.value })),
    opaque: r.opaque.map((o) => ({ tag: o.tag, name: o.name ?? null, valueType: o.valueType ?? null, value: o.value })),
    signature: r.signature, evidenceForm: r.evidenceForm,
  };
}

/** A WIT `device-result` as the JS `DeviceResult`. */
export const deviceResultToJs = (r) => (r.tag === 'passed'
  ? { ok: true, report: evidenceReportToJs(r.val) }
  : { ok: false, error: { code: r.val.code, message: r.val.message, serviceCode: r.val.serviceCode } });

/** A WIT `device-report` as the JS `DeviceReport`. */
export function deviceReportToJs(r) {
  const failure = (f) => ({ stage: f.stage, code: f.code, message: f.message, serviceCode: f.serviceCode ?? null });
  const step = (s) => ({
    id: s.id ?? null, status: s.status, version: s.version ?? null, signatureVerified: s.signatureVerified ?? null,
    chainStatus: s.chainStatus ?? null, chainExpiration: num(s.chainExpiration),
  });
  return {
    verdict: r.verdict,
    passesWithoutRevocation: r.passesWithoutRevocation,
    stages: r.stages.map((s) => ({ id: s.id, title: s.title, status: s.status, detail: s.detail, warning: s.warning ?? null, code: s.code ?? null })),
    failure: r.failure ? failure(r.failure) : null,
    failures: r.failures.map(failure),
    notChecked: r.notChecked,
    rims: { driver: step(r.rims.driver), firmware: step(r.rims.firmware) },
    revocation: r.revocation,
    comparison: r.comparison ? comparisonToJs(r.comparison, { report: false }) : null,
    measres: r.comparison ? r.comparison.measres : null,
    evidence: r.evidence ? evidenceReportToJs(r.evidence) : null,
  };
}

// ---- RIMs and runtime evidence ---------------------------------------------------------

/** A WIT `rim-comparison` as the JS `RimComparison` (a device report's: without measres and allMatch). */
export function comparisonToJs(c, { report = true } = {}) {
  const version = (v) => ({ rimVersion: v.rimVersion, evidenceVersion: v.evidenceVersion ?? null, matches: v.matches });
  const out = {
    measurementsMatch: c.measurementsMatch,
    mismatches: c.mismatches.map((m) => ({
      index: m.index, goldenSize: m.goldenSize, goldenValue: m.goldenValue, runtimeSize: m.runtimeSize,
      runtimeValue: m.runtimeValue, measurementSource: m.measurementSource === 'driver' ? 'Driver' : 'Firmware',
    })),
    opaqueMismatches: c.opaqueMismatches.map((m) => ({
      id: m.id, name: m.name, goldenType: m.goldenType, goldenValue: Number(m.goldenValue),
      ...(m.runtimeType === undefined ? {} : { runtimeType: m.runtimeType }),
      ...(m.runtimeValue === undefined ? {} : { runtimeValue: Number(m.runtimeValue) }),
    })),
    attesterClaims: Object.fromEntries(c.attesterClaims.map(([k, v]) => [k, Number(v)])),
    compared: c.compared,
    nvdec0: c.nvdec0,
    driverVersion: c.driverVersion ? version(c.driverVersion) : null,
    firmwareVersion: version(c.firmwareVersion),
  };
  if (report) Object.assign(out, { measres: c.measres, allMatch: c.allMatch });
  return out;
}

const RUNTIME_TEXT = ['driverVersion', 'vbiosVersion', 'project', 'projectSku', 'chipSku', 'chipInfo', 'hwmodel', 'firmwareVersionHint'];

/** A WIT `runtime-evidence` as the JS `RuntimeEvidenceInput` (as `runtimeEvidence` writes it). */
export function runtimeToJs(r) {
  const out = { measurements: Object.fromEntries(r.measurements.map(([i, v]) => [String(i), hex(v)])) };
  for (const key of RUNTIME_TEXT) if (r[key] !== undefined) out[key] = r[key];
  if (r.nvdec0Status !== undefined) out.nvdec0Status = r.nvdec0Status;
  out.opaque = r.opaque.map((o) => ({ id: o.id, ...(o.valueType === undefined ? {} : { valueType: o.valueType }), value: hex(o.value) }));
  if (r.apsku !== undefined) out.apsku = r.apsku;
  return out;
}

/** The JS `RuntimeEvidenceInput` as a WIT `runtime-evidence`. */
export function runtimeFromJs(js) {
  const out = {
    measurements: Object.entries(js.measurements ?? {}).map(([i, v]) => [Number(i), bytesOf(v)]),
    opaque: (js.opaque ?? []).map((o) => ({ id: o.id, valueType: o.valueType, value: bytesOf(o.value) })),
    nvdec0Status: js.nvdec0Status,
    apsku: js.apsku,
  };
  for (const key of RUNTIME_TEXT) out[key] = js[key];
  return out;
}

// ---- OCSP ------------------------------------------------------------------------------

/** The JS `OcspAnswer` as a WIT `ocsp-answer`. */
export function witAnswer(a) {
  if (a.body !== undefined) return { tag: 'response', val: { body: new Uint8Array(a.body), nonce: a.nonce } };
  const failure = a.error === 'status' ? { tag: 'http-status', val: a.status } : { tag: a.error };
  return { tag: 'failed', val: failure };
}

/** A WIT `ocsp-chain-status` as the JS `OcspChainStatus`. */
export function ocspStatusToJs(s) {
  return {
    status: s.status,
    ...(s.held ? { held: true } : {}),
    ...some('reason', s.reason),
    ...some('code', s.code),
    ...some('serviceCode', s.serviceCode),
    warnings: s.warnings,
    certificates: s.certificates.map(ocspCertificateToJs),
  };
}

const some = (key, value) => (value === undefined ? {} : { [key]: value });

/** A WIT `ocsp-certificate-status` as the JS `OcspCertificateStatus`. */
function ocspCertificateToJs(c) {
  return {
    subject: c.subject,
    status: c.status,
    ...some('reason', c.reason),
    ...some('revokedAt', c.revokedAt === undefined ? undefined : Number(c.revokedAt)),
    thisUpdate: num(c.thisUpdate),
    nextUpdate: num(c.nextUpdate),
    ...some('nonce', c.nonce),
    ...some('cacheUntil', c.cacheUntil === undefined ? undefined : Number(c.cacheUntil)),
    ...some('code', c.code),
    ...some('message', c.message),
  };
}

/** A WIT `signer-ocsp-status` as the JS `SignerOcspStatus`. */
export function signerOcspStatusToJs(s) {
  return {
    status: s.status,
    ...some('anchor', s.anchor),
    ...some('notChecked', s.notChecked),
    warnings: s.warnings,
    ...some('code', s.code),
    ...some('message', s.message),
    certificates: s.certificates.map(ocspCertificateToJs),
  };
}

// ---- fixtures --------------------------------------------------------------------------

const nvidia = new URL('tests/fixtures/nvidia/', root);
const nvidiaText = (path) => readFileSync(new URL(path, nvidia), 'utf8');

/**
 * Every device evidence fixture under tests/fixtures/nvidia/evidence: each transcript with
 * its chain (a transcript without its own chain is paired as the Rust tests pair it), every
 * device of the serialized sets, and the Blackwell FSP CMW. `nonce` is the transcript's own
 * requester nonce (bytes 4 to 36 of GET_MEASUREMENTS), `firmwareVersion` the CMW's hint.
 */
export function evidenceFixtures() {
  const arch = { hopper: 'HOPPER', blackwell: 'BLACKWELL', switch: 'LS10' };
  const chainOf = {
    'nvat_hopper_560.00_INVALID_SIGNATURE_report.hex': 'nvat_hopper_570.124.03_certchain.pem',
    'nvat_ls10_96.10.52.00.00_INVALID_SIGNATURE_report.hex': 'nvat_ls10_96.10.55.00.01_certchain.pem',
    'trustee_hopper_580.95.05_report_trailing_byte.hex': 'trustee_hopper_580.95.05_certchain.pem',
    // NVIDIA's NVDAOD transcript came without its chain: any chain fails its signature.
    'nvat_nvdaod_620.12_transcript_NO_CHAIN.hex': 'nvat_hopper_580.159.03_certchain.pem',
  };
  const out = [];
  for (const dir of Object.keys(arch)) {
    for (const file of readdirSync(new URL(`evidence/${dir}/`, nvidia)).filter((f) => f.endsWith('.hex')).sort()) {
      const evidence = Uint8Array.from(Buffer.from(nvidiaText(`evidence/${dir}/${file}`).trim(), 'hex'));
      const chain = chainOf[file] ?? file.replace(/_report\.hex$/, '_certchain.pem');
      out.push({
        label: `${dir}/${file}`, evidence, certificate: nvidiaText(`evidence/${dir}/${chain}`),
        nonce: hex(evidence.subarray(4, 36)), arch: arch[dir],
      });
    }
  }
  const gonvtrust = out.find((f) => f.label.includes('gonvtrust_hopper_545.00'));
  out.push({ ...gonvtrust, label: 'gonvtrust 545.00 with the chain missing its BROM', certificate: nvidiaText('evidence/hopper/gonvtrust_INVALID_certchain_missing_brom.pem') });
  for (const file of readdirSync(new URL('evidence/serialized/', nvidia)).sort()) {
    JSON.parse(nvidiaText(`evidence/serialized/${file}`)).forEach((item, i) => {
      out.push({ label: `serialized/${file} #${i}`, evidence: item.evidence, certificate: item.certificate, nonce: item.nonce, arch: item.arch });
    });
  }
  const cmw = JSON.parse(nvidiaText('evidence/blackwell/nvat_blackwell_fsp_evidence.cmw.json')).gpu_0;
  const evidence = new Uint8Array(Buffer.from(cmw.evidence[1], 'base64url'));
  out.push({
    label: 'blackwell/nvat_blackwell_fsp_evidence.cmw.json', evidence, arch: 'BLACKWELL',
    certificate: Buffer.from(cmw.certificate[1], 'base64url').toString('utf8'), nonce: hex(evidence.subarray(4, 36)),
    firmwareVersion: JSON.parse(Buffer.from(cmw.hints[1], 'base64url')).fwversion,
  });
  return out;
}

/**
 * NVIDIA's Blackwell FSP CMW as the JSON text its SDK wrote and as the CBOR CMW of the same
 * collection (a DERIVED fixture, see tests/fixtures/vectors/PROVENANCE.md), with the
 * transcript's own nonce.
 */
export function cmwFixtures() {
  const text = nvidiaText('evidence/blackwell/nvat_blackwell_fsp_evidence.cmw.json');
  const transcript = Buffer.from(JSON.parse(text).gpu_0.evidence[1], 'base64url');
  const common = { arch: 'BLACKWELL', nonce: hex(transcript.subarray(4, 36)) };
  return [
    { label: 'json-cmw', evidence: text, ...common },
    { label: 'cbor-cmw', evidence: new Uint8Array(readFileSync(new URL('vectors/cmw/nvidia-fsp-collection-DERIVED.cbor', fixtures))), ...common },
  ];
}

/** The transcript as bytes, whatever form the fixture gives it in (hex or base64 text). */
export function transcriptBytes(fixture) {
  if (typeof fixture.evidence !== 'string') return fixture.evidence;
  return /^[0-9a-f]+$/i.test(fixture.evidence) ? Uint8Array.from(Buffer.from(fixture.evidence, 'hex')) : new Uint8Array(Buffer.from(fixture.evidence, 'base64'));
}

const fixtures = new URL('tests/fixtures/', root);
const fixtureFile = (path) => readFileSync(new URL(path, fixtures), 'utf8');

/**
 * Every RIM fixture: NVIDIA's (nvat, nvtrust; NVIDIA's RIM root) and the generated ones
 * (generated/blackwell, generated/ocsp/rims; their own test roots), `anchors` undefined for
 * NVIDIA's root. The RIM with the wrong chain is also given with the root it names.
 */
export function rimFixtures() {
  const out = [];
  const add = (dir, filter, anchors) => {
    for (const file of readdirSync(new URL(dir, fixtures)).filter(filter).sort()) {
      out.push({ label: `${dir}${file}`, xml: fixtureFile(`${dir}${file}`), anchors });
    }
  };
  add('nvidia/rims/nvat/', (f) => f.endsWith('.xml'));
  add('nvidia/rims/nvtrust/', (f) => f.endsWith('.swidtag'));
  add('generated/blackwell/', (f) => f.endsWith('.xml'), fixtureFile('generated/blackwell/rim_root.pem'));
  add('generated/ocsp/rims/', (f) => f.endsWith('.xml'), fixtureFile('generated/ocsp/rim_root.pem'));
  const wrong = out.find((r) => r.label.endsWith('incorrect_cert_chain_driver_rim.xml'));
  out.push({ ...wrong, label: `${wrong.label} (its own root)`, anchors: fixtureFile('nvidia/rims/nvat/incorrect_rim_root.crt') });
  return out;
}

/** A fixture as the JS API's options (without its label). */
export const optionsOf = ({ label, ...options }) => options;
