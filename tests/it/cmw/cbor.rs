//! CBOR CMWs: the draft's examples (records with a Content-Format or a media type, tags,
//! collections with int labels), Veraison's test data, NVIDIA's CMW re-encoded as CBOR read
//! into the same device as its JSON, and the malformed shapes refused with their codes.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::cbor::Cbor;
use edgeattest::cmw::{
    tag_of_content_format, Cmw, CmwEvidence, CmwForm, CmwLimits, Collection, Label, MediaType,
    Record,
};
use edgeattest::ErrorCode;
use serde_json::json;

use super::support::{fsp_cmw, fsp_cmw_text, to_cbor};

fn decode(bytes: &[u8]) -> Result<Cmw, String> {
    Cmw::decode(bytes, CmwLimits::DEFAULT)
        .map(|(cmw, form)| {
            assert_eq!(form, CmwForm::Cbor);
            cmw
        })
        .map_err(|e| e.code().to_string())
}

fn record(media_type: MediaType, value: &[u8], ind: Option<u64>) -> Cmw {
    Cmw::Record(Record {
        media_type,
        value: value.to_vec(),
        ind,
    })
}

fn text(media_type: &str) -> MediaType {
    MediaType::Text(media_type.into())
}

fn vector(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/vectors/cmw/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const EXAMPLE: [u8; 4] = [0x23, 0x47, 0xda, 0x55];

#[test]
fn the_drafts_cbor_examples_read_as_written() {
    // cddl/cmw-example-1.diag: [64999, h'2347da55'] — a Content-Format type.
    let one = Cbor::Array(vec![Cbor::Uint(64_999), Cbor::bytes(&EXAMPLE)]).encode();
    assert_eq!(one, hex::decode("8219fde7442347da55").unwrap());
    assert_eq!(
        decode(&one),
        Ok(record(MediaType::ContentFormat(64_999), &EXAMPLE, None))
    );
    // cddl/cmw-example-2.diag: a media type.
    let two = Cbor::Array(vec![
        Cbor::text("application/vnd.example.rats-conceptual-msg"),
        Cbor::bytes(&EXAMPLE),
    ]);
    assert_eq!(
        decode(&two.encode()),
        Ok(record(
            text("application/vnd.example.rats-conceptual-msg"),
            &EXAMPLE,
            None
        ))
    );
    // cddl/cmw-example-3.diag: ind 3 (reference values and endorsements).
    let corim = hex::decode("d28440a044d901f5a040").unwrap();
    let three = Cbor::Array(vec![
        Cbor::text("application/rim+cose"),
        Cbor::bytes(&corim),
        Cbor::Uint(3),
    ]);
    assert_eq!(
        decode(&three.encode()),
        Ok(record(text("application/rim+cose"), &corim, Some(3)))
    );
    // cddl/cmw-example-tag-1.diag: 1668612070(h'2347da55'), a Tag CMW of Content-Format 64999.
    let tag = Cbor::Tag(1_668_612_070, Box::new(Cbor::bytes(&EXAMPLE))).encode();
    assert_eq!(tag[0], 0xda);
    assert_eq!(
        decode(&tag),
        Ok(record(MediaType::ContentFormat(64_999), &EXAMPLE, None))
    );
    // cddl/cmw-example-tag-2.diag: 1668612069(<< {10: h'a7c76d8424a96fb4'} >>).
    let inner = Cbor::Map(vec![(
        Cbor::Uint(10),
        Cbor::bytes(&hex::decode("a7c76d8424a96fb4").unwrap()),
    )])
    .encode();
    let tag2 = Cbor::Tag(1_668_612_069, Box::new(Cbor::Bytes(inner.clone()))).encode();
    assert_eq!(
        decode(&tag2),
        Ok(record(MediaType::ContentFormat(64_998), &inner, None))
    );
    // cddl/collection-example-1.diag: int labels, a tag inside, ind 4 and 8.
    let collection = Cbor::Map(vec![
        (
            Cbor::text("__cmwc_t"),
            Cbor::text("tag:example.com,2024:composite-attester"),
        ),
        (
            Cbor::Uint(0),
            Cbor::Array(vec![
                Cbor::Uint(64_999),
                Cbor::bytes(&EXAMPLE),
                Cbor::Uint(4),
            ]),
        ),
        (
            Cbor::Uint(1),
            Cbor::Tag(1_668_612_070, Box::new(Cbor::bytes(&EXAMPLE))),
        ),
        (
            Cbor::Uint(2),
            Cbor::Array(vec![
                Cbor::text("application/eat+jwt"),
                Cbor::bytes(&hex::decode("4c693475").unwrap()),
                Cbor::Uint(8),
            ]),
        ),
    ]);
    let Ok(Cmw::Collection(read)) = decode(&collection.encode()) else {
        panic!("collection-example-1")
    };
    assert_eq!(
        read.collection_type.as_deref(),
        Some("tag:example.com,2024:composite-attester")
    );
    let labels: Vec<_> = read
        .entries
        .iter()
        .map(|(label, _)| label.clone())
        .collect();
    assert_eq!(labels, [Label::Int(0), Label::Int(1), Label::Int(2)]);
    assert_eq!(
        read.entries[0].1,
        record(MediaType::ContentFormat(64_999), &EXAMPLE, Some(4))
    );
}

#[test]
fn veraisons_test_data_reads_as_its_diagnostic_notation_says() {
    let Ok(Cmw::Collection(ok)) = decode(&vector("veraison-collection-cbor-ok.cbor")) else {
        panic!("collection-cbor-ok")
    };
    assert_eq!(
        ok,
        Collection {
            collection_type: None,
            entries: vec![
                (
                    Label::Int(1),
                    record(
                        text("application/signed-corim+cbor"),
                        &hex::decode("d28443a10126a1").unwrap(),
                        Some(3)
                    )
                ),
                // 1668576818 is TN_MIN + 30001: the Tag CMW of Content-Format 29884
                // (RFC 9277 App. B skips every 256th number), as Veraison's cf() reads it.
                (
                    Label::Int(2),
                    record(MediaType::ContentFormat(29_884), &EXAMPLE, None)
                ),
                (
                    Label::Text("s".into()),
                    record(MediaType::ContentFormat(30_001), &EXAMPLE, None)
                ),
            ],
        }
    );
    assert_eq!(tag_of_content_format(29_884), Some(1_668_576_818));
    let Ok(Cmw::Collection(two)) = decode(&vector("veraison-collection-cbor-ok-2.cbor")) else {
        panic!("collection-cbor-ok-2")
    };
    assert_eq!(
        two.entries,
        [(
            Label::Int(1),
            record(text("application/vnd.1"), &[0xde, 0xad, 0xbe, 0xef], None)
        )]
    );
    let Ok(Cmw::Collection(mixed)) = decode(&vector("veraison-collection-cbor-mixed-keys.cbor"))
    else {
        panic!("collection-cbor-mixed-keys")
    };
    assert_eq!(
        mixed.entries,
        [
            (
                Label::Text("string".into()),
                record(MediaType::ContentFormat(0), &[0xff], None)
            ),
            (
                Label::Int(1024),
                record(MediaType::ContentFormat(0), &[0xaa], None)
            ),
        ]
    );
    // And the JSON one.
    let (json, form) =
        Cmw::decode(&vector("veraison-collection-ok.json"), CmwLimits::DEFAULT).unwrap();
    assert_eq!(form, CmwForm::Json);
    assert!(matches!(json, Cmw::Collection(c) if c.entries.len() == 2));
}

#[test]
fn nvidias_cmw_as_cbor_reads_into_the_same_device_as_its_json() {
    let from_json = CmwEvidence::decode(fsp_cmw_text().as_bytes(), CmwLimits::DEFAULT).unwrap();
    let cbor = to_cbor(&fsp_cmw()).encode();
    assert_eq!(cbor[0] & 0xe0, 0xa0, "a CBOR map");
    let from_cbor = CmwEvidence::decode(&cbor, CmwLimits::DEFAULT).unwrap();
    assert_eq!(from_cbor.form, CmwForm::Cbor);
    assert_eq!(from_cbor.devices, from_json.devices);
    assert_eq!(from_cbor.nonce, from_json.nonce);
}

#[test]
fn malformed_cbor_is_refused_with_its_codes() {
    let good = Cbor::Array(vec![Cbor::text("application/vnd.a"), Cbor::bytes(&EXAMPLE)]).encode();
    let mut trailing = good.clone();
    trailing.push(0x00);
    let map = |entries: Vec<(Cbor, Cbor)>| Cbor::Map(entries).encode();
    let rec = || Cbor::Array(vec![Cbor::text("application/vnd.a"), Cbor::bytes(&EXAMPLE)]);
    // A map with the key 1 twice, written by hand: the writer never writes one.
    let mut duplicate = vec![0xa2];
    for _ in 0..2 {
        duplicate.push(0x01);
        duplicate.extend_from_slice(&rec().encode());
    }
    let mut deep = rec();
    for _ in 0..5 {
        deep = Cbor::Map(vec![(Cbor::text("n"), deep)]);
    }
    let mut abyss = rec();
    for _ in 0..40 {
        abyss = Cbor::Map(vec![(Cbor::Uint(0), abyss)]);
    }
    let wide = map((0..600).map(|i| (Cbor::Uint(i), rec())).collect());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("trailing bytes", trailing, "ERR_CMW_SYNTAX"),
        (
            "truncated",
            good[..good.len() - 1].to_vec(),
            "ERR_CMW_SYNTAX",
        ),
        ("an empty array starts no CMW", vec![0x80], "ERR_CMW_SYNTAX"),
        ("duplicate labels", duplicate, "ERR_CMW_DUPLICATE_LABEL"),
        ("five nested collections", deep.encode(), "ERR_CMW_TOO_DEEP"),
        (
            "deeper than the CBOR reader's bound",
            abyss.encode(),
            "ERR_CMW_TOO_DEEP",
        ),
        ("600 records", wide, "ERR_CMW_TOO_MANY_ITEMS"),
        (
            "an empty collection",
            vec![0xa0],
            "ERR_CMW_EMPTY_COLLECTION",
        ),
        (
            "a Content-Format over 16 bits",
            Cbor::Array(vec![Cbor::Uint(65_536), Cbor::bytes(&EXAMPLE)]).encode(),
            "ERR_CMW_MEDIA_TYPE",
        ),
        (
            "a negative type",
            Cbor::Array(vec![Cbor::int(-1), Cbor::bytes(&EXAMPLE)]).encode(),
            "ERR_CMW_MEDIA_TYPE",
        ),
        (
            "a text value",
            Cbor::Array(vec![Cbor::text("application/vnd.a"), Cbor::text("I0faVQ")]).encode(),
            "ERR_CMW_SHAPE",
        ),
        (
            "ind 0",
            Cbor::Array(vec![Cbor::Uint(1), Cbor::bytes(&EXAMPLE), Cbor::Uint(0)]).encode(),
            "ERR_CMW_INDICATOR",
        ),
        (
            "a tag outside the Tag CMW range",
            Cbor::Tag(1_668_546_816, Box::new(Cbor::bytes(&EXAMPLE))).encode(),
            "ERR_CMW_SHAPE",
        ),
        (
            "a Tag CMW over an array",
            Cbor::Tag(1_668_546_817, Box::new(Cbor::Array(vec![]))).encode(),
            "ERR_CMW_SHAPE",
        ),
        (
            "a float label",
            map(vec![(Cbor::Float(1.5), rec())]),
            "ERR_CMW_SHAPE",
        ),
        (
            "a collection type that is no URI",
            map(vec![
                (Cbor::text("__cmwc_t"), Cbor::text("gpu")),
                (Cbor::Uint(0), rec()),
            ]),
            "ERR_CMW_COLLECTION_TYPE",
        ),
    ];
    for (name, bytes, code) in cases {
        assert_eq!(decode(&bytes).map(|_| ()), Err(code.to_string()), "{name}");
    }
}

#[test]
fn nvidias_profile_holds_in_cbor_too() {
    // A non-GPU member (a Tag CMW) beside the GPU.
    let mut cmw = fsp_cmw();
    cmw["gpu_0"]["evidence"][0] = json!("application/eat+cwt");
    let error = CmwEvidence::decode(&to_cbor(&cmw).encode(), CmwLimits::DEFAULT).unwrap_err();
    assert_eq!(
        (error.code(), error.field()),
        ("ERR_CMW_PROFILE", Some("gpu_0.evidence"))
    );
    let Cbor::Map(mut entries) = to_cbor(&fsp_cmw()) else {
        panic!("a map")
    };
    entries.push((
        Cbor::Uint(7),
        Cbor::Tag(1_668_612_070, Box::new(Cbor::bytes(&EXAMPLE))),
    ));
    let error = CmwEvidence::decode(&Cbor::Map(entries).encode(), CmwLimits::DEFAULT).unwrap_err();
    assert_eq!(
        (error.code(), error.field()),
        ("ERR_CMW_PROFILE", Some("7"))
    );
}
