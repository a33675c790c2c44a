// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// Relying-party policies (src/wasm/policy.rs; src/wasm/rego.rs splices it too, beside
// rego.d.ts): a decision and its rules.

/** How one rule came out. */
export type RuleStatus = "pass" | "mismatch" | "missing";

/** One leaf rule applied to one token. */
export interface RuleOutcome {
  /**
   * The claim, as a JSON Pointer into the token's claims
   * ("/x-nvidia-gpu-driver-rim-cert-chain/x-nvidia-cert-status").
   */
  path: string;
  /** What the rule expects. */
  expected: unknown;
  /** What the token carries there; absent when the claim is missing. */
  found?: unknown;
  /** How the rule came out. */
  status: RuleStatus;
}

/** The rules one device token was held to, and how each came out. */
export interface DeviceDecision {
  /** The device label ("GPU-0", "SWITCH-3"). */
  label: string;
  /** Every rule passed for this device. */
  passed: boolean;
  /** Every rule, in the policy's order. */
  rules: RuleOutcome[];
}

/**
 * A policy applied to a verified attestation result.
 * `passed` is true only when every rule passed in every scope. The decision is the
 * relying party's, on top of the service's verdict: a result the service failed can still
 * be appraised (to see why), and a result the service passed can fail a policy.
 */
export interface PolicyDecision {
  /** True only when every rule passed, for the overall token and every device. */
  passed: boolean;
  /**
   * The policy's version: "1.0" (V1 results) or "2.0"–"4.0" (detached results); "rego" for
   * a Rego policy (`edgeattest/rego`).
   */
  version: "1.0" | "2.0" | "3.0" | "4.0" | "rego";
  /** The overall token's rules (empty for a 1.0 policy, whose rules are GPU-0's). */
  overall: RuleOutcome[];
  /** Each device, in the result's order. */
  devices: DeviceDecision[];
}
