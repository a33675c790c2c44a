//! The caller's nonce: 32 bytes, written as 64 hexadecimal characters (spec §2, §8).

use alloc::string::String;
use core::fmt;

/// A 32-byte attestation nonce.
///
/// The request carries it as exactly 64 hexadecimal characters; either case is read, and the
/// canonical form (tokens' `eat_nonce`, [`Nonce::to_hex`]) is lowercase, as the real service
/// writes it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Nonce([u8; Nonce::LEN]);

/// Why a nonce string was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NonceProblem {
    /// Not 64 characters long (the length in bytes of the UTF-8 text).
    Length(usize),
    /// A character at this 0-based byte offset is not a hexadecimal digit.
    NotHex(usize),
}

impl fmt::Display for NonceProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length(len) => {
                write!(
                    f,
                    "must be exactly {} hexadecimal characters, got {len}",
                    Nonce::HEX_LEN
                )
            }
            Self::NotHex(at) => write!(f, "character at offset {at} is not hexadecimal"),
        }
    }
}

impl Nonce {
    /// Length in bytes.
    pub const LEN: usize = 32;
    /// Length of the hex text.
    pub const HEX_LEN: usize = 64;

    /// A nonce from raw bytes, typically 32 bytes of the host's randomness.
    pub const fn from_bytes(bytes: [u8; Self::LEN]) -> Self {
        Self(bytes)
    }

    /// Parses the 64-character hex text.
    ///
    /// # Errors
    /// [`NonceProblem`] saying what is wrong.
    pub fn parse(text: &str) -> Result<Self, NonceProblem> {
        if text.len() != Self::HEX_LEN {
            return Err(NonceProblem::Length(text.len()));
        }
        if let Some(at) = text.bytes().position(|b| !b.is_ascii_hexdigit()) {
            return Err(NonceProblem::NotHex(at));
        }
        let mut bytes = [0u8; Self::LEN];
        hex::decode_to_slice(text, &mut bytes).map_err(|_| NonceProblem::NotHex(0))?;
        Ok(Self(bytes))
    }

    /// The raw bytes.
    pub const fn as_bytes(&self) -> &[u8; Self::LEN] {
        &self.0
    }

    /// Lowercase hex, 64 characters.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Debug for Nonce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Nonce({})", self.to_hex())
    }
}

impl fmt::Display for Nonce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";

    #[test]
    fn parses_and_prints_lowercase() {
        let nonce = Nonce::parse(SAMPLE).unwrap();
        assert_eq!(nonce.to_hex(), SAMPLE);
        assert_eq!(nonce.as_bytes()[0], 0x93);
        let upper = Nonce::parse(&SAMPLE.to_ascii_uppercase()).unwrap();
        assert_eq!(upper, nonce);
        assert_eq!(upper.to_hex(), SAMPLE);
    }

    #[test]
    fn refuses_wrong_length_and_non_hex() {
        assert_eq!(Nonce::parse(&SAMPLE[..63]), Err(NonceProblem::Length(63)));
        assert_eq!(Nonce::parse(""), Err(NonceProblem::Length(0)));
        let mut long = String::from(SAMPLE);
        long.push('0');
        assert_eq!(Nonce::parse(&long), Err(NonceProblem::Length(65)));
        let bad = alloc::format!("{}g", &SAMPLE[..63]);
        assert_eq!(Nonce::parse(&bad), Err(NonceProblem::NotHex(63)));
        // 64 bytes but 63 characters: a multi-byte character never passes as hex.
        let multibyte = alloc::format!("é{}", &SAMPLE[..62]);
        assert_eq!(Nonce::parse(&multibyte), Err(NonceProblem::NotHex(0)));
    }

    #[test]
    fn from_bytes_round_trips() {
        let nonce = Nonce::from_bytes([0xab; 32]);
        assert_eq!(Nonce::parse(&nonce.to_hex()), Ok(nonce));
    }
}
