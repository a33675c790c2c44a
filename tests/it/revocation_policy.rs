//! The revocation policy's table, in one place: for each OCSP outcome of a certificate and
//! each rule, the `x-nvidia-cert-ocsp-status` claim the service writes, the relaxation
//! warned about, and the verdict. The service's test (`service::revocation_policy`) and the
//! local verifier's test below iterate it for every component; the README's "Revocation
//! policy" table is rendered from it and checked here.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::ocsp::{
    ChainKind, CheckOcspOptions, OcspChainStatus, RevocationComponent, RevocationRule,
};
use edgeattest::service::{FetchFailure, Fetched};
use edgeattest::UnixTime;

#[path = "../common/ocsp_fixtures.rs"]
mod fixtures;
use fixtures::{nonce, pki, response};

/// What the responder says about one certificate of the chain (the others are good).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Good,
    Unknown,
    /// No answer: the fetch failed (a timeout).
    Unanswered,
    /// Revoked (keyCompromise).
    Revoked,
    /// certificateHold.
    Hold,
}

/// The rule of the certificate's component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    Strict,
    AllowUnknown,
    /// `revokedGracePeriod` longer than the time since the revocation.
    GraceInside,
    /// `revokedGracePeriod` shorter than the time since the revocation.
    GraceOutside,
    AllowHold,
    /// `allowUnknown`, `revokedGracePeriod` (inside) and `allowHold` at once.
    Everything,
}

/// The verdict of the chain: passes, or fails the device with the real service's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Pass,
    Fail(u16),
}

/// One row: outcome and rule, then what they give.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row {
    pub(crate) outcome: Outcome,
    pub(crate) rule: Rule,
    /// `x-nvidia-cert-ocsp-status` of the chain's claim object (claims 3.0 on).
    pub(crate) claim: &'static str,
    /// The policy member whose relaxation is warned about (`Relaxation::allowed_by`).
    pub(crate) warning: Option<&'static str>,
    pub(crate) verdict: Verdict,
}

const fn row(
    outcome: Outcome,
    rule: Rule,
    claim: &'static str,
    warning: Option<&'static str>,
    verdict: Verdict,
) -> Row {
    Row {
        outcome,
        rule,
        claim,
        warning,
        verdict,
    }
}

use Outcome as O;
use Rule as R;
use Verdict::{Fail, Pass};

/// The table.
pub(crate) const TABLE: [Row; 13] = [
    row(O::Good, R::Strict, "good", None, Pass),
    row(O::Good, R::Everything, "good", None, Pass),
    row(O::Unknown, R::Strict, "unknown", None, Fail(5003)),
    row(
        O::Unknown,
        R::AllowUnknown,
        "unknown",
        Some("allowUnknown"),
        Pass,
    ),
    row(O::Unanswered, R::Strict, "unknown", None, Fail(5001)),
    row(
        O::Unanswered,
        R::AllowUnknown,
        "unknown",
        Some("allowUnknown"),
        Pass,
    ),
    row(O::Revoked, R::Strict, "revoked", None, Fail(5002)),
    row(
        O::Revoked,
        R::GraceInside,
        "revoked",
        Some("revokedGracePeriod"),
        Pass,
    ),
    row(O::Revoked, R::GraceOutside, "revoked", None, Fail(5002)),
    row(O::Revoked, R::AllowUnknown, "revoked", None, Fail(5002)),
    row(O::Hold, R::Strict, "revoked", None, Fail(5002)),
    row(O::Hold, R::AllowHold, "good", Some("allowHold"), Pass),
    row(O::Hold, R::AllowUnknown, "revoked", None, Fail(5002)),
];

/// The components the service folds (the signer chain is the relying party's).
pub(crate) const SERVICE_COMPONENTS: [RevocationComponent; 4] = [
    RevocationComponent::DeviceChain,
    RevocationComponent::SwitchChain,
    RevocationComponent::DriverRimChain,
    RevocationComponent::VbiosRimChain,
];

