//! Why an OCSP request could not be built or a response was not believed.

use alloc::string::String;
use core::fmt;

use crate::chain::ChainError;
use crate::error_code::ErrorCode;
use crate::host_answer::FetchFailure;
use crate::time::UnixTime;

/// `OCSPResponseStatus` values other than `successful` (RFC 6960 §4.2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ResponseStatus {
    /// `malformedRequest` (1).
    MalformedRequest,
    /// `internalError` (2).
    InternalError,
    /// `tryLater` (3).
    TryLater,
    /// `sigRequired` (5).
    SigRequired,
    /// `unauthorized` (6).
    Unauthorized,
}

impl ResponseStatus {
    /// The RFC 6960 name, e.g. `tryLater`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::MalformedRequest => "malformedRequest",
            Self::InternalError => "internalError",
            Self::TryLater => "tryLater",
            Self::SigRequired => "sigRequired",
            Self::Unauthorized => "unauthorized",
        }
    }
}

/// Why a delegated responder is not believed (RFC 6960 §4.2.2.2).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResponderProblem {
    /// The ResponderID names neither the issuing CA nor a certificate in the response.
    NotInResponse,
    /// The named certificate does not validate as an OCSP responder issued by the issuing
    /// CA at `now` (issuer, `id-kp-OCSPSigning`, keyUsage, validity, profile).
    Certificate(ChainError),
    /// The named certificate's signature does not verify with the issuing CA's key.
    NotIssuedByCa,
}

impl fmt::Display for ResponderProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotInResponse => {
                f.write_str("the responder is neither the issuing CA nor a certificate it sent")
            }
            Self::Certificate(err) => write!(f, "responder certificate: {err}"),
            Self::NotIssuedByCa => {
                f.write_str("the responder certificate is not signed by the issuing CA")
            }
        }
    }
}

/// An OCSP request that cannot be built, or a response that is not believed. A response
/// that fails any check is never "good": the chain's status becomes
/// [`super::ChainRevocation::Failed`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OcspError {
    /// The host could not fetch the response.
    Unavailable(FetchFailure),
    /// A certificate given to build a request is not DER X.509, or the subject's issuer
    /// name is not the issuer's subject.
    InvalidCertificate {
        /// `subject` or `issuer`.
        which: &'static str,
    },
    /// The response is larger than [`super::MAX_RESPONSE_LEN`].
    TooLarge {
        /// Its size in bytes.
        len: usize,
    },
    /// The response is not DER of an `OCSPResponse` / `BasicOCSPResponse` (truncated,
    /// trailing bytes, wrong structure).
    Malformed {
        /// What is wrong, without response content.
        problem: &'static str,
    },
    /// `responseStatus` is not `successful`.
    ResponseStatus(ResponseStatus),
    /// `responseType` is not `id-pkix-ocsp-basic`.
    ResponseType,
    /// The signature algorithm is not ecdsa-with-SHA384 or the signer key is not P-384.
    SignatureAlgorithm,
    /// More than [`super::MAX_SINGLE_RESPONSES`] SingleResponses.
    TooManyResponses,
    /// More than [`super::MAX_RESPONSE_CERTS`] certificates in `certs`.
    TooManyCertificates,
    /// The issuer certificate given to the check is not the issuer the request names.
    IssuerMismatch,
    /// The signer is neither the issuing CA nor a responder it authorised.
    UnauthorizedResponder(ResponderProblem),
    /// The response signature does not verify with the signer's key.
    SignatureInvalid,
    /// No SingleResponse is about the certificate asked about.
    CertIdMismatch,
    /// `thisUpdate` is later than `now` + [`super::OCSP_CLOCK_SKEW`].
    NotYetValid {
        /// thisUpdate.
        this_update: UnixTime,
    },
    /// `nextUpdate` (or `thisUpdate` + [`super::MAX_AGE_WITHOUT_NEXT_UPDATE`] when absent)
    /// is more than [`super::OCSP_CLOCK_SKEW`] before `now`.
    Stale {
        /// Until when the response was current.
        until: UnixTime,
    },
    /// The response echoes a nonce other than the request's (a replayed response).
    NonceMismatch,
    /// A critical extension this verifier does not process.
    CriticalExtension {
        /// Its OID.
        oid: String,
    },
    /// [`super::PendingOcsp::finish`] got a verdict count other than the check count.
    VerdictCount {
        /// Checks handed out.
        expected: usize,
        /// Verdicts received.
        got: usize,
    },
}

