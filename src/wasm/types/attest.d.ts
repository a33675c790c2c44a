// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// Attest requests (src/wasm/attest.rs): endpoints, encodings and what a valid body holds,
// in the builds that have that module; names from the other fragments and the generated
// classes are in scope there.

/** Path of an attest endpoint. */
export type AttestEndpoint =
  | "/v4/attest/switch"
  | "/v4/attest/gpu"
  | "/v3/attest/switch"
  | "/v3/attest/gpu"
  | "/v2/attest/switch"
  | "/v2/attest/gpu"
  | "/v1/attest/gpu";

export type ClaimsVersion = "1.0" | "2.0" | "3.0" | "4.0";

/**
 * How a string `evidence` is written: base64 of the bytes (generation 2: V3/V4 requests,
 * NVIDIA's SDKs), base64 of their hex text (generation 1: V1/V2 requests), or hex text.
 */
export type EvidenceEncoding = "base64" | "base64-hex" | "hex";

/** What `validateAttestRequest` found in a valid body. */
export interface ValidatedAttestRequest {
  /** The endpoint's path. */
  endpoint: AttestEndpoint;
  /** The nonce, hex. */
  nonce: string;
  /** The architecture (the switch endpoints' default included). */
  arch: Arch;
  /** The claims version (the endpoint's default included). */
  claimsVersion: ClaimsVersion;
  /** Whether the endpoint is deprecated. */
  deprecated: boolean;
  /** The devices, in order. */
  devices: {
    /** `GPU-0`, `SWITCH-1`. */
    label: string;
    /** Decoded evidence size. */
    evidenceBytes: number;
    /** Decoded PEM size. */
    certificateBytes: number;
    /** The firmware version hint, if any. */
    firmwareVersion: string | null;
  }[];
}
