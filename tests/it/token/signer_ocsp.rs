//! OCSP for a pinned signer's chain (`token::signer::revocation`): a key set whose leaves name
//! an OCSP responder (tests/fixtures/generated/signer_ocsp/, pinned to its root) is asked
//! about at that responder, and `openssl ocsp`, as the root's delegated responder, answers the
//! core's own requests; the answers are judged under the policy's `signerChain` rule. NRAS's
//! pinned signer has nothing that can be asked, and says why.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::Command;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use edgeattest::chain::parse_pem_chain;
use edgeattest::crypto::SigningKey;
use edgeattest::ocsp::{check_response, RevocationPolicy, RevocationRule};
use edgeattest::service::{FetchFailure, Fetched};
use edgeattest::time::UnixTime;
use edgeattest::token::{
    sign_jwt, verify_attestation_result, verify_jwt, Jwks, JwksKey, SignerAnchor,
    SignerOcspOptions, SignerRevocation, Signers, VerifyOptions,
};
use edgeattest::ErrorCode;
use serde_json::json;

use super::teep::capture;

const AIA_URL: &str = "http://ocsp.signer.test/";

fn pki(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/generated/signer_ocsp")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(pki(name)).unwrap()
}

fn now() -> UnixTime {
    UnixTime::from_secs(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs(),
    )
    .unwrap()
}

/// The key set of the `status` leaf: its key with `x5c` = [leaf, root].
fn jwks(status: &str) -> Jwks {
    let chain = parse_pem_chain(&read(&format!("chain_{status}.pem"))).unwrap();
    let key = SigningKey::from_pkcs8_pem(&read(&format!("leaf_{status}_key.pem"))).unwrap();
    let x5c = chain.iter().map(|der| STANDARD.encode(der)).collect();
    Jwks::new(vec![
        JwksKey::new(Some(status.into()), key.public_key()).with_x5c(x5c)
    ])
    .unwrap()
}

fn root() -> Signers {
    Signers::Anchors(vec![
        SignerAnchor::from_certificate_pem(&read("root.pem")).unwrap()
    ])
}

fn options(status: &str, rule: RevocationRule) -> SignerOcspOptions {
    SignerOcspOptions {
        kid: Some(status.into()),
        signers: Some(root()),
        revocation: Some(RevocationPolicy {
            signer_chain: rule,
            ..RevocationPolicy::default()
        }),
        ..SignerOcspOptions::default()
    }
}

