// The verification page's panels 1 (attestation results) and 2 (evidence), in headless
// Chromium against the worker in workerd, with real fixtures: recorded NRAS results with
// their JWKS (pasted from the test side — they are AGPL recordings and are not bundled),
// results minted here, the bundled evidence samples and RIMs, and tampered copies of each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, ARTIFACTS } from './support/browser.mjs';
import { fixtureText } from './support/fixtures.mjs';
import {
  ready, panelShots, tableRows, failedRows, timeValue, decodePart, encodePart, DESKTOP, pageHooks, testSigner, pinAnchor,
  nrasCapture as capture,
} from './support/page.mjs';
import {
  importPrivateKey, createDetachedEat, createJwks, generateNonce, signJwt, createV1Result,
  verifyAttestationResult,
} from '../../pkg/local/index.js';

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

async function open() {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  return { page, problems };
}


async function verifyResult(page, { result, jwks, nonce = '', at, format = 'detached' }) {
  await page.selectOption('#result-format', format);
  await page.fill('#result-text', result);
  await page.fill('#jwks-text', jwks);
  await page.fill('#result-nonce', nonce);
  if (at === 'issue') await page.click('#result-iat');
  else if (at !== undefined) await page.fill('#result-time', timeValue(at));
  await page.click('#verify-result');
  await page.waitForSelector('#result-summary:not([hidden]), #result-error:not([hidden])');
}

// Token table columns: Token, Device result, Submods digest, Signature, Issuer, Time, Nonce,
// Token authentic.
const column = (rows, label, index) => rows.find((r) => r[0] === label)?.[index];

/**
 * The claims the page must highlight for a verified result, by token: the overall verdict
 * when it is not true, and each claim the core's appraisal names (its top-level name).
 */
