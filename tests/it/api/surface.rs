//! The public surface, pinned: the crate root's two names, the public modules (one per step
//! of the attestation core, the base modules every step shares, the HTTP-facing parts), the
//! names each step's module exports, and that the crate's helpers and the HTTP plumbing stay
//! private.
//!
//! The `use` lines below stop compiling when a chosen item disappears or moves; the tests
//! compare the same lists with the `pub` lines of `src/lib.rs` and of each module file, so an
//! item added without being listed here fails too: every change to the surface is a decision
//! made here.

use std::collections::BTreeSet;

/// The crate root's names: the trait that reads any error's stable code (it must be in scope
/// to call `.code()`), and the clock reading every check takes as `now`.
#[allow(unused_imports)]
use edgeattest::{ErrorCode, UnixTime};
const ROOT: &[&str] = &["ErrorCode", "UnixTime"];

macro_rules! module_items {
    ($($module:ident: [$($name:ident),* $(,)?];)*) => {
        $(
            #[allow(unused_imports)]
            use edgeattest::$module::{$($name as _),*};
        )*
        /// Every name each step's module and each shared base module exports, by module.
        const MODULE_ITEMS: &[(&str, &[&str])] = &[$((stringify!($module), &[$(stringify!($name)),*])),*];
    };
}

