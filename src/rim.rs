//! Reference measurements: RIM documents, XML signatures, RIM ids, measurement comparison.
//!
//! NVIDIA publishes the expected ("golden") measurements of each driver and firmware build as
//! a signed RIM: a SWID tag XML document (ISO/IEC 19770-2:2015, TCG RIM-IM attributes) with
//! an enveloped XML signature. This module does what the real
//! service does with them, in pure Rust and without I/O:
//!
//! 1. **Which RIMs** a device needs: [`driver_rim_id`], [`firmware_rim_id`] (GH100, GB100
//!    with its `CHIP_INFO` fallback, LS10 constants, Blackwell FSP with `APSKU` and the
//!    request's `firmware_version` hint). The host fetches or bundles the documents; the RIM
//!    service envelope `{id, rim, sha256, …}` is checked by [`open_envelope`].
//! 2. **Verify** a document: [`verify_rim`] (or [`prepare_rim`] + [`PendingRim::finish`] to
//!    run the ECDSA checks on another backend). Canonical XML 1.1, the enveloped-signature
//!    transform, the SHA-384 reference digest and the ECDSA-SHA384 signature value are
//!    checked against an algorithm allow-list; the `X509Data` chain against a [`RimTrust`]
//!    (default: NVIDIA's RIM root) at `now`.
//!    [`RimOptions`] holds a host's options (the anchors, default NVIDIA's root); what an
//!    unverified document is (driver or firmware, which architecture) is [`identify_rim`].
//! 3. **CoRIMs** (the CBOR twin, draft-ietf-rats-corim-11 as NVIDIA writes it): signed ones
//!    (COSE_Sign1 ES384, `x5chain` to [`RimTrust::nvidia_corim`]) take the same
//!    [`prepare_rim`] / [`verify_rim`], which tell the formats apart by the first byte;
//!    [`parse_corim`] reads an unsigned one. Both read into the same [`RimDocument`],
//!    compared by the same functions ([`VerifiedRim::compare`], [`Corim::compare`]).
//! 4. **Compare** the device's runtime values with the verified documents: [`compare_gpu`],
//!    [`compare_gpu_firmware`] (Blackwell FSP), [`compare_switch`].
//!
//! ## Input interface (what the comparison and the RIM ids need from evidence)
//!
//! The evidence parser lives elsewhere; this module takes plain values in
//! [`RuntimeEvidence`]:
//!
//! | field | source in the SPDM evidence | used for |
//! |---|---|---|
//! | `measurements` | measurement blocks: SPDM index (1-based) → value bytes | comparison (RIM index + 1) |
//! | `driver_version` | opaque tag 3 `DRIVER_VERSION` (text, NULs stripped) | driver RIM id, version match |
//! | `vbios_version` | opaque tag 6 formatted `96.00.5E.00.01` (switch: the ASCII text) | firmware RIM id, version match |
//! | `project`, `project_sku`, `chip_sku` | opaque tags 17, 18, 15 (text) | GPU firmware RIM id |
//! | `chip_info` | opaque tag 35 `CHIP_INFO` (Blackwell) | Blackwell driver RIM id |
//! | `nvdec0_status` | opaque tag 11 (1 byte) | the NVDEC0 rule for index 35 |
//! | `opaque` | NVDAOD entries: id, value type, value | minimum-SVN floors |
//! | `hwmodel` | chip word from the chain (`GB100`, `GB20X`) | Blackwell FSP firmware RIM id; the driver RIM chip without `CHIP_INFO` |
//! | `apsku` | block 52 `APSKU` value ([`apsku_from_block`]) | Blackwell FSP firmware RIM id |
//! | `firmware_version_hint` | the request's `firmware_version` | Blackwell FSP firmware RIM id |
//!
//! ## Limits and open points
//! * The `X509Data` chain is validated by [`crate::chain`] (RFC 5280 path to the anchor,
//!   validity reported at `now`); revocation (OCSP) needs the network and is reported as
//!   not checked.
//! * The `ns3` opaque records are read as documented by NVIDIA (`ns3:minSvn`,
//!   `ns3:includeInResult`) at RIM index 64 + opaque id; any other `ns3`
//!   attribute makes the document fail rather than be half-read.
//! * Everything done before the signature is checked is linear in the document and bounded
//!   before it starts: size, attributes per element and namespace declarations are counted
//!   on the raw text before parsing ([`MAX_RIM_BYTES`], [`MAX_XML_ATTRIBUTES`],
//!   [`MAX_XML_NAMESPACES`]), then nodes and depth, and all of it spends from one work
//!   budget ([`MAX_RIM_WORK`], reported by [`PendingRim::work`]).

mod budget;
mod c14n;
mod compare;
mod corim;
mod document;
mod dsig;
mod envelope;
mod error;
mod id;
mod identity;
mod kind;
mod limits;
mod options;
mod runtime_evidence;
mod scan;
mod signer;
mod trust;
mod verify;

pub use compare::{
    compare_gpu, compare_gpu_firmware, compare_switch, Comparison, ComparisonReport,
    MeasurementSource, MismatchRecord, Nvdec0Rule, OpaqueMismatch, VersionCheck,
};
pub use corim::{
    parse_corim, Corim, CorimError, DiceReference, CORIM_CBOR_LIMITS, MAX_CORIM_ALTERNATIVES,
    MAX_CORIM_BYTES, MAX_CORIM_MEASUREMENTS, MAX_CORIM_TAGS, MAX_CORIM_TRIPLES,
};
pub use document::{
    GoldenMeasurement, OpaqueFloor, RimDocument, RimMeta, MAX_ALTERNATIVES, MAX_MEASUREMENT_SIZE,
};
pub use envelope::{open_envelope, RimEnvelope};
pub use error::{CompareError, EnvelopeError, RimError, RimIdError};
pub use id::{
    apsku_from_block, driver_rim_id, firmware_rim_id, firmware_rim_id_of, RimIdParts, RimIds,
    RimKind,
};
pub use identity::check_rim_id;
pub use kind::{identify_rim, RimIdentity};
pub use limits::{
    MAX_RIM_BYTES, MAX_RIM_WORK, MAX_XML_ATTRIBUTES, MAX_XML_DEPTH, MAX_XML_NAMESPACES,
};
pub use options::{RimFormats, RimOptions};
pub use runtime_evidence::{OpaqueValue, RuntimeEvidence};
pub use trust::{
    RimCertChain, RimCertStatus, RimTrust, ERR_RIM_CHAIN_EXPIRED, ERR_RIM_CHAIN_INVALID,
    NVIDIA_CORIM_ROOT_PEM, NVIDIA_RIM_ROOT_PEM,
};
pub use verify::{canonical_forms, prepare_rim, verify_rim, PendingRim, VerifiedRim};
pub(crate) use verify::{is_cbor, parse_rim, ParsedRim};
