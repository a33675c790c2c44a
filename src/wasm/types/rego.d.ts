// Hand-written declarations spliced into the Rego module's generated edgeattest.d.ts by the
// typescript_custom_section in src/wasm/rego.rs, beside policy.d.ts (the decision types the
// JSON policies return too).
/**
 * The members `appraiseRego` reads from a verified result: what `verifyAttestationResult`
 * returns in any edgeattest entry (`VerifiedAttestationResultData`), or a refused result's
 * `result`.
 */
export interface RegoAppraisalInput {
  format: "v1" | "detached";
  overall: { payload: Record<string, unknown> };
  devices?: Array<{ label: string; payload: Record<string, unknown> }>;
}

/**
 * The Rego input document, version 1: what `input` and `data.edgeattest` hold when
 * `appraiseRego` runs a policy. `input` is NVIDIA's shape, so their policies run unchanged.
 */
export interface RegoInputV1 {
  /** One object per device, in the result's order: its verified claims, plus
   * "x-nvidia-device-type" ("gpu", or "nvswitch" for a SWITCH-n label) only when absent. */
  input: Array<Record<string, unknown> & { "x-nvidia-device-type": string }>;
  data: {
    edgeattest: {
      version: 1;
      format: "detached" | "v1";
      /** The overall token's claims (a V1 result: its single token's). */
      overall: Record<string, unknown>;
      /** labels[i] names input[i] ("GPU-0", "SWITCH-3"). */
      labels: string[];
    };
  };
}

/** One entry of a policy's optional `data.policy.reasons` (a set or an array): a failed rule. */
export interface RegoReason {
  /** The device label; null or absent for the overall token. */
  device?: string | null;
  /** The claim, as a JSON Pointer. */
  path: string;
  expected?: unknown;
  /** Absent when the claim is missing. */
  found?: unknown;
  /** Default "mismatch". */
  status?: "mismatch" | "missing";
}
