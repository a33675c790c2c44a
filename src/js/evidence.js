// Device evidence with the WebCrypto backend: the wasm core parses the transcripts and builds
// the certificate paths, hands over the distinct ECDSA P-384/SHA-384 checks, WebCrypto runs
// them in parallel, and the core completes every device with the verdicts.
import { prepareEvidence } from './edgeattest.js';

const ECDSA_P384 = { name: 'ECDSA', namedCurve: 'P-384' };
const ECDSA_SHA384 = { name: 'ECDSA', hash: 'SHA-384' };

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
      try {
        return await subtle.verify(ECDSA_SHA384, await keyFor(check.publicKey), check.signature, check.message);
      } catch {
        return false; // an unimportable key or a malformed signature is a failed check
      }
    }),
  );
}

/**
 * verifyEvidence for several devices of one request with WebCrypto signatures; resolves to
 * one `{ ok, report | error }` per device, in order.
 */
export async function verifyEvidenceBatch(options, subtle) {
  const batch = prepareEvidence(options);
  try {
    const verdicts = await runSignatureChecks(batch.signatureChecks(), subtle);
    return batch.finish(verdicts);
  } finally {
    batch.free();
  }
}
