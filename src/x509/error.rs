//! Why a certificate chain was refused.

use alloc::string::String;
use core::fmt;

use super::Purpose;
use crate::error_code::ErrorCode;
use crate::time::UnixTime;

/// Where a certificate sits: in the supplied chain (0 = leaf) or in the trust store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CertPosition {
    /// The certificate at this index of the supplied chain (0 = leaf).
    Chain(usize),
    /// The trust anchor at this index of the trust store.
    Anchor(usize),
}

impl fmt::Display for CertPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Chain(i) => write!(f, "certificate {i} of the chain"),
            Self::Anchor(i) => write!(f, "trust anchor {i}"),
        }
    }
}

/// A certificate chain that does not validate (RFC 5280 §6.1, in the profile of
/// [`crate::chain::ChainOptions`]).
///
/// Time failures ([`Self::Expired`], [`Self::NotYetValid`]) are errors only with
/// [`crate::chain::TimeCheck::Enforce`]; by default they are reported in
/// [`crate::chain::VerifiedChain::status`], as the real service reports them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChainError {
    /// The text holds no PEM certificate, or a PEM block is malformed (RFC 7468).
    Pem {
        /// 0-based index of the PEM block that is wrong.
        index: usize,
    },
    /// No certificate was supplied.
    Empty,
    /// More certificates than [`super::MAX_CHAIN_CERTIFICATES`] were supplied.
    TooManyCertificates {
        /// The number supplied.
        count: usize,
    },
    /// A certificate is not DER-encoded X.509 (RFC 5280 §4.1).
    Malformed {
        /// The certificate.
        at: CertPosition,
    },
    /// A certificate on the path is not version 3.
    UnsupportedVersion {
        /// The certificate.
        at: CertPosition,
    },
    /// A serial number on the path is zero, negative or longer than 20 octets
    /// (RFC 5280 §4.1.2.2).
    InvalidSerialNumber {
        /// The certificate.
        at: CertPosition,
    },
    /// A certificate on the path is not signed with ecdsa-with-SHA384, or its outer and
    /// inner signature algorithms differ (RFC 5280 §4.1.1.2).
    UnsupportedSignatureAlgorithm {
        /// The certificate.
        at: CertPosition,
    },
    /// A key on the path is not an EC P-384 key with a named curve (RFC 5480 §2.1.1).
    UnsupportedPublicKey {
        /// The certificate.
        at: CertPosition,
    },
    /// An extension appears twice (RFC 5280 §4.2).
    DuplicateExtension {
        /// The certificate.
        at: CertPosition,
        /// Dotted OID of the extension.
        oid: String,
    },
    /// A known extension does not decode, or breaks its RFC 5280 rules (e.g. a critical
    /// authority key identifier or authority information access).
    InvalidExtension {
        /// The certificate.
        at: CertPosition,
        /// Dotted OID of the extension.
        oid: String,
    },
    /// A certificate on the path carries a critical extension this verifier does not
    /// process (RFC 5280 §4.2).
    UnknownCriticalExtension {
        /// The certificate.
        at: CertPosition,
        /// Dotted OID of the extension.
        oid: String,
    },
    /// A certificate on the path has an empty issuer, or a CA has an empty subject.
    EmptyName {
        /// The certificate.
        at: CertPosition,
    },
    /// No certificate in the chain or the trust store issued this certificate: a link is
    /// missing (e.g. a device chain without its BROM certificate).
    IssuerNotFound {
        /// The certificate whose issuer is missing.
        at: CertPosition,
    },
    /// The chain ends in a self-signed root that is not in the trust store.
    UntrustedRoot {
        /// The supplied root.
        at: CertPosition,
    },
    /// An issuer is not a CA: basicConstraints is absent, not critical, or has cA FALSE
    /// (RFC 5280 §4.2.1.9).
    IssuerNotCa {
        /// The issuer.
        at: CertPosition,
    },
    /// An issuer's keyUsage lacks keyCertSign (RFC 5280 §4.2.1.3).
    IssuerWithoutKeyCertSign {
        /// The issuer.
        at: CertPosition,
    },
    /// More CA certificates follow a CA than its pathLenConstraint allows (RFC 5280 §4.2.1.9).
    PathLenExceeded {
        /// The CA whose constraint is violated.
        at: CertPosition,
    },
    /// The path needs more intermediates than [`crate::chain::ChainOptions::max_intermediates`].
    PathTooLong,
    /// Path building tried more candidate issuers than its budget allows (a pool crafted
    /// to make path building exponential).
    BuildBudgetExhausted,
    /// The leaf is a CA (basicConstraints cA TRUE) or asserts keyCertSign.
    LeafIsCa,
    /// The leaf's keyUsage does not allow `digitalSignature`, which its purpose needs
    /// (RFC 5280 §4.2.1.3).
    KeyUsage {
        /// The certificate.
        at: CertPosition,
        /// What it was to be used for.
        purpose: Purpose,
    },
    /// The leaf's extendedKeyUsage (critical or not) does not allow its purpose, or an OCSP
    /// responder lacks `id-kp-OCSPSigning` (RFC 5280 §4.2.1.12, RFC 6960 §4.2.2.2).
    ExtendedKeyUsage {
        /// The certificate.
        at: CertPosition,
        /// What it was to be used for.
        purpose: Purpose,
    },
    /// An authority or subject key identifier is missing where RFC 5280 §4.2.1.1/§4.2.1.2
    /// requires it, or a root's authority key identifier does not match its own key.
    KeyIdentifier {
        /// The certificate.
        at: CertPosition,
    },
    /// The issuer's signature over a certificate does not verify.
    SignatureInvalid {
        /// The certificate whose signature fails.
        at: CertPosition,
    },
    /// A certificate on the path expired before `now` (only with
    /// [`crate::chain::TimeCheck::Enforce`]).
    Expired {
        /// The certificate.
        at: CertPosition,
        /// Its notAfter.
        not_after: UnixTime,
    },
    /// A certificate on the path is not valid until after `now` (only with
    /// [`crate::chain::TimeCheck::Enforce`]).
    NotYetValid {
        /// The certificate.
        at: CertPosition,
        /// Its notBefore.
        not_before: UnixTime,
    },
    /// [`crate::chain::ChainPlan::finish`] got a number of verdicts different from the number of
    /// signature checks.
    VerdictCount {
        /// The number of checks.
        expected: usize,
        /// The number of verdicts received.
        got: usize,
    },
}

