// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// Lists (src/wasm/listing.rs): pages, schemas and limits, in the builds that have that
// module; names from the other fragments and the generated classes are in scope there.

/** Path of a list endpoint. */
export type ListPath =
  | "/analytics/anomalies/network"
  | "/analytics/alerts/filter"
  | "/analytics/anomalies/tenant"
  | "/analytics/anomalies/logical-server"
  | "/analytics/telemetry/link-status"
  | "/analytics/prediction/link-anomaly"
  | "/analytics/prediction/link-failure"
  | "/analytics/anomalies/cable/threshold"
  | "/analytics/anomalies/cable/deviation";

/**
 * An HTTP-shaped answer to one list request: 200 with the envelope, or 400/404 with an
 * error body.
 */
export interface ListResponse {
  /** 200, 400 (invalid query) or 404 (unknown path). */
  status: 200 | 400 | 404;
  /** `application/json` text: the page envelope, or the `ErrorBody`. */
  body: string;
}

/** The list limits and the embedded data set's size and seed (the JS `ListLimits`). */
export interface ListLimits {
  /** `DEFAULT_RPP`. */
  defaultRpp: number;
  /** `MAX_RPP`. */
  maxRpp: number;
  /** `MAX_FILTERS`. */
  maxFilters: number;
  /** `MAX_ROWS`. */
  maxRows: number;
  /**
   * Items per endpoint of the worker's embedded data set (`EMBEDDED_ROWS`,
   * `ListTable.generate`).
   */
  embeddedRows: number;
  /** Its seed (`EMBEDDED_SEED`). */
  embeddedSeed: number;
}
