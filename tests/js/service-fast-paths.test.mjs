// The exchange reads the values the package's own hosts pass (a plain request object with
// [name, value] header pairs and a Uint8Array body, arrays of booleans and of Uint8Array
// signatures) member by member, and every other value through the binding's converter: both
// readings give the same answer and the same refusal, value for value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { AttestationService, buildAttestRequest, importSigningKey } from '../../pkg/service/index.js';
import { fixtureText, ls10 } from './support/fixtures.mjs';
import { freshSigningKeyPem } from './support/worker.mjs';

const JUNE_2026 = Date.parse('2026-06-01T00:00:00Z') / 1000;
const LS10_RIM = fixtureText('rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml');
const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
const body = JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, evidence: [ls10] }));
const json = [['content-type', 'application/json']];
const attest = { method: 'POST', path: '/v4/attest/switch', headers: json, body: new TextEncoder().encode(body) };

const { privateKey, publicJwk } = await importSigningKey(await freshSigningKeyPem());
const svc = new AttestationService({ publicKey: publicJwk, issuer: 'https://edgeattest.test', rimServiceUrl: null, ocspUrl: null });
svc.addRim('NV_SWITCH_BIOS_5612_0002_890_9610550001.xml', LS10_RIM);

/** The same members on an object whose prototype is not Object.prototype: the converter's path. */
const converted = (value) => Object.assign(Object.create(Object.create(Object.prototype)), value);

/** What begin and the first step make of `request`: the step, or the refusal. */
function outcome(request) {
  try {
    const exchange = svc.begin(request, JUNE_2026);
    try {
      const step = exchange.step();
      if (step.kind !== 'respond') return { kind: step.kind, checks: step.checks?.map((c) => Buffer.from(c.message).toString('hex')) };
      const text = Buffer.from(step.response.body).toString();
      return { kind: 'respond', status: step.response.status, body: text.replace(/"[0-9a-f-]{36}"/g, '"<id>"') };
    } finally {
      exchange.free();
    }
  } catch (error) {
    return { code: error.code, field: error.field, message: error.message };
  }
}

test('requests: a plain object and the same members read by the converter give the same step or refusal', () => {
  const cases = [
    attest,
    { ...attest, origin: 'https://origin.test' },
    { ...attest, origin: null, headers: undefined },
    { ...attest, headers: { 'content-type': 'application/json' } },
    { ...attest, body },
    { ...attest, headers: [['content-type', 'application/json', 'extra']] },
    { ...attest, headers: [['content-type', 7]] },
    { ...attest, headers: [['content-type', 'text/plain']] },
    { ...attest, extra: 1 },
    { ...attest, method: 7 },
    { ...attest, origin: 7 },
    { ...attest, body: [1, 2, 3] },
    { ...attest, body: new TextEncoder().encode('{"nonce":"short"}') },
    { method: 'GET', path: '/health' },
    { method: 'GET', path: '/.well-known/jwks.json', headers: [] },
  ];
  for (const request of cases) {
    const fast = outcome(request);
    assert.deepEqual(fast, outcome(converted(request)), JSON.stringify(request).slice(0, 120));
  }
  // The cases reach every kind of answer.
  const kinds = cases.map((request) => outcome(request).kind ?? outcome(request).code);
  for (const kind of ['verify', 'respond', 'ERR_INVALID_ARGUMENT']) assert.ok(kinds.includes(kind), `${kind} in ${kinds}`);
});

/** Drives one attestation with `verdicts(checks)` and `signatures(inputs)`; the outcome of the last call. */
async function drive(verdicts, signatures) {
  const exchange = svc.begin(attest, JUNE_2026);
  try {
    for (;;) {
      const step = exchange.step();
      if (step.kind === 'respond') return { status: step.response.status, result: JSON.parse(Buffer.from(step.response.body)).length };
      try {
        if (step.kind === 'verify') {
          const ok = await Promise.all(step.checks.map(async ({ publicKey, message, signature }) => {
            const key = await webcrypto.subtle.importKey('raw', publicKey, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['verify']);
            return webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, key, signature, message);
          }));
          exchange.verified(verdicts(ok));
        } else {
          const signed = await Promise.all(step.inputs.map(async (input) => new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-384' }, privateKey, input))));
          exchange.signed(signatures(signed));
        }
      } catch (error) {
        return { code: error.code, field: error.field, message: error.message };
      }
    }
  } finally {
    exchange.free();
  }
}

test('answers: arrays of booleans and of Uint8Array signatures read as the converter reads them', async () => {
  const same = (x) => x;
  const plainPass = await drive(same, same);
  assert.deepEqual(plainPass, { status: 200, result: 2 });
  // The converter's readings: another array-like shape, hex text signatures.
  assert.deepEqual(await drive(same, (s) => s.map((b) => Buffer.from(b).toString('hex'))), plainPass);
  assert.deepEqual(await drive((v) => v.map((b) => (b ? true : false)), same), plainPass);
  // Refusals are the converter's, with its fields.
  const refusal = await drive((v) => [...v.slice(0, -1), 1], same);
  assert.equal(refusal.code, 'ERR_INVALID_ARGUMENT');
  assert.match(refusal.field, /^verdicts\[\d+\]$/);
  const sparse = await drive((v) => { const a = [...v]; delete a[0]; return a; }, same);
  assert.equal(sparse.code, 'ERR_INVALID_ARGUMENT');
  const badSignature = await drive(same, (s) => [...s.slice(0, -1), 'zz']);
  assert.equal(badSignature.code, 'ERR_INVALID_ARGUMENT');
  assert.match(badSignature.field, /^signatures\[\d+\]$/);
  // A signature of the wrong size is the exchange's refusal, read either way.
  assert.equal((await drive(same, (s) => s.map((b) => b.slice(1)))).code, 'ERR_JWS_SIGNATURE_MALFORMED');
  assert.equal((await drive(same, (s) => s.map((b) => Buffer.from(b.slice(1)).toString('hex')))).code, 'ERR_JWS_SIGNATURE_MALFORMED');
});
