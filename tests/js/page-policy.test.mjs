// The policy section of panel 1, in headless Chromium against the worker in workerd: NVIDIA's
// bundled policies are offered; applied to the recorded real 8-GPU NRAS result, the matching
// one is met (green, every rule with its value) and the 4.0 one is not (red first, the failed
// rules named, no green verdict); a malformed policy shows its code; a new verification
// clears the decision. Also: the bundled samples are nvtrust's files, unchanged. The EAR of a
// request panel 3 sent, in each form offered (JWT in Veraison's profile or -04's, a -04 CWT),
// shows the encoding and profile read, and a contraindicated one is red in every form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, ARTIFACTS } from './support/browser.mjs';
import { fixtureText } from './support/fixtures.mjs';
import { ready, tableRows, timeValue, DESKTOP, pageHooks, trustServiceRoot } from './support/page.mjs';

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

const samples = JSON.parse(readFileSync(new URL('../../www/samples/policies.json', import.meta.url), 'utf8'));
const regoSamples = JSON.parse(readFileSync(new URL('../../www/samples/policies-rego.json', import.meta.url), 'utf8'));

test('the bundled policies are nvtrust\'s files, unchanged', () => {
  assert.equal(samples.policies.length, 13);
  for (const sample of samples.policies) {
    const file = readFileSync(new URL(`../../${sample.file}`, import.meta.url), 'utf8');
    assert.equal(sample.policy, file, sample.id);
  }
});

async function verified(page) {
  const name = 'nras/teep/v3_8gpu_success_20260629';
  const result = fixtureText(`${name}_response.json`);
  const overall = JSON.parse(Buffer.from(JSON.parse(result)[0][1].split('.')[1], 'base64url'));
  await page.fill('#result-text', result);
  await page.fill('#jwks-text', fixtureText(`${name}_jwks.json`));
  await page.fill('#result-nonce', JSON.parse(fixtureText(`${name}_request.json`)).nonce);
  await page.fill('#result-time', timeValue(overall.iat));
  await page.click('#verify-result');
  await page.waitForSelector('#result-summary:not([hidden])');
}

async function apply(page, id) {
  await page.selectOption('#policy-sample', id);
  await page.click('#apply-policy');
  await page.waitForSelector('#policy-verdict, #policy-error:not([hidden])');
}

