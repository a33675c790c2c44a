//! P-384 keys: public keys ([`PublicKey`]) and signing keys ([`SigningKey`]) to and from JWK
//! (RFC 7517 §4, RFC 7518 §6.2), SPKI PEM/DER (RFC 5480) and PKCS#8 PEM/DER (RFC 5208,
//! RFC 5915), and key generation from caller-supplied randomness.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use p384::ecdsa::signature::Signer as _;
use p384::ecdsa::{Signature, SigningKey as P384SigningKey, VerifyingKey};
use p384::elliptic_curve::point::AffineCoordinates as _;
use serde_json::{Map, Value};

use super::jwk::{check_jwk_type, coordinate, jwk_object, Jwk};
use super::key_error::KeyError;
use super::{b64url, SignatureCheck, SignatureError, SIGNATURE_LEN};
use super::{key_der, pkcs8};
use super::{COORDINATE_LEN, SEC1_UNCOMPRESSED_LEN};

/// id-ecPublicKey (RFC 5480 §2.1.1).
const ID_EC_PUBLIC_KEY: spki::ObjectIdentifier =
    spki::ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
/// secp384r1 (RFC 5480 §2.1.1.1).
const SECP384R1: spki::ObjectIdentifier = spki::ObjectIdentifier::new_unwrap("1.3.132.0.34");

/// A P-384 public key: always a valid point on the curve, never the identity.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PublicKey {
    key: VerifyingKey,
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PublicKey")
            .field(&b64url::encode(&self.to_sec1()))
            .finish()
    }
}

impl PublicKey {
    /// From SEC1 bytes (uncompressed `04‖x‖y` or compressed).
    ///
    /// # Errors
    /// [`KeyError::NotOnCurve`].
    pub fn from_sec1(bytes: &[u8]) -> Result<Self, KeyError> {
        // Decoded by the verifier's own arithmetic (RustCrypto's `from_sec1_bytes` would pull
        // its generic point decompression into every module), then handed over uncompressed.
        let sec1 = super::p384v::decode_sec1(bytes)
            .map(|point| super::p384v::encode_sec1(&point))
            .ok_or(KeyError::NotOnCurve)?;
        let (mut x, mut y) = (p384::FieldBytes::default(), p384::FieldBytes::default());
        x.copy_from_slice(&sec1[1..=COORDINATE_LEN]);
        y.copy_from_slice(&sec1[1 + COORDINATE_LEN..]);
        let affine = p384::AffinePoint::from_coordinates(&x, &y);
        Option::<p384::AffinePoint>::from(affine)
            .and_then(|affine| VerifyingKey::from_affine(affine).ok())
            .map(|key| Self { key })
            .ok_or(KeyError::NotOnCurve)
    }

    /// The uncompressed SEC1 encoding `04‖x‖y` (97 bytes), the form WebCrypto imports as
    /// `raw`.
    pub fn to_sec1(&self) -> Vec<u8> {
        self.key.to_sec1_point(false).as_bytes().to_vec()
    }

    /// From a JWK object (RFC 7518 §6.2.1). `kty` must be `EC`, `crv` `P-384`, `alg` absent or
    /// `ES384`; `x` and `y` strict base64url of exactly 48 bytes each, forming a point on the
    /// curve. A private `d`, when present, is ignored here (see [`SigningKey::from_jwk`]).
    ///
    /// # Errors
    /// [`KeyError::InvalidJwk`], [`KeyError::UnsupportedKey`], [`KeyError::NotOnCurve`].
    pub fn from_jwk(jwk: &Map<String, Value>) -> Result<Self, KeyError> {
        check_jwk_type(jwk)?;
        let x = coordinate(jwk, "x")?;
        let y = coordinate(jwk, "y")?;
        let mut sec1 = Vec::with_capacity(SEC1_UNCOMPRESSED_LEN);
        sec1.push(0x04);
        sec1.extend_from_slice(&x);
        sec1.extend_from_slice(&y);
        Self::from_sec1(&sec1)
    }

