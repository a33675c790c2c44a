// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// The service's conventions a host applies itself (src/wasm/host_answers.rs): the one
// error-answer shape. In the service module only.

/**
 * What a host gives (the JS `ErrorResponseInit`); a member left out reads as empty and is
 * refused by `response` as such.
 */
export interface ErrorResponseInit {
  /** 400 to 599. */
  status: number;
  /** A registered `ERR_*` code (`ERROR_CODES`). */
  code: string;
  /** One sentence for people. */
  message: string;
  /** The request member, header or parameter concerned (a string when given). */
  field?: string;
}

/** The answer to send (the JS `ErrorResponse`): `new Response(answer.body, answer)`. */
export interface ErrorResponse {
  /** The status given. */
  status: number;
  /** `content-type: application/json` and the headers of every service answer. */
  headers: [string, string][];
  /** The JSON error body: `{code, message, field?, status}`. */
  body: string;
}
