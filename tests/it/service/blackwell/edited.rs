//! Real transcripts edited and re-signed with the generated devices of
//! `tests/fixtures/generated/blackwell/` (leaf keys kept): the evidence's kind, not the tags it
//! carries, picks the RIMs; versioned opaque data (NVDAOD) with its minimum-SVN floor through
//! claims 4.0.

use serde_json::{json, Value};

use super::{
    attest, generated, gsp, manifest, request, service, Item, FSP_HINT, NOW, SIGNER_EXPIRY,
};
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::evidence::tag;
use edgeattest::service::Service;

/// The generated device root, as a deployment adds test devices (`trustAnchors`).
fn test_devices() -> TrustStore {
    TrustStore::from_pem(&String::from_utf8(generated("device_root.pem")).unwrap()).unwrap()
}

fn leaf_key(stem: &str) -> SigningKey {
    let pem = String::from_utf8(generated(&format!("{stem}_leaf_key.pem"))).unwrap();
    SigningKey::from_pkcs8_pem(&pem).unwrap()
}

fn chain(stem: &str) -> String {
    String::from_utf8(generated(&format!("{stem}_chain.pem"))).unwrap()
}

/// A transcript cut where its opaque area starts: everything before the opaque length, and
/// the opaque bytes (the signature dropped).
struct Parts {
    head: Vec<u8>,
    opaque: Vec<u8>,
}

fn split(transcript: &[u8]) -> Parts {
    let response = 37;
    let record_len = usize::from(transcript[response + 5])
        | usize::from(transcript[response + 6]) << 8
        | usize::from(transcript[response + 7]) << 16;
    let at = response + 8 + record_len + 32;
    let len = usize::from(u16::from_le_bytes([transcript[at], transcript[at + 1]]));
    Parts {
        head: transcript[..at].to_vec(),
        opaque: transcript[at + 2..at + 2 + len].to_vec(),
    }
}

/// The transcript again, signed with `key` as the device signs: everything before the
/// signature.
fn signed(parts: &Parts, key: &SigningKey) -> Vec<u8> {
    let mut out = parts.head.clone();
    out.extend_from_slice(&u16::try_from(parts.opaque.len()).unwrap().to_le_bytes());
    out.extend_from_slice(&parts.opaque);
    let signature = key.sign(&out);
    out.extend_from_slice(&signature);
    out
}

/// A legacy opaque entry: tag, length, value.
fn tlv(tag: u16, value: &[u8]) -> Vec<u8> {
    let mut out = tag.to_le_bytes().to_vec();
    out.extend_from_slice(&u16::try_from(value.len()).unwrap().to_le_bytes());
    out.extend_from_slice(value);
    out
}

/// The legacy opaque list without `drop`.
fn without(opaque: &[u8], drop: u16) -> Vec<u8> {
    let (mut kept, mut i) = (Vec::new(), 0);
    while i < opaque.len() {
        let len = usize::from(u16::from_le_bytes([opaque[i + 2], opaque[i + 3]]));
        if u16::from_le_bytes([opaque[i], opaque[i + 1]]) != drop {
            kept.extend_from_slice(&opaque[i..i + 4 + len]);
        }
        i += 4 + len;
    }
    assert!(kept.len() < opaque.len(), "tag {drop} not found");
    kept
}

/// Replaces the value of measurement block `index` (same length) in a transcript head.
fn set_block(head: &mut [u8], index: u8, value: &[u8]) {
    let mut i = 37 + 8;
    loop {
        let size = usize::from(u16::from_le_bytes([head[i + 2], head[i + 3]]));
        if head[i] == index {
            assert_eq!(size, 3 + value.len(), "block {index} keeps its size");
            head[i + 7..i + 4 + size].copy_from_slice(value);
            return;
        }
        i += 4 + size;
    }
}

fn gsp_rims() -> Service {
    let driver = manifest("blackwell_gsp", "driver");
    let vbios = manifest("blackwell_gsp", "vbios");
    service(
        test_devices(),
        &[
            (&driver, &format!("{driver}.xml")),
            (&vbios, &format!("{vbios}.xml")),
        ],
    )
}

