//! A signed CoRIM's validity period (`rim-validity`, corim-map key 4, and the signer's
//! `signature-validity` in the protected `corim-meta`, header 8), judged at the time the RIM
//! pipeline is given; a CoRIM that states none is limited only by its chain. The CoRIMs are
//! XML fixtures' measurements (and NVIDIA's real Blackwell FSP CoRIM) signed by the test PKI.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::cbor::Cbor;
use edgeattest::rim::{
    compare_gpu_firmware, parse_corim, prepare_rim, verify_rim, CorimError, RimError,
};
use edgeattest::ErrorCode;

use super::corim::{corim_from_xml, evidence, fixture_bytes, map, xml_rim, NOW};
use super::corim_signed::{content_type, sign, test_trust};

const SWITCH_RIM: &str = "nvtrust/1010_0200_882_96005E0001_PROD.swidtag";

fn now() -> i64 {
    i64::try_from(NOW.as_secs()).unwrap()
}

/// `#6.1(secs)`: epoch time.
fn epoch(secs: i64) -> Cbor {
    Cbor::Tag(1, Box::new(Cbor::int(secs)))
}

/// A `validity-map`.
fn validity(not_before: Option<i64>, not_after: i64) -> Cbor {
    let mut entries = Vec::new();
    if let Some(not_before) = not_before {
        entries.push((0, epoch(not_before)));
    }
    entries.push((1, epoch(not_after)));
    map(entries)
}

/// The switch RIM's CoRIM with `rim-validity` (key 4) set to `period` (none: absent), signed
/// with `protected` headers besides the content type.
fn signed(period: Option<Cbor>, protected: Vec<(i64, Cbor)>) -> Vec<u8> {
    let mut corim = corim_from_xml(&xml_rim(SWITCH_RIM));
    if let (Some(period), Cbor::Map(entries)) = (period, &mut corim) {
        entries.push((Cbor::int(4), period));
    }
    let mut headers = content_type();
    headers.extend(protected);
    sign(&corim.encode(), headers)
}

/// The protected `corim-meta` header: signer NVIDIA, `signature-validity` `period`.
fn meta(period: Cbor) -> Vec<(i64, Cbor)> {
    let signer = map(vec![(0, Cbor::text("NVIDIA"))]);
    vec![(8, Cbor::Bytes(map(vec![(0, signer), (1, period)]).encode()))]
}

#[test]
fn a_corim_is_used_only_inside_its_rim_validity() {
    // Inside, and on both bounds (inclusive).
    for (not_before, not_after) in [
        (Some(now() - 10), now() + 10),
        (None, now() + 10),
        (Some(now()), now()),
    ] {
        let bytes = signed(Some(validity(not_before, not_after)), vec![]);
        let verified = verify_rim(&bytes, &test_trust(), NOW).unwrap();
        assert!(verified.is_trusted(), "{not_before:?}..{not_after}");
    }
    // Expired: not-after one second before now.
    let expired = signed(Some(validity(Some(now() - 100), now() - 1)), vec![]);
    let error = verify_rim(&expired, &test_trust(), NOW).unwrap_err();
    assert_eq!(
        error,
        RimError::Corim(CorimError::Expired {
            not_after: now() - 1,
            now: NOW.as_secs()
        })
    );
    assert_eq!(error.code(), "ERR_CORIM_EXPIRED");
    // Not yet valid: not-before one second after now.
    let early = signed(Some(validity(Some(now() + 1), now() + 100)), vec![]);
    let error = verify_rim(&early, &test_trust(), NOW).unwrap_err();
    assert_eq!(
        error,
        RimError::Corim(CorimError::NotYetValid {
            not_before: now() + 1,
            now: NOW.as_secs()
        })
    );
    assert_eq!(error.code(), "ERR_CORIM_NOT_YET_VALID");
    // The same document is usable at a time inside its period.
    let later = edgeattest::UnixTime::from_secs(NOW.as_secs() + 50).unwrap();
    assert!(verify_rim(&early, &test_trust(), later).is_ok());
}

