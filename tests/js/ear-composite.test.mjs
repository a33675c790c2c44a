// Composite EARs in JS (edgeattest/service): the service's real EAR of a
// switch (from the worker in workerd, JWT and CWT), verified with verifyEar, composed with a
// foreign CPU appraisal (`cpu0`), signed with the relying party's own key (WebCrypto ES384,
// or the software key) as a JWT and as a CWT, and verified with verifyCompositeEar: the status
// is the worst submodule's, the foreign labels are reported, panva/jose reads the JWT. Each
// refusal has its stable code: a GPU label missing, no foreign submodule, a label twice, a
// wrong nonce, a tampered signature, another key. The default and local entries have none of it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as jose from 'jose';
import * as defaultEntry from '../../pkg/index.js';
import { buildAttestRequest } from '../../pkg/index.js';
import * as local from '../../pkg/local/index.js';
import * as service from '../../pkg/service/index.js';
import { startWorker } from './support/worker.mjs';
import { ls10 } from './support/fixtures.mjs';

const { composeEar, signEar, verifyCompositeEar, verifyEar, generateKeyPair, createJwks } = service;

const V04 = 'tag:ietf.org,2026:rats/ear#04';
const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
const body = JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/switch', nonce, evidence: [ls10] }));
const RP = { developer: 'https://relying-party.example', build: 'rp 1.0' };
const CPU = { status: 'affirming', trustworthinessVector: { 'instance-identity': 2, hardware: 2, executables: 2 } };

let worker;
let serviceJwks;
let earJwt;
let earCwt;
let rp;
before(async () => {
  worker = await startWorker({ chain: true });
  serviceJwks = await (await fetch(`${worker.origin}/.well-known/jwks.json`)).json();
  const attest = async (accept) => {
    const response = await fetch(`${worker.origin}/v4/attest/switch`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body });
    assert.equal(response.status, 200);
    return response;
  };
  earJwt = await (await attest('application/eat+jwt; eat_profile="tag:github.com,2023:veraison/ear"')).text();
  earCwt = new Uint8Array(await (await attest(`application/eat+cwt; eat_profile="${V04}"`)).arrayBuffer());
  const { privateKey, publicJwk } = await generateKeyPair();
  rp = { privateKey, jwks: createJwks([{ kid: 'rp-1', key: publicJwk }]), publicJwk };
});
after(() => worker?.stop());

// The composer's key is its own, with no certificate chain: unpinned.
const verifyOptions = (extra = {}) => ({ gpus: ['switch0'], nonce, maxTokenAge: 300, signers: 'any', ...extra });

async function gpus(token = earJwt) {
  return verifyEar(token, serviceJwks, { nonce, maxTokenAge: 300, signers: worker.signers });
}

function compose(ear, extra = {}) {
  return composeEar({ gpus: ear, relabel: { 'SWITCH-0': 'switch0' }, foreign: { cpu0: CPU }, dialect: 'ietf-04', nonce, verifierId: RP, ...extra });
}

test('a composite of the service\'s EAR (JWT or CWT) and a CPU appraisal signs and verifies in both encodings; its status is the worst', async () => {
  for (const source of [earJwt, earCwt]) {
    const read = await gpus(source);
    assert.equal(read.status, 'warning'); // the switch, without OCSP in these tests
    const composite = compose(read, { iat: 1_900_000_000 });
    assert.equal(composite.dialect, 'ietf-04');
    assert.equal(composite.status, 'warning');
    assert.equal(composite.affirming, false);
    assert.equal(composite.claims.eat_profile, V04);
    assert.equal(composite.claims.iat, 1_900_000_000);
    assert.equal(composite.claims.ear_status, 'warning');
    assert.deepEqual(Object.keys(composite.claims.submods), ['switch0', 'cpu0']);
    assert.deepEqual(composite.claims.ear_verifier_id, RP);
    assert.equal(composite.claims.eat_nonce, Buffer.from(nonce, 'hex').toString('base64url'));

    const now = 1_900_000_010;
    for (const encoding of ['jwt', 'cwt']) {
      const token = await signEar(composite.claims, rp.privateKey, { kid: 'rp-1', encoding });
      assert.equal(typeof token === 'string', encoding === 'jwt');
      const ear = await verifyCompositeEar(token, rp.jwks, verifyOptions({ now }));
      assert.equal(ear.encoding, encoding);
      assert.equal(ear.dialect, 'ietf-04');
      assert.equal(ear.status, 'warning');
      assert.equal(ear.affirming, false);
      assert.equal(ear.nonce, nonce);
      assert.deepEqual(ear.verifierId, RP);
      assert.deepEqual(ear.foreign, ['cpu0']);
      // A CWT's map is deterministic CBOR (keys in byte order): compare by label.
      const byLabel = Object.fromEntries(ear.submods.map((s) => [s.label, s]));
      assert.deepEqual(Object.keys(byLabel).sort(), ['cpu0', 'switch0']);
      assert.equal(byLabel.switch0.status, 'warning');
      assert.equal(byLabel.cpu0.status, 'affirming');
      assert.deepEqual(byLabel.switch0.trustworthinessVector, read.submods[0].trustworthinessVector);
      assert.deepEqual(byLabel.cpu0.trustworthinessVector, CPU.trustworthinessVector);
      // The same token through verifyEar: the same verdict, without the composition's info.
      const plain = await service.verifyEar(token, rp.jwks, { nonce, signers: 'any', now });
      assert.equal(plain.status, 'warning');
      assert.equal(plain.foreign, undefined);
    }
  }
});

