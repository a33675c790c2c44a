//! Parsed blocks and opaque data equal NVIDIA's parser outputs (tests/fixtures/nvidia/parsed),
//! the versioned NVDAOD transcript parses, and malformed input gives typed errors.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::DeviceKind;
use edgeattest::evidence::{tag, tag_name, OpaqueFormat, ParseError, Transcript};
use serde_json::{json, Map, Value};

fn read(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/nvidia/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn transcript(path: &str) -> Transcript {
    Transcript::parse(&hex::decode(read(path).trim()).unwrap()).unwrap()
}

fn hx(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}

/// Our parse in the shape of NVIDIA's golden JSON.
fn as_nvat(t: &Transcript, kind: DeviceKind) -> (Value, Value) {
    let r = &t.response;
    let mut blocks = Map::new();
    for b in &r.blocks {
        blocks.insert(
            b.index.to_string(),
            json!({
                "DMTFSpecMeasurementValueType": b.value_type,
                "DMTFSpecMeasurementValueSize": b.value.len(),
                "DMTFSpecMeasurementValue": hx(&b.value),
            }),
        );
    }
    let opaque = &r.opaque;
    let mut fields = Map::new();
    for entry in opaque.entries() {
        let name = format!("OPAQUE_FIELD_ID_{}", tag_name(entry.tag, kind).unwrap());
        let value = match (kind, entry.tag) {
            (_, tag::MSRSCNT) => json!(opaque.msrscnt().unwrap().unwrap()),
            (DeviceKind::Switch, tag::PORTS) => json!(opaque.disabled_ports().unwrap().unwrap()),
            (DeviceKind::Switch, tag::SWITCH_GPU_PDIS) => {
                let pdis = opaque.switch_gpu_pdis().unwrap().unwrap();
                fields.insert(
                    "OPAQUE_FIELD_ID_SWITCH_PORT".into(),
                    json!(pdis.ports.iter().map(|p| hx(&[*p])).collect::<Vec<_>>()),
                );
                json!(pdis.pdis.iter().map(|p| hx(p)).collect::<Vec<_>>())
            }
            _ => json!(hx(&entry.value)),
        };
        fields.insert(name, value);
    }
    let response = json!({
        "SPDMVersion": format!("{:#04x}", r.version),
        "RequestResponseCode": format!("{:#04x}", r.code),
        "Param1": format!("{:#04x}", r.param1),
        "Param2": format!("{:#04x}", r.param2),
        "NumberOfBlocks": r.blocks.len(),
        "MeasurementRecordLength": r.record_len,
        "Nonce": hx(&r.responder_nonce),
        "OpaqueLength": r.opaque_len,
        "Signature": hx(&r.signature),
        "MeasurementRecord": { "NumberOfBlocks": r.blocks.len(), "MeasurementBlocks": blocks },
        "OpaqueData": { "OpaqueDataField": fields },
    });
    let q = &t.request;
    let request = json!({
        "SPDMVersion": format!("{:#04x}", q.version),
        "RequestResponseCode": format!("{:#04x}", q.code),
        "Param1": format!("{:#04x}", q.param1),
        "Param2": format!("{:#04x}", q.param2),
        "Nonce": hx(&q.nonce),
        "SlotIDParam": format!("{:#04x}", q.slot_id),
    });
    (request, response)
}

fn golden(path: &str) -> Value {
    serde_json::from_str(&read(&format!("parsed/nvat/{path}"))).unwrap()
}

/// Equal to the golden output, except that ours may name opaque tags the golden parser
/// version did not print (34 OPAQUE_DATA_VERSION and 36 FEATURE_FLAG, added to NVIDIA's
/// parser later).
fn assert_matches_golden(mut ours: Value, golden: Value) {
    let fields = ours["OpaqueData"]["OpaqueDataField"]
        .as_object_mut()
        .unwrap();
    let golden_fields = golden["OpaqueData"]["OpaqueDataField"].as_object().unwrap();
    let extra: Vec<String> = fields
        .keys()
        .filter(|k| !golden_fields.contains_key(*k))
        .cloned()
        .collect();
    for key in &extra {
        assert!(
            [
                "OPAQUE_FIELD_ID_OPAQUE_DATA_VERSION",
                "OPAQUE_FIELD_ID_FEATURE_FLAG"
            ]
            .contains(&key.as_str()),
            "unexpected extra field {key}"
        );
        fields.remove(key);
    }
    assert_eq!(ours, golden);
}

#[test]
fn hopper_parse_equals_nvidia_golden_output() {
    let t = transcript("evidence/hopper/nvat_hopper_580.159.03_report.hex");
    let (request, response) = as_nvat(&t, DeviceKind::Gpu);
    assert_eq!(request, golden("spdm_req_parsed_output.json"));
    assert_matches_golden(response, golden("spdm_parsed_output.json"));
}

#[test]
fn switch_parse_equals_nvidia_golden_output() {
    let t = transcript("evidence/switch/nvat_ls10_96.10.55.00.01_report.hex");
    let (request, response) = as_nvat(&t, DeviceKind::Switch);
    assert_eq!(request, golden("switch_spdm_req_parsed_output.json"));
    assert_matches_golden(response, golden("switch_spdm_parsed_output.json"));
    let opaque = &t.response.opaque;
    assert_eq!(
        opaque.vbios_version(DeviceKind::Switch).unwrap().as_deref(),
        Some("96.10.55.00.01")
    );
    assert_eq!(
        opaque.device_pdi().unwrap(),
        Some(hex::decode("203eb31ad9ed0008").unwrap().try_into().unwrap())
    );
    opaque.validate(DeviceKind::Switch).unwrap();
}

#[test]
fn versioned_nvdaod_opaque_data() {
    let t = transcript("evidence/hopper/nvat_nvdaod_620.12_transcript_NO_CHAIN.hex");
    let opaque = &t.response.opaque;
    assert_eq!(
        opaque.format(),
        OpaqueFormat::Versioned {
            profile: 0,
            version: [2, 0, 0]
        }
    );
    opaque.validate(DeviceKind::Gpu).unwrap();
    assert_eq!(opaque.driver_version().unwrap().as_deref(), Some("620.12"));
    assert_eq!(
        opaque.vbios_version(DeviceKind::Gpu).unwrap().as_deref(),
        Some("96.00.D9.00.0F")
    );
    assert_eq!(opaque.min_svn().unwrap(), Some(0));
    assert_eq!(opaque.opaque_data_version().unwrap(), Some(2));
    assert_eq!(
        opaque.get(tag::FSP_UCODE_MIN_SVN).unwrap().value_type,
        Some(0x87)
    );
    assert_eq!(opaque.fwid().unwrap().map(<[u8]>::len), Some(48));
    assert_eq!(opaque.text(tag::PROJECT).unwrap().as_deref(), Some("G520"));
    assert_eq!(
        t.request.nonce.to_vec(),
        hex::decode("50e4490df1dadcc80d42038cfc91c023f55f1cd914e540641bf770d7bdfe6f4e").unwrap()
    );
}

#[test]
fn legacy_opaque_fields_are_decoded() {
    let t = transcript("evidence/blackwell/nvat_blackwell_575.32_report.hex");
    let opaque = &t.response.opaque;
    assert_eq!(opaque.format(), OpaqueFormat::Legacy);
    assert_eq!(opaque.opaque_data_version().unwrap(), Some(0));
    assert_eq!(opaque.text(tag::PROJECT).unwrap().as_deref(), Some("G525"));
    assert_eq!(opaque.text(tag::CHIP_SKU).unwrap().as_deref(), Some("886"));
    assert_eq!(tag_name(33, DeviceKind::Gpu), Some("SYS_ENABLE_STATUS"));
    let ppcie: Value =
        serde_json::from_str(&read("evidence/serialized/nvat_hopper_evidence.json")).unwrap();
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(ppcie[0]["evidence"].as_str().unwrap())
        .unwrap();
    let t = Transcript::parse(&bytes).unwrap();
    let opaque = &t.response.opaque;
    assert_eq!(
        opaque.feature_flag().unwrap().map(|f| f.as_str()),
        Some("ppcie")
    );
    assert_eq!(opaque.switch_pdis().unwrap().map(|p| p.len()), Some(18));
    assert_eq!(
        opaque.get(tag::PROTECTED_PCIE_STATUS).unwrap().value,
        [0xaa]
    );
}

#[test]
fn every_truncation_is_a_typed_error() {
    let bytes =
        hex::decode(read("evidence/switch/nvat_ls10_96.10.55.00.01_report.hex").trim()).unwrap();
    for len in 0..bytes.len() {
        let err = Transcript::parse(&bytes[..len]).unwrap_err();
        assert!(
            matches!(
                err,
                ParseError::Truncated { .. }
                    | ParseError::BlockLayout { .. }
                    | ParseError::OpaqueLayout { .. }
            ),
            "{len}: {err:?}"
        );
    }
    assert_eq!(
        Transcript::parse(&bytes[..10]).unwrap_err(),
        ParseError::Truncated {
            field: "request Nonce",
            offset: 4,
            needed: 32
        }
    );
    assert_eq!(
        Transcript::parse(&bytes[..bytes.len() - 1]).unwrap_err(),
        ParseError::Truncated {
            field: "Signature",
            offset: bytes.len() - 96,
            needed: 96
        }
    );
}

#[test]
fn malformed_fields_name_their_offset() {
    let good =
        hex::decode(read("evidence/switch/nvat_ls10_96.10.55.00.01_report.hex").trim()).unwrap();
    let with = |offset: usize, value: u8| {
        let mut b = good.clone();
        b[offset] = value;
        Transcript::parse(&b).unwrap_err()
    };
    assert_eq!(
        with(0, 0x12),
        ParseError::UnexpectedValue {
            field: "request SPDMVersion",
            offset: 0,
            found: 0x12
        }
    );
    assert_eq!(
        with(2, 0x00),
        ParseError::UnexpectedValue {
            field: "request Param1",
            offset: 2,
            found: 0
        }
    );
    assert_eq!(
        with(38, 0x61),
        ParseError::UnexpectedValue {
            field: "response RequestResponseCode",
            offset: 38,
            found: 0x61
        }
    );
    assert_eq!(
        with(41, 0),
        ParseError::UnexpectedValue {
            field: "NumberOfBlocks",
            offset: 41,
            found: 0
        }
    );
    assert_eq!(
        with(41, 30),
        ParseError::BlockCount {
            declared: 30,
            found: 31
        }
    );
    // Block 2 (offset 45 + 55) claims index 1 again.
    assert_eq!(
        with(100, 1),
        ParseError::DuplicateBlockIndex {
            index: 1,
            offset: 100
        }
    );
    assert_eq!(with(101, 2).code_name(), "ERR_EVIDENCE_UNEXPECTED_VALUE");
    // MeasurementSize of block 1 off by one.
    assert_eq!(with(47, 52), ParseError::BlockLayout { offset: 45 });
    // The first opaque entry's length runs past the area.
    let opaque_start = 45 + 1705 + 32 + 2;
    assert_eq!(
        with(opaque_start + 3, 0xff),
        ParseError::OpaqueLayout {
            offset: opaque_start
        }
    );
}

trait CodeName {
    fn code_name(&self) -> &'static str;
}
impl CodeName for ParseError {
    fn code_name(&self) -> &'static str {
        edgeattest::ErrorCode::code(self)
    }
}

