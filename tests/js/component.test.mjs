// The `edgeattest:verifier` WebAssembly Component (target/component/edgeattest-verifier.wasm,
// built by pkg-config/build-component.sh) in a real component runtime: transpiled by jco and
// run on preview2-shim in this Node process. It must agree with the npm package (pkg/local/) on
// the Wycheproof P-384 vectors, on the evidence and chain verdicts of evidence.test.mjs, on
// recorded NRAS results (refused and rejected verdicts included), on NVIDIA's JSON
// policies and on built and validated attest requests; hostile inputs at the WIT boundary get
// coded errors, and the instance stays usable after them. The evidence, RIM and OCSP
// interfaces over every fixture: component-evidence, component-rim, component-ocsp.test.mjs;
// the two-phase token verification: component-token.test.mjs
// (shared helpers: support/component.mjs).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import {
  appraise,
  createDetachedEat,
  createJwks,
  generateKeyPair,
  verifyAttestationResult,
  verifyCertificateChain,
  verifyChecksSoftware,
  verifyEvidence,
  verifyJwt,
} from '../../pkg/local/index.js';
import { verifyRim } from '../../pkg/local/edgeattest.js';
import { capture, fixtureText, hexBytes } from './support/fixtures.mjs';
import {
  appraisalToJs, caught, codedError, decisionToJs, doc, evidenceReportToJs, loadComponent, sameError, settled, utf8,
  sameRefusal, sameVerdicts, witEvidenceOptions, witVerifyOptions,
} from './support/component.mjs';

const root = new URL('../../', import.meta.url);
const fixtures = new URL('tests/fixtures/', root);
const text = (path) => readFileSync(new URL(path, fixtures), 'utf8');
const json = (path) => JSON.parse(text(path));
const generated = (file) => text(`generated/${file}`);
const N931 = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const NOW = 1_790_000_000;
const CAPTURES = ['v3_1gpu_success_20260629', 'v3_8gpu_success_20260629', 'v3_8gpu_nonce_mismatch_20260520'];

let wit; // { attest, evidence, rim, ocsp, token, policy }

before(async () => {
  wit = await loadComponent();
});

// ---- evidence and chains ----------------------------------------------------------------

const hopper = {
  evidence: hexBytes('evidence/hopper/nvtrust_hopper_550.90.07_report.hex'),
  certificate: fixtureText('evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem'),
};
function witEvidence(o) {
  return wit.evidence.verifyEvidence(witEvidenceOptions(o), { evidence: doc(o.evidence), certificate: o.certificate });
}