test('page policy: met is green with every rule; not met is red first with the failed rules', async () => {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  assert.equal(await page.isDisabled('#apply-policy'), true);
  await page.waitForSelector('#policy-sample option[value^="rego:"]', { state: 'attached' });
  const offered = await page.$$eval('#policy-sample option', (o) => o.map((x) => x.value).filter(Boolean));
  assert.deepEqual(offered, [...samples.policies.map((p) => p.id), ...regoSamples.policies.map((p) => `rego:${p.id}`)]);
  await verified(page);
  assert.equal(await page.isDisabled('#apply-policy'), false);

  await apply(page, 'remote_v3_NVGPURemotePolicyExample');
  assert.match(await page.textContent('#policy-verdict'), /^policy met Every rule of this version 3\.0 policy holds/);
  assert.equal(await page.locator('#policy-output .badge.fail').count(), 0);
  const tables = await page.locator('#policy-output table').count();
  assert.equal(tables, 9); // the overall token and 8 GPUs
  const overall = await tableRows(page, '#policy-output table:nth-of-type(1)');
  assert.deepEqual(overall[0], ['/x-nvidia-overall-att-result', 'true', 'true', 'pass']);
  await page.locator('#policy-output').screenshot({ path: join(ARTIFACTS, 'page-policy-met.png') });

  await apply(page, 'remote_v4_NVGPURemotePolicyExample');
  const verdict = await page.textContent('#policy-verdict');
  assert.match(verdict, /^policy NOT met \d+ rules failed \(devices: GPU-0, GPU-1, GPU-2, GPU-3, GPU-4, GPU-5, GPU-6, GPU-7\)\. By this policy, do not rely on these devices\./);
  assert.equal(await page.getAttribute('#policy-output > div', 'class'), 'summary bad');
  assert.equal(await page.locator('#policy-verdict .badge.pass').count(), 0);
  const first = await tableRows(page, '#policy-output table:nth-of-type(1)');
  assert.deepEqual(first.find((r) => r[0] === '/x-nvidia-ver'), ['/x-nvidia-ver', '3.0', '2.0', 'fail: differs']);
  const gpu = await tableRows(page, '#policy-output table:nth-of-type(2)');
  assert.deepEqual(gpu.find((r) => r[0] === '/x-nvidia-gpu-attestation-report-cert-chain-fwid-match'),
    ['/x-nvidia-gpu-attestation-report-cert-chain-fwid-match', 'true', 'absent', 'fail: missing']);
  await page.locator('#policy-output').screenshot({ path: join(ARTIFACTS, 'page-policy-not-met.png') });

  // The same policies in Rego (the Rego module loads on first use): the same verdicts, and
  // the failed rules as the JSON evaluation names them.
  await apply(page, 'rego:remote_v3_NVGPURemotePolicyExample');
  assert.match(await page.textContent('#policy-verdict'), /^policy met Every rule of this Rego policy holds/);
  assert.equal(await page.locator('#policy-output .badge.fail').count(), 0);
  await apply(page, 'rego:remote_v4_NVGPURemotePolicyExample');
  assert.equal(await page.textContent('#policy-verdict'), verdict);
  const regoFirst = await tableRows(page, '#policy-output table:nth-of-type(1)');
  assert.deepEqual(regoFirst.find((r) => r[0] === '/x-nvidia-ver'), ['/x-nvidia-ver', '3.0', '2.0', 'fail: differs']);
  const regoGpu = await tableRows(page, '#policy-output table:nth-of-type(2)');
  assert.deepEqual(regoGpu.find((r) => r[0] === '/x-nvidia-gpu-attestation-report-cert-chain-fwid-match'),
    ['/x-nvidia-gpu-attestation-report-cert-chain-fwid-match', 'true', 'absent', 'fail: missing']);
  await page.fill('#policy-text', 'package policy\n\nnv_match := x if { x := [y | some y in numbers.range(1, 100000000)] }');
  await page.click('#apply-policy');
  await page.waitForSelector('#policy-error:not([hidden])');
  assert.match(await page.textContent('#policy-error'), /^ERR_REGO_BUILTIN /);
  assert.equal(await page.locator('#policy-verdict').count(), 0);

  await page.fill('#policy-text', '{"version": "7.0", "authorization-rules": {}}');
  await page.click('#apply-policy');
  await page.waitForSelector('#policy-error:not([hidden])');
  assert.match(await page.textContent('#policy-error'), /^ERR_POLICY_UNKNOWN_VERSION unknown policy version "7\.0"/);
  assert.equal(await page.locator('#policy-verdict').count(), 0);

  // Another verification clears the decision: it belonged to the earlier result.
  await apply(page, 'remote_v3_NVGPURemotePolicyExample');
  await page.fill('#result-text', '{');
  await page.click('#verify-result');
  await page.waitForSelector('#result-error:not([hidden])');
  assert.equal(await page.locator('#policy-verdict').count(), 0);
  assert.equal(await page.isDisabled('#apply-policy'), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('page EAR: the service\'s EAR of the result sent is fetched, verified and shown; a negative status is red', async () => {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  assert.equal(await page.isDisabled('#get-ear'), true);
  // A result pasted in panel 1 did not come from panel 3's request: no EAR for it.
  await verified(page);
  await page.click('#get-ear');
  await page.waitForSelector('#policy-error:not([hidden])');
  assert.match(await page.textContent('#policy-error'), /^ERR_INVALID_ARGUMENT The result shown did not come from a request panel 3 sent/);
  assert.equal(await page.locator('#ear-verdict').count(), 0);

  // NVIDIA's Hopper 545.00 sample, sent by panel 3: its RIM signer has expired, so the service
  // fails the GPU.
  const samples = JSON.parse(readFileSync(new URL('../../www/samples/evidence.json', import.meta.url), 'utf8')).samples;
  await page.selectOption('#sample', String(samples.findIndex((sample) => sample.id === 'hopper-545.00')));
  await page.click('#add-sample');
  await page.click('#build-request');
  await trustServiceRoot(page); // the worker's development root, by the user's choice
  await page.click('#send-request');
  await page.waitForFunction(() => /FAILED/.test(document.getElementById('send-status').textContent));
  await page.click('#get-ear');
  await page.waitForSelector('#ear-verdict, #policy-error:not([hidden])');
  assert.equal(await page.isHidden('#policy-error'), true, await page.textContent('#policy-error'));
  assert.match(await page.textContent('#ear-verdict'), /^EAR: contraindicated NOT affirming: GPU-0 contraindicated\. Do not rely on these devices\./);
  assert.equal(await page.getAttribute('#ear-output > div', 'class'), 'summary bad');
  assert.equal(await page.locator('#ear-output .badge.pass').count(), 0);
  const rows = await tableRows(page, '#ear-output table');
  // The core's rows: the device chain is genuine (hardware 2); revocation is unchecked in
  // the test worker (identity 32); the expired RIM signer leaves the measurements
  // uncompared (measres "fail"): executables 33, unrecognised.
  assert.deepEqual(rows[0].slice(0, 5), ['GPU-0', 'contraindicated', '32', '2', '33']);
  const link = page.locator('#ear-download');
  assert.match(await link.getAttribute('href'), /^blob:/);
  assert.match(await link.getAttribute('download'), /^ear-[0-9a-f]{16}\.jwt$/);
  assert.equal(await page.textContent('#ear-encoding'), 'JWT');
  assert.equal(await page.textContent('#ear-profile'), 'tag:github.com,2023:veraison/ear');
  await page.locator('#ear-output').screenshot({ path: join(ARTIFACTS, 'page-policy-ear.png') });

  // The same request's EAR in draft -04's forms: a JWT with its names, and a binary CWT read
  // as bytes. Each shows what was read, and the negative verdict stays red.
  for (const [form, encoding, extension] of [['jwt-04', 'JWT', 'jwt'], ['cwt-04', 'CWT', 'cwt']]) {
    await page.selectOption('#ear-form', form);
    assert.equal(await page.locator('#ear-verdict').count(), 0, 'another form clears the EAR shown');
    await page.click('#get-ear');
    await page.waitForSelector('#ear-verdict, #policy-error:not([hidden])');
    assert.equal(await page.isHidden('#policy-error'), true, await page.textContent('#policy-error'));
    assert.equal(await page.textContent('#ear-encoding'), encoding, form);
    assert.equal(await page.textContent('#ear-profile'), 'tag:ietf.org,2026:rats/ear#04');
    assert.match(await page.textContent('#ear-form-shown'), /\(dialect ietf-04\)/);
    assert.match(await page.textContent('#ear-verdict'), /^EAR: contraindicated NOT affirming: GPU-0 contraindicated\. Do not rely on these devices\./, form);
    assert.equal(await page.getAttribute('#ear-output > div', 'class'), 'summary bad');
    assert.equal(await page.locator('#ear-output .badge.pass').count(), 0);
    assert.deepEqual((await tableRows(page, '#ear-output table'))[0].slice(0, 5), ['GPU-0', 'contraindicated', '32', '2', '33']);
    assert.match(await page.getAttribute('#ear-download', 'download'), new RegExp(`^ear-[0-9a-f]{16}\\.${extension}$`));
    assert.match(await page.textContent('#ear-download'), encoding === 'CWT' ? /signed CWT/ : /signed JWT/);
  }
  await page.locator('#ear-output').screenshot({ path: join(ARTIFACTS, 'page-policy-ear-cwt.png') });
  // Another verification clears it.
  await page.fill('#result-text', '{');
  await page.click('#verify-result');
  await page.waitForSelector('#result-error:not([hidden])');
  assert.equal(await page.locator('#ear-verdict').count(), 0);
  assert.equal(await page.isDisabled('#get-ear'), true);
  assert.deepEqual(problems, []);
  await page.close();
});
