// The edgeattest TEST PKI in the edge worker: development only. The worker holds its
// collateral (www/test-pki.js, bundled by pkg-config/bundle-worker.mjs) and hands it to the
// core with the bindings (readServiceBindings), whose rule (`HostSettings::add_test_pki`, as
// the service component applies it) adds it only with EDGEATTEST_TEST_PKI=on: its roots after
// the configured ones, its RIMs as `configured-roots/<id>.xml`, and its nonce-free OCSP
// answers by the core's cache key (`testPkiAnswers`), which the worker gives ahead of its
// cache. Its private keys are public: every token of a device rooted there says so (the
// core's warning for a root other than NVIDIA's).
import { TEST_PKI } from './test-pki.js';

/** The test PKI's collateral, for readServiceBindings. */
export { TEST_PKI };

/**
 * `cache` with the test PKI's OCSP answers (`testPkiAnswers`: DER by the core's cache key) in
 * front: a query the core names by one of their keys is answered from them; everything else
 * goes to `cache`. The fetch cache keys OCSP answers `ocsp:<cache key>` (src/js/fetch.js).
 */
export function withTestPkiAnswers(cache, answers) {
  const answerTo = (key) => (key.startsWith('ocsp:') ? answers.get(key.slice('ocsp:'.length)) : undefined);
  return {
    ...cache,
    get: (key, now) => {
      const body = answerTo(key);
      return body ? { body } : cache.get(key, now);
    },
  };
}