function evidenceCases() {
  const b64 = Buffer.from(hopper.evidence).toString('base64');
  const hexB64 = Buffer.from(Buffer.from(hopper.evidence).toString('hex')).toString('base64');
  const leaf = {
    evidence: Uint8Array.from(Buffer.from(generated('evidence_test_leaf.hex').trim(), 'hex')),
    nonce: N931, arch: 'HOPPER', now: NOW, trustAnchors: generated('test_root.pem'),
  };
  const cases = [
    ['hopper sample', { ...hopper, nonce: N931, arch: 'HOPPER', now: NOW }, 'pass'],
    ['generation 2 base64', { evidence: b64, certificate: Buffer.from(hopper.certificate).toString('base64'), nonce: N931, arch: 'HOPPER', now: NOW }, 'pass'],
    ['base64 of hex', { ...hopper, evidence: hexB64, nonce: N931, arch: 'HOPPER', now: NOW, evidenceEncoding: 'base64-hex' }, 'pass'],
    ['nonce mismatch', { ...hopper, nonce: '00'.repeat(32), arch: 'HOPPER', now: NOW }, 'ERR_EVIDENCE_NONCE_MISMATCH'],
    ['arch mismatch', { ...hopper, nonce: N931, arch: 'LS10', now: NOW }, 'ERR_EVIDENCE_ARCH_MISMATCH'],
    ['unknown arch', { ...hopper, nonce: N931, arch: 'AMPERE', now: NOW }, 'ERR_INVALID_ARGUMENT'],
    ['invalid signature', {
      evidence: hexBytes('evidence/hopper/nvat_hopper_560.00_INVALID_SIGNATURE_report.hex'),
      certificate: fixtureText('evidence/hopper/nvat_hopper_570.124.03_certchain.pem'), nonce: N931, arch: 'HOPPER', now: NOW,
    }, 'ERR_EVIDENCE_SIGNATURE'],
    ['trailing byte', {
      evidence: hexBytes('evidence/hopper/trustee_hopper_580.95.05_report_trailing_byte.hex'),
      certificate: fixtureText('evidence/hopper/trustee_hopper_580.95.05_certchain.pem'),
      nonce: '87d8e24ab336adafe228d49e83d745f6dba4ae505372b6a5704820856b343fec', arch: 'HOPPER', now: NOW,
    }, 'ERR_EVIDENCE_TRAILING_BYTES'],
    ['chain without BROM', {
      evidence: hexBytes('evidence/hopper/gonvtrust_hopper_545.00_report.hex'),
      certificate: fixtureText('evidence/hopper/gonvtrust_INVALID_certchain_missing_brom.pem'),
      nonce: '4cff7f5380ead8fad8ec2c531c110aca4302a88f603792801a8ca29ee151af2e', arch: 'HOPPER', now: NOW,
    }, 'ERR_CHAIN_ISSUER_NOT_FOUND'],
    ['truncated', { ...hopper, evidence: hopper.evidence.slice(0, 100), nonce: N931, arch: 'HOPPER', now: NOW }, 'ERR_EVIDENCE_TRUNCATED'],
    ['configured anchors, FWID matched', { ...leaf, certificate: generated('chain_valid.pem') }, 'pass'],
    ['FWID mismatch', { ...leaf, certificate: generated('chain_fwid_mismatch.pem') }, 'ERR_EVIDENCE_FWID_MISMATCH'],
    ['untrusted root', { ...leaf, certificate: generated('chain_valid.pem'), trustAnchors: undefined }, 'ERR_CHAIN_UNTRUSTED_ROOT'],
    ['expired leaf (reported)', { ...leaf, certificate: generated('chain_expired_leaf.pem') }, 'pass'],
  ];
  // Every device of the 8-GPU and 4-switch sets, one by one.
  for (const file of ['nvtrust_ppcie_gpu_evidence_8gpu.json', 'nvtrust_ppcie_switch_evidence_4sw.json']) {
    JSON.parse(fixtureText(`evidence/serialized/${file}`)).forEach((item, i) => {
      cases.push([`${file} #${i}`, { evidence: item.evidence, certificate: item.certificate, nonce: item.nonce, arch: item.arch, now: NOW }, 'pass']);
    });
  }
  return cases;
}

test('verify-evidence agrees with verifyEvidence on every evidence.test.mjs verdict (report, code, field, message)', () => {
  const cases = evidenceCases();
  assert.equal(cases.length, 26);
  for (const [label, options, expected] of cases) {
    const js = caught(() => verifyEvidence(options));
    const component = caught(() => witEvidence(options));
    if (expected === 'pass') {
      assert.ok(js.ok, `${label}: JS threw ${js.err?.code}`);
      assert.ok(component.ok, `${label}: component threw ${JSON.stringify(component.err)}`);
      assert.deepEqual(evidenceReportToJs(component.ok), js.ok, label);
      assert.equal(component.ok.arch, js.ok.arch);
      assert.equal(component.ok.profile, js.ok.profile);
      assert.equal(component.ok.ueid, js.ok.ueid);
      assert.equal(component.ok.hwmodel ?? undefined, js.ok.hwmodel ?? undefined);
    } else {
      assert.equal(js.err?.code, expected, label);
      sameError(js.err, component, label);
    }
  }
});

test('verify-certificate-chain agrees with verifyCertificateChain (status enum, leaf key, failures)', () => {
  const cases = [
    { certificate: fixtureText('evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem'), now: NOW },
    { certificate: generated('chain_expired_leaf.pem'), trustAnchors: generated('test_root.pem'), now: NOW },
    { certificate: generated('chain_pathlen_violation.pem'), trustAnchors: generated('test_root.pem'), now: NOW },
    { certificate: generated('chain_expired_leaf.pem'), trustAnchors: generated('test_root.pem'), now: NOW, enforceTime: true },
  ];
  const statuses = [];
  for (const options of cases) {
    const js = caught(() => verifyCertificateChain(options));
    const component = caught(() => wit.evidence.verifyCertificateChain({
      certificate: options.certificate, now: BigInt(options.now), trustAnchors: options.trustAnchors, enforceTime: options.enforceTime ?? false,
    }));
    if (js.err) {
      sameError(js.err, component, js.err.code);
      statuses.push(js.err.code);
      continue;
    }
    const c = component.ok;
    assert.equal(c.status, js.ok.status);
    assert.equal(c.expirationDate, js.ok.expirationDate);
    assert.deepEqual(c.subjects, js.ok.subjects);
    assert.equal(c.ueid, js.ok.ueid);
    assert.equal(c.hwmodel ?? undefined, js.ok.hwmodel ?? undefined);
    assert.deepEqual([...c.leafPublicKey], [...js.ok.leafPublicKey]);
    statuses.push(c.status);
  }
  assert.deepEqual(statuses, ['valid', 'expired', 'ERR_CHAIN_PATH_LEN', 'ERR_CHAIN_EXPIRED']);
});

