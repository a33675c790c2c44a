// What hosts take from the core instead of copying it (src/wasm/limits.rs): its limits and
// the one error-answer shape. In every module but the client one.

/** The core's limits, in bytes: hosts read them here rather than copying them. */
export interface ServiceLimits {
  /** An attestation request body (MAX_BODY_BYTES); past it the service answers 413 ERR_REQUEST_TOO_LARGE. */
  maxBodyBytes: number;
  /** A fetched RIM service envelope or OCSP answer (MAX_FETCHED_BYTES). */
  maxFetchedBytes: number;
  /** An OCSP response (MAX_RESPONSE_LEN). */
  maxOcspResponseBytes: number;
  /** An Authorization header value (MAX_AUTHORIZATION_LEN). */
  maxAuthorizationBytes: number;
}

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
