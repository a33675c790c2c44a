// What a person sees of a verdict on the verification page, in headless Chromium against the
// worker in workerd: a pass; authentic tokens whose devices failed (red, first, with the
// reasons; no green badge); a forged result; the evidence panel with a mismatching RIM; and
// the convention panels (all nine lists, the deprecation headers with a Link target
// that answers, the health view) through the running worker. Screenshots: tests/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, ARTIFACTS } from './support/browser.mjs';
import { fixtureText } from './support/fixtures.mjs';
import {
  ready, tableRows, failedRows, timeValue, decodePart, encodePart, DESKTOP, pageHooks, testSigner, pinAnchor, trustServiceRoot,
} from './support/page.mjs';
import {
  importPrivateKey, createDetachedEat, createJwks, generateNonce, verifyAttestationResult, listSchemas,
} from '../../pkg/service/index.js';

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

async function open(path = '/ui/') {
  const { page, problems } = await openPage(browser.context, `${worker.origin}${path}`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  return { page, problems };
}

const shot = (page, selector, name) => page.locator(selector).screenshot({ path: join(ARTIFACTS, `page-verdict-${name}.png`) });

async function verifyResult(page, { result, jwks, nonce = '', at, anchor }) {
  if (anchor) await pinAnchor(page, anchor);
  await page.fill('#result-text', result);
  await page.fill('#jwks-text', jwks);
  await page.fill('#result-nonce', nonce);
  if (at !== undefined) await page.fill('#result-time', timeValue(at));
  await page.click('#verify-result');
  await page.waitForSelector('#result-summary:not([hidden]), #result-error:not([hidden])');
}

/** Texts of the green (pass) badges inside `selector`. */
const greenBadges = (page, selector) => page.$$eval(`${selector} .badge.pass`, (b) => b.map((x) => x.textContent));

// Token table columns: Token, Device result, Submods digest, Signature, Issuer, Time, Nonce,
// Token authentic.
const AUTHENTIC = 7;

async function minted(overall, devices) {
  const kid = 'verdict-test';
  // The test token-signing PKI: its CA is pinned on the page (`anchor`), as a real service's root.
  const { keyPem, x5c, anchorPem: anchor } = testSigner();
  const privateKey = await importPrivateKey(keyPem, { backend: 'software' });
  const nonce = generateNonce();
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: 'https://edgeattest.test', iat: now, nbf: now, exp: now + 600, eat_nonce: nonce };
  const result = await createDetachedEat({ ...claims, ...overall },
    Object.fromEntries(Object.entries(devices).map(([label, extra]) => [label, { ...claims, ...extra }])), privateKey, { kid });
  return { result: JSON.stringify(result), jwks: JSON.stringify(createJwks([{ kid, key: privateKey, x5c }])), nonce, now, anchor };
}

// A device chain confirmed good (claims 3.0's object): what a pass needs besides measres.
const GOOD_CHAIN = {
  'x-nvidia-gpu-attestation-report-cert-chain': {
    'x-nvidia-cert-status': 'valid', 'x-nvidia-cert-ocsp-status': 'good',
    'x-nvidia-cert-expiration-date': '9999-12-31T23:59:59Z', 'x-nvidia-cert-revocation-reason': null,
  },
};

