//! Real NVIDIA evidence: every valid fixture verifies, every negative one fails with its
//! own error (the expected verdicts: `tests/common/verdicts.rs`).
//!
//! Shared with the wasm suites (`tests/wasm_node.rs`, `tests/wasm_browser.rs`), which include
//! this file as a module: `#[test]` is wasm-bindgen-test's there, and fixtures come from
//! `tests/common/fixture_files.rs` (there is no file system in a browser).

// Crate-level here; a wasm suite that includes this file uses its own (`crate::`).
#[path = "../../common/fixture_files.rs"]
mod fixture_files;
#[path = "../../common/verdicts.rs"]
mod verdicts;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use base64::Engine;
use edgeattest::attest::{Arch, FwidPolicy, Nonce};
use edgeattest::chain::{ChainError, ChainOptions, ChainStatus, TrustStore};
use edgeattest::evidence::{
    verify_evidence, BatchPlan, DeviceInput, FwidCheck, ParseError, Transcript, VerifyContext,
    VerifyError,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

/// A fixture under `tests/fixtures/nvidia/`.
fn read(path: &str) -> String {
    crate::fixture_files::text(&format!("nvidia/{path}")).to_owned()
}

fn hex_file(path: &str) -> Vec<u8> {
    hex::decode(read(path).trim()).unwrap()
}

fn ctx<'s>(store: &'s TrustStore, arch: Arch, nonce: &str) -> VerifyContext<'s> {
    VerifyContext {
        arch,
        nonce: Nonce::parse(nonce).unwrap(),
        now: UnixTime::from_secs(NOW).unwrap(),
        trust_store: store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    }
}

fn verify(
    report: &str,
    chain: &str,
    arch: Arch,
    nonce: &str,
) -> Result<edgeattest::evidence::VerifiedEvidence, VerifyError> {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let evidence = hex_file(report);
    let pem = read(chain);
    verify_evidence(
        DeviceInput {
            evidence: &evidence,
            certificate_pem: &pem,
        },
        &ctx(&store, arch, nonce),
    )
}

use crate::verdicts::{EVIDENCE_REFUSED, EVIDENCE_VALID as VALID, N931, NOW};

#[test]
fn every_valid_fixture_verifies() {
    for (report, chain, arch, nonce, driver, vbios, has_fwid) in VALID {
        let device = verify(report, chain, arch, nonce).unwrap_or_else(|e| panic!("{report}: {e}"));
        assert_eq!(device.arch(), arch);
        assert_eq!(device.driver_version(), driver, "{report}");
        assert_eq!(device.vbios_version(), vbios, "{report}");
        // Hopper firmware from before FWID reporting omits it (passed, as NVIDIA's
        // verifiers do); switch and Blackwell FSP evidence has no place for it.
        let expected = match (has_fwid, arch) {
            (true, _) => FwidCheck::Matched,
            (false, Arch::Hopper) => FwidCheck::NotInEvidence,
            (false, _) => FwidCheck::NotApplicable,
        };
        assert_eq!(device.fwid(), expected, "{report}");
        assert_eq!(device.chain_status(), ChainStatus::Valid);
        assert_eq!(device.chain_expiration(), "9999-12-31T23:59:59Z");
        assert!(device.nonce_match() && device.signature_verified() && device.arch_check());
        assert_eq!(
            device.transcript().request.nonce.to_vec(),
            hex::decode(nonce).unwrap()
        );
    }
}

#[test]
fn the_real_service_claims_of_the_hopper_and_switch_samples() {
    let hopper = verify(VALID[0].0, VALID[0].1, Arch::Hopper, N931).unwrap();
    assert_eq!(
        hopper.ueid(),
        "478176379286082186618948445787393647364802107249"
    );
    assert_eq!(hopper.hwmodel(), Some("GH100 A01 GSP BROM"));
    let switch = verify(VALID[7].0, VALID[7].1, Arch::Ls10, N931).unwrap();
    assert_eq!(
        switch.ueid(),
        "694931143880983876767046803400974855445978836716"
    );
    assert_eq!(switch.transcript().response.blocks.len(), 31);
}