module_items!(
    error_code: [
        ErrorCode,
        registered_code,
        ErrorBody,
        NoDetail,
        RegisteredCode,
        ERROR_CODES,
    ];
    bytes: [
        Document,
        HexBytes,
        TextOrBytes,
    ];
    cbor: [
        decode,
        Cbor,
        CborError,
        CborLimits,
    ];
    // CMW-wrapped evidence: the wrapper in both serialisations and NVIDIA's verifier input.
    cmw: [
        tag_of_content_format,
        Cmw,
        CmwDevice,
        CmwError,
        CmwEvidence,
        CmwForm,
        CmwLimits,
        Collection,
        EvidenceForm,
        Label,
        MediaType,
        Record,
        COLLECTION_TYPE_LABEL,
        IND_EVIDENCE,
        NVIDIA_COLLECTION_TYPE,
        NVIDIA_ITEM_TYPE,
        PEM_CHAIN_MEDIA_TYPE,
        SPDM_TRANSCRIPT_MEDIA_TYPE,
        TN_MIN,
    ];
    cose: [
        sign1_assemble,
        sign1_to_be_signed,
        CoseError,
        Sign1,
        ALG_ES384,
        COSE_SIGN1_TAG,
        HEADER_ALG,
        HEADER_CONTENT_TYPE,
        HEADER_CRIT,
        HEADER_KID,
        HEADER_X5CHAIN,
    ];
    json: [
        parse,
        from_slice,
        MAX_DEPTH,
        JsonError,
    ];
    time: [
        UnixTime,
        format_http_date,
        format_rfc3339,
        parse_http_date,
        parse_rfc3339,
        DateTime,
        TimeError,
        MAX_SECS,
    ];
    attest: [
        check_table,
        decode_evidence_text,
        validate_request,
        Arch,
        ArchProfile,
        AttestRequestBuilder,
        ChipRow,
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
        ArchitectureRow,
        EvidenceProfile,
        FwidPolicy,
        FwidRule,
        RimPath,
    ];
    evidence: [
        CertificateChainReport,
        DeviceError,
        DeviceResult,
        EvidenceOptions,
        OptionsError,
        RuntimeEvidenceInput,
        arch_of_chain,
        check_topology,
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
        EvidenceReport,
        FailedEvidence,
        Failure,
        FeatureFlag,
        FwidCheck,
        MeasurementBlock,
        MeasurementRequest,
        MeasurementResponse,
        OpaqueData,
        OpaqueEntry,
        OpaqueFormat,
        OpaqueReport,
        ParseError,
        Pdi,
        ReportPlan,
        ResultClaims,
        RevocationInput,
        RevocationState,
        RimDocuments,
        RimInputs,
        RimStep,
        RimSteps,
        Stage,
        StageId,
        StageStatus,
        SwitchGpuPdis,
        TopologyDevice,
        TopologyError,
        TopologyEvidenceOptions,
        TopologyFinding,
        TopologyGpu,
        TopologyInput,
        TopologyOptions,
        TopologyReport,
        TopologyRule,
        TopologyRuleOutcome,
        TopologyRuleStatus,
        TopologySwitch,
        TopologyVerdict,
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
        ERR_RIM_NOT_AVAILABLE,
        ERR_RIM_VERSION_MISMATCH,
        MAX_DEVICE_PDIS,
        MAX_TOPOLOGY_DEVICES,
        tag,
        tag_name,
    ];
    chain: [
        parse_pem_chain,
        verify_chain,
        verify_pem_chain,
        CertPosition,
        ChainCertificate,
        ChainError,
        ChainOptions,
        ChainPlan,
        ChainStatus,
        RevocationStatus,
        Purpose,
        TimeCheck,
        TrustStore,
        VerifiedChain,
        MAX_CHAIN_CERTIFICATES,
        NVIDIA_CORIM_ROOT_CA001_PEM,
        NVIDIA_DEVICE_IDENTITY_CA_PEM,
        NVIDIA_RIM_ROOT_CA_PEM,
    ];
    ocsp: [
        ChainOcspRequest,
        CheckOcspOptions,
        OcspCertificateStatus,
        OcspChainStatus,
        OcspInputError,
        OcspNonce,
        OcspRequestsOptions,
        Relaxation,
        RevocationComponent,
        RevocationPolicy,
        RevocationRule,
        HOLD_ACCEPTED,
        chain_requests,
        check_response,
        screen_response,
        fold_chain,
        mirror_cache_key,
        ocsp_targets,
        CertId,
        CertRevocation,
        ChainKind,
        ChainRevocation,
        CheckedOcsp,
        NonceCheck,
        OcspError,
        OcspRequest,
        PendingOcsp,
        ResponderProblem,
        ResponseStatus,
        RevocationReason,
        OCSP_CLOCK_SKEW,
        MAX_AGE_WITHOUT_NEXT_UPDATE,
        MAX_CACHE_SECONDS,
        MAX_RESPONSE_CERTS,
        MAX_RESPONSE_LEN,
        MAX_SINGLE_RESPONSES,
        NONCE_LEN,
        FetchFailure,
    ];
    rim: [
        identify_rim,
        ComparisonReport,
        RimIdentity,
        RimIdParts,
        RimIds,
        RimOptions,
        ERR_RIM_CHAIN_EXPIRED,
        ERR_RIM_CHAIN_INVALID,
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
        // CoRIMs: the CBOR twin, read into the same documents.
        parse_corim,
        Corim,
        CorimError,
        DiceReference,
        RimFormats,
        CORIM_CBOR_LIMITS,
        MAX_CORIM_ALTERNATIVES,
        MAX_CORIM_BYTES,
        MAX_CORIM_MEASUREMENTS,
        MAX_CORIM_TAGS,
        MAX_CORIM_TRIPLES,
        NVIDIA_CORIM_ROOT_PEM,
        NVIDIA_RIM_ROOT_PEM,
    ];
    token: [
        PreparedToken,
        TokenVerdict,
        VerifyInput,
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
        // Signer pinning: the anchors (default NVIDIA's attestation CA), why a key is not
        // pinned, and who signed a verified token; the module itself holds the constants.
        signer,
        Signers,
        SignerAnchor,
        SignerError,
        SignerCertificate,
        PinnedSigner,
        VerifiedSigner,
        // The signer chain's OCSP: a pinned path's targets and verdict (Rust callers holding
        // the verified signer), and the key-set form hosts use (the binding, the component).
        SignerOcspTarget,
        SignerRevocation,
        SignerOcspOptions,
        SignerOcspRequest,
        SignerOcspStatus,
        // The JSON forms the verified results are written through (derived, so that their
        // TypeScript is generated): the shapes the binding returns.
        AppraisalJson,
        AppraisalReasonJson,
        DeviceAppraisalJson,
        VerifiedAttestationResultJson,
        VerifiedDeviceJson,
        VerifiedJwtJson,
        VerifiedSignerJson,
        MAX_JWKS_BYTES,
        MAX_JWKS_KEYS,
        MAX_RESULT_BYTES,
        MAX_TOKEN_BYTES,
        MAX_DEVICES,
        MAX_HEADER_BYTES,
        MAX_LABEL_LEN,
    ];
    policy: [
        appraise,
        DeviceDecision,
        Policy,
        PolicyDecision,
        PolicyError,
        PolicyVersion,
        RuleOutcome,
        RuleStatus,
        MAX_POLICY_BYTES,
        MAX_RULES,
        MAX_RULE_ARRAY,
        MAX_RULE_DEPTH,
    ];
    ear: [
        appraise_device,
        check_composite_ear,
        compose_ear,
        ear_media_type,
        policy_id,
        prepare_ear,
        prepare_ear_cwt,
        trust_vector,
        verify_composite_ear,
        verify_ear,
        verify_ear_cwt,
        Ear,
        EarAppraisal,
        EarCwtInput,
        EarData,
        EarDialect,
        EarEncoding,
        EarError,
        EarSubmod,
        PreparedEar,
        TrustTier,
        TrustVector,
        VerifierId,
        EAR_DEVELOPER,
        EAR_MEDIA_TYPE,
        EAR_PROFILE,
        EAR_PROFILE_04,
        MAX_EAR_SUBMODS,
    ];
    crypto: [
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
    ];
);

