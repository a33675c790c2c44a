//! base64url without padding (RFC 7515 §2, RFC 4648 §5): the only encoding JOSE allows.

use alloc::string::String;
use alloc::vec::Vec;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

/// Encodes `bytes` as base64url without padding.
pub(crate) fn encode(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes strict base64url: no padding, no whitespace, no standard-alphabet characters,
/// no non-zero trailing bits (so each byte string has exactly one encoding).
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_decoding() {
        assert_eq!(decode("Zm9v").as_deref(), Some(&b"foo"[..]));
        assert_eq!(decode("Zm8").as_deref(), Some(&b"fo"[..]));
        assert_eq!(decode("Zm8="), None, "padding");
        assert_eq!(decode("Zm9"), None, "non-zero trailing bits");
        assert_eq!(decode("+/8"), None, "standard alphabet");
        assert_eq!(decode("-_8").as_deref(), Some(&[0xfb, 0xff][..]));
        assert_eq!(decode("Zm 9v"), None, "whitespace");
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
    }
}
