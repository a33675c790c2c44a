import type { VerifyKeyCache } from './webcrypto.js';

/**
 * The backend an operation runs on: `requested`, or 'webcrypto' where `subtle` exists and
 * 'software' elsewhere. Throws `ERR_INVALID_ARGUMENT` (field `backend`) otherwise.
 */
export function chooseBackend(requested?: 'webcrypto' | 'software', subtle?: SubtleCrypto): 'webcrypto' | 'software';

/**
 * Creates a cache of imported WebCrypto verification keys holding at most `limit` keys
 * (default 512): the least recently used goes first. For hosts that pass their own
 * `subtle`, whose keys the package's shared cache does not hold.
 *
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` (field `limit`) for anything but a positive
 * integer.
 *
 * @example
 * ```ts
 * const keyCache = createVerifyKeyCache(64); // handleRequest's `keyCache`, runSignatureChecks's `keys`
 * console.log(keyCache.size); // 0
 * ```
 */
export function createVerifyKeyCache(limit?: number): VerifyKeyCache;
