// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// The evidence module (src/wasm/evidence.rs): a device's report and its stages, in the builds
// that have that module; names from the other fragments and the generated classes are in
// scope there.

/** The JSON form of a `VerifiedEvidence`. */
export interface EvidenceReport {
  /** `HOPPER`, `BLACKWELL` or `LS10`. */
  arch: string;
  /**
   * The firmware that produced the evidence (`hopper-gsp`, `blackwell-gsp`,
   * `blackwell-fsp`, `ls10`): it decides which RIMs apply and whether an FWID is due.
   */
  profile: "hopper-gsp" | "blackwell-gsp" | "blackwell-fsp" | "ls10";
  /** CN of the leaf's issuer (`GH100 A01 GSP BROM`). */
  hwmodel: string | null;
  /** The chip part of `hwmodel` (`GH100`). */
  hwmodelChip: string | null;
  /** Leaf serial in decimal. */
  ueid: string;
  /** Opaque tag 3. */
  driverVersion: string | null;
  /** Opaque tag 6. */
  vbiosVersion: string | null;
  /**
   * The GPU's mode from opaque tag 36 (opaque data version 1 and later): `mpt`
   * (multi-GPU passthrough), `spt` (single-GPU passthrough), `ppcie` (protected PCIe) or
   * `invalid` (another value); null for switches and older evidence. The claim
   * `x-nvidia-gpu-mode`.
   */
  mode: "mpt" | "spt" | "ppcie" | "invalid" | null;
  /** Always true for a verified device. */
  reportParsed: boolean;
  /** Always true for a verified device. */
  nonceMatch: boolean;
  /** Always true for a verified device. */
  signatureVerified: boolean;
  /** Always true for a verified device. */
  archCheck: boolean;
  /**
   * `matched`; `not-in-evidence` (firmware that may omit it did: passed, as NVIDIA's
   * verifiers do, but not compared); `not-applicable` (switches, Blackwell FSP).
   */
  fwid: "matched" | "not-in-evidence" | "not-applicable";
  /** The device chain. */
  certChain: {
    /** `valid`, `expired` or `invalid` (not yet valid). */
    status: "valid" | "expired" | "invalid";
    /** Earliest notAfter, ISO 8601. */
    expirationDate: string;
    /** `not-checked`. */
    ocspStatus: "not-checked";
    /** Subjects, leaf first. */
    subjects: string[];
  };
  /** The caller's nonce from the request, hex. */
  nonce: string;
  /** The responder's nonce, hex. */
  responderNonce: string;
  /** `legacy` or `nvdaod`. */
  opaqueFormat: "legacy" | "nvdaod";
  /** Measurement blocks in transcript order. */
  measurements: {
    /** SPDM index (1-based). */
    index: number;
    /** DMTF value type, bit 7 included. */
    valueType: number;
    /** `digest` or `raw`. */
    representation: "digest" | "raw";
    /** The value, hex. */
    value: string;
  }[];
  /** Opaque entries in transcript order. */
  opaque: {
    /** The tag number. */
    tag: number;
    /** NVIDIA's name for it, if known. */
    name: string | null;
    /** Value type (NVDAOD only). */
    valueType: number | null;
    /** The value, hex. */
    value: string;
  }[];
  /** The raw `r‖s` signature, hex. */
  signature: string;
  /**
   * The form the evidence came in: `plain` (the transcript itself), `json-cmw` or
   * `cbor-cmw` (inside a CMW, NVIDIA's verifier input or a lone transcript record).
   */
  evidenceForm: "plain" | "json-cmw" | "cbor-cmw";
}

/** One device of a batch: `{ ok: true, report }` or `{ ok: false, error }`. */
export type DeviceResult =
  | {
    /** Always `true`. */
    ok: true;
    /** Its report. */
    report: EvidenceReport;
  }
  | {
    /** Always `false`. */
    ok: false;
    /** Why. */
    error: {
      /** The stable code. */
      code: string;
      /** For people. */
      message: string;
      /** The real service's numeric code. */
      serviceCode: number;
    };
  };

