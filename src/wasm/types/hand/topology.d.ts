// Hand-written: the binding's own input shapes, spliced beside the generated ../topology.d.ts.

/** What a node is checked against: 8 GPUs and 4 switches by default (an HGX board). */
export interface TopologyOptions {
  expectedGpus?: number;
  expectedSwitches?: number;
  /**
   * Match the switches' GPU lists with the GPUs' own PDIs (default `true`). Results' claims
   * carry no GPU PDI: `checkResultsTopology` needs `false`, and a GPU given twice is then
   * caught only by its `ueid`.
   */
  matchGpuPdis?: boolean;
}

/** `checkTopology`'s options: each device kind as a `prepareEvidence` batch, and the counts. */
export interface TopologyEvidenceOptions {
  gpus: PrepareEvidenceOptions;
  switches: PrepareEvidenceOptions;
  expectedGpus?: number;
  expectedSwitches?: number;
}
