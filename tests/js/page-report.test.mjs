// The evidence panel renders the core's report, and the service panel agrees with it: for a
// passing and a failing input, the verdict shown is the one `evidenceReport` (the package,
// run here in Node on the same input) gives, every stage is shown in the core's order with
// its status, and the service run in the page gives the same answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage } from './support/browser.mjs';
import { ready, timeValue, DESKTOP, pageHooks } from './support/page.mjs';
import { evidenceReport } from '../../pkg/local/index.js';

const repo = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const samples = JSON.parse(repo('www/samples/evidence.json')).samples;
const rims = JSON.parse(repo('www/samples/rims.json')).rims;
const rimXml = (id) => repo(rims.find((r) => r.id === id).source);

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

// The class each stage status is drawn with: never green for anything but a pass.
const LOOK = { passed: ['pass', 'warn'], failed: ['fail'], 'not-checked': ['skip'], 'not-applicable': ['skip'] };

/** Loads a sample (optionally with other RIMs), verifies it at `now`, returns what the page shows. */
async function verifyInPage({ sample, driver, now }) {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  await page.selectOption('#ev-sample', sample);
  await page.click('#ev-load-sample');
  if (driver !== undefined) await page.selectOption('#ev-rim-driver', driver);
  await page.fill('#ev-time', timeValue(now));
  await page.click('#verify-evidence');
  await page.waitForSelector('#evidence-summary:not([hidden])');
  await page.waitForSelector('#service-verdict');
  const shown = {
    summary: await page.textContent('#evidence-summary'),
    summaryClass: await page.getAttribute('#evidence-summary', 'class'),
    greenInSummary: await page.locator('#evidence-summary .badge.pass').count(),
    checks: await page.$$eval('#evidence-checks > li', (items) => items.map((li) => ({ state: li.className, text: li.textContent.replace(/\s+/g, ' ').trim() }))),
    service: await page.textContent('#service-verdict'),
    agreement: await page.textContent('#service-agreement'),
    agreementClass: await page.getAttribute('#service-agreement', 'class'),
  };
  await page.close();
  return { shown, problems };
}

/** The core's report for the same input, computed here by the package. */
function nodeReport({ sample, driver, now }) {
  const s = samples.find((x) => x.id === sample);
  const chosen = { driver: driver ?? s.rims.driver, firmware: s.rims.firmware };
  const documents = {};
  for (const [kind, id] of Object.entries(chosen)) if (id) documents[kind] = rimXml(id);
  return evidenceReport({
    evidence: s.evidenceHex, certificate: s.certificatePem, nonce: s.nonce, arch: s.arch, now, rims: documents,
  });
}

/** The page shows the report: its verdict, and its stages in order with their statuses. */
function assertShowsReport(shown, report) {
  const look = { passed: 'summary good', partial: 'summary warn', failed: 'summary bad' }[report.verdict];
  assert.equal(shown.summaryClass, look, shown.summary);
  const stageItems = shown.checks.filter((c) => c.state !== 'info');
  assert.equal(stageItems.length, report.stages.length);
  report.stages.forEach((stage, i) => {
    assert.ok(LOOK[stage.status].includes(stageItems[i].state), `${stage.id}: ${stage.status} drawn as ${stageItems[i].state}`);
    assert.ok(stageItems[i].text.includes(stage.title), `${stage.id}: ${stageItems[i].text}`);
    if (stage.code) assert.ok(stageItems[i].text.includes(stage.code), stageItems[i].text);
  });
  for (const failure of report.failures) assert.ok(shown.summary.includes(failure.code), shown.summary);
}

test('a passing input: the evidence panel shows the core report (partial: revocation not checked) and the service agrees', async () => {
  const input = { sample: 'ls10-96.10.55.00.01', now: Date.UTC(2026, 6, 1) / 1000 };
  const report = nodeReport(input);
  assert.equal(report.verdict, 'partial');
  assert.deepEqual(report.notChecked, ['revocation (OCSP)']);
  assert.equal(report.failure, null);
  const { shown, problems } = await verifyInPage(input);
  assertShowsReport(shown, report);
  assert.match(shown.summary, /^partly verified .*not checked: revocation \(OCSP\)/);
  assert.match(shown.service, /Overall result the service would give: true/);
  assert.match(shown.agreement, /agree: the evidence panel's verdict is partial; the service's overall result is true/);
  // Both say passed with warnings (revocation not checked): amber, never green.
  assert.equal(shown.agreementClass, 'summary warn');
  assert.deepEqual(problems, []);
});

test('a failing input (another driver\'s RIM): the panel fails the device with the report\'s reasons, never green, and the service agrees', async () => {
  const input = { sample: 'hopper-535.86.09', driver: 'driver-545.00-test', now: Date.UTC(2024, 0, 1) / 1000 };
  const report = nodeReport(input);
  assert.equal(report.verdict, 'failed');
  assert.ok(report.failures.some((f) => f.code === 'ERR_MEASUREMENT_MISMATCH'), JSON.stringify(report.failures));
  const { shown, problems } = await verifyInPage(input);
  assertShowsReport(shown, report);
  assert.match(shown.summary, /^failed /);
  assert.equal(shown.greenInSummary, 0);
  assert.match(shown.service, /would give: false/);
  assert.match(shown.agreement, /agree: the evidence panel's verdict is failed; the service's overall result is false/);
  assert.deepEqual(problems, []);
});

test('a missing driver RIM fails the device in the core as in the service: no more "partly verified" beside a failing service', async () => {
  const input = { sample: 'hopper-535.86.09', now: Date.UTC(2024, 0, 1) / 1000 };
  const report = nodeReport(input);
  assert.equal(report.verdict, 'failed');
  assert.equal(report.failure.code, 'ERR_RIM_NOT_AVAILABLE');
  assert.equal(report.failure.serviceCode, 5009);
  const { shown, problems } = await verifyInPage(input);
  assertShowsReport(shown, report);
  assert.match(shown.summary, /^failed ERR_RIM_NOT_AVAILABLE: the driver RIM NV_GPU_DRIVER_GH100_535\.86\.09 is not available/);
  assert.match(shown.service, /would give: false/);
  assert.match(shown.agreement, /agree/);
  assert.deepEqual(problems, []);
});
