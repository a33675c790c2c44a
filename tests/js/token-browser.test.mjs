// The token API in headless Chromium: Chromium's WebCrypto (BoringSSL) and the wasm software
// backend on every Wycheproof ECDSA P-384 vector, the recorded service results, and tokens
// minted in the browser verified by panva/jose there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { launchBrowser, openPage } from './support/browser.mjs';

const repo = new URL('../../', import.meta.url);
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
const ROOTS = {
  '/pkg/': new URL('pkg/', repo),
  '/jose/': new URL('node_modules/jose/dist/webapi/', repo),
  '/fixtures/': new URL('tests/fixtures/', repo),
};
const PAGE = `<!doctype html><meta charset="utf-8"><title>token</title>
<script type="importmap">{"imports":{"jose":"/jose/index.js"}}</script>
<script type="module">
  import * as jose from 'jose';
  import * as lib from '/pkg/index.js';
  window.jose = jose;
  window.lib = lib;
  window.ready = true;
</script>`;

let server;
let browser;
let page;
let problems;

before(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (path === '/favicon.ico') return res.writeHead(204).end();
    const prefix = Object.keys(ROOTS).find((p) => path.startsWith(p));
    try {
      if (!prefix || path.includes('..')) throw new Error('not found');
      const body = readFileSync(new URL(path.slice(prefix.length), ROOTS[prefix]));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser.context, `http://127.0.0.1:${server.address().port}/`));
  await page.waitForFunction(() => window.ready === true, null, { timeout: 30_000 });
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('Chromium WebCrypto is the default backend', async () => {
  assert.equal(await page.evaluate(() => window.lib.getTokenBackend()), 'webcrypto');
});

test('Wycheproof P1363 and DER: Chromium WebCrypto and the software backend agree with every vector', async () => {
  const outcome = await page.evaluate(async () => {
    const hex = (text) => Uint8Array.from(text.match(/../g) ?? [], (b) => parseInt(b, 16));
    const load = async (name) => (await fetch(`/fixtures/vectors/wycheproof/${name}`)).json();
    const out = {};
    for (const [name, file] of [['p1363', 'ecdsa_secp384r1_sha384_p1363_test.json'], ['der', 'ecdsa_secp384r1_sha384_test.json']]) {
      const data = await load(file);
      const checks = [];
      const expected = [];
      for (const group of data.testGroups) {
        for (const t of group.tests) {
          checks.push({ publicKey: hex(group.publicKey.uncompressed), message: hex(t.msg), signature: hex(t.sig) });
          // A DER signature is never a valid ES384 signature.
          expected.push(name === 'p1363' && t.result === 'valid');
        }
      }
      const webcrypto = await window.lib.verifyChecksWebCrypto(checks);
      const software = window.lib.verifyChecksSoftware(checks);
      out[name] = {
        count: checks.length,
        webcryptoDisagree: expected.filter((v, i) => v !== webcrypto[i]).length,
        softwareDisagree: expected.filter((v, i) => v !== software[i]).length,
        valid: expected.filter(Boolean).length,
      };
    }
    return out;
  });
  assert.deepEqual(outcome, {
    p1363: { count: 280, webcryptoDisagree: 0, softwareDisagree: 0, valid: 193 },
    der: { count: 504, webcryptoDisagree: 0, softwareDisagree: 0, valid: 0 },
  });
});

test('recorded service results verify in Chromium on both backends and expire an hour later', async () => {
  const outcome = await page.evaluate(async () => {
    const base = '/fixtures/nvidia/nras/teep/';
    const out = [];
    for (const name of ['v3_1gpu_success_20260629', 'v3_8gpu_success_20260629', 'v3_8gpu_nonce_mismatch_20260520']) {
      const [response, jwks, request] = await Promise.all(
        ['response', 'jwks', 'request'].map(async (part) => (await fetch(`${base}${name}_${part}.json`)).json()),
      );
      const iat = JSON.parse(atob(response[0][1].split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).iat;
      for (const backend of ['webcrypto', 'software']) {
        // The failed capture is refused by default (verdict.test.mjs); read it here.
        const options = { backend, nonce: request.nonce, issuer: 'https://nras.attestation.nvidia.com', allowFailedResult: true };
        const verified = await window.lib.verifyAttestationResult(response, jwks, { ...options, now: iat });
        const late = await window.lib
          .verifyAttestationResult(response, jwks, { ...options, now: iat + 3600 })
          .then(() => 'accepted', (error) => `${error.code}:${error.field}`);
        out.push([name, backend, verified.devices.length, verified.overallResult, late]);
      }
    }
    return out;
  });
  assert.deepEqual(outcome, [
    ['v3_1gpu_success_20260629', 'webcrypto', 1, true, 'ERR_JWT_EXPIRED:exp'],
    ['v3_1gpu_success_20260629', 'software', 1, true, 'ERR_JWT_EXPIRED:exp'],
    ['v3_8gpu_success_20260629', 'webcrypto', 8, true, 'ERR_JWT_EXPIRED:exp'],
    ['v3_8gpu_success_20260629', 'software', 8, true, 'ERR_JWT_EXPIRED:exp'],
    ['v3_8gpu_nonce_mismatch_20260520', 'webcrypto', 8, false, 'ERR_JWT_EXPIRED:exp'],
    ['v3_8gpu_nonce_mismatch_20260520', 'software', 8, false, 'ERR_JWT_EXPIRED:exp'],
  ]);
});

test('tokens minted in Chromium with a non-extractable CryptoKey verify with jose and with us', async () => {
  const outcome = await page.evaluate(async () => {
    const { lib, jose } = window;
    const now = 1_800_000_000;
    const { privateKey, publicJwk } = await lib.generateKeyPair({ kid: 'browser' });
    const jwks = lib.createJwks([{ kid: 'browser', key: publicJwk }]);
    const result = await lib.createDetachedEat(
      { iss: 'https://nras.example', iat: now, exp: now + 60, eat_nonce: 'n'.repeat(16) },
      { 'GPU-0': { iat: now, exp: now + 60 }, 'GPU-1': { iat: now, exp: now + 60 } },
      privateKey,
      { kid: 'browser' },
    );
    const set = jose.createLocalJWKSet(jwks);
    const currentDate = new Date(now * 1000);
    const joseOverall = await jose.jwtVerify(result[0][1], set, { algorithms: ['ES384'], currentDate });
    const joseDevices = await Promise.all(Object.values(result[1]).map((t) => jose.jwtVerify(t, set, { currentDate })));
    const ours = await lib.verifyAttestationResult(result, jwks, { now, nonce: 'n'.repeat(16), backend: 'software', allowFailedResult: true, signers: 'any' });
    const joseToken = await new jose.SignJWT({ a: 1 })
      .setProtectedHeader({ alg: 'ES384', kid: 'browser2' })
      .sign((await jose.generateKeyPair('ES384')).privateKey)
      .catch((e) => String(e));
    return {
      extractable: privateKey.extractable,
      joseSubmods: Object.keys(joseOverall.payload.submods),
      joseDevices: joseDevices.length,
      oursDevices: ours.devices.map((d) => d.label),
      joseTokenSegments: joseToken.split('.').length,
    };
  });
  assert.deepEqual(outcome, {
    extractable: false,
    joseSubmods: ['GPU-0', 'GPU-1'],
    joseDevices: 2,
    oursDevices: ['GPU-0', 'GPU-1'],
    joseTokenSegments: 3,
  });
  assert.deepEqual(problems, []);
});
