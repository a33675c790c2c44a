//! `src/js/claims.d.ts`, the TypeScript claim sets of the service's tokens, written from the
//! claims structs of `src/service/claims/` themselves: each interface's members are the
//! members those structs serialize (names from the core's name tables), their JSON types as
//! observed over a passed, a failed and an empty device (`| null` where the service writes
//! null, `?` where it leaves a member out). What the TypeScript adds — interface names and
//! docs, which string members are literal unions, the open index signature — is the table
//! below. Run with `EDGEATTEST_BLESS=1` to rewrite `claims.d.ts` after a claims change.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::path::Path;

use edgeattest::attest::{ClaimsVersion, DeviceKind, Nonce};
use edgeattest::chain::RevocationStatus;
use edgeattest::cmw::EvidenceForm;
use edgeattest::rim::{MeasurementSource, MismatchRecord, OpaqueMismatch};
use edgeattest::service::claims::{
    CertChainClaim, ErrorOnlyClaims, GpuClaimsV1, GpuClaimsV2, GpuClaimsV3, GpuClaimsV4,
    GpuCommonClaims, GpuSingleTokenV1, OverallClaims, SwitchClaimsV1, SwitchClaimsV2,
    SwitchClaimsV3, SwitchCommonClaims, TokenTimes,
};
use edgeattest::service::{
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementOutcome, RimOutcome,
};
use edgeattest::time::UnixTime;
use serde::Serialize;
use serde_json::{Map, Value};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const FILE: &str = "src/js/claims.d.ts";

type Object = Map<String, Value>;

fn object(value: impl Serialize) -> Object {
    match serde_json::to_value(value).unwrap() {
        Value::Object(map) => map,
        other => panic!("claims serialize as an object, not {other}"),
    }
}

fn times() -> TokenTimes {
    TokenTimes {
        iss: "https://nras.attestation.nvidia.com".into(),
        iat: 1_750_000_000,
        nbf: 1_750_000_000,
        exp: 1_750_021_600,
        jti: "00000000-0000-4000-8000-000000000000".into(),
    }
}

fn chain(status: CertStatus, ocsp: RevocationStatus) -> ChainOutcome {
    ChainOutcome {
        status,
        ocsp,
        earliest_expiry: UnixTime::from_secs(1_780_000_000),
        revocation_reason: Some("keyCompromise".into()),
        revocation_time: UnixTime::from_secs(1_760_000_000),
    }
}

fn error() -> ErrorDetails {
    ErrorDetails {
        code: 4010,
        field_name: "nonce".into(),
        http_status: "400 BAD_REQUEST".into(),
        description: "The nonce does not match".into(),
        message: "NONCE_NOT_MATCHING".into(),
    }
}

fn opaque(runtime: bool) -> OpaqueMismatch {
    OpaqueMismatch {
        id: 1,
        name: "OPAQUE_FIELD_ID_FWID".into(),
        golden_type: "MIN_SVN",
        golden_value: 2,
        runtime_type: runtime.then_some("MIN_SVN"),
        runtime_value: runtime.then_some(1),
    }
}

