// The host side of the verified collateral mirror: the RIM envelopes an exchange verified
// (exchange.verifiedRims()) are kept in the fetch cache under their own key prefix
// (`mirror-rim:<id>`), beside the OCSP answers it verified (`ocsp:<cacheKey>`), which the
// mirror's responder serves. What is served is decided by the core (AttestationService
// .mirrorRim, mirrorOcspKey): a kept envelope is verified again each time it is served.
import { defaultFetchCache } from './fetch.js';

/** @import { FetchCache } from './fetch.js' */
/** @import { MirrorEntry } from './edgeattest.js' */

/**
 * The fetch cache's key of RIM `id`'s verified envelope (what `cacheMirrored` keeps).
 * @param {string} id
 * @returns {string}
 *
 * @example
 * ```ts
 * const cache = createFetchCache();
 * const kept = await cache.get(mirrorRimKey('NV_SWITCH_BIOS_5612_0002_890_9610550001'), Math.floor(Date.now() / 1000));
 * ```
 */
export function mirrorRimKey(id) {
  return `mirror-rim:${id}`;
}

/**
 * Keeps the RIM envelopes the core verified (`exchange.verifiedRims()`, or a `mirrorRim`
 * answer's `store`) for the mirror, each until its `until`.
 * @param {MirrorEntry[]} entries
 * @param {number} now
 * @param {FetchCache} [cache]
 * @returns {Promise<void>}
 *
 * @example
 * ```ts
 * declare const exchange: ServiceExchange; // its response is ready
 * const cache = createFetchCache();
 * await cacheMirrored(exchange.verifiedRims(), Math.floor(Date.now() / 1000), cache);
 * ```
 */
export async function cacheMirrored(entries, now, cache = defaultFetchCache) {
  for (const { id, body, until } of entries) await cache.put(mirrorRimKey(id), { body }, until, now);
}