impl Rule {
    /// The rule itself, for a certificate revoked `age` seconds before the check.
    pub(crate) fn rule(self, age: u64) -> RevocationRule {
        let inside = Some(age + 3600);
        let outside = Some(age.saturating_sub(60));
        let (allow_unknown, revoked_grace_period, allow_hold) = match self {
            Self::Strict => (false, None, false),
            Self::AllowUnknown => (true, None, false),
            Self::GraceInside => (false, inside, false),
            Self::GraceOutside => (false, outside, false),
            Self::AllowHold => (false, None, true),
            Self::Everything => (true, inside, true),
        };
        RevocationRule {
            allow_unknown,
            revoked_grace_period,
            allow_hold,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Self::Strict => "strict (default)",
            Self::AllowUnknown => "`allowUnknown`",
            Self::GraceInside => "`revokedGracePeriod`, still inside",
            Self::GraceOutside => "`revokedGracePeriod`, elapsed",
            Self::AllowHold => {
                "`allowHold` (or the request's `X-NVIDIA-OCSP-ALLOW-CERT-HOLD: true`)"
            }
            Self::Everything => "all three",
        }
    }
}

impl Outcome {
    fn words(self) -> &'static str {
        match self {
            Self::Good => "good",
            Self::Unknown => "unknown",
            Self::Unanswered => "no answer (fetch failed)",
            Self::Revoked => "revoked",
            Self::Hold => "certificateHold",
        }
    }
}

/// The README's table, rendered from [`TABLE`].
fn render() -> String {
    let mut out = String::from(
        "| a certificate of the chain is | rule of its component | `x-nvidia-cert-ocsp-status` | warning | verdict |\n\
         |---|---|---|---|---|\n",
    );
    for row in TABLE {
        let warning = row
            .warning
            .map_or("—".to_string(), |member| format!("yes (`{member}`)"));
        let verdict = match row.verdict {
            Pass => "passes".to_string(),
            Fail(code) => format!("fails ({code})"),
        };
        out.push_str(&format!(
            "| {} | {} | `{}` | {warning} | {verdict} |\n",
            row.outcome.words(),
            row.rule.words(),
            row.claim
        ));
    }
    out
}

const BEGIN: &str =
    "<!-- revocation-policy-table: rendered from tests/it/revocation_policy.rs -->\n";
const END: &str = "<!-- /revocation-policy-table -->";

#[test]
fn the_readme_table_is_the_tests_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme
        .find(BEGIN)
        .expect("the README's revocation table marker")
        + BEGIN.len();
    let end = start + readme[start..].find(END).expect("its end marker");
    let rendered = render();
    let mut expected = readme.clone();
    expected.replace_range(start..end, &rendered);
    crate::generated_file_is(
        &path,
        &expected,
        "EDGEATTEST_BLESS=1 cargo test --test it revocation_policy::the_readme_table",
    );
}

/// Each answer of the device chain (BROM, ICA, Identity) from the static fixtures, with the
/// BROM's per `outcome`, and the time at which they are current.
fn device_answers(outcome: Outcome) -> (&'static str, Vec<Fetched>, u64) {
    let (chain, brom) = match outcome {
        O::Good | O::Unanswered => ("chain_good.pem", "brom_good.der"),
        O::Unknown => ("chain_unknown.pem", "brom_unknown.der"),
        O::Revoked => ("chain_revoked.pem", "brom_revoked.der"),
        O::Hold => ("chain_hold.pem", "brom_hold.der"),
    };
    let files = [brom, "ica.der", "identity.der"];
    let now = files.iter().map(|f| response(f).now).max().unwrap();
    let mut answers: Vec<Fetched> = files
        .iter()
        .map(|file| {
            let f = response(file);
            Fetched::Cached {
                body: f.bytes,
                nonce: nonce(&f.request).to_vec(),
            }
        })
        .collect();
    if outcome == O::Unanswered {
        answers[0] = Fetched::Failed(FetchFailure::Timeout);
    }
    (chain, answers, now)
}

