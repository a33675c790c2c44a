//! The public surface, pinned: the crate root's re-export list (as rustls-webpki keeps one),
//! the few public modules, and that the core's modules and the HTTP plumbing stay private.
//!
//! The `use` below stops compiling when a chosen item disappears or moves; the test compares
//! the same list with the `pub use` lines of `src/lib.rs`, so an item added to the root
//! without being listed here fails too: every change to the surface is a decision made here.

use std::collections::BTreeSet;

macro_rules! root_items {
    ($($name:ident),* $(,)?) => {
        #[allow(unused_imports)]
        use edgeattest::{$($name),*};
        /// Every name the crate root re-exports, in `src/lib.rs` order.
        const ROOT: &[&str] = &[$(stringify!($name)),*];
    };
}

root_items!(
    registered_code,
    ErrorBody,
    ErrorCode,
    NoDetail,
    RegisteredCode,
    ERROR_CODES,
    check_table,
    decode_evidence_text,
    validate_request,
    Arch,
    ArchProfile,
    AttestRequestBuilder,
    ClaimsVersion,
    DeviceEvidence,
    DeviceKind,
    DriverRimId,
    Endpoint,
    EvidenceEncoding,
    EvidenceEncodingError,
    EvidenceGeneration,
    EvidenceInput,
    EvidenceItem,
    EvidenceItemV2,
    FirmwareRimId,
    FirmwareVersion,
    FwidSource,
    Nonce,
    NonceProblem,
    ProfileDefect,
    RequestBody,
    RequestError,
    ValidatedRequest,
    MAX_BODY_BYTES,
    MAX_CERTIFICATE_BYTES,
    MAX_EVIDENCE_BYTES,
    MAX_EVIDENCE_ITEMS,
    DeviceSummary,
    RequestSummary,
    ChainOcspRequest,
    CheckOcspOptions,
    OcspCertificateStatus,
    OcspChainStatus,
    OcspInputError,
    OcspNonce,
    OcspRequestsOptions,
    identify_rim,
    ComparisonReport,
    RimIdentity,
    RimIds,
    RimOptions,
    ArchitectureRow,
    CertificateChainReport,
    DeviceError,
    DeviceResult,
    Document,
    HexBytes,
    EvidenceOptions,
    OptionsError,
    RuntimeEvidenceInput,
    TextOrBytes,
    UnixSeconds,
    PreparedToken,
    TokenVerdict,
    VerifyInput,
    arch_of_chain,
    compare_device,
    decode_generation1,
    decode_generation2,
    device_report,
    device_rims,
    failed_stage,
    verify_evidence,
    BatchPlan,
    BlockReport,
    ChainReport,
    DeviceInput,
    DeviceReport,
    DeviceRims,
    EnableStatus,
    EvidenceProfile,
    EvidenceReport,
    FailedEvidence,
    Failure,
    FeatureFlag,
    FwidCheck,
    FwidPolicy,
    FwidRule,
    MeasurementBlock,
    MeasurementRequest,
    MeasurementResponse,
    OpaqueData,
    OpaqueEntry,
    OpaqueFormat,
    OpaqueReport,
    ParseError,
    ReportPlan,
    RevocationInput,
    RevocationState,
    RimDocuments,
    RimInputs,
    RimPath,
    RimStep,
    RimSteps,
    Stage,
    StageId,
    StageStatus,
    SwitchGpuPdis,
    Transcript,
    ValueRepresentation,
    Verdict,
    VerifiedEvidence,
    VerifyContext,
    VerifyError,
    ERR_CERT_REVOCATION_UNKNOWN,
    ERR_CERT_REVOKED,
    ERR_MEASUREMENT_MISMATCH,
    ERR_OCSP_UNAVAILABLE,
    ERR_OPAQUE_BELOW_MINIMUM,
    ERR_RIM_CHAIN_EXPIRED,
    ERR_RIM_CHAIN_INVALID,
    ERR_RIM_NOT_AVAILABLE,
    ERR_RIM_VERSION_MISMATCH,
    tag,
    tag_name,
    parse_pem_chain,
    verify_chain,
    verify_pem_chain,
    CertPosition,
    ChainCertificate,
    ChainError,
    ChainOptions,
    ChainPlan,
    ChainStatus,
    OcspStatus,
    Purpose,
    TimeCheck,
    TrustStore,
    VerifiedChain,
    MAX_CHAIN_CERTIFICATES,
    NVIDIA_DEVICE_IDENTITY_CA_PEM,
    NVIDIA_RIM_ROOT_CA_PEM,
    chain_requests,
    check_response,
    fold_chain,
    ocsp_targets,
    CertId,
    CertRevocation,
    ChainKind,
    ChainRevocation,
    CheckedOcsp,
    FetchFailure,
    NonceCheck,
    OcspError,
    OcspRequest,
    PendingOcsp,
    ResponderProblem,
    ResponseStatus,
    RevocationReason,
    RevocationStatus,
    OCSP_CLOCK_SKEW,
    OCSP_MAX_AGE_WITHOUT_NEXT_UPDATE,
    OCSP_MAX_CACHE_SECONDS,
    MAX_OCSP_RESPONSE_CERTS,
    MAX_OCSP_RESPONSE_LEN,
    MAX_OCSP_SINGLE_RESPONSES,
    OCSP_NONCE_LEN,
    apsku_from_block,
    canonical_forms,
    check_rim_id,
    compare_gpu,
    compare_gpu_firmware,
    compare_switch,
    driver_rim_id,
    firmware_rim_id,
    firmware_rim_id_of,
    open_envelope,
    prepare_rim,
    verify_rim,
    CompareError,
    Comparison,
    EnvelopeError,
    GoldenMeasurement,
    MeasurementSource,
    MismatchRecord,
    Nvdec0Rule,
    OpaqueFloor,
    OpaqueMismatch,
    OpaqueValue,
    PendingRim,
    RimCertChain,
    RimCertStatus,
    RimDocument,
    RimEnvelope,
    RimError,
    RimIdError,
    RimKind,
    RimMeta,
    RimTrust,
    RuntimeEvidence,
    VerifiedRim,
    VersionCheck,
    MAX_ALTERNATIVES,
    MAX_MEASUREMENT_SIZE,
    MAX_RIM_BYTES,
    MAX_RIM_WORK,
    MAX_XML_ATTRIBUTES,
    MAX_XML_DEPTH,
    MAX_XML_NAMESPACES,
    NVIDIA_RIM_ROOT_PEM,
    assemble_detached_eat,
    assemble_jws,
    create_detached_eat,
    create_v1_result,
    detached_eat_signing_input,
    jwt_signing_input,
    prepare_attestation_result,
    prepare_jwt,
    sign_jwt,
    verify_attestation_result,
    verify_jwt,
    Appraisal,
    AppraisalReason,
    AttestationReport,
    AttestationResult,
    ClaimReason,
    DeviceAppraisal,
    DeviceVerdict,
    Jwks,
    JwksKey,
    PreparedAttestationResult,
    PreparedJwt,
    ResultFormat,
    TokenError,
    VerdictLevel,
    VerifiedAttestationResult,
    VerifiedDevice,
    VerifiedJwt,
    VerifyOptions,
    MAX_JWKS_BYTES,
    MAX_JWKS_KEYS,
    MAX_RESULT_BYTES,
    MAX_TOKEN_BYTES,
    MAX_RESULT_DEVICES,
    MAX_JWS_HEADER_BYTES,
    MAX_RESULT_LABEL_LEN,
    appraise,
    DeviceDecision,
    Policy,
    PolicyDecision,
    PolicyError,
    PolicyVersion,
    RuleOutcome,
    RuleStatus,
    MAX_POLICY_BYTES,
    MAX_POLICY_RULES,
    MAX_POLICY_RULE_ARRAY,
    MAX_POLICY_RULE_DEPTH,
    // EAT Attestation Results (session 11, issue 20).
    appraise_device,
    policy_id,
    prepare_ear,
    trust_vector,
    verify_ear,
    Ear,
    EarAppraisal,
    EarError,
    PreparedEar,
    TrustTier,
    TrustVector,
    VerifierId,
    EAR_DEVELOPER,
    EAR_MEDIA_TYPE,
    EAR_PROFILE,
    MAX_EAR_SUBMODS,
    software_verdicts,
    verify_p384_sha384,
    Deferred,
    Jwk,
    KeyError,
    PublicKey,
    SignatureCheck,
    SignatureError,
    SigningKey,
    SIGNATURE_LEN,
    JsonError,
    format_http_date,
    format_rfc3339,
    parse_http_date,
    parse_rfc3339,
    DateTime,
    TimeError,
    UnixTime,
    MAX_SECS,
);

