// Hand-written declarations spliced into the generated edgeattest.d.ts by the
// typescript_custom_section in src/wasm/arch.rs (full builds only; the `Arch` union is
// generated from the architecture table in every build).
/** One row of the architecture table (`architectures()`). */
export interface Architecture {
  /** The wire value of `arch`. */
  name: Arch;
  /** Which attest endpoints take it: `/v…/attest/gpu` or `/v…/attest/switch`. */
  deviceKind: "gpu" | "switch";
  /** The chip words of a certificate's `hwmodel` that name it (`GH100`, `LS_10`). */
  chips: string[];
  /** The chip name in RIM ids when no certificate gives one. */
  rimChip: string;
  /** The leaf certificate extension that carries the FWID. */
  fwidSource: "dice" | "tcb-info";
  /** The driver RIM id scheme; null when there is no driver RIM (switches). */
  driverRim: { prefix: string; chipInfo: boolean } | null;
  /** The firmware RIM id scheme. */
  firmwareRim: { scheme: "vbios"; fsp: boolean } | { scheme: "switchBios"; prefix: string };
  /** The evidence profiles (firmware engines) of the architecture, as reports name them. */
  evidenceProfiles: string[];
  /** The attest endpoints that accept it as `arch`. */
  endpoints: AttestEndpoint[];
}
