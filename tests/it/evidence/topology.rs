//! The PPCIE topology verdict on the real node of NVIDIA's PPCIE verifier tests (8 Hopper
//! GPUs, 4 LS10 switches), and on the same transcripts with their opaque data edited and
//! re-signed by the keyed test PKI of `tests/fixtures/generated/generate_ppcie.py` (whose
//! device-identity certificates carry the real devices' serials, hence PDIs): a missing
//! switch, a foreign switch, a duplicated GPU, a GPU naming a switch that is not there, and
//! H800 disabled links. Each broken topology fails exactly the rules it breaks, with the link.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::attest::{Arch, FwidPolicy, Nonce};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::crypto::SigningKey;
use edgeattest::evidence::{
    check_topology, tag, verify_evidence, DeviceInput, TopologyError, TopologyGpu, TopologyInput,
    TopologyOptions, TopologyReport, TopologyRule, TopologyRuleStatus, TopologySwitch,
    TopologyVerdict, VerifiedEvidence, VerifyContext, MAX_DEVICE_PDIS,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

use super::edit::rewrite_opaque;
use crate::verdicts::NOW;

/// One device token's verified claims.
type Claims = Map<String, Value>;

const FOREIGN: [u8; 8] = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef];

fn fixture(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// One device: its transcript and its chain (PEM).
#[derive(Clone)]
struct Device {
    evidence: Vec<u8>,
    chain: String,
}

fn real(file: &str) -> Vec<Device> {
    let list: Value =
        serde_json::from_str(&fixture(&format!("nvidia/evidence/serialized/{file}"))).unwrap();
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| Device {
            evidence: STANDARD.decode(item["evidence"].as_str().unwrap()).unwrap(),
            chain: String::from_utf8(
                STANDARD
                    .decode(item["certificate"].as_str().unwrap())
                    .unwrap(),
            )
            .unwrap(),
        })
        .collect()
}

fn real_gpus() -> Vec<Device> {
    real("nvtrust_ppcie_gpu_evidence_8gpu.json")
}

fn real_switches() -> Vec<Device> {
    real("nvtrust_ppcie_switch_evidence_4sw.json")
}