impl fmt::Display for ChainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pem { index } => write!(f, "PEM block {index} is not a certificate"),
            Self::Empty => f.write_str("the certificate chain is empty"),
            Self::TooManyCertificates { count } => write!(
                f,
                "{count} certificates exceed the limit of {}",
                super::MAX_CHAIN_CERTIFICATES
            ),
            Self::Malformed { at } => write!(f, "{at} is not a DER X.509 certificate"),
            Self::UnsupportedVersion { at } => write!(f, "{at} is not an X.509 v3 certificate"),
            Self::InvalidSerialNumber { at } => write!(f, "{at} has an invalid serial number"),
            Self::UnsupportedSignatureAlgorithm { at } => {
                write!(f, "{at} is not signed with ecdsa-with-SHA384")
            }
            Self::UnsupportedPublicKey { at } => write!(f, "{at} does not hold a P-384 key"),
            Self::DuplicateExtension { at, oid } => write!(f, "{at} repeats extension {oid}"),
            Self::InvalidExtension { at, oid } => write!(f, "{at} has an invalid extension {oid}"),
            Self::UnknownCriticalExtension { at, oid } => {
                write!(f, "{at} has an unknown critical extension {oid}")
            }
            Self::EmptyName { at } => write!(f, "{at} has an empty issuer or CA subject"),
            Self::IssuerNotFound { at } => write!(f, "the issuer of {at} is not in the chain"),
            Self::UntrustedRoot { at } => {
                write!(f, "{at} is a root that is not in the trust store")
            }
            Self::IssuerNotCa { at } => write!(f, "{at} issues certificates but is not a CA"),
            Self::IssuerWithoutKeyCertSign { at } => {
                write!(f, "{at} issues certificates without keyCertSign")
            }
            Self::PathLenExceeded { at } => write!(f, "the path violates the pathLen of {at}"),
            Self::PathTooLong => f.write_str("the path has too many intermediates"),
            Self::BuildBudgetExhausted => f.write_str("path building exceeded its budget"),
            Self::LeafIsCa => f.write_str("the leaf certificate is a CA"),
            Self::KeyIdentifier { at } => {
                write!(f, "{at} has a missing or inconsistent key identifier")
            }
            Self::KeyUsage { at, purpose } => {
                write!(
                    f,
                    "the keyUsage of {at} does not allow digitalSignature ({purpose})"
                )
            }
            Self::ExtendedKeyUsage { at, purpose } => {
                write!(
                    f,
                    "the extendedKeyUsage of {at} does not allow its use as {purpose}"
                )
            }
            Self::SignatureInvalid { at } => write!(f, "the signature of {at} does not verify"),
            Self::Expired { at, not_after } => {
                write!(f, "{at} expired at {}", not_after.as_secs())
            }
            Self::NotYetValid { at, not_before } => {
                write!(f, "{at} is not valid before {}", not_before.as_secs())
            }
            Self::VerdictCount { expected, got } => {
                write!(f, "expected {expected} signature verdicts, got {got}")
            }
        }
    }
}

