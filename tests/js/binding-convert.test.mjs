// The binding's one conversion path (issue 18): one reader of times for every export that
// takes one, one consumed-object code, option and request members named in `field` by their
// path, and getters that throw refused with a code rather than escaping.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../pkg/service/index.js'; // instantiates the wasm module
import {
  AttestationService, formatRfc3339, formatHttpDate, deprecationHeaders, prepareRim, verifyRim,
} from '../../pkg/service/edgeattest.js';
import { fixtureText } from './support/fixtures.mjs';

const DRIVER = fixtureText('rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml');
const JUNE_2025 = 1748736000;

function refused(run, code, field, message) {
  assert.throws(run, (error) => {
    assert.equal(error.name, 'EdgeAttestError', String(error));
    assert.equal(error.code, code, error.message);
    assert.equal(error.field, field, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

const service = () => new AttestationService({
  signingKey: fixtureText('../generated/token_signing_key.pem'), rimServiceUrl: null, ocspUrl: null,
});

test('a time is whole Unix seconds or a Date, by every export that takes one', () => {
  const svc = service();
  const health = (now) => svc.handle({ method: 'GET', path: '/health' }, now).status;
  const cases = [
    ['formatRfc3339', (t) => formatRfc3339(t), 'secs'],
    ['formatHttpDate', (t) => formatHttpDate(t), 'secs'],
    ['deprecationHeaders', (t) => deprecationHeaders('GET /instance', t), 'now'],
    ['AttestationService.handle', health, 'now'],
    ['verifyRim', (t) => verifyRim(DRIVER, { now: t }).toJSON(), 'now'],
  ];
  for (const [name, run, field] of cases) {
    for (const bad of [NaN, -1, 1.5, 253402300800, Infinity, '1700000000', 2n, new Date(NaN)]) {
      refused(() => run(bad), 'ERR_INVALID_ARGUMENT', field, /Unix seconds \(a whole number from 0 to 253402300799\) or a Date/);
    }
    // A Date is the same instant as its seconds (milliseconds dropped).
    assert.deepEqual(run(new Date(JUNE_2025 * 1000 + 999)), run(JUNE_2025), name);
  }
  assert.equal(formatRfc3339(new Date('2026-09-10T00:00:00.500Z')), '2026-09-10T00:00:00Z');
  assert.equal(formatRfc3339(253402300799), '9999-12-31T23:59:59Z');
  assert.equal(health(new Date()), 200);
});

test('a use-once object used again is ERR_BATCH_CONSUMED, as the evidence batch', async () => {
  const pending = prepareRim(DRIVER, { now: JUNE_2025 });
  const checks = pending.signatureChecks();
  pending.finish(checks.map(() => true));
  refused(() => pending.finish(checks.map(() => true)), 'ERR_BATCH_CONSUMED', undefined, /already finished/);
  refused(() => pending.signatureChecks(), 'ERR_BATCH_CONSUMED', undefined);
});

test('options: a member of the wrong type or out of range is named in field', () => {
  const key = fixtureText('../generated/token_signing_key.pem');
  refused(() => new AttestationService({ signingKey: 42 }), 'ERR_INVALID_ARGUMENT', 'signingKey');
  refused(() => new AttestationService({ signingKey: key, tokenLifetime: 59 }), 'ERR_INVALID_ARGUMENT', 'tokenLifetime', /from 60 to 86400/);
  refused(() => new AttestationService({ signingKey: key, tokenLifetime: 60.5 }), 'ERR_INVALID_ARGUMENT', 'tokenLifetime');
  refused(() => new AttestationService({ signingKey: key, ocspUrl: 'ftp://x/' }), 'ERR_INVALID_ARGUMENT', 'ocspUrl');
  refused(() => new AttestationService(null), 'ERR_INVALID_ARGUMENT', 'options');
  // An undefined member is absent (the default), null turns a source off.
  assert.equal(new AttestationService({ signingKey: key, ocspUrl: undefined, tokenLifetime: undefined }).rimCount, 0);
  const hostile = { signingKey: key };
  Object.defineProperty(hostile, 'issuer', { enumerable: true, get() { throw new Error('hostile getter'); } });
  refused(() => new AttestationService(hostile), 'ERR_INVALID_ARGUMENT', 'issuer', /could not be read/);
});

test('requests and exchange answers: the failing member is named by its path', () => {
  const svc = service();
  refused(() => svc.handle({ method: 'GET', path: 7 }, 0), 'ERR_INVALID_ARGUMENT', 'request.path');
  refused(() => svc.handle({ method: 'GET', path: '/health', headers: [['a', 1]] }, 0), 'ERR_INVALID_ARGUMENT', 'request.headers[0][1]');
  refused(() => svc.handle({ method: 'GET', path: '/health', body: 5 }, 0), 'ERR_INVALID_ARGUMENT', 'request.body');
  const response = svc.handle({ method: 'GET', path: '/health', headers: { accept: 'application/json' } }, 0);
  assert.equal(response.status, 200);
  assert.ok(response.body instanceof Uint8Array);
  assert.ok(response.headers.every((pair) => Array.isArray(pair) && pair.length === 2));
  const exchange = svc.begin({ method: 'GET', path: '/health' }, 0);
  assert.equal(exchange.step().kind, 'respond');
  refused(() => exchange.fetched([{ error: 'status', status: 42 }]), 'ERR_INVALID_ARGUMENT', 'answers[0].status');
  refused(() => exchange.fetched([{ error: 'lost' }]), 'ERR_INVALID_ARGUMENT', 'answers[0].error');
  refused(() => exchange.fetched([{ error: 'status' }]), 'ERR_INVALID_ARGUMENT', 'answers[0].status');
  refused(() => exchange.fetched([{}]), 'ERR_INVALID_ARGUMENT', 'answers[0].body');
  refused(() => exchange.signed([new Uint8Array(2), 'zz']), 'ERR_INVALID_ARGUMENT', 'signatures[1]', /hex/);
});

test('a list given as something else is refused in words, not with the engine\'s TypeError', async () => {
  const { prepareEvidence } = await import('../../pkg/service/edgeattest.js');
  for (const devices of [4, 'x', true]) {
    refused(() => prepareEvidence({ devices, arch: 'HOPPER', nonce: '00'.repeat(32) }), 'ERR_INVALID_ARGUMENT', 'devices', /devices: invalid type: expected an array/);
  }
});

// serde-wasm-bindgen reads only a struct's declared members, so a misspelt option used to be
// ignored and its default applied (a silent default on a security option). Every struct read
// from JS now refuses a member it does not declare, at every depth, naming it by its path.
const UNKNOWN = (name, expected) => new RegExp(`unknown field \`${name}\`, expected .*\`${expected}\``);

test('an option the export does not know is refused, named by its path, with the known ones', async () => {
  const { prepareEvidence, verifyEvidence, prepareJwtVerification, KeySet } = await import('../../pkg/service/edgeattest.js');
  const { verifyJwt, verifyAttestationResult, generateKeyPair, signJwt } = await import('../../pkg/service/index.js');
  const key = fixtureText('../generated/token_signing_key.pem');
  const evidence = { arch: 'HOPPER', nonce: '00'.repeat(32), devices: [{ evidence: '00', certificate: 'x' }] };

  // Evidence: a misspelt top-level option, and a misspelt member of a device.
  refused(() => verifyEvidence({ ...evidence.devices[0], arch: 'HOPPER', nonce: '00'.repeat(32), trustAnchor: 'pem' }),
    'ERR_INVALID_ARGUMENT', 'trustAnchor', UNKNOWN('trustAnchor', 'trustAnchors'));
  refused(() => prepareEvidence({ ...evidence, devices: [evidence.devices[0], { evidnce: '00', certificate: 'x' }] }),
    'ERR_INVALID_ARGUMENT', 'devices[1].evidnce', UNKNOWN('evidnce', 'evidence'));
  // The unknown member is reported before a required member it may be a misspelling of.
  refused(() => prepareEvidence({ ...evidence, devics: [] }), 'ERR_INVALID_ARGUMENT', 'devics', UNKNOWN('devics', 'devices'));

  // Token verification, through the JS layer (backend and currentDate are its own) and the
  // wasm export it calls.
  const { privateKey, publicJwk } = await generateKeyPair({ backend: 'software', kid: 'k' });
  const jwks = { keys: [{ ...publicJwk, kid: 'k' }] };
  const token = await signJwt({ iss: 'a', iat: 1_700_000_000 }, privateKey, { kid: 'k' });
  privateKey.free();
  for (const backend of ['software', 'webcrypto']) {
    const good = await verifyJwt(token, jwks, { backend, now: 1_700_000_000, currentDate: new Date(0), issuer: 'a', signers: 'any' });
    assert.equal(good.payload.iss, 'a');
    await assert.rejects(verifyJwt(token, jwks, { backend, now: 1_700_000_000, isuer: 'a', signers: 'any' }),
      (error) => error.code === 'ERR_INVALID_ARGUMENT' && error.field === 'isuer' && UNKNOWN('isuer', 'issuer').test(error.message));
    await assert.rejects(verifyAttestationResult('[]', jwks, { backend, allowFailedResults: true }),
      (error) => error.code === 'ERR_INVALID_ARGUMENT' && error.field === 'allowFailedResults');
  }
  const keySet = new KeySet(JSON.stringify(jwks));
  refused(() => prepareJwtVerification(token, keySet, { now: 1_700_000_000, audiance: 'x' }),
    'ERR_INVALID_ARGUMENT', 'audiance', UNKNOWN('audiance', 'audience'));
  keySet.free();

  // Service construction, its requests, the host's answers and source states.
  refused(() => new AttestationService({ signingKey: key, trustAnchor: 'pem' }),
    'ERR_INVALID_ARGUMENT', 'trustAnchor', UNKNOWN('trustAnchor', 'trustAnchors'));
  refused(() => new AttestationService({ signingKey: key, ocspURL: null }), 'ERR_INVALID_ARGUMENT', 'ocspURL');
  const svc = service();
  refused(() => svc.handle({ method: 'GET', path: '/health', header: {} }, 0),
    'ERR_INVALID_ARGUMENT', 'request.header', UNKNOWN('header', 'headers'));
  refused(() => svc.setSourceState('rim', { reachable: true, lastErr: 'x' }), 'ERR_INVALID_ARGUMENT', 'state.lastErr');
  const exchange = svc.begin({ method: 'GET', path: '/health' }, 0);
  refused(() => exchange.fetched([{ bodi: new Uint8Array(1) }]), 'ERR_INVALID_ARGUMENT', 'answers[0].bodi');
  exchange.free();

  // A record takes any key (headers), and an undefined member is absent, not unknown.
  assert.equal(svc.handle({ method: 'GET', path: '/health', headers: { 'x-any-name': 'v' } }, 0).status, 200);
  assert.equal(new AttestationService({ signingKey: key, rimServiceUrl: null, ocspUrl: null, misspelt: undefined }).rimCount, 0);
});

test('an argument is read at a cost bounded by its size: lengths and member counts are checked before the walk', () => {
  const svc = service();
  const health = { method: 'GET', path: '/health' };
  // A sparse array is as long as it says: its length is refused before any element is read.
  const sparse = [];
  sparse.length = 2e6;
  refused(() => svc.handle({ ...health, headers: sparse }, 0), 'ERR_ARGUMENT_TOO_LARGE', 'request.headers',
    /request\.headers is too large: 2000000 elements, at most 65536 are read/);
  const proxied = new Proxy([], { get: (target, key) => (key === 'length' ? 2 ** 53 : Reflect.get(target, key)) });
  refused(() => svc.handle({ ...health, headers: proxied }, 0), 'ERR_ARGUMENT_TOO_LARGE', 'request.headers');
  // An object's keys, its prototype's with them, are counted before any member is read.
  const many = { ...health };
  for (let i = 0; i < 20000; i++) many[`k${i}`] = i;
  refused(() => svc.handle(many, 0), 'ERR_ARGUMENT_TOO_LARGE', 'request',
    /request is too large: 20002 members, at most 16384 are read/);
  const inherited = Object.create(Object.fromEntries(Array.from({ length: 10000 }, (_, i) => [`p${i}`, i])));
  Object.assign(inherited, Object.fromEntries(Array.from({ length: 10000 }, (_, i) => [`o${i}`, i])));
  refused(() => svc.handle(inherited, 0), 'ERR_ARGUMENT_TOO_LARGE', 'request', /20000 members/);
  // A shared value is copied each time it is met: a few small arrays nest into 16^8 reads,
  // refused once the whole copy has read its budget.
  let shared = ['x'];
  for (let i = 0; i < 8; i++) shared = new Array(16).fill(shared);
  assert.throws(() => svc.handle({ ...health, headers: shared }, 0), (error) => {
    assert.equal(error.code, 'ERR_ARGUMENT_TOO_LARGE', error.message);
    assert.match(error.field, /^request\.headers\[/);
    assert.match(error.message, /at most 262144 values in all are read/);
    return true;
  });
  // At the limits the value is read, and its members checked: the own key shadows the
  // prototype's (one set of the keys read), and an undeclared one is named.
  const atLimit = Object.create({ method: 'POST', extra: 1 });
  Object.assign(atLimit, health);
  for (let i = 0; i < 16384 - 4; i++) atLimit[`k${i}`] = i;
  refused(() => svc.handle(atLimit, 0), 'ERR_INVALID_ARGUMENT', 'request.k0', /unknown field `k0`/);
  const shadowed = Object.create({ method: 'POST', path: '/nowhere' });
  Object.assign(shadowed, health);
  assert.equal(svc.handle(shadowed, 0).status, 200);
  const long = new Array(65536).fill(['a', 'b']);
  try {
    svc.handle({ ...health, headers: long }, 0);
  } catch (error) {
    assert.notEqual(error.code, 'ERR_ARGUMENT_TOO_LARGE', error.message);
  }
});
