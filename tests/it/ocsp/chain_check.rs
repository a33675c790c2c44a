//! A chain's OCSP from its PEM text with options read from JSON (`ocsp::OcspRequestsOptions`,
//! `ocsp::CheckOcspOptions`): the same rules the JS `ocspRequests` / `checkOcspResponses`
//! run, driven here the way a Rust user would drive them, with serde_json.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::ocsp::{
    ChainKind, ChainRevocation, CheckOcspOptions, OcspInputError, OcspRequestsOptions,
    RevocationReason, NONCE_LEN,
};
use edgeattest::service::{FetchFailure, Fetched};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::json;

#[path = "../../common/ocsp_fixtures.rs"]
mod fixtures;
use fixtures::{nonce, pki, response};

const DEVICE: [&str; 3] = ["brom_good", "ica", "identity"];

fn text(file: &str) -> String {
    std::fs::read_to_string(pki(file)).unwrap()
}

fn options(value: serde_json::Value) -> OcspRequestsOptions {
    serde_json::from_value(value).unwrap()
}

/// A `fresh` that must not be called.
fn no_fresh() -> Result<[u8; NONCE_LEN], OcspInputError> {
    panic!("a fresh nonce was asked for although the options give every nonce")
}

/// The fixture response `file`, answered from a cache with the nonce that fetched it.
fn answer(file: &str) -> Fetched {
    let f = response(file);
    Fetched::Cached {
        body: f.bytes,
        nonce: nonce(&f.request).to_vec(),
    }
}