#[test]
fn the_rtx_pro_6000_is_a_blackwell_gb20x_with_its_real_values() {
    // The values trustee's parser read from the same capture
    // (`tests/fixtures/nvidia/parsed/trustee/gb202_595.58.03_claims.json`).
    let (report, chain, arch, nonce, ..) = VALID[8];
    let device = verify(report, chain, arch, nonce).unwrap();
    assert_eq!(device.hwmodel(), Some("GB20X A01 GSP BROM"));
    assert_eq!(
        device.ueid(),
        "408762037488965241743361667085904172082023387885"
    );
    assert_eq!(device.fwid(), FwidCheck::Matched);
    assert_eq!(device.transcript().response.blocks.len(), 64);
    let rims = edgeattest::evidence::device_rims(&device, None);
    let runtime = &rims.runtime;
    assert_eq!(runtime.chip_info.as_deref(), Some("GB202"));
    assert_eq!(runtime.project.as_deref(), Some("G153"));
    assert_eq!(runtime.project_sku.as_deref(), Some("0210"));
    assert_eq!(runtime.chip_sku.as_deref(), Some("895"));
    assert_eq!(
        rims.driver,
        Some(Some("NV_GPU_CC_DRIVER_GB202_595.58.03".into()))
    );
    assert_eq!(
        rims.firmware.as_deref(),
        Some("NV_GPU_VBIOS_G153_0210_895_9802810001")
    );
}

#[test]
fn blackwell_fsp_has_mixed_block_types_and_no_opaque_data() {
    let fsp = verify(VALID[6].0, VALID[6].1, Arch::Blackwell, VALID[6].3).unwrap();
    let blocks = &fsp.transcript().response.blocks;
    assert_eq!(blocks.len(), 52);
    assert!(fsp.transcript().response.opaque.is_empty());
    use edgeattest::evidence::ValueRepresentation::{Digest, RawBitStream};
    assert!(blocks.iter().any(|b| b.representation() == Digest));
    assert!(blocks.iter().any(|b| b.representation() == RawBitStream));
    let last = blocks.iter().find(|b| b.index == 52).unwrap();
    assert!(last.value.windows(5).any(|w| w == b"APSKU"));
}

#[test]
fn every_refused_fixture_fails_with_its_code() {
    for (report, chain, arch, nonce, code) in EVIDENCE_REFUSED {
        let err = verify(report, chain, arch, nonce).unwrap_err();
        assert_eq!(err.code(), code, "{report}");
    }
}

#[test]
fn invalid_signature_reports_fail() {
    for (report, chain, arch, nonce, _) in &EVIDENCE_REFUSED[..2] {
        let err = verify(report, chain, *arch, nonce).unwrap_err();
        assert_eq!(err, VerifyError::Signature, "{report}");
        assert_eq!(err.service_code(), 4013);
    }
}

#[test]
fn chain_missing_its_brom_certificate_fails() {
    let (report, chain, arch, nonce, _) = EVIDENCE_REFUSED[2];
    let err = verify(report, chain, arch, nonce).unwrap_err();
    assert!(
        matches!(err, VerifyError::Chain(ChainError::IssuerNotFound { .. })),
        "{err:?}"
    );
    assert_eq!(err.service_code(), 4014);
}

#[test]
fn trailing_byte_is_refused_and_the_rest_verifies() {
    let (report, chain, _, nonce, _) = EVIDENCE_REFUSED[3];
    let mut bytes = hex_file(report);
    assert_eq!(
        Transcript::parse(&bytes).unwrap_err(),
        ParseError::TrailingBytes {
            offset: 4129,
            count: 1
        }
    );
    let pem = read(chain);
    let store = TrustStore::nvidia_device_identity().unwrap();
    let context = ctx(&store, Arch::Hopper, nonce);
    let err = verify_evidence(
        DeviceInput {
            evidence: &bytes,
            certificate_pem: &pem,
        },
        &context,
    )
    .unwrap_err();
    assert_eq!(err.code(), "ERR_EVIDENCE_TRAILING_BYTES");
    bytes.pop();
    let device = verify_evidence(
        DeviceInput {
            evidence: &bytes,
            certificate_pem: &pem,
        },
        &context,
    )
    .unwrap();
    assert_eq!(device.driver_version(), Some("580.95.05"));
}

