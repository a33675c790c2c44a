//! The revocation policy through the service: for every component it folds (a GPU's device
//! chain, a switch's, the driver RIM's and the VBIOS RIM's signer chains) and every row of
//! the table (`crate::revocation_policy::TABLE`), one certificate of that component's chain
//! answered with the row's outcome by `openssl ocsp` (the test PKI's responder with its
//! index rewritten for that certificate; every other certificate good), under
//! `EDGEATTEST_REVOCATION_POLICY` with the row's rule for that component only: the device
//! token's claim, warning and verdict are the table's.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::crypto::SigningKey;
use edgeattest::ocsp::{RevocationComponent, RevocationPolicy};
use edgeattest::service::{FetchFailure, Fetched, HostSettings, Request, Response, ServiceConfig};
use edgeattest::token::Jwks;
use edgeattest::ErrorCode;
use serde_json::{json, Map, Value};

use crate::revocation_policy::{Outcome, Row, Verdict, SERVICE_COMPONENTS, TABLE};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{attest_answering, device, now, ocsp_dir, read, test_service, tokens};

/// How long before the check the rewritten index revokes a certificate.
pub(crate) const REVOKED_AGE: u64 = 3600;

/// The certificate each component's row is about: (its CA's index file, its serial).
fn target(component: RevocationComponent) -> (&'static str, &'static str) {
    match component {
        // The BROM certificates of the good GPU and of the switch (the ICA's index).
        RevocationComponent::DeviceChain => {
            ("index_ica.txt", "4F4E2365C69B7E7E61B2E376DF44BFC1C64B08EB")
        }
        RevocationComponent::SwitchChain => {
            ("index_ica.txt", "6C7D954995423414F8D459A60019607923C93174")
        }
        // The RIM signers: the driver RIM is signed by the second signer
        // (`test_service(_, true)`), the VBIOS RIM by the first.
        RevocationComponent::DriverRimChain => (
            "index_rim_l3.txt",
            "40ECD148497BA3ED56D3D9118F21573647E7BF25",
        ),
        RevocationComponent::VbiosRimChain => (
            "index_rim_l3.txt",
            "19B0EA0E469E8DEE2E41BAC6474926AD1A32987A",
        ),
        RevocationComponent::SignerChain => unreachable!("not the service's"),
    }
}

/// The device token's claim object of `component`'s chain.
fn claim_name(component: RevocationComponent) -> &'static str {
    match component {
        RevocationComponent::DeviceChain => "x-nvidia-gpu-attestation-report-cert-chain",
        RevocationComponent::SwitchChain => "x-nvidia-switch-attestation-report-cert-chain",
        RevocationComponent::DriverRimChain => "x-nvidia-gpu-driver-rim-cert-chain",
        RevocationComponent::VbiosRimChain => "x-nvidia-gpu-vbios-rim-cert-chain",
        RevocationComponent::SignerChain => unreachable!("not the service's"),
    }
}

/// `YYMMDDHHMMSSZ`, as an `openssl ca` index writes revocation times.
fn index_time(secs: u64) -> String {
    let text = edgeattest::UnixTime::from_secs(secs).unwrap().to_string();
    // 2026-11-29T18:00:00Z -> 261129180000Z
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    format!("{}Z", &digits[2..])
}

/// A responder whose index files say `outcome` of `serial` (and good of every other
/// certificate the test PKI revoked), written to a directory of its own.
struct Answering {
    dir: PathBuf,
    manifest: Map<String, Value>,
    serial: Vec<u8>,
    outcome: Outcome,
}

