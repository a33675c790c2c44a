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

// Hand-written in src/wasm/types/hand/deprecation.d.ts: shapes no serde derive of the core declares.
export interface DeprecationOptions {
  /** Seconds one release cycle lasts (notices are kept this long after takeActionBy); default 30 days. */
  releaseCycleSeconds?: number;
  /** URL of the deprecation list, used in Link rel="deprecation"; default "/deprecations". */
  docUrl?: string;
}

/** The members of every error body of the service, then the notice. */
export interface DeprecationErrorBody {
  code: string;
  message: string;
  /** The deprecated attribute or query parameter. */
  field?: string;
  status: 400;
  deprecation?: DeprecationNotice;
}

/** The outcome of a request check: accepted (with the body to process) or a 400 to send. */
export type DeprecationCheck =
  | { ok: true; body: unknown; used: DeprecationNotice[]; ignored: DeprecationNotice[];
      /** Deprecation/Sunset/Link headers for the response, when deprecated items were used. */
      headers: [string, string][] }
  | { ok: false; status: 400; body: DeprecationErrorBody };

export type DeprecationQueryCheck =
  | { ok: true; used: DeprecationNotice[]; headers: [string, string][] }
  | { ok: false; status: 400; body: DeprecationErrorBody };

export interface DeprecationRow {
  id: string; api: "infrastructure" | "attestation"; resource: string;
  attribute?: string; queryParam?: string; endpoint?: string; targets: string[];
  replacedBy?: string; deprecatedSince?: string; takeActionBy?: string;
  listing: "active" | "removed"; handling: "accepted" | "ignored"; detail?: string;
}