/// The public modules: four HTTP-facing parts, strict JSON and the wasm binding (hidden; its
/// suites call it with hostile values).
const PUBLIC_MODULES: [&str; 6] = [
    "json",
    "access",
    "deprecation",
    "listing",
    "service",
    "wasm",
];

/// The attestation core and the crate's helpers: private, reached through the root list only.
const PRIVATE_MODULES: [&str; 17] = [
    "error_code",
    "host_answer",
    "sort",
    "urlencoded",
    "bytes",
    "attest",
    "chain",
    "crypto",
    "evidence",
    "ocsp",
    "policy",
    "ear",
    "rim",
    "time",
    "token",
    "x509",
    // The WIT binding (wasm32-wasip2 only): reached through the component's exports, not Rust paths.
    "component",
];

fn lib_rs() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs");
    std::fs::read_to_string(path).expect("src/lib.rs")
}

/// The code lines of `src/lib.rs` (comments dropped, so prose may name anything).
fn lib_code() -> String {
    lib_rs()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names `pub use module::{…};` puts at the root (`a as b` counts as `b`).
fn reexported(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("\npub use ") {
        let statement = &rest[at + "\npub use ".len()..];
        let end = statement.find(';').expect("a pub use ends with ';'");
        let (_module, items) = statement[..end]
            .split_once("::")
            .expect("pub use module::…");
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            let item = item.trim();
            if !item.is_empty() {
                names.push(item.rsplit(" as ").next().unwrap().trim().to_owned());
            }
        }
        rest = &statement[end..];
    }
    names
}

