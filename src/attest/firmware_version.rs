//! The optional `firmware_version` member of a generation-2 evidence item (spec §2).

use alloc::string::String;
use core::fmt;

/// A firmware version hint: dotted groups of hexadecimal digits, such as `96.00.9F.00.01`
/// (a VBIOS version) or `01.00.00.00.01` (the Blackwell FSP `fwversion` hint).
///
/// The spec says only "dotted groups of hex-like characters". We accept 2 to 16 groups of 1
/// to 8 hexadecimal digits, at most 64 characters in all — wide enough for every version
/// NVIDIA prints, narrow enough that the value can be used in a RIM id without escaping. The
/// text is kept as given (case included); comparison with RIM ids is case-insensitive.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FirmwareVersion(String);

impl FirmwareVersion {
    /// Longest accepted text.
    pub const MAX_LEN: usize = 64;
    const MAX_GROUPS: usize = 16;
    const MAX_GROUP_LEN: usize = 8;

    /// Parses and keeps the text; `None` when it is not of the documented form.
    pub fn parse(text: &str) -> Option<Self> {
        if text.len() > Self::MAX_LEN {
            return None;
        }
        let mut groups = 0usize;
        for group in text.split('.') {
            groups += 1;
            let well_formed = !group.is_empty()
                && group.len() <= Self::MAX_GROUP_LEN
                && group.bytes().all(|b| b.is_ascii_hexdigit());
            if !well_formed || groups > Self::MAX_GROUPS {
                return None;
            }
        }
        (groups >= 2).then(|| Self(text.into()))
    }

    /// The text as given.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for FirmwareVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_real_versions() {
        for ok in [
            "96.00.9F.00.01",
            "01.00.00.00.01",
            "97.00.88.00.0f",
            "96.10.55.00.01",
            "1.0",
        ] {
            assert_eq!(FirmwareVersion::parse(ok).unwrap().as_str(), ok);
        }
    }

    #[test]
    fn refuses_other_text() {
        for bad in [
            "",
            "96",
            "96..00",
            ".96.00",
            "96.00.",
            "96.0G",
            "96 00",
            "96.00.9F.00.01\n",
            "123456789.0",
        ] {
            assert_eq!(FirmwareVersion::parse(bad), None, "{bad:?}");
        }
        let many = ["0"; 17].join(".");
        assert_eq!(FirmwareVersion::parse(&many), None);
        let long = ["00000000"; 8].join(".");
        assert_eq!(FirmwareVersion::parse(&long), None);
    }
}
