// Panel 1's trusted signers, in headless Chromium against the worker in workerd: a recorded
// NRAS result shows who signed it (the chain, the anchor it reached, the kid, why the
// signer's revocation was not asked) under the page's default pin; a key set whose x5c was
// tampered with, or that has none, is refused in red with its code; "Any signer" shows the
// signer as not pinned, amber and never green; our own service's development root is trusted
// only when the user chooses "Trust this service's root". A revocation the service's policy
// relaxed (EDGEATTEST_REVOCATION_POLICY) shows its warning in amber, never as a clean pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage } from './support/browser.mjs';
import { fixtureText } from './support/fixtures.mjs';
import { startWorker } from './support/worker.mjs';
import {
  ready, timeValue, DESKTOP, pageHooks, panelShots, nrasCapture as capture,
} from './support/page.mjs';
import {
  buildAttestRequest, importPrivateKey, createDetachedEat, createJwks, generateNonce,
} from '../../pkg/service/index.js';
import { signerOcspAnswer, signerPkiText } from './support/ocsp-responder.mjs';

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

async function open(origin = worker.origin) {
  const { page, problems } = await openPage(browser.context, `${origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  return { page, problems };
}


async function verifyResult(page, { result, jwks, nonce = '', at, signers }) {
  if (signers) await page.check(`#signers-${signers}`);
  await page.fill('#result-text', result);
  if (jwks !== undefined) await page.fill('#jwks-text', jwks);
  await page.fill('#result-nonce', nonce);
  if (at !== undefined) await page.fill('#result-time', timeValue(at));
  await page.click('#verify-result');
  await page.waitForSelector('#result-summary:not([hidden]), #result-error:not([hidden]), #result-signer:not([hidden])');
}

/** A CA certificate of another PKI, as base64 DER (an x5c member). */
const foreignCa = () => readFileSync(new URL('../fixtures/generated/token_signing_chain.pem', import.meta.url), 'utf8')
  .match(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)[1]
  .replace(/-----[A-Z ]+-----|\s/g, '');

const NRAS = 'v3_1gpu_success_20260629';
const INTERMEDIATE_SPKI = 'fd32837f954e2c45db073105166dfe6985ae0480bb113fba63b091a75affe896';

test('signer: a recorded NRAS result shows its signer — chain, anchor, kid — under the default pin', async () => {
  const { page, problems } = await open();
  assert.equal(await page.isChecked('#signers-nras'), true, 'the default pins NRAS');
  const c = capture(NRAS);
  await verifyResult(page, { result: c.responseText, jwks: c.jwksText, nonce: c.nonce, at: c.iat });
  assert.equal(await page.getAttribute('#result-summary', 'data-level'), 'passed');
  assert.equal(await page.getAttribute('#result-signer', 'data-state'), 'pinned');
  const signer = await page.textContent('#result-signer');
  assert.match(signer, /signer pinned/i);
  assert.ok(signer.includes(c.kid), 'the kid');
  assert.equal(await page.textContent('#result-signer code.anchor'), `spkiSha256:${INTERMEDIATE_SPKI}`);
  const chain = await page.$$eval('#result-signer tbody tr', (rows) => rows.map((r) => r.children[0].textContent.trim()));
  assert.deepEqual(chain, ['NVIDIA Attestation Service GPU GH100', 'NVIDIA Attestation Service GPU Intermediate 004']
    .map((cn) => chain.find((s) => s.includes(cn)) ?? cn));
  assert.equal(chain.length, 2);
  assert.equal(await page.locator('#result-signer .badge.fail').count(), 0);
  await panelShots(page, '#result-signer', 'signer-pinned');
  assert.deepEqual(problems, []);
  await page.close();
});

test('signer: NRAS\'s signer revocation is not checked, and the page says why', async () => {
  const { page } = await open();
  const c = capture(NRAS);
  await verifyResult(page, { result: c.responseText, jwks: c.jwksText, nonce: c.nonce, at: c.iat });
  // Nothing is asked about NRAS's signer chain: the core says why, and it is no failure.
  assert.equal(await page.getAttribute('#result-signer-revocation', 'data-status', { timeout: 2000 }), 'not-checked');
  assert.match(await page.textContent('#result-signer-revocation'), /signer revocation: not checked.*CA 001/is);
  await page.close();
});

/** A passing result signed by the signer PKI's `status` leaf, and its key set ([leaf, root]). */
async function signedBy(status) {
  const blocks = signerPkiText(`chain_${status}.pem`).match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  const key = await importPrivateKey(signerPkiText(`leaf_${status}_key.pem`), { backend: 'software' });
  const kid = `signer-${status}`;
  const jwks = createJwks([{ kid, key, x5c: blocks.map((b) => b.replace(/-----[A-Z ]+-----|\s/g, '')) }]);
  const nonce = generateNonce();
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: 'https://edgeattest.test', iat: now, nbf: now, exp: now + 600, eat_nonce: nonce };
  const chain = { 'x-nvidia-cert-status': 'valid', 'x-nvidia-cert-ocsp-status': 'good' };
  const result = await createDetachedEat({ ...claims, 'x-nvidia-overall-att-result': true },
    { 'GPU-0': { ...claims, measres: 'success', 'x-nvidia-gpu-attestation-report-cert-chain': chain } }, key, { kid });
  return { result: JSON.stringify(result), jwks: JSON.stringify(jwks), nonce };
}

