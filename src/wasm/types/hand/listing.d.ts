// Hand-written: the binding's own shapes, spliced beside the generated ../listing.d.ts.
/** The page envelope (spec §2 A). Indices are 1-based and inclusive; 0 when empty. */
export interface ListPage<T = Record<string, unknown>> {
  data: T[];
  filtered_resources: number;
  first_index: number;
  last_index: number;
  num_of_pages: number;
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
