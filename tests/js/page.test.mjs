// The verification page, served by the edge worker in workerd, in headless Chromium: the
// release build end to end (a broken wasm-opt or bundling step fails here). Panel 3 (the
// request builder and Send) and the page as a whole: keyboard, phone width, offline.
// Panels 1-2: page-verify.test.mjs; panel 2b: page-topology.test.mjs; panels 4-6: page-api.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorker } from './support/worker.mjs';
import { openPage, ARTIFACTS } from './support/browser.mjs';
import {
  validateAttestRequest, importPrivateKey, createDetachedEat, createJwks,
} from '../../pkg/index.js';
import { ready, panelShots, tableRows, DESKTOP, PHONE, pageHooks, testSigner, pinAnchor } from './support/page.mjs';

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

test('request builder: a bundled sample becomes a valid V4 body', async () => {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.waitForSelector('#build-request:enabled');
  assert.match(await page.textContent('#status'), /ready/i);

  await page.click('#generate-nonce');
  const nonce = await page.inputValue('#nonce');
  assert.match(nonce, /^[0-9a-f]{64}$/);

  await page.selectOption('#claims-version', '3.0');
  await page.click('#add-sample');
  await page.click('#add-sample');
  assert.equal(await page.locator('#items li').count(), 2);
  await page.click('#build-request');
  const text = await page.textContent('#request-json');
  const body = JSON.parse(text);
  assert.equal(body.nonce, nonce);
  assert.equal(body.claims_version, '3.0');
  assert.equal(body.evidence_list.length, 2);
  // The page's output is accepted by the package's validator in Node too.
  assert.equal(validateAttestRequest('/v4/attest/gpu', text).devices.length, 2);
  assert.equal(await page.isHidden('#build-error'), true);
  await page.screenshot({ path: join(ARTIFACTS, 'page-request-builder.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('request builder: an invalid nonce shows its code and field', async () => {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.waitForSelector('#build-request:enabled');
  await page.fill('#nonce', 'abc');
  await page.click('#add-sample');
  await page.click('#build-request');
  await page.waitForSelector('#build-error:not([hidden])');
  const message = await page.textContent('#build-error');
  assert.match(message, /ERR_REQUEST_INVALID_NONCE/);
  assert.match(message, /field: nonce/);
  assert.equal(await page.textContent('#request-json'), '');
  await page.screenshot({ path: join(ARTIFACTS, 'page-request-builder-error.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('request builder: switch endpoints, V1 and the keyboard', async () => {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.waitForSelector('#build-request:enabled');
  await page.selectOption('#endpoint', '/v2/attest/switch');
  await page.click('#add-sample');
  await page.click('#build-request');
  const body = JSON.parse(await page.textContent('#request-json'));
  assert.equal('arch' in body, false);
  assert.equal(body.evidences.length, 1);

  // Keyboard only: focus the nonce button, press Enter, and the nonce changes.
  const before = await page.inputValue('#nonce');
  await page.focus('#generate-nonce');
  await page.keyboard.press('Enter');
  assert.notEqual(await page.inputValue('#nonce'), before);
  assert.deepEqual(problems, []);
  await page.close();
});

test('request builder: Send posts the body and verifies the answer in panel 1', async () => {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await ready(page);
  // A stand-in service at another origin, minting a result for the nonce it receives.
  const kid = 'send-test';
  // It signs with the test token-signing PKI, whose CA the page is told to trust.
  const { keyPem, x5c, anchorPem } = testSigner();
  const privateKey = await importPrivateKey(keyPem, { backend: 'software' });
  const jwks = createJwks([{ kid, key: privateKey, x5c }]);
  await pinAnchor(page, anchorPem);
  const received = [];
  await page.route('http://service.test/**', async (route) => {
    const request = route.request();
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type', 'access-control-allow-methods': 'GET, POST' };
    if (request.method() === 'OPTIONS') {
      await route.fulfill({ status: 204, headers: cors });
      return;
    }
    if (request.url().endsWith('/.well-known/jwks.json')) {
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(jwks), headers: { 'access-control-allow-origin': '*' } });
      return;
    }
    const body = JSON.parse(request.postData());
    received.push({ url: request.url(), body });
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: 'http://service.test', iat: now, nbf: now, exp: now + 3600, eat_nonce: body.nonce };
    // A pass with its device chain confirmed good (claims 3.0's object).
    const chain = { 'x-nvidia-gpu-attestation-report-cert-chain': { 'x-nvidia-cert-status': 'valid', 'x-nvidia-cert-ocsp-status': 'good' } };
    const devices = Object.fromEntries(body.evidence_list.map((_, i) => [`GPU-${i}`, { ...claims, measres: 'success', ...chain }]));
    const result = await createDetachedEat({ ...claims, 'x-nvidia-overall-att-result': true }, devices, privateKey, { kid });
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(result), headers: { 'access-control-allow-origin': '*' } });
  });
  await page.click('#add-sample');
  await page.click('#build-request');
  await page.fill('#send-url', 'http://service.test');
  await page.click('#send-request');
  await page.waitForFunction(() => /PASSED|FAILED|NOT authentic/.test(document.getElementById('send-status').textContent));
  assert.match(await page.textContent('#send-status'), /answered 200: attestation PASSED, the tokens are authentic/);
  assert.equal(await page.getAttribute('#send-status', 'class'), 'summary good');
  assert.equal(received.length, 1);
  assert.equal(received[0].url, 'http://service.test/v4/attest/gpu');
  assert.equal(await page.inputValue('#result-nonce'), received[0].body.nonce);
  assert.match(await page.textContent('#result-summary'), /^attestation passed.*1 device/i);
  assert.deepEqual((await tableRows(page, '#result-tokens')).map((r) => r.at(-1)), ['authentic', 'authentic']);

  // The local worker's attestation service: its signed answer verifies in panel 1 with the
  // JWKS it publishes (the sample's RIM signer has expired, so its verdict is false), its
  // development root trusted by the user's choice.
  await page.fill('#jwks-url', worker.origin);
  await page.click('#trust-service-root');
  await page.waitForFunction(() => document.getElementById('service-root-note').textContent.length > 0);
  await page.fill('#send-url', worker.origin);
  await page.click('#send-request');
  await page.waitForFunction(() => /PASSED|FAILED|NOT authentic|answered [45]\d\d/.test(document.getElementById('send-status').textContent));
  assert.match(await page.textContent('#send-status'), new RegExp(`^${worker.origin}/v4/attest/gpu answered 200: attestation FAILED`));
  assert.equal(await page.getAttribute('#send-status', 'class'), 'summary bad');
  assert.match(await page.inputValue('#jwks-text'), /"keys"/);
  assert.match(await page.textContent('#result-summary'), /^attestation failed The service's overall verdict is false.*tokens authentic .*1 device\)/);

  // A service that refuses the request: its status, error code and field are shown.
  await page.route('http://refusing.test/**', (route) => route.fulfill(route.request().method() === 'OPTIONS'
    ? { status: 204, headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' } }
    : {
      status: 400, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' },
      body: JSON.stringify({ code: 'ERR_REQUEST_INVALID_NONCE', message: 'nonce is not 64 hex digits', field: 'nonce', status: 400 }),
    }));
  await page.fill('#send-url', 'http://refusing.test');
  await page.click('#send-request');
  await page.waitForFunction(() => /answered 400/.test(document.getElementById('send-status').textContent));
  assert.equal(await page.textContent('#build-error'), 'ERR_REQUEST_INVALID_NONCE 400: nonce is not 64 hex digits (field: nonce)');
  await panelShots(page, '#build', 'request-sent');
  assert.deepEqual(problems.filter((p) => !/Failed to load resource/.test(p)), []);
  await page.close();
});

test('the page: keyboard order, landmarks, labels, phone width and offline use', async () => {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await ready(page);
  // Every form control has an accessible name.
  const unnamed = await page.$$eval('input, select, textarea, button', (nodes) => nodes
    .filter((n) => n.type !== 'hidden')
    .filter((n) => !(n.labels?.length || n.getAttribute('aria-label') || (n.tagName === 'BUTTON' && n.textContent.trim())))
    .map((n) => n.id || n.outerHTML.slice(0, 60)));
  assert.deepEqual(unnamed, []);
  // Live regions for the results, alerts for errors (the EAR's errors share policy-error).
  for (const id of ['status', 'result-summary', 'policy-status', 'ear-status', 'evidence-summary', 'access-output', 'send-status', 'page-info', 'deprecations-summary']) {
    assert.equal(await page.getAttribute(`#${id}`, 'aria-live'), 'polite', id);
  }
  assert.equal(await page.locator('.error[role=alert]').count(), 9);

  // Tab from the top: the skip link, the panel links, then panel 1's controls in order.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  const order = [];
  for (let i = 0; i < 18; i += 1) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.getAttribute('href')));
  }
  assert.deepEqual(order.slice(0, 8), ['#result', '#evidence', '#topology', '#build', '#scopes', '#alerts', '#deprecations', '#health']);
  // The recorded results come first (their buttons are disabled until one is chosen).
  // The trusted signers: one stop for the radio group (its checked choice), the anchors, the
  // service-root button.
  assert.deepEqual(order.slice(8, 18), ['recorded-result', 'result-text', 'result-file', 'jwks-url', 'fetch-jwks', 'jwks-text',
    'signers-nras', 'signers-text', 'trust-service-root', 'result-nonce']);

  // Keyboard only: load a sample and verify it in panel 2.
  await page.focus('#ev-sample');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.notEqual(await page.inputValue('#ev-evidence'), '');
  await page.focus('#verify-evidence');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#evidence-summary:not([hidden])');

  // Phone: nothing wider than the screen.
  await page.setViewportSize(PHONE);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `page is ${width}px wide on a ${PHONE.width}px screen`);
  await page.screenshot({ path: join(ARTIFACTS, 'page-phone-top.png') });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: join(ARTIFACTS, 'page-desktop-top.png') });

  // Offline once loaded: every panel still works.
  await browser.context.setOffline(true);
  try {
    await page.selectOption('#ev-sample', 'ls10-96.10.55.00.01');
    await page.click('#ev-load-sample');
    await page.click('#verify-evidence');
    await page.waitForFunction(() => /verified/.test(document.getElementById('evidence-summary').textContent) && /LS10|96\.10/.test(document.getElementById('evidence-checks').textContent));
    assert.match(await page.textContent('#evidence-summary'), /^partly verified Evidence authentic and fresh, nothing failed; not checked: revocation \(OCSP\) —/);
    await page.click('#generate-nonce');
    await page.click('#add-sample');
    await page.click('#build-request');
    assert.match(await page.textContent('#request-json'), /"evidence_list"/);
    await page.click('#check-access');
    assert.match(await page.textContent('#access-output'), /allowed|denied/);
    await page.click('#page-next');
    await page.waitForFunction(() => /^Page 2 of/.test(document.getElementById('page-info').textContent));
    await page.click('#dep-now');
    assert.match(await page.textContent('#deprecations-output'), /notices as returned/);
    await page.click('#topology-real');
    await page.waitForSelector('#topology-output:not([hidden])');
    assert.equal(await page.getAttribute('#topology-verdict', 'data-level'), 'passed');
  } finally {
    await browser.context.setOffline(false);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('the page opens again with the service gone, from the service worker\'s copy', async () => {
  const own = await startWorker();
  let stopped = false;
  try {
    const { page, problems } = await openPage(browser.context, `${own.origin}/ui/`);
    await ready(page);
    await page.waitForSelector('html[data-offline="ready"]', { timeout: 20000 });
    await own.stop();
    stopped = true;
    await page.reload();
    await ready(page);
    await page.selectOption('#ev-sample', 'ls10-96.10.55.00.01');
    await page.click('#ev-load-sample');
    await page.click('#verify-evidence');
    await page.waitForSelector('#service-verdict');
    assert.match(await page.textContent('#evidence-summary'), /^partly verified Evidence authentic and fresh, nothing failed; not checked: revocation \(OCSP\) —/);
    // The topology sample too: the node is checked from the copy.
    await page.click('#topology-real');
    await page.waitForSelector('#topology-output:not([hidden])');
    assert.equal(await page.getAttribute('#topology-verdict', 'data-level'), 'passed');
    // Only the page is kept: the service's own routes are not answered from the copy.
    const api = await page.evaluate(() => fetch('/.well-known/jwks.json').then(() => 'answered', () => 'network error'));
    assert.equal(api, 'network error');
    assert.deepEqual(problems.filter((p) => !/Failed to load resource|ERR_CONNECTION_REFUSED/.test(p)), []);
    await page.close();
  } finally {
    if (!stopped) await own.stop();
  }
});

test('request builder: an SDK evidence file adds every device (8 GPUs of a PPCIE node)', async () => {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await ready(page);
  await page.click('#build summary');
  await page.setInputFiles('#own-files', fileURLToPath(new URL('../fixtures/nvidia/evidence/serialized/nvtrust_ppcie_gpu_evidence_8gpu.json', import.meta.url)));
  await page.waitForFunction(() => document.querySelectorAll('#items li').length === 8);
  assert.equal(await page.inputValue('#nonce'), '4760e30534a0621357d458b1a7936551b5dc4cd1e69718adf7ed9fb0252a537e');
  await page.click('#build-request');
  const text = await page.textContent('#request-json');
  assert.equal(validateAttestRequest('/v4/attest/gpu', text).devices.length, 8);
  assert.deepEqual(problems, []);
  await page.close();
});