impl Answering {
    fn new(component: RevocationComponent, outcome: Outcome, tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "edgeattest-revocation-policy-{}-{tag}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let (target_index, serial) = target(component);
        let manifest: Value =
            serde_json::from_str(&read("generated/ocsp/responders.json")).unwrap();
        let manifest = manifest.as_object().unwrap().clone();
        for entry in manifest.values() {
            let index = entry["index"].as_str().unwrap();
            let text = std::fs::read_to_string(ocsp_dir().join(index)).unwrap();
            let mut lines = Vec::new();
            for line in text.lines() {
                let mut fields: Vec<String> = line.split('\t').map(String::from).collect();
                let mine = index == target_index && fields[3] == serial;
                // The test PKI's other revoked certificates are good here: one at a time.
                let status = if mine { outcome } else { Outcome::Good };
                match status {
                    Outcome::Good | Outcome::Unanswered => {
                        fields[0] = "V".into();
                        fields[2] = String::new();
                    }
                    Outcome::Unknown => continue,
                    Outcome::Revoked => {
                        fields[0] = "R".into();
                        fields[2] = format!("{},keyCompromise", index_time(now() - REVOKED_AGE));
                    }
                    Outcome::Hold => {
                        fields[0] = "R".into();
                        fields[2] = format!(
                            "{},certificateHold,holdInstructionReject",
                            index_time(now() - REVOKED_AGE)
                        );
                    }
                }
                lines.push(fields.join("\t"));
            }
            std::fs::write(dir.join(index), lines.join("\n") + "\n").unwrap();
            let attr = format!("{index}.attr");
            std::fs::copy(ocsp_dir().join(&attr), dir.join(&attr)).unwrap();
        }
        Self {
            dir,
            manifest,
            serial: hex::decode(serial).unwrap(),
            outcome,
        }
    }

