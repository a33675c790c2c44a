//! # edgeattest
//!
//! NVIDIA GPU and switch attestation for browsers and edge runtimes: a `no_std` + `alloc`
//! core that verifies SPDM evidence, certificate chains and reference measurements, mints
//! and verifies ES384 tokens, and implements the API conventions around the service (API-key
//! scopes, list queries, deprecation notices).
//!
//! The core does no I/O: the caller passes the time (`now`, Unix seconds), randomness and
//! documents. Every fallible operation returns a typed error whose [`ErrorCode::code`] is a
//! stable `ERR_*` string, used unchanged in Rust, in JavaScript (`err.code`) and in HTTP
//! bodies.
//!
//! ## The API
//!
//! The attestation core is the flat list of items at the crate root, by step:
//!
//! | step | entry points | proof or result |
//! |---|---|---|
//! | build or check an attest request | [`AttestRequestBuilder`], [`validate_request`] | [`ValidatedRequest`] |
//! | parse and verify device evidence | [`Transcript::parse`], [`verify_evidence`], [`BatchPlan`] | [`VerifiedEvidence`] |
//! | certificate chains | [`parse_pem_chain`], [`verify_chain`], [`ChainPlan`] | [`VerifiedChain`] |
//! | revocation (OCSP) | [`chain_requests`], [`check_response`], [`fold_chain`] | [`CheckedOcsp`], [`ChainRevocation`] |
//! | reference measurements (RIMs) | [`driver_rim_id`], [`verify_rim`], [`compare_gpu`] | [`VerifiedRim`], [`Comparison`] |
//! | tokens and results | [`sign_jwt`], [`verify_jwt`], [`create_detached_eat`], [`verify_attestation_result`] | [`VerifiedJwt`], [`VerifiedAttestationResult`] |
//! | keys and signatures | [`SigningKey`], [`PublicKey`], [`SignatureCheck`] | |
//! | time | [`UnixTime`], [`parse_rfc3339`], [`format_http_date`] | |
//!
//! A request built by a client and checked as the service checks it:
//!
//! ```
//! use edgeattest::{
//!     validate_request, Arch, AttestRequestBuilder, ClaimsVersion, Endpoint, EvidenceInput, Nonce,
//! };
//!
//! # let (transcript, pem) = (vec![0x11, 0xe0, 0, 0], "-----BEGIN CERTIFICATE-----\n...\n");
//! let nonce = Nonce::from_bytes([7; 32]); // 32 bytes of the host's randomness
//! let body = AttestRequestBuilder::new(Endpoint::GpuV4, nonce)
//!     .arch(Arch::Hopper)
//!     .claims_version(ClaimsVersion::V3_0)
//!     .evidence(EvidenceInput { evidence: &transcript, certificate_pem: pem, firmware_version: None })
//!     .build()?;
//! let json = body.to_json();
//! assert!(json.starts_with(r#"{"nonce":"0707"#));
//!
//! // The service side: the same checks, then the decoded evidence.
//! let request = validate_request(Endpoint::GpuV4, json.as_bytes())?;
//! assert_eq!(request.devices()[0].evidence(), transcript.as_slice());
//! assert_eq!(request.claims_version(), ClaimsVersion::V3_0);
//! # Ok::<(), edgeattest::RequestError>(())
//! ```
//!
//! Two small modules name a concept of their own: [`json`], the strict JSON reader every
//! outside document goes through (usable for a host's own documents too), and [`tag`], the
//! SPDM opaque-data tag numbers that [`OpaqueData`]'s accessors take.
//!
//! The HTTP-facing parts are one module each, with their own vocabulary: [`service`] (the
//! attestation service as a request → response function), [`access`] (API keys, scopes and
//! the gateway), [`listing`] (list queries) and [`deprecation`] (notices and headers). HTTP
//! plumbing (routing, response decoration, header-forwarding helpers) is private to the
//! crate.
//!
//! ## Features
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | conveniences of the standard library; the core needs only `alloc` |
//!
//! The wasm-bindgen layer (`src/wasm`) is compiled only for `wasm32-unknown-unknown`; the
//! WebAssembly Component (`src/component`, feature `component`) only for `wasm32-wasip2`.
// `ts` (the TypeScript generator's feature, in no module build) keeps the std prelude: ts-rs's
// derive writes `format!`, `String` and `to_string` unqualified.
#![cfg_attr(not(feature = "ts"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod bytes;
mod error_code;
mod host_answer;
mod sort;
mod urlencoded;

