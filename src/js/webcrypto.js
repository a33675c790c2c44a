// The package's one WebCrypto verifier for ECDSA P-384/SHA-384: the verifier of the core's
// signature checks and the cache of imported verification keys. No import at all: every
// entry (the full package and the client) shares it, and the wasm test suites load this very
// file as a wasm-bindgen snippet (which cannot carry its imports along). token.js, evidence.js
// and service.js all verify through runSignatureChecks; the choice of backend and the
// checked cache constructor, which throw coded errors, are in backend.js.

/**
 * One ECDSA P-384/SHA-384 check: SEC1 public key, message, raw r||s signature.
 * @typedef {{ publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array }} WebCryptoCheck
 */

/**
 * A bounded cache of imported WebCrypto verification keys (a `Map` also fits). `delete`, when
 * present, drops a key WebCrypto refused.
 * @typedef {{
 *   get(id: string): Promise<CryptoKey> | undefined;
 *   set(id: string, key: Promise<CryptoKey>): void;
 *   delete?(id: string): boolean;
 *   readonly size: number;
 * }} VerifyKeyCache
 */

export const ECDSA_P384 = { name: 'ECDSA', namedCurve: 'P-384' };
export const ES384 = { name: 'ECDSA', hash: 'SHA-384' };
/** Imported verification keys kept (device, RIM and service keys recur across requests). */
export const KEY_CACHE_LIMIT = 512;

const defaultSubtle = () => globalThis.crypto?.subtle;

/**
 * A P-384 check WebCrypto may be asked about: an uncompressed SEC1 key (97 bytes) and an r||s
 * signature (96 bytes). Firefox's WebCrypto accepts some signatures of another size (the
 * 2-byte `0201` of Wycheproof ECDSA P-384 tcId 153 verifies there), so the size is checked
 * here, before any backend, and a check of another shape is a failed check everywhere.
 * @param {{ publicKey?: Uint8Array; signature?: Uint8Array }} check
 * @returns {boolean}
 */
export function wellFormedCheck({ publicKey, signature }) {
  return publicKey?.length === 97 && publicKey[0] === 0x04 && signature?.length === 96;
}

/**
 * A cache of imported verification keys (promises of CryptoKeys) by SEC1 bytes, holding at
 * most `limit` (a positive integer: backend.js's createVerifyKeyCache checks it): least
 * recently used first out, so a stream of new keys cannot grow it and cannot push out the CA
 * keys every request uses.
 * @param {number} [limit]
 * @returns {VerifyKeyCache & { delete(id: string): boolean }}
 */
export function keyCache(limit = KEY_CACHE_LIMIT) {
  const entries = new Map();
  return {
    get(id) {
      const key = entries.get(id);
      if (key !== undefined) {
        entries.delete(id);
        entries.set(id, key);
      }
      return key;
    },
    set(id, key) {
      entries.delete(id);
      if (entries.size >= limit) entries.delete(entries.keys().next().value);
      entries.set(id, key);
    },
    delete(id) {
      return entries.delete(id);
    },
    get size() {
      return entries.size;
    },
  };
}

// Keys imported by the global crypto.subtle; a caller's own SubtleCrypto (a test double, a
// polyfill) gets a cache per call, since its keys mean nothing to another implementation.
const sharedKeys = keyCache();

const idOf = (sec1) => String.fromCharCode.apply(null, sec1);

// The CryptoKey each cached import gave, by its promise: a check whose key is imported is
// handed to WebCrypto within the call, not a microtask later, so that its verification runs
// while the caller goes on with the work that does not need its verdict.
const importedKeys = new WeakMap();

/**
 * Runs ECDSA P-384/SHA-384 signature checks with WebCrypto (`crypto.subtle` by default); one
 * verdict per check, in order. A key or signature of another size, or a key WebCrypto
 * refuses, is a failed check, not a rejection. `keys`: default the package's shared cache
 * (512 keys) for the global crypto.subtle, this call only for another. Every check whose key
 * is already imported is started before this returns.
 *
 * @param {WebCryptoCheck[]} checks
 * @param {SubtleCrypto} [subtle]
 * @param {Pick<VerifyKeyCache, 'get' | 'set'> & Partial<Pick<VerifyKeyCache, 'delete'>>} [keys]
 * @returns {Promise<boolean[]>}
 *
 * @example
 * ```ts
 * declare const evidence: string, certificate: string, nonce: string;
 * const batch = prepareEvidence({ devices: [{ evidence, certificate }], nonce, arch: 'HOPPER' });
 * const results = batch.finish(await runSignatureChecks(batch.signatureChecks()));
 * batch.free();
 * ```
 */
export async function runSignatureChecks(checks, subtle = defaultSubtle(), keys = subtle === defaultSubtle() ? sharedKeys : new Map()) {
  const keyFor = (sec1) => {
    const id = idOf(sec1);
    let key = keys.get(id);
    if (!key) {
      key = Promise.resolve().then(() => subtle.importKey('raw', sec1, ECDSA_P384, false, ['verify']));
      keys.set(id, key);
      key.then((imported) => importedKeys.set(key, imported), () => {
        // A key WebCrypto refuses is not kept (the core refuses off-curve points first).
        if (keys.get(id) === key) keys.delete?.(id);
      });
    }
    return key;
  };
  // The body of an async function runs synchronously up to its first await: every check
  // with an imported key reaches subtle.verify before runSignatureChecks returns.
  return Promise.all(
    checks.map((check) => {
      if (!wellFormedCheck(check)) return false;
      const verify = (key) => subtle.verify(ES384, key, check.signature, check.message);
      const pending = keyFor(check.publicKey);
      const key = importedKeys.get(pending);
      let verdict;
      try {
        verdict = key ? verify(key) : Promise.resolve(pending).then(verify);
      } catch {
        return false; // a SubtleCrypto that throws instead of rejecting
      }
      // An unimportable key or a malformed signature is a failed check.
      return Promise.resolve(verdict).catch(() => false);
    }),
  );
}
