// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// EAT Attestation Results (src/wasm/ear.rs): what `readEar` returns, in the builds that
// have that module; names from the other fragments and the generated classes are in scope
// there.

/** An AR4SI trustworthiness tier (`ear.status`). */
export type EarStatus = "none" | "affirming" | "warning" | "contraindicated";

/**
 * An AR4SI trustworthiness vector: one optional claim value per aspect, each present one
 * from -128 to 127.
 */
export interface TrustworthinessVector {
  /** Whether the attester is the instance it claims to be. */
  "instance-identity"?: number;
  /** Whether its configuration is approved. */
  configuration?: number;
  /** Whether its firmware and software are recognised and approved. */
  executables?: number;
  /** File-system integrity (never written here). */
  "file-system"?: number;
  /** Whether the hardware is genuine. */
  hardware?: number;
  /** Run-time opacity (never written here). */
  "runtime-opaque"?: number;
  /** Storage opacity (never written here). */
  "storage-opaque"?: number;
  /** Sourced-data integrity (never written here). */
  "sourced-data"?: number;
}

/** One submodule (device) of an EAR. */
export interface EarSubmod {
  /** The device label ("GPU-0", "SWITCH-3"). */
  label: string;
  status: EarStatus;
  trustworthinessVector?: TrustworthinessVector;
  /**
   * The relying-party policy the service applied, when one was (the first of
   * appraisalPolicyIds).
   */
  appraisalPolicyId?: string;
  /** Every appraisal policy applied, in order (empty when none was). */
  appraisalPolicyIds: string[];
}

/** A verified EAT Attestation Result (either dialect, either encoding) as the API returns it. */
export interface EarData {
  /**
   * The dialect read: "veraison" (tag:github.com,2023:veraison/ear) or "ietf-04"
   * (tag:ietf.org,2026:rats/ear#04).
   */
  dialect: 'veraison' | 'ietf-04';
  /** The encoding read: "jwt" or "cwt". */
  encoding: 'jwt' | 'cwt';
  /** eat_profile. */
  profile: string;
  /** The worst submodule status: what the whole result is worth. */
  status: EarStatus;
  /** True only when every submodule is "affirming". */
  affirming: boolean;
  iat: number;
  /** exp, when the EAR carries one. */
  exp?: number;
  /** eat_nonce: the veraison dialect's verbatim, the -04 dialect's bytes as lower-case hex. */
  nonce?: string;
  verifierId: {
    /** Who wrote the verifier. */
    developer: string;
    /** Which build of it. */
    build: string;
  };
  submods: EarSubmod[];
}
