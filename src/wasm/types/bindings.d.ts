// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// A host's `EDGEATTEST_*` variables (src/wasm/bindings.rs), in the service module only;
// names from the other fragments and the generated classes are in scope there.

/**
 * What a host's `EDGEATTEST_*` variables say (`readServiceBindings` in JS; the table is in
 * the README's deployment section): the service's options and the host's own settings. The
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
  rimDocuments: {
    name: string;
    xml: string;
  }[];
  /** EDGEATTEST_TEST_PKI (development only, default off): whether to add the edgeattest TEST PKI. */
  testPki: boolean;
}

/**
 * The test PKI's collateral as a host holds it, owned (`TestPkiCollateral` in JS;
 * development only: its keys are public): what `readServiceBindings` adds with
 * `EDGEATTEST_TEST_PKI=on`.
 */
export interface TestPkiCollateral {
  /** What it is, for the host's start-up warning. */
  label: string;
  /** Its device root(s), PEM. */
  deviceRoots: string;
  /** Its RIM root(s), PEM. */
  rimRoots: string;
  /** Its test devices' RIMs, added as `configured-roots/<id>.xml`. */
  rims: {
    /** The RIM id. */
    id: string;
    /** The RIM's XML text. */
    xml: string;
  }[];
  /** Its OCSP answers, JSON `{ "<cache key>": { "certificate", "response": base64 DER } }`. */
  ocspAnswers: string;
}
