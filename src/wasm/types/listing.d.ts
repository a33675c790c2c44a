// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// Lists (src/wasm/listing.rs): pages, schemas and limits, in the builds that have that
// module; names from the other fragments and the generated classes are in scope there.

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

// Hand-written in src/wasm/types/hand/listing.d.ts: shapes no serde derive of the core declares.
/** Path of a list endpoint. */
export type ListPath =
  | "/analytics/anomalies/network" | "/analytics/alerts/filter"
  | "/analytics/anomalies/tenant" | "/analytics/anomalies/logical-server"
  | "/analytics/telemetry/link-status" | "/analytics/prediction/link-anomaly"
  | "/analytics/prediction/link-failure" | "/analytics/anomalies/cable/threshold"
  | "/analytics/anomalies/cable/deviation";

/** The page envelope (spec §2 A). Indices are 1-based and inclusive; 0 when empty. */
export interface ListPage<T = Record<string, unknown>> {
  data: T[];
  filtered_resources: number;
  first_index: number;
  last_index: number;
  num_of_pages: number;
}

/** An HTTP-shaped answer: 200 with the envelope, or 400/404 with an error body. */
export interface ListResponse {
  status: 200 | 400 | 404;
  /** JSON text: the envelope, or {code, message, field, status} (field: the parameter). */
  body: string;
}

export interface ListColumn {
  name: string;
  type: "integer" | "number" | "string" | "array of string";
  doc: string;
}

export interface ListSchema {
  path: ListPath;
  item: string;
  /** The primary key: the tie-breaker after the sort keys, and the default order. */
  key: string;
  columns: ListColumn[];
}