#[test]
fn wrong_nonce_fails() {
    let other = "00".repeat(32);
    let err = verify(VALID[0].0, VALID[0].1, Arch::Hopper, &other).unwrap_err();
    assert_eq!(err, VerifyError::NonceMismatch);
    assert_eq!(err.service_code(), 4010);
}

#[test]
fn wrong_arch_fails() {
    let err = verify(VALID[0].0, VALID[0].1, Arch::Blackwell, N931).unwrap_err();
    assert_eq!(
        err,
        VerifyError::ArchMismatch {
            found: Some("GH100".into())
        }
    );
    assert_eq!(err.code(), "ERR_EVIDENCE_ARCH_MISMATCH");
    let err = verify(VALID[7].0, VALID[7].1, Arch::Hopper, N931).unwrap_err();
    assert_eq!(
        err,
        VerifyError::ArchMismatch {
            found: Some("LS_10".into())
        }
    );
}

#[test]
fn evidence_with_another_devices_chain_fails() {
    // 535.86.09's report with 580.159.03's chain: the signature already fails.
    let err = verify(VALID[2].0, VALID[1].1, Arch::Hopper, VALID[2].3).unwrap_err();
    assert_eq!(err, VerifyError::Signature);
}

#[test]
fn any_flipped_byte_in_the_signed_region_fails() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let pem = read(VALID[0].1);
    let original = hex_file(VALID[0].0);
    let context = ctx(&store, Arch::Hopper, N931);
    let signed = original.len() - 96;
    // Every byte of the headers and the opaque area, a stride through the blocks.
    let offsets = (0..45).chain((45..3565).step_by(97)).chain(3565..signed);
    let mut tried = 0;
    for offset in offsets.filter(|o| o % 3 == 0 || *o < 45) {
        let mut bytes = original.clone();
        bytes[offset] ^= 0x20;
        let result = verify_evidence(
            DeviceInput {
                evidence: &bytes,
                certificate_pem: &pem,
            },
            &context,
        );
        assert!(result.is_err(), "flip at {offset} verified");
        tried += 1;
    }
    assert!(tried > 200);
}

#[test]
fn the_signature_region_itself_is_checked() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let pem = read(VALID[0].1);
    let original = hex_file(VALID[0].0);
    let context = ctx(&store, Arch::Hopper, N931);
    for offset in [original.len() - 96, original.len() - 49, original.len() - 1] {
        let mut bytes = original.clone();
        bytes[offset] ^= 0x01;
        let err = verify_evidence(
            DeviceInput {
                evidence: &bytes,
                certificate_pem: &pem,
            },
            &context,
        )
        .unwrap_err();
        assert_eq!(err, VerifyError::Signature, "flip at {offset}");
    }
}

struct Item {
    evidence: Vec<u8>,
    pem: String,
    nonce: String,
    arch: Arch,
}

fn serialized(file: &str) -> Vec<Item> {
    let json: serde_json::Value =
        serde_json::from_str(&read(&format!("evidence/serialized/{file}"))).unwrap();
    let b64 = base64::engine::general_purpose::STANDARD;
    json.as_array()
        .unwrap()
        .iter()
        .map(|item| Item {
            evidence: b64.decode(item["evidence"].as_str().unwrap()).unwrap(),
            pem: String::from_utf8(b64.decode(item["certificate"].as_str().unwrap()).unwrap())
                .unwrap(),
            nonce: item["nonce"].as_str().unwrap().to_owned(),
            arch: Arch::parse(item["arch"].as_str().unwrap()).unwrap(),
        })
        .collect()
}