#[test]
fn opaque_values_of_the_wrong_size_are_errors() {
    let good =
        hex::decode(read("evidence/hopper/nvat_hopper_580.159.03_report.hex").trim()).unwrap();
    let t = Transcript::parse(&good).unwrap();
    let fwid = t.response.opaque.get(tag::FWID).unwrap().offset;
    // Retag the FWID entry as VBIOS_VERSION (48 bytes instead of 8): a typed value error.
    let mut b = good.clone();
    b[fwid] = 6;
    let t = Transcript::parse(&b).unwrap();
    let first_vbios = t.response.opaque.get(tag::VBIOS_VERSION).unwrap().offset;
    assert!(first_vbios < fwid);
    // Only the first entry per tag is read, so make the first VBIOS entry bad instead.
    let mut b = good;
    b[first_vbios + 2] = 7; // length 8 → 7, the next entry is misaligned
    assert!(Transcript::parse(&b).is_err());
}

proptest::proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..600)) {
        let _ = Transcript::parse(&bytes);
    }

    #[test]
    fn mutated_evidence_never_panics(offset in 0usize..2168, value in proptest::num::u8::ANY) {
        let mut bytes = hex::decode(read("evidence/switch/nvat_ls10_96.10.55.00.01_report.hex").trim()).unwrap();
        bytes[offset] = value;
        if let Ok(t) = Transcript::parse(&bytes) {
            let _ = t.response.opaque.validate(DeviceKind::Switch);
            let _ = t.response.opaque.validate(DeviceKind::Gpu);
        }
    }
}

