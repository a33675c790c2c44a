// Replay through the attestation service component (target/component/edgeattest-service.wasm,
// wasi:http): an attestation of the generated test PKI's devices, with live OCSP answers from
// `openssl ocsp` and RIMs from the loopback RIM service, answered by the component with
// `x-edgeattest-replay: bundle`, replays through the component's `POST /replay` (against its
// configured anchors) and through the package's replayAttestation in Node to the same claims;
// a byte changed in an OCSP answer replays in both to the same, explained difference; a
// bundle that does not read is 400 with its code. Rust: tests/it/service/replay*.rs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildAttestRequest, replayAttestation } from '../../pkg/service/index.js';
import { startServiceComponent } from './support/component-service.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';

const TEST_ANCHORS = { trustAnchors: pkiText('root.pem'), rimTrustAnchors: pkiText('rim_root.pem') };
const VOLATILE = ['jti', 'iat', 'nbf', 'exp', 'submods'];
let responder;
let rims;
let component;
before(async () => {
  responder = await startOcspResponder();
  rims = await startRimService();
  component = await startServiceComponent({
    EDGEATTEST_CRYPTO: 'software',
    EDGEATTEST_BUNDLED_RIMS: 'off',
    EDGEATTEST_OCSP_URL: responder.url,
    EDGEATTEST_RIM_SERVICE_URL: rims.url,
    EDGEATTEST_TRUST_ANCHORS: TEST_ANCHORS.trustAnchors,
    EDGEATTEST_RIM_TRUST_ANCHORS: TEST_ANCHORS.rimTrustAnchors,
  });
});
after(async () => {
  await component?.stop();
  await responder?.close();
  await rims?.close();
});

async function bundleOf(stem) {
  const device = await testDevice(stem);
  const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
  const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' });
  const response = await fetch(`${component.origin}/v4/attest/gpu`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-edgeattest-replay': 'bundle' }, body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/vnd.edgeattest.replay+json');
  return response.text();
}

async function viaComponent(bundle) {
  const response = await fetch(`${component.origin}/replay`, { method: 'POST', body: bundle });
  return { status: response.status, body: await response.json() };
}

const stripped = (verdict) => verdict.tokens.map((t) => [t.label, Object.fromEntries(Object.entries(t.claims).filter(([n]) => !VOLATILE.includes(n)))]);

test('recorded and replayed by the component, replayed in Node too: the same claims, good and revoked', async () => {
  for (const [stem, passes] of [['good', true], ['revoked', false]]) {
    const bundle = await bundleOf(stem);
    assert.ok(JSON.parse(bundle).fetches.some((f) => f.value.resource.kind === 'ocsp' && f.value.answer.kind === 'body'), stem);
    const { status, body: replayed } = await viaComponent(bundle);
    assert.equal(status, 200);
    assert.deepEqual(replayed.differences, [], stem);
    assert.equal(replayed.matches, true);
    const node = replayAttestation(bundle, TEST_ANCHORS);
    assert.equal(node.matches, true, JSON.stringify(node.differences));
    assert.deepEqual(stripped(replayed.replayed), stripped(node.replayed));
    assert.deepEqual(stripped(replayed.recorded), stripped(replayed.replayed));
    assert.equal(replayed.replayed.tokens[0].claims['x-nvidia-overall-att-result'], passes, stem);
  }
});

test('a byte changed in an OCSP answer: the same explained difference in the component and in Node', async () => {
  const bundle = JSON.parse(await bundleOf('good'));
  // The component's cache answers this second attestation's OCSP queries (`cached`).
  const at = bundle.fetches.findIndex((f) => f.value.resource.kind === 'ocsp' && f.value.answer.body !== undefined);
  const bytes = Buffer.from(bundle.fetches[at].value.answer.body, 'base64');
  bytes[bytes.length >> 1] ^= 1;
  bundle.fetches[at].value.answer.body = bytes.toString('base64');
  const text = JSON.stringify(bundle);
  const { body: replayed } = await viaComponent(text);
  const node = replayAttestation(text, TEST_ANCHORS);
  assert.equal(replayed.matches, false);
  assert.deepEqual(replayed.differences, node.differences);
  assert.deepEqual(replayed.differences[0], { kind: 'inputDigest', input: `fetches[${at}]`, recorded: bundle.fetches[at].digest, computed: replayed.differences[0].computed });
  assert.equal(replayed.replayed.tokens[0].claims['x-nvidia-overall-att-result'], false);
});

test('a bundle that does not read is 400 with its code; only POST', async () => {
  for (const [bundle, code] of [['{', 'ERR_REPLAY_BUNDLE_SHAPE'], ['{"format": 1}', 'ERR_REPLAY_BUNDLE_SHAPE']]) {
    const { status, body } = await viaComponent(bundle);
    assert.equal(status, 400);
    assert.equal(body.code, code);
  }
  const get = await fetch(`${component.origin}/replay`);
  assert.equal(get.status, 405);
});
