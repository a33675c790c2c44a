//! The expected verdict of every evidence, device chain and RIM fixture, in one place: the
//! native suites (`tests/it/evidence/fixtures.rs`, `tests/it/chain/nvidia.rs`,
//! `tests/it/rim/signature.rs`) and the wasm suites (software and WebCrypto backends, in Node,
//! Chromium and Firefox) read these tables. Paths are relative to `tests/fixtures/nvidia/`.
#![allow(dead_code)] // each test crate uses part of it

use edgeattest::attest::Arch;

/// Evidence and chain fixtures: 2026-09-21 (every device chain valid, none expired).
pub(crate) const NOW: u64 = 1_790_000_000;
/// The nonce of most NVAT samples.
pub(crate) const N931: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";

/// A fixture report that verifies: (report, chain, arch, nonce, driver, vbios, FWID in the
/// evidence).
pub(crate) type ValidEvidence = (
    &'static str,
    &'static str,
    Arch,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    bool,
);

/// Every report fixture that verifies.
pub(crate) const EVIDENCE_VALID: [ValidEvidence; 9] = [
    (
        "evidence/hopper/nvtrust_hopper_550.90.07_report.hex",
        "evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem",
        Arch::Hopper,
        N931,
        Some("550.90.07"),
        Some("96.00.9F.00.01"),
        true,
    ),
    (
        "evidence/hopper/nvat_hopper_580.159.03_report.hex",
        "evidence/hopper/nvat_hopper_580.159.03_certchain.pem",
        Arch::Hopper,
        "5bb22e377702d4e1e8215a903ba094826b9ac7f731dee1fe8102958bf2840aca",
        Some("580.159.03"),
        Some("96.00.74.00.20"),
        true,
    ),
    (
        "evidence/hopper/nvat_hopper_535.86.09_report.hex",
        "evidence/hopper/nvat_hopper_535.86.09_certchain.pem",
        Arch::Hopper,
        "27a328247bf7935c993341cf587be6f05986ccce4fe7ba2c54100bd616a58f66",
        Some("535.86.09"),
        Some("96.00.5E.00.01"),
        false,
    ),
    (
        "evidence/hopper/nvat_hopper_570.124.03_report.hex",
        "evidence/hopper/nvat_hopper_570.124.03_certchain.pem",
        Arch::Hopper,
        N931,
        Some("570.124.03"),
        Some("96.00.5E.00.04"),
        true,
    ),
    (
        "evidence/hopper/gonvtrust_hopper_545.00_report.hex",
        "evidence/hopper/gonvtrust_hopper_545.00_certchain.pem",
        Arch::Hopper,
        "4cff7f5380ead8fad8ec2c531c110aca4302a88f603792801a8ca29ee151af2e",
        Some("545.00"),
        Some("96.00.5E.00.01"),
        false,
    ),
    (
        "evidence/blackwell/nvat_blackwell_575.32_report.hex",
        "evidence/blackwell/nvat_blackwell_575.32_certchain.pem",
        Arch::Blackwell,
        N931,
        Some("575.32"),
        Some("97.00.88.00.0F"),
        true,
    ),
    (
        "evidence/blackwell/nvat_blackwell_fsp_DERIVED_report.hex",
        "evidence/blackwell/nvat_blackwell_fsp_DERIVED_certchain.pem",
        Arch::Blackwell,
        "d42a0594c5cd5743ee08fe5ec3cf884b1fac4f106879cda98b7d1c51652b04b7",
        None,
        None,
        false,
    ),
    (
        "evidence/switch/nvat_ls10_96.10.55.00.01_report.hex",
        "evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem",
        Arch::Ls10,
        N931,
        None,
        Some("96.10.55.00.01"),
        false,
    ),
    // RTX PRO 6000 Blackwell Server Edition: chip word GB20X, CHIP_INFO GB202.
    (
        "evidence/blackwell/trustee_gb202_595.58.03_report.hex",
        "evidence/blackwell/trustee_gb202_595.58.03_certchain.pem",
        Arch::Blackwell,
        "4cff7f5380ead8fad8ec2c531c110aca4302a88f603792801a8ca29ee151af2e",
        Some("595.58.03"),
        Some("98.02.81.00.01"),
        true,
    ),
];

