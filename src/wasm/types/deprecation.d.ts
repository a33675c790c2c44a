// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// Deprecations (src/wasm/deprecation.rs): notices and request checks, in the builds that
// have that module; names from the other fragments and the generated classes are in scope
// there.

/** A deprecation object (spec part B §2), serialised with its exact member names and order. */
export interface DeprecationNotice {
  /** The deprecated attribute. */
  attribute?: string;
  /** The deprecated query parameter. */
  queryParam?: string;
  /** The deprecated endpoint, `METHOD /path`. */
  endpoint?: string;
  /** The replacement, when there is one. */
  replacedBy?: string;
  /** RFC 3339 UTC, when the row has a date. */
  takeActionBy?: string;
  /** The message, ending with `BEFORE` or `AFTER`. */
  notice: string;
}

/**
 * The host's settings as given (the JS `DeprecationOptions`); absent members keep
 * `default`.
 */
export interface DeprecationOptions {
  /** Seconds one release cycle lasts (`release_cycle_secs`). */
  releaseCycleSeconds?: number;
  /** The deprecation list's URL (`doc_url`). */
  docUrl?: string;
}
