// WebCrypto signature checks for the two-phase verifications of the wasm core: no wasm import
// here, so every entry (the full package and the client) can share it.
const ECDSA_P384 = { name: 'ECDSA', namedCurve: 'P-384' };
const ECDSA_SHA384 = { name: 'ECDSA', hash: 'SHA-384' };

/**
 * A P-384 check WebCrypto may be asked about: an uncompressed SEC1 key (97 bytes) and an r||s
 * signature (96 bytes). Firefox's WebCrypto accepts some signatures of another size (the
 * 2-byte `0201` of Wycheproof ECDSA P-384 tcId 153 verifies there), so the size is checked
 * here, before any backend, and a check of another shape is a failed check everywhere.
 */
export function wellFormedCheck({ publicKey, signature }) {
  return publicKey?.length === 97 && publicKey[0] === 0x04 && signature?.length === 96;
}

/**
 * Runs signature checks ({publicKey SEC1, message, signature r||s}) with crypto.subtle.
 * `keys` keeps the imported keys (a Map, or a cache with get/set); by default they are kept
 * for this call only.
 */
export async function runSignatureChecks(checks, subtle = globalThis.crypto.subtle, keys = new Map()) {
  const keyFor = (sec1) => {
    const id = Array.prototype.map.call(sec1, (b) => b.toString(16).padStart(2, '0')).join('');
    let key = keys.get(id);
    if (!key) {
      key = subtle.importKey('raw', sec1, ECDSA_P384, false, ['verify']);
      keys.set(id, key);
    }
    return key;
  };
  return Promise.all(
    checks.map(async (check) => {
      if (!wellFormedCheck(check)) return false;
      try {
        return await subtle.verify(ECDSA_SHA384, await keyFor(check.publicKey), check.signature, check.message);
      } catch {
        return false; // an unimportable key or a malformed signature is a failed check
      }
    }),
  );
}
