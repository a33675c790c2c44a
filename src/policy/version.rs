//! The policy format versions: JSON 1.0–4.0, and the Rego decision's. The errors name the
//! version a policy was read as, so it sits below the policy reader and the errors.

/// A policy format version (the policy's `version` member).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PolicyVersion {
    /// `"1.0"`: flat rules over the V1 single token.
    V1,
    /// `"2.0"`: overall and detached rules (written for claims 1.0 detached results).
    V2,
    /// `"3.0"`: the same shape (written for claims 2.0).
    V3,
    /// `"4.0"`: the same shape (written for claims 3.0).
    V4,
    /// Not a JSON version: the decision of a Rego policy (Cargo feature `rego`), `"rego"`.
    Rego,
}

impl PolicyVersion {
    /// The version as a policy writes it (`"4.0"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V1 => "1.0",
            Self::V2 => "2.0",
            Self::V3 => "3.0",
            Self::V4 => "4.0",
            Self::Rego => "rego",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Self> {
        [Self::V1, Self::V2, Self::V3, Self::V4]
            .into_iter()
            .find(|version| version.as_str() == text)
    }
}
