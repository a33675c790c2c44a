// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// The architecture table (src/wasm/arch.rs; full builds only: the `Arch` union is generated
// from the table in every build).

/** One architecture's row, with its evidence profiles and endpoints (the JS `Architecture`). */
export interface Architecture {
  /** Its evidence profiles (firmware engines), as reports name them. */
  evidenceProfiles: string[];
  /** The attest endpoints that accept it as `arch`. */
  endpoints: AttestEndpoint[];
  /** The wire value of `arch`: `HOPPER`, `BLACKWELL`, `LS10`. */
  name: Arch;
  /** GPU or switch: which attest endpoints accept it, which opaque data it reports. */
  deviceKind: "gpu" | "switch";
  /**
   * The chips whose certificates name this architecture, each with its FWID source and RIM
   * chip. The first is the one named when no certificate says which (before verification:
   * a host prefetching RIMs), as NVIDIA's verifiers name `GB100` for Blackwell evidence
   * without `CHIP_INFO`.
   */
  chips: {
    /** The first word of a verified chain's `hwmodel` (`GB20X A01 GSP BROM` → `GB20X`). */
    word: string;
    /**
     * The chip of RIM ids and runtime values for evidence without `CHIP_INFO`; `None` when the
     * word names several dies (`GB20X`): such evidence must carry `CHIP_INFO`.
     */
    rimChip: string | null;
    /**
     * The `CHIP_INFO` values (opaque tag 35: the chips NVIDIA publishes driver RIMs under)
     * seen with this chip word, besides `rim_chip`: `GB202` for `GB20X`.
     */
    chipInfos: string[];
    /** Where the leaf certificate carries the FWID. */
    fwidSource: "dice" | "tcb-info";
  }[];
  /** The driver RIM id; `None` when the architecture has no driver RIM (switches). */
  driverRim: {
    /** `NV_GPU_DRIVER_`, `NV_GPU_CC_DRIVER_`. */
    prefix: string;
    /**
     * Whether the chip is the evidence's `CHIP_INFO` when it has one (else the certificate
     * chip's `rim_chip`: drivers from before `CHIP_INFO` are published under it).
     */
    chipInfo: boolean;
  } | null;
  /** The firmware (VBIOS, switch BIOS, FSP firmware) RIM id. */
  firmwareRim: {
    "scheme": "vbios";
    /** Whether the architecture has FSP evidence. */
    fsp: boolean;
  } | {
    "scheme": "switchBios";
    /** E.g. `NV_SWITCH_BIOS_5612_0002_890_`. */
    prefix: string;
  };
}