    /// From JWK JSON text, parsed strictly (duplicate members rejected).
    ///
    /// # Errors
    /// As [`Self::from_jwk`]; [`KeyError::InvalidJwk`] (`field` `jwk`) when the text is not a
    /// JSON object.
    pub fn from_jwk_json(text: &[u8]) -> Result<Self, KeyError> {
        Self::from_jwk(&jwk_object(text)?)
    }

    /// The public JWK, with `kid` when given.
    pub fn to_jwk(&self, kid: Option<&str>) -> Jwk {
        let (x, y) = self.coordinates();
        Jwk {
            kty: "EC".into(),
            crv: "P-384".into(),
            kid: kid.map(Into::into),
            x5c: None,
            x: b64url::encode(&x),
            y: b64url::encode(&y),
            d: None,
        }
    }

    /// From a DER `SubjectPublicKeyInfo` (RFC 5480: id-ecPublicKey with secp384r1).
    ///
    /// # Errors
    /// [`KeyError::InvalidEncoding`] (also for other curves and algorithms).
    pub fn from_spki_der(der: &[u8]) -> Result<Self, KeyError> {
        pkcs8::read_spki(der)
            .and_then(|point| Self::from_sec1(point).ok())
            .ok_or(KeyError::InvalidEncoding { format: "spki" })
    }

    /// From PEM text labelled `PUBLIC KEY`.
    ///
    /// # Errors
    /// [`KeyError::InvalidEncoding`].
    pub fn from_spki_pem(pem: &str) -> Result<Self, KeyError> {
        // What spki's `from_public_key_pem` does: the PEM decoded, its label `PUBLIC KEY`.
        match pem_rfc7468::decode_vec(pem.trim().as_bytes()) {
            Ok(("PUBLIC KEY", der)) => Self::from_spki_der(&der),
            _ => Err(KeyError::InvalidEncoding { format: "spki" }),
        }
    }

    /// The DER `SubjectPublicKeyInfo`.
    pub fn to_spki_der(&self) -> Vec<u8> {
        key_der::spki_der(&self.point())
    }

    /// PEM text labelled `PUBLIC KEY`, LF line endings.
    pub fn to_spki_pem(&self) -> String {
        key_der::pem("PUBLIC KEY", &self.to_spki_der())
    }

    /// The uncompressed SEC1 point, as an array.
    fn point(&self) -> [u8; SEC1_UNCOMPRESSED_LEN] {
        let mut out = [0u8; SEC1_UNCOMPRESSED_LEN];
        out.copy_from_slice(self.key.to_sec1_point(false).as_bytes());
        out
    }

    /// Verifies a raw `r‖s` ES384 signature over `message` with the software backend.
    ///
    /// # Errors
    /// [`SignatureError::Invalid`].
    pub fn verify(&self, message: &[u8], signature: &[u8]) -> Result<(), SignatureError> {
        super::verify_p384_sha384(&self.to_sec1(), message, signature)
    }

    /// The same verification as data, for a backend to run.
    pub fn signature_check(&self, message: &[u8], signature: &[u8]) -> SignatureCheck {
        SignatureCheck {
            public_key_sec1: self.to_sec1(),
            message: message.to_vec(),
            signature: signature.to_vec(),
        }
    }

    fn coordinates(&self) -> ([u8; COORDINATE_LEN], [u8; COORDINATE_LEN]) {
        let point = self.key.to_sec1_point(false);
        let mut x = [0u8; COORDINATE_LEN];
        let mut y = [0u8; COORDINATE_LEN];
        if let (Some(px), Some(py)) = (point.x(), point.y()) {
            x.copy_from_slice(px);
            y.copy_from_slice(py);
        }
        (x, y)
    }
}

