//! The fixture files the shared suites read, embedded at compile time: the wasm suites have
//! no file system, and the native suites read the very same bytes through the same table.
//! Paths are relative to `tests/fixtures/`. Every file of the embedded folders is listed (a
//! native test compares the table with the folders, so a new fixture cannot be left out).
#![allow(dead_code, clippy::panic)] // each test crate uses part of it; a missing name is a bug

/// The folders embedded whole, and whether with their subfolders (the table must list every
/// file in them; `vectors/wycheproof/schemas/` is left out).
pub(crate) const EMBEDDED_DIRS: &[(&str, bool)] = &[
    ("nvidia/evidence", true),
    ("nvidia/rims", true),
    ("nvidia/roots", true),
    ("nvidia/nras/teep", true),
    ("vectors/wycheproof", false),
];

/// (path under `tests/fixtures/`, contents).
pub(crate) static FILES: &[(&str, &[u8])] = &[
    ("generated-rim/canonical.json", include_bytes!("../fixtures/generated-rim/canonical.json")),
    ("nvidia/evidence/blackwell/nvat_blackwell_575.32_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/blackwell/nvat_blackwell_575.32_certchain.pem")),
    ("nvidia/evidence/blackwell/nvat_blackwell_575.32_report.hex", include_bytes!("../fixtures/nvidia/evidence/blackwell/nvat_blackwell_575.32_report.hex")),
    ("nvidia/evidence/blackwell/nvat_blackwell_fsp_DERIVED_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/blackwell/nvat_blackwell_fsp_DERIVED_certchain.pem")),
    ("nvidia/evidence/blackwell/nvat_blackwell_fsp_DERIVED_report.hex", include_bytes!("../fixtures/nvidia/evidence/blackwell/nvat_blackwell_fsp_DERIVED_report.hex")),
    ("nvidia/evidence/blackwell/nvat_blackwell_fsp_evidence.cmw.json", include_bytes!("../fixtures/nvidia/evidence/blackwell/nvat_blackwell_fsp_evidence.cmw.json")),
    ("nvidia/evidence/blackwell/trustee_gb202_595.58.03_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/blackwell/trustee_gb202_595.58.03_certchain.pem")),
    ("nvidia/evidence/blackwell/trustee_gb202_595.58.03_report.hex", include_bytes!("../fixtures/nvidia/evidence/blackwell/trustee_gb202_595.58.03_report.hex")),
    ("nvidia/evidence/hopper/gonvtrust_INVALID_certchain_missing_brom.pem", include_bytes!("../fixtures/nvidia/evidence/hopper/gonvtrust_INVALID_certchain_missing_brom.pem")),
    ("nvidia/evidence/hopper/gonvtrust_hopper_545.00_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/hopper/gonvtrust_hopper_545.00_certchain.pem")),
    ("nvidia/evidence/hopper/gonvtrust_hopper_545.00_report.hex", include_bytes!("../fixtures/nvidia/evidence/hopper/gonvtrust_hopper_545.00_report.hex")),
    ("nvidia/evidence/hopper/nvat_hopper_535.86.09_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/hopper/nvat_hopper_535.86.09_certchain.pem")),
    ("nvidia/evidence/hopper/nvat_hopper_535.86.09_report.hex", include_bytes!("../fixtures/nvidia/evidence/hopper/nvat_hopper_535.86.09_report.hex")),
    ("nvidia/evidence/hopper/nvat_hopper_560.00_INVALID_SIGNATURE_report.hex", include_bytes!("../fixtures/nvidia/evidence/hopper/nvat_hopper_560.00_INVALID_SIGNATURE_report.hex")),
    ("nvidia/evidence/hopper/nvat_hopper_570.124.03_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/hopper/nvat_hopper_570.124.03_certchain.pem")),
    ("nvidia/evidence/hopper/nvat_hopper_570.124.03_report.hex", include_bytes!("../fixtures/nvidia/evidence/hopper/nvat_hopper_570.124.03_report.hex")),
    ("nvidia/evidence/hopper/nvat_hopper_580.159.03_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/hopper/nvat_hopper_580.159.03_certchain.pem")),
    ("nvidia/evidence/hopper/nvat_hopper_580.159.03_report.hex", include_bytes!("../fixtures/nvidia/evidence/hopper/nvat_hopper_580.159.03_report.hex")),
    ("nvidia/evidence/hopper/nvat_nvdaod_620.12_transcript_NO_CHAIN.hex", include_bytes!("../fixtures/nvidia/evidence/hopper/nvat_nvdaod_620.12_transcript_NO_CHAIN.hex")),
    ("nvidia/evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem")),
    ("nvidia/evidence/hopper/nvtrust_hopper_550.90.07_report.hex", include_bytes!("../fixtures/nvidia/evidence/hopper/nvtrust_hopper_550.90.07_report.hex")),
    ("nvidia/evidence/hopper/trustee_hopper_580.95.05_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/hopper/trustee_hopper_580.95.05_certchain.pem")),
    ("nvidia/evidence/hopper/trustee_hopper_580.95.05_report_trailing_byte.hex", include_bytes!("../fixtures/nvidia/evidence/hopper/trustee_hopper_580.95.05_report_trailing_byte.hex")),
    ("nvidia/evidence/serialized/nvat_evidence_hopper_590_12.json", include_bytes!("../fixtures/nvidia/evidence/serialized/nvat_evidence_hopper_590_12.json")),
    ("nvidia/evidence/serialized/nvat_hopper_evidence.json", include_bytes!("../fixtures/nvidia/evidence/serialized/nvat_hopper_evidence.json")),
    ("nvidia/evidence/serialized/nvat_hopper_evidence_cert_hold.json", include_bytes!("../fixtures/nvidia/evidence/serialized/nvat_hopper_evidence_cert_hold.json")),
    ("nvidia/evidence/serialized/nvat_multi_gpu_hopper.json", include_bytes!("../fixtures/nvidia/evidence/serialized/nvat_multi_gpu_hopper.json")),
    ("nvidia/evidence/serialized/nvat_multi_switch_ls10.json", include_bytes!("../fixtures/nvidia/evidence/serialized/nvat_multi_switch_ls10.json")),
    ("nvidia/evidence/serialized/nvat_switch_evidence_ls10.json", include_bytes!("../fixtures/nvidia/evidence/serialized/nvat_switch_evidence_ls10.json")),
    ("nvidia/evidence/serialized/nvtrust_ppcie_gpu_evidence_8gpu.json", include_bytes!("../fixtures/nvidia/evidence/serialized/nvtrust_ppcie_gpu_evidence_8gpu.json")),
    ("nvidia/evidence/serialized/nvtrust_ppcie_switch_evidence_4sw.json", include_bytes!("../fixtures/nvidia/evidence/serialized/nvtrust_ppcie_switch_evidence_4sw.json")),
    ("nvidia/evidence/switch/nvat_ls10_96.10.52.00.00_INVALID_SIGNATURE_report.hex", include_bytes!("../fixtures/nvidia/evidence/switch/nvat_ls10_96.10.52.00.00_INVALID_SIGNATURE_report.hex")),
    ("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem", include_bytes!("../fixtures/nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem")),
    ("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_report.hex", include_bytes!("../fixtures/nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_report.hex")),
    ("nvidia/nras/teep/v3_1gpu_success_20260629_jwks.json", include_bytes!("../fixtures/nvidia/nras/teep/v3_1gpu_success_20260629_jwks.json")),
    ("nvidia/nras/teep/v3_1gpu_success_20260629_request.json", include_bytes!("../fixtures/nvidia/nras/teep/v3_1gpu_success_20260629_request.json")),
    ("nvidia/nras/teep/v3_1gpu_success_20260629_response.json", include_bytes!("../fixtures/nvidia/nras/teep/v3_1gpu_success_20260629_response.json")),
    ("nvidia/nras/teep/v3_8gpu_nonce_mismatch_20260520_jwks.json", include_bytes!("../fixtures/nvidia/nras/teep/v3_8gpu_nonce_mismatch_20260520_jwks.json")),
    ("nvidia/nras/teep/v3_8gpu_nonce_mismatch_20260520_request.json", include_bytes!("../fixtures/nvidia/nras/teep/v3_8gpu_nonce_mismatch_20260520_request.json")),
    ("nvidia/nras/teep/v3_8gpu_nonce_mismatch_20260520_response.json", include_bytes!("../fixtures/nvidia/nras/teep/v3_8gpu_nonce_mismatch_20260520_response.json")),
    ("nvidia/nras/teep/v3_8gpu_success_20260629_jwks.json", include_bytes!("../fixtures/nvidia/nras/teep/v3_8gpu_success_20260629_jwks.json")),
    ("nvidia/nras/teep/v3_8gpu_success_20260629_request.json", include_bytes!("../fixtures/nvidia/nras/teep/v3_8gpu_success_20260629_request.json")),
    ("nvidia/nras/teep/v3_8gpu_success_20260629_response.json", include_bytes!("../fixtures/nvidia/nras/teep/v3_8gpu_success_20260629_response.json")),
    ("nvidia/rims/nvat/NV_GPU_DRIVER_GH100_535.86.09_measurement_mismatch.xml", include_bytes!("../fixtures/nvidia/rims/nvat/NV_GPU_DRIVER_GH100_535.86.09_measurement_mismatch.xml")),
    ("nvidia/rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml", include_bytes!("../fixtures/nvidia/rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml")),
    ("nvidia/rims/nvat/NV_GPU_DRIVER_GH100_570.124.03_expired.xml", include_bytes!("../fixtures/nvidia/rims/nvat/NV_GPU_DRIVER_GH100_570.124.03_expired.xml")),
    ("nvidia/rims/nvat/NV_GPU_VBIOS_1010_0200_882_96005E0001_measurement_mismatch.xml", include_bytes!("../fixtures/nvidia/rims/nvat/NV_GPU_VBIOS_1010_0200_882_96005E0001_measurement_mismatch.xml")),
    ("nvidia/rims/nvat/NV_SWITCH_BIOS_5612_0002_890_9610550001_invalid_signature.xml", include_bytes!("../fixtures/nvidia/rims/nvat/NV_SWITCH_BIOS_5612_0002_890_9610550001_invalid_signature.xml")),
    ("nvidia/rims/nvat/NV_SWITCH_BIOS_5612_0002_890_9610550001_measurement_mismatch.xml", include_bytes!("../fixtures/nvidia/rims/nvat/NV_SWITCH_BIOS_5612_0002_890_9610550001_measurement_mismatch.xml")),
    ("nvidia/rims/nvat/incorrect_cert_chain_driver_rim.xml", include_bytes!("../fixtures/nvidia/rims/nvat/incorrect_cert_chain_driver_rim.xml")),
    ("nvidia/rims/nvat/incorrect_rim_root.crt", include_bytes!("../fixtures/nvidia/rims/nvat/incorrect_rim_root.crt")),
    ("nvidia/rims/nvat/incorrect_signature_driver_rim.xml", include_bytes!("../fixtures/nvidia/rims/nvat/incorrect_signature_driver_rim.xml")),
    ("nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml", include_bytes!("../fixtures/nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml")),
    ("nvidia/rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag")),
    ("nvidia/rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag")),
    ("nvidia/rims/nvtrust/1010_0200_882_96005E0003_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0200_882_96005E0003_PROD.swidtag")),
    ("nvidia/rims/nvtrust/1010_0200_882_960074001A_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0200_882_960074001A_PROD.swidtag")),
    ("nvidia/rims/nvtrust/1010_0200_882_960074001C_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0200_882_960074001C_PROD.swidtag")),
    ("nvidia/rims/nvtrust/1010_0205_862_96005E0002_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0205_862_96005E0002_PROD.swidtag")),
    ("nvidia/rims/nvtrust/1010_0205_862_96005E0004_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0205_862_96005E0004_PROD.swidtag")),
    ("nvidia/rims/nvtrust/1010_0205_862_960074001F_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0205_862_960074001F_PROD.swidtag")),
    ("nvidia/rims/nvtrust/1010_0205_862_9600740020_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0205_862_9600740020_PROD.swidtag")),
    ("nvidia/rims/nvtrust/1010_0210_886_9600740011_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0210_886_9600740011_PROD.swidtag")),
    ("nvidia/rims/nvtrust/1010_0215_866_9600740010_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/1010_0215_866_9600740010_PROD.swidtag")),
    ("nvidia/rims/nvtrust/Driver_RIM_test_no_gpu.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/Driver_RIM_test_no_gpu.swidtag")),
    ("nvidia/rims/nvtrust/g520_0200_885_9600740001_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0200_885_9600740001_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0200_885_960074000D_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0200_885_960074000D_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0202_885_96006D0008_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0202_885_96006D0008_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0202_885_96006D0027_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0202_885_96006D0027_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0202_885_9600740014_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0202_885_9600740014_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0202_885_9600740018_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0202_885_9600740018_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0205_865_9600740006_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0205_865_9600740006_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0205_865_960074000F_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0205_865_960074000F_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0207_865_9600740015_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0207_865_9600740015_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0207_865_9600740019_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0207_865_9600740019_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0213_881_96006D0007_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0213_881_96006D0007_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0213_881_96006D0026_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0213_881_96006D0026_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0228_889_96006D000A_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0228_889_96006D000A_PROD.swidtag")),
    ("nvidia/rims/nvtrust/g520_0228_889_96006D0029_PROD.swidtag", include_bytes!("../fixtures/nvidia/rims/nvtrust/g520_0228_889_96006D0029_PROD.swidtag")),
    ("nvidia/roots/nvidia_device_identity_ca.pem", include_bytes!("../fixtures/nvidia/roots/nvidia_device_identity_ca.pem")),
    ("nvidia/roots/nvidia_rim_root_ca.pem", include_bytes!("../fixtures/nvidia/roots/nvidia_rim_root_ca.pem")),
    ("vectors/wycheproof/ecdh_secp384r1_webcrypto_test.json", include_bytes!("../fixtures/vectors/wycheproof/ecdh_secp384r1_webcrypto_test.json")),
    ("vectors/wycheproof/ecdsa_secp384r1_sha384_p1363_test.json", include_bytes!("../fixtures/vectors/wycheproof/ecdsa_secp384r1_sha384_p1363_test.json")),
    ("vectors/wycheproof/ecdsa_secp384r1_sha384_test.json", include_bytes!("../fixtures/vectors/wycheproof/ecdsa_secp384r1_sha384_test.json")),
    ("vectors/wycheproof/json_web_key_test.json", include_bytes!("../fixtures/vectors/wycheproof/json_web_key_test.json")),
    ("vectors/wycheproof/json_web_signature_test.json", include_bytes!("../fixtures/vectors/wycheproof/json_web_signature_test.json")),
];