impl core::error::Error for ChainError {}

impl ErrorCode for ChainError {
    fn code(&self) -> &'static str {
        match self {
            Self::Pem { .. } => "ERR_CHAIN_PEM",
            Self::Empty => "ERR_CHAIN_EMPTY",
            Self::TooManyCertificates { .. } => "ERR_CHAIN_TOO_MANY_CERTIFICATES",
            Self::Malformed { .. } => "ERR_CERT_MALFORMED",
            Self::UnsupportedVersion { .. } => "ERR_CERT_VERSION",
            Self::InvalidSerialNumber { .. } => "ERR_CERT_SERIAL_NUMBER",
            Self::UnsupportedSignatureAlgorithm { .. } => "ERR_CERT_SIGNATURE_ALGORITHM",
            Self::UnsupportedPublicKey { .. } => "ERR_CERT_PUBLIC_KEY",
            Self::DuplicateExtension { .. } => "ERR_CERT_DUPLICATE_EXTENSION",
            Self::InvalidExtension { .. } => "ERR_CERT_INVALID_EXTENSION",
            Self::UnknownCriticalExtension { .. } => "ERR_CERT_UNKNOWN_CRITICAL_EXTENSION",
            Self::EmptyName { .. } => "ERR_CERT_EMPTY_NAME",
            Self::IssuerNotFound { .. } => "ERR_CHAIN_ISSUER_NOT_FOUND",
            Self::UntrustedRoot { .. } => "ERR_CHAIN_UNTRUSTED_ROOT",
            Self::IssuerNotCa { .. } => "ERR_CHAIN_ISSUER_NOT_CA",
            Self::IssuerWithoutKeyCertSign { .. } => "ERR_CHAIN_ISSUER_NO_KEY_CERT_SIGN",
            Self::PathLenExceeded { .. } => "ERR_CHAIN_PATH_LEN",
            Self::PathTooLong => "ERR_CHAIN_TOO_LONG",
            Self::BuildBudgetExhausted => "ERR_CHAIN_BUILD_BUDGET",
            Self::LeafIsCa => "ERR_CHAIN_LEAF_IS_CA",
            Self::KeyIdentifier { .. } => "ERR_CHAIN_KEY_IDENTIFIER",
            Self::KeyUsage { .. } => "ERR_CHAIN_KEY_USAGE",
            Self::ExtendedKeyUsage { .. } => "ERR_CHAIN_EXTENDED_KEY_USAGE",
            Self::SignatureInvalid { .. } => "ERR_CHAIN_SIGNATURE_INVALID",
            Self::Expired { .. } => "ERR_CHAIN_EXPIRED",
            Self::NotYetValid { .. } => "ERR_CHAIN_NOT_YET_VALID",
            Self::VerdictCount { .. } => "ERR_CHAIN_VERDICT_COUNT",
        }
    }
}