/// SPKI decoding through spki's `DecodePublicKey` readers, with the checks of
/// RustCrypto's own: id-ecPublicKey with secp384r1, then the SEC1 point as [`PublicKey::from_sec1`].
impl TryFrom<spki::SubjectPublicKeyInfoRef<'_>> for PublicKey {
    type Error = spki::Error;

    fn try_from(info: spki::SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        info.algorithm.assert_oids(ID_EC_PUBLIC_KEY, SECP384R1)?;
        let invalid = || spki::Error::from(der::Tag::BitString.value_error().to_error());
        let bytes = info.subject_public_key.as_bytes().ok_or_else(invalid)?;
        Self::from_sec1(bytes).map_err(|_| invalid())
    }
}

/// A P-384 ECDSA signing key. Signatures are deterministic (RFC 6979) and normalised to
/// low S, so minting needs no randomness; verification still accepts high S.
#[derive(Clone)]
pub struct SigningKey {
    key: P384SigningKey,
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("public", &self.public_key())
            .finish_non_exhaustive()
    }
}

impl PartialEq for SigningKey {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for SigningKey {}

impl SigningKey {
    /// Generates a key from at least 48 random bytes supplied by the caller (the core draws
    /// no randomness itself).
    ///
    /// Rule (FIPS 186-5 §A.4.2, rejection sampling): the bytes are read as consecutive
    /// 48-byte big-endian blocks; the first block whose value lies in `[1, n−1]` is the
    /// private key. Trailing bytes short of a block are ignored. A block is rejected with
    /// probability below 2⁻¹⁸⁹, so 48 bytes practically always suffice; if every block is
    /// rejected the caller gets [`KeyError::GenerationExhausted`] and retries with fresh
    /// bytes.
    ///
    /// # Errors
    /// [`KeyError::RandomnessTooShort`], [`KeyError::GenerationExhausted`].
    pub fn generate(random: &[u8]) -> Result<Self, KeyError> {
        if random.len() < COORDINATE_LEN {
            return Err(KeyError::RandomnessTooShort {
                given: random.len(),
            });
        }
        random
            .chunks_exact(COORDINATE_LEN)
            .find_map(|block| Self::from_scalar_bytes(block).ok())
            .ok_or(KeyError::GenerationExhausted)
    }

    /// From the 48-byte big-endian private scalar.
    ///
    /// # Errors
    /// [`KeyError::InvalidScalar`] for the wrong length, zero, or a value not below `n`.
    pub fn from_scalar_bytes(bytes: &[u8]) -> Result<Self, KeyError> {
        if bytes.len() != COORDINATE_LEN {
            return Err(KeyError::InvalidScalar);
        }
        P384SigningKey::from_slice(bytes)
            .map(|key| Self { key })
            .map_err(|_| KeyError::InvalidScalar)
    }

    /// From a private JWK: the checks of [`PublicKey::from_jwk`], plus `d` of exactly 48
    /// bytes forming a valid scalar whose public point equals `x`/`y`.
    ///
    /// # Errors
    /// As [`PublicKey::from_jwk`]; [`KeyError::InvalidJwk`] (`d`),
    /// [`KeyError::InvalidScalar`], [`KeyError::KeyMismatch`].
    pub fn from_jwk(jwk: &Map<String, Value>) -> Result<Self, KeyError> {
        let public = PublicKey::from_jwk(jwk)?;
        let d = coordinate(jwk, "d")?;
        let key = Self::from_scalar_bytes(&d)?;
        if key.public_key() != public {
            return Err(KeyError::KeyMismatch);
        }
        Ok(key)
    }

    /// From private JWK JSON text, parsed strictly.
    ///
    /// # Errors
    /// As [`Self::from_jwk`].
    pub fn from_jwk_json(text: &[u8]) -> Result<Self, KeyError> {
        Self::from_jwk(&jwk_object(text)?)
    }

    /// The private JWK (with `d`), with `kid` when given.
    pub fn to_jwk(&self, kid: Option<&str>) -> Jwk {
        let mut jwk = self.public_key().to_jwk(kid);
        jwk.d = Some(b64url::encode(&self.key.to_bytes()));
        jwk
    }

