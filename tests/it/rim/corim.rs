//! CoRIM reference values compared by the XML RIMs' engine: NVIDIA's real Blackwell FSP
//! CoRIM against the FSP evidence, and CoRIMs derived from XML RIM fixtures giving exactly
//! the XML RIM's comparison on the same evidence (no device has both a published XML RIM and
//! a published CoRIM, so the pair is made here: same records, `mkey` = RIM index + 1).
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::Path;

use base64::Engine;
use edgeattest::attest::DeviceKind;
use edgeattest::cbor::Cbor;
use edgeattest::evidence::Transcript;
use edgeattest::rim::{
    compare_gpu_firmware, compare_switch, open_envelope, parse_corim, prepare_rim, verify_rim,
    CorimError, RimDocument, RimError, RimTrust, RuntimeEvidence,
};
use edgeattest::{ErrorCode, UnixTime};
use sha2::Digest;

pub(super) const NOW: UnixTime = UnixTime::from_secs(1_700_000_000).unwrap();

pub(super) fn fixture_bytes(rel: &str) -> Vec<u8> {
    fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(rel),
    )
    .unwrap()
}

fn text(rel: &str) -> String {
    String::from_utf8(fixture_bytes(rel)).unwrap()
}

/// The crate's transcript parser's values of a report fixture.
pub(super) fn evidence(rel: &str, hwmodel: Option<&str>, hint: Option<&str>) -> RuntimeEvidence {
    let bytes = hex::decode(text(&format!("nvidia/evidence/{rel}")).trim()).unwrap();
    let transcript = Transcript::parse(&bytes).unwrap();
    RuntimeEvidence::from_transcript(
        &transcript,
        DeviceKind::Gpu,
        hwmodel.map(String::from),
        hint.map(String::from),
    )
}

pub(super) fn xml_rim(rel: &str) -> RimDocument {
    verify_rim(
        &fixture_bytes(&format!("nvidia/rims/{rel}")),
        &RimTrust::nvidia(),
        NOW,
    )
    .unwrap()
    .document()
    .clone()
}

pub(super) fn map(entries: Vec<(i64, Cbor)>) -> Cbor {
    Cbor::Map(
        entries
            .into_iter()
            .map(|(k, v)| (Cbor::int(k), v))
            .collect(),
    )
}

fn tag(n: u64, item: Cbor) -> Cbor {
    Cbor::Tag(n, Box::new(item))
}

/// One reference measurement as NVIDIA writes them: a 48-byte value as a SHA-384 digest,
/// anything else as an exact raw value.
pub(super) fn measurement(mkey: u32, value: &[u8]) -> Cbor {
    let mval = if value.len() == 48 {
        map(vec![(
            2,
            Cbor::Array(vec![Cbor::Array(vec![Cbor::int(7), Cbor::bytes(value)])]),
        )])
    } else {
        map(vec![(4, tag(560, Cbor::bytes(value)))])
    };
    map(vec![(0, Cbor::int(i64::from(mkey))), (1, mval)])
}

/// An untagged `corim-map` holding one CoMID whose measured environment has `triples`.
pub(super) fn corim_map(model: &str, triples: Vec<Vec<Cbor>>) -> Cbor {
    let environment = map(vec![(
        0,
        map(vec![
            (1, Cbor::text("NVIDIA")),
            (2, Cbor::text(model)),
            (3, Cbor::int(1)),
        ]),
    )]);
    let triples = triples
        .into_iter()
        .map(|measurements| Cbor::Array(vec![environment.clone(), Cbor::Array(measurements)]))
        .collect();
    let comid = map(vec![
        (1, map(vec![(0, Cbor::text("derived-from-xml"))])),
        (4, map(vec![(0, Cbor::Array(triples))])),
    ]);
    map(vec![
        (0, Cbor::text("derived")),
        (1, Cbor::Array(vec![tag(506, Cbor::Bytes(comid.encode()))])),
    ])
}

/// The CoRIM of an XML RIM's active records: its version as a `version-map` measurement,
/// each record at `mkey` = index + 1, and one alternative environment per combination of
/// the records' alternatives (the first alternative of each record first).
pub(super) fn corim_from_xml(rim: &RimDocument) -> Cbor {
    let active: Vec<_> = rim.active_measurements().collect();
    let mut combos: Vec<Vec<usize>> = vec![vec![]];
    for record in &active {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                (0..record.alternatives.len()).map(move |a| {
                    let mut c = c.clone();
                    c.push(a);
                    c
                })
            })
            .collect();
    }
    let version = map(vec![(
        1,
        map(vec![(
            0,
            map(vec![(0, Cbor::text(&rim.meta.colloquial_version))]),
        )]),
    )]);
    let triples = combos
        .into_iter()
        .map(|combo| {
            let mut measurements = vec![version.clone()];
            for (record, alt) in active.iter().zip(combo) {
                measurements.push(measurement(record.index + 1, &record.alternatives[alt]));
            }
            measurements
        })
        .collect();
    corim_map(&rim.name, triples)
}