#[test]
fn status_bytes_and_small_fields() {
    use edgeattest::evidence::EnableStatus;
    let t = transcript("evidence/hopper/nvat_hopper_580.159.03_report.hex");
    let opaque = &t.response.opaque;
    assert_eq!(
        opaque.enable_status(tag::NVDEC0_STATUS).unwrap(),
        Some(EnableStatus::Disabled)
    );
    assert_eq!(
        opaque.enable_status(tag::PROTECTED_PCIE_STATUS).unwrap(),
        Some(EnableStatus::Disabled)
    );
    assert_eq!(opaque.board_id().unwrap(), Some(0x04a1));
    assert_eq!(opaque.u16_field(tag::PROJECT_SKU_MOD).unwrap(), Some(0));
    let switch = transcript("evidence/switch/nvat_ls10_96.10.55.00.01_report.hex");
    assert_eq!(
        switch.response.opaque.u16_field(tag::POSITION_ID).unwrap(),
        Some(2)
    );
    assert_eq!(
        switch.response.opaque.u16_field(tag::LOCK_STATUS).unwrap(),
        Some(1)
    );
    // An NVDEC0 value other than 0xAA/0x55 is refused.
    let mut bytes =
        hex::decode(read("evidence/hopper/nvat_hopper_580.159.03_report.hex").trim()).unwrap();
    let at = opaque.get(tag::NVDEC0_STATUS).unwrap().offset + 4;
    bytes[at] = 0x01;
    let t = Transcript::parse(&bytes).unwrap();
    let err = t.response.opaque.validate(DeviceKind::Gpu).unwrap_err();
    assert_eq!(
        err,
        ParseError::OpaqueValue {
            tag: tag::NVDEC0_STATUS,
            offset: at - 4
        }
    );
}
