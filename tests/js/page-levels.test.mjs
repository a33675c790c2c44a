// The page's one verdict scale, in headless Chromium against the worker in workerd: each of
// the six levels the core decides (forged, wrong nonce, authentic but expired, failed, passed
// with warnings, passed; tests/page/states.mjs drives them) is shown with its own words in
// every panel that shows it — the result's verdict, its token table, the policy section —
// and nothing of a level that is not a pass is green. Panel 1 offers the recorded results
// with "Verify at its recorded time", labelled as such. The deprecation demo logs no error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './support/browser.mjs';
import { ready, tableRows, DESKTOP, pageHooks } from './support/page.mjs';
import { STATES, verdictShown, recording } from '../page/states.mjs';

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

async function open() {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  return { page, problems };
}

const WORDS = {
  forged: /^not authentic /,
  'wrong-nonce': /^wrong nonce /,
  expired: /^authentic but expired /,
  failed: /^attestation failed /,
  'passed-with-warnings': /^passed with warnings /,
  passed: /^attestation passed /,
};
const TONE = {
  forged: 'bad', 'wrong-nonce': 'bad', expired: 'bad', failed: 'bad', 'passed-with-warnings': 'warn', passed: 'good',
};

for (const [level, name, what, drive] of STATES) {
  test(`levels: ${name} — ${what}`, async () => {
    const { page, problems } = await open();
    await drive(page);
    await verdictShown(page);
    assert.equal(await page.getAttribute('#result-summary', 'data-level'), level);
    assert.equal(await page.getAttribute('#result-summary', 'class'), `summary ${TONE[level]}`);
    assert.equal(await page.getAttribute('#result-verdict', 'data-level'), level);
    assert.match(await page.textContent('#result-verdict'), WORDS[level]);
    assert.equal(await page.getAttribute('#result-verdict .badge', 'data-level'), level);
    // Nothing green unless the level is a clean pass.
    const green = await page.$$eval('#result .badge.pass, #result .summary.good', (n) => n.map((x) => x.textContent));
    if (level !== 'passed') assert.deepEqual(green, [], `${level} shows green: ${green}`);
    const rows = await tableRows(page, '#result-tokens');
    const authentic = rows.map((r) => r.at(-1));
    if (level === 'forged') assert.ok(authentic.includes('not authentic'));
    if (level === 'expired') assert.ok(authentic.every((a) => a === 'authentic but expired'), authentic.join());
    if (level === 'wrong-nonce') assert.ok(authentic.every((a) => a === 'authentic, wrong nonce'), authentic.join());
    if (level === 'passed-with-warnings') {
      const warnings = await page.$$eval('#result-verdict ul.warnings li', (n) => n.map((x) => x.textContent));
      assert.ok(warnings.some((w) => /not an attestation of an NVIDIA device/.test(w)), warnings.join('\n'));
      assert.match(await page.textContent('#result-summary .authenticity'), /its recorded time, not now/);
      assert.ok(rows.slice(1).every((r) => /^passed with warnings /.test(r[1])), rows.map((r) => r[1]).join());
    }
    // The policy section: on the same scale, never green under a result that is not a pass.
    if (await page.isEnabled('#apply-policy')) {
      await page.selectOption('#policy-sample', { index: 1 });
      await page.click('#apply-policy');
      await page.waitForSelector('#policy-output > div');
      const box = await page.getAttribute('#policy-output > div', 'data-level');
      const policyLevel = await page.getAttribute('#policy-verdict', 'data-level');
      if (level === 'failed') assert.equal(box, 'failed');
      if (policyLevel !== level) {
        assert.match(await page.textContent('#policy-output .level-why'), /^The result's verdict is /, `${level} vs policy ${policyLevel}`);
      }
      if (level !== 'passed') {
        const policyGreen = await page.$$eval('#policy-output .badge.pass, #policy-output .summary.good', (n) => n.map((x) => x.textContent));
        assert.deepEqual(policyGreen, [], `${level}: the policy section shows green`);
      }
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('levels: an expired result offers to verify it at its recorded time, and then says so', async () => {
  const { page, problems } = await open();
  const c = recording('v3_1gpu_success_20260629');
  await page.fill('#result-text', c.result);
  await page.fill('#jwks-text', c.jwks);
  await page.fill('#result-nonce', c.nonce);
  await page.click('#verify-result');
  await verdictShown(page);
  assert.equal(await page.getAttribute('#result-summary', 'data-level'), 'expired');
  assert.doesNotMatch(await page.textContent('#result-verdict'), /Nothing in this result can be trusted/);
  await page.click('#result-at-recorded');
  await page.waitForSelector('#result-summary[data-level="passed"]');
  assert.match(await page.textContent('#result-summary .authenticity'), /its recorded time, not now/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('levels: panel 1 lists the recorded results, with their provenance', async () => {
  const { page, problems } = await open();
  const options = await page.$$eval('#recorded-result option', (o) => o.map((x) => x.value).filter(Boolean));
  assert.ok(options.length >= 3, options.join());
  await page.selectOption('#recorded-result', options[0]);
  await page.click('#recorded-load');
  assert.match(await page.textContent('#recorded-note'), /Recorded from this project's edge worker .* TEST PKI .* Recorded at \d{4}-/);
  assert.ok((await page.inputValue('#result-text')).startsWith('[['));
  assert.deepEqual(problems, []);
  await page.close();
});

test('levels: the deprecation demo shows the deprecation with no console error', async () => {
  const { page, problems } = await open();
  await page.click('#dep-call');
  await page.waitForSelector('#dep-worker-status');
  assert.match(await page.textContent('#dep-worker-status'), /^HTTP 200 POST \/v2\/attest\/gpu with the sample "Hopper H100, driver 550.90.07 — TEST PKI \(not NVIDIA\)" as a V2 request/);
  const headers = Object.fromEntries(await tableRows(page, '#dep-worker table'));
  assert.match(headers.Deprecation, /^@\d+ = /);
  assert.deepEqual(problems, []);
  await page.close();
});
