// Hand-written declarations spliced into the generated edgeattest.d.ts by the
// typescript_custom_section in src/wasm/rim.rs (so they exist only in the builds that have that
// module); names from the other fragments and the generated classes are in scope there.
export interface RimOptions {
  /** Unix seconds for the certificate validity check; default: the host clock. */
  now?: number;
  /** PEM trust anchors replacing the NVIDIA RIM root. */
  trustAnchorPem?: string;
}

/** One ECDSA P-384/SHA-384 check: SEC1 public key, message, raw r||s signature. */
export interface SignatureCheckData {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

export interface RimCertChain {
  status: "valid" | "expired" | "invalid";
  /** Earliest notAfter of the validated path, Unix seconds. */
  expiration: number | null;
  errorCode: string | null;
  problem: string | null;
  subjects: string[];
  ocspStatus: "not-checked";
}

export interface GoldenMeasurement {
  index: number; active: boolean; name: string; size: number; alternatives: string[];
}

export interface RimDocumentJson {
  name: string;
  tagId: string | null;
  version: string | null;
  meta: {
    colloquialVersion: string; edition: string | null; product: string | null;
    revision: string | null; firmwareManufacturerId: string | null; platformModel: string | null;
  };
  measurements: GoldenMeasurement[];
  opaqueFloors: { id: number; index: number; name: string; active: boolean; minSvn: number; includeInResult: boolean }[];
}

export interface VerifiedRimJson { document: RimDocumentJson; certChain: RimCertChain }

/** Evidence values for RIM ids and comparison (see the Rust docs of RuntimeEvidence). */
export interface RuntimeEvidenceInput {
  /** SPDM measurement blocks by 1-based index: hex text or bytes. */
  measurements?: Record<string, string | Uint8Array>;
  driverVersion?: string;
  vbiosVersion?: string;
  project?: string;
  projectSku?: string;
  chipSku?: string;
  chipInfo?: string;
  nvdec0Status?: number;
  opaque?: { id: number; valueType?: number; value: string | Uint8Array }[];
  hwmodel?: string;
  apsku?: number;
  firmwareVersionHint?: string;
}

export interface RimComparison {
  measurementsMatch: boolean;
  measres: "success" | "fail";
  allMatch: boolean;
  mismatches: { index: number; goldenSize: number; goldenValue: string; runtimeSize: number; runtimeValue: string; measurementSource: "Driver" | "Firmware" }[];
  opaqueMismatches: { id: number; name: string; goldenType: "MIN_SVN"; goldenValue: number; runtimeType?: "MIN_SVN"; runtimeValue?: number }[];
  attesterClaims: Record<string, number>;
  compared: number;
  nvdec0: "enabled" | "disabled" | "absent" | "not-applicable";
  driverVersion: { rimVersion: string; evidenceVersion: string | null; matches: boolean } | null;
  firmwareVersion: { rimVersion: string; evidenceVersion: string | null; matches: boolean };
}

export interface RimEnvelopeJson {
  id: string; rim: Uint8Array; rimFormat: string | null; lastUpdated: string | null; requestId: string | null;
}

/** What a RIM document says it is (`identifyRim`), read from its `Meta`. */
export interface RimIdentity {
  /** A driver RIM (a GPU's driver version) or a firmware RIM (VBIOS, switch BIOS). */
  kind: "driver" | "firmware";
  /** The architecture whose RIM chip is `product`; null for a chip the table does not have. */
  arch: Arch | null;
  /** `Meta@product`, e.g. "GH100". */
  product: string | null;
  /** `Meta@colloquialVersion`, e.g. "550.144.03" or "96.00.5E.00.01". */
  version: string;
  /** `SoftwareIdentity@name`. */
  name: string;
}
