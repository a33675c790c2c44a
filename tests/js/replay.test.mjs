// replayAttestation in Node (edgeattest/service): attestations answered by the package's
// handleRequest with `x-edgeattest-replay: bundle` — the generated test PKI's devices with
// live OCSP answers from `openssl ocsp` and RIMs from a loopback RIM service, and NVIDIA's
// real LS10 switch with its RIM held — replay offline to the same claims; a byte changed in
// an OCSP answer, a RIM or the request replays to a different, explained verdict; a bundle
// that does not read is a coded error. Rust cases: tests/it/service/replay*.rs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  AttestationService, EdgeAttestError, buildAttestRequest, createFetchCache, handleRequest, replayAttestation,
} from '../../pkg/service/index.js';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';
import { fixtureText, ls10 } from './support/fixtures.mjs';

const VOLATILE = ['jti', 'iat', 'nbf', 'exp', 'submods'];
const TEST_ANCHORS = { trustAnchors: pkiText('root.pem'), rimTrustAnchors: pkiText('rim_root.pem') };
const coded = (code, field) => (e) => e instanceof EdgeAttestError && e.code === code && (field === undefined || e.field === field);

let responder;
let rims;
const devices = {};
before(async () => {
  responder = await startOcspResponder();
  rims = await startRimService();
  for (const stem of ['good', 'revoked']) devices[stem] = await testDevice(stem);
});
after(async () => {
  await responder?.close();
  await rims?.close();
});

function gpuBody(device) {
  const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
  return buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' });
}

/** A bundle recorded through handleRequest, and the answer without the header. */
async function record({ rim, ...options }, request, handleOptions) {
  const service = new AttestationService(options);
  try {
    if (rim) service.addRim(rim.name, rim.xml);
    const plain = await handleRequest(service, request, handleOptions());
    const bundled = await handleRequest(service, { ...request, headers: { ...request.headers, 'x-edgeattest-replay': 'bundle' } }, handleOptions());
    assert.equal(bundled.status, plain.status);
    const type = (r) => new Map(r.headers.map(([n, v]) => [n.toLowerCase(), v])).get('content-type');
    assert.equal(type(bundled), 'application/vnd.edgeattest.replay+json');
    return { plain, bundle: JSON.parse(Buffer.from(bundled.body)) };
  } finally {
    service.free();
  }
}

function assertSameClaims(replayed) {
  assert.deepEqual(replayed.differences, []);
  assert.equal(replayed.matches, true);
  assert.deepEqual(replayed.replayed.tokens.map((t) => t.label), replayed.recorded.tokens.map((t) => t.label));
  replayed.recorded.tokens.forEach((token, i) => {
    const again = replayed.replayed.tokens[i].claims;
    for (const [name, value] of Object.entries(token.claims)) {
      if (!VOLATILE.includes(name)) assert.deepEqual(again[name], value, `${token.label}: ${name}`);
    }
  });
}

const flip = (base64) => {
  const bytes = Buffer.from(base64, 'base64');
  bytes[bytes.length >> 1] ^= 1;
  return bytes.toString('base64');
};

test('the generated PKI, with live OCSP answers and a fetched RIM: good and revoked replay to the same claims', async () => {
  for (const [stem, passes] of [['good', true], ['revoked', false]]) {
    const request = { method: 'POST', path: '/v4/attest/gpu', headers: { 'content-type': 'application/json' }, body: JSON.stringify(gpuBody(devices[stem])) };
    // One cache for both runs: the second answers from it, as a host does (`cached`).
    const cache = createFetchCache();
    const { plain, bundle } = await record({
      signingKey: pkiText('leaf_good_key.pem'), issuer: 'https://attest.example',
      trustAnchors: pkiText('root.pem'), rimTrustAnchors: pkiText('rim_root.pem'),
      ocspUrl: responder.url, rimServiceUrl: rims.url,
    }, request, () => ({ backend: 'webcrypto', cache }));
    // The result member holds the answer the client would have got (NVIDIA's JSON); the
    // plain answer has its own token ids (fresh entropy per request).
    assert.deepEqual(JSON.parse(bundle.result.value.body)[0][0], 'JWT');
    assert.deepEqual(Object.keys(JSON.parse(bundle.result.value.body)[1]), Object.keys(JSON.parse(Buffer.from(plain.body))[1]));
    assert.ok(bundle.fetches.some((f) => f.value.resource.kind === 'ocsp'), stem);
    const replayed = replayAttestation(JSON.stringify(bundle), TEST_ANCHORS);
    assertSameClaims(replayed);
    assert.equal(replayed.replayed.tokens[0].claims['x-nvidia-overall-att-result'], passes, stem);
    // Bytes and a parsed object are read too.
    assert.equal(replayAttestation(Buffer.from(JSON.stringify(bundle)), TEST_ANCHORS).matches, true);
    assert.equal(replayAttestation(bundle, TEST_ANCHORS).matches, true);
  }
});

