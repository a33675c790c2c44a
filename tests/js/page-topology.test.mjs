// Panel 2b, the protected-PCIe topology, in headless Chromium against the worker in workerd:
// the bundled real node (8 Hopper GPUs, 4 LS10 switches) passes in green with its 32 links and
// nothing red; the node without SWITCH-3 is red, as an alert, with its failed rules and the 8
// GPUs' links to the missing switch's PDI in red; GPU-7 given twice is red with gpu-unique.
// The page decides nothing: every colour follows the core's report (checkTopology in Node).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage } from './support/browser.mjs';
import { ready, DESKTOP, PHONE, pageHooks, panelShots, tableRows, failedRows } from './support/page.mjs';
import { checkTopology } from '../../pkg/local/index.js';

const sample = JSON.parse(readFileSync(new URL('../../www/samples/topology.json', import.meta.url), 'utf8'));
const report = (gpus, switches) => checkTopology({
  gpus: { devices: gpus, nonce: sample.nonce, arch: 'HOPPER' },
  switches: { devices: switches, nonce: sample.nonce, arch: 'LS10' },
});
const real = report(sample.gpus.devices, sample.switches.devices);

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

async function open() {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  return { page, problems };
}

async function check(page, button) {
  await page.click(button);
  await page.waitForSelector('#topology-output:not([hidden]), #topology-error:not([hidden])');
  assert.equal(await page.isHidden('#topology-error'), true, await page.textContent('#topology-error'));
}

/** The view's links as {gpu, switch, pdi, failed}, and its devices' labels with their state. */
const links = (page) => page.$$eval('#topology-view line.link', (lines) => lines.map((l) => ({
  gpu: l.dataset.gpu ?? null, switch: l.dataset.switch ?? null, pdi: l.dataset.pdi, failed: l.classList.contains('failed'),
  title: l.querySelector('title')?.textContent ?? '',
})));
const devices = (page) => page.$$eval('#topology-view g.device', (nodes) => nodes.map((n) => ({
  label: n.dataset.label ?? null, pdi: n.dataset.pdi, kind: n.classList.contains('unknown') ? 'unknown' : n.classList.contains('gpu') ? 'gpu' : 'switch',
  failed: n.classList.contains('failed'),
})));

