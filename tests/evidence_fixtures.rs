//! Real NVIDIA evidence: every valid fixture verifies, every negative one fails with its
//! own error.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] functions

use base64::Engine;
use edgeattest::attest::{Arch, Nonce};
use edgeattest::chain::{ChainError, ChainOptions, ChainStatus, TrustStore};
use edgeattest::evidence::{
    verify_evidence, BatchPlan, DeviceInput, FwidCheck, FwidPolicy, ParseError, Transcript,
    VerifyContext, VerifyError,
};
use edgeattest::ErrorCode;

const NOW: u64 = 1_790_000_000; // 2026-09-21
const N931: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";

fn read(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/nvidia/evidence/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn hex_file(path: &str) -> Vec<u8> {
    hex::decode(read(path).trim()).unwrap()
}

fn ctx<'s>(store: &'s TrustStore, arch: Arch, nonce: &str) -> VerifyContext<'s> {
    VerifyContext {
        arch,
        nonce: Nonce::parse(nonce).unwrap(),
        now: NOW,
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

/// (report, chain, arch, nonce, driver, vbios, fwid in evidence)
type Valid = (
    &'static str,
    &'static str,
    Arch,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    bool,
);

const VALID: [Valid; 8] = [
    (
        "hopper/nvtrust_hopper_550.90.07_report.hex",
        "hopper/nvtrust_hopper_550.90.07_certchain.pem",
        Arch::Hopper,
        N931,
        Some("550.90.07"),
        Some("96.00.9F.00.01"),
        true,
    ),
    (
        "hopper/nvat_hopper_580.159.03_report.hex",
        "hopper/nvat_hopper_580.159.03_certchain.pem",
        Arch::Hopper,
        "5bb22e377702d4e1e8215a903ba094826b9ac7f731dee1fe8102958bf2840aca",
        Some("580.159.03"),
        Some("96.00.74.00.20"),
        true,
    ),
    (
        "hopper/nvat_hopper_535.86.09_report.hex",
        "hopper/nvat_hopper_535.86.09_certchain.pem",
        Arch::Hopper,
        "27a328247bf7935c993341cf587be6f05986ccce4fe7ba2c54100bd616a58f66",
        Some("535.86.09"),
        Some("96.00.5E.00.01"),
        false,
    ),
    (
        "hopper/nvat_hopper_570.124.03_report.hex",
        "hopper/nvat_hopper_570.124.03_certchain.pem",
        Arch::Hopper,
        N931,
        Some("570.124.03"),
        Some("96.00.5E.00.04"),
        true,
    ),
    (
        "hopper/gonvtrust_hopper_545.00_report.hex",
        "hopper/gonvtrust_hopper_545.00_certchain.pem",
        Arch::Hopper,
        "4cff7f5380ead8fad8ec2c531c110aca4302a88f603792801a8ca29ee151af2e",
        Some("545.00"),
        Some("96.00.5E.00.01"),
        false,
    ),
    (
        "blackwell/nvat_blackwell_575.32_report.hex",
        "blackwell/nvat_blackwell_575.32_certchain.pem",
        Arch::Blackwell,
        N931,
        Some("575.32"),
        Some("97.00.88.00.0F"),
        true,
    ),
    (
        "blackwell/nvat_blackwell_fsp_DERIVED_report.hex",
        "blackwell/nvat_blackwell_fsp_DERIVED_certchain.pem",
        Arch::Blackwell,
        "d42a0594c5cd5743ee08fe5ec3cf884b1fac4f106879cda98b7d1c51652b04b7",
        None,
        None,
        false,
    ),
    (
        "switch/nvat_ls10_96.10.55.00.01_report.hex",
        "switch/nvat_ls10_96.10.55.00.01_certchain.pem",
        Arch::Ls10,
        N931,
        None,
        Some("96.10.55.00.01"),
        false,
    ),
];

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
fn invalid_signature_reports_fail() {
    let err = verify(
        "hopper/nvat_hopper_560.00_INVALID_SIGNATURE_report.hex",
        "hopper/nvat_hopper_570.124.03_certchain.pem",
        Arch::Hopper,
        N931,
    )
    .unwrap_err();
    assert_eq!(err, VerifyError::Signature);
    assert_eq!(err.code(), "ERR_EVIDENCE_SIGNATURE");
    assert_eq!(err.service_code(), 4013);
    let err = verify(
        "switch/nvat_ls10_96.10.52.00.00_INVALID_SIGNATURE_report.hex",
        "switch/nvat_ls10_96.10.55.00.01_certchain.pem",
        Arch::Ls10,
        "ea038ed507a451e005bae91186bc9403150a3cb8971fdebd05ffed65eeb6a997",
    )
    .unwrap_err();
    assert_eq!(err, VerifyError::Signature);
}

#[test]
fn chain_missing_its_brom_certificate_fails() {
    let err = verify(
        "hopper/gonvtrust_hopper_545.00_report.hex",
        "hopper/gonvtrust_INVALID_certchain_missing_brom.pem",
        Arch::Hopper,
        VALID[4].3,
    )
    .unwrap_err();
    assert!(
        matches!(err, VerifyError::Chain(ChainError::IssuerNotFound { .. })),
        "{err:?}"
    );
    assert_eq!(err.code(), "ERR_CHAIN_ISSUER_NOT_FOUND");
    assert_eq!(err.service_code(), 4014);
}

#[test]
fn trailing_byte_is_refused_and_the_rest_verifies() {
    let mut bytes = hex_file("hopper/trustee_hopper_580.95.05_report_trailing_byte.hex");
    assert_eq!(
        Transcript::parse(&bytes).unwrap_err(),
        ParseError::TrailingBytes {
            offset: 4129,
            count: 1
        }
    );
    let pem = read("hopper/trustee_hopper_580.95.05_certchain.pem");
    let store = TrustStore::nvidia_device_identity().unwrap();
    let context = ctx(
        &store,
        Arch::Hopper,
        "87d8e24ab336adafe228d49e83d745f6dba4ae505372b6a5704820856b343fec",
    );
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
        serde_json::from_str(&read(&format!("serialized/{file}"))).unwrap();
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
