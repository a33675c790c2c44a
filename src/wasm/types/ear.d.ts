// Hand-written declarations spliced into the generated edgeattest.d.ts by the
// typescript_custom_section in src/wasm/ear.rs (only in the builds that have that module).
/** An AR4SI trustworthiness tier: "affirming" is the only positive one. */
export type EarStatus = "none" | "affirming" | "warning" | "contraindicated";

/** An AR4SI trustworthiness vector: each present key a claim value from -128 to 127. */
export interface TrustworthinessVector {
  "instance-identity"?: number;
  configuration?: number;
  executables?: number;
  "file-system"?: number;
  hardware?: number;
  "runtime-opaque"?: number;
  "storage-opaque"?: number;
  "sourced-data"?: number;
}

/** One submodule (device) of an EAR. */
export interface EarSubmod {
  /** The device label ("GPU-0", "SWITCH-3"). */
  label: string;
  status: EarStatus;
  trustworthinessVector?: TrustworthinessVector;
  /** The relying-party policy the service applied, when one was. */
  appraisalPolicyId?: string;
}

/** A verified EAT Attestation Result (profile tag:github.com,2023:veraison/ear). */
export interface EarData {
  /** The worst submodule status: what the whole result is worth. */
  status: EarStatus;
  /** True only when every submodule is "affirming". */
  affirming: boolean;
  iat: number;
  /** eat_nonce, verbatim. */
  nonce?: string;
  verifierId: { developer: string; build: string };
  submods: EarSubmod[];
}
