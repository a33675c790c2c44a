// The service's conventions a host applies itself (src/wasm/limits.rs, `host_answers`): the
// one error-answer shape. In the service module only.

/** An error answer a host makes itself: the members of every error body. */
export interface ErrorResponseInit {
  /** 400 to 599. */
  status: number;
  /** A registered `ERR_*` code (src/error_code/registry.rs; ErrorCodeName in codes.d.ts). */
  code: string;
  message: string;
  /** The request member, header or parameter concerned. */
  field?: string;
}

/** The answer to send: `new Response(answer.body, answer)`. */
export interface ErrorResponse {
  status: number;
  /** content-type application/json and the headers of every service answer (CORS, nosniff, no-store). */
  headers: [string, string][];
  /** The JSON error body: `{code, message, field?, status}`. */
  body: string;
}