/// A device with every member known: `passed` one, or one that failed with a mismatch and an
/// error (and every optional member the service may add).
fn known(kind: DeviceKind, passed: bool) -> DeviceOutcome {
    let rim = RimOutcome {
        fetched: true,
        schema_validated: Some(true),
        cert_chain: Some(chain(CertStatus::Valid, RevocationStatus::Good)),
        signature_verified: Some(true),
        version_match: Some(true),
        measurements_available: Some(true),
    };
    let record = MismatchRecord {
        index: 9,
        golden_size: 48,
        golden_value: "00".repeat(48),
        runtime_size: 0,
        runtime_value: "NA".into(),
        measurement_source: MeasurementSource::Driver,
    };
    DeviceOutcome {
        kind,
        arch_check: true,
        evidence_verified: true,
        report_parsed: true,
        signature_verified: Some(true),
        nonce_match: Some(true),
        cert_chain: Some(chain(CertStatus::Valid, RevocationStatus::Good)),
        fwid_match: Some(true),
        hwmodel: Some("GH100 A01 GSP BROM".into()),
        ueid: Some("4781763792860821866".into()),
        oemid: Some("5703".into()),
        driver_version: Some("550.90.07".into()),
        firmware_version: Some("96.00.9F.00.01".into()),
        driver_rim: Some(rim.clone()),
        firmware_rim: Some(rim),
        index_no_conflict: Some(true),
        measurements: if passed {
            MeasurementOutcome::Match
        } else {
            MeasurementOutcome::Mismatch(vec![record])
        },
        opaque_mismatches: if passed { vec![] } else { vec![opaque(true)] },
        attester_claims: [("OPAQUE_FIELD_ID_FWID".into(), 1)].into(),
        switch_pdis: (!passed).then(|| vec!["0011223344556677".into()]),
        mode: Some(if passed { "ppcie" } else { "invalid" }),
        switch_pdi: (!passed).then(|| "666E93E19DEC7D2D".into()),
        switch_gpu_pdis: (!passed).then(|| vec!["0011223344556677".into()]),
        secure_boot: Some(passed),
        debug_status: Some("disabled".into()),
        warning: (!passed).then(|| edgeattest::service::REVOCATION_WARNING.into()),
        error: (!passed).then(error),
    }
}

/// A device of which nothing could be computed.
fn unknown(kind: DeviceKind) -> DeviceOutcome {
    DeviceOutcome {
        arch_check: false,
        evidence_verified: false,
        report_parsed: false,
        signature_verified: None,
        nonce_match: None,
        cert_chain: None,
        fwid_match: None,
        hwmodel: None,
        ueid: None,
        oemid: None,
        driver_version: None,
        firmware_version: None,
        driver_rim: None,
        firmware_rim: None,
        index_no_conflict: None,
        measurements: MeasurementOutcome::NotRun,
        opaque_mismatches: vec![],
        attester_claims: BTreeMap::new(),
        switch_pdis: None,
        mode: None,
        switch_pdi: None,
        switch_gpu_pdis: None,
        secure_boot: None,
        debug_status: None,
        warning: None,
        error: None,
        ..known(kind, true)
    }
}

/// The three devices of a kind: passed, failed, unknown.
fn devices(kind: DeviceKind) -> [DeviceOutcome; 3] {
    [known(kind, true), known(kind, false), unknown(kind)]
}

/// Each device's claims, as JSON objects.
fn each<T: Serialize>(
    kind: DeviceKind,
    build: impl Fn(&DeviceOutcome, &Nonce, TokenTimes) -> T,
) -> Vec<Object> {
    let nonce = Nonce::from_bytes([0xab; Nonce::LEN]);
    devices(kind)
        .iter()
        .map(|outcome| object(build(outcome, &nonce, times())))
        .collect()
}

/// Every certificate-chain verdict the claims write (the service never writes `not-checked`).
fn chain_claims() -> Vec<Object> {
    let statuses = [
        CertStatus::Valid,
        CertStatus::Expired,
        CertStatus::Invalid,
        CertStatus::Revoked,
    ];
    let revocations = [
        RevocationStatus::Good,
        RevocationStatus::Revoked,
        RevocationStatus::Unknown,
    ];
    let mut out = Vec::new();
    for (i, status) in statuses.into_iter().enumerate() {
        let mut outcome = chain(status, revocations[i.min(revocations.len() - 1)]);
        if i > 0 {
            (outcome.earliest_expiry, outcome.revocation_reason) = (None, None);
            outcome.revocation_time = None;
        }
        out.push(object(CertChainClaim::new(&outcome)));
    }
    for ocsp in revocations {
        out.push(object(CertChainClaim::new(&chain(CertStatus::Valid, ocsp))));
    }
    out
}

