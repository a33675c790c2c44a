// Hand-written: the binding's own shapes, spliced beside the generated ../listing.d.ts.
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
