//! The device verification report (`edgeattest::evidence::device_report`) on the real
//! fixtures: what the page and every JS caller render. Each verdict is checked against the
//! service's own answer for the same input where the service can be run.
#![cfg(not(target_arch = "wasm32"))]

// The binding's JSON writer, checked on the reports built here.
#[path = "report_json.rs"]
mod report_json;

use edgeattest::attest::{Arch, FwidPolicy, Nonce};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::evidence::{
    device_report, BatchPlan, DeviceInput, DeviceReport, ReportPlan, RevocationInput,
    RevocationState, RimDocuments, RimInputs, StageId, StageStatus, Verdict, VerifyContext,
    ERR_CERT_REVOKED, ERR_MEASUREMENT_MISMATCH, ERR_RIM_NOT_AVAILABLE,
};
use edgeattest::rim::{
    verify_rim, RimTrust, ERR_RIM_CHAIN_EXPIRED, ERR_RIM_CHAIN_INVALID, NVIDIA_RIM_ROOT_PEM,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

fn fixture(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn text(path: &str) -> String {
    String::from_utf8(fixture(path)).unwrap()
}

struct Device {
    arch: Arch,
    evidence: Vec<u8>,
    chain: String,
    hint: Option<String>,
}

fn device(arch: Arch, report: &str, chain: &str) -> Device {
    Device {
        arch,
        evidence: hex::decode(text(&format!("nvidia/evidence/{report}")).trim()).unwrap(),
        chain: text(&format!("nvidia/evidence/{chain}")),
        hint: None,
    }
}

fn ls10() -> Device {
    device(
        Arch::Ls10,
        "switch/nvat_ls10_96.10.55.00.01_report.hex",
        "switch/nvat_ls10_96.10.55.00.01_certchain.pem",
    )
}

fn hopper_545() -> Device {
    device(
        Arch::Hopper,
        "hopper/gonvtrust_hopper_545.00_report.hex",
        "hopper/gonvtrust_hopper_545.00_certchain.pem",
    )
}

fn hopper_535() -> Device {
    device(
        Arch::Hopper,
        "hopper/nvat_hopper_535.86.09_report.hex",
        "hopper/nvat_hopper_535.86.09_certchain.pem",
    )
}

fn blackwell_gsp() -> Device {
    device(
        Arch::Blackwell,
        "blackwell/nvat_blackwell_575.32_report.hex",
        "blackwell/nvat_blackwell_575.32_certchain.pem",
    )
}

fn blackwell_fsp() -> Device {
    Device {
        hint: Some("01.00.00.00.01".into()),
        ..device(
            Arch::Blackwell,
            "blackwell/nvat_blackwell_fsp_DERIVED_report.hex",
            "blackwell/nvat_blackwell_fsp_DERIVED_certchain.pem",
        )
    }
}

/// NVIDIA's RIM root and the generated test root (as the Blackwell service tests trust).
fn rim_trust() -> RimTrust {
    let extra = text("generated/blackwell/rim_root.pem");
    RimTrust::from_store(TrustStore::from_pem(&format!("{NVIDIA_RIM_ROOT_PEM}\n{extra}")).unwrap())
}

fn rims(driver: Option<&str>, firmware: Option<&str>, now: u64) -> RimInputs {
    let verify = |path: &str| {
        verify_rim(
            &fixture(path),
            &rim_trust(),
            UnixTime::from_secs(now).unwrap(),
        )
    };
    RimInputs {
        driver: driver.map(verify),
        firmware: firmware.map(verify),
    }
}

fn report_with(
    device: &Device,
    nonce: Option<Nonce>,
    rims: RimInputs,
    revocation: &RevocationInput,
    now: u64,
) -> DeviceReport {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let nonce =
        nonce.unwrap_or_else(|| Nonce::from_bytes(device.evidence[4..36].try_into().unwrap()));
    let context = VerifyContext {
        arch: device.arch,
        nonce,
        now: UnixTime::from_secs(now).unwrap(),
        trust_store: &store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    };
    let input = DeviceInput {
        evidence: &device.evidence,
        certificate_pem: &device.chain,
    };
    let plan = BatchPlan::new(&[input], &context);
    let verdicts: Vec<bool> = plan
        .signature_checks()
        .iter()
        .map(|c| c.verify().is_ok())
        .collect();
    let result = plan.finish_detailed(&verdicts).unwrap().remove(0);
    device_report(
        &result,
        device.hint.clone(),
        rims,
        revocation,
        UnixTime::from_secs(now).unwrap(),
    )
}

fn report(device: &Device, rims: RimInputs, now: u64) -> DeviceReport {
    report_with(device, None, rims, &RevocationInput::NotChecked, now)
}

fn status(report: &DeviceReport, id: StageId) -> StageStatus {
    report
        .stages
        .iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no stage {id:?}: {report:#?}"))
        .status
}

const JULY_2026: u64 = 1_782_864_000; // 2026-07-01, inside the LS10 RIM signer's validity
const JAN_2024: u64 = 1_704_067_200; // 2024-01-01, inside the nvtrust test RIMs' validity
const BLACKWELL_NOW: u64 = 1_751_328_000;

const SWITCH_RIM: &str =
    "nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml";
const DRIVER_545: &str = "nvidia/rims/nvtrust/Driver_RIM_test_no_gpu.swidtag";
const VBIOS_TEST: &str = "nvidia/rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag";
const VBIOS_PROD: &str = "nvidia/rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag";

#[test]
fn ls10_passes_but_revocation_unchecked_makes_it_partial() {
    let report = report(&ls10(), rims(None, Some(SWITCH_RIM), JULY_2026), JULY_2026);
    assert_eq!(report.verdict, Verdict::Partial, "{report:#?}");
    assert!(report.failure.is_none());
    assert_eq!(report.not_checked, ["revocation (OCSP)"]);
    // The switch's profile (read from its chain) has no driver RIM and no FWID.
    assert_eq!(
        status(&report, StageId::DriverRim),
        StageStatus::NotApplicable
    );
    assert_eq!(status(&report, StageId::Fwid), StageStatus::NotApplicable);
    assert_eq!(
        status(&report, StageId::DriverVersion),
        StageStatus::NotApplicable
    );
    assert_eq!(status(&report, StageId::FirmwareRim), StageStatus::Passed);
    assert_eq!(status(&report, StageId::Measurements), StageStatus::Passed);
    assert_eq!(
        status(&report, StageId::Revocation),
        StageStatus::NotChecked
    );
    assert_eq!(
        report.rims.firmware.id.as_deref(),
        Some("NV_SWITCH_BIOS_5612_0002_890_9610550001")
    );
    assert_eq!(report.rims.driver.id, None);
    assert_eq!(report.comparison.as_ref().unwrap().compared, 31);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["verdict"], "partial");
    assert_eq!(json["stages"][0]["status"], "passed");
    assert_eq!(json["rims"]["driver"]["status"], "not-applicable");
    assert_eq!(json["evidence"]["arch"], "LS10");
}

#[test]
fn ls10_with_good_revocation_passes() {
    let report = report_with(
        &ls10(),
        None,
        rims(None, Some(SWITCH_RIM), JULY_2026),
        &RevocationInput::Good,
        JULY_2026,
    );
    assert_eq!(report.verdict, Verdict::Passed, "{report:#?}");
    assert!(report
        .stages
        .iter()
        .all(|s| matches!(s.status, StageStatus::Passed | StageStatus::NotApplicable)));
}

#[test]
fn revocation_that_fails_fails_the_device() {
    let report = report_with(
        &ls10(),
        None,
        rims(None, Some(SWITCH_RIM), JULY_2026),
        &RevocationInput::Failed {
            code: "ERR_OCSP_UNAVAILABLE",
            message: "no answer".into(),
        },
        JULY_2026,
    );
    assert_eq!(report.verdict, Verdict::Failed);
    assert_eq!(report.failure.unwrap().code, "ERR_OCSP_UNAVAILABLE");
    assert_eq!(report.revocation, RevocationState::Failed);
    // The host's words map to the same input.
    assert_eq!(
        RevocationInput::from_status("revoked", None),
        RevocationInput::Failed {
            code: ERR_CERT_REVOKED,
            message: "a certificate of the chain is revoked".into()
        }
    );
    assert_eq!(
        RevocationInput::from_status("good", None),
        RevocationInput::Good
    );
}

#[test]
fn hopper_545_matches_its_test_rims_in_2024() {
    let report = report(
        &hopper_545(),
        rims(Some(DRIVER_545), Some(VBIOS_TEST), JAN_2024),
        JAN_2024,
    );
    assert_eq!(report.verdict, Verdict::Partial, "{report:#?}");
    // This firmware predates FWID reporting: passed as NVIDIA's verifiers pass it, but not
    // compared, and said so.
    assert_eq!(
        report.not_checked,
        ["the FWID (the evidence carries none)", "revocation (OCSP)"]
    );
    assert_eq!(status(&report, StageId::Fwid), StageStatus::NotChecked);
    for id in [
        StageId::DriverVersion,
        StageId::DriverRim,
        StageId::FirmwareRim,
        StageId::Measurements,
        StageId::DriverRimVersion,
        StageId::FirmwareRimVersion,
    ] {
        assert_eq!(status(&report, id), StageStatus::Passed, "{id:?}");
    }
    assert_eq!(
        report.rims.driver.id.as_deref(),
        Some("NV_GPU_DRIVER_GH100_545.00")
    );
}

#[test]
fn hopper_545_rims_expired_now_fail_both_rims() {
    let now = 1_790_000_000; // 2026-09: the test RIM signers expired in 2025
    let report = report(
        &hopper_545(),
        rims(Some(DRIVER_545), Some(VBIOS_TEST), now),
        now,
    );
    assert_eq!(report.verdict, Verdict::Failed);
    assert_eq!(report.failures.len(), 2, "{:#?}", report.failures);
    assert!(report
        .failures
        .iter()
        .all(|f| f.code == ERR_RIM_CHAIN_EXPIRED));
    assert!(report.failures[0]
        .message
        .starts_with("the driver RIM's signing certificate chain is expired"));
    // The measurements still match, but against untrusted RIMs: said, never a pass.
    let measured = report
        .stages
        .iter()
        .find(|s| s.id == StageId::Measurements)
        .unwrap();
    assert!(measured
        .warning
        .as_deref()
        .unwrap()
        .contains("does not count"));
}

#[test]
fn a_driver_rim_of_another_version_fails_with_the_mismatch_count() {
    let report = report(
        &hopper_535(),
        rims(Some(DRIVER_545), Some(VBIOS_PROD), JAN_2024),
        JAN_2024,
    );
    assert_eq!(report.verdict, Verdict::Failed);
    let codes: Vec<&str> = report.failures.iter().map(|f| f.code).collect();
    assert!(codes.contains(&ERR_MEASUREMENT_MISMATCH), "{codes:?}");
    assert!(codes.contains(&"ERR_RIM_VERSION_MISMATCH"), "{codes:?}");
    let mismatches = report.comparison.as_ref().unwrap().mismatches.len();
    assert!(mismatches >= 1);
    let measured = report
        .failures
        .iter()
        .find(|f| f.code == ERR_MEASUREMENT_MISMATCH)
        .unwrap();
    assert!(measured
        .message
        .contains(&format!("{mismatches} measurement")));
}

#[test]
fn a_missing_driver_rim_fails_as_the_service_fails_it() {
    // Hopper 535.86.09 lacks an FWID (firmware before FWID reporting): not checked.
    let report = report(
        &hopper_535(),
        rims(None, Some(VBIOS_PROD), JAN_2024),
        JAN_2024,
    );
    assert_eq!(report.verdict, Verdict::Failed);
    let failure = report.failure.clone().unwrap();
    assert_eq!(failure.code, ERR_RIM_NOT_AVAILABLE);
    assert_eq!(failure.service_code, Some(5009));
    assert!(failure.message.contains("NV_GPU_DRIVER_GH100_535.86.09"));
    assert_eq!(status(&report, StageId::Fwid), StageStatus::NotChecked);
    assert_eq!(
        status(&report, StageId::Measurements),
        StageStatus::NotChecked
    );
}

#[test]
fn blackwell_gsp_passes_with_its_driver_and_vbios_rims() {
    let report = report_with(
        &blackwell_gsp(),
        None,
        rims(
            Some("generated/blackwell/NV_GPU_CC_DRIVER_GB100_575.32.xml"),
            Some("generated/blackwell/NV_GPU_VBIOS_G525_0220_886_970088000F.xml"),
            BLACKWELL_NOW,
        ),
        &RevocationInput::Good,
        BLACKWELL_NOW,
    );
    assert_eq!(report.verdict, Verdict::Passed, "{report:#?}");
    assert_eq!(report.evidence.as_ref().unwrap().profile, "blackwell-gsp");
    assert_eq!(status(&report, StageId::Fwid), StageStatus::Passed);
}

#[test]
fn blackwell_gsp_measurement_mismatch_fails() {
    let report = report(
        &blackwell_gsp(),
        rims(
            Some("generated/blackwell/NV_GPU_CC_DRIVER_GB100_575.32_mismatch_22.xml"),
            Some("generated/blackwell/NV_GPU_VBIOS_G525_0220_886_970088000F.xml"),
            BLACKWELL_NOW,
        ),
        BLACKWELL_NOW,
    );
    assert_eq!(report.verdict, Verdict::Failed);
    assert_eq!(
        report.failure.as_ref().unwrap().code,
        ERR_MEASUREMENT_MISMATCH
    );
    assert_eq!(report.failure.unwrap().stage, StageId::Measurements);
}

#[test]
fn blackwell_fsp_is_compared_with_its_firmware_rim_alone_and_says_so() {
    let report = report_with(
        &blackwell_fsp(),
        None,
        rims(
            None,
            Some("generated/blackwell/NV_GPU_VBIOS_GB100_065C_0100000001.xml"),
            BLACKWELL_NOW,
        ),
        &RevocationInput::Good,
        BLACKWELL_NOW,
    );
    assert_eq!(report.verdict, Verdict::Partial, "{report:#?}");
    assert_eq!(
        status(&report, StageId::DriverRim),
        StageStatus::NotApplicable
    );
    assert_eq!(report.not_checked.len(), 1);
    assert!(report.not_checked[0].contains("driver measurements"));
}

#[test]
fn a_bad_signature_fails_at_its_stage_and_stops_there() {
    let mut device = ls10();
    device.evidence[200] ^= 1;
    let report = report(&device, rims(None, Some(SWITCH_RIM), JULY_2026), JULY_2026);
    assert_eq!(report.verdict, Verdict::Failed);
    let failure = report.failure.as_ref().unwrap();
    assert_eq!(failure.code, "ERR_EVIDENCE_SIGNATURE");
    assert_eq!(failure.stage, StageId::EvidenceSignature);
    assert_eq!(failure.service_code, Some(4013));
    let states: Vec<StageStatus> = report.stages.iter().take(4).map(|s| s.status).collect();
    assert_eq!(
        states,
        [
            StageStatus::Passed,
            StageStatus::Passed,
            StageStatus::Failed,
            StageStatus::NotChecked
        ]
    );
    assert_eq!(
        status(&report, StageId::FirmwareRim),
        StageStatus::NotChecked
    );
    assert!(report.evidence.is_none());
}

#[test]
fn a_wrong_nonce_and_a_wrong_arch_are_named() {
    let report = report_with(
        &ls10(),
        Some(Nonce::from_bytes([0xcd; 32])),
        RimInputs::default(),
        &RevocationInput::NotChecked,
        JULY_2026,
    );
    assert_eq!(report.failure.unwrap().stage, StageId::Nonce);
    // A chain that does not validate: nothing to ask about.
    let mut broken = ls10();
    broken.chain = text("nvidia/evidence/hopper/gonvtrust_INVALID_certchain_missing_brom.pem");
    let chainless = self::report(&broken, RimInputs::default(), JULY_2026);
    assert_eq!(chainless.failure.unwrap().stage, StageId::CertificateChain);
    assert_eq!(chainless.revocation, RevocationState::NotReached);
    let mut device = ls10();
    device.arch = Arch::Hopper;
    let arch = self::report(&device, RimInputs::default(), JULY_2026);
    let failure = arch.failure.unwrap();
    assert_eq!(failure.stage, StageId::Architecture);
    assert_eq!(failure.code, "ERR_EVIDENCE_ARCH_MISMATCH");
}

#[test]
fn the_plan_gives_the_same_report_with_the_verdicts_handed_in() {
    let device = ls10();
    let store = TrustStore::nvidia_device_identity().unwrap();
    let context = VerifyContext {
        arch: device.arch,
        nonce: Nonce::from_bytes(device.evidence[4..36].try_into().unwrap()),
        now: UnixTime::from_secs(JULY_2026).unwrap(),
        trust_store: &store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    };
    let rim = fixture(SWITCH_RIM);
    let plan = || {
        ReportPlan::new(
            DeviceInput {
                evidence: &device.evidence,
                certificate_pem: &device.chain,
            },
            &context,
            RimDocuments {
                driver: None,
                firmware: Some(&rim),
            },
            &RimTrust::nvidia(),
            None,
            RevocationInput::NotChecked,
        )
    };
    let expected = report(&device, rims(None, Some(SWITCH_RIM), JULY_2026), JULY_2026);
    assert_eq!(plan().verify(), expected);
    let handed = plan();
    let verdicts: Vec<bool> = handed
        .signature_checks()
        .iter()
        .map(|c| c.verify().is_ok())
        .collect();
    assert!(verdicts.len() > 3, "evidence and RIM checks together");
    assert_eq!(plan().finish(&verdicts).unwrap(), expected);
    // A wrong count is an error, and a false RIM verdict fails the RIM.
    assert_eq!(
        plan().finish(&verdicts[1..]).unwrap_err().code(),
        "ERR_CHAIN_VERDICT_COUNT"
    );
    // The last check is a link of the firmware RIM's signer chain.
    let mut forged = verdicts.clone();
    *forged.last_mut().unwrap() = false;
    let report = plan().finish(&forged).unwrap();
    assert_eq!(report.verdict, Verdict::Failed);
    let failure = report.failure.unwrap();
    assert_eq!(failure.stage, StageId::FirmwareRim);
    assert_eq!(failure.code, ERR_RIM_CHAIN_INVALID);
}
