import type { VerifyKeyCache } from './webcrypto.js';

/**
 * The backend an operation runs on: `requested`, or 'webcrypto' where `subtle` exists and
 * 'software' elsewhere. Throws `ERR_INVALID_ARGUMENT` (field `backend`) otherwise.
 */
export function chooseBackend(requested?: 'webcrypto' | 'software', subtle?: SubtleCrypto): 'webcrypto' | 'software';

/**
 * Creates a key cache holding at most `limit` keys (default 512): the least recently used
 * goes first. Throws `ERR_INVALID_ARGUMENT` (field `limit`) for anything but a positive
 * integer.
 */
export function createVerifyKeyCache(limit?: number): VerifyKeyCache;
