// The service's WebCrypto path in Node: handleRequest drives the exchange with crypto.subtle,
// a private key imported non-extractable signs, the JWKS publishes its public half; the
// verdicts WebCrypto returns decide the devices; misuse is refused with codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import {
  AttestationService, ServiceExchange, handleRequest, importSigningKey, buildAttestRequest, verifyAttestationResult,
} from '../../pkg/service/index.js';
import { fixtureText, ls10 } from './support/fixtures.mjs';
import { freshSigningKeyPem } from './support/worker.mjs';

const JUNE_2026 = Date.parse('2026-06-01T00:00:00Z') / 1000;
const LS10_RIM = fixtureText('rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml');
const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
const request = {
  method: 'POST',
  path: '/v4/attest/switch',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, evidence: [ls10] })),
};

// Sources off: these tests are about the crypto rounds (the fetch step is tested with a
// loopback responder in service-ocsp.test.mjs), and tests never reach the internet.
function service(keys) {
  const svc = new AttestationService({ ...keys, issuer: 'https://edgeattest.test', rimServiceUrl: null, ocspUrl: null });
  svc.addRim('NV_SWITCH_BIOS_5612_0002_890_9610550001.xml', LS10_RIM);
  return svc;
}

const jwksOf = (svc) => JSON.parse(Buffer.from(svc.handle({ method: 'GET', path: '/.well-known/jwks.json' }, 0).body));
const resultOf = (response) => {
  assert.equal(response.status, 200, Buffer.from(response.body).toString());
  return JSON.parse(Buffer.from(response.body));
};

test('a non-extractable WebCrypto key signs; the JWKS publishes its public half; the result verifies', async () => {
  const pem = await freshSigningKeyPem();
  const { privateKey, publicJwk } = await importSigningKey(pem);
  assert.equal(privateKey.extractable, false);
  assert.deepEqual(privateKey.usages, ['sign']);
  assert.deepEqual(Object.keys(JSON.parse(publicJwk)).sort(), ['crv', 'kty', 'x', 'y']);
  const svc = service({ publicKey: publicJwk });
  const jwks = jwksOf(svc);
  assert.equal(jwks.keys[0].x, JSON.parse(publicJwk).x);

  const result = resultOf(await handleRequest(svc, request, { now: JUNE_2026, signingKey: privateKey }));
  const verified = await verifyAttestationResult(result, jwks, { nonce, now: JUNE_2026, issuer: 'https://edgeattest.test', allowUnknownRevocation: true, signers: 'any' });
  assert.equal(verified.overall.payload['x-nvidia-overall-att-result'], true);
  assert.equal(verified.devices[0].payload.measres, 'success');

  // The same key held by the core instead: the same claims (token ids aside).
  const software = service({ signingKey: pem });
  assert.deepEqual(jwksOf(software).keys[0], jwks.keys[0]);
  const other = resultOf(software.handle(request, JUNE_2026));
  const strip = (token) => ({ ...payload(token), jti: undefined });
  assert.deepEqual(strip(other[1]['SWITCH-0']), strip(result[1]['SWITCH-0']));
  assert.deepEqual({ ...strip(other[0][1]), submods: undefined }, { ...strip(result[0][1]), submods: undefined });
  // And handleRequest on the software-key service: WebCrypto verifies, the core signs.
  const mixed = resultOf(await handleRequest(software, request, { now: JUNE_2026 }));
  await verifyAttestationResult(mixed, jwks, { nonce, now: JUNE_2026, allowUnknownRevocation: true, signers: 'any' });
});