test('signer: a signer whose certificate is revoked turns the signer box red, with its code and what to do', async () => {
  const { page, problems } = await open();
  // The responder the leaf's AIA names, answered by openssl (CORS allowed, as a browser needs).
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST' };
  const asked = [];
  await page.route('http://ocsp.signer.test/**', async (route) => {
    const request = route.request();
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    asked.push(request.url());
    const body = await signerOcspAnswer(request.postDataBuffer());
    return route.fulfill({ status: 200, headers: { ...cors, 'content-type': 'application/ocsp-response' }, body });
  });
  const { result, jwks, nonce } = await signedBy('revoked');
  await page.fill('#signers-text', signerPkiText('root.pem'));
  await verifyResult(page, { result, jwks, nonce });
  await page.waitForSelector('#result-signer-revocation', { timeout: 10_000 });
  assert.deepEqual(asked, ['http://ocsp.signer.test/']);
  assert.equal(await page.getAttribute('#result-signer-revocation', 'data-status'), 'revoked');
  assert.equal(await page.getAttribute('#result-signer', 'data-state'), 'revoked');
  assert.equal(await page.getAttribute('#result-signer', 'role'), 'alert');
  const text = await page.textContent('#result-signer');
  assert.match(text, /signer revocation: revoked.*ERR_SIGNER_REVOKED.*keyCompromise/s);
  assert.match(text, /Do not trust this result/);
  assert.equal(await page.locator('#result-signer .badge.pass').count(), 0, 'never green');
  // The summary says the result is not to be trusted, and keeps nothing green.
  assert.equal(await page.getAttribute('#result-summary', 'data-signer'), 'refused');
  assert.match(await page.textContent('#result-summary .signer-refused'), /signer refused.*ERR_SIGNER_REVOKED/s);
  assert.equal(await page.locator('#result-summary .badge.pass').count(), 0);
  await panelShots(page, '#result-signer', 'signer-revoked');
  assert.deepEqual(problems, []);
  await page.close();
});

