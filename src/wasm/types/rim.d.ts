// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// The RIM module (src/wasm/rim.rs): documents, their signer chains and comparisons, in the
// builds that have that module; names from the other fragments and the generated classes
// are in scope there.

/** The chain part of a verified RIM. */
export interface RimCertChain {
  /** The status at the time given. */
  status: "valid" | "expired" | "invalid";
  /**
   * The earliest `notAfter` of the validated path, Unix seconds
   * (`x-nvidia-cert-expiration-date`); absent when no path was built.
   */
  expiration: number | null;
  /** The chain error code when the status is `invalid` (`ERR_CHAIN_*`). */
  errorCode: string | null;
  /** The chain error message when the status is `invalid`. */
  problem: string | null;
  /** Common names along the validated path, signer first. */
  subjects: string[];
  /**
   * Revocation is not checked offline (OCSP needs the network): always
   * `NotChecked` (`not-checked`).
   */
  ocspStatus: "not-checked";
}

/** One measurement slot of a RIM. */
export interface GoldenMeasurement {
  /** 0-based RIM index: it is compared with SPDM block `index + 1`. */
  index: number;
  /** Whether the record takes part in the comparison. */
  active: boolean;
  /** `name` (`Measurement_7`). */
  name: string;
  /** `size` in bytes. */
  size: number;
  /** `Hash0` … `HashN-1`: any of them is an acceptable runtime value. */
  alternatives: string[];
}

/**
 * The parsed content of a RIM. Obtain it through `verify_rim` (or
 * `PendingRim`), which checks the signature over exactly this content.
 */
export interface RimDocumentJson {
  /** `SoftwareIdentity@name` (`GH100`, `LS10`). */
  name: string;
  /** `SoftwareIdentity@tagId`. */
  tagId: string | null;
  /** `SoftwareIdentity@version`. */
  version: string | null;
  /** `Meta`. */
  meta: {
    /**
     * `colloquialVersion`: the driver version (`550.144.03`) or firmware version in dotted
     * upper-case hex (`96.00.5E.00.01`).
     */
    colloquialVersion: string;
    /** `edition`: `GPU` or `SWITCH`. */
    edition: string | null;
    /** `product`: `GH100`, `GB100`, `LS10`. */
    product: string | null;
    /** `revision`. */
    revision: string | null;
    /** TCG `FirmwareManufacturerId` (`5703`), the `oemid` claim of the driver RIM. */
    firmwareManufacturerId: string | null;
    /** TCG `PlatformModel`. */
    platformModel: string | null;
  };
  /** Every measurement record in document order (active and inactive). */
  measurements: GoldenMeasurement[];
  /** Opaque-data floors (`ns3` records). */
  opaqueFloors: {
    /** The opaque-data id (`37` = `FSP_UCODE_MIN_SVN`). */
    id: number;
    /** The RIM index of the record. */
    index: number;
    /** `name`. */
    name: string;
    /** Whether the record is active (inactive floors are not compared). */
    active: boolean;
    /** `ns3:minSvn`: the runtime value must be at least this. */
    minSvn: number;
    /** `ns3:includeInResult`: copy the runtime value to `x-nvidia-attester-claims`. */
    includeInResult: boolean;
  }[];
}

/** A RIM whose signature verified; its chain status says whether the signer is trusted. */
export interface VerifiedRimJson {
  document: RimDocumentJson;
  certChain: RimCertChain;
}

/** A `Comparison` with its verdicts spelt out (`report`). */
export interface RimComparison {
  /** `measres`. */
  measres: "success" | "fail";
  /** `all_match`. */
  allMatch: boolean;
  /** Every active record matched and every floor met (`measres` `success`). */
  measurementsMatch: boolean;
  /** Mismatched records, driver records first, each RIM in index order. */
  mismatches: {
    /** RIM (0-based) index. */
    index: number;
    /** Golden size in bytes. */
    goldenSize: number;
    /** First alternative, lower-case hex. */
    goldenValue: string;
    /** Runtime size in bytes (0 when the block is missing). */
    runtimeSize: number;
    /** Runtime value, lower-case hex, or `NA` when the block is missing. */
    runtimeValue: string;
    /** Which RIM the record came from. */
    measurementSource: "Driver" | "Firmware";
  }[];
  /** Unmet floors. */
  opaqueMismatches: {
    /** The opaque id. */
    id: number;
    /** The record's name. */
    name: string;
    /** `MIN_SVN`. */
    goldenType: "MIN_SVN";
    /** The floor. */
    goldenValue: number;
    /** `MIN_SVN` when the runtime entry has the right type, absent otherwise. */
    runtimeType?: "MIN_SVN";
    /** The runtime value, when the entry has the right type. */
    runtimeValue?: number;
  }[];
  /** Runtime values of floors flagged "include in result" (`x-nvidia-attester-claims`). */
  attesterClaims: Record<string, number>;
  /** Number of golden records compared. */
  compared: number;
  /** The NVDEC0 rule applied. */
  nvdec0: "enabled" | "disabled" | "absent" | "not-applicable";
  /** Driver RIM version check (GPU only). */
  driverVersion: {
    /** The RIM's version. */
    rimVersion: string;
    /** The evidence's version, if it has one. */
    evidenceVersion: string | null;
    /** Exact equality. */
    matches: boolean;
  } | null;
  /** Firmware RIM version check. */
  firmwareVersion: {
    /** The RIM's version. */
    rimVersion: string;
    /** The evidence's version, if it has one. */
    evidenceVersion: string | null;
    /** Exact equality. */
    matches: boolean;
  };
}

/**
 * A checked RIM service response (serialized as the JS `RimEnvelopeJson`, the document as
 * bytes).
 */
export interface RimEnvelopeJson {
  /** The RIM id (equal to the one requested). */
  id: string;
  /** The decoded document. */
  rim: Uint8Array;
  /** `rim_format`, when present (`TCG` for SWID XML). */
  rimFormat: string | null;
  /** `last_updated`, when present. */
  lastUpdated: string | null;
  /** `request_id`, when present. */
  requestId: string | null;
  /** `coev`, decoded, when present (CoRIMs only): kept for the host, not interpreted. */
  coev: Uint8Array | null;
}

/** What a RIM document is (the JS `RimIdentity`). */
export interface RimIdentity {
  /** `driver` or `firmware`. */
  kind: "driver" | "firmware";
  /**
   * The architecture one of whose chips' RIMs are named by the document's `product` (a RIM
   * chip or a `CHIP_INFO` value of the table); `None` for a chip the table does not have.
   */
  arch: Arch | null;
  /** `Meta@product`. */
  product: string | null;
  /** `Meta@colloquialVersion`. */
  version: string;
  /** `SoftwareIdentity@name`. */
  name: string;
}

/**
 * The JSON form of `RuntimeEvidence`; convert with `From` both ways. Unknown members are
 * refused.
 */
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
  opaque?: {
    id: number;
    valueType?: number;
    value: string | Uint8Array;
  }[];
  hwmodel?: string;
  apsku?: number;
  firmwareVersionHint?: string;
}

/** One ECDSA P-384/SHA-384 verification: a public key, a message and a raw `r‖s` signature. */
export interface SignatureCheckData {
  /** SEC1 encoding of the public key (uncompressed `04‖x‖y`, 97 bytes, or compressed). */
  publicKey: Uint8Array;
  /** The signed message (hashed with SHA-384 by the check). */
  message: Uint8Array;
  /** The raw `r‖s` signature. */
  signature: Uint8Array;
}
