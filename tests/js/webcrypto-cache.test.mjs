// The package's one WebCrypto verifier and its one key cache (src/js/webcrypto.js, issue 18):
// the cache is bounded (least recently used out), a cached key still verifies, a key
// WebCrypto refuses is not kept, and every verifier of the package (tokens, evidence, the
// service) answers the same for the same checks. Checked on Wycheproof ECDSA P-384 vectors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import { createVerifyKeyCache, runSignatureChecks, verifyChecksWebCrypto, verifyChecksSoftware } from '../../pkg/local/index.js';

const vectors = JSON.parse(readFileSync(new URL('../fixtures/vectors/wycheproof/ecdsa_secp384r1_sha384_p1363_test.json', import.meta.url), 'utf8'));
const hex = (text) => Uint8Array.from(Buffer.from(text, 'hex'));

/** Group `g`'s checks and their expected verdicts. */
function group(g) {
  const { publicKey, tests } = vectors.testGroups[g];
  const key = hex(publicKey.uncompressed);
  return {
    checks: tests.map((t) => ({ publicKey: key, message: hex(t.msg), signature: hex(t.sig) })),
    expected: tests.map((t) => t.result === 'valid'),
  };
}

/** crypto.subtle, counting its key imports. */
function countingSubtle() {
  const counter = { imports: 0 };
  counter.subtle = {
    importKey: (...args) => {
      counter.imports += 1;
      return webcrypto.subtle.importKey(...args);
    },
    verify: (...args) => webcrypto.subtle.verify(...args),
  };
  return counter;
}

test('the key cache is bounded: past its cap the size stays at the cap, the least recently used goes first', () => {
  const cache = createVerifyKeyCache(4);
  for (let i = 0; i < 10; i += 1) cache.set(`key${i}`, Promise.resolve(i));
  assert.equal(cache.size, 4);
  for (let i = 0; i < 6; i += 1) assert.equal(cache.get(`key${i}`), undefined, `key${i} evicted`);
  for (let i = 6; i < 10; i += 1) assert.ok(cache.get(`key${i}`), `key${i} kept`);

  // Used recently, kept: key6 is read, then two new keys push out key7 and key8.
  cache.get('key6');
  cache.set('new1', Promise.resolve());
  cache.set('new2', Promise.resolve());
  assert.equal(cache.size, 4);
  assert.ok(cache.get('key6'));
  assert.equal(cache.get('key7'), undefined);
  assert.equal(cache.get('key8'), undefined);

  // The default cap (the package's shared cache has the same).
  const standard = createVerifyKeyCache();
  for (let i = 0; i < 600; i += 1) standard.set(String(i), Promise.resolve(i));
  assert.equal(standard.size, 512);
  for (const limit of [0, -1, 1.5, Number.NaN, '8']) {
    assert.throws(() => createVerifyKeyCache(limit), { code: 'ERR_INVALID_ARGUMENT', field: 'limit' }, String(limit));
  }
});

test('a cached key still verifies: imported once, reused, and imported again after eviction', async () => {
  const counter = countingSubtle();
  const cache = createVerifyKeyCache(2);
  const [first, second, third] = [group(0), group(1), group(2)];
  assert.ok(first.expected.includes(true) && first.expected.includes(false), 'group 0 has valid and invalid vectors');

  assert.deepEqual(await runSignatureChecks(first.checks, counter.subtle, cache), first.expected);
  assert.equal(counter.imports, 1, 'one key, imported once for every check');
  assert.equal(cache.size, 1);
  assert.deepEqual(await runSignatureChecks(first.checks, counter.subtle, cache), first.expected);
  assert.equal(counter.imports, 1, 'the cached key verified: not imported again');

  // Two more keys push the first out of a cache of two; it is imported again and verifies.
  assert.deepEqual(await runSignatureChecks([...second.checks, ...third.checks], counter.subtle, cache), [...second.expected, ...third.expected]);
  assert.equal(cache.size, 2);
  assert.equal(counter.imports, 3);
  assert.deepEqual(await runSignatureChecks(first.checks, counter.subtle, cache), first.expected);
  assert.equal(counter.imports, 4);
  assert.equal(cache.size, 2);
});

test('a key WebCrypto refuses is a failed check and is not kept', async () => {
  const cache = createVerifyKeyCache(8);
  const { checks } = group(0);
  // 97 bytes, uncompressed form, not a point on the curve: well formed, refused at import.
  const offCurve = Uint8Array.of(0x04, ...new Uint8Array(96).fill(1));
  const verdicts = await runSignatureChecks([{ ...checks[0], publicKey: offCurve }, checks[0]], webcrypto.subtle, cache);
  assert.deepEqual(verdicts, [false, group(0).expected[0]]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(cache.size, 1, 'only the key that imported is kept');
});

test('one verifier: the token backend, runSignatureChecks and the software backend agree on every vector', async () => {
  const all = vectors.testGroups.map((_, g) => group(g));
  const checks = all.flatMap((g) => g.checks);
  const expected = all.flatMap((g) => g.expected);
  assert.equal(checks.length, 280);
  assert.deepEqual(await verifyChecksWebCrypto(checks), expected);
  assert.deepEqual(await runSignatureChecks(checks), expected);
  assert.deepEqual(verifyChecksSoftware(checks), expected);
});
