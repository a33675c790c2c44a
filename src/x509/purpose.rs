//! What an end-entity certificate's key may be used for: keyUsage (RFC 5280 §4.2.1.3) and
//! extendedKeyUsage (§4.2.1.12), checked against the purpose the certificate serves here.
//!
//! NVIDIA's real leaves (every chain in `tests/fixtures/nvidia`: Hopper, Blackwell GSP/FSP and
//! LS10 device leaves `… FMC LF`, and the RIM signers `HCC RIM L4 Signer`, `RIM L4 Signer`,
//! `NVIDIA Reference Value L4 LS10`) all carry keyUsage critical `digitalSignature` only and
//! no extendedKeyUsage, so the rule below refuses none of them.
//!
//! The rule, one place for every purpose:
//! * keyUsage, when present, must allow `digitalSignature` (all three purposes sign).
//! * extendedKeyUsage, when present, must name the purpose's use or (device leaf and RIM
//!   signer only) `anyExtendedKeyUsage`. Enforced whether critical or not: RFC 5280
//!   §4.2.1.12 says a certificate with the extension "MUST only be used for one of the
//!   purposes indicated", and criticality only matters to applications that do not process
//!   it (webpki also ignores criticality here).
//! * An OCSP responder must carry extendedKeyUsage `id-kp-OCSPSigning` (RFC 6960 §4.2.2.2);
//!   `anyExtendedKeyUsage` does not delegate OCSP signing.

use core::fmt;

use const_oid::ObjectIdentifier;

/// keyUsage bits (RFC 5280 §4.2.1.3), as a mask over the named bit positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyUsageBits {
    pub(crate) digital_signature: bool,
    pub(crate) key_cert_sign: bool,
}

/// anyExtendedKeyUsage (RFC 5280 §4.2.1.12).
const ANY_EKU: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.37.0");
/// id-kp-codeSigning (RFC 5280 §4.2.1.12).
const CODE_SIGNING: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.3");
/// id-kp-OCSPSigning (RFC 5280 §4.2.1.12, RFC 6960 §4.2.2.2).
const OCSP_SIGNING: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.9");
/// id-kp-documentSigning (RFC 9336).
const DOCUMENT_SIGNING: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.36");
/// id-DMTF-eku-responder-auth (DMTF DSP0274 SPDM): the leaf that signs SPDM responses, which
/// is what a device attestation leaf does.
const SPDM_RESPONDER_AUTH: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.4.1.412.274.3");

/// The purposes of a certificate's extendedKeyUsage. Its criticality is not kept: the
/// extension binds either way (module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ExtendedKeyUsage {
    pub(crate) purposes: alloc::vec::Vec<ObjectIdentifier>,
}

/// What an end-entity certificate is used for; selects the keyUsage / extendedKeyUsage rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Purpose {
    /// A device attestation leaf (signs SPDM measurement responses). Use: SPDM responder
    /// authentication (`1.3.6.1.4.1.412.274.3`) or any.
    #[default]
    DeviceLeaf,
    /// A RIM signing leaf (signs the RIM XML). Use: document signing (RFC 9336) or code
    /// signing (RIMs are signed firmware manifests), or any.
    RimSigner,
    /// An OCSP responder (signs OCSP responses). Use: `id-kp-OCSPSigning`, required.
    OcspResponder,
}

impl Purpose {
    /// `device leaf`, `RIM signer` or `OCSP responder`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::DeviceLeaf => "device leaf",
            Self::RimSigner => "RIM signer",
            Self::OcspResponder => "OCSP responder",
        }
    }

    /// The extendedKeyUsage purposes that allow this use.
    fn allowed(self) -> &'static [ObjectIdentifier] {
        match self {
            Self::DeviceLeaf => &[SPDM_RESPONDER_AUTH, ANY_EKU],
            Self::RimSigner => &[DOCUMENT_SIGNING, CODE_SIGNING, ANY_EKU],
            Self::OcspResponder => &[OCSP_SIGNING],
        }
    }

    /// Whether the certificate must carry extendedKeyUsage at all.
    const fn requires_eku(self) -> bool {
        matches!(self, Self::OcspResponder)
    }
}

