// readServiceBindings(env, testPki) in edgeattest/service: EDGEATTEST_TEST_PKI=on adds the
// edgeattest TEST PKI's collateral the host hands over by the core's rule
// (HostSettings::add_test_pki; Rust cases: tests/it/service/test_pki.rs), as the edge worker
// uses it (www/worker-test-pki.js). On the real collateral (tests/fixtures/generated/ocsp and
// demo/), in the form pkg-config/bundle-worker.mjs bundles it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EdgeAttestError, P384PrivateKey, readServiceBindings } from '../../pkg/service/index.js';

const KEY = P384PrivateKey.generate().toPkcs8Pem();
const generated = (path) => readFileSync(new URL(`../fixtures/generated/${path}`, import.meta.url), 'utf8');
const DRIVER = 'NV_GPU_DRIVER_GH100_550.90.07';
const ANSWERS = generated('demo/ocsp_answers.json');
const PKI = {
  label: 'edgeattest TEST PKI',
  deviceRoots: generated('ocsp/root.pem'),
  rimRoots: generated('ocsp/rim_root.pem'),
  rims: [{ id: DRIVER, xml: generated(`ocsp/rims/${DRIVER}.xml`) }],
  ocspAnswers: ANSWERS,
};
const ON = { EDGEATTEST_SIGNING_KEY: KEY, EDGEATTEST_TEST_PKI: 'on' };
const coded = (code, field) => (e) => e instanceof EdgeAttestError && e.code === code && (field === undefined || e.field === field);

test('on: its roots after the configured ones, its RIMs first as configured roots, its answers by cache key', () => {
  const bindings = readServiceBindings(
    { ...ON, EDGEATTEST_TRUST_ANCHORS: 'DEVICE', EDGEATTEST_RIM_DOCUMENTS: '[{"name": "a.xml", "xml": "<a/>"}]' },
    PKI,
  );
  assert.equal(bindings.options.trustAnchors, `DEVICE\n${PKI.deviceRoots}`);
  assert.equal(bindings.options.rimTrustAnchors, PKI.rimRoots);
  assert.deepEqual(bindings.rimDocuments, [
    { name: `configured-roots/${DRIVER}.xml`, xml: PKI.rims[0].xml },
    { name: 'a.xml', xml: '<a/>' },
  ]);
  const answers = bindings.testPkiAnswers;
  const expected = JSON.parse(ANSWERS);
  assert.ok(answers instanceof Map);
  assert.deepEqual([...answers.keys()].sort(), Object.keys(expected).sort());
  for (const [key, { response }] of Object.entries(expected)) {
    assert.ok(answers.get(key) instanceof Uint8Array);
    assert.deepEqual(Buffer.from(answers.get(key)), Buffer.from(response, 'base64'));
  }
});

test('off, unset, or no collateral: nothing of it is added', () => {
  for (const env of [{ EDGEATTEST_SIGNING_KEY: KEY }, { EDGEATTEST_SIGNING_KEY: KEY, EDGEATTEST_TEST_PKI: 'off' }]) {
    const bindings = readServiceBindings(env, PKI);
    assert.equal(bindings.testPki, false);
    assert.equal(bindings.options.trustAnchors, undefined);
    assert.equal(bindings.options.rimTrustAnchors, undefined);
    assert.deepEqual(bindings.rimDocuments, []);
    assert.equal('testPkiAnswers' in bindings, false);
  }
  for (const none of [undefined, null]) {
    const bindings = readServiceBindings(ON, none);
    assert.equal(bindings.testPki, true);
    assert.deepEqual(bindings.rimDocuments, []);
    assert.equal('testPkiAnswers' in bindings, false);
  }
});

test('collateral that does not read throws coded errors, never a partial trust', () => {
  assert.throws(() => readServiceBindings(ON, { ...PKI, ocspAnswers: '{"k": {"certificate": "c", "response": "not base64!"}}' }), coded('ERR_CONFIG'));
  assert.throws(() => readServiceBindings(ON, { ...PKI, ocspAnswers: '{"k": {"response": "AA=="}}' }), coded('ERR_CONFIG'));
  assert.throws(() => readServiceBindings(ON, { ...PKI, ocspAnswers: '[' }), coded('ERR_CONFIG'));
  const noRims = Object.fromEntries(Object.entries(PKI).filter(([name]) => name !== 'rims'));
  for (const bad of ['collateral', noRims, { ...PKI, extra: 1 }, { ...PKI, rims: [{ name: 'x.xml', xml: '<a/>' }] }]) {
    assert.throws(() => readServiceBindings(ON, bad), coded('ERR_INVALID_ARGUMENT'), JSON.stringify(bad).slice(0, 80));
  }
});
