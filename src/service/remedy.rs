//! What a device that failed for want of collateral (a RIM document, an OCSP answer) is told
//! to do about it: the cause and the remedy in words, in its `x-nvidia-error-details`, so
//! that no failure the user can fix reads as a verdict on the device.

use alloc::format;
use alloc::string::String;

use super::rims::{id_of_key, is_configured_roots_key};

/// What to do when the RIM service does not answer (a literal, for `concat!`).
macro_rules! rim_service_remedy {
    () => {
        "Go online, point EDGEATTEST_RIM_SERVICE_URL at a reachable RIM service, or add a \
         mirror in EDGEATTEST_RIM_MIRRORS (e.g. another edgeattest deployment's /v1/rim/)"
    };
}

/// What to do when the OCSP responder does not answer (a literal, for `concat!`).
macro_rules! ocsp_remedy {
    () => {
        "Go online, point EDGEATTEST_OCSP_URL at a reachable responder or add one in \
         EDGEATTEST_OCSP_MIRRORS; to ride out an outage, EDGEATTEST_OCSP_STALE_IF_ERROR lets \
         answers kept from earlier decide for a while (every token then says so); to run \
         air-gapped, set EDGEATTEST_OCSP_URL=off (revocation is then not checked and every token \
         says so)"
    };
}

/// 5009: RIM `key` ([`super::rims::store_key`]) is held nowhere the service looks.
pub(crate) fn rim_not_found(key: &str) -> String {
    let id = id_of_key(key);
    let how = if is_configured_roots_key(key) {
        format!(
            "NVIDIA publishes no RIMs for a device of a root configured on this service: provide \
             {id}.xml, signed under a configured RIM root,"
        )
    } else {
        format!(
            "NVIDIA publishes it at https://rim.attestation.nvidia.com/v1/rim/{id}: let the service \
             reach it (EDGEATTEST_RIM_SERVICE_URL, on by default), or download it and provide \
             {id}.xml"
        )
    };
    format!(
        "No reference measurement document {id} is available: it is not bundled, not among the \
         configured documents and not fetched from a RIM service. {how} in EDGEATTEST_RIM_DIR or \
         EDGEATTEST_RIM_DOCUMENTS"
    )
}

/// 5008: RIM `key` could not be had from the RIM service (`problem` says why).
pub(crate) fn rim_download_failed(problem: &str, key: &str) -> String {
    let id = id_of_key(key);
    if is_configured_roots_key(key) {
        return format!(
            "{problem}. NVIDIA publishes no RIMs for a device of a root configured on this \
             service: provide {id}.xml, signed under a configured RIM root, in EDGEATTEST_RIM_DIR or \
             EDGEATTEST_RIM_DOCUMENTS"
        );
    }
    format!(
        concat!(
            "{problem}. ",
            rim_service_remedy!(),
            "; air-gapped: provide {id}.xml (from https://rim.attestation.nvidia.com/v1/rim/{id}) \
             in EDGEATTEST_RIM_DIR or EDGEATTEST_RIM_DOCUMENTS"
        ),
        problem = problem,
        id = id
    )
}

/// 5001 when no answer could be had from the responder (unreachable, timed out, an HTTP
/// error, too large): what to do, online or air-gapped.
pub(crate) const OCSP_UNREACHABLE: &str = concat!(
    "the OCSP responder (EDGEATTEST_OCSP_URL, by default NVIDIA's https://ocsp.ndis.nvidia.com/) \
     could not be reached or gave no answer, so revocation could not be checked. ",
    ocsp_remedy!()
);

/// `/health`, the RIM service unreachable: what fails, and what to do.
pub(crate) const RIM_SERVICE_UNREACHABLE: &str = concat!(
    "a device whose RIM is not held here fails with 5008 (ERROR_DURING_RIM_DOWNLOAD). ",
    rim_service_remedy!(),
    "; to run air-gapped, set EDGEATTEST_RIM_SERVICE_URL=off and provide the devices' RIMs in \
     EDGEATTEST_RIM_DIR or EDGEATTEST_RIM_DOCUMENTS."
);

/// `/health`, the OCSP responder unreachable: what fails, and what to do.
pub(crate) const OCSP_SOURCE_UNREACHABLE: &str = concat!(
    "revocation cannot be checked, so a device without a cached answer fails with 5001 \
     (ERROR_DURING_OCSP_QUERY). ",
    ocsp_remedy!(),
    "."
);

/// `/health`, the RIM service off.
pub(crate) const RIM_SERVICE_OFF: &str =
    "The RIM service is off (EDGEATTEST_RIM_SERVICE_URL=off): only the RIMs held here are used; a \
     device whose RIM is not held fails with 5009 until its RIM is provided in EDGEATTEST_RIM_DIR \
     or EDGEATTEST_RIM_DOCUMENTS.";

/// `/health`, the OCSP responder off.
pub(crate) const OCSP_OFF: &str = "The OCSP responder is off (EDGEATTEST_OCSP_URL=off): \
     revocation is not checked, and every token says so in x-nvidia-attestation-warning.";