impl fmt::Display for Purpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which of the two extensions refuses the use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    KeyUsage,
    ExtendedKeyUsage,
}

/// The rule itself, on the two extensions (see the module documentation).
pub(super) fn refusal(
    purpose: Purpose,
    key_usage: Option<KeyUsageBits>,
    eku: Option<&ExtendedKeyUsage>,
) -> Option<Refusal> {
    if key_usage.is_some_and(|ku| !ku.digital_signature) {
        return Some(Refusal::KeyUsage);
    }
    let allowed = match eku {
        None => !purpose.requires_eku(),
        Some(eku) => eku.purposes.iter().any(|p| purpose.allowed().contains(p)),
    };
    (!allowed).then_some(Refusal::ExtendedKeyUsage)
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;

    const SERVER_AUTH: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.1");
    const CLIENT_AUTH: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.2");
    const ALL: [Purpose; 3] = [
        Purpose::DeviceLeaf,
        Purpose::RimSigner,
        Purpose::OcspResponder,
    ];

    fn ku(digital_signature: bool) -> Option<KeyUsageBits> {
        Some(KeyUsageBits {
            digital_signature,
            key_cert_sign: false,
        })
    }

    fn eku(purposes: &[ObjectIdentifier]) -> ExtendedKeyUsage {
        ExtendedKeyUsage {
            purposes: purposes.to_vec(),
        }
    }

    /// The purposes whose use `purposes` allows (with keyUsage digitalSignature).
    fn accepted(purposes: &[ObjectIdentifier]) -> Vec<Purpose> {
        let e = eku(purposes);
        ALL.into_iter()
            .filter(|&p| refusal(p, ku(true), Some(&e)).is_none())
            .collect()
    }

    #[test]
    fn key_usage_must_allow_digital_signature_for_every_purpose() {
        let ocsp = eku(&[OCSP_SIGNING]);
        for purpose in ALL {
            let e = (purpose == Purpose::OcspResponder).then_some(&ocsp);
            assert_eq!(
                refusal(purpose, ku(false), e),
                Some(Refusal::KeyUsage),
                "{purpose}"
            );
            assert_eq!(refusal(purpose, ku(true), e), None, "{purpose}");
            // keyUsage absent: nothing to refuse on it.
            assert_eq!(refusal(purpose, None, e), None, "{purpose}");
        }
    }

    #[test]
    fn extended_key_usage_names_the_use() {
        use Purpose::{DeviceLeaf, OcspResponder, RimSigner};
        assert_eq!(accepted(&[SPDM_RESPONDER_AUTH]), [DeviceLeaf]);
        assert_eq!(accepted(&[DOCUMENT_SIGNING]), [RimSigner]);
        assert_eq!(accepted(&[CODE_SIGNING]), [RimSigner]);
        assert_eq!(accepted(&[OCSP_SIGNING]), [OcspResponder]);
        assert_eq!(accepted(&[ANY_EKU]), [DeviceLeaf, RimSigner]);
        assert_eq!(accepted(&[SERVER_AUTH]), []);
        assert_eq!(accepted(&[SERVER_AUTH, CLIENT_AUTH]), []);
        assert_eq!(
            accepted(&[SERVER_AUTH, OCSP_SIGNING, SPDM_RESPONDER_AUTH]),
            [DeviceLeaf, OcspResponder]
        );
    }

    #[test]
    fn only_an_ocsp_responder_needs_extended_key_usage() {
        assert_eq!(refusal(Purpose::DeviceLeaf, ku(true), None), None);
        assert_eq!(refusal(Purpose::RimSigner, ku(true), None), None);
        assert_eq!(
            refusal(Purpose::OcspResponder, ku(true), None),
            Some(Refusal::ExtendedKeyUsage)
        );
        assert_eq!(
            refusal(Purpose::OcspResponder, None, None),
            Some(Refusal::ExtendedKeyUsage)
        );
        // A keyUsage failure is reported first.
        assert_eq!(
            refusal(Purpose::OcspResponder, ku(false), None),
            Some(Refusal::KeyUsage)
        );
    }
}
