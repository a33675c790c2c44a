// The wasm boundary under hostile values (issue 11): every function and class exported by the
// service module (pkg/service/edgeattest.js, whose exports include the local verifier's of
// `edgeattest/local`) and by the default one (pkg/edgeattest.js of `edgeattest`) is called with wrong types, huge
// strings, invalid UTF-8 bytes, lone surrogates, null, undefined, symbols, BigInts and
// getters that throw. Properties:
//   1. the instance keeps working after every call (a known-good request still validates);
//   2. no call traps (WebAssembly.RuntimeError: a Rust panic or a glue fault);
//   3. every refusal is an Error with a string `code` (ERR_*).
// The glue wasm-bindgen generates refuses some values itself, before our Rust code runs (a
// wrong class instance, `new` on a class without a constructor, a freed instance);
// pkg-config/harden-glue.mjs gives those refusals the same coded errors (ERR_INVALID_ARGUMENT).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import '../../pkg/service/index.js';
import * as wasm from '../../pkg/service/edgeattest.js';
import '../../pkg/index.js';
import * as defaultWasm from '../../pkg/edgeattest.js';

const fixture = (path) => readFileSync(new URL(`../fixtures/nvidia/${path}`, import.meta.url), 'utf8');
const goodBody = fixture('nras/teep/v3_1gpu_success_20260629_request.json');

const throwingGetter = new Proxy({}, { get() { throw new Error('hostile getter'); } });
const HOSTILE = {
  'no arguments': [],
  undefined: [undefined],
  null: [null],
  'a number': [42],
  'a negative number': [-1],
  NaN: [NaN],
  Infinity: [Infinity],
  'a huge string (8 MiB)': ['x'.repeat(8 << 20)],
  'invalid UTF-8 bytes': [new Uint8Array([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80])],
  'a lone surrogate': ['\ud800x'],
  'an empty object': [{}],
  'an empty array': [[]],
  'a symbol': [Symbol('hostile')],
  'a BigInt': [2n ** 70n],
  'a function': [() => 1],
  'an object whose getters throw': [throwingGetter],
  'nulls everywhere': [null, null, null, null, null],
  'objects everywhere': [{}, {}, {}, {}, {}],
  'strings everywhere': ['x', 'y', 'z', 'w', 'v'],
  'numbers everywhere': [1, 2, 3, 4, 5],
};

function stillWorks(module = wasm) {
  const request = module.validateAttestRequest('/v3/attest/gpu', goodBody);
  assert.equal(request.devices.length, 1);
  assert.match(module.generateNonce(), /^[0-9a-f]{64}$/);
}

function call(name, fn, args) {
  const isClass = /^[A-Z]\w*$/.test(name);
  try {
    const value = isClass ? new fn(...args) : fn(...args);
    // A class instance made here is used once more: every method with the same values.
    if (isClass) {
      for (const method of Object.getOwnPropertyNames(fn.prototype)) {
        if (method === 'constructor' || method === 'free' || typeof value[method] !== 'function') continue;
        try {
          value[method](...args);
        } catch (error) {
          return { ok: false, error };
        }
      }
    }
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The functions, classes and static methods a module exports. */
function exportsOf(module) {
  const exports = Object.entries(module).filter(
    ([name, fn]) => typeof fn === 'function' && name !== 'initSync' && name !== 'default',
  );
  // Static methods of the classes (P384PublicKey.fromSec1, ...), called as functions.
  for (const [name, cls] of [...exports]) {
    if (!/^[A-Z]/.test(name)) continue;
    for (const method of Object.getOwnPropertyNames(cls)) {
      if (typeof cls[method] === 'function' && !method.startsWith('__')) {
        exports.push([`${name}.${method}`, (...args) => cls[method](...args)]);
      }
    }
  }
  return exports;
}

const MODULES = [
  ['', wasm, 40],
  ['default: ', defaultWasm, 15],
];

for (const [prefix, module, least] of MODULES) {
  const exports = exportsOf(module);
  const works = () => stillWorks(module);

  test(`${prefix}the wasm module exports the functions under test`, () => {
    assert.ok(exports.length >= least, `${exports.length} exports`);
    works();
  });

  for (const [name, fn] of exports) {
    test(`${prefix}${name}: the instance keeps working after every hostile call`, () => {
      for (const [label, args] of Object.entries(HOSTILE)) {
        call(name, fn, args);
        assert.doesNotThrow(works, `${prefix}${name}(${label}) broke the instance`);
      }
    });

    test(`${prefix}${name}: no hostile call traps`, () => {
      const traps = [];
      for (const [label, args] of Object.entries(HOSTILE)) {
        const outcome = call(name, fn, args);
        if (!outcome.ok && outcome.error instanceof WebAssembly.RuntimeError) {
          traps.push(`${label}: ${outcome.error.message}`);
        }
      }
      assert.deepEqual(traps, [], `${prefix}${name} traps:\n  ${traps.join('\n  ')}`);
    });

    test(`${prefix}${name}: every refusal carries an ERR_* code`, () => {
      const problems = [];
      for (const [label, args] of Object.entries(HOSTILE)) {
        const outcome = call(name, fn, args);
        if (outcome.ok) continue;
        const { error } = outcome;
        if (!(error instanceof Error) || typeof error.code !== 'string' || !error.code.startsWith('ERR_')) {
          problems.push(`${label}: ${error?.constructor?.name} without a code: ${String(error?.message).slice(0, 80)}`);
        }
      }
      assert.deepEqual(problems, [], `${prefix}${name}:\n  ${problems.join('\n  ')}`);
    });
  }
}

test('hostile values inside otherwise valid options are refused with a code', () => {
  const hostileMembers = [null, 42, {}, [], 'x'.repeat(3 << 20), new Uint8Array([0xff, 0xfe]), 2n, Symbol('s')];
  const cases = [
    (v) => wasm.validateAttestRequest('/v4/attest/gpu', { nonce: v, arch: 'HOPPER', evidence_list: [] }),
    (v) => wasm.validateAttestRequest('/v4/attest/gpu', v),
    (v) => wasm.verifyEvidence({ evidence: v, certificate: v, arch: 'HOPPER', nonce: v }),
    (v) => wasm.verifyCertificateChain({ certificate: v }),
    (v) => wasm.verifyRim(v, undefined),
    (v) => wasm.buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: v, nonce: v, evidence: [v] }),
    (v) => wasm.gatewayDecision({ method: v, target: v, authorization: v }, v, 0),
  ];
  for (const [i, run] of cases.entries()) {
    for (const value of hostileMembers) {
      try {
        run(value);
      } catch (error) {
        assert.ok(!(error instanceof WebAssembly.RuntimeError), `case ${i}: trap on ${String(value).slice(0, 20)}`);
        assert.equal(typeof error.code, 'string', `case ${i} (${typeof value}): ${error.message}`);
      }
      stillWorks();
    }
  }
});

