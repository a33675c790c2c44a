// The worker's OCSP relay for the verification page (www/worker-ocsp-relay.js): it forwards
// an OCSP request to the configured responder only — here `openssl ocsp` on loopback for the
// test PKI (tests/js/support/ocsp-responder.mjs) — and the page checks the answer itself. And
// the page in Chromium: revocation shown per certificate; without a good answer it is a
// failure, never a pass.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ocspRequests, checkOcspResponses } from '../../pkg/local/index.js';
import { startWorker } from './support/worker.mjs';
import { launchBrowser, openPage } from './support/browser.mjs';
import { ready, timeValue, DESKTOP } from './support/page.mjs';
import { pkiText, startOcspResponder } from './support/ocsp-responder.mjs';

let responder;
let worker;
let off;
let browser;

before(async () => {
  responder = await startOcspResponder();
  worker = await startWorker({ bindings: { EDGEATTEST_OCSP_URL: responder.url } });
  off = await startWorker();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await worker?.stop();
  await off?.stop();
  await responder?.close();
});

const relayPost = (origin, body, headers = {}) =>
  fetch(`${origin}/ocsp`, { method: 'POST', headers: { 'content-type': 'application/ocsp-request', ...headers }, body });

test('the relay forwards to the configured responder; the answers check out in the page\'s code', async () => {
  const chain = pkiText('chain_good.pem');
  const info = await (await fetch(`${worker.origin}/ocsp`)).json();
  assert.equal(info.responder, responder.url);
  const requests = ocspRequests(chain, { kind: 'device' });
  assert.equal(requests.length, 3);
  const answers = [];
  for (const r of requests) {
    const response = await relayPost(worker.origin, r.request);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/ocsp-response');
    answers.push({ body: new Uint8Array(await response.arrayBuffer()), nonce: r.nonce });
  }
  const status = checkOcspResponses(chain, 'device', answers, Math.floor(Date.now() / 1000));
  assert.equal(status.status, 'good', JSON.stringify(status));
  const revoked = pkiText('chain_revoked.pem');
  const first = ocspRequests(revoked, { kind: 'device' })[0];
  const answer = new Uint8Array(await (await relayPost(worker.origin, first.request)).arrayBuffer());
  const [brom] = checkOcspResponses(revoked, 'device', [{ body: answer, nonce: first.nonce }, { error: 'not-fetched' }, { error: 'not-fetched' }]).certificates;
  assert.deepEqual([brom.status, brom.reason], ['revoked', 'keyCompromise']);
});

test('the relay refuses what it does not relay: other methods, oversize bodies, and everything when off', async () => {
  assert.equal((await fetch(`${worker.origin}/ocsp`, { method: 'PUT', body: 'x' })).status, 405);
  const big = await relayPost(worker.origin, new Uint8Array(64 * 1024 + 1));
  assert.equal(big.status, 413);
  assert.equal((await big.json()).code, 'ERR_REQUEST_TOO_LARGE');
  const refused = await relayPost(off.origin, new Uint8Array(10));
  assert.equal(refused.status, 404);
  assert.equal((await refused.json()).code, 'ERR_OCSP_RELAY_OFF');
});

async function verifySample(origin) {
  const { page, problems } = await openPage(browser.context, `${origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  const id = await page.$eval('#ev-sample', (s) => [...s.options].find((o) => /LS10|switch/i.test(o.textContent))?.value);
  await page.selectOption('#ev-sample', id);
  await page.click('#ev-load-sample');
  await page.fill('#ev-time', timeValue(Date.UTC(2026, 6, 1) / 1000));
  await page.click('#verify-evidence');
  await page.waitForSelector('#evidence-summary:not([hidden]), #evidence-error:not([hidden])');
  const checks = await page.$$eval('#evidence-checks > li', (items) => items.map((li) => ({ state: li.className, text: li.textContent })));
  const summary = await page.textContent('#evidence-summary');
  await page.close();
  return { checks, summary, problems };
}

test('the page: an answer it cannot confirm fails the device; with the relay off revocation is "not checked", never a pass', async () => {
  // NVIDIA's real LS10 chain: the loopback responder does not answer for NVIDIA's CAs.
  const unconfirmed = await verifySample(worker.origin);
  const revocation = unconfirmed.checks.find((c) => /Revocation \(OCSP\)/.test(c.text));
  assert.equal(revocation.state, 'fail', revocation.text);
  assert.match(revocation.text, /ERR_OCSP_UNAVAILABLE/);
  assert.match(unconfirmed.summary, /^failed/);
  const unchecked = await verifySample(off.origin);
  const skipped = unchecked.checks.find((c) => /Revocation \(OCSP\)/.test(c.text));
  assert.equal(skipped.state, 'skip');
  assert.match(skipped.text, /not checked: revocation checking is off/);
  assert.match(unchecked.summary, /^partly verified .*not checked: .*revocation \(OCSP\)/);
  assert.doesNotMatch(unchecked.summary, /^failed/);
});
