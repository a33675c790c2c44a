//! The hand-written TypeScript declarations (`src/wasm/types/*.d.ts`, spliced into the
//! wasm-bindgen output) against what the core writes: real results from real fixtures,
//! serialized with serde_json (the members, nulls and strings JS receives; byte strings are
//! `Uint8Array`s there and arrays of numbers here), walked along the declared types. A member
//! written but not declared, a required member not written, a string outside its literal
//! union, or a variant of a core enum missing from its union fails, naming both.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use edgeattest::attest::{Arch, ArchitectureRow, EvidenceEncoding, EvidenceProfile};
use edgeattest::chain::ChainStatus;
use edgeattest::crypto::Deferred;
use edgeattest::evidence::{
    DeviceResult, EvidenceOptions, OptionsError, RevocationState, RuntimeEvidenceInput, StageId,
    StageStatus, Verdict,
};
use edgeattest::ocsp::{
    ChainKind, CheckOcspOptions, OcspInputError, OcspRequestsOptions, NONCE_LEN,
};
use edgeattest::policy::{appraise, Policy, PolicyVersion, RuleStatus};
use edgeattest::rim::{
    compare_gpu, compare_switch, identify_rim, open_envelope, verify_rim, MeasurementSource,
    Nvdec0Rule, OpaqueFloor, OpaqueValue, RimCertStatus, RimIds, RimKind, RimTrust,
    RuntimeEvidence, NVIDIA_RIM_ROOT_PEM,
};
use edgeattest::service::{FetchFailure, Fetched};
use edgeattest::token::Signers;
use edgeattest::token::{
    verify_attestation_result, Jwks, PreparedToken, ResultFormat, TokenVerdict, VerdictLevel,
    VerifyInput, VerifyOptions,
};
use edgeattest::UnixTime;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeSet;

mod dts;
use dts::{parse_type, Ts, Ty, TYPES};