test('the WebCrypto verdicts decide: a backend that refuses every check fails the device', async () => {
  const { privateKey, publicJwk } = await importSigningKey(await freshSigningKeyPem());
  const svc = service({ publicKey: publicJwk });
  const refusing = new Proxy(webcrypto.subtle, {
    get(target, name) {
      if (name === 'verify') return async () => false;
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const result = resultOf(await handleRequest(svc, request, { now: JUNE_2026, signingKey: privateKey, subtle: refusing, keyCache: new Map() }));
  const device = payload(result[1]['SWITCH-0']);
  assert.equal(device['x-nvidia-error-details'].code, 4014);
  assert.equal(payload(result[0][1])['x-nvidia-overall-att-result'], false);
});

test('an external-key service: handle() answers 500 ERR_SIGNING_KEY_EXTERNAL for attestation, the rest as usual', async () => {
  const { publicJwk } = await importSigningKey(await freshSigningKeyPem());
  const svc = service({ publicKey: publicJwk });
  const refused = svc.handle(request, JUNE_2026);
  assert.equal(refused.status, 500);
  assert.equal(JSON.parse(Buffer.from(refused.body)).code, 'ERR_SIGNING_KEY_EXTERNAL');
  assert.equal(svc.handle({ method: 'GET', path: '/health' }, JUNE_2026).status, 200);
  await assert.rejects(handleRequest(svc, request, { now: JUNE_2026 }), { code: 'ERR_SIGNING_KEY_REQUIRED', field: 'signingKey' });
});

test('keys: exactly one of signingKey and publicKey; SPKI PEM accepted; bad keys refused with codes', async () => {
  const pem = await freshSigningKeyPem();
  const { publicJwk } = await importSigningKey(pem);
  assert.throws(() => new AttestationService({}), { code: 'ERR_INVALID_ARGUMENT', field: 'signingKey' });
  assert.throws(() => new AttestationService({ signingKey: pem, publicKey: publicJwk }), { code: 'ERR_INVALID_ARGUMENT' });
  assert.throws(() => new AttestationService({ publicKey: '{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}' }), (e) => /^ERR_/.test(e.code));
  const spki = await webcrypto.subtle.exportKey('spki', await webcrypto.subtle.importKey('jwk', JSON.parse(publicJwk), { name: 'ECDSA', namedCurve: 'P-384' }, true, ['verify']));
  const spkiPem = `-----BEGIN PUBLIC KEY-----\n${Buffer.from(spki).toString('base64').replace(/.{1,64}/g, '$&\n')}-----END PUBLIC KEY-----\n`;
  assert.equal(jwksOf(new AttestationService({ publicKey: spkiPem })).keys[0].x, JSON.parse(publicJwk).x);

  // A private JWK imports too; its public half must match its d.
  const jwk = await webcrypto.subtle.exportKey('jwk', (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign'])).privateKey);
  assert.equal(JSON.parse((await importSigningKey(JSON.stringify(jwk))).publicJwk).x, jwk.x);
  const otherJwk = await webcrypto.subtle.exportKey('jwk', (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign'])).privateKey);
  await assert.rejects(importSigningKey(JSON.stringify({ ...jwk, x: otherJwk.x, y: otherJwk.y })), { code: 'ERR_INVALID_KEY' });
  for (const bad of ['', 'not a key', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----', '{"kty":"EC","crv":"P-256"}']) {
    await assert.rejects(importSigningKey(bad), { code: 'ERR_INVALID_KEY', field: 'signingKey' }, bad);
  }
  await assert.rejects(importSigningKey(42), { code: 'ERR_INVALID_ARGUMENT' });
});

test('the exchange by hand: steps in order, misfit answers refused with codes, the exchange unchanged', async () => {
  const pem = await freshSigningKeyPem();
  const { privateKey, publicJwk } = await importSigningKey(pem);
  const svc = service({ publicKey: publicJwk });
  const exchange = svc.begin(request, JUNE_2026);
  assert.ok(exchange instanceof ServiceExchange);
  const kinds = [];
  try {
    let step = exchange.step();
    assert.equal(step.kind, 'verify');
    assert.throws(() => exchange.verified([true]), { code: 'ERR_EXCHANGE_ANSWER_COUNT' });
    assert.throws(() => exchange.verified('yes'), { code: 'ERR_INVALID_ARGUMENT', field: 'verdicts' });
    assert.throws(() => exchange.verified([1, 0]), { code: 'ERR_INVALID_ARGUMENT', field: 'verdicts[0]' });
    assert.throws(() => exchange.signed([new Uint8Array(96)]), { code: 'ERR_EXCHANGE_UNEXPECTED_ANSWER' });
    assert.equal(exchange.step().checks.length, step.checks.length);
    for (;;) {
      step = exchange.step();
      kinds.push(step.kind);
      if (step.kind === 'respond') break;
      if (step.kind === 'verify') {
        exchange.verified(await Promise.all(step.checks.map(async (c) => {
          const key = await webcrypto.subtle.importKey('raw', c.publicKey, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['verify']);
          return webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, key, c.signature, c.message);
        })));
      } else {
        assert.throws(() => exchange.signed([new Uint8Array(95)]), { code: 'ERR_JWS_SIGNATURE_MALFORMED' });
        assert.throws(() => exchange.signed('sig'), { code: 'ERR_INVALID_ARGUMENT', field: 'signatures' });
        exchange.signed(await Promise.all(step.inputs.map(async (input) => new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-384' }, privateKey, input)))));
      }
    }
    assert.deepEqual(kinds, ['verify', 'verify', 'sign', 'sign', 'respond']);
    assert.equal(step.response.status, 200);
    assert.throws(() => exchange.verified([]), { code: 'ERR_EXCHANGE_UNEXPECTED_ANSWER' });
  } finally {
    exchange.free();
  }
  // Routes other than attestation answer at once.
  const health = svc.begin({ method: 'GET', path: '/health' }, JUNE_2026);
  assert.equal(health.step().kind, 'respond');
  health.free();
  assert.throws(() => svc.begin(request, -1), { code: 'ERR_INVALID_ARGUMENT', field: 'now' });
  assert.throws(() => svc.begin(null, 0), { code: 'ERR_INVALID_ARGUMENT', field: 'request' });
});
