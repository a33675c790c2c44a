// The backend an operation runs on, and the key cache constructor users call: the argument
// checks of the WebCrypto layer, kept apart from webcrypto.js so that the verifier itself
// imports nothing (see there).
import { coded } from './error.js';
import { KEY_CACHE_LIMIT, keyCache } from './webcrypto.js';

/**
 * The backend an operation runs on: `requested`, or 'webcrypto' where `subtle` exists and
 * 'software' (P-384 in wasm) elsewhere. Anything else, or 'webcrypto' without crypto.subtle,
 * is ERR_INVALID_ARGUMENT on `backend`.
 */
export function chooseBackend(requested, subtle = globalThis.crypto?.subtle) {
  const backend = requested ?? (subtle ? 'webcrypto' : 'software');
  if (backend !== 'webcrypto' && backend !== 'software') throw coded('ERR_INVALID_ARGUMENT', "backend must be 'webcrypto' or 'software'", 'backend');
  if (backend === 'webcrypto' && !subtle) throw coded('ERR_INVALID_ARGUMENT', 'backend webcrypto: crypto.subtle is not available', 'backend');
  return backend;
}

/** A verification-key cache holding at most `limit` keys (default 512), least recently used out. */
export function createVerifyKeyCache(limit = KEY_CACHE_LIMIT) {
  if (!Number.isSafeInteger(limit) || limit < 1) throw coded('ERR_INVALID_ARGUMENT', 'limit must be a positive integer', 'limit');
  return keyCache(limit);
}
