//! The proof type of a validated chain and what the claims read from it.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::dice;
use crate::time::UnixTime;
use crate::x509::{Cert, CertPosition};

/// Validity of the path at `now`, reported apart from the other checks as the real service
/// reports it (`x-nvidia-cert-status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChainStatus {
    /// Every certificate is valid at `now`.
    Valid,
    /// At least one certificate expired before `now`.
    Expired,
    /// No certificate expired but one is not valid until after `now`.
    NotYetValid,
}

impl ChainStatus {
    /// The service's `x-nvidia-cert-status` value: `valid`, `expired`, or `invalid` for a
    /// not-yet-valid certificate (the service has no value of its own for it; a certificate
    /// that is not yet valid is not a valid one).
    pub const fn as_claim_str(self) -> &'static str {
        match self {
            Self::Valid => "valid",
            Self::Expired => "expired",
            Self::NotYetValid => "invalid",
        }
    }
}

// OCSP needs the network and is not part of the offline chain check: a verified chain reports
// its revocation honestly as not checked.
use super::revocation::RevocationStatus;

/// One certificate of a validated path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainCertificate {
    /// Where it came from: the supplied chain or the trust store.
    pub position: CertPosition,
    /// The subject in RFC 4514 form, e.g. `CN=GH100 A01 GSP BROM,O=NVIDIA Corporation,…`.
    pub subject: String,
    /// The subject's first commonName.
    pub common_name: Option<String>,
    /// The serial number's content octets (big-endian two's complement).
    pub serial: Vec<u8>,
    /// notBefore.
    pub not_before: UnixTime,
    /// notAfter.
    pub not_after: UnixTime,
    /// The DER encoding.
    pub der: Vec<u8>,
}

impl ChainCertificate {
    pub(crate) fn from_cert(cert: &Cert, position: CertPosition) -> Self {
        Self {
            position,
            subject: cert.subject_text.clone(),
            common_name: cert.common_name.clone(),
            serial: cert.serial.clone(),
            not_before: cert.not_before,
            not_after: cert.not_after,
            der: cert.der.clone(),
        }
    }
}

/// A certificate path from the leaf to a trust anchor whose structure, constraints and
/// signatures all verified. Only [`super::verify_chain`] / [`super::ChainPlan`] build one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedChain {
    certificates: Vec<ChainCertificate>,
    leaf_public_key: Vec<u8>,
    status: ChainStatus,
    dice_fwid: Option<Vec<u8>>,
    dice_tcb_info: Option<Vec<u8>>,
    supplied: usize,
}

impl VerifiedChain {
    pub(crate) fn new(
        certificates: Vec<ChainCertificate>,
        leaf_public_key: Vec<u8>,
        status: ChainStatus,
        dice_fwid: Option<Vec<u8>>,
        dice_tcb_info: Option<Vec<u8>>,
        supplied: usize,
    ) -> Self {
        Self {
            certificates,
            leaf_public_key,
            status,
            dice_fwid,
            dice_tcb_info,
            supplied,
        }
    }

    /// The path, leaf first, anchor last.
    pub fn certificates(&self) -> &[ChainCertificate] {
        &self.certificates
    }

    /// The subjects of the path, leaf first (RFC 4514 text).
    pub fn subjects(&self) -> impl Iterator<Item = &str> {
        self.certificates.iter().map(|c| c.subject.as_str())
    }

    /// The number of certificates that were supplied (the path may use fewer).
    pub fn supplied_len(&self) -> usize {
        self.supplied
    }

    /// The leaf's public key, SEC1 uncompressed (97 bytes, P-384).
    pub fn leaf_public_key_sec1(&self) -> &[u8] {
        &self.leaf_public_key
    }

    /// Validity at `now`.
    pub fn status(&self) -> ChainStatus {
        self.status
    }

    /// Revocation: always [`RevocationStatus::NotChecked`] (no network in the core).
    pub fn ocsp_status(&self) -> RevocationStatus {
        RevocationStatus::NotChecked
    }

    /// The earliest notAfter on the path (the service's `x-nvidia-cert-expiration-date`).
    pub fn earliest_not_after(&self) -> UnixTime {
        self.certificates
            .iter()
            .map(|c| c.not_after)
            .min()
            .unwrap_or(UnixTime::EPOCH)
    }

    /// [`Self::earliest_not_after`] as ISO 8601 UTC, `9999-12-31T23:59:59Z`.
    pub fn earliest_not_after_iso(&self) -> String {
        self.earliest_not_after().to_string()
    }

    /// `ueid`: the leaf's serial number in decimal, as the real service writes it.
    pub fn ueid(&self) -> String {
        self.certificates
            .first()
            .map(|leaf| decimal(&leaf.serial))
            .unwrap_or_default()
    }

    /// `hwmodel`: the commonName of the leaf's issuer (`GH100 A01 GSP BROM`), as the real
    /// service wrote it in 2025 and NVIDIA's SDK still does.
    pub fn hwmodel(&self) -> Option<&str> {
        self.certificates.get(1)?.common_name.as_deref()
    }

    /// The chip part of [`Self::hwmodel`] (`GH100`, `GB100`, `LS_10`), as the real service
    /// writes `hwmodel` since 2026.
    pub fn hwmodel_chip(&self) -> Option<&str> {
        self.hwmodel()?.split(' ').next().filter(|s| !s.is_empty())
    }

    /// The FWID of the leaf's TCG DICE extension 2.23.133.5.4.1 (Hopper, LS10), if the
    /// extension is present and well formed.
    pub fn fwid_dice(&self) -> Option<Vec<u8>> {
        self.dice_fwid.as_deref().and_then(dice::fwid_from_dice)
    }

    /// The first FWID of the leaf's TCG DICE TcbInfo extension 2.23.133.5.4.1.1 (Blackwell),
    /// if the extension is present and well formed.
    pub fn fwid_tcb_info(&self) -> Option<Vec<u8>> {
        self.dice_tcb_info
            .as_deref()
            .and_then(dice::fwid_from_tcb_info)
    }

    /// Whether the leaf carries either DICE extension (present but malformed included).
    pub fn has_dice_extension(&self) -> bool {
        self.dice_fwid.is_some() || self.dice_tcb_info.is_some()
    }
}

/// Big-endian two's-complement content octets of a positive INTEGER, in decimal.
pub(crate) fn decimal(bytes: &[u8]) -> String {
    let mut digits: Vec<u8> = Vec::new();
    let mut number: Vec<u8> = bytes.to_vec();
    while number.iter().any(|&b| b != 0) {
        let mut remainder: u16 = 0;
        for byte in number.iter_mut() {
            let value = (remainder << 8) | u16::from(*byte);
            *byte = u8::try_from(value / 10).unwrap_or_default();
            remainder = value % 10;
        }
        digits.push(b'0'.saturating_add(u8::try_from(remainder).unwrap_or_default()));
    }
    if digits.is_empty() {
        return String::from("0");
    }
    digits.iter().rev().map(|&d| char::from(d)).collect()
}

#[cfg(test)]
mod tests {
    use super::decimal;

    #[test]
    fn decimal_serials() {
        assert_eq!(decimal(&[]), "0");
        assert_eq!(decimal(&[0]), "0");
        assert_eq!(decimal(&[1, 0]), "256");
        assert_eq!(decimal(&[0xff, 0xff, 0xff, 0xff]), "4294967295");
    }
}