#[test]
fn nvidia_blackwell_fsp_corim_matches_the_fsp_evidence() {
    let bytes = fixture_bytes("nvidia/corim/blackwell_fsp_real.cbor");
    assert_eq!(
        hex::encode(sha2::Sha256::digest(&bytes)),
        "4d2179608514b198ea70cf1bfab4d837fbf2e165d08bc6dffffac22e47f116f1"
    );
    let corim = parse_corim(&bytes).unwrap();
    assert_eq!(corim.id(), "blackwell-fsp-real-evidence");
    assert_eq!(
        corim.tag_ids(),
        ["10de294110de2046-000005f1-97.00.F3.00.07"]
    );
    assert_eq!(corim.alternatives().len(), 1);
    let document = corim.document();
    assert_eq!(
        document.meta.platform_model.as_deref(),
        Some("GB100 A01 FSP")
    );
    let mkeys: Vec<u32> = document.measurements.iter().map(|m| m.index + 1).collect();
    assert_eq!(mkeys, [1, 3, 4, 5, 6, 7, 8, 11, 12, 13, 18, 51, 52]);

    let ev = evidence(
        "blackwell/nvat_blackwell_fsp_DERIVED_report.hex",
        Some("GB100"),
        Some("01.00.00.00.01"),
    );
    let result = corim.compare(|doc| compare_gpu_firmware(doc, &ev)).unwrap();
    assert!(result.measurements_match, "{:?}", result.mismatches);
    assert_eq!(result.compared, 13);
    // The CoRIM states no version: its check fails (the RIM id names the version).
    assert_eq!(result.firmware_version.rim_version, "");
    assert!(!result.all_match());

    // Layer 0: the FWID of the FSP leaf certificate, exact SVN 3.
    let [dice] = corim.dice() else {
        panic!("one DICE reference")
    };
    assert_eq!((dice.svn, dice.min_svn), (Some(3), false));
    assert_eq!(dice.model.as_deref(), Some("GB100 A01 FSP"));
    let pem = text("nvidia/evidence/blackwell/nvat_blackwell_fsp_DERIVED_certchain.pem");
    let leaf = edgeattest::chain::parse_pem_chain(&pem).unwrap().remove(0);
    assert!(leaf.windows(48).any(|w| w == dice.digests[0].as_slice()));

    // One changed reference value: exactly that block mismatches.
    let mut changed = bytes.clone();
    let at = changed
        .windows(4)
        .position(|w| w == hex::decode("832c6129").unwrap())
        .unwrap();
    changed[at] ^= 0xff;
    let result = parse_corim(&changed)
        .unwrap()
        .compare(|doc| compare_gpu_firmware(doc, &ev))
        .unwrap();
    assert_eq!(result.mismatch_indexes(), [2]);
    assert_eq!(result.mismatches[0].golden_value[..8], *"7c2c6129");
}

#[test]
fn a_corim_made_from_an_xml_rim_compares_exactly_as_the_xml_rim() {
    for (rim, report, mismatches) in [
        (
            "nvtrust/1010_0200_882_96005E0001_PROD.swidtag",
            "hopper/nvat_hopper_535.86.09_report.hex",
            vec![],
        ),
        (
            "nvtrust/1010_0205_862_9600740020_PROD.swidtag",
            "hopper/nvat_hopper_580.159.03_report.hex",
            vec![9],
        ),
        // Another firmware version's RIM: many mismatches, and the version differs.
        (
            "nvtrust/1010_0205_862_9600740020_PROD.swidtag",
            "hopper/nvat_hopper_535.86.09_report.hex",
            vec![],
        ),
    ] {
        let xml = xml_rim(rim);
        let ev = evidence(report, None, None);
        let expected = compare_switch(&xml, &ev).unwrap();
        let corim = parse_corim(&corim_from_xml(&xml).encode()).unwrap();
        // One alternative environment per combination of the records' alternatives.
        let combinations: usize = xml
            .active_measurements()
            .map(|m| m.alternatives.len())
            .product();
        assert!(combinations > 1, "{rim}: has a multi-alternative record");
        assert_eq!(corim.alternatives().len(), combinations, "{rim}");
        let actual = corim.compare(|doc| compare_switch(doc, &ev)).unwrap();
        assert_eq!(actual, expected, "{rim} on {report}");
        if !mismatches.is_empty() {
            assert_eq!(actual.mismatch_indexes(), mismatches);
        }
        assert_eq!(actual.compared, expected.compared);
    }
}

#[test]
fn a_multi_alternative_record_matches_through_either_alternative() {
    let xml = xml_rim("nvtrust/1010_0200_882_96005E0001_PROD.swidtag");
    let multi = xml
        .active_measurements()
        .find(|m| m.alternatives.len() > 1)
        .unwrap();
    let corim = parse_corim(&corim_from_xml(&xml).encode()).unwrap();
    for (alt, value) in multi.alternatives.iter().enumerate() {
        let mut ev = evidence("hopper/nvat_hopper_535.86.09_report.hex", None, None);
        ev.measurements
            .insert(u8::try_from(multi.index + 1).unwrap(), value.clone());
        let expected = compare_switch(&xml, &ev).unwrap();
        let actual = corim.compare(|doc| compare_switch(doc, &ev)).unwrap();
        assert!(actual.measurements_match, "alternative {alt}");
        assert_eq!(actual, expected);
    }
}