#[path = "../common/ocsp_fixtures.rs"]
mod ocsp_fixtures;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn fixture(path: &str) -> Vec<u8> {
    let full = format!("{ROOT}/tests/fixtures/{path}");
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn text(path: &str) -> String {
    String::from_utf8(fixture(path)).unwrap()
}

fn to<T: Serialize>(value: T) -> Value {
    serde_json::to_value(value).unwrap()
}

const LS10: &str = "switch/nvat_ls10_96.10.55.00.01";
const HOPPER_545: &str = "hopper/gonvtrust_hopper_545.00";
const HOPPER_535: &str = "hopper/nvat_hopper_535.86.09";
const BLACKWELL: &str = "blackwell/nvat_blackwell_575.32";
const SWITCH_RIM: &str =
    "nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml";
const DRIVER_545: &str = "nvidia/rims/nvtrust/Driver_RIM_test_no_gpu.swidtag";
const VBIOS_TEST: &str = "nvidia/rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag";
const VBIOS_PROD: &str = "nvidia/rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag";
const GB_DRIVER: &str = "generated/blackwell/NV_GPU_CC_DRIVER_GB100_575.32.xml";
const GB_VBIOS: &str = "generated/blackwell/NV_GPU_VBIOS_G525_0220_886_970088000F.xml";
const JULY_2026: u64 = 1_782_864_000;
const JAN_2024: u64 = 1_704_067_200;
const SEPT_2026: u64 = 1_790_000_000; // the nvtrust test RIM signers expired in 2025
const BLACKWELL_NOW: u64 = 1_751_328_000;

fn hex_evidence(device: &str) -> String {
    text(&format!("nvidia/evidence/{device}_report.hex"))
        .trim()
        .to_owned()
}

/// The evidence options of one device as a JS caller writes them (its own nonce), with
/// `extra` members.
fn options(device: &str, arch: &str, now: u64, extra: Value) -> EvidenceOptions {
    let evidence = hex_evidence(device);
    let mut options = json!({
        "nonce": evidence[8..72], "evidence": evidence, "arch": arch, "now": now,
        "certificate": text(&format!("nvidia/evidence/{device}_certchain.pem")),
        "rimAnchors": format!("{NVIDIA_RIM_ROOT_PEM}\n{}", text("generated/blackwell/rim_root.pem")),
    });
    for (key, value) in extra.as_object().unwrap() {
        options[key] = value.clone();
    }
    serde_json::from_value(options).unwrap()
}

/// The evidence of `device` with one signed byte flipped.
fn tampered(device: &str) -> String {
    let mut bytes = hex::decode(hex_evidence(device)).unwrap();
    bytes[200] ^= 1;
    hex::encode(bytes)
}

fn rims(driver: Option<&str>, firmware: &str) -> Value {
    json!({ "driver": driver.map(text), "firmware": text(firmware) })
}

fn clock() -> impl FnOnce(Option<&UnixTime>) -> Result<UnixTime, OptionsError> {
    UnixTime::given_or(UnixTime::EPOCH)
}

/// A recorded NRAS result verified as the JS API verifies it: the result and its overall
/// token alone (`VerifiedJwtResult`).
fn token_results(name: &str, extra: Value) -> (Value, Value) {
    let file = |kind: &str| fixture(&format!("nvidia/nras/teep/{name}_{kind}.json"));
    let (response, jwks) = (file("response"), Jwks::parse(&file("jwks")).unwrap());
    let request: Value = serde_json::from_slice(&file("request")).unwrap();
    let result: Value = serde_json::from_slice(&response).unwrap();
    let overall = result[0][1].as_str().unwrap();
    let payload = URL_SAFE_NO_PAD
        .decode(overall.split('.').nth(1).unwrap())
        .unwrap();
    let now = serde_json::from_slice::<Value>(&payload).unwrap()["iat"]
        .as_u64()
        .unwrap();
    let mut options = json!({ "nonce": request["nonce"] });
    for (key, value) in extra.as_object().unwrap() {
        options[key] = value.clone();
    }
    let input: VerifyInput = serde_json::from_value(options).unwrap();
    let prepared = input
        .prepare_attestation_result(
            &response,
            &jwks,
            edgeattest::UnixTime::from_secs(now).unwrap(),
        )
        .unwrap();
    let verified = match PreparedToken::from(prepared).finish_in_software().unwrap() {
        TokenVerdict::Result(report) => to(report.into_verified().unwrap()),
        TokenVerdict::Jwt(_) => panic!("a result verified as a JWT"),
    };
    let prepared = input
        .prepare_jwt(
            overall,
            &jwks,
            edgeattest::UnixTime::from_secs(now).unwrap(),
        )
        .unwrap();
    match PreparedToken::from(prepared).finish_in_software().unwrap() {
        TokenVerdict::Jwt(jwt) => (verified, to(jwt)),
        TokenVerdict::Result(_) => panic!("a JWT verified as a result"),
    }
}

/// A recorded result (refused ones too) appraised with one of nvtrust's policies.
fn policy_decision(name: &str, policy: &str) -> Value {
    let file = |kind: &str| fixture(&format!("nvidia/nras/teep/{name}_{kind}.json"));
    let request: Value = serde_json::from_slice(&file("request")).unwrap();
    let response = file("response");
    let result: Value = serde_json::from_slice(&response).unwrap();
    let payload = result[0][1].as_str().unwrap().split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .nonce(request["nonce"].as_str().unwrap())
        .allow_failed_result(true);
    let jwks = Jwks::parse(&file("jwks")).unwrap();
    let now = claims["iat"].as_u64().unwrap();
    let verified = verify_attestation_result(
        &response,
        &jwks,
        &options,
        edgeattest::UnixTime::from_secs(now).unwrap(),
    )
    .unwrap();
    let policy = fixture(&format!("nvidia/policies/nvtrust/{policy}.json"));
    to(appraise(&verified, &Policy::parse(&policy).unwrap()).unwrap())
}

/// A device chain's OCSP status from the fixture responses (`brom` the leaf's issuer's).
fn ocsp(chain: &str, answers: [Fetched; 3], now: u64, allow_hold: bool) -> Value {
    let check: CheckOcspOptions =
        serde_json::from_value(json!({ "allowHold": allow_hold })).unwrap();
    let chain = std::fs::read_to_string(ocsp_fixtures::pki(chain)).unwrap();
    to(check
        .check(
            &chain,
            ChainKind::Device,
            &answers,
            edgeattest::UnixTime::from_secs(now).unwrap(),
        )
        .unwrap())
}

fn answer(file: &str) -> Fetched {
    let f = ocsp_fixtures::response(file);
    let nonce = ocsp_fixtures::nonce(&f.request).to_vec();
    Fetched::Cached {
        body: f.bytes,
        nonce,
    }
}

fn answered(chain: &str, brom: &str, allow_hold: bool) -> Value {
    let files = [brom, "ica.der", "identity.der"];
    let now = files
        .iter()
        .map(|f| ocsp_fixtures::response(f).now)
        .max()
        .unwrap();
    ocsp(chain, files.map(answer), now, allow_hold)
}

/// The type `rimIds` declares in its binding (`unchecked_return_type`): no interface names it.
fn rim_ids_type() -> String {
    let binding = std::fs::read_to_string(format!("{ROOT}/src/wasm/rim.rs")).unwrap();
    let after = binding
        .split("js_name = rimIds, unchecked_return_type = \"")
        .nth(1);
    after.unwrap().split('"').next().unwrap().to_owned()
}

/// ("Type: case", what the core writes): every written value checked, against the type
/// before the colon (`[]`: a list of it).
fn written() -> Vec<(String, Value)> {
    let report = |o: EvidenceOptions| to(o.report_plan(clock()).unwrap().verify());
    let ls10 = |now, extra| options(LS10, "LS10", now, extra);
    let hopper = |device, now, extra| options(device, "HOPPER", now, extra);
    let blackwell = |status: &str| {
        let revocation = json!({ "status": status, "message": "keyCompromise" });
        let extra = json!({ "rims": rims(Some(GB_DRIVER), GB_VBIOS), "revocation": revocation });
        report(options(BLACKWELL, "BLACKWELL", BLACKWELL_NOW, extra))
    };
    let device = |evidence| json!({ "evidence": evidence, "certificate": text(&format!("nvidia/evidence/{LS10}_certchain.pem")) });
    let batch: EvidenceOptions = serde_json::from_value(json!({
        "nonce": hex_evidence(LS10)[8..72], "arch": "LS10", "now": JULY_2026,
        "devices": [device(hex_evidence(LS10)), device(tampered(LS10))],
    }))
    .unwrap();
    let runtime = |device, arch| options(device, arch, JAN_2024, json!({})).runtime_evidence();
    let (hopper_535, switch) = (
        runtime(HOPPER_535, "HOPPER").unwrap(),
        runtime(LS10, "LS10").unwrap(),
    );
    let verified = |path, now| verify_rim(&fixture(path), &RimTrust::nvidia(), now).unwrap();
    let (driver, firmware) = (
        verified(
            DRIVER_545,
            edgeattest::UnixTime::from_secs(JAN_2024).unwrap(),
        ),
        verified(
            VBIOS_PROD,
            edgeattest::UnixTime::from_secs(JAN_2024).unwrap(),
        ),
    );
    // Two unmet floors: one below its minimum, one of the wrong value type.
    let (mut floored, mut low) = (driver.document().clone(), hopper_535.clone());
    for (id, value_type) in [(37, 0x87), (38, 0x86)] {
        let (name, index) = (format!("FLOOR_{id}"), 100 + u32::from(id));
        let floor = OpaqueFloor {
            id,
            index,
            name,
            active: true,
            min_svn: 5,
            include_in_result: id == 37,
        };
        floored.opaque_floors.push(floor);
        low.opaque.push(OpaqueValue {
            id,
            value_type: Some(value_type),
            value: vec![3, 0],
        });
    }
    let (switch_rim, none) = (
        verified(
            SWITCH_RIM,
            edgeattest::UnixTime::from_secs(JULY_2026).unwrap(),
        ),
        RuntimeEvidence::default(),
    );
    let envelope =
        json!({ "id": "NV_X", "rim": "PFNvZnR3YXJlSWRlbnRpdHkvPg==", "rim_format": "TCG" });
    let (passed, passed_jwt) = token_results("v3_8gpu_success_20260629", json!({}));
    let allowed = json!({ "allowFailedResult": true });
    let (failed, _) = token_results("v3_8gpu_nonce_mismatch_20260520", allowed);
    let good = ocsp_fixtures::response("brom_good.der").now;
    let failures = [FetchFailure::Timeout, FetchFailure::HttpStatus(503)].map(Fetched::Failed);
    let [timeout, status] = failures;
    let nonces = ["brom_good", "ica", "identity"].map(|n| hex::encode(ocsp_fixtures::nonce(n)));
    let requests = json!({ "kind": "device", "nonces": nonces });
    let requests: OcspRequestsOptions = serde_json::from_value(requests).unwrap();
    let chain = std::fs::read_to_string(ocsp_fixtures::pki("chain_good.pem")).unwrap();
    let fresh = || Err::<[u8; NONCE_LEN], _>(OcspInputError::Kind);
    let rim_ids = rim_ids_type();
    // One row a case: a table.
    #[rustfmt::skip]
    let cases = [
        ("DeviceReport: LS10 with its RIM, partial", report(ls10(JULY_2026, json!({ "rims": rims(None, SWITCH_RIM) })))),
        ("DeviceReport: Hopper 545, RIM signers expired",
            report(hopper(HOPPER_545, SEPT_2026, json!({ "rims": rims(Some(DRIVER_545), VBIOS_TEST) })))),
        ("DeviceReport: Hopper 535, another driver RIM",
            report(hopper(HOPPER_535, JAN_2024, json!({ "rims": rims(Some(DRIVER_545), VBIOS_PROD) })))),
        ("DeviceReport: Blackwell, revocation good", blackwell("good")),
        ("DeviceReport: Blackwell, revoked", blackwell("revoked")),
        ("DeviceReport: LS10, bad signature", report(ls10(JULY_2026, json!({ "evidence": tampered(LS10) })))),
        ("EvidenceReport: verifyEvidence, Hopper 545",
            to(hopper(HOPPER_545, JAN_2024, json!({})).verify_evidence(clock()).unwrap().unwrap().to_report())),
        ("DeviceResult[]: a batch, one device failed", to(DeviceResult::list(batch.batch_plan(clock()).unwrap().verify()))),
        ("ChainReportJs: verifyCertificateChain",
            to(ls10(JULY_2026, json!({})).verify_certificate_chain(clock()).unwrap().unwrap())),
        ("RuntimeEvidenceInput: runtimeEvidence, Hopper 535", to(RuntimeEvidenceInput::from(hopper_535.clone()))),
        ("VerifiedRimJson: verifyRim", to(&driver)),
        ("VerifiedRimJson: verifyRim, signer expired", to(verified(DRIVER_545, edgeattest::UnixTime::from_secs(SEPT_2026).unwrap()))),
        ("RimComparison: compareGpuRims, another driver",
            to(compare_gpu(driver.document(), firmware.document(), &hopper_535).unwrap().report())),
        ("RimComparison: compareGpuRims, floors unmet", to(compare_gpu(&floored, firmware.document(), &low).unwrap().report())),
        ("RimDocumentJson: a document with floors", to(&floored)),
        ("RimComparison: compareSwitchRim, no values", to(compare_switch(switch_rim.document(), &none).unwrap().report())),
        ("rimIds: Hopper", to(RimIds::of(Arch::Hopper, &hopper_535).unwrap())),
        ("rimIds: LS10", to(RimIds::of(Arch::Ls10, &switch).unwrap())),
        ("RimIdentity: identifyRim", to(identify_rim(&fixture(SWITCH_RIM)).unwrap())),
        ("RimEnvelopeJson: openRimEnvelope", to(open_envelope(envelope.to_string().as_bytes(), "NV_X").unwrap())),
        ("Architecture[]: architectures", to(ArchitectureRow::all())),
        ("VerifiedAttestationResultData: 8 GPUs, passed", passed),
        ("VerifiedAttestationResultData: 8 GPUs, failed, allowed", failed),
        ("VerifiedJwtResult: the overall token", passed_jwt),
        ("PolicyDecision: 8 GPUs, passed", policy_decision("v3_8gpu_success_20260629", "remote_v3_NVGPURemotePolicyExample")),
        ("PolicyDecision: 8 GPUs, refused", policy_decision("v3_8gpu_nonce_mismatch_20260520", "remote_v3_NVGPURemotePolicyExample")),
        ("OcspRequestJs[]: ocspRequests", to(requests.requests(&chain, fresh).unwrap())),
        ("OcspChainStatus: good", answered("chain_good.pem", "brom_good.der", false)),
        ("OcspChainStatus: revoked", answered("chain_revoked.pem", "brom_revoked.der", false)),
        ("OcspChainStatus: held, allowed", answered("chain_hold.pem", "brom_hold.der", true)),
        ("OcspChainStatus: unreachable", ocsp("chain_good.pem", [answer("brom_good.der"), timeout, status], good, false)),
        ("ServiceLimits: the core's", to(edgeattest::service::ServiceLimits::CORE)),
    ];
    let rim_ids = |label: &str| label.replace("rimIds:", &format!("{rim_ids}:"));
    cases
        .into_iter()
        .map(|(label, value)| (rim_ids(label), value))
        .collect()
}

#[test]
fn what_the_core_writes_is_what_the_declarations_say() {
    let ts = Ts::load();
    let written = written();
    let mut drift = Vec::new();
    for (label, value) in &written {
        let (ty, case) = label.rsplit_once(": ").unwrap();
        let root = if ty.starts_with('{') {
            "rimIds"
        } else {
            ty.trim_end_matches("[]")
        };
        let mut errors = Vec::new();
        let at = (root.to_owned(), "src/wasm/rim.rs".to_owned());
        ts.check(&parse_type(ty), value, root, &at, &mut errors);
        // One message for what every element of a list repeats.
        let mut said = BTreeSet::new();
        errors.retain(|e| said.insert(e.split(['[', ']']).step_by(2).collect::<String>()));
        if !errors.is_empty() {
            drift.push(format!("{root}, {case}:\n  {}", errors.join("\n  ")));
        }
    }
    // The cases reach what only some results carry (a null: the member is written as null).
    #[rustfmt::skip]
    let reached = [
        ("DeviceReport", "/failure"), ("DeviceReport", "/comparison"), ("DeviceReport", "/evidence"),
        ("DeviceReport", "/measres"), ("DeviceReport", "/rims/driver/chainExpiration"),
        ("DeviceReport", "/evidence=null"), ("DeviceReport", "/failure=null"),
        ("RimComparison", "/opaqueMismatches/0/runtimeValue"), ("RimComparison", "/opaqueMismatches/1"),
        ("RimComparison", "/mismatches/0"), ("RimComparison", "/driverVersion=null"),
        ("VerifiedAttestationResultData", "/appraisal/devices/0/reasons/0"),
        ("OcspChainStatus", "/held"), ("OcspChainStatus", "/certificates/0/revokedAt"),
        ("OcspChainStatus", "/certificates/1/message"), ("DeviceResult[]", "/1/error"),
    ];
    for (root, pointer) in reached {
        let (pointer, null) = pointer
            .split_once("=null")
            .map_or((pointer, false), |(p, _)| (p, true));
        let found = |v: &Value| v.pointer(pointer).is_some_and(|m| m.is_null() == null);
        let any = written
            .iter()
            .any(|(label, v)| label.starts_with(&format!("{root}:")) && found(v));
        assert!(
            any,
            "no case writes {root} {pointer} {}",
            if null { "null" } else { "non-null" }
        );
    }
    let seen = ts.seen.borrow();
    let declarations: BTreeSet<&str> = seen.iter().map(|m| m.split('.').next().unwrap()).collect();
    eprintln!(
        "{} members of {} declarations checked",
        seen.len(),
        declarations.len()
    );
    assert!(
        drift.is_empty(),
        "{TYPES}/*.d.ts and the core disagree:\n{}",
        drift.join("\n")
    );
    assert!(seen.len() > 150, "only {} members checked", seen.len());
}

/// Every variant of an enum: a variant added to it does not compile here until listed.
macro_rules! every {
    ($ty:ident: $($variant:ident),+) => {{
        let listed = |value: $ty| match value {
            $($ty::$variant)|+ => value,
        };
        names([$($ty::$variant),+].map(listed))
    }};
}

fn names<T: Serialize>(values: impl IntoIterator<Item = T>) -> Vec<String> {
    values
        .into_iter()
        .map(|v| to(v).as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn every_variant_of_the_cores_enums_is_in_its_union() {
    let ts = Ts::load();
    // `non_exhaustive` enums cannot be matched here: their variants are written out.
    #[rustfmt::skip]
    let (chain, encodings): (Vec<String>, Vec<String>) = (
        [ChainStatus::Valid, ChainStatus::Expired, ChainStatus::NotYetValid].iter().map(|c| c.as_claim_str().into()).collect(),
        [EvidenceEncoding::Base64, EvidenceEncoding::Base64Hex, EvidenceEncoding::Hex].iter().map(|e| e.as_str().into()).collect(),
    );
    #[rustfmt::skip]
    let enums = [
        ("StageStatus", "StageStatus", every!(StageStatus: Passed, Failed, NotChecked, NotApplicable)),
        ("Verdict", "DeviceReport.verdict", every!(Verdict: Passed, Failed, Partial)),
        ("StageId", "StageId", every!(StageId: EvidenceParsed, CertificateChain, EvidenceSignature, Nonce,
            Architecture, OpaqueData, Fwid, DriverVersion, Revocation, DriverRim, FirmwareRim,
            Measurements, DriverRimVersion, FirmwareRimVersion, OpaqueFloors)),
        ("RevocationState", "DeviceReport.revocation", every!(RevocationState: NotReached, NotChecked, Good, Relaxed, Failed)),
        ("RimCertStatus", "ReportRimStep.chainStatus", every!(RimCertStatus: Valid, Expired, Invalid)),
        ("RimCertStatus", "RimCertChain.status", every!(RimCertStatus: Valid, Expired, Invalid)),
        ("Nvdec0Rule", "RimComparison.nvdec0", every!(Nvdec0Rule: Enabled, Disabled, Absent, NotApplicable)),
        ("MeasurementSource", "RimComparison.mismatches.measurementSource", every!(MeasurementSource: Driver, Firmware)),
        ("RimKind", "RimIdentity.kind", every!(RimKind: Driver, Firmware)),
        ("ResultFormat", "VerifiedAttestationResultData.format", names([ResultFormat::V1, ResultFormat::Detached])),
        ("ChainStatus", "EvidenceReport.certChain.status", chain.clone()),
        ("ChainStatus", "ChainReportJs.status", chain),
        ("VerdictLevel", "VerdictLevel", VerdictLevel::ALL.iter().map(|l| l.as_str().to_owned()).collect()),
        ("EvidenceProfile", "EvidenceReport.profile", EvidenceProfile::ALL.iter().map(|p| p.as_str().to_owned()).collect()),
        ("EvidenceEncoding", "EvidenceEncoding", encodings),
        ("RuleStatus", "RuleStatus", names([RuleStatus::Pass, RuleStatus::Mismatch, RuleStatus::Missing])),
        ("PolicyVersion", "PolicyDecision.version",
            [PolicyVersion::V1, PolicyVersion::V2, PolicyVersion::V3, PolicyVersion::V4, PolicyVersion::Rego].iter().map(|v| v.as_str().to_owned()).collect()),
    ];
    let mut missing = Vec::new();
    for (rust, path, variants) in enums {
        let union = ts.literals(&ts.type_at(path));
        let file = &ts.decls[path.split('.').next().unwrap()].1;
        assert!(
            !union.is_empty(),
            "{path} ({file}) is not a union of strings"
        );
        for variant in variants.iter().filter(|v| !union.contains(v)) {
            missing.push(format!(
                "{rust} writes \"{variant}\", which {path} ({file}) does not list"
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_checker_names_each_kind_of_drift() {
    let ts = Ts::load();
    let ty = parse_type(
        r#"{ a: number; b?: "x" | 'y'; c: { d: string | null }[]; e: Omit<ReportFailure, "code"> }"#,
    );
    let value = json!({ "a": 1, "b": "z", "c": [{ "d": null, "f": 1 }], "e": { "stage": "nonce", "message": "m", "serviceCode": null }, "g": true });
    let mut errors = Vec::new();
    ts.check(&ty, &value, "T", &("T".into(), "here".into()), &mut errors);
    let file = format!("{TYPES}/evidence.d.ts");
    assert_eq!(
        errors,
        [
            "T.b: the core writes \"z\", not one of \"x\" | \"y\" in the type of T.b (here)"
                .to_owned(),
            "T.c[0]: member `f` written by the core is not in the type of T.c (here)".into(),
            "T: member `g` written by the core is not in interface T (here)".into(),
        ]
    );
    let (stage, mut errors) = (Ty::Name("ReportStage".into(), Vec::new()), Vec::new());
    let at = (String::new(), String::new());
    ts.check(
        &stage,
        &json!({ "id": "nonce", "foo": 1 }),
        "DeviceReport.stages[0]",
        &at,
        &mut errors,
    );
    let not_in =
        format!("member `foo` written by the core is not in interface ReportStage ({file})");
    assert_eq!(errors[0], format!("DeviceReport.stages[0]: {not_in}"));
    let title = "member `title` of interface ReportStage";
    assert!(errors.iter().any(|e| e.contains(title)), "{errors:?}");
}
