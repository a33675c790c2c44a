// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// The topology module (src/wasm/topology.rs): a node's PPCIE topology report, in the builds
// that have that module; names from the other fragments and the generated classes are in
// scope there.

/** The node's verdict. Only `Passed` is a pass. */
export type TopologyVerdict = "passed" | "failed";

/** A topology rule. The ids (`gpu-count`, …) are stable. */
export type TopologyRule =
  | "gpu-count"
  | "switch-count"
  | "gpu-reports-switches"
  | "switch-reports-gpus"
  | "gpu-unique"
  | "switch-unique"
  | "gpu-switch-count"
  | "gpu-switch-consistent"
  | "switch-gpu-count"
  | "switch-gpu-consistent"
  | "gpu-switch-present"
  | "switch-linked-to-gpus"
  | "switch-gpu-present"
  | "gpu-linked-to-switches";

/** A rule's outcome. */
export type TopologyRuleStatus = "passed" | "failed" | "skipped";

/**
 * Where a rule was broken: the devices and, for a link, the PDI at fault (switch byte
 * order, upper-case hex, as the claims write it).
 */
export interface TopologyFinding {
  /** The GPU concerned (its label), if one is. */
  gpu: string | null;
  /** The switch concerned (its label), if one is. */
  switch: string | null;
  /** The PDI of the failing link, or the duplicated PDI. */
  pdi: string | null;
  /** What is wrong, for people. */
  message: string;
}

/** One rule's outcome. */
export interface TopologyRuleOutcome {
  /** The rule. */
  rule: "gpu-count" | "switch-count" | "gpu-reports-switches" | "switch-reports-gpus" | "gpu-unique" | "switch-unique" | "gpu-switch-count" | "gpu-switch-consistent" | "switch-gpu-count" | "switch-gpu-consistent" | "gpu-switch-present" | "switch-linked-to-gpus" | "switch-gpu-present" | "gpu-linked-to-switches";
  /** Passed, failed or skipped. */
  status: "passed" | "failed" | "skipped";
  /** Where it was broken (empty unless failed). */
  findings: TopologyFinding[];
}

/**
 * A device as the report shows it: its PDI and the distinct PDIs it lists (disabled links
 * aside), upper-case hex in switch byte order, sorted.
 */
export interface TopologyDevice {
  /** `GPU-0`, `SWITCH-3`. */
  label: string;
  /** Its own PDI, if known. */
  pdi: string | null;
  /** `ueid`, if known. */
  ueid: string | null;
  /** The PDIs of the devices it says it is linked to; `null` when it reports none. */
  links: string[] | null;
}

/** The topology verdict of one node. */
export interface TopologyReport {
  /** `passed` only when no rule failed. */
  verdict: "passed" | "failed";
  /** The GPUs expected. */
  expectedGpus: number;
  /** The switches expected. */
  expectedSwitches: number;
  /** The GPUs as checked. */
  gpus: TopologyDevice[];
  /** The switches as checked. */
  switches: TopologyDevice[];
  /** Every rule, in `ALL` order. */
  rules: TopologyRuleOutcome[];
  /** The rules that failed, in the same order. */
  failedRules: ("gpu-count" | "switch-count" | "gpu-reports-switches" | "switch-reports-gpus" | "gpu-unique" | "switch-unique" | "gpu-switch-count" | "gpu-switch-consistent" | "switch-gpu-count" | "switch-gpu-consistent" | "gpu-switch-present" | "switch-linked-to-gpus" | "switch-gpu-present" | "gpu-linked-to-switches")[];
}
