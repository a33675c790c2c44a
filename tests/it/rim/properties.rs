//! Properties of RIM verification over generated inputs: canonically equivalent
//! serialisations verify, any change to signed bytes does not, and no input panics.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions unwrap on fixtures.

use std::path::Path;

use edgeattest::rim::{canonical_forms, verify_rim, RimError, RimTrust, VerifiedRim};
use edgeattest::UnixTime;
use proptest::prelude::*;

fn good() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "tests/fixtures/nvidia/rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag",
        ),
    )
    .unwrap()
}

fn verify(xml: &[u8]) -> Result<VerifiedRim, RimError> {
    verify_rim(
        xml,
        &RimTrust::nvidia(),
        UnixTime::from_secs(1_704_067_200).unwrap(),
    )
}

/// Rewrites every `<ns0:Resource …/>` start tag with its attributes permuted by `seed`,
/// single or double quotes, and extra spaces: the canonical form is unchanged.
fn reserialise(xml: &str, seed: u64) -> String {
    let mut out = String::with_capacity(xml.len() * 2);
    let mut rest = xml;
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    while let Some(at) = rest.find("<ns0:Resource ") {
        out.push_str(&rest[..at]);
        let end = at + rest[at..].find("/>").unwrap();
        let body = &rest[at + "<ns0:Resource ".len()..end];
        let mut attrs: Vec<(&str, &str)> = body
            .split("\" ")
            .map(|a| {
                let (name, value) = a.split_once("=\"").unwrap();
                (name.trim(), value.trim_end_matches('"'))
            })
            .collect();
        for i in (1..attrs.len()).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            attrs.swap(i, j);
        }
        out.push_str("<ns0:Resource");
        for (name, value) in attrs {
            let spaces = " ".repeat(1 + (next() % 3) as usize);
            let quote = if next() % 2 == 0 { '\'' } else { '"' };
            out.push_str(&format!("{spaces}{name}={quote}{value}{quote}"));
        }
        out.push_str(if next() % 2 == 0 {
            "/>"
        } else {
            " ></ns0:Resource>"
        });
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn equivalent_serialisations_verify(seed in any::<u64>()) {
        let xml = reserialise(&good(), seed);
        prop_assert!(verify(xml.as_bytes()).is_ok());
    }

    #[test]
    fn any_changed_byte_of_signed_content_fails(pos in 0usize..18_000, byte in b'0'..=b'z') {
        let xml = good();
        let signed_end = xml.find("<ds:Signature").unwrap();
        let pos = pos % signed_end;
        let mut bytes = xml.into_bytes();
        prop_assume!(bytes[pos] != byte);
        bytes[pos] = byte;
        prop_assert!(verify(&bytes).is_err());
    }

    #[test]
    fn arbitrary_input_never_panics(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = verify(&data);
        let _ = canonical_forms(&String::from_utf8_lossy(&data));
    }

    #[test]
    fn truncations_never_verify(cut in 0usize..20_000) {
        let xml = good();
        let cut = cut % xml.len();
        prop_assert!(verify(&xml.as_bytes()[..cut]).is_err());
    }
}