fn verify_set(file: &str) -> (usize, usize) {
    let items = serialized(file);
    let store = TrustStore::nvidia_device_identity().unwrap();
    let context = ctx(&store, items[0].arch, &items[0].nonce);
    let inputs: Vec<DeviceInput<'_>> = items
        .iter()
        .map(|i| DeviceInput {
            evidence: &i.evidence,
            certificate_pem: &i.pem,
        })
        .collect();
    let plan = BatchPlan::new(&inputs, &context);
    let checks = plan.signature_checks().len();
    for (i, result) in plan.verify().into_iter().enumerate() {
        let device = result.unwrap_or_else(|e| panic!("{file}[{i}]: {e}"));
        assert_eq!(device.arch(), items[i].arch);
    }
    (items.len(), checks)
}

#[test]
fn serialized_sets_verify_with_shared_links_checked_once() {
    // 8 GPUs: per device evidence + leaf + BROM links; the provisioner ICA and identity
    // links are shared by all eight.
    assert_eq!(
        verify_set("nvtrust_ppcie_gpu_evidence_8gpu.json"),
        (8, 8 * 3 + 2)
    );
    assert_eq!(
        verify_set("nvtrust_ppcie_switch_evidence_4sw.json"),
        (4, 4 * 3 + 2)
    );
    // The same switch four times: everything is shared.
    assert_eq!(verify_set("nvat_multi_switch_ls10.json"), (4, 5));
    assert_eq!(verify_set("nvat_multi_gpu_hopper.json").0, 4);
    assert_eq!(verify_set("nvat_hopper_evidence.json"), (1, 5));
    assert_eq!(verify_set("nvat_evidence_hopper_590_12.json").0, 1);
    assert_eq!(verify_set("nvat_hopper_evidence_cert_hold.json").0, 1);
    assert_eq!(verify_set("nvat_switch_evidence_ls10.json").0, 1);
}

#[test]
fn batch_verdicts_from_another_backend() {
    let items = serialized("nvtrust_ppcie_gpu_evidence_8gpu.json");
    let store = TrustStore::nvidia_device_identity().unwrap();
    let context = ctx(&store, Arch::Hopper, &items[0].nonce);
    let inputs: Vec<DeviceInput<'_>> = items
        .iter()
        .map(|i| DeviceInput {
            evidence: &i.evidence,
            certificate_pem: &i.pem,
        })
        .collect();
    let plan = BatchPlan::new(&inputs, &context);
    let n = plan.signature_checks().len();
    assert_eq!(
        plan.clone().finish(&[true]).unwrap_err().code(),
        "ERR_CHAIN_VERDICT_COUNT"
    );
    // A shared link failing fails every device that uses it.
    let shared = plan
        .signature_checks()
        .iter()
        .position(|c| {
            plan.signature_checks()
                .iter()
                .filter(|d| d.public_key_sec1 == c.public_key_sec1)
                .count()
                == 1
                && c.message.len() > 400
        })
        .unwrap_or(0);
    let mut verdicts = vec![true; n];
    verdicts[shared] = false;
    let results = plan.clone().finish(&verdicts).unwrap();
    assert!(results.iter().any(Result::is_err));
    assert!(plan
        .finish(&vec![true; n])
        .unwrap()
        .iter()
        .all(Result::is_ok));
}

#[test]
fn generation_encodings_decode() {
    use edgeattest::evidence::{decode_generation1, decode_generation2};
    let bytes = hex_file(VALID[0].0);
    let b64 = base64::engine::general_purpose::STANDARD;
    let gen2 = b64.encode(&bytes);
    assert_eq!(decode_generation2(&gen2).unwrap(), bytes);
    let gen1 = b64.encode(format!("{}\n", hex::encode(&bytes)));
    assert_eq!(decode_generation1(&gen1).unwrap(), bytes);
    assert_eq!(decode_generation1(&gen2).unwrap_err(), ParseError::Encoding);
    assert_eq!(
        decode_generation2("not base64!").unwrap_err(),
        ParseError::Encoding
    );
}
