// readServiceBindings(env) in edgeattest/service: the core's reading of the EDGEATTEST_*
// variables, as the edge worker and the service component use it (Rust cases:
// tests/it/service/bindings.rs). Its result feeds AttestationService as it is: defaults
// absent, a source switched off null, a RIM service base given NVIDIA's path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AttestationService, EdgeAttestError, P384PrivateKey, readServiceBindings } from '../../pkg/service/index.js';

const KEY = P384PrivateKey.generate().toPkcs8Pem();

test('defaults are absent, so the core keeps its own', () => {
  const bindings = readServiceBindings({ EDGEATTEST_SIGNING_KEY: KEY, EDGEATTEST_ISSUER: '' });
  assert.deepEqual(bindings, {
    options: { signingKey: KEY, requireFwid: false },
    crypto: 'webcrypto', ocspTimeoutMs: 5000, fetchCache: true, rimDocuments: [], testPki: false,
  });
  assert.ok(new AttestationService(bindings.options));
});

test('every variable reaches its member; off is null; non-strings (KV, ASSETS) are not variables', () => {
  const bindings = readServiceBindings({
    EDGEATTEST_SIGNING_KEY: KEY, EDGEATTEST_CRYPTO: 'software', EDGEATTEST_FIXED_TIME: '2026-06-01T00:00:00Z',
    EDGEATTEST_ISSUER: 'https://nras.example', EDGEATTEST_REQUIRE_FWID: 'on', EDGEATTEST_RIM_SERVICE_URL: 'https://rim.example',
    EDGEATTEST_OCSP_URL: 'off', EDGEATTEST_OCSP_TIMEOUT_MS: '750', EDGEATTEST_FETCH_CACHE: 'off', EDGEATTEST_BUNDLED_RIMS: 'off',
    EDGEATTEST_RIM_DOCUMENTS: '[{"name": "a.xml", "xml": "<a/>"}]', EDGEATTEST_TEST_PKI: 'on',
    EDGEATTEST_POLICY: { get() {} }, ASSETS: { fetch() {} },
  });
  assert.deepEqual(bindings, {
    options: {
      signingKey: KEY, issuer: 'https://nras.example', requireFwid: true,
      rimServiceUrl: 'https://rim.example/v1/rim/', ocspUrl: null, fetchCache: false,
    },
    crypto: 'software', fixedTime: 1_780_272_000, ocspTimeoutMs: 750, fetchCache: false, bundledRims: false,
    rimDocuments: [{ name: 'a.xml', xml: '<a/>' }], testPki: true,
  });
  assert.ok(new AttestationService(bindings.options));
});

test('a missing key and values that mean nothing throw coded errors', () => {
  const cases = [
    [{}, 'ERR_NO_SIGNING_KEY', 'EDGEATTEST_SIGNING_KEY is not configured'],
    [{ EDGEATTEST_SIGNING_KEY: KEY, EDGEATTEST_CRYPTO: 'hsm' }, 'ERR_CONFIG', 'EDGEATTEST_CRYPTO must be one of webcrypto, software, not hsm'],
    [{ EDGEATTEST_SIGNING_KEY: KEY, EDGEATTEST_FIXED_TIME: 'yesterday' }, 'ERR_CONFIG', 'EDGEATTEST_FIXED_TIME is not an RFC 3339 time or Unix seconds: yesterday'],
    [{ EDGEATTEST_SIGNING_KEY: KEY, EDGEATTEST_FETCH_CACHE: 'maybe' }, 'ERR_CONFIG', 'EDGEATTEST_FETCH_CACHE must be on or off, not maybe'],
    [{ EDGEATTEST_SIGNING_KEY: KEY, EDGEATTEST_TEST_PKI: 'yes' }, 'ERR_CONFIG', 'EDGEATTEST_TEST_PKI must be on or off, not yes'],
  ];
  for (const [env, code, message] of cases) {
    assert.throws(() => readServiceBindings(env), (e) => e instanceof EdgeAttestError && e.code === code && e.message === message);
  }
  for (const bad of [null, undefined, 'EDGEATTEST_SIGNING_KEY']) {
    assert.throws(() => readServiceBindings(bad), (e) => e instanceof EdgeAttestError && e.code === 'ERR_INVALID_ARGUMENT' && e.field === 'env');
  }
});
