//! Evidence as text: the one decoding rule for every entry that takes evidence — the request
//! validator (the service), the request builder, and evidence verification.
//!
//! Three encodings are in use. NVIDIA's service defines the request fields (spec §2): V3/V4
//! items carry `evidence` as base64 of the transcript bytes (generation 2); V1/V2 items as
//! base64 of the transcript's hex text (generation 1, deprecated). The recorded V3 requests
//! (tests/fixtures/nvidia/nras/teep) are base64 of the bytes. NVIDIA's SDKs hand callers
//! base64 (`get_evidence`); the raw `.hex` files of nvtrust are hex text.
//!
//! - Where a field is defined to be one encoding (the service, or a caller that names
//!   `evidenceEncoding`), text in another is refused with [`EvidenceEncodingError`]
//!   (`ERR_EVIDENCE_ENCODING`), naming the encoding expected and the one found.
//! - Where the caller names none (the builder and verification entries by default), any of
//!   the three is accepted, recognised by [`EvidenceEncoding::detect`].
//!
//! The rule that tells them apart: a transcript's bytes begin with an SPDM
//! GET_MEASUREMENTS request (`0x1?` `0xE0`), so they are never all ASCII hex digits, and the
//! base64 of a real transcript always holds characters outside `0-9a-fA-F`. Hex text of a
//! transcript always holds decimal digits. Degenerate inputs (all-zero buffers, whose base64
//! is `AAAA…`) stay base64 because they hold no decimal digit.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{alphabet, Engine};

use crate::error_code::ErrorCode;

/// Standard base64, padding optional (clients differ; the padding carries no data); no
/// whitespace (RFC 4648 §3.3).
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Under an expected encoding, text that decodes in it is only taken for another encoding
/// from this many characters on: shorter than any transcript (its request alone is 37
/// bytes), long enough that chance cannot produce it.
const SNIFF_MIN_CHARS: usize = 64;

/// How evidence is written as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EvidenceEncoding {
    /// Base64 of the transcript bytes: generation 2 (V3, V4 requests), NVIDIA's SDKs.
    Base64,
    /// Base64 of the transcript's hex text: generation 1 (V1, V2 requests).
    Base64Hex,
    /// Hex text of the transcript (nvtrust's `.hex` files); surrounding whitespace ignored.
    Hex,
}

impl EvidenceEncoding {
    /// Every encoding.
    pub const ALL: [Self; 3] = [Self::Base64, Self::Base64Hex, Self::Hex];

    /// The name used by the JS option `evidenceEncoding`: `base64`, `base64-hex`, `hex`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Base64 => "base64",
            Self::Base64Hex => "base64-hex",
            Self::Hex => "hex",
        }
    }

    /// The encoding named `name` ([`Self::as_str`]).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == name)
    }

    /// A phrase for messages.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Base64 => "base64 of the evidence bytes (\"base64\", generation 2)",
            Self::Base64Hex => "base64 of the evidence's hex text (\"base64-hex\", generation 1)",
            Self::Hex => "hex text (\"hex\")",
        }
    }

    /// The encoding `text` is written in, from its characters alone; `None` when it is none
    /// of the three.
    ///
    /// Hex when every character is a hex digit, the count is even, and it holds a decimal
    /// digit or is not base64; else base64 of hex text when it decodes as base64 to hex
    /// digits (a trailing newline allowed); else base64 when it decodes.
    pub fn detect(text: &str) -> Option<Self> {
        Self::classify(text, BASE64.decode(text).ok().as_deref())
    }

    /// [`Self::detect`] with `text`'s base64 decoding (`None`: not base64) already made.
    fn classify(text: &str, base64: Option<&[u8]>) -> Option<Self> {
        let trimmed = text.trim_ascii();
        let hex_chars = !trimmed.is_empty()
            && trimmed.len() % 2 == 0
            && trimmed.bytes().all(|b| b.is_ascii_hexdigit());
        if hex_chars && (base64.is_none() || trimmed.bytes().any(|b| b.is_ascii_digit())) {
            return Some(Self::Hex);
        }
        let inner = base64?.trim_ascii();
        if !inner.is_empty() && inner.iter().all(u8::is_ascii_hexdigit) {
            Some(Self::Base64Hex)
        } else {
            Some(Self::Base64)
        }
    }

    /// Decodes `text` in this encoding, with nothing guessed; `base64` is `text`'s base64
    /// decoding (`None`: not base64), made once for detection and decoding.
    fn decode(self, text: &str, base64: Option<Vec<u8>>) -> Option<Vec<u8>> {
        match self {
            Self::Base64 => base64,
            Self::Base64Hex => hex::decode(base64?.trim_ascii()).ok(),
            Self::Hex => hex::decode(text.trim_ascii()).ok(),
        }
    }
}