test('signer: a key set whose x5c is tampered with, or missing, is refused in red with its code', async () => {
  const { page, problems } = await open();
  const c = capture(NRAS);
  const jwks = JSON.parse(c.jwksText);
  // The intermediate replaced by another PKI's CA: the chain reaches no pinned anchor.
  const foreign = { keys: jwks.keys.map((k) => ({ ...k, x5c: [k.x5c[0], foreignCa()] })) };
  await verifyResult(page, { result: c.responseText, jwks: JSON.stringify(foreign), nonce: c.nonce, at: c.iat });
  assert.equal(await page.getAttribute('#result-signer', 'data-state'), 'failed');
  // Refused before any token is trusted: no verdict of the result is shown as one.
  assert.ok(await page.isHidden('#result-summary') || await page.getAttribute('#result-summary', 'data-level') === 'forged');
  assert.match(await page.getAttribute('#result-signer', 'class'), /\bbad\b/);
  assert.match(await page.textContent('#result-signer'), /signer not trusted ERR_SIGNER_UNTRUSTED: \S/i);
  assert.match(await page.textContent('#result-signer'), /Trust this service's root/);
  await panelShots(page, '#result-signer', 'signer-untrusted');

  const bare = { keys: jwks.keys.map(({ x5c: _x5c, ...k }) => k) };
  await verifyResult(page, { result: c.responseText, jwks: JSON.stringify(bare), nonce: c.nonce, at: c.iat });
  assert.equal(await page.getAttribute('#result-signer', 'data-state'), 'failed');
  assert.match(await page.textContent('#result-signer'), /ERR_SIGNER_NO_X5C/);
  assert.equal(await page.locator('#result-output .badge.pass').count(), 0, 'nothing green');
  assert.deepEqual(problems, []);
  await page.close();
});

test('signer: "Any signer" shows the signer not pinned, amber, and nothing green', async () => {
  const { page, problems } = await open();
  const c = capture(NRAS);
  await verifyResult(page, { result: c.responseText, jwks: c.jwksText, nonce: c.nonce, at: c.iat, signers: 'any' });
  assert.equal(await page.getAttribute('#result-signer', 'data-state'), 'unpinned');
  assert.match(await page.getAttribute('#result-signer', 'class'), /\bwarn\b/);
  assert.match(await page.textContent('#result-signer'), /signer not pinned/i);
  assert.match(await page.textContent('#result-summary .authenticity'), /signer not pinned/i);
  assert.equal(await page.locator('#result-signer .badge.pass, #result-summary .authenticity .badge.pass, #result-tokens .badge.pass').count(), 0);
  // The opt-out is a visible control, amber too.
  assert.equal(await page.locator('label.unpinned #signers-any').count(), 1);
  await panelShots(page, '#result-signer', 'signer-unpinned');
  assert.deepEqual(problems, []);
  await page.close();
});

test('signer: our own service\'s development root is trusted only when the user chooses it', async () => {
  // The local service as start.sh starts it (its development chain as x5c), with the TEST PKI.
  const own = await startWorker({
    chain: true,
    bindings: {
      EDGEATTEST_TEST_PKI: 'on',
      EDGEATTEST_OCSP_URL: 'https://ocsp.ndis.nvidia.com/',
    },
  });
  try {
    const request = sampleRequest('testpki-hopper-550.90.07');
    const response = await fetch(`${own.origin}/v4/attest/gpu`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request),
    });
    assert.equal(response.status, 200);
    const result = await response.text();

    const { page, problems } = await open(own.origin);
    assert.equal(await page.inputValue('#jwks-url'), own.origin, 'the page knows the service it came from');
    await page.click('#fetch-jwks');
    await page.waitForFunction(() => document.getElementById('jwks-text').value.includes('x5c'));
    // The default pins NVIDIA's signer: our own service's result is refused, in red.
    await verifyResult(page, { result, nonce: request.nonce });
    assert.equal(await page.getAttribute('#result-signer', 'data-state'), 'failed');
    assert.match(await page.textContent('#result-signer'), /ERR_SIGNER_UNTRUSTED/);

    // The user's explicit choice: the root of the service's key set becomes the anchor.
    await page.click('#trust-service-root');
    await page.waitForFunction(() => document.getElementById('service-root-note').textContent.length > 0);
    assert.equal(await page.isChecked('#signers-anchors'), true);
    assert.match(await page.textContent('#service-root-note'), new RegExp(`Trusting the root of ${own.origin}'s key set, as you chose`));
    assert.match(await page.inputValue('#signers-text'), /^-----BEGIN CERTIFICATE-----/);
    await verifyResult(page, { result, nonce: request.nonce });
    assert.equal(await page.getAttribute('#result-signer', 'data-state'), 'pinned');
    assert.match(await page.textContent('#result-signer code.anchor'), /^certificate:.*edgeattest development root/);
    const chain = await page.$$eval('#result-signer tbody tr', (rows) => rows.map((r) => r.children[0].textContent.trim()));
    assert.equal(chain.length, 2);
    assert.match(chain[0], /edgeattest development token signing key/);
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await own.stop();
  }
});