/** A validated PEM chain (the JS `ChainReportJs`). */
export interface ChainReportJs {
  /** `valid`, `expired` or `invalid`. */
  status: "valid" | "expired" | "invalid";
  /** The earliest `notAfter` of the chain, ISO 8601. */
  expirationDate: string;
  /** Always `not-checked`: the core does no I/O (see the OCSP exchange). */
  ocspStatus: "not-checked";
  /** Subjects, leaf first. */
  subjects: string[];
  /** The leaf's serial in decimal. */
  ueid: string;
  /** CN of the leaf's issuer. */
  hwmodel: string | null;
  /** The leaf's SEC1 public key (a `Uint8Array` in JS, an array of numbers in JSON). */
  leafPublicKey: Uint8Array;
}

/** A check's state. */
export type StageStatus = "passed" | "failed" | "not-checked" | "not-applicable";

/** Which check a stage is. */
export type StageId =
  | "evidence-parsed"
  | "certificate-chain"
  | "evidence-signature"
  | "nonce"
  | "architecture"
  | "opaque-data"
  | "fwid"
  | "driver-version"
  | "revocation"
  | "driver-rim"
  | "firmware-rim"
  | "measurements"
  | "driver-rim-version"
  | "firmware-rim-version"
  | "opaque-floors";

/** One check. */
export interface ReportStage {
  /** Which check. */
  id: StageId;
  /** What it checks, for people. */
  title: string;
  /** Its state. */
  status: StageStatus;
  /** What it found, for people (empty when there is nothing to add). */
  detail: string;
  /** A passed check whose result does not fully count, said why (amber). */
  warning: string | null;
  /** The stable code of a failed check. */
  code: string | null;
}

/** A failed check. */
export interface ReportFailure {
  /** The check that failed. */
  stage: StageId;
  /** Stable `ERR_*` code. */
  code: string;
  /** Why, for people. */
  message: string;
  /** The real service's error number, where one applies. */
  serviceCode: number | null;
}

/** One RIM of the device. */
export interface ReportRimStep {
  /** The id the device's evidence names (absent when it names none, or none applies). */
  id: string | null;
  /** The RIM as a whole. */
  status: StageStatus;
  /** The document's `colloquialVersion`, when it was read. */
  version: string | null;
  /** The XML signature verified. */
  signatureVerified: boolean | null;
  /** The signer chain: `valid`, `expired` or `invalid`. */
  chainStatus: "valid" | "expired" | "invalid" | null;
  /** The signer chain's earliest `notAfter`, Unix seconds. */
  chainExpiration: number | null;
}

/** One device's verification report. */
export interface DeviceReport {
  /** `passed`, `failed` or `partial`. */
  verdict: "passed" | "failed" | "partial";
  /**
   * The overall result the attestation service gives this device, with the same RIMs and
   * time, when it does not check revocation (the page's in-page service run): true unless
   * a check other than revocation failed. The page compares it with the service's answer.
   */
  passesWithoutRevocation: boolean;
  /** Every check, in the order the service runs them. */
  stages: ReportStage[];
  /** The first failure. */
  failure: ReportFailure | null;
  /** Every failure, in stage order. */
  failures: ReportFailure[];
  /** What applies but was not checked, for people (the reasons of `partial`). */
  notChecked: string[];
  /** The driver and firmware RIMs. */
  rims: {
    /** The driver RIM. */
    driver: ReportRimStep;
    /** The firmware RIM. */
    firmware: ReportRimStep;
  };
  /** Revocation of the device chain. */
  revocation: "not-reached" | "not-checked" | "good" | "relaxed" | "failed";
  /** The measurement comparison, when it ran. */
  comparison: Omit<RimComparison, "allMatch" | "measres"> | null;
  /** Its `measres` claim (`success` / `fail`), when it ran. */
  measres: "success" | "fail" | null;
  /** The evidence's facts, when it verified. */
  evidence: EvidenceReport | null;
}
