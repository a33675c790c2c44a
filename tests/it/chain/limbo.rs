//! x509-limbo, P-384 subset (tests/fixtures/vectors/x509-limbo/limbo-subset-p384-regenerated.json):
//! every applicable case gives the expected result; the others are listed with the reason
//! they do not apply to a device-attestation chain verifier.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::chain::{parse_pem_chain, verify_chain, ChainOptions, TimeCheck, TrustStore};
use edgeattest::UnixTime;
use serde_json::Value;

/// Cases that do not apply, with the reason.
const NOT_APPLICABLE: [(&str, &str); 9] = [
    (
        "rfc5280::aki::cross-signed-root-missing-aki",
        "pedantic-rfc5280, and contradicts cve::cve-2024-0567 (SUCCESS), whose trusted root has \
         the same shape (not self-issued, no AKI): trust anchors are trusted as configured",
    ),
    (
        "crl::certificate-not-on-crl",
        "CRLs are not processed: revocation is reported as not checked",
    ),
    (
        "crl::certificate-serial-on-crl-different-issuer",
        "CRLs are not processed",
    ),
    ("crl::crlnumber-critical", "CRLs are not processed"),
    ("crl::crlnumber-missing", "CRLs are not processed"),
    ("crl::issuer-missing-crlsign", "CRLs are not processed"),
    (
        "crl::issuer-no-keyusage-extension",
        "CRLs are not processed",
    ),
    (
        "crl::issuer-valid-crlsign-and-keycertsign",
        "CRLs are not processed",
    ),
    (
        "crl::revoked-certificate-with-crl",
        "CRLs are not processed",
    ),
];

/// Cases run with the plain RFC 5280 profile that accepts a CA as the leaf (the default
/// device profile refuses it, as `webpki::ca-as-leaf` expects).
const CA_LEAF_PROFILE: [&str; 2] = [
    "rfc5280::ca-as-leaf",
    "pathlen::validation-ignores-pathlen-in-leaf",
];

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/vectors/x509-limbo/limbo-subset-p384-regenerated.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    json["testcases"].as_array().unwrap().clone()
}

/// `2024-04-01T00:00:00.005+00:00` → Unix seconds, fraction dropped.
fn unix(time: &str) -> u64 {
    let date = &time[..10];
    let clock = &time[11..19];
    let mut parts = date.split('-').map(|p| p.parse::<i64>().unwrap());
    let (y, m, d) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    let mut hms = clock.split(':').map(|p| p.parse::<i64>().unwrap());
    let (hh, mm, ss) = (
        hms.next().unwrap(),
        hms.next().unwrap(),
        hms.next().unwrap(),
    );
    assert!(time.ends_with("+00:00"), "{time}");
    // Days from civil (H. Hinnant).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + hh * 3600 + mm * 60 + ss).unwrap()
}

/// Runs one case; `Ok(())` on success of validation.
fn run(case: &Value) -> Result<(), String> {
    let pems = |v: &Value| -> String {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let store = TrustStore::from_pem(&pems(&case["trusted_certs"])).map_err(|e| e.to_string())?;
    let mut chain =
        parse_pem_chain(case["peer_certificate"].as_str().unwrap()).map_err(|e| e.to_string())?;
    let intermediates = pems(&case["untrusted_intermediates"]);
    if !intermediates.is_empty() {
        chain.extend(parse_pem_chain(&intermediates).map_err(|e| e.to_string())?);
    }
    // Limbo's default time is "now"; its generated certificates span 1970–2969.
    let now = case["validation_time"].as_str().map_or(1_790_000_000, unix);
    let id = case["id"].as_str().unwrap();
    // Limbo's leaves are TLS leaves (extendedKeyUsage serverAuth): the path rules are what
    // is tested here; the leaf usage rule has its own tests (tests/it/chain/purpose.rs).
    let mut options = ChainOptions::default()
        .with_time(TimeCheck::Enforce)
        .with_ca_leaf(CA_LEAF_PROFILE.contains(&id))
        .without_usage_check();
    if let Some(depth) = case["max_chain_depth"].as_u64() {
        options = options.with_max_intermediates(usize::try_from(depth).unwrap());
    }
    verify_chain(&chain, &store, UnixTime::from_secs(now).unwrap(), &options)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn limbo_p384_subset() {
    let cases = cases();
    assert_eq!(cases.len(), 88);
    let mut wrong = Vec::new();
    let mut applicable = 0;
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        if NOT_APPLICABLE.iter().any(|(na, _)| *na == id) {
            continue;
        }
        applicable += 1;
        let expected_success = case["expected_result"] == "SUCCESS";
        let result = run(case);
        if std::env::var("LIMBO_VERBOSE").is_ok() {
            println!("{id}: {result:?}");
        }
        if result.is_ok() != expected_success {
            wrong.push(format!(
                "{id}: expected {}, got {result:?}",
                case["expected_result"]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert_eq!(applicable, 88 - NOT_APPLICABLE.len());
}

#[test]
fn not_applicable_cases_exist() {
    let cases = cases();
    for (id, reason) in NOT_APPLICABLE {
        assert!(!reason.is_empty());
        assert!(
            cases.iter().any(|c| c["id"] == id),
            "{id} is not in the subset"
        );
    }
}

#[test]
fn time_parsing() {
    assert_eq!(unix("1970-01-01T00:00:03+00:00"), 3);
    assert_eq!(unix("2024-04-01T00:00:00.005+00:00"), 1_711_929_600);
}