#[test]
fn the_period_is_judged_after_the_signature() {
    let expired = signed(Some(validity(None, now() - 1)), vec![]);
    // Prepared (the period is signed content), refused when finished with good verdicts.
    let pending = prepare_rim(&expired, &test_trust(), NOW).unwrap();
    let good = vec![true; pending.signature_checks().len()];
    assert_eq!(
        pending.clone().finish(&good).unwrap_err().code(),
        "ERR_CORIM_EXPIRED"
    );
    // A false signature verdict is reported as such, not as expiry.
    let mut bad = good;
    bad[0] = false;
    assert_eq!(
        pending.finish(&bad).unwrap_err(),
        RimError::SignatureInvalid
    );
}

#[test]
fn the_signers_signature_validity_also_limits_it() {
    // The corim-map's period holds, the signer's has ended: expired at the signer's bound.
    let bytes = signed(
        Some(validity(None, now() + 1000)),
        meta(validity(None, now() - 5)),
    );
    assert_eq!(
        verify_rim(&bytes, &test_trust(), NOW).unwrap_err(),
        RimError::Corim(CorimError::Expired {
            not_after: now() - 5,
            now: NOW.as_secs()
        })
    );
    // The signer's period alone, not begun.
    let bytes = signed(None, meta(validity(Some(now() + 7), now() + 1000)));
    assert_eq!(
        verify_rim(&bytes, &test_trust(), NOW).unwrap_err().code(),
        "ERR_CORIM_NOT_YET_VALID"
    );
    // Both hold: usable. A corim-meta without a period does not limit it.
    let bytes = signed(
        Some(validity(Some(now() - 1), now() + 1)),
        meta(validity(None, now() + 1)),
    );
    assert!(verify_rim(&bytes, &test_trust(), NOW).unwrap().is_trusted());
    let signer_only = vec![(
        8,
        Cbor::Bytes(map(vec![(0, map(vec![(0, Cbor::text("NVIDIA"))]))]).encode()),
    )];
    assert!(verify_rim(&signed(None, signer_only), &test_trust(), NOW).is_ok());
}

#[test]
fn a_malformed_period_is_refused_by_name() {
    for (period, problem) in [
        // An untagged integer: the draft's time is #6.1(int).
        (
            map(vec![(1, Cbor::int(now()))]),
            "validity bound is not #6.1(int) epoch time",
        ),
        // A floating-point time.
        (
            map(vec![(1, Cbor::Tag(1, Box::new(Cbor::Float(1.5e9))))]),
            "validity bound is not #6.1(int) epoch time",
        ),
        (map(vec![(0, epoch(now()))]), "validity has no not-after"),
        (
            map(vec![(1, epoch(now())), (2, epoch(now()))]),
            "validity has an unknown key",
        ),
        (Cbor::Array(vec![]), "validity is not a map"),
    ] {
        let error =
            verify_rim(&signed(Some(period.clone()), vec![]), &test_trust(), NOW).unwrap_err();
        assert_eq!(
            error,
            RimError::Corim(CorimError::Schema {
                field: "corim.4".into(),
                problem
            }),
            "{period:?}"
        );
    }
    // A corim-meta that is not a byte string holding a map.
    let error = verify_rim(
        &signed(None, vec![(8, Cbor::text("NVIDIA"))]),
        &test_trust(),
        NOW,
    )
    .unwrap_err();
    assert_eq!(error.field(), Some("corim-meta"));
}

#[test]
fn nvidias_blackwell_fsp_corim_states_no_period_and_verifies_now() {
    // NVIDIA's real CoRIM (unsigned as published), signed here: no validity, so only the
    // chain limits it; it verifies at the tests' time and still matches the FSP evidence.
    let bytes = fixture_bytes("nvidia/corim/blackwell_fsp_real.cbor");
    let signed = sign(&bytes, content_type());
    let verified = verify_rim(&signed, &test_trust(), NOW).unwrap();
    assert!(verified.is_trusted());
    let ev = evidence(
        "blackwell/nvat_blackwell_fsp_DERIVED_report.hex",
        Some("GB100"),
        Some("01.00.00.00.01"),
    );
    let result = verified
        .compare(|doc| compare_gpu_firmware(doc, &ev))
        .unwrap();
    assert!(result.measurements_match, "{:?}", result.mismatches);
    // Unsigned, it is read as before (the period, had it one, is judged only when verified).
    assert!(parse_corim(&bytes).is_ok());
}
