//! Property tests: no input makes the token layer panic, and no single-byte change to a
//! signed token or result is accepted.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::crypto::{PublicKey, SigningKey};
use edgeattest::token::Signers;
use edgeattest::token::{
    create_detached_eat, sign_jwt, verify_attestation_result, verify_jwt, AttestationResult, Jwks,
    JwksKey, VerifyOptions,
};
use edgeattest::UnixTime;
use proptest::prelude::*;
use serde_json::json;

const KID: &str = "fuzz";
const NOW: u64 = 1_800_000_000;

fn key() -> SigningKey {
    SigningKey::generate(&[0x5a; 48]).unwrap()
}

fn jwks() -> Jwks {
    Jwks::new(vec![JwksKey::new(Some(KID.into()), key().public_key())]).unwrap()
}

fn token() -> String {
    sign_jwt(
        &json!({"iss": "i", "iat": NOW, "exp": NOW + 60}),
        &key(),
        KID,
    )
    .unwrap()
}

fn result() -> String {
    let devices: Vec<(String, String)> = (0..2)
        .map(|i| {
            let claims = json!({"iat": NOW, "exp": NOW + 60, "i": i});
            (format!("GPU-{i}"), sign_jwt(&claims, &key(), KID).unwrap())
        })
        .collect();
    let overall = json!({"iat": NOW, "exp": NOW + 60})
        .as_object()
        .unwrap()
        .clone();
    create_detached_eat(&overall, &devices, &key(), KID).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(text in "[A-Za-z0-9_\\-.=+/ \\[\\]{}\":,]{0,300}") {
        let _ = verify_jwt(&text, &jwks(), &VerifyOptions::new().signers(Signers::Any), UnixTime::from_secs(NOW).unwrap());
        let _ = verify_attestation_result(text.as_bytes(), &jwks(), &VerifyOptions::new().signers(Signers::Any), UnixTime::from_secs(NOW).unwrap());
        let _ = Jwks::parse(text.as_bytes());
        let _ = AttestationResult::parse(text.as_bytes());
        let _ = PublicKey::from_jwk_json(text.as_bytes());
        let _ = PublicKey::from_spki_pem(&text);
        let _ = SigningKey::from_pkcs8_pem(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = verify_attestation_result(&bytes, &jwks(), &VerifyOptions::new().signers(Signers::Any), UnixTime::from_secs(NOW).unwrap());
        let _ = Jwks::parse(&bytes);
        let _ = PublicKey::from_sec1(&bytes);
        let _ = PublicKey::from_spki_der(&bytes);
        let _ = SigningKey::from_pkcs8_der(&bytes);
        let _ = SigningKey::generate(&bytes);
    }

}

proptest! {
    // Each case verifies signatures (slow in debug builds): fewer cases.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_single_byte_change_to_a_token_is_accepted(index in 0usize..10_000, byte in any::<u8>()) {
        let good = token();
        let mut bytes = good.clone().into_bytes();
        let index = index % bytes.len();
        prop_assume!(bytes[index] != byte);
        bytes[index] = byte;
        if let Ok(changed) = String::from_utf8(bytes) {
            prop_assert!(verify_jwt(&changed, &jwks(), &VerifyOptions::new().signers(Signers::Any), UnixTime::from_secs(NOW).unwrap()).is_err());
        }
        prop_assert!(verify_jwt(&good, &jwks(), &VerifyOptions::new().signers(Signers::Any), UnixTime::from_secs(NOW).unwrap()).is_ok());
    }

    #[test]
    fn no_single_byte_change_inside_a_token_of_a_result_is_accepted(
        index in 0usize..100_000,
        byte in "[A-Za-z0-9_-]",
    ) {
        let good = result();
        let value: serde_json::Value = serde_json::from_str(&good).unwrap();
        // Change one base64url character of one of the three tokens.
        let mut tokens: Vec<String> = vec![value[0][1].as_str().unwrap().to_owned()];
        tokens.extend(value[1].as_object().unwrap().values().map(|t| t.as_str().unwrap().to_owned()));
        let which = index % tokens.len();
        let target = &tokens[which];
        let position = (index / tokens.len()) % target.len();
        let replacement = byte.chars().next().unwrap();
        let current = target.as_bytes()[position] as char;
        prop_assume!(current != '.' && current != replacement);
        let mut changed = target.clone();
        changed.replace_range(position..=position, &replacement.to_string());
        let mutated = good.replace(target.as_str(), &changed);
        prop_assert!(
            verify_attestation_result(mutated.as_bytes(), &jwks(), &VerifyOptions::new().signers(Signers::Any), UnixTime::from_secs(NOW).unwrap()).is_err()
        );
    }
}
