// Hand-written: the member the binding adds to the generated ../bindings.d.ts's ServiceBindings
// (the declarations merge).
export interface ServiceBindings {
  /**
   * With testPki and the collateral given to readServiceBindings: the test PKI's OCSP answers
   * (DER) by the core's OCSP cache key (an ocsp FetchResource's cacheKey), to give ahead of the
   * host's cache, as fetched now (they carry no nonce). Its roots are then in the options and
   * its RIMs first in rimDocuments.
   */
  testPkiAnswers?: Map<string, Uint8Array>;
}