test('signer: a service whose key set has no chain has no root to trust', async () => {
  const { page, problems } = await open();
  await page.route('http://nochain.test/**', (route) => route.fulfill({
    status: 200, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' },
    body: JSON.stringify({ keys: JSON.parse(fixtureText(`nras/teep/${NRAS}_jwks.json`)).keys.map(({ x5c: _x5c, ...k }) => k) }),
  }));
  await page.fill('#jwks-url', 'http://nochain.test');
  await page.click('#trust-service-root');
  await page.waitForSelector('#result-error:not([hidden])');
  assert.match(await page.textContent('#result-error'), /^ERR_SIGNER_NO_X5C .*carries no certificate chain/);
  assert.equal(await page.isChecked('#signers-nras'), true, 'the pin is unchanged');
  assert.equal(await page.inputValue('#signers-text'), '');
  assert.deepEqual(problems, []);
  await page.close();
});

/** The TEST PKI sample `id`'s request, as panel 3 builds it. */
function sampleRequest(id) {
  const { samples } = JSON.parse(readFileSync(new URL('../../www/samples/evidence.json', import.meta.url), 'utf8'));
  const sample = samples.find((s) => s.id === id);
  return sample.request ?? buildAttestRequest({
    endpoint: '/v4/attest/gpu', nonce: sample.nonce, arch: sample.arch,
    evidence: [{ evidence: Uint8Array.from(Buffer.from(sample.evidenceHex, 'hex')), certificate: sample.certificatePem }],
  });
}

test('relaxation: a device chain the service accepted under allowUnknown shows the policy\'s warning in amber', async () => {
  const own = await startWorker({
    chain: true,
    bindings: {
      EDGEATTEST_TEST_PKI: 'on',
      EDGEATTEST_OCSP_URL: 'https://ocsp.ndis.nvidia.com/',
      EDGEATTEST_REVOCATION_POLICY: JSON.stringify({ deviceChain: { allowUnknown: true } }),
    },
  });
  try {
    const request = sampleRequest('testpki-hopper-unknown');
    const response = await fetch(`${own.origin}/v4/attest/gpu`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request),
    });
    assert.equal(response.status, 200);
    const result = await response.text();
    const { page, problems } = await open(own.origin);
    await page.click('#fetch-jwks');
    await page.waitForFunction(() => document.getElementById('jwks-text').value.includes('x5c'));
    await page.click('#trust-service-root');
    await page.waitForFunction(() => document.getElementById('service-root-note').textContent.length > 0);
    await verifyResult(page, { result, nonce: request.nonce });
    assert.equal(await page.getAttribute('#result-signer', 'data-state'), 'pinned');
    const level = await page.getAttribute('#result-verdict', 'data-level');
    assert.notEqual(level, 'passed', 'a relaxed revocation is never a clean pass');
    const warnings = await page.$$eval('#result-verdict ul.warnings li', (li) => li.map((x) => x.textContent));
    assert.ok(warnings.some((w) => /accepted because the revocation policy sets allowUnknown/.test(w)), warnings.join(' | '));
    const colour = await page.$eval('#result-verdict ul.warnings li', (li) => getComputedStyle(li).color);
    const warn = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--warn)';
      document.body.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    assert.equal(colour, warn, 'amber');
    assert.equal(await page.locator('#result-verdict .badge.pass').count(), 0);
    await panelShots(page, '#result-summary', 'revocation-relaxed-policy');
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await own.stop();
  }
});