// ---- signatures, tokens, results, policies ----------------------------------------------

test('verify-signatures agrees with verifyChecksSoftware on the Wycheproof P-384 vectors (280 P1363 + 504 DER)', () => {
  const hex = (t) => Uint8Array.from(Buffer.from(t, 'hex'));
  for (const [file, count, valid] of [
    ['vectors/wycheproof/ecdsa_secp384r1_sha384_p1363_test.json', 280, 193],
    ['vectors/wycheproof/ecdsa_secp384r1_sha384_test.json', 504, 0],
  ]) {
    const checks = [];
    const expected = [];
    for (const group of json(file).testGroups) {
      for (const t of group.tests) {
        checks.push({ publicKey: hex(group.publicKey.uncompressed), message: hex(t.msg), signature: hex(t.sig) });
        expected.push(t.result === 'valid' && file.includes('p1363'));
      }
    }
    assert.equal(checks.length, count);
    const component = wit.token.verifySignatures(checks);
    assert.deepEqual(component, [...verifyChecksSoftware(checks)].map(Boolean));
    assert.deepEqual(component, expected);
    assert.equal(component.filter(Boolean).length, valid);
  }
});

const witOptions = witVerifyOptions;

test('verify-attestation-result agrees with verifyAttestationResult on the recorded NRAS results; a failed verdict is the refused case', async () => {
  for (const name of CAPTURES) {
    const c = capture(name);
    const options = { issuer: 'https://nras.attestation.nvidia.com', nonce: c.nonce, now: c.iat };
    const body = utf8(JSON.stringify(c.response));
    const jwks = utf8(JSON.stringify(c.jwks));
    let js;
    try {
      js = { ok: await verifyAttestationResult(c.response, c.jwks, { ...options, backend: 'software' }) };
    } catch (e) {
      js = { err: e };
    }
    const component = caught(() => wit.token.verifyAttestationResult(body, jwks, witOptions(options)));
    if (name.includes('mismatch')) {
      assert.equal(js.err?.code, 'ERR_ATTESTATION_FAILED');
      const refusal = sameRefusal(js.err, component, name);
      assert.equal(refusal.appraisal.passed, false);
      assert.equal(refusal.level, 'failed');
      assert.equal(refusal.result.overallResult(), false);
    } else {
      assert.ok(js.ok, `${name}: ${js.err?.code}`);
      const r = component.ok;
      assert.equal(r.format(), 'detached');
      assert.equal(r.overallResult(), true);
      assert.deepEqual(JSON.parse(r.data()), js.ok);
      assert.deepEqual(appraisalToJs(r.appraisal()), js.ok.appraisal);
      assert.equal(r.appraisal().level, 'passed', name);
    }
    // An hour past the token's expiry: the same coded refusal on both sides.
    const late = { ...options, now: c.iat + 100_000 };
    let lateJs;
    try {
      await verifyAttestationResult(c.response, c.jwks, { ...late, backend: 'software' });
    } catch (e) {
      lateJs = e;
    }
    assert.ok(lateJs, `${name}: JS accepted an expired result`);
    const lateWit = caught(() => wit.token.verifyAttestationResult(body, jwks, witOptions(late)));
    sameError(lateJs, lateWit, `${name} late`);
    sameVerdicts(lateJs, lateWit, `${name} late`);
    assert.equal(lateWit.err.val.level, 'expired', `${name} late`);
    // Another challenge's answer: authentic, but the wrong nonce.
    const other = { ...options, nonce: '00'.repeat(32) };
    const otherJs = await settled(() => verifyAttestationResult(c.response, c.jwks, { ...other, backend: 'software' }));
    const otherWit = caught(() => wit.token.verifyAttestationResult(body, jwks, witOptions(other)));
    sameError(otherJs.err, otherWit, `${name} wrong nonce`);
    sameVerdicts(otherJs.err, otherWit, `${name} wrong nonce`);
    assert.equal(otherWit.err.val.level, 'wrong-nonce', `${name} wrong nonce`);
  }
});

