//! What a verified response says about one certificate.

use x509_cert::ext::pkix::CrlReason;

/// A certificate's revocation status, as a verified response gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CertRevocation {
    /// Not revoked.
    Good,
    /// Revoked (or on hold: reason [`RevocationReason::CertificateHold`]).
    Revoked {
        /// The CRL reason, when the responder gives one.
        reason: Option<RevocationReason>,
        /// revocationTime, Unix seconds.
        at: u64,
    },
    /// The responder does not know the certificate.
    Unknown,
}

impl CertRevocation {
    /// `good`, `revoked` or `unknown` (the `x-nvidia-cert-ocsp-status` values).
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::Good => "good",
            Self::Revoked { .. } => "revoked",
            Self::Unknown => "unknown",
        }
    }
}

/// `CRLReason` (RFC 5280 §5.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RevocationReason {
    /// unspecified (0)
    Unspecified,
    /// keyCompromise (1)
    KeyCompromise,
    /// cACompromise (2)
    CaCompromise,
    /// affiliationChanged (3)
    AffiliationChanged,
    /// superseded (4)
    Superseded,
    /// cessationOfOperation (5)
    CessationOfOperation,
    /// certificateHold (6): a suspension, accepted only on request
    /// ([`super::fold_chain`]'s `allow_hold`).
    CertificateHold,
    /// removeFromCRL (8)
    RemoveFromCrl,
    /// privilegeWithdrawn (9)
    PrivilegeWithdrawn,
    /// aACompromise (10)
    AaCompromise,
}

impl RevocationReason {
    /// The RFC 5280 name, e.g. `keyCompromise`, `cACompromise`, `removeFromCRL` (as
    /// OpenSSL and Python `cryptography` print them, so as NVIDIA's verifiers report them).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Unspecified => "unspecified",
            Self::KeyCompromise => "keyCompromise",
            Self::CaCompromise => "cACompromise",
            Self::AffiliationChanged => "affiliationChanged",
            Self::Superseded => "superseded",
            Self::CessationOfOperation => "cessationOfOperation",
            Self::CertificateHold => "certificateHold",
            Self::RemoveFromCrl => "removeFromCRL",
            Self::PrivilegeWithdrawn => "privilegeWithdrawn",
            Self::AaCompromise => "aACompromise",
        }
    }
}

impl From<CrlReason> for RevocationReason {
    fn from(reason: CrlReason) -> Self {
        match reason {
            CrlReason::Unspecified => Self::Unspecified,
            CrlReason::KeyCompromise => Self::KeyCompromise,
            CrlReason::CaCompromise => Self::CaCompromise,
            CrlReason::AffiliationChanged => Self::AffiliationChanged,
            CrlReason::Superseded => Self::Superseded,
            CrlReason::CessationOfOperation => Self::CessationOfOperation,
            CrlReason::CertificateHold => Self::CertificateHold,
            CrlReason::RemoveFromCRL => Self::RemoveFromCrl,
            CrlReason::PrivilegeWithdrawn => Self::PrivilegeWithdrawn,
            CrlReason::AaCompromise => Self::AaCompromise,
        }
    }
}

/// Whether the response echoed the request's nonce. A different echoed nonce is an error
/// ([`super::OcspError::NonceMismatch`]), never a status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NonceCheck {
    /// The response carries the nonce of the request that fetched it.
    Matched,
    /// The response carries no nonce (NVIDIA's responder may not echo one; a cached
    /// response need not either): freshness rests on thisUpdate / nextUpdate alone.
    NotEchoed,
}

/// A response whose structure, signer, signature, CertID, time window and nonce verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckedOcsp {
    /// The certificate's status.
    pub status: CertRevocation,
    /// thisUpdate, Unix seconds.
    pub this_update: u64,
    /// nextUpdate, Unix seconds, when given.
    pub next_update: Option<u64>,
    /// Whether the nonce was echoed.
    pub nonce: NonceCheck,
    /// Until when a host may serve it from a cache, Unix seconds: the earlier of nextUpdate
    /// and `now` + [`super::MAX_CACHE_SECONDS`]; 0 (do not cache) without nextUpdate.
    pub cache_until: u64,
}