// The attestation core: private modules; its API is the re-export list below (as
// rustls-webpki does), so a module's layout can change without breaking a user.
mod attest;
mod chain;
mod crypto;
mod ear;
mod evidence;
mod ocsp;
mod policy;
mod rim;
mod time;
mod token;
mod x509;

// Strict JSON is a rule of its own that a Rust host applies to the documents it reads before
// they reach the core (`json::from_slice::<ServiceOptions>`), so it is a small public module:
// `parse`, `from_slice`, `MAX_DEPTH`, `JsonError`.
pub mod json;

// The HTTP-facing parts: one public module each.
pub mod access;
pub mod deprecation;
pub mod listing;
pub mod service;

// The JS binding. Public only so that the wasm test suites can call it with hostile JS values;
// JavaScript users reach it through the npm package. Only on the JS target
// (wasm32-unknown-unknown): wasm32-wasip2 builds the WebAssembly Component instead.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[doc(hidden)]
pub mod wasm;

// The `edgeattest:verifier` WebAssembly Component (WIT world), built for wasm32-wasip2.
#[cfg(all(target_arch = "wasm32", target_os = "wasi", feature = "component"))]
mod component;

// Errors shared by every module.
pub use error_code::{
    registered_code, ErrorBody, ErrorCode, NoDetail, RegisteredCode, ERROR_CODES,
};

// Attest requests: endpoints, bodies, builders, validation.
pub use attest::{
    check_table, decode_evidence_text, validate_request, Arch, ArchProfile, AttestRequestBuilder,
    ClaimsVersion, DeviceEvidence, DeviceKind, DriverRimId, Endpoint, EvidenceEncoding,
    EvidenceEncodingError, EvidenceGeneration, EvidenceInput, EvidenceItem, EvidenceItemV2,
    FirmwareRimId, FirmwareVersion, FwidSource, Nonce, NonceProblem, ProfileDefect, RequestBody,
    RequestError, ValidatedRequest, MAX_BODY_BYTES, MAX_CERTIFICATE_BYTES, MAX_EVIDENCE_BYTES,
    MAX_EVIDENCE_ITEMS,
};

// The core's options as serde types (camelCase, the JS exports' shapes): a Rust host reads
// them with `json::from_slice` and gets the rules and defaults a JS caller gets.
pub use attest::{DeviceSummary, RequestSummary};
pub use ocsp::{
    ChainOcspRequest, CheckOcspOptions, OcspCertificateStatus, OcspChainStatus, OcspInputError,
    OcspNonce, OcspRequestsOptions,
};
pub use rim::{identify_rim, ComparisonReport, RimIdentity, RimIds, RimOptions};
// The architecture table's rows as the JS `architectures()` lists them.
pub use attest::ArchitectureRow;
pub use evidence::{
    CertificateChainReport, DeviceError, DeviceResult, EvidenceOptions, OptionsError,
    RuntimeEvidenceInput,
};
// Byte inputs of those shapes (text or bytes, hex or bytes), one rule for every member.
pub use bytes::{Document, HexBytes, TextOrBytes};
pub use token::{PreparedToken, TokenVerdict, VerifyInput};

