//! Why a bundle cannot be replayed at all (a bundle that replays to another verdict is not
//! an error: it is a [`super::Replayed`] with its differences).

use alloc::string::String;
use core::fmt;

use crate::crypto::KeyError;
use crate::error_code::ErrorCode;

/// A bundle that cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError {
    /// Larger than [`super::MAX_BUNDLE_BYTES`].
    TooLarge {
        /// Its length in bytes.
        len: usize,
        /// The most read.
        max: usize,
    },
    /// Not strict JSON (syntax, duplicate members, nesting) or not the bundle's shape.
    Shape {
        /// What is wrong.
        message: String,
    },
    /// A `format` this version does not read.
    Format {
        /// The bundle's `format`.
        found: String,
        /// The one this version reads.
        expected: &'static str,
    },
    /// A member whose value does not decode.
    Field {
        /// Its path, e.g. `fetches[2].value.answer`.
        field: String,
        /// What is wrong.
        problem: &'static str,
    },
    /// More fetched answers or held documents than a bundle holds.
    Budget {
        /// `fetches` or `rims`.
        what: &'static str,
        /// How many it holds.
        count: usize,
        /// The most read.
        max: usize,
    },
    /// The replayer's anchors (`trustAnchors`, `rimTrustAnchors`) do not read: the options error's
    /// code and message.
    Anchors {
        /// The option.
        field: &'static str,
        /// The chain error's code.
        code: &'static str,
        /// Its message.
        message: String,
    },
    /// The ephemeral key could not be made from the randomness given.
    Key(KeyError),
    /// The replayed exchange refused an answer (a bug: the replay drives it itself): the
    /// exchange's error.
    Exchange {
        /// Its code.
        code: &'static str,
        /// Its message.
        message: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { len, max } => {
                write!(f, "the bundle is {len} bytes; at most {max} are read")
            }
            Self::Shape { message } => write!(f, "the bundle is not a replay bundle: {message}"),
            Self::Format { found, expected } => write!(
                f,
                "the bundle's format is {found:?}; this version reads {expected:?}"
            ),
            Self::Field { field, problem } => write!(f, "the bundle's {field} {problem}"),
            Self::Budget { what, count, max } => {
                write!(f, "the bundle holds {count} {what}; at most {max} are read")
            }
            Self::Anchors { field, message, .. } => {
                write!(f, "the replay's {field} do not read: {message}")
            }
            Self::Key(error) => write!(f, "the replay key could not be made: {error}"),
            Self::Exchange { message, .. } => {
                write!(f, "the replayed exchange failed: {message}")
            }
        }
    }
}

impl core::error::Error for ReplayError {}

impl ErrorCode for ReplayError {
    fn code(&self) -> &'static str {
        match self {
            Self::TooLarge { .. } => "ERR_REPLAY_BUNDLE_TOO_LARGE",
            Self::Shape { .. } => "ERR_REPLAY_BUNDLE_SHAPE",
            Self::Format { .. } => "ERR_REPLAY_BUNDLE_FORMAT",
            Self::Field { .. } => "ERR_REPLAY_BUNDLE_FIELD",
            Self::Budget { .. } => "ERR_REPLAY_BUNDLE_BUDGET",
            Self::Anchors { code, .. } | Self::Exchange { code, .. } => code,
            Self::Key(error) => error.code(),
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Field { field, .. } => Some(field),
            Self::Anchors { field, .. } => Some(field),
            _ => None,
        }
    }
}
