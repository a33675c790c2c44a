// The page's architecture selects are the core's table (architectures()), and the request
// builder picks samples and an architecture by the row's device kind (issue 18).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './support/browser.mjs';
import { architectures } from '../../pkg/local/index.js';
import { ready, pageHooks } from './support/page.mjs';

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

const options = (page, selector) => page.$$eval(`${selector} option`, (list) => list.map((o) => o.value));
const enabledSamples = (page) => page.$$eval('#sample option:not([disabled])', (list) => list.map((o) => o.textContent));

test('the architecture selects list the table, and the device kind decides the samples', async () => {
  const rows = architectures();
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await ready(page);
  const names = rows.map((row) => row.name);
  assert.deepEqual(await options(page, '#arch'), names);
  assert.deepEqual(await options(page, '#ev-arch'), names);
  assert.equal(await page.inputValue('#arch'), names[0]);

  const first = (kind) => rows.find((row) => row.deviceKind === kind).name;
  await page.selectOption('#endpoint', '/v4/attest/switch');
  assert.equal(await page.inputValue('#arch'), first('switch'));
  const switchSamples = await enabledSamples(page);
  assert.ok(switchSamples.length > 0 && switchSamples.every((title) => /LS10|switch/i.test(title)), switchSamples.join('; '));

  await page.selectOption('#endpoint', '/v4/attest/gpu');
  assert.equal(await page.inputValue('#arch'), first('gpu'));
  const gpuSamples = await enabledSamples(page);
  assert.ok(gpuSamples.length > 0 && gpuSamples.every((title) => !/LS10/.test(title)), gpuSamples.join('; '));
  // A GPU architecture chosen by hand stays when the endpoint changes within GPUs.
  await page.selectOption('#arch', 'BLACKWELL');
  await page.selectOption('#endpoint', '/v3/attest/gpu');
  assert.equal(await page.inputValue('#arch'), 'BLACKWELL');
  assert.deepEqual(problems, []);
  await page.close();
});