impl OcspError {
    /// The real service's code: 5001 ERROR_DURING_OCSP_QUERY for every failure (an
    /// unreachable responder and an invalid response alike). A revoked or unknown
    /// certificate is not an error but a status ([`super::ChainRevocation::service_code`]).
    pub const fn service_code(&self) -> u16 {
        5001
    }
}

impl fmt::Display for OcspError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unavailable(failure) => write!(f, "OCSP unavailable: {failure}"),
            Self::InvalidCertificate { which } => {
                write!(f, "the {which} certificate cannot be asked about")
            }
            Self::TooLarge { len } => write!(
                f,
                "the OCSP response has {len} bytes, more than {}",
                super::MAX_RESPONSE_LEN
            ),
            Self::Malformed { problem } => write!(f, "malformed OCSP response: {problem}"),
            Self::ResponseStatus(status) => {
                write!(f, "the responder answered {}", status.as_str())
            }
            Self::ResponseType => f.write_str("the OCSP response is not a basic response"),
            Self::SignatureAlgorithm => {
                f.write_str("the OCSP response is not signed with ecdsa-with-SHA384 by a P-384 key")
            }
            Self::TooManyResponses => write!(
                f,
                "the OCSP response has more than {} SingleResponses",
                super::MAX_SINGLE_RESPONSES
            ),
            Self::TooManyCertificates => write!(
                f,
                "the OCSP response carries more than {} certificates",
                super::MAX_RESPONSE_CERTS
            ),
            Self::IssuerMismatch => {
                f.write_str("the issuer certificate is not the one the request names")
            }
            Self::UnauthorizedResponder(problem) => {
                write!(f, "unauthorised OCSP responder: {problem}")
            }
            Self::SignatureInvalid => f.write_str("the OCSP response signature does not verify"),
            Self::CertIdMismatch => {
                f.write_str("the OCSP response is not about the certificate asked about")
            }
            Self::NotYetValid { this_update } => {
                write!(
                    f,
                    "the OCSP response is not valid before {}",
                    this_update.as_secs()
                )
            }
            Self::Stale { until } => {
                write!(f, "the OCSP response was current until {}", until.as_secs())
            }
            Self::NonceMismatch => f.write_str("the OCSP response echoes another nonce"),
            Self::CriticalExtension { oid } => {
                write!(
                    f,
                    "the OCSP response has an unknown critical extension {oid}"
                )
            }
            Self::VerdictCount { expected, got } => {
                write!(f, "expected {expected} signature verdicts, got {got}")
            }
        }
    }
}

impl core::error::Error for OcspError {}

impl ErrorCode for OcspError {
    fn code(&self) -> &'static str {
        match self {
            Self::Unavailable(_) => "ERR_OCSP_UNAVAILABLE",
            Self::InvalidCertificate { .. } => "ERR_OCSP_INVALID_CERTIFICATE",
            Self::TooLarge { .. } => "ERR_OCSP_RESPONSE_TOO_LARGE",
            Self::Malformed { .. } => "ERR_OCSP_MALFORMED",
            Self::ResponseStatus(_) => "ERR_OCSP_RESPONSE_STATUS",
            Self::ResponseType => "ERR_OCSP_RESPONSE_TYPE",
            Self::SignatureAlgorithm => "ERR_OCSP_SIGNATURE_ALGORITHM",
            Self::TooManyResponses => "ERR_OCSP_TOO_MANY_RESPONSES",
            Self::TooManyCertificates => "ERR_OCSP_TOO_MANY_CERTIFICATES",
            Self::IssuerMismatch => "ERR_OCSP_ISSUER_MISMATCH",
            Self::UnauthorizedResponder(_) => "ERR_OCSP_UNAUTHORIZED_RESPONDER",
            Self::SignatureInvalid => "ERR_OCSP_SIGNATURE_INVALID",
            Self::CertIdMismatch => "ERR_OCSP_CERT_ID_MISMATCH",
            Self::NotYetValid { .. } => "ERR_OCSP_NOT_YET_VALID",
            Self::Stale { .. } => "ERR_OCSP_STALE",
            Self::NonceMismatch => "ERR_OCSP_NONCE_MISMATCH",
            Self::CriticalExtension { .. } => "ERR_OCSP_CRITICAL_EXTENSION",
            Self::VerdictCount { .. } => "ERR_OCSP_VERDICT_COUNT",
        }
    }
}