/// A device chain's status with `brom` as its BROM's response, at a time all are current.
fn device(chain: &str, brom: &str, check: &CheckOcspOptions) -> edgeattest::ocsp::OcspChainStatus {
    let files = [brom, "ica.der", "identity.der"];
    let now = files.iter().map(|f| response(f).now).max().unwrap();
    let answers: Vec<Fetched> = files.iter().map(|f| answer(f)).collect();
    check
        .check(
            &text(chain),
            ChainKind::Device,
            &answers,
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap()
}

#[test]
fn requests_from_json_options_are_the_fixture_requests() {
    let hex: Vec<String> = DEVICE.iter().map(|n| hex::encode(nonce(n))).collect();
    let opts = options(json!({ "kind": "device", "nonces": hex }));
    let requests = opts.requests(&text("chain_good.pem"), no_fresh).unwrap();
    assert_eq!(
        requests
            .iter()
            .map(|r| r.certificate.as_str())
            .collect::<Vec<_>>(),
        [
            "GH100 A01 GSP BROM",
            "Test OCSP GH100 Provisioner ICA 1",
            "Test OCSP GH100 Identity"
        ]
    );
    assert_eq!(
        requests.iter().map(|r| r.index).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    for (request, name) in requests.iter().zip(DEVICE) {
        let expected = std::fs::read(pki(&format!("responses/requests/{name}.der"))).unwrap();
        assert_eq!(request.request, expected, "{name}");
        assert_eq!(request.nonce, nonce(name));
        assert!(
            request.cache_key.starts_with("sha384:"),
            "{}",
            request.cache_key
        );
    }
    // Written out, the request and nonce are byte strings and the names camelCase.
    let written = serde_json::to_value(&requests[0]).unwrap();
    let keys = crate::keys(&written);
    assert_eq!(
        keys,
        ["certificate", "index", "cacheKey", "request", "nonce"]
    );
    assert_eq!(written["nonce"].as_array().unwrap().len(), NONCE_LEN);
}

#[test]
fn a_nonce_may_be_an_array_of_bytes_and_absent_nonces_are_the_callers() {
    let arrays: Vec<Vec<u8>> = DEVICE.iter().map(|n| nonce(n).to_vec()).collect();
    let given = options(json!({ "kind": "device", "nonces": arrays }))
        .requests(&text("chain_good.pem"), no_fresh)
        .unwrap();
    assert_eq!(given[2].nonce, nonce("identity"));

    let mut calls = 0u8;
    let fresh = options(json!({ "kind": "rim" }))
        .requests(&text("rim_signer_chain.pem"), || {
            calls += 1;
            Ok::<_, OcspInputError>([calls; NONCE_LEN])
        })
        .unwrap();
    assert_eq!(calls, 3, "one fresh nonce per request");
    assert_eq!(fresh[0].certificate, "Test OCSP RIM L4 Signer good");
    assert_eq!(
        fresh.iter().map(|r| r.nonce[0]).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    // The caller's randomness failing is the caller's error.
    let failed = options(json!({ "kind": "rim" }))
        .requests(&text("rim_signer_chain.pem"), || Err(OcspInputError::Kind));
    assert_eq!(failed.unwrap_err(), OcspInputError::Kind);
}

#[test]
fn bad_request_options_are_refused_naming_the_member() {
    let chain = text("chain_good.pem");
    let refused = |value: serde_json::Value| options(value).requests(&chain, no_fresh).unwrap_err();
    let kind = refused(json!({}));
    assert_eq!(
        (kind.code(), kind.field()),
        ("ERR_INVALID_ARGUMENT", Some("kind"))
    );
    let count = refused(json!({ "kind": "device", "nonces": [hex::encode(nonce("ica"))] }));
    assert_eq!(count, OcspInputError::NonceCount { expected: 3 });
    assert_eq!(count.field(), Some("nonces"));
    assert!(count.to_string().contains("3 nonces"), "{count}");
    // Shapes serde refuses: another kind, a short nonce, hex that is not hex, a long array.
    for bad in [
        json!({ "kind": "leaf" }),
        json!({ "kind": "Device" }),
        json!({ "kind": "device", "nonces": [hex::encode([0u8; 31])] }),
        json!({ "kind": "device", "nonces": ["zz"] }),
        json!({ "kind": "device", "nonces": [vec![0u8; 33]] }),
        json!({ "kind": "device", "nonces": "00" }),
    ] {
        assert!(
            serde_json::from_value::<OcspRequestsOptions>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    let not_pem = options(json!({ "kind": "device" }))
        .requests("not PEM", no_fresh)
        .unwrap_err();
    assert_eq!(not_pem.code(), "ERR_CHAIN_EMPTY");
}

#[test]
fn checked_answers_fold_into_the_chain_report() {
    let good = device(
        "chain_good.pem",
        "brom_good.der",
        &CheckOcspOptions::default(),
    );
    assert_eq!(good.revocation, ChainRevocation::good());
    let written = serde_json::to_value(&good).unwrap();
    assert_eq!(written["status"], "good");
    assert!(written.get("held").is_none() && written.get("serviceCode").is_none());
    let first = &written["certificates"][0];
    assert_eq!(first["subject"], "GH100 A01 GSP BROM");
    assert_eq!(first["nonce"], "matched");
    assert_eq!(first["thisUpdate"], response("brom_good.der").this_update);
    assert_eq!(first["cacheUntil"], first["nextUpdate"]);

    let revoked = device(
        "chain_revoked.pem",
        "brom_revoked.der",
        &CheckOcspOptions::default(),
    );
    assert_eq!(revoked.status, "revoked");
    assert_eq!(revoked.service_code, Some(5002));
    assert!(revoked.certificates[0].revoked_at.is_some());

    // certificateHold: revoked unless the options allow it, then good and held.
    let strict: CheckOcspOptions = serde_json::from_str("{}").unwrap();
    let held = device("chain_hold.pem", "brom_hold.der", &strict);
    assert_eq!(
        held.revocation,
        ChainRevocation::Revoked {
            reason: Some(RevocationReason::CertificateHold)
        }
    );
    let allowing: CheckOcspOptions = serde_json::from_str(r#"{"allowHold": true}"#).unwrap();
    let held = device("chain_hold.pem", "brom_hold.der", &allowing);
    assert_eq!((held.status, held.held), ("good", Some(true)));
    assert!(serde_json::from_str::<CheckOcspOptions>(r#"{"allowHold": "yes"}"#).is_err());
}

#[test]
fn answers_that_are_missing_or_failed_are_never_good() {
    let chain = text("chain_good.pem");
    let now = response("brom_good.der").now;
    let check = CheckOcspOptions::default();
    let short = check
        .check(
            &chain,
            ChainKind::Device,
            &[answer("brom_good.der")],
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap_err();
    assert_eq!(short, OcspInputError::AnswerCount { expected: 3 });
    assert_eq!(short.field(), Some("answers"));

    let answers = [
        answer("brom_good.der"),
        Fetched::Failed(FetchFailure::Timeout),
        Fetched::Failed(FetchFailure::HttpStatus(503)),
    ];
    let down = check
        .check(
            &chain,
            ChainKind::Device,
            &answers,
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap();
    assert_eq!((down.status, down.service_code), ("failed", Some(5001)));
    assert_eq!(down.code, Some("ERR_OCSP_UNAVAILABLE"));
    assert_eq!(down.certificates[1].status, "failed");
    assert_eq!(down.certificates[1].this_update, None);
    assert!(down.certificates[1]
        .message
        .as_deref()
        .unwrap()
        .contains("in time"));

    // A response for another certificate is not believed.
    let swapped = [answer("ica.der"), answer("ica.der"), answer("identity.der")];
    let wrong = check
        .check(
            &chain,
            ChainKind::Device,
            &swapped,
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap();
    assert_eq!(wrong.certificates[0].status, "failed");
    assert_ne!(wrong.status, "good");
}
