use alloc::vec;
use alloc::vec::Vec;

use super::{decode, Cbor, CborError, CborLimits};
use crate::error_code::ErrorCode;

fn read(hex_text: &str) -> Result<Cbor, CborError> {
    decode(&hex::decode(hex_text).unwrap(), CborLimits::DEFAULT)
}

/// RFC 8949 Appendix A: each example read, and written back byte for byte (every one of
/// these is already in the deterministic form).
#[test]
fn rfc8949_examples_read_and_write_back() {
    let examples: &[(&str, Cbor)] = &[
        ("00", Cbor::Uint(0)),
        ("17", Cbor::Uint(23)),
        ("1818", Cbor::Uint(24)),
        ("1903e8", Cbor::Uint(1000)),
        ("1a000f4240", Cbor::Uint(1_000_000)),
        ("1b000000e8d4a51000", Cbor::Uint(1_000_000_000_000)),
        ("1bffffffffffffffff", Cbor::Uint(u64::MAX)),
        ("3bffffffffffffffff", Cbor::Neg(u64::MAX)),
        ("20", Cbor::int(-1)),
        ("3863", Cbor::int(-100)),
        ("3903e7", Cbor::int(-1000)),
        ("f4", Cbor::Bool(false)),
        ("f5", Cbor::Bool(true)),
        ("f6", Cbor::Null),
        ("f7", Cbor::Undefined),
        ("f0", Cbor::Simple(16)),
        ("f8ff", Cbor::Simple(255)),
        ("40", Cbor::bytes(&[])),
        ("4401020304", Cbor::bytes(&[1, 2, 3, 4])),
        ("60", Cbor::text("")),
        ("6449455446", Cbor::text("IETF")),
        ("62c3bc", Cbor::text("\u{fc}")),
        ("80", Cbor::Array(vec![])),
        (
            "8301820203820405",
            Cbor::Array(vec![
                Cbor::Uint(1),
                Cbor::Array(vec![Cbor::Uint(2), Cbor::Uint(3)]),
                Cbor::Array(vec![Cbor::Uint(4), Cbor::Uint(5)]),
            ]),
        ),
        ("a0", Cbor::Map(vec![])),
        (
            "a201020304",
            Cbor::Map(vec![
                (Cbor::Uint(1), Cbor::Uint(2)),
                (Cbor::Uint(3), Cbor::Uint(4)),
            ]),
        ),
        (
            "c074323031332d30332d32315432303a30343a30305a",
            Cbor::Tag(
                0,
                alloc::boxed::Box::new(Cbor::text("2013-03-21T20:04:00Z")),
            ),
        ),
    ];
    for (hex_text, expected) in examples {
        let item = read(hex_text).unwrap_or_else(|e| panic!("{hex_text}: {e}"));
        assert_eq!(&item, expected, "{hex_text}");
        assert_eq!(
            hex::encode(item.encode()),
            *hex_text,
            "{hex_text} written back"
        );
    }
}

#[test]
fn floats_of_every_width_are_read() {
    assert_eq!(read("f93c00").unwrap(), Cbor::Float(1.0));
    assert_eq!(read("fa47c35000").unwrap(), Cbor::Float(100000.0));
    assert_eq!(read("fb3ff199999999999a").unwrap(), Cbor::Float(1.1));
}

/// Indefinite lengths (RFC 8949 Appendix A), as Veraison's EAR writer emits them, read into
/// the same tree as their definite forms; written back definite.
#[test]
fn indefinite_lengths_read_as_their_definite_forms() {
    let pairs = [
        ("5f42010243030405ff", "450102030405"),
        ("7f657374726561646d696e67ff", "6973747265616d696e67"),
        ("9fff", "80"),
        ("9f018202039f0405ffff", "8301820203820405"),
        ("bf61610161629f0203ffff", "a26161016162820203"),
        ("826161bf61626163ff", "826161a161626163"),
    ];
    for (indefinite, definite) in pairs {
        let item = read(indefinite).unwrap_or_else(|e| panic!("{indefinite}: {e}"));
        assert_eq!(item, read(definite).unwrap(), "{indefinite}");
        assert_eq!(hex::encode(item.encode()), definite);
    }
}

#[test]
fn maps_are_written_with_keys_in_encoded_order() {
    // Shorter encodings first, then bytewise: 10 < -1 < "z" < "aa".
    let map = Cbor::Map(vec![
        (Cbor::text("aa"), Cbor::Uint(1)),
        (Cbor::text("z"), Cbor::Uint(2)),
        (Cbor::int(-1), Cbor::Uint(3)),
        (Cbor::Uint(10), Cbor::Uint(4)),
    ]);
    assert_eq!(hex::encode(map.encode()), "a40a042003617a0262616101");
}