test('panel 2b: the real node passes, green, 12 devices and 32 links, nothing red', async () => {
  const { page, problems } = await open();
  assert.match(await page.textContent('#topology-about'), /8 GPUs and 4 switches.*nvtrust/);
  await check(page, '#topology-real');
  assert.equal(real.verdict, 'passed');
  const verdict = page.locator('#topology-verdict');
  assert.equal(await verdict.getAttribute('class'), 'summary good');
  assert.equal(await verdict.getAttribute('data-level'), 'passed');
  assert.equal(await verdict.getAttribute('role'), 'status');
  assert.match(await verdict.textContent(), /^topology passed 8 GPUs and 4 switches/);
  assert.match(await page.textContent('#topology-input'), /^as recorded Checked: the real node, as recorded — 8 GPU reports, 4 switch reports/);

  const shown = await devices(page);
  assert.equal(shown.length, 12);
  assert.deepEqual(shown.map((d) => d.label), [...real.gpus, ...real.switches].map((d) => d.label));
  assert.deepEqual(shown.map((d) => d.pdi), [...real.gpus, ...real.switches].map((d) => d.pdi));
  const drawn = await links(page);
  assert.equal(drawn.length, 32);
  // Every GPU to every switch, each reported by both ends.
  for (const gpu of real.gpus) {
    for (const sw of real.switches) {
      const line = drawn.find((l) => l.gpu === gpu.label && l.switch === sw.label);
      assert.ok(line, `${gpu.label} ↔ ${sw.label}`);
      assert.match(line.title, new RegExp(`reported by (${gpu.label} and ${sw.label}|${sw.label} and ${gpu.label})$`));
    }
  }
  assert.equal(await page.locator('#topology .failed').count(), 0);
  assert.equal(await page.locator('#topology [role=alert]:not([hidden])').count(), 0);

  // The rules table: every rule, in the core's order, with its status.
  const rows = await tableRows(page, '#topology-rules table');
  assert.deepEqual(rows.map((r) => [r[0], r[1]]), real.rules.map((r) => [r.rule, r.status]));
  assert.deepEqual(await failedRows(page, '#topology-rules table'), []);
  await panelShots(page, '#topology', 'topology-passed');
  // Phone: the view scrolls inside its box; the page is no wider than the screen.
  await page.setViewportSize(PHONE);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= PHONE.width);
  await page.setViewportSize(DESKTOP);
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 2b: without SWITCH-3 the node is red, an alert, with the 8 links to its PDI in red', async () => {
  const { page, problems } = await open();
  await check(page, '#topology-no-switch');
  const expected = report(sample.gpus.devices, sample.switches.devices.slice(0, 3));
  assert.deepEqual(expected.failedRules, ['switch-count', 'gpu-switch-present']);
  const verdict = page.locator('#topology-verdict');
  assert.equal(await verdict.getAttribute('class'), 'summary bad');
  assert.equal(await verdict.getAttribute('role'), 'alert');
  assert.equal(await verdict.getAttribute('data-level'), 'failed');
  const text = await verdict.textContent();
  assert.match(text, /^topology failed 2 rules failed: switch-count, gpu-switch-present\./);
  assert.deepEqual(await page.$$eval('#topology-verdict li[data-rule]', (items) => items.map((i) => i.dataset.rule)), expected.failedRules);
  for (const f of expected.rules.flatMap((r) => r.findings)) assert.ok(text.includes(f.message), f.message);
  assert.match(await page.textContent('#topology-input'), /^edited Checked: the real node without SWITCH-3 — 8 GPU reports, 3 switch reports/);

  // The missing switch's PDI: an unknown box, and every GPU's link to it red, with why.
  const missing = real.switches[3].pdi;
  const shown = await devices(page);
  assert.deepEqual(shown.filter((d) => d.kind === 'unknown'), [{ label: null, pdi: missing, kind: 'unknown', failed: true }]);
  assert.deepEqual(shown.filter((d) => d.kind !== 'unknown' && d.failed).map((d) => d.label), real.gpus.map((g) => g.label));
  const drawn = await links(page);
  assert.equal(drawn.length, 32);
  const red = drawn.filter((l) => l.failed);
  assert.deepEqual(red.map((l) => [l.gpu, l.switch, l.pdi]), real.gpus.map((g) => [g.label, null, missing]));
  // Each red line says why: the rule and the core's finding for its GPU.
  for (const line of red) {
    const finding = expected.rules.find((r) => r.rule === 'gpu-switch-present').findings.find((f) => f.gpu === line.gpu);
    assert.ok(line.title.endsWith(`\ngpu-switch-present: ${finding.message}`), line.title);
  }
  assert.equal(drawn.filter((l) => !l.failed && l.switch === 'SWITCH-3').length, 0);

  assert.deepEqual(await failedRows(page, '#topology-rules table'), expected.failedRules);
  await panelShots(page, '#topology', 'topology-no-switch');
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 2b: GPU-7 twice is red, naming gpu-unique, with the switches\' links to the GPU left out', async () => {
  const { page, problems } = await open();
  await check(page, '#topology-twice');
  const gpus = sample.gpus.devices;
  const expected = report([...gpus.slice(0, 6), gpus[7], gpus[7]], sample.switches.devices);
  assert.ok(expected.failedRules.includes('gpu-unique'));
  const verdict = page.locator('#topology-verdict');
  assert.equal(await verdict.getAttribute('class'), 'summary bad');
  assert.equal(await verdict.getAttribute('role'), 'alert');
  assert.match(await verdict.textContent(), new RegExp(`^topology failed ${expected.failedRules.length} rules failed: ${expected.failedRules.join(', ')}\\.`));
  assert.match(await verdict.textContent(), /gpu-unique/);
  assert.match(await page.textContent('#topology-input'), /^edited .*GPU-7 twice.*replaced by a second copy of GPU-7's/);
  const shown = await devices(page);
  assert.ok(shown.find((d) => d.label === 'GPU-7').failed);
  // GPU-6's PDI, which every switch lists and no GPU now has: a red unknown box, 4 red links.
  const left = real.gpus[6].pdi;
  assert.deepEqual(shown.filter((d) => d.kind === 'unknown').map((d) => d.pdi), [left]);
  const red = (await links(page)).filter((l) => l.failed);
  assert.deepEqual(red.map((l) => [l.gpu, l.switch, l.pdi]), real.switches.map((s) => [null, s.label, left]));
  assert.deepEqual(await failedRows(page, '#topology-rules table'), expected.failedRules);
  await panelShots(page, '#topology', 'topology-gpu-twice');

  // Back to the real node: nothing of the failure stays.
  await check(page, '#topology-real');
  assert.equal(await page.getAttribute('#topology-verdict', 'class'), 'summary good');
  assert.equal(await page.locator('#topology .failed').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});