/// One interface of the file.
struct Interface {
    name: &'static str,
    doc: &'static str,
    /// The interface it extends (its members are left out here), or "" for a closed object.
    extends: &'static str,
    /// Serialized claims: the members are those of any; absent from one: optional.
    samples: Vec<Object>,
    /// `Some(other)`: only the members `other`'s samples hold with the same type.
    common_with: Option<Vec<Object>>,
    /// String members typed as the union of the values written.
    literals: &'static [&'static str],
    /// Member docs.
    docs: &'static [(&'static str, &'static str)],
    /// Members typed wider than the values the service writes.
    wider: &'static [(&'static str, &'static str)],
    /// Members the claims structs do not write (the token layer adds them).
    extra: &'static [&'static str],
}

fn interface(
    name: &'static str,
    doc: &'static str,
    extends: &'static str,
    samples: Vec<Object>,
) -> Interface {
    Interface {
        name,
        doc,
        extends,
        samples,
        common_with: None,
        literals: &[],
        docs: &[],
        wider: &[],
        extra: &[],
    }
}

/// The TypeScript type of a member's object or array value, by member name.
fn named_object(member: &str) -> &'static str {
    match member {
        "x-nvidia-error-details" => "ErrorDetailsClaim",
        "x-nvidia-attestation-detailed-result" => "GpuDetailedResultV1",
        "x-nvidia-mismatch-measurement-records" => "MismatchMeasurementRecord",
        "x-nvidia-mismatch-opaque-data-records" => "MismatchOpaqueDataRecord",
        "x-nvidia-attester-claims" => "Record<string, number>",
        name if name.ends_with("-cert-chain") => "CertChainClaim",
        name => panic!("{name}: an object claim with no TypeScript name"),
    }
}

/// The TypeScript types of one JSON value (several for a literal member).
fn ts_type(member: &str, value: &Value, literal: bool) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "boolean".into(),
        Value::Number(_) => "number".into(),
        Value::String(text) if literal => format!("'{text}'"),
        Value::String(_) => "string".into(),
        Value::Array(items) => {
            let item = items
                .first()
                .unwrap_or_else(|| panic!("{member}: an empty array sample"));
            let inner = ts_type(member, item, false);
            match inner.as_str() {
                "boolean" | "number" | "string" => format!("{inner}[]"),
                _ => format!("{}[]", named_object(member)),
            }
        }
        Value::Object(_) => named_object(member).into(),
    }
}

/// A member's types over the samples, `null` last, and whether a sample leaves it out.
fn member_type(member: &str, samples: &[Object], literal: bool) -> (String, bool) {
    let mut types: Vec<String> = Vec::new();
    let mut optional = false;
    for sample in samples {
        match sample.get(member) {
            Some(value) => {
                let ts = ts_type(member, value, literal);
                if !types.contains(&ts) {
                    types.push(ts);
                }
            }
            None => optional = true,
        }
    }
    types.sort_by_key(|t| t == "null");
    (types.join(" | "), optional)
}

/// The members of `samples`, in the order the claims write them, with their types.
fn members(samples: &[Object], literals: &[&str]) -> Vec<(String, String, bool)> {
    let mut names: Vec<&String> = Vec::new();
    for sample in samples {
        for name in sample.keys() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
        .into_iter()
        .map(|name| {
            let (ts, optional) = member_type(name, samples, literals.contains(&name.as_str()));
            (name.clone(), ts, optional)
        })
        .collect()
}

fn quoted(name: &str) -> String {
    if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        name.into()
    } else {
        format!("'{name}'")
    }
}

