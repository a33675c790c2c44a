// Hand-written: the binding's own shapes, spliced beside the generated ../bindings.d.ts.
/**
 * What a host's `EDGEATTEST_*` variables say (`readServiceBindings`; the table is in the
 * README's deployment section): the service's options and the host's own settings. The
 * service component reads its environment with the same core function.
 */
export interface ServiceBindings {
  /** The AttestationService options, signingKey among them; null URLs are sources switched off. */
  options: AttestationServiceOptions;
  /** EDGEATTEST_CRYPTO: where ECDSA runs (default webcrypto). */
  crypto: 'webcrypto' | 'software';
  /** EDGEATTEST_FIXED_TIME, Unix seconds: replays only. */
  fixedTime?: number;
  /** EDGEATTEST_OCSP_TIMEOUT_MS (default 5000, at most 30000). */
  ocspTimeoutMs: number;
  /** EDGEATTEST_FETCH_CACHE (default on). */
  fetchCache: boolean;
  /** EDGEATTEST_BUNDLED_RIMS when set: whether to add the RIMs the host bundles (the worker: yes unless false). */
  bundledRims?: boolean;
  /** EDGEATTEST_RIM_DOCUMENTS: more RIMs to add. */
  rimDocuments: { name: string; xml: string }[];
  /** EDGEATTEST_TEST_PKI (development only, default off): whether to add the edgeattest TEST PKI. */
  testPki: boolean;
  /**
   * With testPki and the collateral given to readServiceBindings: the test PKI's OCSP answers
   * (DER) by the core's OCSP cache key (an ocsp FetchResource's cacheKey), to give ahead of the
   * host's cache, as fetched now (they carry no nonce). Its roots are then in the options and
   * its RIMs first in rimDocuments.
   */
  testPkiAnswers?: Map<string, Uint8Array>;
}
