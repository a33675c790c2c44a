// What hosts take from the core instead of copying it (src/wasm/limits.rs): its limits. In
// the local and service modules.

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
