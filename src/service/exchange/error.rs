//! What a host's answer that does not fit the exchange is.

use core::fmt;

use super::fetch_round::Misfit;
use crate::error_code::ErrorCode;
use crate::token::TokenError;

/// A host's answer that does not fit the exchange.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExchangeError {
    /// Verdicts when signatures are awaited, or the reverse, or anything once the response
    /// is ready.
    UnexpectedAnswer {
        /// What the exchange waits for: `verdicts`, `RIM documents`, `signatures` or
        /// `nothing`.
        awaiting: &'static str,
    },
    /// Not one answer per check or signing input.
    AnswerCount {
        /// Checks or inputs handed out.
        expected: usize,
        /// Answers given.
        got: usize,
    },
    /// A signature that is not 96 bytes of `r‖s` with both in range.
    Signature(TokenError),
    /// An answer to a resource the fetch round does not have, or has an answer for.
    FetchIndex {
        /// The index given.
        index: usize,
    },
}

impl fmt::Display for ExchangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnexpectedAnswer { awaiting } => {
                write!(
                    f,
                    "the exchange is not waiting for this answer: it awaits {awaiting}"
                )
            }
            Self::AnswerCount { expected, got } => {
                write!(f, "expected {expected} answers, got {got}")
            }
            Self::Signature(error) => write!(f, "a signature is malformed: {error}"),
            Self::FetchIndex { index } => write!(
                f,
                "no resource {index} awaits an answer (answered already, or not handed out)"
            ),
        }
    }
}

impl core::error::Error for ExchangeError {}

impl ErrorCode for ExchangeError {
    fn code(&self) -> &'static str {
        match self {
            Self::UnexpectedAnswer { .. } => "ERR_EXCHANGE_UNEXPECTED_ANSWER",
            Self::AnswerCount { .. } => "ERR_EXCHANGE_ANSWER_COUNT",
            Self::Signature(error) => error.code(),
            Self::FetchIndex { .. } => "ERR_EXCHANGE_FETCH_INDEX",
        }
    }
}

/// A batch answer the round cannot take: a resource answered twice, or a batch answered
/// whole after part of it was answered one by one.
pub(super) fn misfit(misfit: Misfit) -> ExchangeError {
    match misfit {
        Misfit::Index { index } => ExchangeError::FetchIndex { index },
        Misfit::Mixed => ExchangeError::UnexpectedAnswer {
            awaiting: "the rest of the fetched resources, one by one",
        },
    }
}