/// The names behind Cargo feature `rego` (Rego policies), in `policy` only with it.
#[cfg(feature = "rego")]
#[allow(unused_imports)]
use edgeattest::policy::{
    appraise_rego, RegoError, RegoPolicy, RegoSyntax, MAX_REGO_COLUMNS, MAX_REGO_COST,
    MAX_REGO_INSTRUCTIONS, MAX_REGO_LINES, MAX_REGO_NESTING, REGO_ALLOWED_BUILTINS,
};
const POLICY_REGO: &[&str] = &[
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

/// The public modules: the base every step shares, one module per step of the attestation
/// core, the four HTTP-facing parts, and the wasm binding (hidden; its suites call it with
/// hostile values).
const PUBLIC_MODULES: [&str; 21] = [
    "bytes",
    "cbor",
    "error_code",
    "json",
    "time",
    "attest",
    "chain",
    "cmw",
    "cose",
    "crypto",
    "ear",
    "evidence",
    "ocsp",
    "policy",
    "rim",
    "token",
    "access",
    "deprecation",
    "listing",
    "service",
    "wasm",
];

/// The crate's helpers: private, reached through the modules that use them.
const PRIVATE_MODULES: [&str; 5] = [
    "host_answer",
    "sort",
    "urlencoded",
    "x509",
    // The WIT binding (wasm32-wasip2 only): reached through the component's exports, not Rust paths.
    "component",
];

fn source(file: &str) -> String {
    let path = format!("{}/src/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{path}"))
}

