// The verification page, served by the edge worker in workerd, in headless Chromium: the
// release build end to end (a broken wasm-opt or bundling step fails here).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startWorker } from './support/worker.mjs';
import { launchBrowser, openPage, ARTIFACTS } from './support/browser.mjs';
import { validateAttestRequest } from '../../pkg/index.js';

let worker;
let browser;

before(async () => {
  worker = await startWorker();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await worker?.stop();
});

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