/// The interfaces of the file, in its order.
fn interfaces() -> Vec<Interface> {
    use DeviceKind::{Gpu, Switch};
    let nonce = Nonce::from_bytes([0xab; Nonce::LEN]);
    let gpu_v1 = each(Gpu, GpuClaimsV1::new);
    let single = each(Gpu, GpuSingleTokenV1::new);
    let gpu_common = each(Gpu, GpuCommonClaims::new);
    // The shared claims of 1.0 and of 2.0 and later, alone.
    let shared_v1: Vec<Object> = devices(Gpu)
        .iter()
        .map(|d| object(&GpuClaimsV1::new(d, &nonce, times()).shared))
        .collect();
    let shared_v2: Vec<Object> = devices(Gpu)
        .iter()
        .map(|d| object(&GpuCommonClaims::new(d, &nonce, times()).shared))
        .collect();
    let detailed: Vec<Object> = devices(Gpu)
        .iter()
        .map(|d| object(&GpuSingleTokenV1::new(d, &nonce, times()).detailed_result))
        .collect();
    let overall = [
        (true, EvidenceForm::Plain),
        (false, EvidenceForm::JsonCmw),
        (true, EvidenceForm::CborCmw),
    ]
    .map(|(passed, form)| {
        object(
            OverallClaims::new(times(), ClaimsVersion::V3_0, passed, "ab".repeat(32))
                .with_evidence_form(form),
        )
    });
    let measres = &["measres"];
    vec![
        Interface {
            docs: &[],
            ..interface("TokenTimeClaims", "`iss`, `iat`, `nbf`, `exp`, `jti`: every token carries them (Unix seconds).", "OpenClaims", vec![object(times())])
        },
        Interface {
            docs: &[
                ("code", "The numeric code, e.g. 4010."),
                ("fieldName", "The request member concerned, e.g. \"nonce\"."),
                ("httpStatus", "e.g. \"400 BAD_REQUEST\"."),
                ("message", "The symbolic name, e.g. \"NONCE_NOT_MATCHING\"."),
            ],
            ..interface("ErrorDetailsClaim", "`x-nvidia-error-details`: the first failure, as the service's error body names it.", "", vec![object(error())])
        },
        Interface {
            literals: &["x-nvidia-cert-status", "x-nvidia-cert-ocsp-status"],
            docs: &[
                ("x-nvidia-cert-expiration-date", "The earliest notAfter of the chain, `YYYY-MM-DDTHH:MM:SSZ`."),
                ("x-edgeattest-cert-revocation-time", "Ours, not NVIDIA's: when the certificate the chain is reported revoked (or on hold) for was revoked, `YYYY-MM-DDTHH:MM:SSZ`; absent otherwise. A relying party's revokedGracePeriod counts from it."),
            ],
            ..interface("CertChainClaim", "The certificate-chain object of claims 3.0 and 4.0.", "", chain_claims())
        },
        Interface {
            docs: &[
                ("index", "RIM (0-based) index."),
                ("goldenValue", "Lower-case hex (the first alternative)."),
                ("runtimeSize", "0 when the block is missing."),
                ("runtimeValue", "Lower-case hex, or \"NA\" when the block is missing."),
                ("measurementSource", "Which RIM: \"Driver\" or \"Firmware\"."),
            ],
            ..interface("MismatchMeasurementRecord", "One entry of `x-nvidia-mismatch-measurement-records`.", "", {
                let failed = known(Gpu, false);
                match failed.measurements {
                    MeasurementOutcome::Mismatch(records) => records.iter().map(object).collect(),
                    _ => unreachable!(),
                }
            })
        },
        interface("MismatchOpaqueDataRecord", "One entry of `x-nvidia-mismatch-opaque-data-records` (claims 4.0).", "", vec![object(opaque(true)), object(opaque(false))]),
        Interface {
            literals: &["sub", "x-edgeattest-evidence-form"],
            docs: &[
                ("x-edgeattest-evidence-form", "Ours, not NVIDIA's: the CMW form the evidence came in; absent for plain evidence items."),
                ("x-nvidia-ver", "The claims version of the device tokens: \"1.0\" … \"4.0\"."),
                ("x-nvidia-overall-att-result", "The service's verdict: true when every device passed."),
            ],
            extra: &["/** Each device token's digest, by label. */", "submods: Record<string, SubmodDigest>;"],
            ..interface("OverallClaims", "The overall token of a detached result (V2–V4).", "TokenTimeClaims", overall.into())
        },
        interface("ErrorOnlyClaims", "A failed device's token under claims 1.0 and 2.0: the times and the error only.", "TokenTimeClaims", vec![object(ErrorOnlyClaims { times: times(), error: error() })]),
        Interface {
            common_with: Some(shared_v2),
            literals: measres,
            ..interface("GpuIdentityClaims", "What every GPU claims version carries: the nonce, the device, its firmware, the report checks.", "TokenTimeClaims", shared_v1)
        },
        Interface { literals: measres, ..interface("GpuClaimsV1", "GPU claims 1.0: the device token of a V2 detached result.", "GpuIdentityClaims", gpu_v1) },
        interface("GpuDetailedResultV1", "The checks of the V1 single token, grouped under `x-nvidia-attestation-detailed-result`.", "", detailed),
        Interface {
            literals: &["sub", "x-nvidia-ver", "measres"],
            ..interface("GpuSingleTokenV1Claims", "The V1 single token (`{\"eat\": token}` of /v1/attest/gpu): one GPU's claims 1.0 and the verdict.", "TokenTimeClaims", single)
        },
        Interface { literals: measres, ..interface("GpuCommonClaims", "What GPU claims 2.0, 3.0 and 4.0 share.", "GpuIdentityClaims", gpu_common) },
        interface("GpuClaimsV2", "GPU claims 2.0 (V3, and V4 on request).", "GpuCommonClaims", each(Gpu, GpuClaimsV2::new)),
        Interface {
            docs: &[("x-nvidia-error-details", "Present when the device failed.")],
            ..interface("GpuClaimsV3", "GPU claims 3.0 (the V4 default).", "GpuCommonClaims", each(Gpu, GpuClaimsV3::new))
        },
        Interface {
            literals: &["x-nvidia-device-type", "x-nvidia-gpu-claims-version"],
            docs: &[
                ("x-nvidia-attester-claims", "Opaque values the RIMs flag for the relying party; maybe `{}`."),
                ("x-nvidia-gpu-switch-pdis", "PDIs of the connected switches, when the evidence carries them."),
            ],
            ..interface("GpuClaimsV4", "GPU claims 4.0: 3.0 plus mismatch records, attester claims, device type and version.", "GpuClaimsV3", each(Gpu, GpuClaimsV4::new))
        },
        Interface { literals: measres, ..interface("SwitchClaimsV1", "Switch claims 1.0 (V2 detached): the BIOS RIM under the 1.0 `vbios` names.", "TokenTimeClaims", each(Switch, SwitchClaimsV1::new)) },
        Interface { literals: measres, ..interface("SwitchCommonClaims", "What switch claims 2.0 and 3.0 share.", "TokenTimeClaims", each(Switch, SwitchCommonClaims::new)) },
        interface("SwitchClaimsV2", "Switch claims 2.0 (V3, and V4 on request).", "SwitchCommonClaims", each(Switch, SwitchClaimsV2::new)),
        Interface {
            docs: &[("oemid", "Always null for switches.")],
            // Typed as the GPU claims' `oemid`, which NVIDIA's service names alike.
            wider: &[("oemid", "string | null")],
            ..interface("SwitchClaimsV3", "Switch claims 3.0 (the V4 default).", "SwitchCommonClaims", each(Switch, SwitchClaimsV3::new))
        },
    ]
}