test('verify-attestation-result: a pass with device warnings is passed-with-warnings, refused or relaxed, as the JS API says', async () => {
  // NVIDIA's real claims 3.0 Hopper claim set (tests/fixtures/nvidia/nras/nvat), minted here;
  // GPU-1's chains OCSP `unknown` with this crate's service's warning, as revocation-verdict.test.mjs.
  const times = { iss: 'https://edgeattest.test', iat: NOW, nbf: NOW, exp: NOW + 3600, jti: 'j' };
  const hopperClaims = () => ({ ...json('nvidia/nras/nvat/hopperClaimsv3_decoded.json')['GPU-0'], ...times });
  const unchecked = hopperClaims();
  for (const chain of ['x-nvidia-gpu-attestation-report-cert-chain', 'x-nvidia-gpu-driver-rim-cert-chain', 'x-nvidia-gpu-vbios-rim-cert-chain']) {
    unchecked[chain] = { ...unchecked[chain], 'x-nvidia-cert-ocsp-status': 'unknown' };
  }
  unchecked['x-nvidia-attestation-warning'] = 'Certificate revocation (OCSP) was not checked by this verifier';
  const overall = {
    sub: 'NVIDIA-PLATFORM-ATTESTATION', ...times, 'x-nvidia-ver': '3.0', 'x-nvidia-overall-att-result': true, eat_nonce: N931,
  };
  const { privateKey, publicJwk } = await generateKeyPair({ kid: 'k', backend: 'software' });
  const jwks = createJwks([{ kid: 'k', key: publicJwk }]);
  const result = await createDetachedEat(overall, { 'GPU-0': hopperClaims(), 'GPU-1': unchecked }, privateKey, { kid: 'k' });
  const body = utf8(JSON.stringify(result));
  const witJwks = utf8(JSON.stringify(jwks));
  // Minted here with a key of no chain: both sides verify unpinned.
  const options = { now: NOW, nonce: N931, signers: 'any' };
  const js = await settled(() => verifyAttestationResult(result, jwks, { ...options, backend: 'software' }));
  assert.equal(js.err?.code, 'ERR_REVOCATION_UNCONFIRMED');
  const refusal = sameRefusal(js.err, caught(() => wit.token.verifyAttestationResult(body, witJwks, witOptions(options))), 'unconfirmed');
  assert.equal(refusal.level, 'passed-with-warnings');
  assert.deepEqual(refusal.appraisal.devices.map((d) => d.warnings.length), [0, 1]);
  const relaxed = { ...options, allowUnknownRevocation: true };
  const jsRelaxed = await verifyAttestationResult(result, jwks, { ...relaxed, backend: 'software' });
  const r = wit.token.verifyAttestationResult(body, witJwks, witOptions(relaxed));
  assert.equal(r.revocationRelaxed(), true);
  assert.deepEqual(appraisalToJs(r.appraisal()), jsRelaxed.appraisal);
  assert.equal(r.appraisal().level, 'passed-with-warnings');
  assert.deepEqual(r.appraisal().devices[1].warnings, ['Certificate revocation (OCSP) was not checked by this verifier']);
  assert.deepEqual(JSON.parse(r.data()), jsRelaxed);
});