test('NVIDIA\'s LS10 switch, its RIM held and nothing fetched, replays with NVIDIA\'s roots', async () => {
  const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
  const body = buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, evidence: [ls10], claimsVersion: '3.0' });
  const id = 'NV_SWITCH_BIOS_5612_0002_890_9610550001';
  const now = 1_780_272_000; // 2026-06-01: the RIM's signer is valid.
  const { bundle } = await record({
    signingKey: pkiText('leaf_good_key.pem'), issuer: 'https://attest.example',
    rim: { name: `${id}.xml`, xml: fixtureText(`rims/nvat/switchVBIOSRim_${id}.xml`) },
  }, { method: 'POST', path: '/v4/attest/switch', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  () => ({ backend: 'software', fetch: false, now }));
  assert.equal(bundle.rims.length, 1);
  assert.ok(bundle.fetches.every((f) => f.value.answer.kind === 'failed'));
  const replayed = replayAttestation(bundle);
  assertSameClaims(replayed);
  assert.equal(replayed.recorded.tokens[1].label, 'SWITCH-0');
  // With the test PKI's roots too, the anchors are named and the verdict is the same.
  const other = replayAttestation(bundle, TEST_ANCHORS);
  assert.equal(other.matches, false);
  assert.deepEqual(other.differences.map((d) => [d.kind, d.which]), [['anchors', 'device'], ['anchors', 'rim']]);
});

test('a byte changed in an OCSP answer, a RIM or the request replays to a different, explained verdict', async () => {
  const request = { method: 'POST', path: '/v4/attest/gpu', headers: { 'content-type': 'application/json' }, body: JSON.stringify(gpuBody(devices.good)) };
  const cache = createFetchCache();
  const { bundle } = await record({
    signingKey: pkiText('leaf_good_key.pem'), issuer: 'https://attest.example',
    trustAnchors: pkiText('root.pem'), rimTrustAnchors: pkiText('rim_root.pem'),
    ocspUrl: responder.url, rimServiceUrl: rims.url,
  }, request, () => ({ backend: 'webcrypto', cache }));
  const altered = (edit) => {
    const copy = structuredClone(bundle);
    edit(copy);
    return replayAttestation(copy, TEST_ANCHORS);
  };
  const ocsp = bundle.fetches.findIndex((f) => f.value.answer.body !== undefined && f.value.resource.kind === 'ocsp');
  const rim = bundle.fetches.findIndex((f) => f.value.resource.kind === 'rim');
  assert.ok(ocsp >= 0 && rim >= 0, JSON.stringify(bundle.fetches.map((f) => f.value.answer.kind)));
  const cases = [
    [`fetches[${ocsp}]`, (b) => { b.fetches[ocsp].value.answer.body = flip(b.fetches[ocsp].value.answer.body); }],
    [`fetches[${rim}]`, (b) => { b.fetches[rim].value.answer.body = flip(b.fetches[rim].value.answer.body); }],
    ['request', (b) => {
      const json = JSON.parse(Buffer.from(b.request.value.body, 'base64'));
      json.evidence_list[0].evidence = flip(json.evidence_list[0].evidence);
      b.request.value.body = Buffer.from(JSON.stringify(json)).toString('base64');
    }],
  ];
  for (const [input, edit] of cases) {
    const replayed = altered(edit);
    assert.equal(replayed.matches, false, input);
    assert.equal(replayed.differences[0].kind, 'inputDigest', input);
    assert.equal(replayed.differences[0].input, input);
    assert.equal(replayed.replayed.tokens[0].claims['x-nvidia-overall-att-result'], false, input);
    assert.ok(replayed.differences.some((d) => d.kind === 'claim' && d.token === 'overall' && d.claim === 'x-nvidia-overall-att-result'), input);
  }
  // The time: named, and a second later nothing else differs.
  const later = altered((b) => { b.time.value += 1; });
  assert.deepEqual(later.differences.map((d) => [d.kind, d.input]), [['inputDigest', 'time']]);
});

test('a bundle that does not read is a coded error', () => {
  assert.throws(() => replayAttestation('{'), coded('ERR_REPLAY_BUNDLE_SHAPE'));
  assert.throws(() => replayAttestation('{"format": "edgeattest-replay/2"}'), coded('ERR_REPLAY_BUNDLE_SHAPE'));
  assert.throws(() => replayAttestation({ a: 1, format: 'x' }), coded('ERR_REPLAY_BUNDLE_SHAPE'));
  const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
  assert.throws(() => replayAttestation('{}', { trustAnchors: broken }), (e) => e instanceof EdgeAttestError && e.field === 'trustAnchors');
  assert.throws(() => replayAttestation('{}', { unknown: 1 }), coded('ERR_INVALID_ARGUMENT'));
});
