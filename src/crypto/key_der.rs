//! The DER and PEM a P-384 key is written as (SPKI, RFC 5480; PKCS#8 v1 holding an RFC 5915
//! `ECPrivateKey` with its public key and without curve parameters). Every such encoding is
//! one fixed frame around the scalar and the uncompressed point, so it is written from that
//! frame: the generic DER encoders of `pkcs8`/`sec1`/`der`, `der`'s PEM writer and `base64ct`
//! cost about 19 KB of wasm for these two byte strings. The keys' tests (`key.rs`) pin the
//! bytes and text to what `p384`'s own encoders write for many keys.

use alloc::string::String;
use alloc::vec::Vec;

use base64::Engine as _;

use super::{COORDINATE_LEN, SEC1_UNCOMPRESSED_LEN};

/// `SEQUENCE { SEQUENCE { id-ecPublicKey, secp384r1 }, BIT STRING (0 unused bits) ...`:
/// everything of a P-384 SPKI before its uncompressed point.
const SPKI_HEAD: [u8; 23] = [
    0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b,
    0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00,
];

/// `SEQUENCE { INTEGER 0, SEQUENCE { id-ecPublicKey, secp384r1 }, OCTET STRING { SEQUENCE {
/// INTEGER 1, OCTET STRING (48 bytes) ...`: a PKCS#8 key before its scalar.
const PKCS8_HEAD: [u8; 35] = [
    0x30, 0x81, 0xb6, 0x02, 0x01, 0x00, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02,
    0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x04, 0x81, 0x9e, 0x30, 0x81, 0x9b, 0x02, 0x01,
    0x01, 0x04, 0x30,
];

/// `[1] { BIT STRING (0 unused bits) ...`: between the scalar and the public point.
const PKCS8_MIDDLE: [u8; 5] = [0xa1, 0x64, 0x03, 0x62, 0x00];

/// The DER `SubjectPublicKeyInfo` of an uncompressed SEC1 point.
pub(super) fn spki_der(point: &[u8; SEC1_UNCOMPRESSED_LEN]) -> Vec<u8> {
    [&SPKI_HEAD[..], point].concat()
}

/// The DER PKCS#8 `PrivateKeyInfo` of a scalar and its uncompressed public point.
pub(super) fn pkcs8_der(
    scalar: &[u8; COORDINATE_LEN],
    point: &[u8; SEC1_UNCOMPRESSED_LEN],
) -> Vec<u8> {
    [&PKCS8_HEAD[..], scalar, &PKCS8_MIDDLE, point].concat()
}

/// RFC 7468 text: the label's boundaries around standard base64 in lines of 64 characters,
/// every line ending in LF.
pub(super) fn pem(label: &str, der: &[u8]) -> String {
    let body = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = String::with_capacity(body.len() + body.len() / 64 + 2 * label.len() + 40);
    out.push_str("-----BEGIN ");
    out.push_str(label);
    out.push_str("-----\n");
    for line in body.as_bytes().chunks(64) {
        // Base64 is ASCII: every chunk boundary is a character boundary.
        out.extend(line.iter().map(|&byte| char::from(byte)));
        out.push('\n');
    }
    out.push_str("-----END ");
    out.push_str(label);
    out.push_str("-----\n");
    out
}

#[cfg(test)]
mod tests {
    /// The PEM writer's line breaks at every length around a line's 64 characters (a key is
    /// never empty; pem_rfc7468 writes an empty line for an empty body).
    #[test]
    fn pem_lines_break_where_rfc_7468_says() {
        for len in 1..200 {
            let der: alloc::vec::Vec<u8> = (0..len).map(|i| i as u8).collect();
            let ours = super::pem("PRIVATE KEY", &der);
            let peer = pem_rfc7468::encode_string("PRIVATE KEY", pem_rfc7468::LineEnding::LF, &der)
                .unwrap();
            assert_eq!(ours, peer, "{len} bytes");
        }
    }
}
