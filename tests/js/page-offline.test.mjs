// The page of the main job, offline (issue "the first hour of a new user"): the main job's
// worker configuration (start.sh's: EDGEATTEST_TEST_PKI=on, NVIDIA's sources) in workerd with
// every outbound fetch failing; in headless Chromium each bundled sample is added, sent to the
// service from panel 3, and panel 1 shows its verdict: passed (with the TEST PKI's "not an
// NVIDIA device" warning, amber) for the TEST PKI sample of each architecture, red with its
// reason (the error code, or measres) for every failing one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { workerOptions } from '../../pkg-config/worker-options.mjs';
import { localBindings } from '../../pkg-config/local-config.mjs';
import { launchBrowser, openPage } from './support/browser.mjs';
import { ready, trustServiceRoot } from './support/page.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const samples = JSON.parse(readFileSync(join(repo, 'www/samples/evidence.json'), 'utf8')).samples;

let mf;
let origin;
let browser;
let state;
before(async () => {
  state = mkdtempSync(join(tmpdir(), 'edgeattest-page-offline-'));
  const { bindings } = await localBindings({ EDGEATTEST_TEST_PKI: 'on' }, () => {}, { dir: state });
  mf = new Miniflare(workerOptions({
    host: '127.0.0.1', port: 0, bindings,
    outboundService: (request) => {
      throw new Error(`offline: ${request.url} is unreachable`);
    },
  }));
  origin = (await mf.ready).origin;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await mf?.dispose();
  rmSync(state, { recursive: true, force: true });
});

for (const sample of samples) {
  test(`page, offline: ${sample.id} is ${sample.expect.result === 'pass' ? 'passed with warnings' : 'red with its reason'}`, async () => {
    const { page, problems } = await openPage(browser.context, `${origin}/ui/`);
    await ready(page);
    await page.selectOption('#endpoint', sample.arch === 'LS10' ? '/v4/attest/switch' : '/v4/attest/gpu');
    const index = samples.indexOf(sample);
    await page.selectOption('#sample', String(index));
    assert.match(await page.textContent('#sample-about'), new RegExp(`answers: ${sample.expect.result}`));
    await page.click('#add-sample');
    await page.fill('#nonce', sample.nonce);
    await page.click('#build-request');
    // The first send refuses the local service's signer (NVIDIA's is the default pin) and
    // says what to do; trusting its development root is the user's choice.
    await page.fill('#send-url', origin);
    await page.click('#send-request');
    await page.waitForFunction(() => /NOT authentic|answered [45]\d\d/.test(document.getElementById('send-status').textContent));
    if (/NOT authentic/.test(await page.textContent('#send-status'))) {
      assert.match(await page.textContent('#send-status'), /signer is not trusted \(ERR_SIGNER_UNTRUSTED\).*Trust this service's root/);
      await trustServiceRoot(page);
      await page.click('#send-request');
    }
    await page.waitForFunction(() => /PASSED|FAILED|NOT authentic|answered [45]\d\d/.test(document.getElementById('send-status').textContent));
    const status = await page.textContent('#send-status');
    const result = await page.textContent('#result-output');
    if (sample.expect.result === 'pass') {
      // A TEST PKI device passes, and says it is not an NVIDIA device: passed with warnings,
      // amber (green is kept for a pass with nothing to warn about).
      assert.match(status, /answered 200: attestation PASSED WITH WARNINGS/);
      assert.equal(await page.getAttribute('#send-status', 'class'), 'summary warn');
      assert.equal(await page.getAttribute('#result-summary', 'data-level'), 'passed-with-warnings');
      assert.match(await page.textContent('#result-verdict ul.warnings'), /not an attestation of an NVIDIA device/);
    } else {
      assert.match(status, /answered 200: attestation FAILED/);
      assert.equal(await page.getAttribute('#send-status', 'class'), 'summary bad');
      assert.ok(result.includes(sample.expect.code === undefined ? 'measres' : String(sample.expect.code)), `${sample.id}: the reason is shown`);
      // A failure for want of collateral shows its remedy.
      if (sample.expect.code === 5001) assert.ok(result.includes('EDGEATTEST_OCSP_URL=off'), sample.id);
      if (sample.expect.code === 5008) assert.ok(result.includes('EDGEATTEST_RIM_DIR'), sample.id);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}
