//! The API-key text format: a type prefix, 256 random bits and a checksum.
//!
//! ```text
//! eak_per_2pVv3H0fQmZK8rN1sXw4yBc7dLe9gTjU5oIaRkFqSh6_0b1XyZ
//! └┬┘ └┬┘ └──────────────── 43 base62 ───────────────┘ └6┘
//!  │   └ type: per (personal) or svc (service)          └ CRC-32 of everything before it, base62
//!  └ product prefix
//! ```
//!
//! The prefix makes leaked keys greppable and lets secret scanners recognise them; the
//! checksum lets anyone reject a mistyped or made-up key offline, before hashing or a store
//! lookup (the GitHub token design). The alphabet has no `_`, so
//! the three parts split unambiguously, and every character is an RFC 6750 `b64token`
//! character, so the key travels unchanged in `Authorization: Bearer`.
//!
//! The key text is the secret. Services keep only its SHA-256 digest ([`KeyDigest`]).

use alloc::string::String;
use core::fmt;

use super::digest::KeyDigest;
use super::error::KeyFormatError;

/// The product prefix of every key.
pub const KEY_PREFIX: &str = "eak_";
/// Base62 characters of the random part: 62^43 > 2^256, so 32 bytes always fit.
pub const RANDOM_CHARS: usize = 43;
/// Base62 characters of the checksum: 62^6 > 2^32.
pub const CHECKSUM_CHARS: usize = 6;
/// The length of every key: `eak_` + type (3) + `_` + 43 + `_` + 6.
pub const KEY_LEN: usize = KEY_PREFIX.len() + 3 + 1 + RANDOM_CHARS + 1 + CHECKSUM_CHARS;

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Whose key it is, and so where its scopes come from (spec §5, "Key types").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum KeyType {
    /// Tied to a user; scopes derive from the user's roles. Text tag `per`.
    Personal,
    /// Tied to the organization; scopes chosen at creation. Text tag `svc`.
    Service,
}

impl KeyType {
    /// The three-letter tag in the key text.
    pub const fn tag(self) -> &'static str {
        match self {
            Self::Personal => "per",
            Self::Service => "svc",
        }
    }

    /// The name in key records and JSON: `personal` or `service`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Personal => "personal",
            Self::Service => "service",
        }
    }

    /// Parses a record name (`personal`, `service`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "personal" => Some(Self::Personal),
            "service" => Some(Self::Service),
            _ => None,
        }
    }

    fn from_tag(tag: &str) -> Option<Self> {
        match tag {
            "per" => Some(Self::Personal),
            "svc" => Some(Self::Service),
            _ => None,
        }
    }
}

impl fmt::Display for KeyType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A well-formed API key. Its text is secret: `Debug` and [`ApiKey::redacted`] show only the
/// type and the last four checksum characters.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey {
    text: String,
    key_type: KeyType,
}

impl ApiKey {
    /// A new key from 32 random bytes supplied by the caller (the core has no randomness
    /// source; the JS binding uses `crypto.getRandomValues`).
    pub fn generate(key_type: KeyType, random: &[u8; 32]) -> Self {
        let mut text = String::with_capacity(KEY_LEN);
        text.push_str(KEY_PREFIX);
        text.push_str(key_type.tag());
        text.push('_');
        push_base62(&mut text, random, RANDOM_CHARS);
        let checksum = crc32(text.as_bytes());
        text.push('_');
        push_base62(&mut text, &checksum.to_be_bytes(), CHECKSUM_CHARS);
        Self { text, key_type }
    }