async function expectedFlags(text, jwks, options) {
  const verified = await verifyAttestationResult(text, jwks, { ...options, allowFailedResult: true });
  const tokens = [{ label: null, payload: verified.overall.payload }, ...verified.devices];
  const labels = new Set(verified.devices.map((d) => d.label));
  const names = [];
  for (const { label, payload } of tokens) {
    const mine = new Set(label === null && verified.overallResult !== true ? ['x-nvidia-overall-att-result'] : []);
    for (const device of verified.appraisal?.devices ?? []) {
      const owner = labels.has(device.label) ? device.label : null;
      if (owner !== label) continue;
      for (const r of device.reasons) mine.add(r.claim.split(/[.[]/)[0]);
    }
    names.push(...[...mine].filter((name) => name in payload));
  }
  return names.sort();
}

test('panel 1: a recorded 8-GPU result verifies at its issue time, every token passes', async () => {
  const { page, problems } = await open();
  const c = capture('v3_8gpu_success_20260629');
  await verifyResult(page, { result: c.responseText, jwks: c.jwksText, nonce: c.nonce, at: 'issue' });
  assert.equal(await page.inputValue('#result-time'), timeValue(c.iat));
  const summary = await page.textContent('#result-summary');
  assert.match(summary, /^attestation passed/);
  assert.match(summary, /8 devices/);
  assert.match(summary, /overall verdict is true/);
  const rows = await tableRows(page, '#result-tokens');
  assert.deepEqual(rows.map((r) => r[0]), ['Overall', ...Array.from({ length: 8 }, (_, i) => `GPU-${i}`)]);
  for (const row of rows) {
    assert.match(row[3], /^pass kid nv-eat-kid-prod-20260628170000087-/);
    assert.match(row[5], /^pass exp 2026-06-29T03:06:52Z$/);
    assert.match(row[6], /^pass matches/);
    assert.equal(row[7], 'authentic');
    assert.doesNotMatch(row[1], /fail/);
  }
  assert.match(column(rows, 'GPU-5', 2), /^pass sha-256 [0-9a-f]{16}…/);
  // Claims per device: 9 tables (overall + 8), nothing highlighted.
  assert.equal(await page.locator('#result-claims table').count(), 9);
  assert.equal(await page.locator('#result-claims tr.failed').count(), 0);
  // Collapsed when nothing failed.
  assert.equal(await page.locator('#result-claims details[open]').count(), 0);
  const gpu0 = await tableRows(page, '#result-claims details:nth-of-type(2)');
  assert.equal(gpu0.find((r) => r[0] === 'measres')?.[1], 'success');
  await panelShots(page, '#result', 'result-verified');
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 1: the same result now — every token expired; a wrong nonce fails the nonce column', async () => {
  const { page, problems } = await open();
  const c = capture('v3_1gpu_success_20260629');
  await verifyResult(page, { result: c.responseText, jwks: c.jwksText, nonce: c.nonce });
  assert.match(await page.textContent('#result-summary'), /^authentic but expired .*ERR_JWT_EXPIRED/);
  assert.equal(await page.getAttribute('#result-summary', 'data-level'), 'expired');
  let rows = await tableRows(page, '#result-tokens');
  assert.equal(rows.length, 2);
  for (const row of rows) {
    assert.match(row[3], /^pass kid /);
    assert.match(row[5], /^fail ERR_JWT_EXPIRED: expired at the time of the check/);
    assert.match(row[6], /^not reached/);
    assert.equal(row[1], 'unknown');
  }
  assert.deepEqual(await failedRows(page, '#result-tokens'), ['Overall', 'GPU-0']);

  // The expected issuer: NVIDIA's passes, another fails the issuer column before the times.
  await page.fill('#result-issuer', 'https://nras.attestation.nvidia.com');
  await verifyResult(page, { result: c.responseText, jwks: c.jwksText, nonce: c.nonce, at: c.iat });
  assert.match(await page.textContent('#result-summary'), /^attestation passed/);
  assert.match(column(await tableRows(page, '#result-tokens'), 'GPU-0', 4), /^pass iss https:\/\/nras\.attestation\.nvidia\.com$/);
  await page.fill('#result-issuer', 'https://attest.example');
  await verifyResult(page, { result: c.responseText, jwks: c.jwksText, nonce: c.nonce, at: c.iat });
  rows = await tableRows(page, '#result-tokens');
  assert.match(column(rows, 'Overall', 4), /^fail ERR_JWT_CLAIM_VALIDATION_FAILED: iss is not the expected issuer/);
  assert.match(column(rows, 'Overall', 5), /^not reached/);
  await page.fill('#result-issuer', '');

  await verifyResult(page, { result: c.responseText, jwks: c.jwksText, nonce: 'ab'.repeat(32), at: c.iat });
  rows = await tableRows(page, '#result-tokens');
  assert.match(column(rows, 'Overall', 5), /^pass/);
  assert.match(column(rows, 'Overall', 6), /^fail ERR_EAT_NONCE_MISMATCH/);
  // A typo'd nonce is its own level: the result is authentic, it answers another challenge.
  assert.equal(await page.getAttribute('#result-summary', 'data-level'), 'wrong-nonce');
  assert.match(await page.textContent('#result-verdict'), /^wrong nonce /);
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 1: a tampered device token fails its submods digest; a tampered overall token its signature', async () => {
  const { page, problems } = await open();
  const c = capture('v3_8gpu_success_20260629');
  // GPU-3 claims a measurement result it did not get: the token text changes, its digest too.
  const tampered = structuredClone(c.response);
  const [header, payload, signature] = tampered[1]['GPU-3'].split('.');
  tampered[1]['GPU-3'] = [header, encodePart({ ...decodePart(payload), measres: 'comparison-skipped' }), signature].join('.');
  await verifyResult(page, { result: JSON.stringify(tampered), jwks: c.jwksText, nonce: c.nonce, at: c.iat });
  assert.match(await page.textContent('#result-summary'), /^not authentic .* ERR_EAT_DIGEST_MISMATCH/);
  let rows = await tableRows(page, '#result-tokens');
  assert.match(column(rows, 'GPU-3', 2), /^fail ERR_EAT_DIGEST_MISMATCH: the token's SHA-256 digest differs/);
  assert.match(column(rows, 'GPU-3', 3), /^not reached/);
  assert.equal(column(rows, 'GPU-3', 7), 'not authentic');
  // A token that verifies alone, in a result that does not: authentic, never green.
  assert.equal(column(rows, 'GPU-2', 7), 'authentic');
  assert.equal(await page.locator('#result-tokens td:last-child .badge.pass').count(), 0);
  assert.deepEqual(await failedRows(page, '#result-tokens'), ['GPU-3']);
  // Its claims are shown as decoded, marked not verified.
  assert.match(await page.textContent('#result-claims details[open]'), /Device GPU-3 — not authentic, shown as decoded/);
  assert.equal(await page.locator('#result-claims details[open]').count(), 1);
  await panelShots(page, '#result', 'result-tampered-device');

  // The overall token's verdict flipped to false: its signature no longer verifies.
  const forged = structuredClone(c.response);
  const [h, p, s] = forged[0][1].split('.');
  forged[0][1] = [h, encodePart({ ...decodePart(p), 'x-nvidia-overall-att-result': false }), s].join('.');
  await verifyResult(page, { result: JSON.stringify(forged), jwks: c.jwksText, nonce: c.nonce, at: c.iat });
  rows = await tableRows(page, '#result-tokens');
  assert.match(column(rows, 'Overall', 3), /^fail ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
  assert.deepEqual(await failedRows(page, '#result-tokens'), ['Overall']);
  // A forged result's claims are shown as decoded, and none is taken as a reason for anything.
  assert.deepEqual(await failedRows(page, '#result-claims'), []);
  assert.match(await page.textContent('#result-verdict'), /^not authentic .* ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 1: a recorded failure (nonce mismatch at the service) verifies, its error claims highlighted', async () => {
  const { page, problems } = await open();
  const c = capture('v3_8gpu_nonce_mismatch_20260520');
  await verifyResult(page, { result: c.responseText, jwks: c.jwksText, nonce: c.nonce, at: 'issue' });
  const summary = await page.textContent('#result-summary');
  assert.match(summary, /^attestation failed The service's overall verdict is false/);
  assert.match(summary, /tokens authentic/);
  assert.equal(await page.getAttribute('#result-summary', 'class'), 'summary bad');
  // Exactly the claims the core's appraisal names are highlighted.
  const failed = await failedRows(page, '#result-claims');
  assert.ok(failed.includes('x-nvidia-overall-att-result'), failed.join());
  assert.deepEqual([...failed].sort(), await expectedFlags(c.responseText, c.jwksText, { now: c.iat, nonce: c.nonce }));
  // A JWKS without the token's kid: the signature column names the missing key.
  await verifyResult(page, { result: c.responseText, jwks: capture('v3_1gpu_success_20260629').jwksText, nonce: c.nonce, at: c.iat });
  // No token can be checked without its key: the error names the kid's absence.
  assert.match(await page.textContent('#result-error'), /^ERR_JWKS_NO_MATCHING_KEY .*field: kid/);
  assert.equal(await page.locator('#result-tokens tr').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 1: a result minted now (V4 detached and V1) verifies without a time override; bad input is explained', async () => {
  const { page, problems } = await open();
  const kid = 'page-test-key';
  // The test token-signing PKI, its CA pinned on the page as a service's root would be.
  const { keyPem, x5c, anchorPem } = testSigner();
  const privateKey = await importPrivateKey(keyPem, { backend: 'software' });
  const jwks = JSON.stringify(createJwks([{ kid, key: privateKey, x5c }]));
  await pinAnchor(page, anchorPem);
  const nonce = generateNonce();
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: 'https://edgeattest.test', iat: now, nbf: now, exp: now + 600, eat_nonce: nonce };
  const result = await createDetachedEat(
    { ...claims, 'x-nvidia-overall-att-result': true },
    { 'GPU-0': { ...claims, measres: 'success', hwmodel: 'GH100 A01 GSP BROM' }, 'GPU-1': { ...claims, measres: 'fail' } },
    privateKey, { kid },
  );
  await verifyResult(page, { result: JSON.stringify(result), jwks, nonce });
  assert.match(await page.textContent('#result-summary'), /tokens authentic .*2 devices/i);
  // GPU-1's own claim says its measurements failed: highlighted when the core's appraisal
  // names it, though its token verifies.
  const failed = await failedRows(page, '#result-claims');
  assert.deepEqual([...failed].sort(), await expectedFlags(JSON.stringify(result), jwks, { nonce, signers: [{ certificate: anchorPem }] }));

  // A V1 result: one token, no submods.
  const v1 = createV1Result(await signJwt({
    ...claims, 'x-nvidia-overall-att-result': true, measres: 'comparison-successful',
    'x-nvidia-gpu-attestation-report-cert-chain-validated': true,
  }, privateKey, { kid }));
  await verifyResult(page, { result: JSON.stringify(v1), jwks, nonce, format: 'v1' });
  assert.match(await page.textContent('#result-summary'), /^attestation passed.*\(v1 result, 0 devices\)/i);
  assert.deepEqual((await tableRows(page, '#result-tokens')).map((r) => [r[0], r.at(-1)]), [['Overall', 'authentic']]);

  // Input errors: no result, malformed JSON, no JWKS.
  await page.fill('#result-text', '');
  await page.click('#verify-result');
  assert.match(await page.textContent('#result-error'), /ERR_INVALID_ARGUMENT Paste an attestation result first/);
  await verifyResult(page, { result: '[["JWT", "abc"', jwks, nonce });
  assert.match(await page.textContent('#result-error'), /^ERR_/);
  assert.equal(await page.isHidden('#result-summary'), true);
  await page.fill('#jwks-text', '');
  await page.fill('#result-text', JSON.stringify(result));
  await page.click('#verify-result');
  assert.match(await page.textContent('#result-error'), /Give the JWKS/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 1: Fetch JWKS asks the service URL and explains a failure', async () => {
  const { page, problems } = await open();
  assert.equal(await page.inputValue('#jwks-url'), worker.origin);
  const served = await (await fetch(`${worker.origin}/.well-known/jwks.json`)).text();
  await page.click('#fetch-jwks');
  await page.waitForFunction(() => document.getElementById('jwks-text').value.includes('"keys"'));
  assert.equal(await page.inputValue('#jwks-text'), served);
  // A service that has no JWKS.
  await page.route('http://no-jwks.test/**', (route) => route.fulfill({ status: 404, body: 'not here', headers: { 'access-control-allow-origin': '*' } }));
  await page.fill('#jwks-url', 'http://no-jwks.test');
  await page.click('#fetch-jwks');
  await page.waitForSelector('#result-error:not([hidden])');
  assert.match(await page.textContent('#result-error'), /ERR_FETCH_FAILED .*answered 404/);
  // A host that does not resolve: a network error, with the advice to paste the JWKS.
  await page.fill('#jwks-url', 'http://jwks.invalid');
  await page.click('#fetch-jwks');
  await page.waitForFunction(() => /could not reach/.test(document.getElementById('result-error').textContent));
  assert.match(await page.textContent('#result-error'), /paste the JWKS instead/);
  assert.deepEqual(problems.filter((p) => !/jwks\.invalid|jwks\.json|Failed to load resource/.test(p)), []);
  await page.close();
});

// ---- panel 2 ---------------------------------------------------------------------------

async function loadSample(page, id) {
  await page.selectOption('#ev-sample', id);
  await page.click('#ev-load-sample');
}

async function verifyEvidence(page) {
  await page.click('#verify-evidence');
  await page.waitForSelector('#evidence-summary:not([hidden]), #evidence-error:not([hidden])');
}

const checks = (page) => page.$$eval('#evidence-checks > li', (items) =>
  items.map((li) => ({ state: li.className, text: li.textContent.replace(/\s+/g, ' ').trim() })));

test('panel 2: the LS10 sample verifies completely against its bundled switch BIOS RIM', async () => {
  const { page, problems } = await open();
  await loadSample(page, 'ls10-96.10.55.00.01');
  assert.equal(await page.inputValue('#ev-arch'), 'LS10');
  assert.equal(await page.inputValue('#ev-rim-firmware'), 'switch-bios-5612-0002-890-9610550001');
  // Inside the RIM signer's validity (2026-05-20 → 2027-11-02 for the whole chain).
  await page.fill('#ev-time', timeValue(Date.UTC(2026, 6, 1) / 1000));
  await verifyEvidence(page);
  assert.match(await page.textContent('#evidence-summary'), /^partly verified Evidence authentic and fresh, nothing failed; not checked: revocation \(OCSP\) —/);
  const list = await checks(page);
  const states = Object.fromEntries(list.map((c) => [c.text.split(' ').slice(1, 3).join(' '), c.state]));
  assert.equal(states['Transcript parsed'], 'pass');
  assert.equal(states['Certificate chain'], 'pass');
  assert.equal(states['Evidence signature'], 'pass');
  assert.equal(states['Nonce in'], 'pass');
  assert.ok(list.some((c) => c.state === 'pass' && /Firmware RIM: 96\.10\.55\.00\.01 .*signer chain valid at 2026-07-01/.test(c.text)));
  assert.ok(list.some((c) => c.state === 'pass' && /Measurements against the RIMs: success 31 active measurements compared\./.test(c.text)));
  assert.ok(list.some((c) => c.state === 'pass' && /Firmware version: evidence 96\.10\.55\.00\.01, RIM 96\.10\.55\.00\.01/.test(c.text)));
  assert.ok(list.some((c) => c.state === 'info' && /NV_SWITCH_BIOS_5612_0002_890_9610550001/.test(c.text)));
  // The service's own code, run in the page, would issue a passing result with these claims.
  assert.match(await page.textContent('#service-verdict'), /Overall result the service would give: true/);
  const claims = Object.fromEntries(await tableRows(page, '#evidence-claims .table-wrap.claims'));
  assert.equal(claims.measres, 'success');
  assert.equal(claims['x-nvidia-switch-bios-version'], '96.10.55.00.01');
  assert.equal(claims.ueid, '694931143880983876767046803400974855445978836716');
  assert.equal(await page.locator('#evidence-claims .table-wrap.claims tr.failed').count(), 0);
  const facts = await tableRows(page, '#evidence-claims details.claims');
  assert.equal(facts.find((r) => r[0] === 'ueid')?.[1], '694931143880983876767046803400974855445978836716');
  assert.equal(facts.find((r) => r[0] === 'measurement comparison')?.[1], 'success');
  await panelShots(page, '#evidence', 'evidence-ls10-verified');
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 2: go-nvtrust 545.00 matches the nvtrust test RIMs in 2024; now their signer has expired', async () => {
  const { page, problems } = await open();
  await loadSample(page, 'hopper-545.00');
  assert.equal(await page.inputValue('#ev-rim-driver'), 'driver-545.00-test');
  await page.fill('#ev-time', timeValue(Date.UTC(2024, 0, 1) / 1000));
  await verifyEvidence(page);
  // This firmware predates FWID reporting: passed as NVIDIA passes it, but not compared — said.
  assert.match(await page.textContent('#evidence-summary'), /^partly verified Evidence authentic and fresh, nothing failed; not checked: the FWID \(the evidence carries none\), revocation \(OCSP\) —/);
  assert.match(await page.textContent('#service-verdict'), /would give: true/);
  let list = await checks(page);
  assert.ok(list.some((c) => c.state === 'pass' && /Driver RIM: 545\.00 /.test(c.text)));
  assert.ok(list.some((c) => c.state === 'pass' && /Measurements against the RIMs: success/.test(c.text) && /NVDEC0/.test(c.text)));
  assert.ok(list.some((c) => c.state === 'pass' && /Driver version: evidence 545\.00, RIM 545\.00/.test(c.text)));

  // Now (default "Verify at"): the evidence still verifies, the RIM signers are expired.
  await page.click('#ev-now');
  await verifyEvidence(page);
  // A RIM that can no longer be trusted fails the device, as the service fails it: red.
  assert.match(await page.textContent('#evidence-summary'), /^failed the device fails on 2 points .*the driver RIM's signing certificate chain is expired/);
  assert.equal(await page.getAttribute('#evidence-summary', 'class'), 'summary bad');
  list = await checks(page);
  const expired = list.filter((c) => c.state === 'fail' && /RIM: .*signer chain is expired .*it expired 2025-06/.test(c.text));
  assert.equal(expired.length, 2, JSON.stringify(list));
  // The measurements still match those RIMs, but a match against an untrusted RIM is no pass.
  assert.ok(list.some((c) => c.state === 'warn' && /Measurements against the RIMs: success .*the match does not count/.test(c.text)), JSON.stringify(list));
  // The service would refuse the measurements now: its claims say why, highlighted.
  assert.match(await page.textContent('#service-verdict'), /would give: false/);
  const flagged = await page.$$eval('#evidence-claims .table-wrap.claims tr.failed th', (t) => t.map((x) => x.textContent));
  assert.ok(flagged.includes('x-nvidia-gpu-driver-rim-cert-chain'), flagged.join());
  assert.match(await page.textContent('#evidence-claims'), /RIM signing certificate chain has expired/);
  await panelShots(page, '#evidence', 'evidence-rim-expired');
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 2: tampered evidence fails its signature; a wrong nonce, a broken chain and garbage are named', async () => {
  const { page, problems } = await open();
  await loadSample(page, 'ls10-96.10.55.00.01');
  const original = await page.inputValue('#ev-evidence');
  // One measurement byte changed (byte 200 lies in the measurement record).
  const flipped = (parseInt(original.slice(400, 402), 16) ^ 0x01).toString(16).padStart(2, '0');
  await page.fill('#ev-evidence', original.slice(0, 400) + flipped + original.slice(402));
  await verifyEvidence(page);
  assert.match(await page.textContent('#evidence-summary'), /^failed ERR_EVIDENCE_SIGNATURE/);
  let list = await checks(page);
  assert.deepEqual(list.slice(0, 7).map((c) => c.state), ['pass', 'pass', 'fail', 'skip', 'skip', 'skip', 'skip']);
  assert.match(list[2].text, /ERR_EVIDENCE_SIGNATURE the evidence signature does not verify \(service error 4013\)/);
  assert.match(list[3].text, /not reached/);
  assert.equal(await page.locator('#evidence-claims table').count(), 0);
  await panelShots(page, '#evidence', 'evidence-tampered');

  // The real evidence with another nonce.
  await page.fill('#ev-evidence', original);
  await page.fill('#ev-nonce', 'cd'.repeat(32));
  await verifyEvidence(page);
  list = await checks(page);
  assert.deepEqual(list.slice(0, 4).map((c) => c.state), ['pass', 'pass', 'pass', 'fail']);
  assert.match(list[3].text, /ERR_EVIDENCE_NONCE_MISMATCH .*4010/);

  // The Hopper sample with go-nvtrust's chain that lacks the BROM certificate.
  await loadSample(page, 'hopper-545.00');
  await page.fill('#ev-chain', fixtureText('evidence/hopper/gonvtrust_INVALID_certchain_missing_brom.pem'));
  await verifyEvidence(page);
  list = await checks(page);
  assert.equal(list[1].state, 'fail');
  assert.match(list[1].text, /ERR_CHAIN_/);

  // NVIDIA's invalid-signature sample paired with the real chain, as in NVIDIA's tests.
  await loadSample(page, 'hopper-535.86.09');
  await page.fill('#ev-evidence', fixtureText('evidence/hopper/nvat_hopper_560.00_INVALID_SIGNATURE_report.hex').trim());
  await page.fill('#ev-chain', fixtureText('evidence/hopper/nvat_hopper_570.124.03_certchain.pem'));
  await page.fill('#ev-nonce', '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb');
  await verifyEvidence(page);
  assert.match(await page.textContent('#evidence-summary'), /^failed ERR_EVIDENCE_SIGNATURE/);

  // Not evidence at all, and a nonce that is not hex.
  await page.fill('#ev-evidence', 'c29tZSB0ZXh0');
  await verifyEvidence(page);
  assert.match(await page.textContent('#evidence-summary'), /^failed ERR_EVIDENCE_/);
  await page.fill('#ev-nonce', 'xyz');
  await verifyEvidence(page);
  assert.match(await page.textContent('#evidence-error'), /ERR_REQUEST_INVALID_NONCE .*field: nonce/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 2: the 535.86.09 sample without its driver RIM fails, as the service fails it', async () => {
  const { page, problems } = await open();
  await loadSample(page, 'hopper-535.86.09');
  await page.fill('#ev-time', timeValue(Date.UTC(2024, 0, 1) / 1000));
  await verifyEvidence(page);
  const list = await checks(page);
  // The core's rule, the service's too: a GPU whose driver RIM cannot be had fails (5009);
  // its measurements are not compared with the firmware RIM alone.
  assert.ok(list.some((c) => c.state === 'fail' && /Driver RIM ERR_RIM_NOT_AVAILABLE the driver RIM NV_GPU_DRIVER_GH100_535\.86\.09 is not available \(service error 5009\)/.test(c.text)), JSON.stringify(list));
  assert.ok(list.some((c) => c.state === 'skip' && /Measurements against the RIMs/.test(c.text)));
  assert.ok(list.some((c) => c.state === 'skip' && /FWID/.test(c.text)));
  assert.match(await page.textContent('#evidence-summary'), /^failed ERR_RIM_NOT_AVAILABLE/);
  assert.match(await page.textContent('#service-verdict'), /would give: false/);
  assert.match(await page.textContent('#service-agreement'), /agree/);
  await page.screenshot({ path: join(ARTIFACTS, 'page-evidence-firmware-only.png'), fullPage: false });
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 2: an SDK evidence file (JSON, base64) fills the form and verifies', async () => {
  const { page, problems } = await open();
  await page.setInputFiles('#ev-files', fileURLToPath(new URL('../fixtures/nvidia/evidence/serialized/nvat_switch_evidence_ls10.json', import.meta.url)));
  await page.waitForFunction(() => document.getElementById('ev-evidence').value.length > 1000);
  assert.equal(await page.inputValue('#ev-arch'), 'LS10');
  assert.equal(await page.inputValue('#ev-nonce'), '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb');
  assert.match(await page.inputValue('#ev-chain'), /^-----BEGIN CERTIFICATE-----/);
  await verifyEvidence(page);
  const list = await checks(page);
  assert.deepEqual(list.slice(0, 4).map((c) => c.state), ['pass', 'pass', 'pass', 'pass']);
  assert.deepEqual(problems, []);
  await page.close();
});
