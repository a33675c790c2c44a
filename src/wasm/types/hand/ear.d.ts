// Hand-written: the binding's own shapes, spliced beside the generated ../ear.d.ts.

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