impl fmt::Display for EvidenceEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Evidence text not in the encoding expected (`ERR_EVIDENCE_ENCODING`): names the field,
/// the encoding expected (`None`: any of the three) and the one found (`None`: none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvidenceEncodingError {
    /// The member, e.g. `evidence_list[0].evidence`.
    pub field: String,
    /// The encoding the field is defined in, or `None` when any was accepted.
    pub expected: Option<EvidenceEncoding>,
    /// The encoding the text is in, or `None` when it is in none of them.
    pub found: Option<EvidenceEncoding>,
}

impl fmt::Display for EvidenceEncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let found = self
            .found
            .map_or("neither hex nor base64 text", EvidenceEncoding::describe);
        match self.expected {
            Some(expected) if self.found == Some(expected) => {
                write!(f, "{} is not valid {}", self.field, expected.describe())
            }
            Some(expected) => write!(
                f,
                "{} is {found}, but {} is expected",
                self.field,
                expected.describe()
            ),
            None => write!(
                f,
                "{} is {found}; expected bytes, hex text, or base64 of the bytes or of their \
                 hex text",
                self.field
            ),
        }
    }
}

impl core::error::Error for EvidenceEncodingError {}

impl ErrorCode for EvidenceEncodingError {
    fn code(&self) -> &'static str {
        "ERR_EVIDENCE_ENCODING"
    }

    fn field(&self) -> Option<&str> {
        Some(&self.field)
    }
}

/// Decodes evidence text: in `expected` when given (text in another encoding is refused,
/// naming both), else in whichever of the three it is written ([`EvidenceEncoding::detect`]).
///
/// # Errors
/// [`EvidenceEncodingError`] naming `field`.
pub fn decode_evidence_text(
    text: &str,
    expected: Option<EvidenceEncoding>,
    field: &str,
) -> Result<Vec<u8>, EvidenceEncodingError> {
    // Decoded once: the evidence is the largest member of a request.
    let base64 = BASE64.decode(text).ok();
    let found = EvidenceEncoding::classify(text, base64.as_deref());
    let refuse = |found| EvidenceEncodingError {
        field: field.into(),
        expected,
        found,
    };
    let Some(expected) = expected else {
        return found
            .and_then(|encoding| encoding.decode(text, base64))
            .ok_or_else(|| refuse(None));
    };
    match expected.decode(text, base64) {
        // Valid as expected, but unmistakably another encoding: the caller's mix-up, which
        // would otherwise surface later as an unparsable transcript.
        Some(_) if found != Some(expected) && misread(text, found) => Err(refuse(found)),
        Some(bytes) => Ok(bytes),
        None => Err(refuse(found)),
    }
}

/// Whether text that decodes as base64 is long enough to be trusted as the `found` encoding
/// instead. Base64 padding is not counted: it carries no data, and the same bytes must get
/// the same answer whether a client pads or not (found by the fuzz smoke: 63 unpadded
/// characters were accepted, their canonical 64-character form refused).
fn misread(text: &str, found: Option<EvidenceEncoding>) -> bool {
    match found {
        Some(EvidenceEncoding::Hex) => text.trim_ascii().len() >= SNIFF_MIN_CHARS,
        Some(EvidenceEncoding::Base64Hex) => text.trim_end_matches('=').len() >= SNIFF_MIN_CHARS,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_the_three_encodings() {
        use EvidenceEncoding::{Base64, Base64Hex, Hex};
        assert_eq!(EvidenceEncoding::detect("11e001ff"), Some(Hex));
        assert_eq!(EvidenceEncoding::detect(" 11E001FF\n"), Some(Hex));
        assert_eq!(EvidenceEncoding::detect("EeAB/w=="), Some(Base64));
        // All-zero bytes: base64 `AAAA`, hex characters but no decimal digit.
        assert_eq!(EvidenceEncoding::detect("AAAAAAAA"), Some(Base64));
        assert_eq!(EvidenceEncoding::detect("MTFlMDAxZmYK"), Some(Base64Hex));
        assert_eq!(EvidenceEncoding::detect("%%"), None);
        // Empty text is empty base64: the transcript parser refuses the empty evidence.
        assert_eq!(EvidenceEncoding::detect(""), Some(Base64));
    }
}
