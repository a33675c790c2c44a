//! The TypeScript of the core's serde types that cross the JS binding, generated from the
//! types themselves (ts-rs reads their serde names, optional members and enums; Cargo feature
//! `ts`, which no module build enables) into the fragments under `src/wasm/types/` that the
//! binding splices into `edgeattest.d.ts`. A fragment that differs from what its types
//! generate fails here; regenerate with the command in `REGENERATE`. The shapes no serde
//! derive of the core declares (the binding's own input shapes and classes, and what a
//! hand-written `Serialize` writes) are hand-written in `src/wasm/types/hand/`, which the
//! binding splices beside the generated fragment of the same name.
#![cfg(all(feature = "ts", not(target_arch = "wasm32")))]

use std::collections::BTreeSet;
use std::path::Path;

use edgeattest::access::{
    AccessDetail, AccessOptions, Decision, DevKeys, Forward, KeyStore, KeySummary, NewKeyOptions,
    Role, Scope,
};
use edgeattest::attest::{ArchitectureRow, Endpoint, EvidenceEncoding, RequestSummary};
use edgeattest::crypto::{Jwk, SignatureCheck};
use edgeattest::deprecation::{DeprecationOptions, Notice};
use edgeattest::ear::{EarData, EarSubmod, TrustTier, TrustVector};
use edgeattest::evidence::{
    CertificateChainReport, DeviceReport, DeviceResult, EvidenceReport, Failure, RimStep,
    RuntimeEvidenceInput, Stage, StageId, StageStatus, TopologyDevice, TopologyFinding,
    TopologyReport, TopologyRule, TopologyRuleOutcome, TopologyRuleStatus, TopologyVerdict,
};
use edgeattest::listing::{ListLimits, ListResponse, Schema};
use edgeattest::ocsp::{
    ChainKind, ChainOcspRequest, CheckOcspOptions, OcspCertificateStatus, OcspChainStatus,
    OcspRequestsOptions, RevocationComponent, RevocationPolicy, RevocationRule,
};
use edgeattest::policy::{DeviceDecision, PolicyDecision, RuleOutcome, RuleStatus};
use edgeattest::rim::{
    ComparisonReport, GoldenMeasurement, RimCertChain, RimDocument, RimEnvelope, RimIdentity,
    VerifiedRim,
};
use edgeattest::service::replay::{Difference, ReplayOptions, Replayed, TokenClaims, Verdict};
use edgeattest::service::{
    Attempt, ErrorResponse, ErrorResponseInit, HostSettings, OcspCacheEntry, ProbeTarget, Request,
    Resource, Response, ServiceLimits, ServiceOptions, SourceState, Step, TestPkiCollateral,
};
use edgeattest::token::{
    AppraisalJson, AppraisalReasonJson, DeviceAppraisalJson, VerdictLevel,
    VerifiedAttestationResultJson, VerifiedDeviceJson, VerifiedJwtJson, VerifiedSignerJson,
    VerifyInput,
};
use edgeattest::token::{
    SignerCertificate, SignerOcspOptions, SignerOcspRequest, SignerOcspStatus,
};
use ts_rs::{Config, TypeVisitor, TS};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const TYPES: &str = "src/wasm/types";
const REGENERATE: &str = "EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated";

/// Names in scope in `edgeattest.d.ts` that no fragment declares: the `Arch` union the
/// binding writes from the architecture table.
const ELSEWHERE: [&str; 1] = ["Arch"];

/// One generated declaration and the names it refers to.
struct Decl {
    name: String,
    text: String,
    refers_to: Vec<String>,
}

/// The names of the declarations a type refers to (not those it inlines).
struct Names(Vec<String>, Config);

impl TypeVisitor for Names {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Primitives and the standard types have no file: only a declared type does.
        if T::output_path().is_some() {
            self.0.push(T::name(&self.1));
        }
    }
}

/// `T` declared as the fragments declare types: its docs, then `export interface` for an
/// object type (so that a hand-written interface can still `extend` it), else `export type`.
fn decl<T: TS + 'static>() -> Decl {
    let cfg = config();
    let name = T::name(&cfg);
    let body = T::decl(&cfg);
    let body = arrays(&body);
    // An object type, not a union of them: its first `{` closes at its end.
    let object = body
        .strip_prefix(&format!("type {name} = {{"))
        .and_then(|rest| rest.strip_suffix("};"))
        .filter(|members| closing(&format!("{{{members}}}")) == members.chars().count() + 1);
    let declaration = match object {
        Some(members) => format!("export interface {name} {{{}}}", members),
        None => format!("export {body}"),
    };
    let mut names = Names(Vec::new(), cfg);
    T::visit_dependencies(&mut names);
    let docs = T::docs().map(|d| format!("{}\n", doc(&d)));
    let text = format!("{}{}\n", docs.unwrap_or_default(), format(&declaration));
    Decl {
        text: unlink(&text),
        name,
        refers_to: names.0,
    }
}