    /// From a DER PKCS#8 `PrivateKeyInfo` holding a P-384 EC key.
    ///
    /// # Errors
    /// [`KeyError::InvalidEncoding`].
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, KeyError> {
        let invalid = || KeyError::InvalidEncoding { format: "pkcs8" };
        let (scalar, public) = pkcs8::read(der).ok_or_else(invalid)?;
        // elliptic-curve's `SecretKey::from_slice` (24 to 48 bytes, left-padded) and its
        // check that a public key given is this scalar's, in either SEC1 form.
        let key = P384SigningKey::from_slice(scalar).map_err(|_| invalid())?;
        if let Some(public) = public {
            let point = key.verifying_key();
            if public != point.to_sec1_point(false).as_bytes()
                && public != point.to_sec1_point(true).as_bytes()
            {
                return Err(invalid());
            }
        }
        Ok(Self { key })
    }

    /// From PEM text labelled `PRIVATE KEY`.
    ///
    /// # Errors
    /// [`KeyError::InvalidEncoding`].
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, KeyError> {
        // What pkcs8's `from_pkcs8_pem` does: the PEM decoded, its label `PRIVATE KEY`.
        match pem_rfc7468::decode_vec(pem.trim().as_bytes()) {
            Ok(("PRIVATE KEY", der)) => Self::from_pkcs8_der(&der),
            _ => Err(KeyError::InvalidEncoding { format: "pkcs8" }),
        }
    }

    /// The DER PKCS#8 `PrivateKeyInfo`.
    pub fn to_pkcs8_der(&self) -> Vec<u8> {
        key_der::pkcs8_der(&self.scalar_bytes(), &self.public_key().point())
    }

    /// PEM text labelled `PRIVATE KEY`, LF line endings.
    pub fn to_pkcs8_pem(&self) -> String {
        key_der::pem("PRIVATE KEY", &self.to_pkcs8_der())
    }

    /// The private scalar, big-endian.
    pub(super) fn scalar_bytes(&self) -> [u8; COORDINATE_LEN] {
        self.key.to_bytes().into()
    }

    /// The public key.
    pub fn public_key(&self) -> PublicKey {
        PublicKey {
            key: *self.key.verifying_key(),
        }
    }

