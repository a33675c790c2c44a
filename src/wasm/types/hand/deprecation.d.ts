// Hand-written: the binding's own shapes, spliced beside the generated ../deprecation.d.ts.

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
