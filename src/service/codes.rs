//! The service's shared codes and messages: the warnings its tokens carry, its own error
//! codes beside the real service's, their symbolic names, and the error details they fill.
//! At the bottom of the service: every step that fails a device or warns about it reads
//! them here.

use super::outcome::ErrorDetails;

/// The warning every device token carries when the service checks no revocation (no
/// responder configured, `EDGEATTEST_OCSP_URL=off`).
/// Its words are the relying party's rule too (the token reader's `REVOCATION_NOT_CHECKED`).
pub const REVOCATION_WARNING: &str = crate::token::REVOCATION_NOT_CHECKED;

/// The warning of a device whose firmware did not report an FWID: passed as NVIDIA's
/// verifiers pass it, but never silently.
pub const FWID_NOT_IN_EVIDENCE_WARNING: &str =
    "The evidence carries no FWID, so the leaf certificate's FWID was not compared";

/// The warning of a device whose chain ends at a root configured on this service, not at
/// NVIDIA's Device Identity CA (a test PKI, a vendor's own): the verdict is no NVIDIA
/// attestation, and the token says so. `{root}` is the root's subject.
pub const OTHER_ROOT_WARNING: &str =
    "The device certificate chain ends at {root}, a root configured on this service, not at \
     NVIDIA's Device Identity CA: this is not an attestation of an NVIDIA device";

/// What the warning of a chain whose certificate is on hold says, accepted because the
/// request said `X-NVIDIA-OCSP-ALLOW-CERT-HOLD: true` or the revocation policy allows holds
/// (the warning itself is [`crate::ocsp::Relaxation::warning`]'s, naming the chain).
pub const CERTIFICATE_HOLD_WARNING: &str = crate::ocsp::HOLD_ACCEPTED;

/// `x-nvidia-error-details.code` of a repeated device: the real service has none (it
/// attests every item alone), so the number is this verifier's, outside NVIDIA's 40xx
/// sequence as far as it is known.
pub const DUPLICATE_DEVICE_CODE: u16 = 4090;

/// `x-nvidia-error-details.code` of a device that fails the service's policy: the real
/// service has none, so the number is this verifier's, next to
/// [`DUPLICATE_DEVICE_CODE`].
pub const POLICY_NOT_MET_CODE: u16 = 4091;

/// The symbolic name of [`POLICY_NOT_MET_CODE`].
pub(super) const POLICY_NOT_MET: &str = "RELYING_PARTY_POLICY_NOT_MET";

/// The error details of a device (`x-nvidia-error-details`): the status follows the code
/// (5xxx: the service's side).
pub(super) fn details(code: u16, field: &str, message: &str, description: &str) -> ErrorDetails {
    let http_status = if code >= 5000 {
        "500 INTERNAL_SERVER_ERROR"
    } else {
        "400 BAD_REQUEST"
    };
    ErrorDetails {
        code,
        field_name: field.into(),
        http_status: http_status.into(),
        description: description.into(),
        message: message.into(),
    }
}

/// The real service's symbolic name of an error code.
pub(super) fn message_of(code: u16) -> &'static str {
    match code {
        4004 => "INVALID_GPU_ARCH",
        4005 => "INVALID_EVIDENCE",
        4006 => "INVALID_EVIDENCE_FORMAT",
        4007 => "INVALID_CERTIFICATE_CHAIN",
        4008 => "INVALID_GOLDEN_MEASUREMENT",
        4009 => "DRIVER_AND_RIM_MEASUREMENT_SAME_INDEX",
        4010 => "NONCE_NOT_MATCHING",
        4011 => "CERTIFICATE_EXPIRED",
        4013 => "INVALID_EVIDENCE_SIGNATURE",
        4014 => "INVALID_ATTESTATION_CERTIFICATE_CHAIN",
        4015 => "INVALID_RIM_CERTIFICATE_CHAIN",
        4016 => "FWID_NOT_MATCHING",
        4017 => "INVALID_SWITCH_ARCH",
        4020 => "NO_RIM_META_ELEMENT_FOUND",
        4021 => "PARSE_ERROR",
        DUPLICATE_DEVICE_CODE => "DUPLICATE_DEVICE",
        POLICY_NOT_MET_CODE => POLICY_NOT_MET,
        5009 => "RIM_BUNDLE_NOT_FOUND",
        5010 => "ERROR_PARSING_RIM_CERTIFICATE",
        5011 => "INVALID_RIM_CERTIFICATE",
        5012 => "RIM_NOT_SIGNED",
        5013 => "INVALID_RIM_SIGNATURE",
        5014 => "FAIL_TO_VALIDATE_RIM_SIGNATURE",
        5015 => "ERROR_ATTESTING_EVIDENCE",
        _ => "INTERNAL_SERVER_ERROR",
    }
}