// Device evidence: SPDM transcripts and their verification.
pub use evidence::{
    arch_of_chain, compare_device, decode_generation1, decode_generation2, device_report,
    device_rims, failed_stage, verify_evidence, BatchPlan, BlockReport, ChainReport, DeviceInput,
    DeviceReport, DeviceRims, EnableStatus, EvidenceProfile, EvidenceReport, FailedEvidence,
    Failure, FeatureFlag, FwidCheck, FwidPolicy, FwidRule, MeasurementBlock, MeasurementRequest,
    MeasurementResponse, OpaqueData, OpaqueEntry, OpaqueFormat, OpaqueReport, ParseError,
    ReportPlan, RevocationInput, RevocationState, RimDocuments, RimInputs, RimPath, RimStep,
    RimSteps, Stage, StageId, StageStatus, SwitchGpuPdis, Transcript, ValueRepresentation, Verdict,
    VerifiedEvidence, VerifyContext, VerifyError, ERR_CERT_REVOCATION_UNKNOWN, ERR_CERT_REVOKED,
    ERR_MEASUREMENT_MISMATCH, ERR_OCSP_UNAVAILABLE, ERR_OPAQUE_BELOW_MINIMUM,
    ERR_RIM_CHAIN_EXPIRED, ERR_RIM_CHAIN_INVALID, ERR_RIM_NOT_AVAILABLE, ERR_RIM_VERSION_MISMATCH,
};
// The opaque-data tag numbers are the keys of `OpaqueData`'s accessors (`get`, `text`,
// `enable_status`), so callers need them: one small public module of constants, as NVIDIA's
// `OpaqueDataType` is one enumeration, and `tag_name` for their wire names.
pub use evidence::{tag, tag_name};

// Certificate chains.
pub use chain::{
    parse_pem_chain, verify_chain, verify_pem_chain, CertPosition, ChainCertificate, ChainError,
    ChainOptions, ChainPlan, ChainStatus, OcspStatus, Purpose, TimeCheck, TrustStore,
    VerifiedChain, MAX_CHAIN_CERTIFICATES, NVIDIA_DEVICE_IDENTITY_CA_PEM, NVIDIA_RIM_ROOT_CA_PEM,
};

// Revocation by OCSP.
pub use ocsp::{
    chain_requests, check_response, fold_chain, ocsp_targets, CertId, CertRevocation, ChainKind,
    ChainRevocation, CheckedOcsp, NonceCheck, OcspError, OcspRequest, PendingOcsp,
    ResponderProblem, ResponseStatus, RevocationReason, RevocationStatus, OCSP_CLOCK_SKEW,
};
// Its bounds and cache policy, which a host fetching and caching responses must honour; the
// module's short names would be ambiguous at the root, so they gain the OCSP prefix here.
pub use ocsp::{
    MAX_AGE_WITHOUT_NEXT_UPDATE as OCSP_MAX_AGE_WITHOUT_NEXT_UPDATE,
    MAX_CACHE_SECONDS as OCSP_MAX_CACHE_SECONDS, MAX_RESPONSE_CERTS as MAX_OCSP_RESPONSE_CERTS,
    MAX_RESPONSE_LEN as MAX_OCSP_RESPONSE_LEN, MAX_SINGLE_RESPONSES as MAX_OCSP_SINGLE_RESPONSES,
    NONCE_LEN as OCSP_NONCE_LEN,
};
// Why a host has no answer for a fetch the core asked for (an OCSP response, a RIM).
pub use host_answer::FetchFailure;