/// The bytes of `path` (relative to `tests/fixtures/`).
pub(crate) fn bytes(path: &str) -> &'static [u8] {
    match FILES.iter().find(|(name, _)| *name == path) {
        Some((_, contents)) => contents,
        None => panic!("{path} is not in tests/common/fixture_files.rs"),
    }
}

/// The text of `path` (relative to `tests/fixtures/`).
pub(crate) fn text(path: &str) -> &'static str {
    match core::str::from_utf8(bytes(path)) {
        Ok(text) => text,
        Err(_) => panic!("{path} is not UTF-8"),
    }
}

/// The files directly in folder `dir` (relative to `tests/fixtures/`), sorted by path.
pub(crate) fn files_in(dir: &str) -> Vec<&'static str> {
    let mut names: Vec<&str> = FILES
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| {
            name.strip_prefix(dir)
                .and_then(|rest| rest.strip_prefix('/'))
                .is_some_and(|rest| !rest.contains('/'))
        })
        .collect();
    names.sort_unstable();
    names
}

/// Native only: the table lists exactly the files of [`EMBEDDED_DIRS`].
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn assert_table_is_complete() {
    fn walk(dir: &std::path::Path, base: &std::path::Path, deep: bool, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.map(|e| e.path()).unwrap_or_else(|e| panic!("{e}"));
            if path.is_dir() {
                if deep {
                    walk(&path, base, deep, out);
                }
            } else if let Ok(rel) = path.strip_prefix(base) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut on_disk = Vec::new();
    for (dir, deep) in EMBEDDED_DIRS {
        walk(&base.join(dir), &base, *deep, &mut on_disk);
    }
    on_disk.sort();
    let mut listed: Vec<String> = FILES
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .filter(|name| {
            EMBEDDED_DIRS
                .iter()
                .any(|(d, _)| name.starts_with(&format!("{d}/")))
        })
        .collect();
    listed.sort();
    assert_eq!(
        listed, on_disk,
        "regenerate the table in tests/common/fixture_files.rs"
    );
}