/// The members each interface declares itself, by interface name (for `extends`).
fn render(interfaces: &[Interface]) -> String {
    let mut declared: BTreeMap<&str, Vec<(String, String, bool)>> = BTreeMap::new();
    let mut out = String::new();
    for item in interfaces {
        let mut own = members(&item.samples, item.literals);
        if let Some(other) = &item.common_with {
            let theirs = members(other, item.literals);
            own.retain(|member| theirs.contains(member));
        }
        // The members of the interfaces it extends, up the chain.
        let mut inherited: Vec<(String, String, bool)> = Vec::new();
        let mut parent = item.extends;
        while let Some(members) = declared.get(parent) {
            inherited.extend(members.iter().cloned());
            parent = interfaces
                .iter()
                .find(|i| i.name == parent)
                .unwrap()
                .extends;
        }
        own.retain(|(name, ..)| !inherited.iter().any(|(n, ..)| n == name));
        let extends = if item.extends.is_empty() {
            String::new()
        } else {
            format!(" extends {}", item.extends)
        };
        out.push_str(&format!(
            "\n/** {} */\nexport interface {}{extends} {{\n",
            item.doc, item.name
        ));
        for (name, ts, _) in &mut own {
            if let Some((_, wider)) = item.wider.iter().find(|(member, _)| member == name) {
                *ts = (*wider).into();
            }
        }
        for (name, ts, optional) in &own {
            if let Some((_, doc)) = item.docs.iter().find(|(member, _)| member == name) {
                out.push_str(&format!("  /** {doc} */\n"));
            }
            out.push_str(&format!(
                "  {}{}: {ts};\n",
                quoted(name),
                if *optional { "?" } else { "" }
            ));
        }
        for line in item.extra {
            out.push_str(&format!("  {line}\n"));
        }
        out.push_str("}\n");
        declared.insert(item.name, own);
    }
    out
}