#[test]
fn a_rim_service_corim_envelope_is_read() {
    // NVIDIA's RIM service answer for a CX7 NIC CoRIM: now read as a CoRIM, and refused for
    // its dependent RIM (the signer certificate named by URL), as NVIDIA's verifier does.
    let body = fixture_bytes("nvidia/rim-service/rim_cx7_28.39.4082-LTS_MCX713104AC-ADA.json");
    let envelope =
        open_envelope(&body, "NV_NIC_FIRMWARE_CX7_28.39.4082-LTS_MCX713104AC-ADA").unwrap();
    assert!(envelope.is_corim());
    assert_eq!(envelope.coev, None);
    let error = prepare_rim(&envelope.rim, &RimTrust::nvidia_corim(), NOW).unwrap_err();
    assert_eq!(
        error,
        RimError::Corim(CorimError::Unsupported {
            what: "dependent RIMs"
        })
    );
    assert_eq!(error.code(), "ERR_CORIM_UNSUPPORTED");

    // A CoRIM envelope with its CoEV: both digests checked, the CoEV kept.
    let corim = fixture_bytes("nvidia/corim/blackwell_fsp_real.cbor");
    let coev = [0xd9, 0x02, 0x3a, 0xa0];
    let b64 = base64::engine::general_purpose::STANDARD;
    let sha = |b: &[u8]| hex::encode(sha2::Sha256::digest(b));
    let body = |coev_sha: String| {
        serde_json::json!({
            "id": "NV_GPU_VBIOS_GB100_065C_0100000001",
            "rim": b64.encode(&corim),
            "sha256": sha(&corim),
            "rim_format": "CORIM",
            "coev": b64.encode(coev),
            "coev_sha256": coev_sha,
        })
        .to_string()
    };
    let envelope = open_envelope(
        body(sha(&coev)).as_bytes(),
        "NV_GPU_VBIOS_GB100_065C_0100000001",
    )
    .unwrap();
    assert!(envelope.is_corim());
    assert_eq!(envelope.coev.as_deref(), Some(coev.as_slice()));
    assert_eq!(
        parse_corim(&envelope.rim)
            .unwrap()
            .document()
            .measurements
            .len(),
        13
    );
    let wrong = open_envelope(
        body(sha(b"x")).as_bytes(),
        "NV_GPU_VBIOS_GB100_065C_0100000001",
    );
    assert_eq!(
        wrong.unwrap_err().code(),
        "ERR_RIM_ENVELOPE_SHA256_MISMATCH"
    );
    // An unsigned CoRIM is not accepted where a signed one is required.
    assert_eq!(
        prepare_rim(&corim, &RimTrust::nvidia_corim(), NOW).unwrap_err(),
        RimError::Corim(CorimError::NotSigned)
    );
}

#[test]
fn a_raw_corim_answer_is_its_own_envelope() {
    // The RIM service's `application/rim+cbor` / `+cose` answers carry the CoRIM itself.
    let corim = fixture_bytes("nvidia/corim/blackwell_fsp_real.cbor");
    let envelope = open_envelope(&corim, "NV_GPU_VBIOS_GB100_065C_0100000001").unwrap();
    assert_eq!(envelope.id, "NV_GPU_VBIOS_GB100_065C_0100000001");
    assert_eq!(envelope.rim_format.as_deref(), Some("CORIM"));
    assert!(envelope.is_corim());
    assert_eq!(envelope.rim, corim);
    // Other bytes are still read as the JSON envelope.
    assert_eq!(
        open_envelope(&[0xa0], "x").unwrap_err().code(),
        "ERR_RIM_ENVELOPE_JSON"
    );
}

#[test]
fn the_fetch_step_asks_for_corims_when_configured() {
    use edgeattest::rim::RimFormats;
    assert_eq!(RimFormats::default(), RimFormats::Xml);
    assert_eq!(RimFormats::Xml.accept(), "application/json");
    let preferred = RimFormats::CorimPreferred.accept();
    assert!(preferred.starts_with("application/rim+cose"));
    assert_eq!(RimFormats::of_accept(preferred), RimFormats::CorimPreferred);
    assert_eq!(RimFormats::of_accept("text/html"), RimFormats::Xml);
    let options: edgeattest::service::ServiceOptions =
        serde_json::from_str(r#"{"rimFormats": "corim-preferred"}"#).unwrap();
    assert_eq!(options.rim_formats, Some(RimFormats::CorimPreferred));
    assert!(serde_json::from_str::<edgeattest::service::ServiceOptions>(
        r#"{"rimFormats": "corim"}"#
    )
    .is_err());
}