#[test]
fn gsp_evidence_shaped_like_fsp_evidence_is_still_judged_as_gsp() {
    let key = leaf_key("blackwell_gsp");
    let real = split(&gsp().evidence);
    // Unedited, re-signed by the generated GSP device: passes with the GSP RIMs.
    let item = |evidence| Item {
        evidence,
        chain: chain("blackwell_gsp"),
        hint: Some(FSP_HINT),
    };
    let attested = attest(
        &gsp_rims(),
        "BLACKWELL",
        "3.0",
        &[item(signed(&real, &key))],
    );
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], true);

    // Without PROJECT and with an APSKU device identifier in block 52 — what the transcript
    // heuristic takes for FSP evidence — a GSP device still asks for no FSP RIM: its VBIOS
    // RIM cannot be named (5009), the hint is not used.
    let mut head = real.head.clone();
    let identifier = b"\x00\x01APSKU\x5c\x06";
    let mut block = vec![0u8; 48];
    block[..identifier.len()].copy_from_slice(identifier);
    set_block(&mut head, 52, &block);
    let edited = Parts {
        head,
        opaque: without(&real.opaque, tag::PROJECT),
    };
    let empty = service(test_devices(), &[]);
    let attested = attest(&empty, "BLACKWELL", "3.0", &[item(signed(&edited, &key))]);
    assert_eq!(attested.fetched, [manifest("blackwell_gsp", "driver")]);
    let gpu = &attested.devices[0];
    assert_eq!(gpu["x-nvidia-error-details"]["code"], 5009);
    assert_eq!(gpu["x-nvidia-gpu-vbios-rim-fetched"], false);
}

#[test]
fn fsp_evidence_carrying_gsp_tags_is_still_judged_as_fsp() {
    // The real FSP transcript has no opaque data; given PROJECT, SKUs and a VBIOS version of
    // another firmware, it is still named and version-checked by its APSKU and the hint.
    let fsp = split(&super::fsp(None).evidence);
    assert!(fsp.opaque.is_empty());
    let mut opaque = tlv(tag::PROJECT, b"G525\0");
    opaque.extend(tlv(tag::PROJECT_SKU, b"0220\0"));
    opaque.extend(tlv(tag::CHIP_SKU, b"886\0"));
    opaque.extend(tlv(
        tag::VBIOS_VERSION,
        &[0x00, 0x88, 0x00, 0x97, 0x0f, 0, 0, 0],
    ));
    let edited = Parts {
        head: fsp.head,
        opaque,
    };
    let id = manifest("blackwell_fsp", "vbios");
    let item = Item {
        evidence: signed(&edited, &leaf_key("blackwell_fsp")),
        chain: chain("blackwell_fsp"),
        hint: Some(FSP_HINT),
    };
    let empty = service(test_devices(), &[]);
    let request_items = [item];
    assert_eq!(
        attest(&empty, "BLACKWELL", "3.0", &request_items).fetched,
        std::slice::from_ref(&id)
    );
    let with_rim = service(test_devices(), &[(&id, &format!("{id}.xml"))]);
    let attested = attest(&with_rim, "BLACKWELL", "4.0", &request_items);
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], true);
    let gpu = &attested.devices[0];
    assert_eq!(gpu["x-nvidia-gpu-vbios-rim-version-match"], true);
    assert_eq!(gpu["x-nvidia-gpu-vbios-version"], FSP_HINT);
    assert_eq!(gpu["x-nvidia-gpu-driver-rim-fetched"], false);
}

