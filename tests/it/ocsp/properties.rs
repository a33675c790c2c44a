//! Properties of OCSP response checking over generated inputs: no change to the bytes of a
//! good response makes it verify, whatever the change, and nothing panics.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::OnceLock;

use edgeattest::ocsp::{check_response, CertRevocation, CheckedOcsp, OcspError, OcspRequest};
use edgeattest::UnixTime;
use proptest::prelude::*;

#[path = "../../common/ocsp_fixtures.rs"]
mod fixtures;
use fixtures::{nonce, request, response, Fixture};

/// The good delegated response and its request, read once.
fn good() -> &'static (Fixture, OcspRequest) {
    static GOOD: OnceLock<(Fixture, OcspRequest)> = OnceLock::new();
    GOOD.get_or_init(|| (response("brom_good.der"), request("brom_good")))
}

fn check(bytes: &[u8]) -> Result<CheckedOcsp, OcspError> {
    let (f, request) = good();
    check_response(
        bytes,
        request,
        &nonce("brom_good"),
        &f.issuer,
        UnixTime::from_secs(f.now).unwrap(),
    )?
    .verify_in_core()
}

/// An edit of the response bytes.
#[derive(Clone, Debug)]
enum Edit {
    Xor(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Truncate(usize),
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let len = bytes.len();
    match *edit {
        Edit::Xor(at, mask) => bytes[at % len] ^= mask,
        Edit::Insert(at, byte) => bytes.insert(at % (len + 1), byte),
        Edit::Remove(at) => {
            bytes.remove(at % len);
        }
        Edit::Truncate(at) => bytes.truncate(at % len),
    }
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(at, mask)| Edit::Xor(at, mask)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Insert(at, b)),
        any::<usize>().prop_map(Edit::Remove),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

#[test]
fn the_unedited_response_is_good() {
    assert_eq!(
        check(&good().0.bytes).expect("good").status,
        CertRevocation::Good
    );
}

#[test]
fn a_bit_flip_in_any_byte_is_refused() {
    // Every byte of the response (one bit each, rotating): DER is canonical and every byte
    // is structure, signed content or a signature, so each flip must fail a check.
    let good = &good().0.bytes;
    for at in 0..good.len() {
        let bit = at % 8;
        let mut bytes = good.clone();
        bytes[at] ^= 1 << bit;
        assert!(check(&bytes).is_err(), "byte {at} bit {bit} still verifies");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn edited_responses_are_never_good(edits in proptest::collection::vec(edit(), 1..6)) {
        let mut bytes = good().0.bytes.clone();
        for e in &edits {
            if bytes.is_empty() {
                break;
            }
            apply(&mut bytes, e);
        }
        prop_assume!(bytes != good().0.bytes);
        let result = check(&bytes);
        prop_assert!(
            !matches!(result, Ok(CheckedOcsp { status: CertRevocation::Good, .. })),
            "edits {:?} left a good response", edits
        );
    }
}