    /// Signs `message` (hashed with SHA-384): a raw 96-byte `r‖s` signature, low S.
    pub fn sign(&self, message: &[u8]) -> [u8; SIGNATURE_LEN] {
        let signature: Signature = self.key.sign(message);
        let mut out = [0u8; SIGNATURE_LEN];
        out.copy_from_slice(&signature.normalize_s().to_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::borrow::ToOwned;
    use alloc::format;
    use p384::elliptic_curve::scalar::IsHigh;

    use crate::error_code::ErrorCode;

    fn key() -> SigningKey {
        SigningKey::generate(&[7u8; 48]).unwrap()
    }

    #[test]
    fn generation_follows_the_documented_rule() {
        assert_eq!(
            SigningKey::generate(&[1u8; 47]),
            Err(KeyError::RandomnessTooShort { given: 47 })
        );
        assert_eq!(
            SigningKey::generate(&[0u8; 96]),
            Err(KeyError::GenerationExhausted)
        );
        // All-ones is above n: rejected, the second block is used.
        let mut random = [0xffu8; 96];
        random[48..].copy_from_slice(&[7u8; 48]);
        assert_eq!(SigningKey::generate(&random).unwrap(), key());
        assert_eq!(
            SigningKey::generate(&[0xffu8; 48]),
            Err(KeyError::GenerationExhausted)
        );
    }

    #[test]
    fn jwk_round_trip_and_checks() {
        let key = key();
        let jwk = key.to_jwk(Some("k1")).to_value();
        let map = jwk.as_object().unwrap();
        assert_eq!(SigningKey::from_jwk(map).unwrap(), key);
        assert_eq!(PublicKey::from_jwk(map).unwrap(), key.public_key());
        let text = serde_json::to_string(&key.public_key().to_jwk(Some("k1"))).unwrap();
        assert!(text.starts_with(r#"{"kty":"EC","crv":"P-384","kid":"k1","x":""#));

        let mut bad = map.clone();
        bad.insert("crv".into(), "P-256".into());
        assert_eq!(
            PublicKey::from_jwk(&bad).unwrap_err().code(),
            "ERR_JWK_UNSUPPORTED"
        );
        let mut bad = map.clone();
        bad.insert("alg".into(), "ES256".into());
        assert_eq!(PublicKey::from_jwk(&bad).unwrap_err().field(), Some("alg"));
        let mut bad = map.clone();
        let x = bad["x"].as_str().unwrap().to_owned();
        bad.insert("x".into(), format!("{x}=").into());
        assert_eq!(
            PublicKey::from_jwk(&bad),
            Err(KeyError::InvalidJwk { field: "x" })
        );
        let mut bad = map.clone();
        bad.insert("y".into(), b64url::encode(&[1u8; 48]).into());
        assert_eq!(PublicKey::from_jwk(&bad), Err(KeyError::NotOnCurve));
        let mut bad = map.clone();
        bad.insert("d".into(), b64url::encode(&[9u8; 48]).into());
        assert_eq!(SigningKey::from_jwk(&bad), Err(KeyError::KeyMismatch));
    }

    #[test]
    fn pem_round_trips() {
        let key = key();
        let pem = key.to_pkcs8_pem();
        assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
        assert_eq!(SigningKey::from_pkcs8_pem(&pem).unwrap(), key);
        let spki = key.public_key().to_spki_pem();
        assert!(spki.starts_with("-----BEGIN PUBLIC KEY-----\n"));
        assert_eq!(PublicKey::from_spki_pem(&spki).unwrap(), key.public_key());
        assert_eq!(
            PublicKey::from_spki_der(&key.public_key().to_spki_der()).unwrap(),
            key.public_key()
        );
        assert!(PublicKey::from_spki_pem(&pem).is_err());
        assert!(SigningKey::from_pkcs8_pem(&spki).is_err());
    }

    #[test]
    fn signatures_are_low_s_and_verify() {
        let key = key();
        let sig = key.sign(b"hello");
        assert_eq!(key.public_key().verify(b"hello", &sig), Ok(()));
        assert_eq!(
            key.public_key().verify(b"hellO", &sig),
            Err(SignatureError::Invalid)
        );
        let parsed = Signature::from_slice(&sig).unwrap();
        assert!(!bool::from(parsed.s().is_high()));
    }

    /// The keys of 200 seeds (the scalars spread over the whole range) against what p384's
    /// DER and PEM encoders write for the same keys.
    #[test]
    fn the_frames_write_what_p384_writes() {
        use p384::pkcs8::{EncodePrivateKey, EncodePublicKey};

        for seed in 0u8..200 {
            let random: [u8; 96] = core::array::from_fn(|i| {
                seed.wrapping_mul(37)
                    .wrapping_add((i as u8).wrapping_mul(11))
                    ^ seed
            });
            let key = SigningKey::generate(&random).unwrap();
            let peer = p384::ecdsa::SigningKey::from_slice(&key.scalar_bytes()).unwrap();
            let der = peer.to_pkcs8_der().unwrap();
            assert_eq!(key.to_pkcs8_der(), der.as_bytes(), "seed {seed}");
            let pem = peer.to_pkcs8_pem(pem_rfc7468::LineEnding::LF).unwrap();
            assert_eq!(key.to_pkcs8_pem(), *pem, "seed {seed}");
            let public = peer.verifying_key();
            let spki = public.to_public_key_der().unwrap();
            assert_eq!(
                key.public_key().to_spki_der(),
                spki.as_bytes(),
                "seed {seed}"
            );
            let spki_pem = public
                .to_public_key_pem(pem_rfc7468::LineEnding::LF)
                .unwrap();
            assert_eq!(key.public_key().to_spki_pem(), spki_pem, "seed {seed}");
        }
    }
}