/// `openssl ocsp` as the root's delegated responder, answering one DER request.
fn answer(request: &[u8]) -> Vec<u8> {
    let work = std::env::temp_dir().join(format!(
        "edgeattest-signer-ocsp-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("req"), request).unwrap();
    let output = Command::new("openssl")
        .arg("ocsp")
        .arg("-index")
        .arg(pki("index_root.txt"))
        .arg("-CA")
        .arg(pki("root.pem"))
        .arg("-rsigner")
        .arg(pki("responder_root.pem"))
        .arg("-rkey")
        .arg(pki("responder_root_key.pem"))
        .args(["-rmd", "sha384", "-resp_key_id", "-ndays", "1", "-reqin"])
        .arg(work.join("req"))
        .arg("-respout")
        .arg(work.join("resp"))
        .output()
        .expect("openssl is installed (pkg-config/setup.sh)");
    assert!(output.status.success(), "{output:?}");
    let body = std::fs::read(work.join("resp")).unwrap();
    std::fs::remove_dir_all(&work).unwrap();
    body
}

/// The requests of `status`'s key, each answered by the responder (with its nonce).
fn asked(status: &str, rule: RevocationRule) -> (Vec<String>, Vec<Fetched>) {
    let options = options(status, rule);
    let requests = options
        .requests(&jwks(status), now(), || {
            Ok::<_, edgeattest::token::TokenError>([7; 32])
        })
        .unwrap();
    // Named as a device chain's requests are: the commonName.
    let names: Vec<_> = requests
        .iter()
        .map(|r| r.request.certificate.as_str())
        .collect();
    assert_eq!(names, [format!("Test token signer ({status})")]);
    let urls = requests.iter().map(|r| r.url.clone()).collect();
    let answers = requests
        .iter()
        .map(|r| Fetched::Cached {
            body: answer(&r.request.request),
            nonce: r.request.nonce.clone(),
        })
        .collect();
    (urls, answers)
}

#[test]
fn a_good_signer_is_asked_at_its_responder_and_passes() {
    let (urls, answers) = asked("good", RevocationRule::default());
    assert_eq!(urls, [AIA_URL], "the leaf, at the URL its AIA names");
    let status = options("good", RevocationRule::default())
        .check(&jwks("good"), &answers, now())
        .unwrap();
    assert_eq!(status.status, "good");
    assert!(status.warnings.is_empty() && status.code.is_none());
    assert_eq!(
        status.anchor.as_deref(),
        Some("certificate:O=Test Signer OCSP PKI,CN=Test Signer OCSP Root CA")
    );
    assert_eq!(status.certificates.len(), 1);
    assert_eq!(status.certificates[0].status, "good");
    assert_eq!(status.certificates[0].nonce, Some("matched"));
}

#[test]
fn a_revoked_signer_is_refused_naming_the_certificate_time_and_reason() {
    let (_, answers) = asked("revoked", RevocationRule::default());
    let status = options("revoked", RevocationRule::default())
        .check(&jwks("revoked"), &answers, now())
        .unwrap();
    assert_eq!(status.status, "revoked");
    assert_eq!(status.code, Some("ERR_SIGNER_REVOKED"));
    let message = status.message.unwrap();
    // index_root.txt: revoked 2024-06-01T00:00:00Z, keyCompromise.
    for part in [
        "Test token signer (revoked)",
        "2024-06-01T00:00:00Z",
        "keyCompromise",
    ] {
        assert!(message.contains(part), "{message}");
    }
    // Inside a grace period it passes, with the warning naming the time and the reason.
    let since = now().as_secs() - 1_717_200_000;
    let grace = RevocationRule {
        revoked_grace_period: Some(since + 3600),
        ..RevocationRule::default()
    };
    let status = options("revoked", grace)
        .check(&jwks("revoked"), &answers, now())
        .unwrap();
    assert_eq!((status.status, status.code), ("good", None));
    assert_eq!(status.warnings.len(), 1);
    assert!(
        status.warnings[0].contains("result signer's chain")
            && status.warnings[0].contains("2024-06-01T00:00:00Z")
            && status.warnings[0].contains("revokedGracePeriod"),
        "{:?}",
        status.warnings
    );
    // Past it, refused.
    let past = RevocationRule {
        revoked_grace_period: Some(since - 3600),
        ..RevocationRule::default()
    };
    let status = options("revoked", past)
        .check(&jwks("revoked"), &answers, now())
        .unwrap();
    assert_eq!(status.code, Some("ERR_SIGNER_REVOKED"));
}

#[test]
fn unknown_and_unanswered_fail_strictly_and_warn_under_allow_unknown() {
    let allow = RevocationRule {
        allow_unknown: true,
        ..RevocationRule::default()
    };
    let (_, unknown) = asked("unknown", RevocationRule::default());
    let down = [Fetched::Failed(FetchFailure::Timeout)];
    for (status, answers) in [("unknown", &unknown[..]), ("good", &down[..])] {
        let strict = options(status, RevocationRule::default())
            .check(&jwks(status), answers, now())
            .unwrap();
        assert_eq!(
            strict.code,
            Some("ERR_SIGNER_REVOCATION_UNCONFIRMED"),
            "{status}: {strict:?}"
        );
        assert!(strict
            .message
            .unwrap()
            .contains("revocation.signerChain.allowUnknown"));
        let relaxed = options(status, allow)
            .check(&jwks(status), answers, now())
            .unwrap();
        assert_eq!((relaxed.status, relaxed.code), ("good", None));
        assert_eq!(relaxed.warnings.len(), 1, "{status}");
        assert!(relaxed.warnings[0].contains("allowUnknown"));
    }
    // One answer per request, or the input is refused.
    let error = options("good", RevocationRule::default())
        .check(&jwks("good"), &[], now())
        .unwrap_err();
    assert_eq!(error.code(), "ERR_INVALID_ARGUMENT");
}

#[test]
fn an_answer_from_another_responder_or_for_another_nonce_is_not_believed() {
    let (_, good) = asked("good", RevocationRule::default());
    let Fetched::Cached { body, .. } = &good[0] else {
        unreachable!()
    };
    // The same response, claimed for another nonce: not believed, so unconfirmed.
    let replayed = [Fetched::Cached {
        body: body.clone(),
        nonce: vec![9; 32],
    }];
    let allow = RevocationRule {
        allow_unknown: true,
        ..RevocationRule::default()
    };
    let status = options("good", allow)
        .check(&jwks("good"), &replayed, now())
        .unwrap();
    assert_eq!(status.status, "failed");
    assert_eq!(status.code, Some("ERR_SIGNER_REVOCATION_UNCONFIRMED"));
    // The revoked leaf's answer handed in for the good leaf names another certificate.
    let (_, revoked) = asked("revoked", RevocationRule::default());
    let status = options("good", RevocationRule::default())
        .check(&jwks("good"), &revoked, now())
        .unwrap();
    assert_eq!(status.code, Some("ERR_SIGNER_REVOCATION_UNCONFIRMED"));
    assert!(status.certificates[0]
        .code
        .unwrap()
        .starts_with("ERR_OCSP_"));
}

#[test]
fn the_verified_signer_drives_the_same_requests_and_verdict() {
    let key = SigningKey::from_pkcs8_pem(&read("leaf_good_key.pem")).unwrap();
    let iat = now().as_secs();
    let token = sign_jwt(
        &json!({"iss": "https://signer.test", "iat": iat, "exp": iat + 600}),
        &key,
        "good",
    )
    .unwrap();
    let verified = verify_jwt(
        &token,
        &jwks("good"),
        &VerifyOptions::new().signers(root()),
        now(),
    )
    .unwrap();
    let signer = verified.signer().pinned().expect("pinned to the root");
    let targets = signer.ocsp_requests([[3; 32]]).unwrap();
    assert_eq!(targets.len(), 1);
    assert_eq!((targets[0].index, targets[0].url.as_str()), (0, AIA_URL));
    let body = answer(targets[0].request.der());
    let issuer = signer.issuer_der(0).unwrap();
    let result = check_response(&body, &targets[0].request, &[3; 32], issuer, now())
        .and_then(|pending| pending.verify_in_core());
    let revocation = signer
        .revocation(&[result], &RevocationRule::default(), now())
        .unwrap();
    assert_eq!(
        revocation,
        SignerRevocation::Good {
            relaxations: vec![]
        }
    );
    // No answer at all is unanswered, never good.
    let error = signer
        .revocation(&[], &RevocationRule::default(), now())
        .unwrap_err();
    assert_eq!(error.code(), "ERR_SIGNER_REVOCATION_UNCONFIRMED");
}

#[test]
fn nras_pinned_signer_asks_nothing_and_says_why() {
    let c = capture("v3_1gpu_success_20260629");
    let at = UnixTime::from_secs(c.iat).unwrap();
    let options = VerifyOptions::new()
        .issuer("https://nras.attestation.nvidia.com")
        .nonce(&c.nonce);
    let verified = verify_attestation_result(&c.response, &c.jwks, &options, at).unwrap();
    let signer = verified.signer().pinned().expect("pinned by default");
    assert!(signer.ocsp_targets().is_empty());
    assert_eq!(
        signer.ocsp_urls().iter().flatten().collect::<Vec<_>>(),
        ["http://ocsp.ndis.nvidia.com"],
        "the intermediate names NVIDIA's responder; the leaf names none"
    );
    let revocation = signer
        .revocation(&[], &RevocationRule::default(), at)
        .unwrap();
    let reason = revocation.not_checked_reason().unwrap();
    for part in ["names no OCSP responder", "CA 001", "`certificate` anchor"] {
        assert!(reason.contains(part), "{reason}");
    }
    // The key-set form says the same, and asks nothing.
    let kid = signer.kid().map(String::from);
    let host = SignerOcspOptions {
        kid,
        ..SignerOcspOptions::default()
    };
    let requests = host
        .requests(&c.jwks, at, || {
            Ok::<_, edgeattest::token::TokenError>([1; 32])
        })
        .unwrap();
    assert!(requests.is_empty());
    let status = host.check(&c.jwks, &[], at).unwrap();
    assert_eq!(status.status, "not-checked");
    assert!(status.not_checked.unwrap().contains("CA 001"));
    assert!(status.code.is_none());
    // Unpinned, there is nothing trusted to ask about.
    // Unpinned results name no key (`signer: {pinned: false}`): none is looked for.
    let any = SignerOcspOptions {
        signers: Some(Signers::Any),
        kid: None,
        ..host
    };
    let status = any.check(&c.jwks, &[], at).unwrap();
    assert_eq!(status.status, "not-checked");
    assert!(status.not_checked.unwrap().contains("without pinning"));
}

#[test]
fn a_held_signer_is_refused_strictly_and_passes_under_allow_hold() {
    let (_, answers) = asked("hold", RevocationRule::default());
    let strict = options("hold", RevocationRule::default())
        .check(&jwks("hold"), &answers, now())
        .unwrap();
    assert_eq!(strict.code, Some("ERR_SIGNER_REVOKED"));
    assert!(strict.message.unwrap().contains("certificateHold"));
    // allowUnknown does not cover a hold.
    let unknown = RevocationRule {
        allow_unknown: true,
        ..RevocationRule::default()
    };
    let status = options("hold", unknown)
        .check(&jwks("hold"), &answers, now())
        .unwrap();
    assert_eq!(status.code, Some("ERR_SIGNER_REVOKED"));
    let hold = RevocationRule {
        allow_hold: true,
        ..RevocationRule::default()
    };
    let status = options("hold", hold)
        .check(&jwks("hold"), &answers, now())
        .unwrap();
    assert_eq!((status.status, status.code), ("good", None));
    assert_eq!(status.warnings.len(), 1);
    assert!(
        status.warnings[0].contains("result signer's chain"),
        "{:?}",
        status.warnings
    );
}