test('verify-attestation-result: a result with a tampered device token is rejected with every token\'s verdict, as the JS error', async () => {
  const c = capture('v3_8gpu_success_20260629');
  const options = { nonce: c.nonce, now: c.iat };
  const flip = (jws) => {
    const [h, p, sig] = jws.split('.');
    return `${h}.${p}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
  };
  const devices = Object.keys(c.response[1]);
  for (const device of [devices[0], devices.at(-1)]) {
    const tampered = [c.response[0], { ...c.response[1], [device]: flip(c.response[1][device]) }];
    const js = await settled(() => verifyAttestationResult(tampered, c.jwks, { ...options, backend: 'software' }));
    const component = caught(() => wit.token.verifyAttestationResult(utf8(JSON.stringify(tampered)), utf8(JSON.stringify(c.jwks)), witOptions(options)));
    assert.equal(component.ok, undefined, `${device}: a tampered result must never be a success value`);
    sameError(js.err, component, device);
    sameVerdicts(js.err, component, device);
    assert.equal(component.err.val.level, 'forged', device);
    const failed = component.err.val.verdicts.filter((v) => v.error);
    assert.deepEqual(failed.map((v) => v.label), [device]);
  }
});

test('verify-jwt agrees with verifyJwt on a recorded overall token (claims, header, kid; wrong nonce refused)', async () => {
  const c = capture('v3_1gpu_success_20260629');
  const token = c.response[0][1];
  const jwks = utf8(JSON.stringify(c.jwks));
  const js = await verifyJwt(token, c.jwks, { nonce: c.nonce, now: c.iat, backend: 'software' });
  const component = wit.token.verifyJwt(token, jwks, witOptions({ nonce: c.nonce, now: c.iat }));
  assert.deepEqual(JSON.parse(component.claims), js.payload);
  assert.deepEqual(JSON.parse(component.header), js.protectedHeader);
  assert.equal(component.kid, js.kid);
  let jsErr;
  try {
    await verifyJwt(token, c.jwks, { nonce: '00'.repeat(32), now: c.iat, backend: 'software' });
  } catch (e) {
    jsErr = e;
  }
  sameError(jsErr, caught(() => wit.token.verifyJwt(token, jwks, witOptions({ nonce: '00'.repeat(32), now: c.iat }))), 'wrong nonce');
});

test('appraise agrees with the JS appraise on every NVIDIA JSON policy over recorded results (passed and refused)', async () => {
  const policies = readdirSync(new URL('nvidia/policies/nvtrust/', fixtures)).filter((f) => f.endsWith('.json'));
  assert.equal(policies.length, 13);
  let passed = 0;
  let refused = 0;
  for (const name of CAPTURES) {
    const c = capture(name);
    const options = { nonce: c.nonce, now: c.iat };
    const jsResult = await verifyAttestationResult(c.response, c.jwks, { ...options, allowFailedResult: true, backend: 'software' });
    const outcome = caught(() => wit.token.verifyAttestationResult(
      utf8(JSON.stringify(c.response)), utf8(JSON.stringify(c.jwks)), witOptions(options),
    ));
    const resource = outcome.ok ?? outcome.err.val.result;
    for (const file of policies) {
      const policyText = text(`nvidia/policies/nvtrust/${file}`);
      const label = `${name} × ${file}`;
      const js = caught(() => appraise(jsResult, policyText));
      const parsed = caught(() => wit.policy.Policy.parse(utf8(policyText)));
      if (js.err && !parsed.ok) {
        sameError(js.err, parsed, label);
        refused++;
        continue;
      }
      assert.ok(parsed.ok, `${label}: ${JSON.stringify(parsed.err)}`);
      const component = caught(() => wit.policy.appraise(resource, parsed.ok));
      if (js.err) {
        sameError(js.err, component, label);
        refused++;
        continue;
      }
      assert.ok(component.ok, `${label}: ${JSON.stringify(component.err)}`);
      assert.deepEqual(decisionToJs(component.ok), js.ok, label);
      assert.equal(component.ok.passed, js.ok.passed, label);
      assert.equal(parsed.ok.version(), js.ok.version, label);
      if (js.ok.passed) passed++;
    }
  }
  // Both recorded successes pass the v3 GPU remote policy; the failed capture passes none.
  assert.ok(passed >= 2, `passed ${passed}`);
  assert.ok(refused > 0, `refused ${refused}`);
});

// ---- RIMs -------------------------------------------------------------------------------

test('verify-rim agrees with verifyRim on the rim.test.mjs documents (trusted, expired chain, coded refusals)', () => {
  const DRIVER = fixtureText('rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml');
  const JUNE_2025 = 1748736000;
  const cases = [
    [DRIVER, JUNE_2025, 'trusted'],
    [DRIVER, 1811808000, 'expired'],
    [DRIVER.replace('index="0" active="False"', 'index="0" active="True"'), JUNE_2025, 'ERR_RIM_DIGEST_MISMATCH'],
    [fixtureText('rims/nvat/incorrect_signature_driver_rim.xml'), JUNE_2025, 'ERR_RIM_SIGNATURE_INVALID'],
    [DRIVER.replaceAll('xml-c14n11', 'xml-exc-c14n'), JUNE_2025, 'ERR_RIM_UNSUPPORTED_ALGORITHM'],
  ];
  for (const [xml, now, expected] of cases) {
    const js = caught(() => verifyRim(xml, { now }));
    const component = caught(() => wit.rim.verifyRim(utf8(xml), { now: BigInt(now), trustAnchors: undefined }));
    if (expected.startsWith('ERR_')) {
      assert.equal(js.err?.code, expected);
      sameError(js.err, component, expected);
      continue;
    }
    assert.ok(component.ok, `${expected}: ${JSON.stringify(component.err)}`);
    assert.deepEqual(JSON.parse(component.ok.toJson()), js.ok.toJSON(), expected);
    assert.equal(component.ok.trusted(), js.ok.isTrusted);
    assert.equal(component.ok.trusted(), expected === 'trusted');
    assert.equal(component.ok.colloquialVersion(), js.ok.colloquialVersion);
  }
});

// ---- attest requests ------------------------------------------------------------------

test('validate-attest-request: a recorded NRAS request validates; coded refusals', () => {
  const body = text('nvidia/nras/teep/v3_1gpu_success_20260629_request.json');
  const v = wit.attest.validateAttestRequest('/v3/attest/gpu', utf8(body));
  assert.equal(v.endpoint, '/v3/attest/gpu');
  assert.equal(v.nonce, JSON.parse(body).nonce);
  assert.equal(v.arch, 'HOPPER');
  assert.equal(v.devices.length, 1);
  assert.equal(v.devices[0].label, 'GPU-0');
  assert.ok(v.devices[0].evidenceBytes > 1000);
  codedError(() => wit.attest.validateAttestRequest('/v9/attest/gpu', utf8(body)), 'ERR_REQUEST_UNKNOWN_ENDPOINT');
  const e = codedError(
    () => wit.attest.validateAttestRequest('/v3/attest/gpu', utf8(body.replace(JSON.parse(body).nonce, 'zz'))),
    'ERR_REQUEST_INVALID_NONCE',
  );
  assert.equal(e.field, 'nonce');
});

test('build-attest-request agrees with buildAttestRequest on every endpoint (devices, arch, claims versions, encodings, refusals); the body validates alike', async () => {
  const { buildAttestRequest, validateAttestRequest } = await import('../../pkg/local/edgeattest.js');
  const gpus = JSON.parse(fixtureText('evidence/serialized/nvtrust_ppcie_gpu_evidence_8gpu.json'));
  const switches = JSON.parse(fixtureText('evidence/serialized/nvtrust_ppcie_switch_evidence_4sw.json'));
  const one = [{ evidence: hopper.evidence, certificate: hopper.certificate, firmwareVersion: '96.00.9F.00.01' }];
  const endpoints = ['/v1/attest/gpu', '/v2/attest/gpu', '/v3/attest/gpu', '/v4/attest/gpu', '/v2/attest/switch', '/v3/attest/switch', '/v4/attest/switch', '/v9/attest/gpu'];
  const outcomes = new Set();
  for (const endpoint of endpoints) {
    const devices = endpoint.includes('switch') ? switches : gpus;
    const sets = [one, devices.map(({ evidence, certificate }) => ({ evidence, certificate })), devices.slice(0, 1).map(({ evidence, certificate }) => ({ evidence, certificate }))];
    for (const evidence of sets) {
      for (const arch of [undefined, 'HOPPER', 'LS10', 'AMPERE']) {
        for (const claimsVersion of [undefined, '3.0', '4.0', '9.9']) {
          for (const evidenceEncoding of [undefined, 'base64', 'hex', 'sideways']) {
            for (const nonce of [N931, 'zz']) {
              const options = { endpoint, nonce, arch, claimsVersion, evidence, evidenceEncoding };
              const witOpts = {
                ...options,
                evidence: evidence.map((e) => ({ evidence: doc(e.evidence), certificate: e.certificate, firmwareVersion: e.firmwareVersion })),
              };
              const label = JSON.stringify({ ...options, evidence: evidence.length });
              const js = caught(() => buildAttestRequest(options));
              const component = caught(() => wit.attest.buildAttestRequest(witOpts));
              if (js.err) {
                sameError(js.err, component, label);
                outcomes.add(js.err.code);
                continue;
              }
              assert.ok(component.ok, `${label}: ${JSON.stringify(component.err)}`);
              assert.deepEqual(JSON.parse(component.ok), js.ok, label);
              const validated = wit.attest.validateAttestRequest(endpoint, utf8(component.ok));
              const jsValidated = validateAttestRequest(endpoint, js.ok);
              assert.deepEqual({ ...validated, devices: validated.devices.map((d) => ({ ...d, firmwareVersion: d.firmwareVersion ?? null })) }, jsValidated, label);
              outcomes.add('built');
            }
          }
        }
      }
    }
  }
  for (const code of ['built', 'ERR_REQUEST_INVALID_NONCE', 'ERR_REQUEST_UNKNOWN_ENDPOINT', 'ERR_INVALID_ARGUMENT', 'ERR_EVIDENCE_ENCODING']) {
    assert.ok(outcomes.has(code), `${code} never occurred: ${[...outcomes]}`);
  }
  assert.ok(outcomes.size >= 7, [...outcomes].join(', '));
  // The nonce is the host's randomness, written as the core writes nonces.
  const random = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
  assert.equal(wit.attest.nonceFromBytes(random), Buffer.from(random).toString('hex'));
  codedError(() => wit.attest.nonceFromBytes(new Uint8Array(31)), 'ERR_INVALID_ARGUMENT');
  codedError(() => wit.attest.buildAttestRequest({ endpoint: '/v3/attest/gpu', nonce: N931, arch: 'HOPPER', evidence: Array.from({ length: 1000 }, () => ({ evidence: doc(hopper.evidence), certificate: hopper.certificate })) }), 'ERR_INVALID_ARGUMENT', '1000 devices');
});

// ---- hostile inputs ---------------------------------------------------------------------

test('hostile inputs at the WIT boundary: coded errors, no trap, the instance stays usable', () => {
  const big = 'A'.repeat(64 * 1024 * 1024);
  const deep = utf8('['.repeat(100_000));
  const c = capture('v3_1gpu_success_20260629');
  const jwks = utf8(JSON.stringify(c.jwks));
  const opts = witOptions({ nonce: c.nonce, now: c.iat });
  const hugeEvidence = { ...hopper, evidence: big, nonce: N931, arch: 'HOPPER', now: NOW };
  sameError(caught(() => verifyEvidence(hugeEvidence)).err, caught(() => witEvidence(hugeEvidence)), '64 MiB evidence');
  const codes = [
    // 64 MiB of 'A' is valid base64 (48 MiB of zeros): the core refuses the transcript, as in JS.
    codedError(() => witEvidence(hugeEvidence), 'ERR_EVIDENCE_UNEXPECTED_VALUE', '64 MiB evidence').code,
    codedError(() => wit.token.verifyJwt('a', utf8(big), opts), 'ERR_JWS_TOO_LARGE', '64 MiB JWKS').code,
    codedError(() => wit.token.verifyJwt('a\u0000b', jwks, opts), 'ERR_JWS_INVALID', 'NUL token').code,
    codedError(() => wit.token.verifyAttestationResult(deep, jwks, opts), 'ERR_JSON_TOO_DEEP', 'deep result').code,
    codedError(() => wit.token.verifyJwt('a', deep, opts), 'ERR_JSON_TOO_DEEP', 'deep JWKS').code,
    codedError(() => wit.policy.Policy.parse(utf8('['.repeat(60_000))), 'ERR_JSON_TOO_DEEP', 'deep policy').code,
    codedError(() => wit.policy.Policy.parse(utf8(big)), 'ERR_POLICY_TOO_LARGE', '64 MiB policy').code,
    codedError(() => wit.attest.validateAttestRequest('/v3/attest/gpu', deep), 'ERR_REQUEST_TOO_DEEP', 'deep request').code,
    codedError(() => wit.attest.validateAttestRequest('/v3/attest/gpu\u0000', utf8('{}')), 'ERR_REQUEST_UNKNOWN_ENDPOINT', 'NUL path').code,
    codedError(() => witEvidence({ ...hopper, nonce: N931, arch: 'HOPPER', now: 2n ** 63n }), 'ERR_INVALID_ARGUMENT', 'now out of range').code,
    codedError(() => wit.rim.verifyRim(utf8(big), { now: BigInt(NOW) }), 'ERR_RIM_TOO_LARGE', '64 MiB RIM').code,
  ];
  assert.equal(codes.length, 11);
  // Still usable: the Hopper sample verifies after all of the above.
  assert.equal(witEvidence({ ...hopper, nonce: N931, arch: 'HOPPER', now: NOW }).ueid, '478176379286082186618948445787393647364802107249');
});
