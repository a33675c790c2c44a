// Hand-written declarations spliced into the generated edgeattest.d.ts by the
// typescript_custom_section in src/wasm/evidence.rs (so they exist only in the builds that have
// that module); names from the other fragments and the generated classes are in scope there.
/** One device: its transcript and its certificate chain. */
export interface DeviceEvidenceInput {
  /**
   * Raw transcript bytes, or a string: hex, base64 (generation 2, NVIDIA's SDKs) or base64 of
   * hex text (generation 1) — recognised from the text, or as `evidenceEncoding` says.
   */
  evidence: Uint8Array | ArrayBuffer | string;
  /** PEM chain text (leaf first), or base64 of it as in requests. */
  certificate: string;
}

export interface VerifyEvidenceOptions extends DeviceEvidenceInput {
  /** The caller's nonce: 64 hex characters or 32 bytes. */
  nonce: string | Uint8Array;
  arch: Arch;
  /** Unix seconds; default the host clock. */
  now?: number;
  /** PEM anchors; default the NVIDIA Device Identity CA embedded in the module. */
  trustAnchors?: string;
  /** The encoding every string `evidence` must be in; default: recognised from the text. */
  evidenceEncoding?: EvidenceEncoding;
  /**
   * Fail evidence that could carry an FWID but does not (Hopper firmware from before FWID
   * reporting) with ERR_EVIDENCE_FWID_MISSING (service code 4016). Default false: passed, as
   * NVIDIA's verifiers do, and reported as `fwid: "not-in-evidence"`.
   */
  requireFwid?: boolean;
}

export interface PrepareEvidenceOptions extends Omit<VerifyEvidenceOptions, "evidence" | "certificate"> {
  devices: DeviceEvidenceInput[];
}

/** One ECDSA P-384/SHA-384 verification: SEC1 key, message, raw r||s signature. */
export interface SignatureCheck { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array; }

export interface EvidenceReport {
  arch: string;
  /** The firmware that produced the evidence: it decides which RIMs apply and whether an FWID is due. */
  profile: "hopper-gsp" | "blackwell-gsp" | "blackwell-fsp" | "ls10";
  hwmodel: string | null; hwmodelChip: string | null; ueid: string;
  driverVersion: string | null; vbiosVersion: string | null;
  reportParsed: boolean; nonceMatch: boolean; signatureVerified: boolean; archCheck: boolean;
  fwid: "matched" | "not-in-evidence" | "not-applicable";
  certChain: { status: "valid" | "expired" | "invalid"; expirationDate: string; ocspStatus: "not-checked"; subjects: string[] };
  nonce: string; responderNonce: string; opaqueFormat: "legacy" | "nvdaod";
  measurements: { index: number; valueType: number; representation: "digest" | "raw"; value: string }[];
  opaque: { tag: number; name: string | null; valueType: number | null; value: string }[];
  signature: string;
}

/** A device result of a batch: its report, or the error that failed it. */
export type DeviceResult =
  | { ok: true; report: EvidenceReport }
  | { ok: false; error: { code: string; message: string; serviceCode: number } };

/** Options of runtimeEvidence. */
export interface RuntimeEvidenceOptions {
  /** Raw transcript bytes, or a string (hex, base64, base64 of hex text). */
  evidence: Uint8Array | ArrayBuffer | string;
  /** The encoding a string `evidence` must be in; default: recognised from the text. */
  evidenceEncoding?: EvidenceEncoding;
  arch: Arch;
  /** The chip name the device certificate gives (`hwmodelChip` of an EvidenceReport). */
  hwmodel?: string;
  /** The request's `firmware_version` (Blackwell FSP). */
  firmwareVersion?: string;
}

export interface ChainReportJs {
  status: "valid" | "expired" | "invalid"; expirationDate: string; ocspStatus: "not-checked";
  subjects: string[]; ueid: string; hwmodel: string | null; leafPublicKey: Uint8Array;
}
/** Options of evidenceReport / prepareEvidenceReport: one device, its RIMs, its revocation. */
export interface EvidenceReportOptions extends VerifyEvidenceOptions {
  /** The RIM documents (XML text or bytes) to judge the device by; one its profile does not use is ignored. */
  rims?: { driver?: string | Uint8Array; firmware?: string | Uint8Array };
  /** PEM anchors of the RIM signers; default NVIDIA's RIM root embedded in the module. */
  rimAnchors?: string;
  /** The request's `firmware_version` (Blackwell FSP evidence names its firmware RIM by it). */
  firmwareVersion?: string;
  /** What the host learnt of the device chain's revocation (the core does no I/O); default not checked. */
  revocation?: { status: "good" | "not-checked" | "revoked" | "unknown" | "failed"; message?: string };
}

export type StageStatus = "passed" | "failed" | "not-checked" | "not-applicable";
export type StageId =
  | "evidence-parsed" | "certificate-chain" | "evidence-signature" | "nonce" | "architecture"
  | "opaque-data" | "fwid" | "driver-version" | "revocation" | "driver-rim" | "firmware-rim"
  | "measurements" | "driver-rim-version" | "firmware-rim-version" | "opaque-floors";

/** One check of a DeviceReport. */
export interface ReportStage {
  id: StageId; title: string; status: StageStatus;
  /** What it found, for people ("" when nothing to add). */
  detail: string;
  /** A passed check whose result does not fully count, and why (render amber). */
  warning: string | null;
  /** The stable code of a failed check. */
  code: string | null;
}

export interface ReportFailure { stage: StageId; code: string; message: string; serviceCode: number | null }

export interface ReportRimStep {
  /** The RIM id the evidence names (null: none, or none applies). */
  id: string | null; status: StageStatus; version: string | null; signatureVerified: boolean | null;
  chainStatus: "valid" | "expired" | "invalid" | null; chainExpiration: number | null;
}

/**
 * The core's verification report of one device: every check in the service's order, the
 * first failure, the RIMs, revocation, and one verdict. `partial`: nothing failed, but
 * something that applies was not checked (`notChecked` says what).
 */
export interface DeviceReport {
  verdict: "passed" | "failed" | "partial";
  /** The overall result the service gives this device when it does not check revocation. */
  passesWithoutRevocation: boolean;
  stages: ReportStage[];
  failure: ReportFailure | null;
  failures: ReportFailure[];
  notChecked: string[];
  rims: { driver: ReportRimStep; firmware: ReportRimStep };
  /** `not-reached`: the chain did not validate; `not-checked`: due, ask the responder and report again. */
  revocation: "not-reached" | "not-checked" | "good" | "failed";
  comparison: Omit<RimComparison, "allMatch" | "measres"> | null;
  measres: "success" | "fail" | null;
  evidence: EvidenceReport | null;
}