/// Every report fixture that is refused, with the chain it is given and its error code.
pub(crate) const EVIDENCE_REFUSED: [(&str, &str, Arch, &str, &str); 4] = [
    (
        "evidence/hopper/nvat_hopper_560.00_INVALID_SIGNATURE_report.hex",
        "evidence/hopper/nvat_hopper_570.124.03_certchain.pem",
        Arch::Hopper,
        N931,
        "ERR_EVIDENCE_SIGNATURE",
    ),
    (
        "evidence/switch/nvat_ls10_96.10.52.00.00_INVALID_SIGNATURE_report.hex",
        "evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem",
        Arch::Ls10,
        "ea038ed507a451e005bae91186bc9403150a3cb8971fdebd05ffed65eeb6a997",
        "ERR_EVIDENCE_SIGNATURE",
    ),
    (
        "evidence/hopper/gonvtrust_hopper_545.00_report.hex",
        "evidence/hopper/gonvtrust_INVALID_certchain_missing_brom.pem",
        Arch::Hopper,
        "4cff7f5380ead8fad8ec2c531c110aca4302a88f603792801a8ca29ee151af2e",
        "ERR_CHAIN_ISSUER_NOT_FOUND",
    ),
    (
        "evidence/hopper/trustee_hopper_580.95.05_report_trailing_byte.hex",
        "evidence/hopper/trustee_hopper_580.95.05_certchain.pem",
        Arch::Hopper,
        "87d8e24ab336adafe228d49e83d745f6dba4ae505372b6a5704820856b343fec",
        "ERR_EVIDENCE_TRAILING_BYTES",
    ),
];

/// Every device chain fixture that verifies to the embedded root, with its leaf's hwmodel.
pub(crate) const CHAINS: [(&str, &str); 9] = [
    (
        "evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem",
        "GH100 A01 GSP BROM",
    ),
    (
        "evidence/hopper/nvat_hopper_580.159.03_certchain.pem",
        "GH100 A01 GSP BROM",
    ),
    (
        "evidence/hopper/nvat_hopper_535.86.09_certchain.pem",
        "GH100 A01 GSP BROM",
    ),
    (
        "evidence/hopper/nvat_hopper_570.124.03_certchain.pem",
        "GH100 A01 GSP BROM",
    ),
    (
        "evidence/hopper/gonvtrust_hopper_545.00_certchain.pem",
        "GH100 A01 GSP BROM",
    ),
    (
        "evidence/hopper/trustee_hopper_580.95.05_certchain.pem",
        "GH100 A01 GSP BROM",
    ),
    (
        "evidence/blackwell/nvat_blackwell_575.32_certchain.pem",
        "GB100 A01 GSP BROM",
    ),
    (
        "evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem",
        "LS_10 A01 FSP BROM",
    ),
    (
        "evidence/blackwell/trustee_gb202_595.58.03_certchain.pem",
        "GB20X A01 GSP BROM",
    ),
];

/// Every device chain fixture that is refused, with its error code.
pub(crate) const CHAINS_REFUSED: [(&str, &str); 1] = [(
    "evidence/hopper/gonvtrust_INVALID_certchain_missing_brom.pem",
    "ERR_CHAIN_ISSUER_NOT_FOUND",
)];

/// RIM fixtures: 2023-11-14, when every signing chain of the fixtures was valid.
pub(crate) const RIM_NOW: u64 = 1_700_000_000;

/// The folders holding the RIM fixtures (every `.xml` and `.swidtag` in them is one).
pub(crate) const RIM_DIRS: [&str; 2] = ["rims/nvat", "rims/nvtrust"];

/// RIM fixtures whose content was edited after signing (lxml and xmlsec1 agree): their
/// digest fails.
pub(crate) const RIM_BROKEN_DIGEST: &[&str] = &[
    "rims/nvat/NV_GPU_DRIVER_GH100_535.86.09_measurement_mismatch.xml",
    "rims/nvat/NV_GPU_DRIVER_GH100_570.124.03_expired.xml",
    "rims/nvat/NV_SWITCH_BIOS_5612_0002_890_9610550001_invalid_signature.xml",
    "rims/nvat/NV_SWITCH_BIOS_5612_0002_890_9610550001_measurement_mismatch.xml",
];

/// RIM fixtures whose digest holds but whose signature does not verify.
pub(crate) const RIM_BAD_SIGNATURE: &[&str] = &["rims/nvat/incorrect_signature_driver_rim.xml"];

/// How many RIM fixtures there are, and how many verify: 24 PROD + 2 test RIMs from
/// nvtrust, and 4 from NVAT (550.144.03, LS10, the VBIOS mismatch RIM, the 2-certificate
/// chain RIM).
pub(crate) const RIM_COUNTS: (usize, usize) = (35, 30);

/// The expected verdict of RIM fixture `name`: `Ok(())` or the error code.
pub(crate) fn rim_verdict(name: &str) -> Result<(), &'static str> {
    if RIM_BROKEN_DIGEST.contains(&name) {
        Err("ERR_RIM_DIGEST_MISMATCH")
    } else if RIM_BAD_SIGNATURE.contains(&name) {
        Err("ERR_RIM_SIGNATURE_INVALID")
    } else {
        Ok(())
    }
}