/// The whole file: the header, the hand-written part, the generated interfaces, the unions.
fn typescript() -> String {
    let mut out = String::from(
        "// GENERATED from the claims structs of src/service/claims/ by tests/it/claims_dts.rs; do not\n\
         // edit. Regenerate: EDGEATTEST_BLESS=1 cargo test --test it claims_dts\n\
         //\n\
         // Claim sets of the attestation service's tokens, as src/service/claims/*.rs writes them and as\n\
         // NVIDIA's service does (names and JSON types of the real tokens in tests/fixtures/nvidia/nras).\n\
         // A member is `null` where the service could not compute it (claims 3.0 and 4.0 keep every\n\
         // member on failure); every set stays open (`[claim: string]: unknown`) for claims a newer\n\
         // service adds. Narrow a device payload with `in` ('x-nvidia-error-details' in payload) or by\n\
         // the claims version the request asked for (the overall token's `x-nvidia-ver`).\n\
         \n\
         /** Members a newer service may add. */\n\
         export interface OpenClaims {\n  [claim: string]: unknown;\n}\n\
         \n\
         /** `submods` entry: `[\"DIGEST\", [algorithm, lowercase hex]]` (RFC 9711 §4.2.18). */\n\
         export type SubmodDigest = ['DIGEST', [string, string]];\n",
    );
    out.push_str(&render(&interfaces()));
    out.push_str(
        "\n/** A device token's claims: one of the service's sets, or claims this package does not know. */\n\
         export type DeviceClaims =\n  | GpuClaimsV1\n  | GpuClaimsV2\n  | GpuClaimsV3\n  | GpuClaimsV4\n  | SwitchClaimsV1\n  | SwitchClaimsV2\n  | SwitchClaimsV3\n  | ErrorOnlyClaims\n  | OpenClaims;\n\
         \n\
         /** The overall token's claims: a detached result's overall token, or the V1 single token. */\n\
         export type OverallTokenClaims = OverallClaims | GpuSingleTokenV1Claims | OpenClaims;\n",
    );
    out
}

#[test]
fn claims_d_ts_is_the_claims_structs() {
    crate::generated_file_is(
        &Path::new(ROOT).join(FILE),
        &typescript(),
        "EDGEATTEST_BLESS=1 cargo test --test it claims_dts",
    );
}
