//! The verification report and the service cannot disagree: for the same device, RIMs and
//! time, the service's overall result is true exactly when the report's verdict is not
//! `failed` (`partial` is a pass with warnings for both), on passing and failing fixtures.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::attest::{FwidPolicy, Nonce};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::crypto::SigningKey;
use edgeattest::evidence::{
    DeviceInput, DeviceReport, ReportPlan, RevocationInput, RimDocuments, Verdict, VerifyContext,
};
use edgeattest::rim::{RimTrust, NVIDIA_RIM_ROOT_PEM};
use edgeattest::service::{KeyRing, Request, Service, ServiceConfig};
use edgeattest::UnixTime;
use serde_json::{json, Value};

fn fixture(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn text(path: &str) -> String {
    String::from_utf8(fixture(path)).unwrap()
}

fn rim_trust() -> RimTrust {
    let extra = text("generated/blackwell/rim_root.pem");
    RimTrust::from_store(TrustStore::from_pem(&format!("{NVIDIA_RIM_ROOT_PEM}\n{extra}")).unwrap())
}

/// One case: a device, the RIM files given as (role, id the service stores it under, path),
/// and the time.
struct Case {
    arch: &'static str,
    report: &'static str,
    chain: &'static str,
    rims: Vec<(&'static str, &'static str, &'static str)>,
    now: u64,
    tamper: bool,
    /// The host's OCSP answer said a certificate is revoked (the service run checks none).
    revoked: bool,
}

impl Case {
    fn evidence(&self) -> Vec<u8> {
        let mut bytes =
            hex::decode(text(&format!("nvidia/evidence/{}", self.report)).trim()).unwrap();
        if self.tamper {
            bytes[200] ^= 1;
        }
        bytes
    }

    fn nonce(&self) -> [u8; 32] {
        // The nonce of the untampered transcript (byte 200 is past it).
        self.evidence()[4..36].try_into().unwrap()
    }
}

fn report(case: &Case) -> DeviceReport {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let evidence = case.evidence();
    let chain = text(&format!("nvidia/evidence/{}", case.chain));
    let document = |role: &str| {
        case.rims
            .iter()
            .find(|(r, _, _)| *r == role)
            .map(|(_, _, path)| fixture(path))
    };
    let (driver, firmware) = (document("driver"), document("firmware"));
    ReportPlan::new(
        DeviceInput {
            evidence: &evidence,
            certificate_pem: &chain,
        },
        &VerifyContext {
            arch: edgeattest::attest::Arch::parse(case.arch).unwrap(),
            nonce: Nonce::from_bytes(case.nonce()),
            now: UnixTime::from_secs(case.now).unwrap(),
            trust_store: &store,
            chain_options: ChainOptions::default(),
            fwid_policy: FwidPolicy::default(),
        },
        RimDocuments {
            driver: driver.as_deref(),
            firmware: firmware.as_deref(),
        },
        &rim_trust(),
        None,
        if case.revoked {
            RevocationInput::from_status("revoked", Some("the leaf is revoked".into()))
        } else {
            RevocationInput::NotChecked
        },
    )
    .verify()
}

/// The service's overall result for the same input (it checks no revocation either: no
/// responder).
fn service_result(case: &Case) -> bool {
    let keys = KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), Some("k".into()));
    let devices = TrustStore::nvidia_device_identity().unwrap();
    let config = ServiceConfig {
        issuer: Some("https://edgeattest.test".into()),
        ocsp_url: None,
        ..ServiceConfig::default()
    };
    let mut service = Service::new(config, keys, devices, rim_trust(), 1);
    for (_, id, path) in &case.rims {
        service.rims_mut().insert(id, fixture(path));
    }
    let endpoint = if case.arch == "LS10" {
        "/v4/attest/switch"
    } else {
        "/v4/attest/gpu"
    };
    let body = json!({
        "nonce": hex::encode(case.nonce()),
        "arch": case.arch,
        "evidence_list": [{
            "evidence": STANDARD.encode(case.evidence()),
            "certificate": STANDARD.encode(text(&format!("nvidia/evidence/{}", case.chain))),
        }],
    });
    let request = Request::new("POST", endpoint)
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&body).unwrap());
    let response = service.handle(&request, UnixTime::from_secs(case.now).unwrap(), [7; 32]);
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let payload = result[0][1].as_str().unwrap().split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    claims["x-nvidia-overall-att-result"].as_bool().unwrap()
}