    /// Checks the format and checksum of a presented key, without any store lookup.
    ///
    /// # Errors
    /// [`KeyFormatError`] naming the first problem: length, prefix, type, alphabet or
    /// checksum.
    pub fn parse(text: &str) -> Result<Self, KeyFormatError> {
        if text.len() != KEY_LEN {
            return Err(KeyFormatError::Length {
                expected: KEY_LEN,
                actual: text.len(),
            });
        }
        let rest = text
            .strip_prefix(KEY_PREFIX)
            .ok_or(KeyFormatError::Prefix)?;
        let (tag, rest) = rest.split_at_checked(3).ok_or(KeyFormatError::Prefix)?;
        let key_type = KeyType::from_tag(tag).ok_or(KeyFormatError::Type)?;
        let rest = rest.strip_prefix('_').ok_or(KeyFormatError::Type)?;
        let (random, rest) = rest
            .split_at_checked(RANDOM_CHARS)
            .ok_or(KeyFormatError::Charset)?;
        let checksum = rest.strip_prefix('_').ok_or(KeyFormatError::Charset)?;
        if !random.bytes().all(is_base62) || !checksum.bytes().all(is_base62) {
            return Err(KeyFormatError::Charset);
        }
        let body_len = text.len() - CHECKSUM_CHARS - 1;
        let body = text.get(..body_len).ok_or(KeyFormatError::Charset)?;
        let mut expected = String::with_capacity(CHECKSUM_CHARS);
        push_base62(
            &mut expected,
            &crc32(body.as_bytes()).to_be_bytes(),
            CHECKSUM_CHARS,
        );
        if expected != checksum {
            return Err(KeyFormatError::Checksum);
        }
        Ok(Self {
            text: String::from(text),
            key_type,
        })
    }

    /// The key text: the secret to hand to its holder once.
    pub fn expose_secret(&self) -> &str {
        &self.text
    }

    /// Personal or service.
    pub const fn key_type(&self) -> KeyType {
        self.key_type
    }

    /// The SHA-256 digest under which a store keeps the key.
    pub fn digest(&self) -> KeyDigest {
        KeyDigest::of_key_text(&self.text)
    }

    /// A non-secret label for logs and UIs: `eak_per_…XyZw`.
    pub fn redacted(&self) -> String {
        let tail = self.text.get(KEY_LEN - 4..).unwrap_or("");
        alloc::format!("{KEY_PREFIX}{}_…{tail}", self.key_type.tag())
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ApiKey").field(&self.redacted()).finish()
    }
}

const fn is_base62(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
}

/// Appends `bytes` (a big-endian number) as exactly `width` base62 digits, most significant
/// first, zero-padded. `width` must be large enough; digits beyond it would be dropped, so
/// callers use the constants above, which fit with room to spare.
fn push_base62(out: &mut String, bytes: &[u8], width: usize) {
    let mut number: alloc::vec::Vec<u8> = bytes.into();
    let mut digits = alloc::vec![b'0'; width];
    for slot in digits.iter_mut().rev() {
        // Long division of the big-endian number by 62; the remainder is the next digit.
        let mut remainder: u32 = 0;
        for byte in number.iter_mut() {
            let value = (remainder << 8) | u32::from(*byte);
            // value < 62 * 256, so the quotient fits a byte.
            *byte = (value / 62) as u8;
            remainder = value % 62;
        }
        *slot = BASE62.get(remainder as usize).copied().unwrap_or(b'0');
    }
    for digit in digits {
        out.push(char::from(digit));
    }
}

/// CRC-32 (ISO-HDLC / IEEE 802.3, as zlib and GitHub tokens use): reflected polynomial
/// `0xEDB88320`, initial value and final XOR `0xFFFFFFFF`. Bitwise: keys are 51 bytes, so a
/// lookup table would not pay for its 1 KiB.
pub(crate) fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_check_value() {
        // The catalogue check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn base62_extremes() {
        let mut zero = String::new();
        push_base62(&mut zero, &[0; 32], RANDOM_CHARS);
        assert_eq!(zero, "0".repeat(RANDOM_CHARS));
        let mut max = String::new();
        push_base62(&mut max, &[0xFF; 32], RANDOM_CHARS);
        // 2^256 - 1 needs all 43 digits and starts with the digit for 2^256 / 62^42.
        assert_eq!(max.len(), RANDOM_CHARS);
        assert_ne!(max.as_bytes()[0], b'0');
        let mut crc = String::new();
        push_base62(&mut crc, &u32::MAX.to_be_bytes(), CHECKSUM_CHARS);
        assert_eq!(crc, "4gfFC3"); // 4294967295 in base62
    }
}
