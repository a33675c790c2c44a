// The `edgeattest:verifier` component's `replay` interface against the package's
// replayAttestation: bundles recorded through handleRequest (the generated test PKI with live
// OCSP answers and a fetched RIM; NVIDIA's LS10 switch with its RIM held) replay through the
// component to the same verdicts, claims and differences as in Node, altered ones too; a
// bundle that does not read is the same coded error. Rust: tests/it/service/replay*.rs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  AttestationService, buildAttestRequest, createFetchCache, handleRequest, replayAttestation,
} from '../../pkg/service/index.js';
import { caught, loadComponent, replayedFromWit, utf8 } from './support/component.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';
import { fixtureText, ls10 } from './support/fixtures.mjs';

const TEST_ANCHORS = { deviceRoots: pkiText('root.pem'), rimRoots: pkiText('rim_root.pem') };
let wit;
let responder;
let rims;
before(async () => {
  wit = await loadComponent();
  responder = await startOcspResponder();
  rims = await startRimService();
});
after(async () => {
  await responder?.close();
  await rims?.close();
});

async function bundleOf(options, request, handleOptions) {
  const service = new AttestationService(options);
  try {
    if (options.rim) service.addRim(options.rim.name, options.rim.xml);
    const response = await handleRequest(service, { ...request, headers: { ...request.headers, 'x-edgeattest-replay': 'bundle' } }, handleOptions);
    return Buffer.from(response.body).toString('utf8');
  } finally {
    service.free();
  }
}

const viaComponent = (bundle, anchors = {}) => replayedFromWit(wit.replay.replayAttestation(utf8(bundle), anchors, randomBytes(48)));

/** Both replays agree; the volatile claims aside (each replay mints its own tokens). */
function agree(bundle, anchors) {
  const js = replayAttestation(bundle, anchors);
  const component = viaComponent(bundle, anchors);
  assert.equal(component.matches, js.matches);
  assert.deepEqual(component.differences, js.differences);
  assert.deepEqual(component.recorded, js.recorded);
  const strip = (v) => v.tokens.map((t) => Object.fromEntries(Object.entries(t.claims).filter(([n]) => !['jti', 'submods'].includes(n))));
  assert.deepEqual(strip(component.replayed), strip(js.replayed));
  return component;
}

test('the generated PKI and NVIDIA\'s LS10: the component replays to the recorded claims, as Node does', async () => {
  const device = await testDevice('good');
  const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
  const gpu = await bundleOf({
    signingKey: pkiText('leaf_good_key.pem'), issuer: 'https://attest.example',
    trustAnchors: pkiText('root.pem'), rimTrustAnchors: pkiText('rim_root.pem'),
    ocspUrl: responder.url, rimServiceUrl: rims.url,
  }, {
    method: 'POST', path: '/v4/attest/gpu', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' })),
  }, { backend: 'webcrypto', cache: createFetchCache() });
  const replayed = agree(gpu, TEST_ANCHORS);
  assert.equal(replayed.matches, true, JSON.stringify(replayed.differences));
  assert.equal(replayed.replayed.tokens[0].claims['x-nvidia-overall-att-result'], true);

  const id = 'NV_SWITCH_BIOS_5612_0002_890_9610550001';
  const switchNonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
  const sw = await bundleOf({
    signingKey: pkiText('leaf_good_key.pem'), issuer: 'https://attest.example',
    rim: { name: `${id}.xml`, xml: fixtureText(`rims/nvat/switchVBIOSRim_${id}.xml`) },
  }, {
    method: 'POST', path: '/v4/attest/switch', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce: switchNonce, evidence: [ls10], claimsVersion: '3.0' })),
  }, { backend: 'software', fetch: false, now: 1_780_272_000 });
  assert.equal(agree(sw, {}).matches, true);

  // Altered: a byte of an OCSP answer. Both name the input and the claims that differ.
  const altered = JSON.parse(gpu);
  const at = altered.fetches.findIndex((f) => f.value.resource.kind === 'ocsp' && f.value.answer.body);
  const bytes = Buffer.from(altered.fetches[at].value.answer.body, 'base64');
  bytes[bytes.length >> 1] ^= 1;
  altered.fetches[at].value.answer.body = bytes.toString('base64');
  const different = agree(JSON.stringify(altered), TEST_ANCHORS);
  assert.equal(different.matches, false);
  assert.deepEqual(different.differences[0], { kind: 'inputDigest', input: `fetches[${at}]`, recorded: JSON.parse(gpu).fetches[at].digest, computed: different.differences[0].computed });
  const raw = wit.replay.replayAttestation(utf8(JSON.stringify(altered)), TEST_ANCHORS, randomBytes(48));
  assert.equal(raw.differences[0].kind, 'input-digest');
  assert.equal(raw.differences[0].message, `input fetches[${at}] does not match its recorded digest`);
});

test('a bundle that does not read, or too little randomness, is the same coded error', () => {
  for (const bundle of ['{', '{"format": "edgeattest-replay/2"}']) {
    const { err } = caught(() => wit.replay.replayAttestation(utf8(bundle), {}, randomBytes(48)));
    assert.equal(err.code, 'ERR_REPLAY_BUNDLE_SHAPE', bundle);
  }
  const { err } = caught(() => wit.replay.replayAttestation(utf8('{}'), {}, randomBytes(8)));
  assert.equal(err.code, 'ERR_REPLAY_BUNDLE_SHAPE', 'the bundle is read before the key is made');
});
