// Hand-written: the binding's own input and result shapes for composite EARs
// (src/wasm/ear_composite.rs), beside the generated ../ear.d.ts.

/**
 * One appraisal of a composite EAR in the API's shape (`EarSubmod`'s members): the foreign
 * verifier's verdict on its attester (a CPU TEE), as its own EAR carries it.
 */
export interface EarAppraisalInput {
  status: EarStatus;
  trustworthinessVector?: TrustworthinessVector;
  /** The appraisal policies applied, in order (the veraison dialect writes the first). */
  appraisalPolicyIds?: string[];
}

/** `composeEar`'s options. */
export interface ComposeEarOptions {
  /** Our verified GPU EAR: `verifyEar`'s result (either dialect, either encoding). */
  gpus: EarData;
  /** New labels by the GPU EAR's (`{ 'GPU-0': 'gpu0' }`); a label not named is kept. */
  relabel?: Record<string, string>;
  /** The caller's own submodules by label (`{ cpu0: … }`): at least one. */
  foreign: Record<string, EarAppraisalInput>;
  /** The composite's dialect; the GPU EAR's by default. CWT needs 'ietf-04'. */
  dialect?: 'veraison' | 'ietf-04';
  /**
   * The challenge both parts answered, as `eat_nonce` (-04: hex of 8 to 64 bytes; the
   * veraison dialect: the text as is).
   */
  nonce: string;
  /** Issued at, Unix seconds (now by default). */
  iat?: number;
  /** Who composes: the relying party's verifier, which signs the composite. */
  verifierId: { developer: string; build: string };
}

/** A composite EAR before its signature (`composeEar`'s result). */
export interface CompositeEar {
  /** The EAR's claims in its dialect: what `signEar` signs. */
  claims: Record<string, unknown>;
  dialect: 'veraison' | 'ietf-04';
  /** The worst submodule status, foreign ones included. */
  status: EarStatus;
  /** True only when every submodule, foreign ones included, is "affirming". */
  affirming: boolean;
}

/** A verified composite EAR (`verifyCompositeEar`'s result): `EarData` and its foreign labels. */
export interface CompositeEarData extends EarData {
  /** The labels of the submodules besides the GPUs named (the foreign verifier's). */
  foreign: string[];
}