/// The code lines of a module file up to its unit tests (comments dropped, so prose may name
/// anything).
fn code_of(file: &str) -> String {
    let text = source(file);
    let text = text
        .split("\n#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names a module file makes public: those its `pub use` lines re-export (`a as b`
/// counts as `b`) and the items it declares `pub` itself. `pub(crate)` is not public.
fn exported(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("\npub use ") {
        let statement = &rest[at + "\npub use ".len()..];
        let end = statement.find(';').expect("a pub use ends with ';'");
        let path = &statement[..end];
        let items = match path.find('{') {
            Some(open) => &path[open + 1..path.rfind('}').expect("a use list closes")],
            None => path.rsplit("::").next().unwrap(),
        };
        for item in items.split(',') {
            let item = item.trim();
            if !item.is_empty() {
                names.push(item.rsplit(" as ").next().unwrap().trim().to_owned());
            }
        }
        rest = &statement[end..];
    }
    for line in code.lines() {
        let Some(declared) = line.strip_prefix("pub ") else {
            continue;
        };
        let declared = declared.strip_prefix("const fn ").unwrap_or(declared);
        for kind in [
            "fn ", "struct ", "enum ", "const ", "static ", "trait ", "mod ", "type ",
        ] {
            if let Some(rest) = declared.strip_prefix(kind) {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
            }
        }
    }
    names
}

/// `mod` declarations of `src/lib.rs` with the given prefix (`pub mod `, `mod `).
fn declared_modules(prefix: &str) -> BTreeSet<String> {
    code_of("lib.rs")
        .lines()
        .filter_map(|line| line.strip_prefix(prefix))
        .map(|rest| rest.trim_end_matches(';').to_owned())
        .collect()
}

#[test]
fn the_root_keeps_two_names() {
    let exported = exported(&code_of("lib.rs"));
    let mut root: Vec<&str> = exported
        .iter()
        .map(String::as_str)
        .filter(|name| !PUBLIC_MODULES.contains(name))
        .collect();
    root.sort_unstable();
    assert_eq!(
        root, ROOT,
        "the root changed; list the decision in this file"
    );
}

#[test]
fn each_module_exports_the_chosen_names() {
    for (module, listed) in MODULE_ITEMS {
        let mut listed: Vec<&str> = listed.to_vec();
        if *module == "policy" {
            listed.extend(POLICY_REGO);
        }
        let exported = exported(&code_of(&format!("{module}.rs")));
        let exported_set: BTreeSet<&str> = exported.iter().map(String::as_str).collect();
        assert_eq!(
            exported_set.len(),
            exported.len(),
            "{module} exports a name twice"
        );
        let listed_set: BTreeSet<&str> = listed.iter().copied().collect();
        assert_eq!(
            listed_set.len(),
            listed.len(),
            "{module}: a name is listed twice"
        );
        let added: Vec<_> = exported_set.difference(&listed_set).collect();
        let dropped: Vec<_> = listed_set.difference(&exported_set).collect();
        assert!(
            added.is_empty() && dropped.is_empty(),
            "{module} changed: added {added:?}, dropped {dropped:?}; list the decision in this file"
        );
    }
}

#[test]
fn one_name_per_item() {
    // A name public in two step modules is one item under two paths, or two items under one
    // name: either way a reader guesses. The root's two names are also their modules'.
    let mut seen: std::collections::BTreeMap<&str, &str> = Default::default();
    for (module, names) in MODULE_ITEMS {
        for name in names.iter().chain(if *module == "policy" {
            POLICY_REGO
        } else {
            &[]
        }) {
            if let Some(first) = seen.insert(name, module) {
                panic!("{name} is public in both {first} and {module}");
            }
        }
    }
    // No public module re-exports a step's item under a second name.
    for (module, _) in MODULE_ITEMS {
        let code = code_of(&format!("{module}.rs"));
        for statement in code.split("\npub use ").skip(1) {
            let statement = &statement[..statement.find(';').unwrap()];
            let renamed = statement.contains(" as ");
            assert!(
                !renamed || statement.contains("ALLOWED_BUILTINS as REGO_ALLOWED_BUILTINS"),
                "{module} renames an item: pub use {statement}"
            );
        }
    }
}

#[test]
fn the_public_modules_are_the_chosen_ones() {
    assert_eq!(
        declared_modules("pub mod "),
        PUBLIC_MODULES.iter().map(|m| m.to_string()).collect()
    );
    assert_eq!(
        declared_modules("mod "),
        PRIVATE_MODULES.iter().map(|m| m.to_string()).collect()
    );
    // A `pub mod` hidden from the docs is still public API: only the binding may be one.
    assert_eq!(
        code_of("lib.rs").matches("#[doc(hidden)]\npub mod").count(),
        1,
        "only `wasm` is hidden"
    );
}

#[test]
fn the_concept_modules_hold_what_they_name() {
    use edgeattest::attest::DeviceKind;
    use edgeattest::evidence::{tag, tag_name};
    use edgeattest::json::{self, from_slice, JsonError, MAX_DEPTH};

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

/// The replay module of the service (`service::replay`): the bundle's shape, `replay` and its
/// verdicts, pinned as the step modules are.
#[allow(unused_imports)]
use edgeattest::service::replay::{
    replay as _, AnchorDigests as _, AnswerRecord as _, Bundle as _, ConfigRecord as _,
    Difference as _, Digested as _, FailureRecord as _, FetchRecord as _, ReplayAnchors as _,
    ReplayError as _, ReplayOptions as _, Replayed as _, RequestRecord as _, ResourceRecord as _,
    ResultRecord as _, RimRecord as _, TokenClaims as _, Verdict as _, BUNDLE_FORMAT as _,
    BUNDLE_MEDIA_TYPE as _, MAX_BUNDLE_BYTES as _, MAX_BUNDLE_FETCHES as _, MAX_BUNDLE_RIMS as _,
    REPLAY_HEADER as _,
};
const REPLAY_ITEMS: &[&str] = &[
    "AnchorDigests",
    "AnswerRecord",
    "BUNDLE_FORMAT",
    "BUNDLE_MEDIA_TYPE",
    "Bundle",
    "ConfigRecord",
    "Difference",
    "Digested",
    "FailureRecord",
    "FetchRecord",
    "MAX_BUNDLE_BYTES",
    "MAX_BUNDLE_FETCHES",
    "MAX_BUNDLE_RIMS",
    "REPLAY_HEADER",
    "ReplayAnchors",
    "ReplayError",
    "ReplayOptions",
    "Replayed",
    "RequestRecord",
    "ResourceRecord",
    "ResultRecord",
    "RimRecord",
    "TokenClaims",
    "Verdict",
    "replay",
];

#[test]
fn the_replay_module_exports_the_chosen_names() {
    let mut exported = exported(&code_of("service/replay.rs"));
    exported.sort_unstable();
    assert_eq!(exported, REPLAY_ITEMS);
}
