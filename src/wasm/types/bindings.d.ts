// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// A host's `EDGEATTEST_*` variables (src/wasm/bindings.rs), in the service module only;
// names from the other fragments and the generated classes are in scope there.

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