    fn answer(&self, request: &[u8]) -> Fetched {
        let about_target = request
            .windows(self.serial.len())
            .any(|w| w == self.serial.as_slice());
        if about_target && self.outcome == Outcome::Unanswered {
            return Fetched::Failed(FetchFailure::Timeout);
        }
        let entry = self
            .manifest
            .values()
            .find(|entry| {
                let hash =
                    hex::decode(entry["issuer_key_hash"]["sha384"].as_str().unwrap()).unwrap();
                request.windows(hash.len()).any(|w| w == hash.as_slice())
            })
            .expect("a CA of the test PKI");
        let file = |name: &str| ocsp_dir().join(entry[name].as_str().unwrap());
        let (request_path, response_path) = (self.dir.join("req.der"), self.dir.join("resp.der"));
        std::fs::write(&request_path, request).unwrap();
        let output = Command::new("openssl")
            .arg("ocsp")
            .arg("-index")
            .arg(self.dir.join(entry["index"].as_str().unwrap()))
            .arg("-CA")
            .arg(file("ca"))
            .arg("-rsigner")
            .arg(file("responder"))
            .arg("-rkey")
            .arg(file("responder_key"))
            .args(["-rmd", "sha384", "-resp_key_id", "-ndays", "1"])
            .arg("-reqin")
            .arg(&request_path)
            .arg("-respout")
            .arg(&response_path)
            .output()
            .expect("openssl is installed (pkg-config/setup.sh)");
        assert!(output.status.success(), "{output:?}");
        Fetched::Body(std::fs::read(Path::new(&response_path)).unwrap())
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The real LS10 96.10.55.00.01 transcript re-signed with the test PKI's switch leaf.
fn switch() -> (Vec<u8>, String) {
    let report =
        hex::decode(read("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_report.hex").trim())
            .unwrap();
    let key = SigningKey::from_pkcs8_pem(&read("generated/ocsp/leaf_switch_key.pem")).unwrap();
    let mut evidence = report[..report.len() - 96].to_vec();
    let signature = key.sign(&evidence);
    evidence.extend_from_slice(&signature);
    (evidence, read("generated/ocsp/chain_switch.pem"))
}

fn request(component: RevocationComponent, allow_hold_header: bool) -> Request {
    let ((evidence, chain), path, arch) = match component {
        RevocationComponent::SwitchChain => (switch(), "/v4/attest/switch", "LS10"),
        _ => (device("good"), "/v4/attest/gpu", "HOPPER"),
    };
    let body = json!({
        "nonce": hex::encode(&evidence[4..36]),
        "arch": arch,
        "claims_version": "3.0",
        "evidence_list": [{"evidence": STANDARD.encode(&evidence), "certificate": STANDARD.encode(&chain)}],
    });
    let mut request = Request::new("POST", path).body(serde_json::to_vec(&body).unwrap());
    if allow_hold_header {
        request = request.header("X-NVIDIA-OCSP-ALLOW-CERT-HOLD", "true");
    }
    request
}

/// `EDGEATTEST_REVOCATION_POLICY` with `row`'s rule for `component` only, read as a host
/// reads it.
pub(crate) fn policy_variable(component: RevocationComponent, row: &Row) -> String {
    let rule = serde_json::to_value(row.rule.rule(REVOKED_AGE)).unwrap();
    json!({ component.as_str(): rule }).to_string()
}

fn config(variable: &str) -> ServiceConfig {
    let settings = HostSettings::read(|name| match name {
        "EDGEATTEST_SIGNING_KEY" => Some(read("generated/ocsp/root_key.pem")),
        "EDGEATTEST_REVOCATION_POLICY" => Some(variable.to_string()),
        "EDGEATTEST_RIM_SERVICE_URL" => Some("off".into()),
        "EDGEATTEST_ISSUER" => Some("https://attest.example".into()),
        _ => None,
    })
    .unwrap();
    settings.options.build().unwrap().config().clone()
}

/// The response to `component`'s request under `variable`, answered per `outcome`, and the
/// service's key set (the relying party's tests verify the result with it).
pub(crate) fn attest_response(
    component: RevocationComponent,
    outcome: Outcome,
    variable: &str,
    header: bool,
    tag: &str,
) -> (Response, Jwks) {
    let service = test_service(config(variable), true);
    let responder = Answering::new(component, outcome, tag);
    let (response, _) =
        attest_answering(&service, &request(component, header), [9; 32], |der, _| {
            responder.answer(der)
        });
    let keys = service.handle(
        &Request::new("GET", "/.well-known/jwks.json"),
        edgeattest::UnixTime::from_secs(now()).unwrap(),
        [0; 32],
    );
    (response, Jwks::parse(&keys.body).unwrap())
}

/// The device token of `component`'s request under `variable`, answered per `outcome`.
fn attest(
    component: RevocationComponent,
    outcome: Outcome,
    variable: &str,
    header: bool,
    tag: &str,
) -> (Map<String, Value>, Map<String, Value>) {
    let (response, _) = attest_response(component, outcome, variable, header, tag);
    let (overall, mut devices) = tokens(&response);
    (overall, devices.remove(0))
}

fn warning(device: &Map<String, Value>) -> &str {
    device
        .get("x-nvidia-attestation-warning")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

#[test]
fn every_component_and_outcome_gives_the_tables_claim_warning_and_verdict() {
    let mut checked = 0;
    for component in SERVICE_COMPONENTS {
        for (n, row) in TABLE.iter().enumerate() {
            let variable = policy_variable(component, row);
            let tag = format!("{}-{n}", component.as_str());
            let before = now();
            let (overall, gpu) = attest(component, row.outcome, &variable, false, &tag);
            let after = now();
            let case = format!("{component:?} {row:?} ({variable})");
            let chain = gpu
                .get(claim_name(component))
                .unwrap_or_else(|| panic!("{case}: {:?}", gpu.keys().collect::<Vec<_>>()));
            assert_eq!(
                chain["x-nvidia-cert-ocsp-status"], row.claim,
                "{case}: {chain}"
            );
            let details = gpu.get("x-nvidia-error-details").unwrap_or(&Value::Null);
            match row.verdict {
                Verdict::Pass => {
                    assert_eq!(
                        overall["x-nvidia-overall-att-result"], true,
                        "{case}: {gpu:?}"
                    );
                    assert_eq!(details, &Value::Null, "{case}");
                }
                Verdict::Fail(code) => {
                    assert_eq!(overall["x-nvidia-overall-att-result"], false, "{case}");
                    assert_eq!(details["code"], code, "{case}: {details}");
                }
            }
            let said = warning(&gpu);
            match row.warning {
                None => assert!(!said.contains("accepted because"), "{case}: {said}"),
                Some(member) => {
                    assert!(
                        said.contains(&format!("the {}", component.describe())),
                        "{case}: {said}"
                    );
                    assert!(said.contains(member), "{case}: {said}");
                }
            }
            if row.outcome == Outcome::Revoked && row.warning.is_some() {
                // The warning names the revocation time and reason; the chain says revoked.
                assert!(said.contains("keyCompromise"), "{case}: {said}");
                assert!(said.contains("was revoked at 20"), "{case}: {said}");
                assert_eq!(chain["x-nvidia-cert-status"], "revoked", "{case}");
                assert_eq!(chain["x-nvidia-cert-revocation-reason"], "keyCompromise");
                // The member and the warning name the same time.
                let at = chain["x-edgeattest-cert-revocation-time"].as_str().unwrap();
                assert!(
                    said.contains(&format!("was revoked at {at} ")),
                    "{case}: {said}"
                );
            }
            assert_revocation_time(chain, row.outcome, (before, after), &case);
            checked += 1;
        }
    }
    assert_eq!(checked, SERVICE_COMPONENTS.len() * TABLE.len());
}

/// A chain reported revoked or on hold (passed or not) carries
/// `x-edgeattest-cert-revocation-time`: the revocation time the responder gave (written
/// `REVOKED_AGE` before the request, between `before` and `after`), as the object's other
/// times are written; any other chain carries none.
fn assert_revocation_time(
    chain: &Value,
    outcome: Outcome,
    (before, after): (u64, u64),
    case: &str,
) {
    let member = chain.get("x-edgeattest-cert-revocation-time");
    if !matches!(outcome, Outcome::Revoked | Outcome::Hold) {
        assert_eq!(member, None, "{case}: {chain}");
        return;
    }
    let text = member
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{case}: {chain}"));
    let at = edgeattest::time::parse_rfc3339(text).unwrap();
    assert_eq!(
        edgeattest::UnixTime::from_secs(at).unwrap().to_string(),
        text,
        "{case}"
    );
    assert!(
        (before - REVOKED_AGE..=after - REVOKED_AGE).contains(&at),
        "{case}: {text}"
    );
}

#[test]
fn the_hold_header_turns_allow_hold_on_for_every_component() {
    for component in SERVICE_COMPONENTS {
        let tag = format!("header-{}", component.as_str());
        let (overall, gpu) = attest(component, Outcome::Hold, "{}", true, &tag);
        assert_eq!(
            overall["x-nvidia-overall-att-result"], true,
            "{component:?}: {gpu:?}"
        );
        assert_eq!(
            gpu[claim_name(component)]["x-nvidia-cert-ocsp-status"],
            "good"
        );
        assert!(
            warning(&gpu).contains(edgeattest::service::CERTIFICATE_HOLD_WARNING),
            "{component:?}"
        );
        let window = (now() - 60, now());
        assert_revocation_time(&gpu[claim_name(component)], Outcome::Hold, window, "header");
        // Without the header, the strict default refuses the hold.
        let (overall, _) = attest(component, Outcome::Hold, "{}", false, &tag);
        assert_eq!(
            overall["x-nvidia-overall-att-result"], false,
            "{component:?}"
        );
    }
}

#[test]
fn a_rule_of_one_component_relaxes_no_other() {
    // allowUnknown for the VBIOS RIM chain does not pass an unknown device chain.
    let variable = r#"{"vbiosRimChain": {"allowUnknown": true, "allowHold": true}}"#;
    let (_, gpu) = attest(
        RevocationComponent::DeviceChain,
        Outcome::Unknown,
        variable,
        false,
        "other",
    );
    assert_eq!(gpu["x-nvidia-error-details"]["code"], 5003);
}

#[test]
fn a_malformed_policy_stops_the_service_with_its_code() {
    for bad in [
        "not json",
        r#"{"gpuChain": {}}"#,
        r#"{"deviceChain": {"allowUnknown": 1}}"#,
        r#"{"deviceChain": {"allowUnknown": true, "allowUnknown": false}}"#,
    ] {
        let settings = HostSettings::read(|name| match name {
            "EDGEATTEST_SIGNING_KEY" => Some(read("generated/ocsp/root_key.pem")),
            "EDGEATTEST_REVOCATION_POLICY" => Some(bad.into()),
            _ => None,
        })
        .unwrap();
        let error = settings.options.build().map(|_| ()).unwrap_err();
        assert_eq!(
            (error.code(), error.field()),
            ("ERR_INVALID_ARGUMENT", Some("revocationPolicy")),
            "{bad}: {error}"
        );
        assert!(error.to_string().starts_with("revocationPolicy"), "{error}");
    }
    // The strict default, written out, is the default.
    assert_eq!(config("{}").revocation_policy, RevocationPolicy::default());
}
