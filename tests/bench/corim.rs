//! CoRIM benchmark: a signed CoRIM (COSE_Sign1, ES384, a 3-certificate `x5chain`) verified by
//! the one RIM pipeline (`verify_rim`: CBOR and COSE read, the signature, the chain, the
//! CoMID read into a `RimDocument`), beside the XML RIM it was made from verified the same way
//! (C14N, the digest, the XML-DSig signature, its chain), in the same run, alternating rounds.
//! The XML RIM is the yardstick: the format NVIDIA serves today. The CoRIM holds the same
//! measurements (`tests/it/rim/corim.rs`'s `corim_from_xml`, one alternative per combination)
//! and is signed by the test PKI's RIM signer (NVIDIA publishes no signed GPU CoRIM).
//!
//! The last line is machine-readable for `pkg-config/bench.sh`:
//! `BENCH corim.verify <CoRIM µs> <XML µs> <ratio>`.
//!
//! Run: `cargo bench --bench corim`. Under `cargo test --all-targets` (no `--bench` argument)
//! it only checks that both verify, trusted, to the same first values.

#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used, dead_code)]

/// The RIM suite's CoRIM builders are native-only (they read fixtures from disk), and so is
/// this benchmark; a wasm build of the bench targets has an empty one.
fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}

#[path = "timing.rs"]
mod timing;

/// The CoRIM builders of the RIM suite (self-contained: std and the crate only; empty on
/// wasm).
#[path = "../it/rim/corim.rs"]
#[allow(unused_imports)]
mod corim;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::{corim, timing};
    use core::hint::black_box;

    use edgeattest::cbor::Cbor;
    use edgeattest::chain::parse_pem_chain;
    use edgeattest::cose;
    use edgeattest::rim::{verify_rim, RimTrust};
    use edgeattest::UnixTime;
    use p384::ecdsa::signature::Signer;
    use p384::ecdsa::{Signature, SigningKey};
    use p384::pkcs8::DecodePrivateKey;

    const XML_RIM: &str = "nvidia/rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag";

    fn text(rel: &str) -> String {
        String::from_utf8(corim::fixture_bytes(rel)).unwrap()
    }

    /// `payload` signed by the test RIM signer, its chain (leaf, L3, CA) in `x5chain`.
    fn signed(payload: &[u8]) -> Vec<u8> {
        let key = SigningKey::from_pkcs8_pem(&text("generated/ocsp/rim_signer_key.pem")).unwrap();
        let chain = parse_pem_chain(&text("generated/ocsp/rim_signer_chain.pem")).unwrap();
        let protected = vec![
            (3, Cbor::text("application/rim+cbor")),
            (
                33,
                Cbor::Array(chain[..3].iter().map(|der| Cbor::bytes(der)).collect()),
            ),
        ];
        let signature: Signature = key.sign(&cose::sign1_to_be_signed(&protected, payload));
        cose::sign1_assemble(&protected, &[], payload, &signature.to_bytes())
    }

    pub(crate) fn main() {
        let xml = corim::fixture_bytes(XML_RIM);
        let document = corim::xml_rim("nvtrust/1010_0200_882_96005E0001_PROD.swidtag");
        let corim = signed(&corim::corim_from_xml(&document).encode());
        let nvidia = RimTrust::nvidia();
        let test_root = RimTrust::from_pem(&text("generated/ocsp/rim_root.pem")).unwrap();
        // Each inside its signer's validity.
        let (xml_at, corim_at) = (UnixTime::from_secs(1_704_067_200).unwrap(), corim::NOW);

        let from_xml = verify_rim(&xml, &nvidia, xml_at).unwrap();
        let from_corim = verify_rim(&corim, &test_root, corim_at).unwrap();
        assert!(from_xml.is_trusted(), "{:?}", from_xml.cert_chain());
        assert!(from_corim.is_trusted(), "{:?}", from_corim.cert_chain());
        assert!(from_corim.is_corim());
        // The first alternative holds each active record's first value, as the XML lists it.
        let active = |doc: &edgeattest::rim::RimDocument| -> Vec<Vec<u8>> {
            doc.active_measurements()
                .map(|m| m.alternatives[0].clone())
                .collect()
        };
        assert_eq!(active(from_corim.document()), active(from_xml.document()));
        if !std::env::args().any(|a| a == "--bench") {
            return;
        }

        let mut run_corim = || {
            black_box(verify_rim(black_box(&corim), &test_root, corim_at).unwrap());
        };
        let mut run_xml = || {
            black_box(verify_rim(black_box(&xml), &nvidia, xml_at).unwrap());
        };
        let (corim_us, xml_us) = timing::race(&mut run_corim, &mut run_xml, 21, 10);
        println!(
            "VBIOS RIM verified: CoRIM ({} B) {corim_us:.1} µs; XML ({} B) {xml_us:.1} µs",
            corim.len(),
            xml.len()
        );
        println!(
            "BENCH corim.verify {corim_us:.3}us {xml_us:.3}us {:.3}",
            corim_us / xml_us
        );
    }
}