// Reference measurements (RIMs).
pub use rim::{
    apsku_from_block, canonical_forms, check_rim_id, compare_gpu, compare_gpu_firmware,
    compare_switch, driver_rim_id, firmware_rim_id, firmware_rim_id_of, open_envelope, prepare_rim,
    verify_rim, CompareError, Comparison, EnvelopeError, GoldenMeasurement, MeasurementSource,
    MismatchRecord, Nvdec0Rule, OpaqueFloor, OpaqueMismatch, OpaqueValue, PendingRim, RimCertChain,
    RimCertStatus, RimDocument, RimEnvelope, RimError, RimIdError, RimKind, RimMeta, RimTrust,
    RuntimeEvidence, VerifiedRim, VersionCheck, MAX_ALTERNATIVES, MAX_MEASUREMENT_SIZE,
    MAX_RIM_BYTES, MAX_RIM_WORK, MAX_XML_ATTRIBUTES, MAX_XML_DEPTH, MAX_XML_NAMESPACES,
    NVIDIA_RIM_ROOT_PEM,
};

// Tokens: ES384 JWS/JWT, key sets, detached EAT results and their appraisal.
pub use token::{
    assemble_detached_eat, assemble_jws, create_detached_eat, create_v1_result,
    detached_eat_signing_input, jwt_signing_input, prepare_attestation_result, prepare_jwt,
    sign_jwt, verify_attestation_result, verify_jwt, Appraisal, AppraisalReason, AttestationReport,
    AttestationResult, ClaimReason, DeviceAppraisal, DeviceVerdict, Jwks, JwksKey,
    PreparedAttestationResult, PreparedJwt, ResultFormat, TokenError, VerdictLevel,
    VerifiedAttestationResult, VerifiedDevice, VerifiedJwt, VerifyOptions, MAX_JWKS_BYTES,
    MAX_JWKS_KEYS, MAX_RESULT_BYTES, MAX_TOKEN_BYTES,
};
// The bounds inside a token and a result, named after what they bound at the root.
pub use token::{
    MAX_DEVICES as MAX_RESULT_DEVICES, MAX_HEADER_BYTES as MAX_JWS_HEADER_BYTES,
    MAX_LABEL_LEN as MAX_RESULT_LABEL_LEN,
};

// Relying-party policies (NVIDIA's JSON format) applied to a verified result.
pub use policy::{
    appraise, DeviceDecision, Policy, PolicyDecision, PolicyError, PolicyVersion, RuleOutcome,
    RuleStatus, MAX_POLICY_BYTES, MAX_RULES as MAX_POLICY_RULES,
    MAX_RULE_ARRAY as MAX_POLICY_RULE_ARRAY, MAX_RULE_DEPTH as MAX_POLICY_RULE_DEPTH,
};
// Rego policies (NVIDIA's C++ SDK format), Cargo feature `rego`.
#[cfg(feature = "rego")]
pub use policy::{
    appraise_rego, RegoError, RegoPolicy, RegoSyntax, MAX_REGO_COLUMNS, MAX_REGO_COST,
    MAX_REGO_INSTRUCTIONS, MAX_REGO_LINES, MAX_REGO_NESTING, REGO_ALLOWED_BUILTINS,
};

// EAT Attestation Results (EAR) with AR4SI trustworthiness vectors.
pub use ear::{
    appraise_device, policy_id, prepare_ear, trust_vector, verify_ear, Ear, EarAppraisal, EarError,
    PreparedEar, TrustTier, TrustVector, VerifierId, EAR_DEVELOPER, EAR_MEDIA_TYPE, EAR_PROFILE,
    MAX_EAR_SUBMODS,
};

// P-384 keys and signature checks.
pub use crypto::{
    software_verdicts, verify_p384_sha384, Deferred, Jwk, KeyError, PublicKey, SignatureCheck,
    SignatureError, SigningKey, SIGNATURE_LEN,
};

// Strict JSON's error, which the root's request and document errors carry (the rest of
// strict JSON is the `json` module).
pub use json::JsonError;

// Time: the caller's clock reading and calendar text, over the range Unix seconds are read
// and written (`MAX_SECS`, 9999-12-31T23:59:59Z).
pub use time::{
    format_http_date, format_rfc3339, parse_http_date, parse_rfc3339, DateTime, TimeError,
    UnixSeconds, UnixTime, MAX_SECS,
};