/// `checkOcspResponses` with `options` on the device chain of `outcome`.
fn check(outcome: Outcome, options: &CheckOcspOptions) -> OcspChainStatus {
    let (chain, answers, now) = device_answers(outcome);
    let pem = std::fs::read_to_string(pki(chain)).unwrap();
    options
        .check(
            &pem,
            ChainKind::Device,
            &answers,
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap()
}

/// Seconds from the fixtures' revocation time to the time their answers are checked at.
fn revoked_age() -> u64 {
    let strict = check(O::Revoked, &CheckOcspOptions::default());
    let (_, _, now) = device_answers(O::Revoked);
    now - strict.certificates[0].revoked_at.unwrap().as_secs()
}

#[test]
fn the_local_verifier_gives_the_table_for_every_component() {
    let age = revoked_age();
    let mut checked = 0;
    for component in RevocationComponent::ALL {
        for row in TABLE {
            let options = CheckOcspOptions {
                rule: Some(row.rule.rule(age)),
                component: Some(component),
                ..CheckOcspOptions::default()
            };
            let status = check(row.outcome, &options);
            let case = format!("{component:?} {row:?}: {status:?}");
            // The local report's status is the verdict: a relaxed chain is `good`, with its
            // warnings; the claim the service would write is the folded status's.
            assert_eq!(status.revocation.status().as_str(), row.claim, "{case}");
            match row.verdict {
                Pass => {
                    assert_eq!(status.status, "good", "{case}");
                    assert_eq!(status.service_code, None, "{case}");
                }
                Fail(code) => assert_eq!(status.service_code, Some(code), "{case}"),
            }
            let relaxations = status.revocation.relaxations();
            match row.warning {
                None => {
                    assert!(relaxations.is_empty(), "{case}");
                    assert!(status.warnings.is_empty(), "{case}");
                }
                Some(member) => {
                    assert_eq!(relaxations.len(), 1, "{case}");
                    assert_eq!(relaxations[0].allowed_by(), member, "{case}");
                    assert_eq!(
                        status.warnings,
                        vec![relaxations[0].warning(component)],
                        "{case}"
                    );
                    assert!(status.warnings[0].contains(component.describe()), "{case}");
                    assert!(!status.warnings[0].contains("; "), "{case}");
                }
            }
            if row.outcome == O::Revoked && row.warning.is_some() {
                // The warning names the revocation time and reason, and the grace's end.
                let at = status.certificates[0].revoked_at.unwrap();
                let warning = &status.warnings[0];
                assert!(warning.contains(&at.to_string()), "{warning}");
                assert!(warning.contains("keyCompromise"), "{warning}");
                assert!(
                    warning.contains(&at.saturating_add(age + 3600).to_string()),
                    "{warning}"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * TABLE.len());
}

#[test]
fn allow_hold_is_a_shorthand_of_the_rule() {
    let shorthand: CheckOcspOptions = serde_json::from_str(r#"{"allowHold": true}"#).unwrap();
    let rule: CheckOcspOptions = serde_json::from_str(r#"{"rule": {"allowHold": true}}"#).unwrap();
    assert_eq!(shorthand.effective_rule(), rule.effective_rule());
    let (a, b) = (check(O::Hold, &shorthand), check(O::Hold, &rule));
    assert_eq!((a.status, a.held), ("good", Some(true)));
    assert_eq!(a, b);
    // Without `component`, the warning names the chain by its kind.
    assert!(a.warnings[0].contains("device certificate chain"), "{a:?}");
}

#[test]
fn the_policy_reads_as_written_and_refuses_what_it_does_not_know() {
    use edgeattest::ocsp::RevocationPolicy;
    let policy: RevocationPolicy = serde_json::from_str(
        r#"{"deviceChain": {"allowUnknown": true}, "vbiosRimChain": {"revokedGracePeriod": 86400, "allowHold": true}}"#,
    )
    .unwrap();
    assert!(policy.device_chain.allow_unknown);
    assert_eq!(policy.vbios_rim_chain.revoked_grace_period, Some(86_400));
    assert!(policy.driver_rim_chain.is_strict() && policy.signer_chain.is_strict());
    assert_eq!(
        policy.rule(RevocationComponent::VbiosRimChain),
        &policy.vbios_rim_chain
    );
    // Written back with the strict members left out.
    assert_eq!(
        serde_json::to_value(&policy).unwrap(),
        serde_json::json!({"deviceChain": {"allowUnknown": true}, "vbiosRimChain": {"revokedGracePeriod": 86400, "allowHold": true}})
    );
    assert_eq!(
        RevocationPolicy::default(),
        serde_json::from_str("{}").unwrap()
    );
    assert!(RevocationPolicy::default().is_strict());
    for bad in [
        r#"{"gpuChain": {}}"#,
        r#"{"deviceChain": {"allowUnknow": true}}"#,
        r#"{"deviceChain": {"allowUnknown": "yes"}}"#,
        r#"{"deviceChain": {"revokedGracePeriod": -1}}"#,
        r#"{"deviceChain": {"revokedGracePeriod": 1.5}}"#,
    ] {
        assert!(
            serde_json::from_str::<RevocationPolicy>(bad).is_err(),
            "{bad}"
        );
    }
}