test('verdict: a pass is green, says passed and authentic, and shows times as dates', async () => {
  const { page, problems } = await open();
  const m = await minted({ 'x-nvidia-overall-att-result': true },
    { 'GPU-0': { measres: 'success', ...GOOD_CHAIN }, 'GPU-1': { measres: 'success', ...GOOD_CHAIN } });
  await verifyResult(page, m);
  assert.equal(await page.getAttribute('#result-summary', 'class'), 'summary good');
  const verdict = await page.textContent('#result-verdict');
  assert.match(verdict, /^attestation passed The service's overall verdict is true and all 2 devices passed\./);
  assert.match(await page.textContent('#result-summary .authenticity'), /^tokens authentic Every signature, digest, time and the nonce checked/);
  const rows = await tableRows(page, '#result-tokens');
  assert.deepEqual(rows.map((r) => r[AUTHENTIC]), ['authentic', 'authentic', 'authentic']);
  assert.equal(rows[0][1], 'verdict true');
  for (const row of rows.slice(1)) assert.doesNotMatch(row[1], /fail/);
  assert.equal(await page.locator('#result .badge.fail').count(), 0);
  // iat as a number and a date.
  await page.click('#result-claims details:nth-of-type(1) summary');
  const overall = Object.fromEntries(await tableRows(page, '#result-claims details:nth-of-type(1)'));
  const iso = new Date(m.now * 1000).toISOString().replace('.000Z', 'Z');
  assert.ok(overall.iat.startsWith(`${m.now} = ${iso} (`), overall.iat);
  assert.ok(overall.exp.startsWith(`${m.now + 600} = `), overall.exp);
  await shot(page, '#result', 'pass');
  assert.deepEqual(problems, []);
  await page.close();
});

test('verdict: a pass whose revocation is not confirmed is labelled as accepted only by the page\'s opt-in', async () => {
  const { page, problems } = await open();
  const unknown = { 'x-nvidia-gpu-attestation-report-cert-chain': {
    ...GOOD_CHAIN['x-nvidia-gpu-attestation-report-cert-chain'], 'x-nvidia-cert-ocsp-status': 'unknown' } };
  const m = await minted({ 'x-nvidia-overall-att-result': true },
    { 'GPU-0': { measres: 'success', ...GOOD_CHAIN }, 'GPU-1': { measres: 'success', ...unknown } });
  // A relying party's default refuses it.
  const refused = await verifyAttestationResult(m.result, m.jwks, { nonce: m.nonce, signers: [{ certificate: m.anchor }] }).catch((e) => e);
  assert.equal(refused.code, 'ERR_REVOCATION_UNCONFIRMED');
  await verifyResult(page, m);
  const verdict = await page.textContent('#result-verdict');
  assert.match(verdict, /^passed with warnings The service's overall verdict is true and all 2 devices passed, with the warnings below/);
  assert.match(verdict, /GPU-1: certificate revocation is not confirmed good/);
  assert.match(verdict, /accepted only because this page allows unconfirmed revocation \(allowUnknownRevocation\)/);
  assert.equal(await page.getAttribute('#result-summary', 'data-level'), 'passed-with-warnings');
  assert.equal(await page.getAttribute('#result-verdict', 'data-relaxed'), 'revocation');
  assert.deepEqual(await greenBadges(page, '#result-verdict'), [], 'no green "attestation passed"');
  await shot(page, '#result', 'revocation-relaxed');
  assert.deepEqual(problems, []);
  await page.close();
});

test('verdict: authentic tokens of failed devices — red first with the reason, no green badge', async () => {
  const { page, problems } = await open();
  // NVIDIA's service refused an 8-GPU request (a real recording): authentic tokens, verdict false.
  const text = fixtureText('nras/teep/v3_8gpu_nonce_mismatch_20260520_response.json');
  const jwks = fixtureText('nras/teep/v3_8gpu_nonce_mismatch_20260520_jwks.json');
  const nonce = JSON.parse(fixtureText('nras/teep/v3_8gpu_nonce_mismatch_20260520_request.json')).nonce;
  const iat = decodePart(JSON.parse(text)[0][1].split('.')[1]).iat;
  await verifyResult(page, { result: text, jwks, nonce, at: iat });

  assert.equal(await page.getAttribute('#result-summary', 'class'), 'summary bad');
  // The failure is the first thing in the summary, above the authenticity line and the table.
  const first = await page.$eval('#result-summary', (s) => s.firstElementChild.id);
  assert.equal(first, 'result-verdict');
  assert.match(await page.textContent('#result-verdict'), /^attestation failed The service's overall verdict is false/);
  const top = async (sel) => (await page.locator(sel).boundingBox()).y;
  assert.ok(await top('#result-verdict') < await top('#result-summary .authenticity'));
  assert.ok(await top('#result-summary .authenticity') < await top('#result-tokens'));
  assert.match(await page.textContent('#result-summary .authenticity'), /^tokens authentic .*Authentic says who issued it, not that the devices passed\./);

  // Not one green badge in the whole panel: authentic is grey, the device verdicts red.
  assert.deepEqual(await greenBadges(page, '#result-summary'), []);
  const rows = await tableRows(page, '#result-tokens');
  assert.equal(rows.length, 9);
  assert.deepEqual(rows.map((r) => r[AUTHENTIC]), Array(9).fill('authentic'));
  assert.equal(await page.locator('#result-tokens td:last-child .badge.pass').count(), 0);
  assert.equal(rows[0][1], 'verdict false');
  assert.ok((await failedRows(page, '#result-tokens')).includes('Overall'));
  const fit = await page.$eval('#result-tokens', (wrap) => ({ scroll: wrap.scrollWidth, client: wrap.clientWidth }));
  assert.ok(fit.scroll <= fit.client, `the token table overflows: ${JSON.stringify(fit)}`);

  // The claim that caused it is highlighted, first in its table, with the reason beside it.
  const overall = await failedRows(page, '#result-claims details:nth-of-type(1)');
  assert.equal(overall[0], 'x-nvidia-overall-att-result');
  assert.match(await page.textContent('#result-claims details:nth-of-type(1) tr.failed .why'), /overall verdict is false/);

  // The core's appraisal names each failed device and its claim; the page shows them all.
  const verified = await verifyAttestationResult(text, jwks, { now: iat, nonce, allowFailedResult: true });
  const failedDevices = verified.appraisal.devices.filter((d) => d.passed === false);
  assert.equal(failedDevices.length, 8);
  const reasons = await page.$$eval('#result-verdict ul.reasons li', (li) => li.map((x) => x.textContent));
  for (const device of failedDevices) {
    for (const r of device.reasons) assert.ok(reasons.some((t) => t.includes(device.label) && t.includes(r.message)), `${device.label}: ${r.message}`);
    assert.match((rows.find((row) => row[0] === device.label) ?? [])[1] ?? '', /^failed /);
  }
  // Each device's claims table opens on the claim the appraisal names, with its reason.
  for (let i = 0; i < 8; i += 1) {
    const named = await failedRows(page, `#result-claims details:nth-of-type(${i + 2})`);
    assert.deepEqual(named, [...new Set(failedDevices[i].reasons.map((r) => r.claim))]);
  }
  assert.match(await page.textContent('#result-verdict'), /8 of 8 devices failed/);
  await page.setViewportSize({ width: 1280, height: 1400 });
  await shot(page, '#result', 'device-failed');
  assert.deepEqual(problems, []);
  await page.close();
});

test('verdict: the appraisal\'s reasons (contract shape) — grouped first, per device, the claims first', async () => {
  const { page, problems } = await open();
  // Eight GPUs whose driver RIM signer chain has expired, as the newcomer saw: authentic
  // tokens, verdict false; the appraisal object is the documented contract's shape.
  const chain = { 'x-nvidia-cert-status': 'expired', 'x-nvidia-cert-ocsp-status': 'good', 'x-nvidia-cert-expiration-date': '2025-06-26T06:10:12Z' };
  const devices = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`GPU-${i}`, {
    measres: 'fail', 'x-nvidia-gpu-driver-rim-cert-chain': chain, 'x-nvidia-gpu-arch-check': true,
  }]));
  const m = await minted({ 'x-nvidia-overall-att-result': false }, devices);
  const message = "the driver RIM's signing certificate chain has expired";
  const appraisal = {
    level: 'failed',
    passed: false,
    overallResult: false,
    devices: Object.keys(devices).map((label) => ({
      label, passed: false, reasons: [{ claim: 'x-nvidia-gpu-driver-rim-cert-chain', value: chain, message }], warnings: [],
    })),
  };
  const shown = await page.evaluate(async ({ text, jwks, nonce, appraisal, anchor }) => {
    const { verifyAttestationResult } = await import('./pkg/service/index.js');
    const { showVerified } = await import('./panels/result.js');
    const now = Math.floor(Date.now() / 1000);
    const verified = await verifyAttestationResult(text, jwks, { now, nonce, allowFailedResult: true, signers: [{ certificate: anchor }] });
    return showVerified({ ...verified, appraisal }, { nonce, now, text });
  }, { text: m.result, jwks: m.jwks, nonce: m.nonce, appraisal, anchor: m.anchor });
  assert.deepEqual(shown, { authentic: true, passed: false, level: 'failed', revocationRelaxed: false });
  assert.match(await page.textContent('#result-verdict'), /^attestation failed The service's overall verdict is false: 8 of 8 devices failed\./);
  const reasons = await page.$$eval('#result-verdict ul.reasons li', (li) => li.map((x) => x.textContent));
  assert.deepEqual(reasons, [`GPU-0, GPU-1, GPU-2, GPU-3, GPU-4, GPU-5, GPU-6, GPU-7: ${message} (claim x-nvidia-gpu-driver-rim-cert-chain)`]);
  const rows = await tableRows(page, '#result-tokens');
  for (const row of rows.slice(1)) assert.equal(row[1], `failed ${message}`);
  assert.deepEqual(await greenBadges(page, '#result'), []);
  // In each device's claims the named claim comes first, with the reason; nothing else is.
  const gpu3 = await failedRows(page, '#result-claims details:nth-of-type(5)');
  assert.deepEqual(gpu3, ['x-nvidia-gpu-driver-rim-cert-chain']);
  const firstRow = await page.$eval('#result-claims details:nth-of-type(5) tbody tr', (tr) => tr.textContent);
  assert.match(firstRow, new RegExp(`^x-nvidia-gpu-driver-rim-cert-chain.*expired.*why ${message.replace(/'/g, '.')}`));
  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.$eval('#result-claims details:nth-of-type(5)', (d) => d.scrollIntoView());
  await shot(page, '#result-output', 'device-failed-reasons');
  assert.deepEqual(problems, []);
  await page.close();
});

test('verdict: the send step is red when the service says false', async () => {
  const { page, problems } = await open();
  // NVIDIA's Hopper 545.00 sample: its RIM signer has expired, so the worker says false.
  const samples = JSON.parse(readFileSync(new URL('../../www/samples/evidence.json', import.meta.url), 'utf8')).samples;
  await page.selectOption('#sample', String(samples.findIndex((sample) => sample.id === 'hopper-545.00')));
  await page.click('#add-sample');
  await page.click('#build-request');
  await trustServiceRoot(page); // the worker's development root, by the user's choice
  await page.click('#send-request');
  await page.waitForFunction(() => /PASSED|FAILED|NOT authentic|answered [45]\d\d/.test(document.getElementById('send-status').textContent));
  assert.equal(await page.getAttribute('#send-status', 'class'), 'summary bad');
  assert.match(await page.textContent('#send-status'), /answered 200: attestation FAILED — the service's verdict is not a pass \(its tokens are authentic\)/);
  assert.equal(await page.getAttribute('#result-summary', 'class'), 'summary bad');
  assert.match(await page.textContent('#result-verdict'), /^attestation failed/);
  // The core's reason, in words, in the summary: the sample's RIM signer chain has expired.
  assert.match(await page.textContent('#result-verdict ul.reasons'), /GPU-0: .*expired/);
  assert.deepEqual(await greenBadges(page, '#result-summary'), []);
  await shot(page, '#send-status', 'send-failed');
  await page.setViewportSize({ width: 1280, height: 1400 });
  await shot(page, '#result-output', 'send-failed-result');
  assert.deepEqual(problems, []);
  await page.close();
});

test('verdict: a forged result is not authentic, and nothing in it passes', async () => {
  const { page, problems } = await open();
  const m = await minted({ 'x-nvidia-overall-att-result': false }, { 'GPU-0': { measres: 'fail' } });
  // The overall verdict flipped to true: the signature no longer verifies.
  const forged = JSON.parse(m.result);
  const [h, p, s] = forged[0][1].split('.');
  forged[0][1] = [h, encodePart({ ...decodePart(p), 'x-nvidia-overall-att-result': true }), s].join('.');
  await verifyResult(page, { ...m, result: JSON.stringify(forged) });
  assert.equal(await page.getAttribute('#result-summary', 'class'), 'summary bad');
  assert.match(await page.textContent('#result-verdict'), /^not authentic .*nothing in this result can be trusted.* ERR_JWS_SIGNATURE_VERIFICATION_FAILED: .*Whether the devices passed is unknown/);
  assert.equal(await page.getAttribute('#result-summary', 'data-level'), 'forged');
  const rows = await tableRows(page, '#result-tokens');
  assert.equal(rows[0][AUTHENTIC], 'not authentic');
  assert.equal(rows[0][1], 'unknown');
  // Every column is in view at 1280 px: the table does not scroll sideways.
  const fit = await page.$eval('#result-tokens', (wrap) => ({ scroll: wrap.scrollWidth, client: wrap.clientWidth }));
  assert.ok(fit.scroll <= fit.client, `the token table overflows: ${JSON.stringify(fit)}`);
  assert.deepEqual(await greenBadges(page, '#result-summary'), []);
  assert.equal(await page.locator('#result-tokens td:first-of-type .badge.pass').count(), 0, 'no device result is green');
  // The forged claim says true, and is not shown as a reason for anything.
  assert.match(await page.textContent('#result-claims details:nth-of-type(1) summary'), /not authentic, shown as decoded/);
  await shot(page, '#result', 'forged');
  assert.deepEqual(problems, []);
  await page.close();
});

test('evidence: a driver RIM that mismatches the measurements reads FAILED with the count', async () => {
  const { page, problems } = await open();
  await page.selectOption('#ev-sample', 'hopper-535.86.09');
  await page.click('#ev-load-sample');
  await page.selectOption('#ev-rim-driver', 'driver-545.00-test'); // another driver's RIM
  await page.fill('#ev-time', timeValue(Date.UTC(2024, 0, 1) / 1000)); // both RIM signers valid
  await page.click('#verify-evidence');
  await page.waitForSelector('#evidence-summary:not([hidden])');
  const summary = await page.textContent('#evidence-summary');
  assert.equal(await page.getAttribute('#evidence-summary', 'class'), 'summary bad');
  assert.match(summary, /^failed /);
  assert.doesNotMatch(summary, /partly/i);
  const n = Number(/(\d+) measurements differ from the RIM/.exec(summary)?.[1]);
  assert.ok(n >= 1, summary);
  const items = await page.$$eval('#evidence-checks > li', (li) => li.map((x) => ({ state: x.className, text: x.textContent })));
  const measured = items.find((i) => /Measurements against the RIMs/.test(i.text));
  assert.equal(measured.state, 'fail');
  assert.match(measured.text, new RegExp(`fail — ${n} measurements differ from the RIM`));
  assert.equal((measured.text.match(/index \d+ \(/g) ?? []).length, n);
  assert.equal(await page.locator('#evidence-summary .badge.pass').count(), 0);
  assert.match(await page.textContent('#service-verdict'), /would give: false/);
  await shot(page, '#evidence', 'evidence-mismatch');
  assert.deepEqual(problems, []);
  await page.close();
});

test('lists: all nine endpoints are asked of the worker, with the page envelope shown', async () => {
  const { page, problems } = await open();
  const asked = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/analytics/')) asked.push(url.pathname);
  });
  const paths = listSchemas().map((s) => s.path);
  assert.equal(paths.length, 9);
  const settled = () => page.waitForFunction(() => !document.getElementById('alerts').dataset.busy);
  for (const path of paths) {
    await page.selectOption('#list-path', path);
    await settled();
    assert.equal(await page.textContent('#list-source'), `HTTP 200 from the worker for GET ${path}?page_number=1&rpp=10.`);
    const envelope = JSON.parse(await page.textContent('#list-envelope'));
    const direct = await (await fetch(`${worker.origin}${path}?page_number=1&rpp=10`)).json();
    assert.deepEqual(Object.keys(envelope).sort(), Object.keys(direct).sort());
    for (const key of ['filtered_resources', 'first_index', 'last_index', 'num_of_pages']) assert.equal(envelope[key], direct[key], `${path} ${key}`);
    assert.equal((await tableRows(page, '#alerts-table')).length, direct.data.length);
  }
  assert.deepEqual([...new Set(asked)].sort(), [...paths].sort());
  // An invalid query: the worker's 400 and its code, named.
  await page.selectOption('#rpp', '5');
  await settled();
  await page.evaluate(() => { document.getElementById('rpp').append(new Option('0', '0')); });
  await page.selectOption('#rpp', '0');
  await settled();
  assert.match(await page.textContent('#alerts-error'), /^ERR_LIST_\w+ HTTP 400: .*\(field: rpp\)/);
  await shot(page, '#alerts', 'lists');
  assert.deepEqual(problems.filter((p) => !/status of 400/.test(p)), []);
  await page.close();
});

test('deprecations: the worker\'s headers on a 200, a Link target that answers, and the 400 bodies', async () => {
  const { page, problems } = await open();
  await page.click('#dep-call');
  await page.waitForSelector('#dep-worker-status');
  assert.match(await page.textContent('#dep-worker-status'), /^HTTP 200 POST \/v2\/attest\/gpu/);
  const headers = Object.fromEntries(await tableRows(page, '#dep-worker table'));
  assert.match(headers.Deprecation, /^@1767225600 = 2026-01-01T00:00:00Z/);
  assert.match(headers.Link, /\/deprecations#attest-v2-gpu rel="deprecation" — answers 200/);
  assert.match(headers.Link, /\/v4\/attest\/gpu rel="successor-version" — the endpoint to use instead/);
  // A well-formed request: the answer is a result, not an error (no console error).
  assert.doesNotMatch(await page.textContent('#dep-worker pre'), /"code": "ERR_/);
  // The request rules today (after the September 2026 dates): refused with 400 and a body.
  const rules = await tableRows(page, '#dep-rules');
  const byName = Object.fromEntries(rules.map((r) => [r[0], r]));
  assert.match(byName['Deprecated attribute alone'][2], /^400 refused/);
  assert.equal(JSON.parse(byName['Deprecated attribute alone'][3]).code, 'ERR_DEPRECATED_ATTRIBUTE');
  assert.equal(JSON.parse(byName['Deprecated attribute and its replacement'][3]).status, 400);
  assert.match(byName['Replacement only'][2], /^200 accepted/);
  assert.match(byName['Ignored attribute'][3], /ignored: .*isCloudInit/);
  await page.setViewportSize({ width: 1280, height: 1400 });
  await shot(page, '#deprecations', 'deprecations');

  // The Link target, followed by a client: 200, the page, its registry opened at the row.
  const link = await fetch(`${worker.origin}/deprecations`);
  assert.equal(link.status, 200);
  assert.equal(new URL(link.url).pathname, '/ui/');
  const target = await openPage(browser.context, `${worker.origin}/deprecations#attest-v2-gpu`);
  await ready(target.page);
  assert.equal(new URL(target.page.url()).hash, '#attest-v2-gpu');
  await target.page.waitForFunction(() => document.getElementById('dep-registry')?.open);
  assert.equal(await target.page.isVisible('#attest-v2-gpu'), true);
  assert.match(await target.page.textContent('#attest-v2-gpu'), /POST \/v2\/attest\/gpu/);
  assert.deepEqual(target.problems, []);
  await target.page.close();
  assert.deepEqual(problems.filter((p) => !/status of 400/.test(p)), []);
  await page.close();
});

test('health: the worker\'s GET /health, readable', async () => {
  const { page, problems } = await open();
  await page.waitForSelector('#health-verdict');
  const health = await (await fetch(`${worker.origin}/health`)).json();
  assert.equal(await page.textContent('#health-verdict'), `up HTTP 200 from GET /health: the service is up.`);
  const rows = Object.fromEntries(await tableRows(page, '#health-output table'));
  assert.match(rows['Signing key'], new RegExp(`^up held by WebCrypto .*; kid ${health.ocspServiceHealth.service.kid}$`));
  assert.match(rows['Reference measurements (RIMs)'], new RegExp(`^up ${health.rimServiceHealth.checks.localDocuments} held by the worker`));
  assert.match(rows['RIM service'], /^not configured off: only the RIMs held are used/);
  assert.match(rows['Revocation (OCSP responder)'], /^not configured off: revocation is not checked/);
  assert.deepEqual(JSON.parse(await page.textContent('#health-json')), health);
  await shot(page, '#health', 'health');
  assert.deepEqual(problems, []);
  await page.close();
});

test('layout: the "Verify at" field is not clipped at 1280 px', async () => {
  const { page, problems } = await open();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.click('#result-now');
  // A datetime-local input reports scrollWidth === clientWidth even when its fields are cut
  // (its editor is a closed shadow tree), so the width it needs is measured too: a copy of
  // it with its natural (auto) width, next to the one laid out.
  const measure = () => page.$eval('#result-time', (input) => {
    const copy = input.cloneNode();
    copy.removeAttribute('id');
    copy.style.cssText = 'position:absolute;visibility:hidden;width:auto;flex:none';
    document.body.append(copy);
    const needed = copy.getBoundingClientRect().width;
    copy.remove();
    return { scroll: input.scrollWidth, client: input.clientWidth, width: input.getBoundingClientRect().width, needed };
  });
  const now = await measure();
  // The yardstick, same run: the field as laid out before (one grid column).
  await page.$eval('#result-time', (input) => input.closest('.span2').classList.add('was-span2'));
  await page.$eval('.was-span2', (div) => div.classList.remove('span2'));
  const narrow = await measure();
  await page.$eval('.was-span2', (div) => div.classList.add('span2'));
  console.log(`Verify at, 1280 px: ${now.width}px wide, needs ${now.needed}px (scrollWidth ${now.scroll}, clientWidth ${now.client}); in one grid column as before: ${narrow.width}px for ${narrow.needed}px`);
  assert.ok(now.scroll <= now.client, JSON.stringify(now));
  assert.ok(now.width >= now.needed, `clipped: ${JSON.stringify(now)}`);
  assert.ok(narrow.width < narrow.needed, `the measurement sees the old clipping: ${JSON.stringify(narrow)}`);
  await page.locator('#result-form .grid').screenshot({ path: join(ARTIFACTS, 'page-verdict-verify-at-1280.png') });
  assert.deepEqual(problems, []);
  await page.close();
});