test('a contraindicated CPU makes the composite contraindicated: reported, not thrown', async () => {
  const composite = compose(await gpus(), { foreign: { cpu0: { status: 'contraindicated', trustworthinessVector: { hardware: 97 } } } });
  assert.equal(composite.status, 'contraindicated');
  for (const encoding of ['jwt', 'cwt']) {
    const token = await signEar(composite.claims, rp.privateKey, { kid: 'rp-1', encoding });
    const ear = await verifyCompositeEar(token, rp.jwks, verifyOptions());
    assert.equal(ear.status, 'contraindicated', encoding);
    assert.equal(ear.affirming, false);
  }
});

test('the composite JWT is an ES384 JWS panva/jose verifies; the software key signs alike, and the software backend verifies', async () => {
  const composite = compose(await gpus());
  const token = await signEar(composite.claims, rp.privateKey, { kid: 'rp-1' });
  const { payload, protectedHeader } = await jose.jwtVerify(token, jose.createLocalJWKSet(rp.jwks), { algorithms: ['ES384'] });
  assert.equal(protectedHeader.kid, 'rp-1');
  assert.deepEqual(payload, composite.claims);

  const software = await generateKeyPair({ backend: 'software' });
  const jwks = createJwks([{ kid: 'sw', key: software.publicJwk }]);
  for (const encoding of ['jwt', 'cwt']) {
    const signed = await signEar(composite.claims, software.privateKey, { kid: 'sw', encoding });
    for (const backend of ['webcrypto', 'software']) {
      const ear = await verifyCompositeEar(signed, jwks, verifyOptions({ backend }));
      assert.deepEqual(ear.foreign, ['cpu0'], `${encoding} ${backend}`);
    }
  }
  // The veraison dialect signs as a JWT only: it has no CWT form.
  const veraison = compose(await gpus(), { dialect: 'veraison' });
  assert.equal(veraison.claims.eat_profile, 'tag:github.com,2023:veraison/ear');
  assert.equal((await verifyCompositeEar(await signEar(veraison.claims, rp.privateKey, { kid: 'rp-1' }), rp.jwks, verifyOptions())).dialect, 'veraison');
  await assert.rejects(signEar(veraison.claims, rp.privateKey, { kid: 'rp-1', encoding: 'cwt' }), { code: 'ERR_EAR_SHAPE', field: 'eat_profile' });
});

test('composeEar refuses a label twice, no foreign appraisal, a misshapen one, an unknown relabel or option', async () => {
  const read = await gpus();
  // `switch0` is both the relabelled switch and a foreign submodule.
  assert.throws(() => compose(read, { foreign: { switch0: CPU } }), { code: 'ERR_EAR_SHAPE', field: 'submods' });
  assert.throws(() => compose(read, { relabel: {}, foreign: { 'SWITCH-0': CPU } }), { code: 'ERR_EAR_SHAPE', field: 'submods' });
  assert.throws(() => compose(read, { foreign: {} }), { code: 'ERR_INVALID_ARGUMENT', field: 'foreign' });
  assert.throws(() => compose(read, { foreign: { cpu0: { status: 'fine' } } }), { code: 'ERR_EAR_SHAPE', field: 'foreign/cpu0/status' });
  assert.throws(() => compose(read, { foreign: { cpu0: { status: 'affirming', trustworthinessVector: { hardware: 300 } } } }), { code: 'ERR_EAR_SHAPE', field: 'foreign/cpu0/trustworthinessVector' });
  assert.throws(() => compose(read, { relabel: { 'GPU-9': 'gpu9' } }), { code: 'ERR_INVALID_ARGUMENT', field: 'relabel/GPU-9' });
  assert.throws(() => compose(read, { nonce: 'not hex' }), { code: 'ERR_EAR_SHAPE', field: 'eat_nonce' });
  assert.throws(() => compose(read, { nonce: undefined }), { code: 'ERR_INVALID_ARGUMENT', field: 'nonce' });
  assert.throws(() => compose(read, { verifierid: RP }), { code: 'ERR_INVALID_ARGUMENT', field: 'verifierid' });
  assert.throws(() => compose({ submods: [] }), { code: 'ERR_INVALID_ARGUMENT', field: 'gpus.dialect' });
  await assert.rejects(signEar(compose(read).claims, rp.privateKey, {}), { code: 'ERR_INVALID_ARGUMENT', field: 'kid' });
  await assert.rejects(signEar(compose(read).claims, rp.privateKey, { kid: 'rp-1', encoding: 'cbor' }), { code: 'ERR_INVALID_ARGUMENT', field: 'encoding' });
  await assert.rejects(signEar({ eat_profile: V04 }, rp.privateKey, { kid: 'rp-1' }), { code: 'ERR_EAR_SHAPE' });
});

