// The backend an operation runs on (and the token functions' default), and the key cache
// constructor users call: the argument checks of the WebCrypto layer, kept apart from
// webcrypto.js so that the verifier itself imports nothing (see there).
import { coded } from './error.js';
import { KEY_CACHE_LIMIT, keyCache } from './webcrypto.js';

/** @import { VerifyKeyCache } from './webcrypto.js' */

/**
 * The backend an operation runs on: `requested`, or 'webcrypto' where `subtle` exists and
 * 'software' (P-384 in wasm) elsewhere. Throws `ERR_INVALID_ARGUMENT` (field `backend`)
 * otherwise, or for 'webcrypto' without crypto.subtle.
 * @param {'webcrypto' | 'software'} [requested]
 * @param {SubtleCrypto} [subtle]
 * @returns {'webcrypto' | 'software'}
 */
export function chooseBackend(requested, subtle = globalThis.crypto?.subtle) {
  const backend = requested ?? (subtle ? 'webcrypto' : 'software');
  if (backend !== 'webcrypto' && backend !== 'software') throw coded('ERR_INVALID_ARGUMENT', "backend must be 'webcrypto' or 'software'", 'backend');
  if (backend === 'webcrypto' && !subtle) throw coded('ERR_INVALID_ARGUMENT', 'backend webcrypto: crypto.subtle is not available', 'backend');
  return backend;
}

// The token functions' default backend (token.js's getTokenBackend / setTokenBackend), chosen
// for the crypto.subtle of the host as this module was loaded; keys.js's and token.js's
// operations take it unless their options name one.
const hostSubtle = globalThis.crypto?.subtle;
let defaultBackend = chooseBackend(undefined, hostSubtle);

/** The token functions' default backend. */
export function defaultTokenBackend() {
  return defaultBackend;
}

/**
 * Sets the token functions' default backend (none: the host's default again).
 * @param {'webcrypto' | 'software'} [backend]
 */
export function setDefaultTokenBackend(backend) {
  defaultBackend = chooseBackend(backend, hostSubtle);
}

/**
 * The backend of one token operation: `options.backend`, or the default.
 * @param {{ backend?: 'webcrypto' | 'software' }} [options]
 * @returns {'webcrypto' | 'software'}
 */
export function tokenBackendOf(options) {
  return options?.backend === undefined ? defaultBackend : chooseBackend(options.backend, hostSubtle);
}

/**
 * Creates a cache of imported WebCrypto verification keys holding at most `limit` keys
 * (default 512): the least recently used goes first. For hosts that pass their own
 * `subtle`, whose keys the package's shared cache does not hold.
 *
 * @param {number} [limit]
 * @returns {VerifyKeyCache}
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` (field `limit`) for anything but a positive
 * integer.
 *
 * @example
 * ```ts
 * const keyCache = createVerifyKeyCache(64); // handleRequest's `keyCache`, runSignatureChecks's `keys`
 * console.log(keyCache.size); // 0
 * ```
 */
export function createVerifyKeyCache(limit = KEY_CACHE_LIMIT) {
  if (!Number.isSafeInteger(limit) || limit < 1) throw coded('ERR_INVALID_ARGUMENT', 'limit must be a positive integer', 'limit');
  return keyCache(limit);
}
