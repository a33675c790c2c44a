// Hand-written declarations spliced into the generated edgeattest.d.ts by the
// typescript_custom_section in src/wasm/policy.rs (so they exist only in the builds that have that
// module); names from the other fragments and the generated classes are in scope there.
/** How one rule of a relying-party policy came out. */
export type RuleStatus = "pass" | "mismatch" | "missing";

/** One leaf rule applied to one token. */
export interface RuleOutcome {
  /** The claim, as a JSON Pointer into the token's claims ("/x-nvidia-gpu-driver-rim-cert-chain/x-nvidia-cert-status"). */
  path: string;
  /** What the rule expects. */
  expected: unknown;
  /** What the token carries there; absent when the claim is missing. */
  found?: unknown;
  status: RuleStatus;
}

/** The rules one device token was held to. */
export interface DeviceDecision {
  label: string;
  /** Every rule passed for this device. */
  passed: boolean;
  rules: RuleOutcome[];
}

/** A relying-party policy (NVIDIA's JSON format) applied to a verified result. */
export interface PolicyDecision {
  /** True only when every rule passed, for the overall token and every device. */
  passed: boolean;
  /** The policy's version: "1.0" (V1 results) or "2.0"–"4.0" (detached results); "rego" for a Rego policy (`edgeattest/rego`). */
  version: "1.0" | "2.0" | "3.0" | "4.0" | "rego";
  /** The overall token's rules (empty for a 1.0 policy, whose rules are GPU-0's). */
  overall: RuleOutcome[];
  /** Each device, in the result's order. */
  devices: DeviceDecision[];
}
