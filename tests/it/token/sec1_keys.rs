//! SEC1 public keys as the software backend reads them (its own point decoding since issue 19):
//! every form RustCrypto accepted (uncompressed, compressed, compact) names the same key, and
//! every malformed or off-curve point is refused with its typed error, directly, inside an
//! SPKI and as the key of a signature check.

use edgeattest::crypto::{verify_p384_sha384, KeyError, PublicKey, SignatureError, SigningKey};
use edgeattest::ErrorCode;

/// id-ecPublicKey with secp384r1, then the BIT STRING header, for a 97- and a 49-byte point.
const SPKI_UNCOMPRESSED: &str = "3076301006072a8648ce3d020106052b81040022036200";
const SPKI_SHORT: &str = "3046301006072a8648ce3d020106052b81040022033200";
/// The same with prime256v1 as the curve.
const SPKI_P256: &str = "3076301006072a8648ce3d020106082a8648ce3d030107036200";

fn key(seed: u8) -> SigningKey {
    SigningKey::generate(&[seed; 48]).unwrap()
}

/// `02`/`03` ‖ x for an uncompressed `04‖x‖y`.
fn compressed(sec1: &[u8]) -> Vec<u8> {
    let mut out = vec![2 | (sec1[96] & 1)];
    out.extend_from_slice(&sec1[1..49]);
    out
}

fn spki(prefix: &str, point: &[u8]) -> Vec<u8> {
    let mut der = hex::decode(prefix).unwrap();
    der.extend_from_slice(point);
    der
}

#[test]
fn compressed_points_name_the_same_key() {
    for seed in 1..=8 {
        let signing = key(seed);
        let public = signing.public_key();
        let sec1 = public.to_sec1();
        assert_eq!(sec1.len(), 97);
        let short = compressed(&sec1);
        assert_eq!(PublicKey::from_sec1(&short).unwrap(), public);
        assert_eq!(PublicKey::from_sec1(&short).unwrap().to_sec1(), sec1);
        // The wrong parity bit names the negated point: a valid key, but another one.
        let mut flipped = short.clone();
        flipped[0] ^= 1;
        let negated = PublicKey::from_sec1(&flipped).unwrap();
        assert_ne!(negated, public);
        assert_eq!(negated.to_sec1()[1..49], sec1[1..49]);

        let signature = signing.sign(b"edgeattest");
        assert_eq!(
            verify_p384_sha384(&short, b"edgeattest", &signature),
            Ok(())
        );
        assert_eq!(
            verify_p384_sha384(&flipped, b"edgeattest", &signature),
            Err(SignatureError::Invalid)
        );
        assert_eq!(
            PublicKey::from_spki_der(&spki(SPKI_SHORT, &short)).unwrap(),
            public
        );
        assert_eq!(
            PublicKey::from_spki_der(&spki(SPKI_UNCOMPRESSED, &sec1)).unwrap(),
            public
        );
    }
}

#[test]
fn malformed_and_off_curve_points_are_refused() {
    let signing = key(3);
    let sec1 = signing.public_key().to_sec1();
    let signature = signing.sign(b"m");
    let mut off_curve = sec1.clone();
    off_curve[96] ^= 1;
    // x = p (not a canonical coordinate), compressed.
    let mut x_is_p = vec![2u8];
    x_is_p.extend_from_slice(
        &hex::decode("fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff").unwrap(),
    );
    // An x with no point: x = 1 gives y² = b − 2, not a square modulo p (both parities below).
    let mut no_root = vec![3u8];
    no_root.extend_from_slice(&[0u8; 47]);
    no_root.push(1);
    let mut other_tag = sec1.clone();
    other_tag[0] = 6;
    let cases: [(&str, Vec<u8>); 8] = [
        ("empty", vec![]),
        ("identity", vec![0]),
        ("off the curve", off_curve.clone()),
        ("x = p", x_is_p),
        ("no square root", no_root.clone()),
        ("hybrid tag", other_tag),
        ("truncated", sec1[..96].to_vec()),
        ("compressed tag, long body", {
            let mut v = sec1.clone();
            v[0] = 2;
            v
        }),
    ];
    for (name, bytes) in &cases {
        let err = PublicKey::from_sec1(bytes).unwrap_err();
        assert_eq!(err, KeyError::NotOnCurve, "{name}");
        assert_eq!(err.code(), "ERR_KEY_NOT_ON_CURVE", "{name}");
        let err = verify_p384_sha384(bytes, b"m", &signature).unwrap_err();
        assert_eq!(err, SignatureError::InvalidPublicKey, "{name}");
        assert_eq!(err.code(), "ERR_INVALID_PUBLIC_KEY", "{name}");
    }
    let mut no_root_even = no_root;
    no_root_even[0] = 2;
    assert!(PublicKey::from_sec1(&no_root_even).is_err());

    for der in [
        spki(SPKI_UNCOMPRESSED, &off_curve),
        spki(SPKI_P256, &sec1),
        spki(SPKI_SHORT, &[0u8; 49]),
    ] {
        let err = PublicKey::from_spki_der(&der).unwrap_err();
        assert_eq!(err, KeyError::InvalidEncoding { format: "spki" });
        assert_eq!(err.code(), "ERR_KEY_ENCODING_INVALID");
    }
}