const LS10_RIM: (&str, &str, &str) = (
    "firmware",
    "NV_SWITCH_BIOS_5612_0002_890_9610550001",
    "nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml",
);
const JULY_2026: u64 = 1_782_864_000;
const JAN_2024: u64 = 1_704_067_200;
const BLACKWELL_NOW: u64 = 1_751_328_000;

fn cases() -> Vec<(&'static str, Case, Verdict)> {
    let ls10 = |tamper| Case {
        arch: "LS10",
        report: "switch/nvat_ls10_96.10.55.00.01_report.hex",
        chain: "switch/nvat_ls10_96.10.55.00.01_certchain.pem",
        rims: vec![LS10_RIM],
        now: JULY_2026,
        tamper,
        revoked: false,
    };
    let hopper_545 = |now| Case {
        arch: "HOPPER",
        report: "hopper/gonvtrust_hopper_545.00_report.hex",
        chain: "hopper/gonvtrust_hopper_545.00_certchain.pem",
        rims: vec![
            (
                "driver",
                "NV_GPU_DRIVER_GH100_545.00",
                "nvidia/rims/nvtrust/Driver_RIM_test_no_gpu.swidtag",
            ),
            (
                "firmware",
                "NV_GPU_VBIOS_1010_0200_882_96005E0001",
                "nvidia/rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag",
            ),
        ],
        now,
        tamper: false,
        revoked: false,
    };
    let blackwell = |driver: &'static str| Case {
        arch: "BLACKWELL",
        report: "blackwell/nvat_blackwell_575.32_report.hex",
        chain: "blackwell/nvat_blackwell_575.32_certchain.pem",
        rims: vec![
            ("driver", "NV_GPU_CC_DRIVER_GB100_575.32", driver),
            (
                "firmware",
                "NV_GPU_VBIOS_G525_0220_886_970088000F",
                "generated/blackwell/NV_GPU_VBIOS_G525_0220_886_970088000F.xml",
            ),
        ],
        now: BLACKWELL_NOW,
        tamper: false,
        revoked: false,
    };
    let hopper_535_firmware_only = Case {
        arch: "HOPPER",
        report: "hopper/nvat_hopper_535.86.09_report.hex",
        chain: "hopper/nvat_hopper_535.86.09_certchain.pem",
        rims: vec![(
            "firmware",
            "NV_GPU_VBIOS_1010_0200_882_96005E0001",
            "nvidia/rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag",
        )],
        now: JAN_2024,
        tamper: false,
        revoked: false,
    };
    vec![
        ("LS10 with its RIM", ls10(false), Verdict::Partial),
        ("LS10 tampered", ls10(true), Verdict::Failed),
        (
            "Hopper 545.00 in 2024",
            hopper_545(JAN_2024),
            Verdict::Partial,
        ),
        (
            "Hopper 545.00 with expired RIM signers",
            hopper_545(1_790_000_000),
            Verdict::Failed,
        ),
        (
            "Blackwell GSP",
            blackwell("generated/blackwell/NV_GPU_CC_DRIVER_GB100_575.32.xml"),
            Verdict::Partial,
        ),
        (
            "Blackwell GSP, measurement 22 differs",
            blackwell("generated/blackwell/NV_GPU_CC_DRIVER_GB100_575.32_mismatch_22.xml"),
            Verdict::Failed,
        ),
        (
            "Blackwell GSP, leaf revoked (the service run checks no revocation)",
            Case {
                revoked: true,
                ..blackwell("generated/blackwell/NV_GPU_CC_DRIVER_GB100_575.32.xml")
            },
            Verdict::Failed,
        ),
        (
            "Hopper 535.86.09 without its driver RIM",
            hopper_535_firmware_only,
            Verdict::Failed,
        ),
    ]
}

#[test]
fn the_report_and_the_service_give_the_same_answer() {
    for (name, case, expected) in cases() {
        let report = report(&case);
        assert_eq!(report.verdict, expected, "{name}: {report:#?}");
        assert_eq!(
            service_result(&case),
            report.passes_without_revocation,
            "{name}: the service disagrees with the report {:?}",
            report.failures
        );
    }
}
