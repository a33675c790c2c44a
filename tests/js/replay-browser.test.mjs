// replayAttestation in headless Chromium (edgeattest/service's browser entry): the bundles
// Node records through handleRequest — the generated test PKI's good and revoked GPUs with
// live OCSP answers from `openssl ocsp` and a fetched RIM, NVIDIA's real LS10 switch with its
// RIM held, and one of them with a byte changed — replay in the browser to what they replay
// to in Node: the same verdicts, the same claims (but jti, iat, nbf, exp and the submods
// digests), the same differences.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import {
  AttestationService, buildAttestRequest, createFetchCache, handleRequest, replayAttestation,
} from '../../pkg/service/index.js';
import { launchBrowser, openPage } from './support/browser.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';
import { fixtureText, ls10 } from './support/fixtures.mjs';

const VOLATILE = ['jti', 'iat', 'nbf', 'exp', 'submods'];
const TEST_ANCHORS = { trustAnchors: pkiText('root.pem'), rimTrustAnchors: pkiText('rim_root.pem') };
const PKG = new URL('../../pkg/', import.meta.url);
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
const PAGE = `<!doctype html><meta charset="utf-8"><title>replay</title>
<script type="module">
  import * as lib from '/pkg/service/browser.js';
  await lib.init();
  window.lib = lib;
  window.ready = true;
</script>`;

let server;
let browser;
let page;
let problems;
/** name → [bundle text, anchors] */
const bundles = {};

/** A bundle recorded through handleRequest. */
async function record(options, rim, request, handleOptions) {
  const service = new AttestationService(options);
  try {
    if (rim) service.addRim(rim.name, rim.xml);
    const asked = { ...request, headers: { ...request.headers, 'x-edgeattest-replay': 'bundle' } };
    const answer = await handleRequest(service, asked, handleOptions);
    assert.equal(answer.status, 200);
    return Buffer.from(answer.body).toString();
  } finally {
    service.free();
  }
}

before(async () => {
  const responder = await startOcspResponder();
  const rims = await startRimService();
  try {
    for (const stem of ['good', 'revoked']) {
      const device = await testDevice(stem);
      const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
      const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' });
      bundles[stem] = [await record(
        { signingKey: pkiText('leaf_good_key.pem'), issuer: 'https://attest.example', ...TEST_ANCHORS, ocspUrl: responder.url, rimServiceUrl: rims.url },
        undefined,
        { method: 'POST', path: '/v4/attest/gpu', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        { backend: 'webcrypto', cache: createFetchCache() },
      ), TEST_ANCHORS];
    }
  } finally {
    await responder.close();
    await rims.close();
  }
  const id = 'NV_SWITCH_BIOS_5612_0002_890_9610550001';
  const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
  const body = buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, evidence: [ls10], claimsVersion: '3.0' });
  bundles.ls10 = [await record(
    { signingKey: pkiText('leaf_good_key.pem'), issuer: 'https://attest.example' },
    { name: `${id}.xml`, xml: fixtureText(`rims/nvat/switchVBIOSRim_${id}.xml`) },
    { method: 'POST', path: '/v4/attest/switch', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    { backend: 'software', fetch: false, now: 1_780_272_000 },
  ), undefined];
  // One byte of an OCSP answer changed.
  const altered = JSON.parse(bundles.good[0]);
  const answer = altered.fetches.find((f) => f.value.answer.kind === 'body' && f.value.resource.kind === 'ocsp').value.answer;
  const bytes = Buffer.from(answer.body, 'base64');
  bytes[bytes.length >> 1] ^= 1;
  answer.body = bytes.toString('base64');
  bundles.altered = [JSON.stringify(altered), TEST_ANCHORS];

  server = createServer((req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (path === '/favicon.ico') return res.writeHead(204).end();
    try {
      if (!path.startsWith('/pkg/') || path.includes('..')) throw new Error('not found');
      const file = readFileSync(new URL(path.slice('/pkg/'.length), PKG));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(file);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser.context, `http://127.0.0.1:${server.address().port}/`));
  await page.waitForFunction(() => window.ready === true, null, { timeout: 60_000 });
});
after(async () => {
  await browser?.close();
  server?.close();
});

/** A replay as data to compare: verdicts, differences, and the claims that must not vary. */
function comparable(replayed) {
  const steady = (tokens) => tokens.map(({ label, claims }) => ({
    label, claims: Object.fromEntries(Object.entries(claims).filter(([name]) => !VOLATILE.includes(name))),
  }));
  return {
    matches: replayed.matches,
    differences: replayed.differences,
    recorded: steady(replayed.recorded.tokens),
    replayed: steady(replayed.replayed.tokens),
  };
}

for (const [name, matches] of [['good', true], ['revoked', true], ['ls10', true], ['altered', false]]) {
  test(`Chromium replays the ${name} bundle as Node does`, async () => {
    const [text, anchors] = bundles[name];
    const inNode = comparable(replayAttestation(text, anchors));
    const inBrowser = await page.evaluate(([bundle, options]) => {
      const replayed = window.lib.replayAttestation(bundle, options);
      return JSON.parse(JSON.stringify(replayed));
    }, [text, anchors]);
    assert.deepEqual(comparable(inBrowser), inNode);
    assert.equal(inNode.matches, matches, JSON.stringify(inNode.differences));
    if (matches) assert.deepEqual(inNode.replayed, inNode.recorded);
    else assert.ok(inNode.differences.some((d) => d.kind === 'inputDigest'), JSON.stringify(inNode.differences));
    assert.deepEqual(problems, []);
  });
}
