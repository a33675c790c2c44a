// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// What hosts take from the core instead of copying it (src/wasm/limits.rs): its limits. In
// the local and service modules.

/** The core's limits in bytes, and the hosts' fetch settings (the JS `ServiceLimits`). */
export interface ServiceLimits {
  /**
   * An attestation request body (`MAX_BODY_BYTES`); past it the service
   * answers 413 `ERR_REQUEST_TOO_LARGE`.
   */
  maxBodyBytes: number;
  /** A fetched RIM service envelope or OCSP answer (`MAX_FETCHED_BYTES`). */
  maxFetchedBytes: number;
  /** An OCSP response (`MAX_RESPONSE_LEN`). */
  maxOcspResponseBytes: number;
  /** An `Authorization` header value (`MAX_AUTHORIZATION_LEN`). */
  maxAuthorizationBytes: number;
  /** A RIM service fetch's time budget, request to last byte (`RIM_TIMEOUT_MS`). */
  rimTimeoutMs: number;
  /** An OCSP fetch's time budget when the host sets none (`DEFAULT_OCSP_TIMEOUT_MS`). */
  ocspTimeoutMs: number;
  /** Fetches in flight at once for one fetch step (`FETCH_CONCURRENCY`). */
  fetchConcurrency: number;
  /** How long a RIM service envelope is kept (`RIM_CACHE_SECONDS`). */
  rimCacheSeconds: number;
  /** How long a RIM service 404 is kept (`RIM_MISS_SECONDS`). */
  rimMissSeconds: number;
  /**
   * How long a RIM envelope is kept past `rimCacheSeconds` for stale-if-error
   * (`RIM_KEEP_SECONDS`).
   */
  rimKeepSeconds: number;
  /** The most answers a fetch cache holds (`FETCH_CACHE_ENTRIES`). */
  fetchCacheEntries: number;
  /** A source probe's time budget (`PROBE_TIMEOUT_MS`). */
  probeTimeoutMs: number;
  /** The least time between two probes of the sources (`PROBE_INTERVAL_SECONDS`). */
  probeIntervalSeconds: number;
}