/// A union of the wire names `values` (an enum whose `Serialize` writes its name), declared
/// as `name`.
fn names<T>(name: &str, values: &[T], wire: fn(&T) -> &'static str) -> Decl {
    let names: Vec<String> = values.iter().map(|v| format!("\"{}\"", wire(v))).collect();
    Decl {
        text: format!(
            "{}\n",
            format(&format!("export type {name} = {};", names.join(" | ")))
        ),
        name: name.to_owned(),
        refers_to: Vec::new(),
    }
}

/// `decl` with the doc comment `text` above it.
fn documented(text: &str, decl: Decl) -> Decl {
    Decl {
        text: format!("{}\n{}", doc(&format!("/** {text} */")), decl.text),
        ..decl
    }
}

/// The claims versions some endpoint takes or defaults to, in order.
fn claims_versions() -> Vec<&'static str> {
    let all: BTreeSet<&'static str> = Endpoint::ALL
        .iter()
        .flat_map(|e| e.selectable_claims_versions().iter().map(|v| v.as_str()))
        .chain(
            Endpoint::ALL
                .iter()
                .map(|e| e.default_claims_version().as_str()),
        )
        .collect();
    all.into_iter().collect()
}

/// The docs as plain text: a rustdoc link (``[`crate::attest::MAX_BODY_BYTES`]``) becomes the
/// name it links (`` `MAX_BODY_BYTES` ``).
fn unlink(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("[`") {
        let Some(len) = rest[start..].find("`]") else {
            break;
        };
        let path = &rest[start + 2..start + len];
        out.push_str(&rest[..start]);
        out.push_str(&format!("`{}`", path.rsplit("::").next().unwrap_or(path)));
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

/// Unix times and byte counts are `number`s in JS (the binding writes them so; every value
/// is below 2^53).
fn config() -> Config {
    Config::default().with_large_int("number")
}

/// ts-rs writes a declaration on one line: here each member of an object type goes on its
/// own line (ended by `;`), indented by depth, its docs above it, and a long union puts each
/// alternative on its own line.
fn format(declaration: &str) -> String {
    let c: Vec<char> = declaration.chars().collect();
    let long_union =
        declaration.len() > 100 && declaration.starts_with("export type ") && union(declaration);
    let (mut out, mut open, mut i) = (String::new(), Vec::new(), 0);
    let newline = |out: &mut String, depth: usize| {
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    while i < c.len() {
        // A long union's alternatives are indented one step.
        let depth = open.iter().filter(|&&o| o == '{').count() + usize::from(long_union);
        match c[i] {
            '/' if c.get(i + 1) == Some(&'*') => {
                let end = (i..c.len()).find(|&j| c[j] == '*' && c.get(j + 1) == Some(&'/'));
                let end = end.map_or(c.len(), |j| j + 2);
                let comment: String = c[i..end].iter().collect();
                for (n, line) in doc(&comment).lines().enumerate() {
                    if n > 0 {
                        newline(&mut out, depth);
                    }
                    out.push_str(line);
                }
                newline(&mut out, depth);
                i = end;
                continue;
            }
            '"' => {
                let end = (i + 1..c.len()).find(|&j| c[j] == '"' && c[j - 1] != '\\');
                let end = end.map_or(c.len(), |j| j + 1);
                out.extend(&c[i..end]);
                i = end;
                continue;
            }
            '{' if c[i + 1..].iter().find(|ch| !ch.is_whitespace()) == Some(&'}') => {
                out.push_str("{}");
                i = (i + 1..c.len())
                    .find(|&j| c[j] == '}')
                    .map_or(c.len(), |j| j + 1);
                continue;
            }
            // A short object type of one member (`{ readonly buffer: ArrayBuffer }`) stays on
            // its line.
            '{' if one_member(&c[i..]) => {
                let end = i + closing(&c[i..].iter().collect::<String>());
                out.extend(&c[i..=end]);
                i = end + 1;
                continue;
            }
            '{' => {
                out.push('{');
                open.push('{');
                newline(&mut out, depth + 1);
            }
            '}' => {
                open.pop();
                newline(&mut out, depth - 1);
                out.push('}');
            }
            '[' | '(' | '<' => {
                open.push(c[i]);
                out.push(c[i]);
            }
            ']' | ')' | '>' => {
                open.pop();
                out.push(c[i]);
            }
            ',' if open.last() == Some(&'{') => {
                out.push(';');
                let closing = c[i + 1..].iter().find(|ch| !ch.is_whitespace()) == Some(&'}');
                if !closing {
                    newline(&mut out, depth);
                }
            }
            '=' if open.is_empty() && long_union => {
                out.push('=');
                newline(&mut out, 1);
                out.push('|');
            }
            '|' if open.is_empty() && long_union => {
                newline(&mut out, 1);
                out.push('|');
            }
            '\n' => {}
            ' ' if out.ends_with([' ', '\n']) || out.ends_with("  ") => {}
            ch => out.push(ch),
        }
        i += 1;
    }
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    lines.join("\n")
}

/// Whether the object type `text` starts with is short and has one member and no docs.
fn one_member(text: &[char]) -> bool {
    let text: String = text.iter().collect();
    let end = closing(&text);
    let inner: String = text.chars().skip(1).take(end.saturating_sub(1)).collect();
    end < 48 && !inner.contains([',', ';', '{', '/'])
}

/// The index of the character that closes the bracket `text` starts with (its length when
/// none does); quoted text and comments skipped.
fn closing(text: &str) -> usize {
    let (mut depth, mut quoted, mut comment) = (0i32, false, false);
    let c: Vec<char> = text.chars().collect();
    for i in 0..c.len() {
        match c[i] {
            _ if comment => comment = !(c[i] == '/' && c[i - 1] == '*'),
            '"' => quoted = !quoted || c[i - 1] == '\\',
            _ if quoted => {}
            '/' if c.get(i + 1) == Some(&'*') => comment = true,
            '{' | '[' | '(' | '<' => depth += 1,
            '}' | ']' | ')' | '>' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    c.len()
}

/// Whether `text` is a union: a `|` outside every bracket.
fn union(text: &str) -> bool {
    let mut depth = 0;
    text.chars().any(|ch| {
        depth += i32::from(matches!(ch, '{' | '[' | '(' | '<'));
        depth -= i32::from(matches!(ch, '}' | ']' | ')' | '>'));
        depth == 0 && ch == '|'
    })
}

/// ts-rs writes a list as `Array<T>`; the fragments as `T[]` (`(A | B)[]` for a union).
fn arrays(text: &str) -> String {
    let Some(start) = text.find("Array<") else {
        return text.to_owned();
    };
    let open = start + "Array".len();
    let close = open
        + text[open..]
            .char_indices()
            .nth(closing(&text[open..]))
            .map_or(0, |(i, _)| i);
    let inner = arrays(&text[open + 1..close]);
    let list = if union(&inner) {
        format!("({inner})[]")
    } else {
        format!("{inner}[]")
    };
    format!("{}{list}{}", &text[..start], arrays(&text[close + 1..]))
}

/// A doc comment as the hand-written fragments write it: on one line when its text is one
/// line, else ` * `-prefixed lines.
fn doc(comment: &str) -> String {
    let text: Vec<&str> = comment
        .trim()
        .trim_start_matches("/**")
        .trim_end_matches("*/")
        .lines()
        .map(|line| line.trim().trim_start_matches('*').trim())
        .filter(|line| !line.is_empty())
        .collect();
    match text.as_slice() {
        [line] => format!("/** {line} */"),
        lines => {
            let body: String = lines.iter().map(|l| format!(" * {l}\n")).collect();
            format!("/**\n{body} */")
        }
    }
}

/// A fragment: its file, what it declares, and from which types.
struct Fragment {
    file: &'static str,
    about: &'static str,
    decls: Vec<Decl>,
}

fn fragments() -> Vec<Fragment> {
    vec![
        Fragment {
            file: "attest.d.ts",
            about: "Attest requests (src/wasm/attest.rs): endpoints, encodings and what a valid body holds,\n\
                    in the builds that have that module; names from the other fragments and the generated\n\
                    classes are in scope there.",
            decls: vec![
                documented(
                    "Path of an attest endpoint.",
                    names("AttestEndpoint", &Endpoint::ALL, |e| e.path()),
                ),
                names("ClaimsVersion", &claims_versions(), |v| *v),
                documented(
                    "How a string `evidence` is written: base64 of the bytes (generation 2: V3/V4 requests,\n\
                     NVIDIA's SDKs), base64 of their hex text (generation 1: V1/V2 requests), or hex text.",
                    names("EvidenceEncoding", &EvidenceEncoding::ALL, |e| e.as_str()),
                ),
                decl::<RequestSummary>(),
            ],
        },
        Fragment {
            file: "limits.d.ts",
            about: "What hosts take from the core instead of copying it (src/wasm/limits.rs): its limits. In\n\
                    the local and service modules.",
            decls: vec![decl::<ServiceLimits>()],
        },
        Fragment {
            file: "evidence.d.ts",
            about: "The evidence module (src/wasm/evidence.rs): a device's report and its stages, in the builds\n\
                    that have that module; names from the other fragments and the generated classes are in\n\
                    scope there.",
            decls: vec![
                decl::<EvidenceReport>(),
                decl::<DeviceResult>(),
                decl::<CertificateChainReport>(),
                decl::<StageStatus>(),
                decl::<StageId>(),
                decl::<Stage>(),
                decl::<Failure>(),
                decl::<RimStep>(),
                decl::<DeviceReport>(),
            ],
        },
        Fragment {
            file: "ocsp.d.ts",
            about: "The OCSP module (src/wasm/ocsp.rs): a chain's requests and status, in the builds that have\n\
                    that module; names from the other fragments and the generated classes are in scope there.",
            decls: vec![
                decl::<ChainKind>(),
                decl::<OcspRequestsOptions>(),
                decl::<ChainOcspRequest>(),
                decl::<CheckOcspOptions>(),
                decl::<OcspCertificateStatus>(),
                decl::<OcspChainStatus>(),
                decl::<SignerOcspOptions>(),
                decl::<SignerOcspRequest>(),
                decl::<SignerOcspStatus>(),
            ],
        },
        Fragment {
            file: "topology.d.ts",
            about: "The topology module (src/wasm/topology.rs): a node's PPCIE topology report, in the builds\n\
                    that have that module; names from the other fragments and the generated classes are in\n\
                    scope there.",
            decls: vec![
                decl::<TopologyVerdict>(),
                decl::<TopologyRule>(),
                decl::<TopologyRuleStatus>(),
                decl::<TopologyFinding>(),
                decl::<TopologyRuleOutcome>(),
                decl::<TopologyDevice>(),
                decl::<TopologyReport>(),
            ],
        },
        Fragment {
            file: "rim.d.ts",
            about: "The RIM module (src/wasm/rim.rs): documents, their signer chains and comparisons, in the\n\
                    builds that have that module; names from the other fragments and the generated classes\n\
                    are in scope there.",
            decls: vec![
                decl::<RimCertChain>(),
                decl::<GoldenMeasurement>(),
                decl::<RimDocument>(),
                decl::<VerifiedRim>(),
                decl::<ComparisonReport<'static>>(),
                decl::<RimEnvelope>(),
                decl::<RimIdentity>(),
                decl::<RuntimeEvidenceInput>(),
                decl::<SignatureCheck>(),
            ],
        },
        Fragment {
            file: "policy.d.ts",
            about: "Relying-party policies (src/wasm/policy.rs; src/wasm/rego.rs splices it too, beside\n\
                    rego.d.ts): a decision and its rules.",
            decls: vec![
                decl::<RuleStatus>(),
                decl::<RuleOutcome>(),
                decl::<DeviceDecision>(),
                decl::<PolicyDecision>(),
            ],
        },
        Fragment {
            file: "arch.d.ts",
            about: "The architecture table (src/wasm/arch.rs; full builds only: the `Arch` union is generated\n\
                    from the table in every build).",
            decls: vec![decl::<ArchitectureRow>()],
        },
        Fragment {
            file: "deprecation.d.ts",
            about: "Deprecations (src/wasm/deprecation.rs): notices and request checks, in the builds that\n\
                    have that module; names from the other fragments and the generated classes are in scope\n\
                    there.",
            decls: vec![decl::<Notice>(), decl::<DeprecationOptions>()],
        },
        Fragment {
            file: "listing.d.ts",
            about: "Lists (src/wasm/listing.rs): pages, schemas and limits, in the builds that have that\n\
                    module; names from the other fragments and the generated classes are in scope there.",
            decls: vec![
                documented(
                    "Path of a list endpoint.",
                    names("ListPath", Schema::all(), |s| s.path),
                ),
                decl::<ListResponse>(),
                decl::<ListLimits>(),
            ],
        },
        Fragment {
            file: "host_answers.d.ts",
            about: "The service's conventions a host applies itself (src/wasm/host_answers.rs): the one\n\
                    error-answer shape. In the service module only.",
            decls: vec![decl::<ErrorResponseInit>(), decl::<ErrorResponse>()],
        },
        Fragment {
            file: "ear.d.ts",
            about: "EAT Attestation Results (src/wasm/ear.rs): what `readEar` returns, in the builds that\n\
                    have that module; names from the other fragments and the generated classes are in scope\n\
                    there.",
            decls: vec![
                decl::<TrustTier>(),
                decl::<TrustVector>(),
                decl::<EarSubmod<'static>>(),
                decl::<EarData<'static>>(),
            ],
        },
        Fragment {
            file: "service.d.ts",
            about: "The attestation service (src/wasm/service.rs): its options, requests, exchanges and\n\
                    host answers, in the service module only; names from the other fragments and the\n\
                    generated classes are in scope there.",
            decls: vec![
                decl::<ServiceOptions>(),
                decl::<Request>(),
                decl::<Response>(),
                decl::<Resource>(),
                decl::<Attempt>(),
                decl::<OcspCacheEntry>(),
                decl::<SourceState>(),
                decl::<ProbeTarget>(),
                decl::<Step<'static>>(),
            ],
        },
        Fragment {
            file: "replay.d.ts",
            about: "Replayable verdicts (src/wasm/replay.rs): what `replayAttestation` takes and returns,\n\
                    in the service module only; names from the other fragments and the generated classes\n\
                    are in scope there.",
            decls: vec![
                decl::<ReplayOptions>(),
                decl::<TokenClaims>(),
                decl::<Verdict>(),
                decl::<Difference>(),
                decl::<Replayed>(),
            ],
        },
        Fragment {
            file: "bindings.d.ts",
            about: "A host's `EDGEATTEST_*` variables (src/wasm/bindings.rs), in the service module only;\n\
                    names from the other fragments and the generated classes are in scope there.",
            decls: vec![decl::<HostSettings>(), decl::<TestPkiCollateral>()],
        },
        Fragment {
            file: "access.d.ts",
            about: "Access control (src/wasm/access.rs): scopes, decisions and keys, in the builds that\n\
                    have that module; names from the other fragments and the generated classes are in\n\
                    scope there.",
            decls: vec![
                names("Scope", &Scope::ALL, |s| s.as_str()),
                names("Role", &Role::ALL, |r| r.as_str()),
                decl::<KeyStore>(),
                decl::<AccessDetail>(),
                decl::<Forward>(),
                decl::<Decision>(),
                decl::<AccessOptions>(),
                decl::<NewKeyOptions>(),
                decl::<KeySummary>(),
                decl::<DevKeys>(),
            ],
        },
        Fragment {
            file: "token.d.ts",
            about: "Tokens (src/wasm/token.rs): verify options, verified results and the key classes, in the\n\
                    builds that have that module; names from the other fragments and the generated classes\n\
                    are in scope there.",
            decls: vec![
                decl::<SignatureCheck>(),
                decl::<Jwk>(),
                decl::<VerifyInput>(),
                decl::<SignerCertificate>(),
                decl::<VerifiedSignerJson<'static>>(),
                decl::<VerifiedJwtJson<'static>>(),
                decl::<VerifiedDeviceJson<'static>>(),
                decl::<AppraisalReasonJson<'static>>(),
                decl::<VerdictLevel>(),
                decl::<DeviceAppraisalJson<'static>>(),
                decl::<AppraisalJson<'static>>(),
                decl::<VerifiedAttestationResultJson<'static>>(),
                decl::<RevocationPolicy>(),
                decl::<RevocationRule>(),
                decl::<RevocationComponent>(),
            ],
        },
    ]
}

/// The fragment's text: the header, then the generated declarations.
fn render(fragment: &Fragment) -> String {
    let mut out = format!(
        "// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.\n\
         // Regenerate: {REGENERATE}\n"
    );
    for line in fragment.about.lines() {
        out.push_str(&format!("// {}\n", line.trim()));
    }
    for decl in &fragment.decls {
        out.push('\n');
        out.push_str(&decl.text);
    }
    out
}

/// The hand-written fragments (`src/wasm/types/hand/`): file name and text.
fn hand() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> =
        std::fs::read_dir(Path::new(ROOT).join(TYPES).join("hand"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&path).unwrap())
            })
            .collect();
    files.sort();
    files
}

/// The binding sources (`src/wasm/**/*.rs`), concatenated.
fn binding_sources() -> String {
    fn walk(dir: &Path, out: &mut String) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = std::fs::read_to_string(Path::new(ROOT).join("src/wasm.rs")).unwrap();
    walk(&Path::new(ROOT).join("src/wasm"), &mut out);
    out
}

#[test]
fn the_fragments_are_what_the_types_generate() {
    let bless = std::env::var_os("EDGEATTEST_BLESS").is_some();
    let mut stale = Vec::new();
    for fragment in fragments() {
        let file = Path::new(ROOT).join(TYPES).join(fragment.file);
        let rendered = render(&fragment);
        if bless {
            std::fs::write(&file, &rendered).unwrap();
        } else if std::fs::read_to_string(&file).unwrap_or_default() != rendered {
            stale.push(format!("{TYPES}/{}", fragment.file));
        }
    }
    assert!(
        stale.is_empty(),
        "{} not what the core's types generate: run `{REGENERATE}`",
        stale.join(", ")
    );
}

/// Every name a generated declaration refers to is declared: by a fragment (generated or
/// hand-written) or by the binding.
#[test]
fn every_name_the_generated_types_use_is_declared() {
    let mut declared: BTreeSet<String> = ELSEWHERE.iter().map(|n| (*n).to_owned()).collect();
    let files = std::fs::read_dir(Path::new(ROOT).join(TYPES)).unwrap();
    let texts = files
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| std::fs::read_to_string(path).unwrap())
        .chain(hand().into_iter().map(|(_, text)| text));
    for text in texts {
        for word in ["export interface ", "export type ", "export class "] {
            for after in text.split(word).skip(1) {
                let name = after.split(|c: char| !c.is_alphanumeric() && c != '_');
                declared.insert(name.take(1).collect());
            }
        }
    }
    let fragments = fragments();
    let generated: Vec<&Decl> = fragments.iter().flat_map(|f| &f.decls).collect();
    declared.extend(generated.iter().map(|d| d.name.clone()));
    let missing: Vec<String> = generated
        .iter()
        .flat_map(|d| d.refers_to.iter().map(move |n| (d, n)))
        .filter(|(_, n)| !declared.contains(*n))
        .map(|(d, n)| format!("{} refers to {n}, which nothing declares", d.name))
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Every hand-written fragment is spliced by the binding beside its generated one, and says
/// it is hand-written (a fragment marked GENERATED is the generator's).
#[test]
fn every_hand_written_fragment_is_spliced() {
    let sources = binding_sources();
    for (file, text) in hand() {
        let splice = format!("include_str!(\"types/hand/{file}\")");
        assert!(
            sources.contains(&splice),
            "no src/wasm module splices {TYPES}/hand/{file}"
        );
        assert!(
            !text.contains("GENERATED"),
            "{TYPES}/hand/{file} is hand-written"
        );
    }
}

/// The members an object declaration names, in order (its top-level lines `name:` or
/// `name?:`).
fn members(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| line.starts_with("  ") && !line[2..].starts_with([' ', '/', '*']))
        .filter_map(|line| line.trim().split_once(':'))
        .map(|(name, _)| name.trim_end_matches('?').trim_matches('"').to_owned())
        .collect()
}

/// The members a value's JSON writes, in order.
fn written<T: serde::Serialize>(value: &T) -> Vec<String> {
    match serde_json::to_value(value).unwrap() {
        serde_json::Value::Object(map) => map.keys().cloned().collect(),
        other => panic!("not an object: {other}"),
    }
}

/// The types whose `Serialize` is hand-written but whose TypeScript is derived from their
/// members declare exactly the members their JSON has.
#[test]
fn hand_serialized_types_declare_what_they_write() {
    let check = SignatureCheck {
        public_key_sec1: vec![4; 97],
        message: b"m".to_vec(),
        signature: vec![1; 96],
    };
    assert_eq!(written(&check), members(&decl::<SignatureCheck>().text));
    let response = ListResponse {
        status: 404,
        body: "{}".into(),
    };
    assert_eq!(written(&response), members(&decl::<ListResponse>().text));
    let target = ProbeTarget {
        source: edgeattest::service::Source::Ocsp,
        url: "http://ocsp.example".into(),
    };
    assert_eq!(written(&target), members(&decl::<ProbeTarget>().text));
}
