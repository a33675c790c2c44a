// The edgeattest TEST PKI in the edge worker: development only. With EDGEATTEST_TEST_PKI=on
// (read by the core with the other bindings, `testPki`, as the service component reads it;
// pkg-config/start.sh sets it for the main job when no EDGEATTEST_SIGNING_KEY is configured;
// a deployment never has it unless set), the service also trusts the test PKI's device and RIM
// roots, holds its test devices' RIMs, and answers OCSP queries about its certificates from
// nonce-free ten-year answers bundled with it — so the page's samples pass offline with RIMs
// compared and revocation checked. Its private keys are public: every token of a device
// rooted there says so (the core's warning for a root other than NVIDIA's). What `on` adds is
// the core's rule (`HostSettings::add_test_pki`, which the service component applies): roots
// after the configured ones, RIMs as `configured-roots/<id>.xml`, answers by OCSP cache key.
import { TEST_PKI } from './test-pki.js';

/** The bindings with the test PKI's roots added to the configured anchors. */
export function withTestPkiRoots(env) {
  const join = (configured, added) => (configured ? `${configured}\n${added}` : added);
  return {
    ...env,
    EDGEATTEST_TRUST_ANCHORS: join(env.EDGEATTEST_TRUST_ANCHORS, TEST_PKI.deviceRoots),
    EDGEATTEST_RIM_TRUST_ANCHORS: join(env.EDGEATTEST_RIM_TRUST_ANCHORS, TEST_PKI.rimRoots),
  };
}

/** The test devices' RIM documents, [{ name, xml }]. */
export const testPkiRims = () => TEST_PKI.rims;

const base64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
let answers;

/**
 * `cache` with the test PKI's OCSP answers in front: a query about one of its certificates
 * (the fetch-cache key names issuer key hash and serial, so no other certificate matches) is
 * answered from them, as fetched now (they carry no nonce); everything else goes to `cache`.
 */
export function withTestPkiAnswers(cache) {
  answers ??= new Map(Object.entries(TEST_PKI.ocsp).map(([key, response]) => [`ocsp:${key}`, base64(response)]));
  return {
    ...cache,
    get: (key, now) => (answers.has(key) ? { body: answers.get(key) } : cache.get(key, now)),
  };
}

export const TEST_PKI_LABEL = TEST_PKI.label;
