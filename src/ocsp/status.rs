//! What a verified response says about one certificate.

use crate::chain::RevocationStatus;
use crate::time::UnixTime;

/// A certificate's revocation status, as a verified response gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CertRevocation {
    /// Not revoked.
    Good,
    /// Revoked (or on hold: reason [`RevocationReason::CertificateHold`]).
    Revoked {
        /// The CRL reason, when the responder gives one.
        reason: Option<RevocationReason>,
        /// revocationTime.
        at: UnixTime,
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

    /// The status alone (without reason and time).
    pub const fn status(&self) -> RevocationStatus {
        match self {
            Self::Good => RevocationStatus::Good,
            Self::Revoked { .. } => RevocationStatus::Revoked,
            Self::Unknown => RevocationStatus::Unknown,
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

impl NonceCheck {
    /// `matched` or `not-echoed`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Matched => "matched",
            Self::NotEchoed => "not-echoed",
        }
    }
}

/// A response whose structure, signer, signature, CertID, time window and nonce verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckedOcsp {
    /// The certificate's status.
    pub status: CertRevocation,
    /// thisUpdate.
    pub this_update: UnixTime,
    /// nextUpdate, when given.
    pub next_update: Option<UnixTime>,
    /// Whether the nonce was echoed.
    pub nonce: NonceCheck,
    /// Until when a host may serve it from a cache: the earlier of nextUpdate and `now` +
    /// [`super::MAX_CACHE_SECONDS`]; [`UnixTime::EPOCH`] (do not cache) without nextUpdate.
    pub cache_until: UnixTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revocation_status_wire_values() {
        for (status, text) in [
            (RevocationStatus::NotChecked, "not-checked"),
            (RevocationStatus::Good, "good"),
            (RevocationStatus::Revoked, "revoked"),
            (RevocationStatus::Unknown, "unknown"),
        ] {
            assert_eq!(status.as_str(), text);
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, alloc::format!("\"{text}\""));
            assert_eq!(
                serde_json::from_str::<RevocationStatus>(&json).unwrap(),
                status
            );
        }
        assert!(serde_json::from_str::<RevocationStatus>("\"notChecked\"").is_err());
        assert!(serde_json::from_str::<RevocationStatus>("\"Good\"").is_err());
    }

    #[test]
    fn a_certificate_status_is_its_revocation_status() {
        assert_eq!(CertRevocation::Good.status(), RevocationStatus::Good);
        assert_eq!(CertRevocation::Unknown.status(), RevocationStatus::Unknown);
        let revoked = CertRevocation::Revoked {
            reason: Some(RevocationReason::KeyCompromise),
            at: UnixTime::EPOCH.saturating_add(1),
        };
        assert_eq!(revoked.status(), RevocationStatus::Revoked);
        assert_eq!(revoked.status().as_str(), revoked.as_str());
    }
}