/// The names behind Cargo feature `rego` (Rego policies), re-exported only with it.
#[cfg(feature = "rego")]
#[allow(unused_imports)]
use edgeattest::{
    appraise_rego, RegoError, RegoPolicy, RegoSyntax, MAX_REGO_COLUMNS, MAX_REGO_COST,
    MAX_REGO_INSTRUCTIONS, MAX_REGO_LINES, MAX_REGO_NESTING, REGO_ALLOWED_BUILTINS,
};
const ROOT_REGO: &[&str] = &[
    "appraise_rego",
    "RegoError",
    "RegoPolicy",
    "RegoSyntax",
    "REGO_ALLOWED_BUILTINS",
    "MAX_REGO_COLUMNS",
    "MAX_REGO_COST",
    "MAX_REGO_INSTRUCTIONS",
    "MAX_REGO_LINES",
    "MAX_REGO_NESTING",
];

#[test]
fn the_root_list_is_the_chosen_one() {
    let listed: BTreeSet<&str> = ROOT.iter().chain(ROOT_REGO).copied().collect();
    assert_eq!(
        listed.len(),
        ROOT.len() + ROOT_REGO.len(),
        "a name is listed twice"
    );
    let code = lib_code();
    let exported = reexported(&code);
    let exported_set: BTreeSet<&str> = exported.iter().map(String::as_str).collect();
    assert_eq!(
        exported_set.len(),
        exported.len(),
        "src/lib.rs re-exports a name twice"
    );
    let added: Vec<_> = exported_set.difference(&listed).collect();
    let dropped: Vec<_> = listed.difference(&exported_set).collect();
    assert!(
        added.is_empty() && dropped.is_empty(),
        "the root changed: added {added:?}, dropped {dropped:?}; list the decision in this file"
    );
}

#[test]
fn the_core_modules_are_private_and_the_public_ones_are_few() {
    let code = lib_code();
    let declared = |prefix: &str| -> BTreeSet<String> {
        code.lines()
            .filter_map(|line| line.strip_prefix(prefix))
            .map(|rest| rest.trim_end_matches(';').to_owned())
            .collect()
    };
    let public = declared("pub mod ");
    let private = declared("mod ");
    assert_eq!(
        public,
        PUBLIC_MODULES.iter().map(|m| m.to_string()).collect()
    );
    assert_eq!(
        private,
        PRIVATE_MODULES.iter().map(|m| m.to_string()).collect()
    );
    // A `pub mod` hidden from the docs is still public API: only the binding may be one.
    assert_eq!(
        code.matches("#[doc(hidden)]\npub mod").count(),
        1,
        "only `wasm` is hidden"
    );
}

#[test]
fn the_concept_modules_hold_what_they_name() {
    use edgeattest::json::{self, from_slice, JsonError, MAX_DEPTH};
    use edgeattest::{tag, tag_name, DeviceKind};

    // Strict JSON: the rule every outside document goes through, usable on its own.
    assert_eq!(
        json::parse(br#"{"a":1,"a":2}"#),
        Err(JsonError::DuplicateMember { name: "a".into() })
    );
    let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
    assert_eq!(json::parse(deep.as_bytes()), Err(JsonError::TooDeep));
    let ok: Vec<u8> = from_slice(b"[1,2,3]").unwrap();
    assert_eq!(ok, [1, 2, 3]);
    assert!(matches!(
        from_slice::<Vec<u8>>(b"[256]"),
        Err(JsonError::Shape { .. })
    ));
    // The root's JsonError is the module's.
    let _: edgeattest::JsonError = JsonError::TooDeep;

    // Tag numbers are the keys of OpaqueData's accessors, and name their wire field.
    assert_eq!(tag_name(tag::FWID, DeviceKind::Gpu), Some("FWID"));
    assert_eq!(
        tag_name(tag::SWITCH_GPU_PDIS, DeviceKind::Switch),
        Some("SWITCH_GPU_PDIS")
    );
}

#[test]
fn http_plumbing_is_not_public() {
    let service = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/service.rs"))
        .expect("src/service.rs");
    // Routing, response decoration and HEAD handling stay crate-private.
    assert!(
        service.contains("\nmod router;"),
        "service::router is private"
    );
    assert!(
        !service.contains("pub use router::"),
        "nothing of the router is public"
    );
    let forward = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/access/forward.rs"
    ))
    .expect("src/access/forward.rs");
    // The gateway's header and query helpers are observable only through `authorize`.
    for helper in [
        "normalize_header_name",
        "is_stripped_header",
        "connection_named",
        "clean_query",
    ] {
        assert!(
            forward.contains(&format!("pub(crate) fn {helper}(")),
            "{helper} is crate-private"
        );
    }
}
