// The wasm boundary under hostile values (issue 11): every function and class exported by the
// wasm module of the built package (pkg/edgeattest.js) is called with wrong types, huge
// strings, invalid UTF-8 bytes, lone surrogates, null, undefined, symbols, BigInts and
// getters that throw. Properties:
//   1. the instance keeps working after every call (a known-good request still validates);
//   2. no call traps (WebAssembly.RuntimeError: a Rust panic or a glue fault);
//   3. every refusal is an Error with a string `code` (ERR_*).
// (1) and (2) hold for every export. Where (3) does not hold yet, the subtest is marked
// `todo` with the reason, so that the run reports it without failing; KNOWN lists them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import '../../pkg/index.js';
import * as wasm from '../../pkg/edgeattest.js';

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

// Exports where (3) does not hold, with the reason (wasm-bindgen's glue, before any of our
// code runs; see the report of issue 11). String, number and byte parameters are `JsValue`s
// checked in the binding (src/wasm/js.rs), so no export traps any more; the glue still
// checks class-typed parameters itself (`_assertClass`: a plain Error without a code), and a
// class without a constructor can be instantiated with `new` into an empty object whose
// methods throw "null pointer passed to rust".
const GLUE_CLASS = 'wasm-bindgen glue: a wrong class instance throws an Error without a code';
const GLUE_NO_CONSTRUCTOR =
  'wasm-bindgen glue: `new` on a class without a constructor gives an empty object whose methods throw without a code';
const KNOWN = {
  EvidenceBatch: GLUE_NO_CONSTRUCTOR,
  ListTable: GLUE_NO_CONSTRUCTOR,
  P384PrivateKey: GLUE_NO_CONSTRUCTOR,
  P384PublicKey: GLUE_NO_CONSTRUCTOR,
  PendingRim: GLUE_NO_CONSTRUCTOR,
  ServiceExchange: GLUE_NO_CONSTRUCTOR,
  TokenVerification: GLUE_NO_CONSTRUCTOR,
  VerifiedRim: GLUE_NO_CONSTRUCTOR,
  compareGpuRims: GLUE_CLASS,
  compareSwitchRim: GLUE_CLASS,
  createDetachedEatSoftware: GLUE_CLASS,
  prepareAttestationResultVerification: GLUE_CLASS,
  prepareJwtVerification: GLUE_CLASS,
  signJwtSoftware: GLUE_CLASS,
};

function stillWorks() {
  const request = wasm.validateAttestRequest('/v3/attest/gpu', goodBody);
  assert.equal(request.devices.length, 1);
  assert.match(wasm.generateNonce(), /^[0-9a-f]{64}$/);
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

const exports = Object.entries(wasm).filter(
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

test('the wasm module exports the functions under test', () => {
  assert.ok(exports.length >= 40, `${exports.length} exports`);
  stillWorks();
});

for (const [name, fn] of exports) {
  test(`${name}: the instance keeps working after every hostile call`, () => {
    for (const [label, args] of Object.entries(HOSTILE)) {
      call(name, fn, args);
      assert.doesNotThrow(stillWorks, `${name}(${label}) broke the instance`);
    }
  });

  test(`${name}: no hostile call traps`, () => {
    const traps = [];
    for (const [label, args] of Object.entries(HOSTILE)) {
      const outcome = call(name, fn, args);
      if (!outcome.ok && outcome.error instanceof WebAssembly.RuntimeError) {
        traps.push(`${label}: ${outcome.error.message}`);
      }
    }
    assert.deepEqual(traps, [], `${name} traps:\n  ${traps.join('\n  ')}`);
  });

  test(`${name}: every refusal carries an ERR_* code`, { todo: KNOWN[name] }, () => {
    const problems = [];
    for (const [label, args] of Object.entries(HOSTILE)) {
      const outcome = call(name, fn, args);
      if (outcome.ok) continue;
      const { error } = outcome;
      if (!(error instanceof Error) || typeof error.code !== 'string' || !error.code.startsWith('ERR_')) {
        problems.push(`${label}: ${error?.constructor?.name} without a code: ${String(error?.message).slice(0, 80)}`);
      }
    }
    assert.deepEqual(problems, [], `${name}:\n  ${problems.join('\n  ')}`);
  });
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
