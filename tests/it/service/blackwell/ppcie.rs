//! `x-nvidia-gpu-switch-pdis` from the real PPCIE node of NVIDIA's PPCIE verifier tests: 8
//! Hopper GPUs whose opaque tag 22 lists the switches they are linked to, and the 4 LS10
//! switches of the same node, each reporting its own PDI (switch tag 22).

use std::collections::BTreeSet;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::Value;

use super::{attest, fixture, manifest, nvidia_devices, service, Item};
use edgeattest::evidence::Transcript;
use edgeattest::service::Service;

fn items(file: &str) -> Vec<(Vec<u8>, String)> {
    let list: Value =
        serde_json::from_slice(&fixture(&format!("nvidia/evidence/serialized/{file}"))).unwrap();
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let evidence = STANDARD.decode(item["evidence"].as_str().unwrap()).unwrap();
            let chain = STANDARD
                .decode(item["certificate"].as_str().unwrap())
                .unwrap();
            (evidence, String::from_utf8(chain).unwrap())
        })
        .collect()
}

fn gpus() -> Vec<Item> {
    items("nvtrust_ppcie_gpu_evidence_8gpu.json")
        .into_iter()
        .map(|(evidence, chain)| Item {
            evidence,
            chain,
            hint: None,
        })
        .collect()
}

fn ppcie_rims() -> Service {
    let driver = manifest("ppcie", "driver");
    let vbios = manifest("ppcie", "vbios");
    service(
        nvidia_devices(),
        &[
            (&driver, &format!("{driver}.xml")),
            (&vbios, &format!("{vbios}.xml")),
        ],
    )
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn gpu_switch_pdis_name_the_switches_of_the_node() {
    let gpus = gpus();
    assert_eq!(gpus.len(), 8);
    let attested = attest(&ppcie_rims(), "HOPPER", "4.0", &gpus);
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], true);

    // Each switch reports its own PDI in the byte order the GPU claim uses.
    let switches: BTreeSet<String> = items("nvtrust_ppcie_switch_evidence_4sw.json")
        .iter()
        .map(|(evidence, _)| {
            let transcript = Transcript::parse(evidence).unwrap();
            hex::encode_upper(transcript.response.opaque.device_pdi().unwrap().unwrap())
        })
        .collect();
    assert_eq!(switches.len(), 4);

    let mut seen = BTreeSet::new();
    for (gpu, claims) in gpus.iter().zip(&attested.devices) {
        assert_eq!(claims["measres"], "success");
        let claimed = strings(&claims["x-nvidia-gpu-switch-pdis"]);
        // Sorted, without repeats, though the GPU lists 18 links.
        let listed = Transcript::parse(&gpu.evidence)
            .unwrap()
            .response
            .opaque
            .switch_pdis()
            .unwrap()
            .unwrap();
        assert_eq!(listed.len(), 18);
        let expected: BTreeSet<String> = listed
            .iter()
            .map(|pdi| {
                let mut reversed = *pdi;
                reversed.reverse();
                hex::encode_upper(reversed)
            })
            .collect();
        assert_eq!(claimed, expected.iter().cloned().collect::<Vec<_>>());
        assert!(
            claimed.iter().all(|pdi| switches.contains(pdi)),
            "{claimed:?}"
        );
        seen.extend(claimed);
    }
    // Together the GPUs reach every switch of the node.
    assert_eq!(seen, switches);

    // Claims 3.0 have no such claim (the real service's 3.0 token has none).
    let attested = attest(&ppcie_rims(), "HOPPER", "3.0", &gpus[..1]);
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], true);
    assert!(!attested.devices[0].contains_key("x-nvidia-gpu-switch-pdis"));
}