fn verify(device: &Device, arch: Arch, store: &TrustStore) -> VerifiedEvidence {
    verify_evidence(
        DeviceInput {
            evidence: &device.evidence,
            certificate_pem: &device.chain,
        },
        &VerifyContext {
            arch,
            nonce: Nonce::from_bytes(device.evidence[4..36].try_into().unwrap()),
            now: UnixTime::from_secs(NOW).unwrap(),
            trust_store: store,
            chain_options: ChainOptions::default(),
            fwid_policy: FwidPolicy::default(),
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Verifies a node and checks its topology with the default options (8 + 4).
fn check(gpus: &[Device], switches: &[Device], store: &TrustStore) -> TopologyReport {
    let gpus: Vec<_> = gpus
        .iter()
        .map(|d| verify(d, Arch::Hopper, store))
        .collect();
    let switches: Vec<_> = switches
        .iter()
        .map(|d| verify(d, Arch::Ls10, store))
        .collect();
    let input = TopologyInput::from_evidence(&gpus, &switches).unwrap();
    check_topology(&input, &TopologyOptions::default()).unwrap()
}

fn nvidia() -> TrustStore {
    TrustStore::nvidia_device_identity().unwrap()
}

fn keyed_root() -> TrustStore {
    TrustStore::from_pem(&fixture("generated/keyed/ppcie/root.pem")).unwrap()
}

/// The transcript with each opaque value `edit` returns replaced, re-signed with the keyed
/// leaf of `stem` (`gpu_3`, `switch_foreign`), whose chain the device then carries.
fn resign(device: &Device, stem: &str, edit: impl Fn(u16, &[u8]) -> Option<Vec<u8>>) -> Device {
    let key = SigningKey::from_pkcs8_pem(&fixture(&format!(
        "generated/keyed/ppcie/{stem}_leaf_key.pem"
    )))
    .unwrap();
    let evidence = rewrite_opaque(
        &device.evidence,
        |entries| {
            for (tag, value) in entries.iter_mut() {
                if let Some(edited) = edit(*tag, value) {
                    *value = edited;
                }
            }
        },
        &key,
    );
    Device {
        evidence,
        chain: fixture(&format!("generated/keyed/ppcie/{stem}_chain.pem")),
    }
}

/// The real node re-signed by the keyed PKI, every device unedited.
fn generated_node() -> (Vec<Device>, Vec<Device>) {
    let gpus = real_gpus()
        .iter()
        .enumerate()
        .map(|(n, d)| resign(d, &format!("gpu_{n}"), |_, _| None))
        .collect();
    let switches = real_switches()
        .iter()
        .enumerate()
        .map(|(n, d)| resign(d, &format!("switch_{n}"), |_, _| None))
        .collect();
    (gpus, switches)
}

/// A switch's own PDI, from its transcript (tag 22).
fn switch_pdi(device: &Device) -> [u8; 8] {
    edgeattest::evidence::Transcript::parse(&device.evidence)
        .unwrap()
        .response
        .opaque
        .device_pdi()
        .unwrap()
        .unwrap()
}

fn failed(report: &TopologyReport) -> Vec<&'static str> {
    report.failed_rules.iter().map(|rule| rule.id()).collect()
}

/// The (gpu, switch, pdi) of each finding of a rule.
fn links(
    report: &TopologyReport,
    rule: TopologyRule,
) -> Vec<(Option<String>, Option<String>, Option<String>)> {
    report
        .rule(rule)
        .unwrap()
        .findings
        .iter()
        .map(|f| (f.gpu.clone(), f.switch.clone(), f.pdi.clone()))
        .collect()
}

fn s(text: &str) -> Option<String> {
    Some(text.to_string())
}

#[test]
fn the_real_node_passes_every_rule() {
    let report = check(&real_gpus(), &real_switches(), &nvidia());
    assert_eq!(report.verdict, TopologyVerdict::Passed);
    assert!(report.passed());
    report.require().unwrap();
    assert_eq!(report.rules.len(), TopologyRule::ALL.len());
    assert!(report
        .rules
        .iter()
        .all(|r| r.status == TopologyRuleStatus::Passed));

    // Each GPU's PDI is its identity certificate's serial after the first byte, and each
    // lists the 4 switches (18 links) in switch byte order.
    assert_eq!(report.gpus[0].pdi.as_deref(), Some("2921CE551E4EEDA3"));
    assert_eq!(report.switches[0].pdi.as_deref(), Some("666E93E19DEC7D2D"));
    let switch_pdis: Vec<String> = report
        .switches
        .iter()
        .map(|s| s.pdi.clone().unwrap())
        .collect();
    for gpu in &report.gpus {
        let mut expected = switch_pdis.clone();
        expected.sort();
        assert_eq!(gpu.links.as_ref().unwrap(), &expected, "{}", gpu.label);
    }

    // The JSON form: camelCase members, kebab-case ids.
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["verdict"], "passed");
    assert_eq!(json["expectedGpus"], 8);
    assert_eq!(json["failedRules"], json!([]));
    assert_eq!(
        json["rules"][0],
        json!({"rule": "gpu-count", "status": "passed", "findings": []})
    );
    assert_eq!(json["gpus"][0]["label"], "GPU-0");
}

#[test]
fn the_generated_node_passes() {
    let (gpus, switches) = generated_node();
    let report = check(&gpus, &switches, &keyed_root());
    assert_eq!(failed(&report), Vec::<&str>::new());
    assert!(report.passed());
}

#[test]
fn a_missing_switch_fails_the_count_and_every_gpus_link_to_it() {
    let switches = real_switches();
    let missing = hex::encode_upper(switch_pdi(&switches[3]));
    let report = check(&real_gpus(), &switches[..3], &nvidia());
    assert_eq!(report.verdict, TopologyVerdict::Failed);
    assert_eq!(failed(&report), ["switch-count", "gpu-switch-present"]);
    let expected: Vec<_> = (0..8)
        .map(|n| (s(&format!("GPU-{n}")), None, s(&missing)))
        .collect();
    assert_eq!(links(&report, TopologyRule::GpuSwitchPresent), expected);
    assert_eq!(
        report.rule(TopologyRule::SwitchCount).unwrap().findings[0].message,
        "3 switches given, 4 expected"
    );

    // Unmissable: `require` refuses it with a stable code naming the first rule.
    let err = report.require().unwrap_err();
    assert_eq!(err.code(), "ERR_TOPOLOGY_FAILED");
    assert!(matches!(
        err,
        TopologyError::Failed {
            rule: TopologyRule::SwitchCount,
            failed_rules: 2,
            ..
        }
    ));
    assert!(err.to_string().contains("switch-count"), "{err}");
}

#[test]
fn a_foreign_switch_fails_both_sides_of_its_links() {
    let (gpus, mut switches) = generated_node();
    let replaced = hex::encode_upper(switch_pdi(&switches[3]));
    // Another node's switch: its own certificate, its own PDI, the same GPU list.
    switches[3] = resign(&real_switches()[3], "switch_foreign", |t, _| {
        (t == tag::PDI).then(|| FOREIGN.to_vec())
    });
    let report = check(&gpus, &switches, &keyed_root());
    assert_eq!(
        failed(&report),
        ["gpu-switch-present", "switch-linked-to-gpus"]
    );
    let foreign = hex::encode_upper(FOREIGN);
    assert_eq!(report.switches[3].pdi.as_deref(), Some(foreign.as_str()));
    let absent: Vec<_> = (0..8)
        .map(|n| (s(&format!("GPU-{n}")), None, s(&replaced)))
        .collect();
    assert_eq!(links(&report, TopologyRule::GpuSwitchPresent), absent);
    let unlinked: Vec<_> = (0..8)
        .map(|n| (s(&format!("GPU-{n}")), s("SWITCH-3"), s(&foreign)))
        .collect();
    assert_eq!(links(&report, TopologyRule::SwitchLinkedToGpus), unlinked);
}

#[test]
fn a_duplicated_gpu_fails_uniqueness_and_the_switches_lists() {
    let mut gpus = real_gpus();
    let report = check(&gpus, &real_switches(), &nvidia());
    let gpu7 = report.gpus[7].pdi.clone().unwrap();
    let gpu0 = report.gpus[0].pdi.clone().unwrap();
    // GPU 0's evidence twice: 8 reports, 7 devices. NVIDIA's rules all pass it.
    gpus[7] = gpus[0].clone();
    let report = check(&gpus, &real_switches(), &nvidia());
    assert_eq!(failed(&report), ["gpu-unique", "switch-gpu-present"]);
    assert_eq!(
        links(&report, TopologyRule::GpuUnique),
        [(s("GPU-7"), None, Some(gpu0))]
    );
    let expected: Vec<_> = (0..4)
        .map(|n| (None, s(&format!("SWITCH-{n}")), s(&gpu7)))
        .collect();
    assert_eq!(links(&report, TopologyRule::SwitchGpuPresent), expected);
}

#[test]
fn a_gpu_naming_a_switch_that_is_not_there_is_named_with_the_link() {
    let (mut gpus, switches) = generated_node();
    let gone = switch_pdi(&switches[3]);
    let (mut stored_gone, mut stored_foreign) = (gone, FOREIGN);
    stored_gone.reverse();
    stored_foreign.reverse();
    // GPU 3's links to switch 3 now lead to a switch of another node.
    gpus[3] = resign(&real_gpus()[3], "gpu_3", |t, value| {
        (t == tag::PDI).then(|| {
            value
                .chunks(8)
                .flat_map(|pdi| {
                    if pdi == stored_gone {
                        stored_foreign
                    } else {
                        pdi.try_into().unwrap()
                    }
                })
                .collect()
        })
    });
    let report = check(&gpus, &switches, &keyed_root());
    assert_eq!(
        failed(&report),
        [
            "gpu-switch-consistent",
            "gpu-switch-present",
            "switch-linked-to-gpus"
        ]
    );
    let foreign = hex::encode_upper(FOREIGN);
    assert_eq!(
        links(&report, TopologyRule::GpuSwitchPresent),
        [(s("GPU-3"), None, s(&foreign))]
    );
    assert_eq!(
        links(&report, TopologyRule::SwitchLinkedToGpus),
        [(s("GPU-3"), s("SWITCH-3"), s(&hex::encode_upper(gone)))]
    );
    assert_eq!(
        links(&report, TopologyRule::GpuSwitchConsistent)[0].0,
        s("GPU-3")
    );
}

#[test]
fn disabled_links_are_not_switches() {
    // H800: links that are off report the all-zero PDI. Every repeated link of each GPU
    // disabled leaves the 4 switches once each.
    let (mut gpus, switches) = generated_node();
    for (n, gpu) in gpus.iter_mut().enumerate() {
        *gpu = resign(&real_gpus()[n], &format!("gpu_{n}"), |t, value| {
            (t == tag::PDI).then(|| {
                let mut seen = Vec::new();
                value
                    .chunks(8)
                    .flat_map(|pdi| {
                        if seen.contains(&pdi) {
                            [0u8; 8]
                        } else {
                            seen.push(pdi);
                            pdi.try_into().unwrap()
                        }
                    })
                    .collect()
            })
        });
    }
    let report = check(&gpus, &switches, &keyed_root());
    assert_eq!(failed(&report), Vec::<&str>::new());
    assert_eq!(report.gpus[0].links.as_ref().unwrap().len(), 4);

    // Without the zeros dropped, the count would be 5.
    let verified = verify(&gpus[0], Arch::Hopper, &keyed_root());
    let gpu = TopologyGpu::from_evidence("GPU-0", &verified).unwrap();
    assert_eq!(gpu.switch_pdis.as_ref().unwrap().len(), 18);
    assert!(gpu.switch_pdis.unwrap().contains(&[0; 8]));
}

#[test]
fn options_counts_and_budgets() {
    let gpus: Vec<_> = real_gpus()
        .iter()
        .map(|d| verify(d, Arch::Hopper, &nvidia()))
        .collect();
    let switches: Vec<_> = real_switches()
        .iter()
        .map(|d| verify(d, Arch::Ls10, &nvidia()))
        .collect();
    // A device on the wrong side is refused, not checked.
    let err = TopologyInput::from_evidence(&switches, &gpus).unwrap_err();
    assert_eq!(err.code(), "ERR_TOPOLOGY_WRONG_DEVICE");
    assert_eq!(err.to_string(), "GPU-0 is not a gpu");

    let input = TopologyInput::from_evidence(&gpus, &switches).unwrap();
    let options = TopologyOptions {
        expected_gpus: 4,
        ..TopologyOptions::default()
    };
    let report = check_topology(&input, &options).unwrap();
    assert_eq!(failed(&report), ["gpu-count", "switch-gpu-count"]);
    assert_eq!(
        report.rule(TopologyRule::SwitchGpuCount).unwrap().findings[0].message,
        "SWITCH-0 lists 8 distinct GPUs, 4 expected"
    );
    // Options from JSON: camelCase, unknown members refused.
    let parsed: TopologyOptions = serde_json::from_value(json!({"expectedGpus": 4})).unwrap();
    assert_eq!(parsed, options);
    assert!(serde_json::from_value::<TopologyOptions>(json!({"gpus": 4})).is_err());

    // Hostile input: past the budgets, an error before any rule runs.
    let mut large = input.clone();
    large.gpus[0].switch_pdis = Some(vec![[1; 8]; MAX_DEVICE_PDIS + 1]);
    let err = check_topology(&large, &TopologyOptions::default()).unwrap_err();
    assert_eq!(err.code(), "ERR_TOPOLOGY_TOO_LARGE");
    let mut many = input.clone();
    many.switches = vec![many.switches[0].clone(); 65];
    assert_eq!(
        check_topology(&many, &TopologyOptions::default())
            .unwrap_err()
            .code(),
        "ERR_TOPOLOGY_TOO_LARGE"
    );
    let too_many = TopologyOptions {
        expected_gpus: 1_000_000,
        ..TopologyOptions::default()
    };
    assert!(check_topology(&input, &too_many).is_err());

    // A node that reports no links at all fails loudly, not vacuously.
    let empty = TopologyInput {
        gpus: input
            .gpus
            .iter()
            .map(|g| TopologyGpu {
                switch_pdis: None,
                ..g.clone()
            })
            .collect(),
        switches: input
            .switches
            .iter()
            .map(|s| TopologySwitch {
                pdi: None,
                gpu_pdis: None,
                ..s.clone()
            })
            .collect(),
    };
    let report = check_topology(&empty, &TopologyOptions::default()).unwrap();
    assert!(!report.passed());
    assert!(failed(&report).contains(&"gpu-reports-switches"));
    assert!(failed(&report).contains(&"switch-reports-gpus"));
}

/// Claims as a relying party holds them after verifying each device's token: GPU claims 4.0
/// (`x-nvidia-gpu-switch-pdis`) and switch claims 4.0 (`x-nvidia-switch-pdi`,
/// `x-nvidia-switch-gpu-pdis`), built by the crate's claim functions from the real node.
fn node_claims() -> (Vec<Claims>, Vec<Claims>) {
    use edgeattest::service::claims::{switch_gpu_pdis_claim, switch_pdi_claim, switch_pdis_claim};
    let store = nvidia();
    let gpus = real_gpus()
        .iter()
        .map(|d| {
            let v = verify(d, Arch::Hopper, &store);
            let claims = json!({
                "x-nvidia-device-type": "gpu",
                "ueid": v.ueid(),
                "x-nvidia-gpu-switch-pdis": switch_pdis_claim(&v.switch_pdis().unwrap()),
            });
            claims.as_object().unwrap().clone()
        })
        .collect();
    let switches = real_switches()
        .iter()
        .map(|d| {
            let v = verify(d, Arch::Ls10, &store);
            let opaque = &v.transcript().response.opaque;
            let claims = json!({
                "x-nvidia-device-type": "nvswitch",
                "ueid": v.ueid(),
                "x-nvidia-switch-pdi": switch_pdi_claim(&opaque.device_pdi().unwrap().unwrap()),
                "x-nvidia-switch-gpu-pdis":
                    switch_gpu_pdis_claim(&opaque.switch_gpu_pdis().unwrap().unwrap().pdis),
            });
            claims.as_object().unwrap().clone()
        })
        .collect();
    (gpus, switches)
}

#[test]
fn claims_join_gpu_and_switch_results() {
    let (gpus, switches) = node_claims();
    let input = TopologyInput::from_claims(&gpus, &switches).unwrap();
    assert_eq!(input.gpus[0].pdi, None);

    // Claims carry no GPU PDI: by default the GPU-side rules fail, naming each GPU.
    let report = check_topology(&input, &TopologyOptions::default()).unwrap();
    assert_eq!(
        failed(&report),
        ["switch-gpu-present", "gpu-linked-to-switches"]
    );
    assert_eq!(
        report
            .rule(TopologyRule::SwitchGpuPresent)
            .unwrap()
            .findings[0]
            .message,
        "the PDI of GPU-0 is unknown (no device-identity serial)"
    );

    // Turned off, they are reported skipped and NVIDIA's rules pass.
    let options = TopologyOptions {
        match_gpu_pdis: false,
        ..TopologyOptions::default()
    };
    let report = check_topology(&input, &options).unwrap();
    assert!(report.passed());
    assert_eq!(
        report
            .rule(TopologyRule::GpuLinkedToSwitches)
            .unwrap()
            .status,
        TopologyRuleStatus::Skipped
    );

    // Supplied by the relying party, the GPUs' PDIs make the claims node pass in full.
    let evidence = check(&real_gpus(), &real_switches(), &nvidia());
    let mut with_pdis = input.clone();
    for (gpu, shown) in with_pdis.gpus.iter_mut().zip(&evidence.gpus) {
        let mut pdi = [0u8; 8];
        hex::decode_to_slice(shown.pdi.as_ref().unwrap(), &mut pdi).unwrap();
        gpu.pdi = Some(pdi);
    }
    let joined = check_topology(&with_pdis, &TopologyOptions::default()).unwrap();
    assert!(joined.passed());
    // The same links as from the evidence.
    assert_eq!(joined.gpus, evidence.gpus);
    assert_eq!(joined.switches, evidence.switches);

    // A GPU token given twice is the same device (its ueid), even without PDIs.
    let mut twice = gpus.clone();
    twice[7] = twice[0].clone();
    let input = TopologyInput::from_claims(&twice, &switches).unwrap();
    let report = check_topology(&input, &options).unwrap();
    assert_eq!(failed(&report), ["gpu-unique"]);
    assert!(report.rule(TopologyRule::GpuUnique).unwrap().findings[0]
        .message
        .contains("ueid of GPU-0"));
}

#[test]
fn malformed_claims_are_refused() {
    let (gpus, switches) = node_claims();
    for (claim, value) in [
        ("x-nvidia-gpu-switch-pdis", json!("2D7DEC9DE1936E66")),
        ("x-nvidia-gpu-switch-pdis", json!(["2D7DEC9DE1936E"])),
        ("x-nvidia-gpu-switch-pdis", json!(["2D7DEC9DE1936E6G"])),
        ("x-nvidia-gpu-switch-pdis", json!([42])),
    ] {
        let mut bad = gpus.clone();
        bad[2].insert(claim.into(), value.clone());
        let err = TopologyInput::from_claims(&bad, &switches).unwrap_err();
        assert_eq!(err.code(), "ERR_TOPOLOGY_CLAIM_INVALID", "{value}");
        assert_eq!(
            err.to_string(),
            "GPU-2: x-nvidia-gpu-switch-pdis is not a list of 16-digit hex PDIs"
        );
    }
    let mut bad = switches.clone();
    bad[1].insert("x-nvidia-switch-pdi".into(), json!(["666E93E19DEC7D2D"]));
    assert_eq!(
        TopologyInput::from_claims(&gpus, &bad).unwrap_err().code(),
        "ERR_TOPOLOGY_CLAIM_INVALID"
    );
    // A switch's claims given as a GPU's.
    let err = TopologyInput::from_claims(&switches, &gpus).unwrap_err();
    assert_eq!(err.code(), "ERR_TOPOLOGY_WRONG_DEVICE");
    // Too many PDIs in one claim.
    let mut long = gpus.clone();
    long[0].insert(
        "x-nvidia-gpu-switch-pdis".into(),
        json!(vec!["2D7DEC9DE1936E66"; MAX_DEVICE_PDIS + 1]),
    );
    assert_eq!(
        TopologyInput::from_claims(&long, &switches)
            .unwrap_err()
            .code(),
        "ERR_TOPOLOGY_TOO_LARGE"
    );
}