// The glue's own refusals, one by one (pkg-config/harden-glue.mjs): each is an
// ERR_INVALID_ARGUMENT, and the genuine instances involved keep working afterwards.
function assertCoded(run, field, message) {
  assert.throws(run, (error) => {
    assert.ok(error instanceof Error && !(error instanceof WebAssembly.RuntimeError));
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, 'ERR_INVALID_ARGUMENT');
    assert.equal(error.field, field);
    assert.match(error.message, message);
    return true;
  });
}

test('a class parameter refuses an instance of another class, a look-alike and a freed instance', () => {
  const key = wasm.P384PrivateKey.generate();
  const publicKey = key.publicKey();
  const jwks = { keys: [publicKey.toJwk('k1')] };
  const keySet = new wasm.KeySet(jwks);
  const claims = { iss: 'edgeattest-test', iat: 1_700_000_000 };

  assertCoded(() => wasm.signJwtSoftware(claims, publicKey, 'k1'), 'key', /^key must be a P384PrivateKey$/);
  assertCoded(() => wasm.signJwtSoftware(claims, keySet, 'k1'), 'key', /P384PrivateKey/);
  assertCoded(() => wasm.signJwtSoftware(claims, { __wbg_ptr: key.__wbg_ptr }, 'k1'), 'key', /P384PrivateKey/);
  assertCoded(() => wasm.prepareJwtVerification('a.b.c', key, { now: 0 }), 'keySet', /^keySet must be a KeySet$/);
  assertCoded(() => wasm.compareSwitchRim(keySet, {}), 'firmware', /^firmware must be a VerifiedRim$/);
  assertCoded(() => wasm.compareGpuRims(key, key, {}), 'driver', /VerifiedRim/);

  // The genuine objects still work: sign, then verify with the key set.
  const token = wasm.signJwtSoftware(claims, key, 'k1');
  const verified = wasm.prepareJwtVerification(token, keySet, { now: 1_700_000_000, signers: 'any' }).verifySoftware();
  assert.equal(verified.payload.iss, 'edgeattest-test');
  assert.equal(verified.kid, 'k1');

  // A freed instance passes `instanceof` but holds no object any more.
  const freed = wasm.P384PrivateKey.generate();
  freed.free();
  assertCoded(() => wasm.signJwtSoftware(claims, freed, 'k1'), 'key', /^key must be a live P384PrivateKey/);
  const freedSet = new wasm.KeySet(jwks);
  freedSet.free();
  assertCoded(() => wasm.prepareJwtVerification(token, freedSet, { now: 1_700_000_000 }), 'keySet', /live KeySet/);
  // Its own methods are refused by the runtime, with the same code.
  assert.throws(() => freed.toJwk('k1'), (error) => error.code === 'ERR_INVALID_ARGUMENT' && error.name === 'EdgeAttestError');
  assert.throws(() => freed.free(), (error) => error.code === 'ERR_INVALID_ARGUMENT');

  assert.equal(wasm.signJwtSoftware(claims, key, 'k1').split('.').length, 3);
  stillWorks();
});

test('`new` on a class without a constructor throws a coded error naming the factories', () => {
  const noConstructor = ['EarVerification', 'EvidenceBatch', 'ListTable', 'P384PrivateKey', 'P384PublicKey', 'PendingRim', 'ServiceExchange', 'TokenVerification', 'VerifiedRim'];
  for (const name of noConstructor) {
    assertCoded(() => new wasm[name](), undefined, new RegExp(`^${name} has no constructor: `));
  }
  for (const name of ['P384PrivateKey', 'P384PublicKey', 'TokenVerification']) {
    assertCoded(() => new defaultWasm[name](), undefined, new RegExp(`^${name} has no constructor: `));
  }
  assertCoded(() => new wasm.P384PrivateKey(), undefined, /P384PrivateKey\.generate\(\)/);
  assertCoded(() => new wasm.ListTable(), undefined, /ListTable\.fromJson\(\)/);
  // Factories still make working instances (they do not go through the constructor).
  const key = wasm.P384PrivateKey.generate();
  assert.equal(key.sign(new Uint8Array([1, 2, 3])).length, 96);
  assert.ok(key instanceof wasm.P384PrivateKey);
  // Classes with a real constructor are unchanged.
  assert.deepEqual(new wasm.KeySet({ keys: [key.publicKey().toJwk('a')] }).kids, ['a']);
  stillWorks();
});