/// The NVDAOD 620.12 transcript with its minimum SVN (opaque id 37, value type 0x87)
/// replaced by `svn`, signed by the generated device whose leaf carries its FWID.
fn nvdaod(svn: Option<u16>) -> Item {
    let real = hex::decode(
        String::from_utf8(super::fixture(
            "nvidia/evidence/hopper/nvat_nvdaod_620.12_transcript_NO_CHAIN.hex",
        ))
        .unwrap()
        .trim(),
    )
    .unwrap();
    let mut parts = split(&real);
    assert_eq!(&parts.opaque[..6], b"NVDAOD");
    if let Some(svn) = svn {
        // Versioned entries: id u16, value type u16, length u16, value.
        let mut i = 12;
        loop {
            let id = u16::from_le_bytes([parts.opaque[i], parts.opaque[i + 1]]);
            let len = usize::from(u16::from_le_bytes([
                parts.opaque[i + 4],
                parts.opaque[i + 5],
            ]));
            if id == tag::FSP_UCODE_MIN_SVN {
                assert_eq!((parts.opaque[i + 2], len), (0x87, 2));
                parts.opaque[i + 6..i + 8].copy_from_slice(&svn.to_le_bytes());
                break;
            }
            i += 6 + len;
        }
    }
    Item {
        evidence: signed(&parts, &leaf_key("nvdaod")),
        chain: chain("nvdaod"),
        hint: None,
    }
}

fn nvdaod_rims() -> Service {
    let driver = manifest("nvdaod", "driver");
    let vbios = manifest("nvdaod", "vbios");
    service(
        test_devices(),
        &[
            (&driver, &format!("{driver}.xml")),
            (&vbios, &format!("{vbios}.xml")),
        ],
    )
}

#[test]
fn versioned_opaque_data_passes_through_claims_4_0() {
    let empty = service(test_devices(), &[]);
    assert_eq!(
        attest(&empty, "HOPPER", "4.0", &[nvdaod(Some(5))]).fetched,
        [manifest("nvdaod", "driver"), manifest("nvdaod", "vbios")]
    );
    // The VBIOS RIM's floor for FSP_UCODE_MIN_SVN is 3, flagged for the result: a device at
    // SVN 5 passes and reports it.
    let attested = attest(&nvdaod_rims(), "HOPPER", "4.0", &[nvdaod(Some(5))]);
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], true);
    let gpu = &attested.devices[0];
    assert!(gpu.get("x-nvidia-error-details").is_none(), "{gpu:?}");
    for (claim, value) in [
        ("measres", json!("success")),
        ("x-nvidia-gpu-claims-version", json!("4.0")),
        ("x-nvidia-gpu-driver-version", json!("620.12")),
        ("x-nvidia-gpu-vbios-version", json!("96.00.D9.00.0F")),
        ("x-nvidia-gpu-driver-rim-version-match", json!(true)),
        ("x-nvidia-gpu-vbios-rim-version-match", json!(true)),
        (
            "x-nvidia-gpu-attestation-report-cert-chain-fwid-match",
            json!(true),
        ),
        ("x-nvidia-attester-claims", json!({"FSP_UCODE_MIN_SVN": 5})),
        ("x-nvidia-mismatch-opaque-data-records", Value::Null),
        ("x-nvidia-mismatch-measurement-records", Value::Null),
    ] {
        assert_eq!(gpu[claim], value, "{claim}");
    }
    assert_eq!(
        gpu["x-nvidia-gpu-vbios-rim-cert-chain"]["x-nvidia-cert-expiration-date"],
        SIGNER_EXPIRY
    );

    // The real transcript reports SVN 0: below the floor, every measurement matching.
    let attested = attest(&nvdaod_rims(), "HOPPER", "4.0", &[nvdaod(None)]);
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], false);
    let gpu = &attested.devices[0];
    assert_eq!(gpu["measres"], "fail");
    assert_eq!(gpu["secboot"], Value::Null);
    assert_eq!(gpu["x-nvidia-mismatch-measurement-records"], json!([]));
    assert_eq!(
        gpu["x-nvidia-mismatch-opaque-data-records"],
        json!([{
            "id": 37, "name": "FSP_UCODE_MIN_SVN", "goldenType": "MIN_SVN", "goldenValue": 3,
            "runtimeType": "MIN_SVN", "runtimeValue": 0,
        }])
    );
    assert_eq!(
        gpu["x-nvidia-attester-claims"],
        json!({"FSP_UCODE_MIN_SVN": 0})
    );

    // Claims 3.0 cannot report these records: the request is refused (4019) before any work.
    let response =
        nvdaod_rims().handle(&request("HOPPER", "3.0", &[nvdaod(Some(5))]), NOW, [1; 32]);
    assert_eq!(response.status, 400);
    let body: Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(body["errorCode"], 4019, "{body}");
}