#[test]
fn accessors_find_what_a_document_holds() {
    // {1: -35, 4: h'6b6964', "x": [1, "a"], 33: 18(h'00')}
    let item = read("a401382204436b69646178820161611821d24100").unwrap();
    assert_eq!(item.get_int(1).and_then(Cbor::as_i64), Some(-35));
    assert_eq!(item.get_int(4).and_then(Cbor::as_bytes), Some(&b"kid"[..]));
    let x = item.get_text("x").and_then(Cbor::as_array).unwrap();
    assert_eq!((x[0].as_u64(), x[1].as_text()), (Some(1), Some("a")));
    assert_eq!(
        item.get_int(33).and_then(|v| v.untag(18)),
        Some(&Cbor::bytes(&[0]))
    );
    assert_eq!(item.get_int(33).and_then(|v| v.untag(17)), None);
    assert_eq!(item.get_int(2), None);
    assert_eq!(Cbor::Uint(1).get_int(1), None);
    assert_eq!(Cbor::Neg(u64::MAX).as_i64(), None);
    assert_eq!(Cbor::int(i64::MIN).as_i64(), Some(i64::MIN));
}

#[test]
fn malformed_documents_are_refused_with_their_offset() {
    let cases = [
        ("", 0),             // nothing
        ("18", 0),           // argument missing
        ("62c3", 0),         // text shorter than declared
        ("62c328", 0),       // not UTF-8
        ("ff", 0),           // break outside an indefinite item
        ("820102ff", 3),     // break after a definite array (trailing, below)
        ("1c", 0),           // reserved additional information
        ("5f6161ff", 1),     // a text chunk in an indefinite byte string
        ("5f5f4101ffff", 1), // nested indefinite strings
        ("bf01ff", 2),       // indefinite map closed after a key
        ("a1010203", 3),     // trailing (below)
        ("8301", 2),         // array shorter than declared
    ];
    for (hex_text, offset) in cases {
        let err = read(hex_text).unwrap_err();
        match err {
            CborError::Malformed { offset: at } => assert_eq!(at, offset, "{hex_text}"),
            CborError::TrailingBytes { offset: at } => assert_eq!(at, offset, "{hex_text}"),
            other => panic!("{hex_text}: {other:?}"),
        }
    }
    assert_eq!(
        read("a1010203").unwrap_err().code(),
        "ERR_CBOR_TRAILING_BYTES"
    );
    assert_eq!(read("62c328").unwrap_err().code(), "ERR_CBOR_MALFORMED");
}

#[test]
fn duplicate_keys_are_refused_in_every_form() {
    for hex_text in [
        "a2010201 03",
        "bf6161016161 02ff",
        "a2 4101 00 5f4101ff 01",
        "a2 8101 00 9f01ff 00",
    ] {
        let err = read(&hex_text.replace(' ', "")).unwrap_err();
        assert_eq!(err, CborError::DuplicateKey, "{hex_text}");
        assert_eq!(err.code(), "ERR_CBOR_DUPLICATE_KEY");
    }
    // Equal values of different types are different keys.
    assert!(read("a30100613100410101").is_ok());
}

#[test]
fn depth_and_item_budgets_hold() {
    let limits = CborLimits {
        max_depth: 3,
        max_items: 10,
    };
    assert!(decode(&hex::decode("818181 01".replace(' ', "")).unwrap(), limits).is_ok());
    let deep = decode(
        &hex::decode("81818181 01".replace(' ', "")).unwrap(),
        limits,
    );
    assert_eq!(deep.unwrap_err(), CborError::TooDeep { limit: 3 });
    // Tags nest as containers do.
    let tags = decode(&hex::decode("c1c1c1c101").unwrap(), limits);
    assert_eq!(tags.unwrap_err().code(), "ERR_CBOR_TOO_DEEP");
    let many = decode(&hex::decode("8a0102030405060708090a").unwrap(), limits);
    assert_eq!(many.unwrap_err(), CborError::TooManyItems { limit: 10 });
    // A declared length of 2^64 - 1 costs only what the input holds.
    let huge = hex::decode("9bffffffffffffffff01").unwrap();
    assert!(matches!(
        decode(&huge, CborLimits::DEFAULT),
        Err(CborError::Malformed { .. })
    ));
    // An unbounded indefinite array stops at the item budget.
    let mut endless = vec![0x9f];
    endless.extend(core::iter::repeat_n(0u8, 70_000));
    assert!(matches!(
        decode(&endless, CborLimits::DEFAULT),
        Err(CborError::TooManyItems { limit: 65_536 })
    ));
}

/// The duplicate check is sorted, not pairwise: a map of 30,000 distinct keys reads in the
/// time of its size (pairwise comparison would be 450 million key comparisons).
#[test]
fn a_large_map_with_distinct_keys_is_read() {
    let entries: Vec<(Cbor, Cbor)> = (0..30_000u64)
        .map(|n| (Cbor::Uint(n), Cbor::Null))
        .collect();
    let bytes = Cbor::Map(entries).encode();
    let item = decode(&bytes, CborLimits::DEFAULT).unwrap();
    assert_eq!(item.as_map().map(<[_]>::len), Some(30_000));
}
