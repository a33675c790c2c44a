//! CWT EARs (`src/ear/cwt.rs`): the -04 claims under the draft's integer labels in a
//! `COSE_Sign1`; a CWT signed by Veraison's `ear` 0.6.0 (indefinite-length maps) read by
//! ours; the reader's refusals (floats, a top status better than the submodules, duplicate
//! keys, other algorithms and profiles, a tampered signature).
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::cbor::{decode, Cbor, CborLimits};
use edgeattest::cose::{sign1_assemble, sign1_to_be_signed};
use edgeattest::ear::{verify_ear, verify_ear_cwt, Ear, EarDialect, TrustTier, EAR_PROFILE_04};
use edgeattest::token::Signers;
use edgeattest::token::VerifyOptions;
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

use super::dialects::{
    veraison_jwks, VERAISON_COSE_HEX, VERAISON_IAT, VERAISON_JWT, VERAISON_NONCE,
};
use crate::policy::signed::{jwks, key, resigned, KID};

fn any_signer() -> VerifyOptions {
    VerifyOptions::new().signers(Signers::Any)
}

#[test]
fn a_cwt_signed_by_veraisons_library_reads_as_its_jwt() {
    let at = UnixTime::from_secs(VERAISON_IAT + 10).unwrap();
    let options = any_signer().nonce(VERAISON_NONCE).max_age(60);
    let cwt = hex::decode(VERAISON_COSE_HEX).unwrap();
    let ear = verify_ear_cwt(&cwt, &veraison_jwks(), &options, at).unwrap();
    let jwt = verify_ear(VERAISON_JWT, &veraison_jwks(), &options, at).unwrap();
    assert_eq!(ear, jwt);
    assert_eq!(ear.dialect(), EarDialect::Ietf04);
    assert_eq!(ear.status(), TrustTier::Affirming);
    // The last signature byte flipped: refused (Veraison's own reader panics here).
    let mut tampered = cwt.clone();
    *tampered.last_mut().unwrap() ^= 1;
    let error = verify_ear_cwt(&tampered, &veraison_jwks(), &options, at).unwrap_err();
    assert_eq!(error.code(), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
    // Under another key set.
    assert!(verify_ear_cwt(&cwt, &jwks(), &options, at).is_err());
}

/// Our CWT of `ear`, signed by the test key.
fn signed_cwt(ear: &Ear) -> Vec<u8> {
    let input = ear.cwt_to_be_signed(KID).unwrap();
    input.assemble(&key().sign(input.to_be_signed())).unwrap()
}

#[test]
fn our_cwt_has_the_drafts_labels_and_reads_back() {
    let result = resigned("hopperClaimsv3", |_| {});
    let nonce = result.overall().claims()["eat_nonce"].as_str().unwrap();
    let now = 1_800_000_000;
    let veraison = Ear::from_result(&result, None, now);
    let error = veraison.to_cwt_claims().unwrap_err();
    assert_eq!(error.code(), "ERR_EAR_SHAPE", "a CWT EAR is -04 only");
    let ear = veraison.into_dialect(EarDialect::Ietf04).unwrap();
    let payload = ear.to_cwt_claims().unwrap();
    let claims = decode(&payload, CborLimits::DEFAULT).unwrap();
    assert_eq!(claims.encode(), payload, "deterministic encoding");
    assert_eq!(claims.get_int(265), Some(&Cbor::text(EAR_PROFILE_04)));
    assert_eq!(claims.get_int(6), Some(&Cbor::int(now)));
    assert_eq!(claims.get_int(1000), Some(&Cbor::int(2)));
    assert_eq!(
        claims.get_int(10),
        Some(&Cbor::Bytes(hex::decode(nonce).unwrap()))
    );
    let id = claims.get_int(1004).unwrap();
    assert_eq!(
        id.get_int(0).and_then(Cbor::as_text),
        Some(ear.verifier_id().developer.as_str())
    );
    let gpu = claims.get_int(266).unwrap().get_text("GPU-0").unwrap();
    assert_eq!(gpu.get_int(1000), Some(&Cbor::int(2)));
    let vector = gpu.get_int(1001).unwrap();
    for key in [0, 1, 2, 4] {
        assert_eq!(vector.get_int(key), Some(&Cbor::int(2)), "vector key {key}");
    }
    assert_eq!(vector.as_map().unwrap().len(), 4);

    let cwt = signed_cwt(&ear);
    assert_eq!(cwt[0], 0xd2, "tag 18");
    let options = any_signer().nonce(nonce).max_age(60);
    let at = UnixTime::from_secs(now as u64 + 1).unwrap();
    assert_eq!(verify_ear_cwt(&cwt, &jwks(), &options, at).unwrap(), ear);
    let wrong = any_signer().nonce(&"00".repeat(32));
    let error = verify_ear_cwt(&cwt, &jwks(), &wrong, at).unwrap_err();
    assert_eq!(error.code(), "ERR_EAT_NONCE_MISMATCH");
    let late = UnixTime::from_secs(now as u64 + 61).unwrap();
    let error = verify_ear_cwt(&cwt, &jwks(), &options, late).unwrap_err();
    assert_eq!(error.code(), "ERR_JWT_EXPIRED");
    let mut tampered = cwt.clone();
    let at_byte = tampered.len() - 3;
    tampered[at_byte] ^= 0x40;
    let error = verify_ear_cwt(&tampered, &jwks(), &options, at).unwrap_err();
    assert_eq!(error.code(), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
}

/// A -04 CWT of the claims map `entries` (labels → items), signed by the test key with `alg`.
fn cwt_of(entries: Vec<(Cbor, Cbor)>, alg: i64) -> Vec<u8> {
    let payload = Cbor::Map(entries).encode();
    if alg == -35 {
        let protected = [(4, Cbor::bytes(KID.as_bytes()))];
        let tbs = sign1_to_be_signed(&protected, &payload);
        return sign1_assemble(&protected, &[], &payload, &key().sign(&tbs));
    }
    // Another algorithm: the protected header written by hand.
    let protected = Cbor::Map(vec![(Cbor::int(1), Cbor::int(alg))]).encode();
    Cbor::Tag(
        18,
        Box::new(Cbor::Array(vec![
            Cbor::Bytes(protected),
            Cbor::Map(vec![]),
            Cbor::Bytes(payload),
            Cbor::Bytes(vec![1; 96]),
        ])),
    )
    .encode()
}

fn claims(edit: impl Fn(&mut Vec<(Cbor, Cbor)>)) -> Vec<(Cbor, Cbor)> {
    let submod = Cbor::Map(vec![(Cbor::int(1000), Cbor::int(32))]);
    let mut entries = vec![
        (Cbor::int(265), Cbor::text(EAR_PROFILE_04)),
        (Cbor::int(6), Cbor::int(1_800_000_000)),
        (
            Cbor::int(1004),
            Cbor::Map(vec![
                (Cbor::int(0), Cbor::text("d")),
                (Cbor::int(1), Cbor::text("b")),
            ]),
        ),
        (Cbor::int(1000), Cbor::int(32)),
        (
            Cbor::int(266),
            Cbor::Map(vec![(Cbor::text("cpu0"), submod)]),
        ),
    ];
    edit(&mut entries);
    entries
}

fn set(entries: &mut Vec<(Cbor, Cbor)>, label: i64, value: Cbor) {
    entries.retain(|(k, _)| k != &Cbor::int(label));
    entries.push((Cbor::int(label), value));
}

/// An edit of a claims map.
type Edit = dyn Fn(&mut Vec<(Cbor, Cbor)>);

#[test]
fn the_cwt_reader_refuses_what_the_draft_refuses() {
    let at = UnixTime::from_secs(1_800_000_010).unwrap();
    let read = |cwt: &[u8]| verify_ear_cwt(cwt, &jwks(), &any_signer(), at);
    let ear = read(&cwt_of(claims(|_| {}), -35)).unwrap();
    assert_eq!(ear.status(), TrustTier::Warning);
    assert_eq!(ear.submods()[0].0, "cpu0");
    let code = |edit: &Edit| {
        let error = read(&cwt_of(claims(edit), -35)).unwrap_err();
        (error.code(), error.field().map(str::to_owned))
    };
    let shape = |field: &str| ("ERR_EAR_SHAPE", Some(field.to_owned()));
    assert_eq!(code(&|c| set(c, 6, Cbor::Float(1.8e9))), shape("iat"));
    assert_eq!(code(&|c| set(c, 4, Cbor::Float(1.9e9))), shape("exp"));
    assert_eq!(
        code(&|c| set(c, 6, Cbor::Tag(1, Box::new(Cbor::int(1_800_000_000))))),
        shape("iat")
    );
    assert_eq!(code(&|c| set(c, 1000, Cbor::int(2))), shape("ear_status"));
    assert_eq!(code(&|c| set(c, 1000, Cbor::int(3))), shape("ear_status"));
    assert!(read(&cwt_of(claims(|c| set(c, 1000, Cbor::int(96))), -35)).is_ok());
    assert_eq!(
        code(&|c| set(c, 265, Cbor::text("tag:github.com,2023:veraison/ear"))),
        ("ERR_EAR_PROFILE", Some("eat_profile".to_owned()))
    );
    assert_eq!(
        code(&|c| set(c, 265, Cbor::text("tag:ietf.org,2026:rats/ear#03"))),
        ("ERR_EAR_PROFILE", Some("eat_profile".to_owned()))
    );
    assert_eq!(
        code(&|c| set(c, 10, Cbor::bytes(&[1; 4]))),
        shape("eat_nonce")
    );
    fn submod(inner: Vec<(Cbor, Cbor)>) -> Cbor {
        Cbor::Map(vec![(Cbor::text("cpu0"), Cbor::Map(inner))])
    }
    assert_eq!(
        code(&|c| set(c, 266, submod(vec![(Cbor::int(1000), Cbor::int(33))]))),
        shape("submods/cpu0/ear_status")
    );
    assert_eq!(
        code(&|c| {
            let vector = Cbor::Map(vec![(Cbor::int(8), Cbor::int(2))]);
            set(
                c,
                266,
                submod(vec![
                    (Cbor::int(1000), Cbor::int(96)),
                    (Cbor::int(1001), vector),
                ]),
            )
        }),
        shape("submods/cpu0/ear_trustworthiness_vector")
    );
    assert_eq!(
        code(&|c| {
            let ids = Cbor::text("one");
            set(
                c,
                266,
                submod(vec![
                    (Cbor::int(1000), Cbor::int(96)),
                    (Cbor::int(1003), ids),
                ]),
            )
        }),
        shape("submods/cpu0/ear_appraisal_policy_ids")
    );
    // A duplicate key: refused by the CBOR reader.
    let error = read(&cwt_of(
        claims(|c| c.push((Cbor::int(6), Cbor::int(1_800_000_001)))),
        -35,
    ))
    .unwrap_err();
    assert!(error.code().starts_with("ERR_CBOR_"), "{}", error.code());
    // ES256 (-7): not an algorithm this crate verifies.
    let error = read(&cwt_of(claims(|_| {}), -7)).unwrap_err();
    assert_eq!(error.code(), "ERR_COSE_ALGORITHM");
}