test('verifyCompositeEar refuses a GPU label missing, no foreign submodule, a wrong nonce, a tampered signature, another key', async () => {
  const composite = compose(await gpus());
  for (const encoding of ['jwt', 'cwt']) {
    const token = await signEar(composite.claims, rp.privateKey, { kid: 'rp-1', encoding });
    const at = (message) => `${encoding}: ${message}`;
    await assert.rejects(verifyCompositeEar(token, rp.jwks, verifyOptions({ gpus: ['switch0', 'gpu1'] })), { code: 'ERR_EAR_SHAPE', field: 'submods/gpu1' }, at('a GPU missing'));
    await assert.rejects(verifyCompositeEar(token, rp.jwks, verifyOptions({ gpus: ['switch0', 'cpu0'] })), { code: 'ERR_EAR_SHAPE', field: 'submods' }, at('nothing foreign'));
    await assert.rejects(verifyCompositeEar(token, rp.jwks, verifyOptions({ gpus: [] })), { code: 'ERR_INVALID_ARGUMENT', field: 'gpus' }, at('no GPU named'));
    await assert.rejects(verifyCompositeEar(token, rp.jwks, verifyOptions({ gpus: undefined })), { code: 'ERR_INVALID_ARGUMENT', field: 'gpus' }, at('gpus absent'));
    await assert.rejects(verifyCompositeEar(token, rp.jwks, verifyOptions({ nonce: 'ab'.repeat(32) })), { code: 'ERR_EAT_NONCE_MISMATCH' }, at('wrong nonce'));
    const tampered = typeof token === 'string'
      ? `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`
      : Uint8Array.from(token, (byte, i) => (i === token.length - 1 ? byte ^ 1 : byte));
    for (const backend of ['webcrypto', 'software']) {
      await assert.rejects(verifyCompositeEar(tampered, rp.jwks, verifyOptions({ backend })), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' }, at(`tampered, ${backend}`));
    }
    // Another key under the same kid: the signature does not verify; under another kid: no key.
    const other = await generateKeyPair();
    const otherJwks = createJwks([{ kid: 'rp-1', key: other.publicJwk }]);
    await assert.rejects(verifyCompositeEar(token, otherJwks, verifyOptions()), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' }, at('another key'));
    await assert.rejects(verifyCompositeEar(token, createJwks([{ kid: 'rp-2', key: other.publicJwk }]), verifyOptions()), { code: 'ERR_JWKS_NO_MATCHING_KEY' }, at('another kid'));
    // The composer's key pinned to the service's root: it has no chain.
    await assert.rejects(verifyCompositeEar(token, rp.jwks, verifyOptions({ signers: worker.signers })), { code: 'ERR_SIGNER_NO_X5C' }, at('pinned'));
  }
  // The service's own EAR holds the switch alone: no foreign submodule.
  for (const token of [earJwt, earCwt, earCwt.slice().buffer]) {
    await assert.rejects(verifyCompositeEar(token, serviceJwks, { gpus: ['SWITCH-0'], nonce, signers: worker.signers }), { code: 'ERR_EAR_SHAPE', field: 'submods' });
  }
});

test('composite EARs are in edgeattest/service, not in edgeattest or edgeattest/local', () => {
  for (const name of ['composeEar', 'signEar', 'verifyCompositeEar']) {
    assert.equal(typeof service[name], 'function', `service ${name}`);
    assert.equal(local[name], undefined, `local ${name}`);
    assert.equal(defaultEntry[name], undefined, `default ${name}`);
  }
  // The wasm plumbing stays private.
  for (const name of ['composeEarClaims', 'earJwtSigningInput', 'prepareEarCwtSigning', 'prepareCompositeEarVerification']) {
    assert.equal(service[name], undefined, name);
  }
});
