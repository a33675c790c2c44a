//! OCSP responses (`edgeattest::ocsp::check_response`) against static responses made
//! offline by `openssl ocsp` acting as the responder and by Python `cryptography`
//! (`tests/fixtures/generated/ocsp/responses/generate.py`), answering requests our code
//! built. Every refusal asserts its exact code.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::chain::ChainError;
use edgeattest::ocsp::{
    check_response, CertRevocation, CheckedOcsp, NonceCheck, OcspError, ResponderProblem,
    ResponseStatus, RevocationReason, MAX_AGE_WITHOUT_NEXT_UPDATE, MAX_CACHE_SECONDS,
    MAX_RESPONSE_LEN, OCSP_CLOCK_SKEW,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

#[path = "../../common/ocsp_fixtures.rs"]
mod fixtures;
use fixtures::{der, nonce, request, response, Fixture};

/// 2025-01-01T00:00:00Z: thisUpdate of the builder-made responses.
const T: u64 = 1_735_689_600;
const DAY: u64 = 86_400;
/// When the test PKI's revoked and held certificates were revoked: 2024-06-01T00:00:00Z.
const REVOKED_AT: u64 = 1_717_200_000;

/// Checks a fixture as the answer to its own request, with its nonce, at its `now`.
fn check(file: &str) -> Result<CheckedOcsp, OcspError> {
    let f = response(file);
    check_at(&f, f.now)
}

fn check_at(f: &Fixture, now: u64) -> Result<CheckedOcsp, OcspError> {
    check_with(f, &f.bytes, &nonce(&f.request), now)
}

fn check_with(f: &Fixture, bytes: &[u8], nonce: &[u8], now: u64) -> Result<CheckedOcsp, OcspError> {
    check_response(
        bytes,
        &request(&f.request),
        nonce,
        &f.issuer,
        UnixTime::from_secs(now).unwrap(),
    )?
    .verify_in_core()
}

fn time(secs: u64) -> UnixTime {
    UnixTime::from_secs(secs).unwrap()
}

fn code(result: Result<CheckedOcsp, OcspError>) -> &'static str {
    match result {
        Ok(checked) => panic!("expected a refusal, got {checked:?}"),
        Err(err) => err.code(),
    }
}

#[test]
fn good_from_the_delegated_responder_as_nvidia_signs() {
    let f = response("brom_good.der");
    let pending = check_response(
        &f.bytes,
        &request("brom_good"),
        &nonce("brom_good"),
        &f.issuer,
        UnixTime::from_secs(f.now).unwrap(),
    )
    .expect("checks pass");
    // The response signature, then the responder certificate's by the CA.
    assert_eq!(pending.signature_checks().len(), 2);
    let checked = pending.verify_in_core().expect("signatures verify");
    assert_eq!(
        checked,
        CheckedOcsp {
            status: CertRevocation::Good,
            this_update: time(f.this_update),
            next_update: Some(time(f.this_update + DAY)),
            nonce: NonceCheck::Matched,
            // nextUpdate comes before now + 1 day.
            cache_until: time(f.this_update + DAY),
        }
    );
}

#[test]
fn good_signed_by_the_issuing_ca_by_name_and_by_key() {
    for file in ["ca_signed_by_name.der", "ca_signed_by_key.der"] {
        let f = response(file);
        let pending = check_response(
            &f.bytes,
            &request("brom_good"),
            &nonce("brom_good"),
            &f.issuer,
            UnixTime::from_secs(f.now).unwrap(),
        )
        .expect(file);
        assert_eq!(pending.signature_checks().len(), 1, "{file}");
        let checked = pending.verify_in_core().expect(file);
        assert_eq!(checked.status, CertRevocation::Good, "{file}");
        assert_eq!(checked.nonce, NonceCheck::Matched, "{file}");
    }
}

#[test]
fn cert_id_hash_parameters_absent_or_null() {
    // Assembled TLV by TLV by generate.py: id-sha384 without NULL parameters (RFC 5754).
    let checked = check("params_absent.der").expect("the other SHA-2 AlgorithmIdentifier form");
    assert_eq!(checked.status, CertRevocation::Good);
    assert_eq!(checked.nonce, NonceCheck::Matched);
    assert_eq!(checked.this_update, time(T));
}

#[test]
fn statuses_of_every_certificate_the_test_pki_asks_about() {
    let revoked = |reason| CertRevocation::Revoked {
        reason: Some(reason),
        at: time(REVOKED_AT),
    };
    for (file, status) in [
        ("brom_good.der", CertRevocation::Good),
        ("brom_revoked.der", revoked(RevocationReason::KeyCompromise)),
        ("brom_hold.der", revoked(RevocationReason::CertificateHold)),
        ("brom_unknown.der", CertRevocation::Unknown),
        ("ica.der", CertRevocation::Good),
        ("identity.der", CertRevocation::Good),
        ("rim_signer.der", CertRevocation::Good),
        (
            "rim_signer_revoked.der",
            revoked(RevocationReason::KeyCompromise),
        ),
        ("rim_l3.der", CertRevocation::Good),
        ("rim_ca.der", CertRevocation::Good),
    ] {
        let checked = check(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(checked.status, status, "{file}");
        assert_eq!(checked.nonce, NonceCheck::Matched, "{file}");
    }
    let checked = check("revoked_no_reason.der").expect("revoked without reason");
    assert_eq!(
        checked.status,
        CertRevocation::Revoked {
            reason: None,
            at: time(REVOKED_AT)
        }
    );
    assert_eq!(RevocationReason::KeyCompromise.as_str(), "keyCompromise");
    assert_eq!(RevocationReason::CaCompromise.as_str(), "cACompromise");
    assert_eq!(RevocationReason::RemoveFromCrl.as_str(), "removeFromCRL");
    assert_eq!(CertRevocation::Unknown.as_str(), "unknown");
}

#[test]
fn signers_that_must_not_be_believed() {
    let unauthorized = |file| match check(file) {
        Err(OcspError::UnauthorizedResponder(problem)) => problem,
        other => panic!("{file}: {other:?}"),
    };
    // Issued by ica, but without id-kp-OCSPSigning.
    assert!(matches!(
        unauthorized("rogue_responder.der"),
        ResponderProblem::Certificate(ChainError::ExtendedKeyUsage { .. })
    ));
    // id-kp-OCSPSigning, but issued by identity (another CA of the same PKI) or by a CA
    // outside it.
    for file in ["other_ca_responder.der", "foreign_responder.der"] {
        assert!(
            matches!(
                unauthorized(file),
                ResponderProblem::Certificate(ChainError::IssuerNotFound { .. })
            ),
            "{file}"
        );
    }
    // The right issuer and use, but expired the day before the response.
    assert!(matches!(
        unauthorized("expired_responder.der"),
        ResponderProblem::Certificate(ChainError::Expired { .. })
    ));
    // The responder certificate's signature by the CA does not verify.
    assert_eq!(
        unauthorized("bad_responder_certificate.der"),
        ResponderProblem::NotIssuedByCa
    );
    assert_eq!(
        code(check("rogue_responder.der")),
        "ERR_OCSP_UNAUTHORIZED_RESPONDER"
    );
}

#[test]
fn a_flipped_signature_bit_fails_the_signature() {
    assert_eq!(check("bad_signature.der"), Err(OcspError::SignatureInvalid));
    assert_eq!(
        code(check("bad_signature.der")),
        "ERR_OCSP_SIGNATURE_INVALID"
    );
}

#[test]
fn verdicts_from_another_backend() {
    let f = response("brom_good.der");
    let pending = || {
        check_response(
            &f.bytes,
            &request("brom_good"),
            &nonce("brom_good"),
            &f.issuer,
            UnixTime::from_secs(f.now).unwrap(),
        )
        .expect("pending")
    };
    assert!(pending().finish(&[true, true]).is_ok());
    assert_eq!(
        pending().finish(&[false, true]),
        Err(OcspError::SignatureInvalid)
    );
    // The responder certificate failing is reported first: without it there is no responder.
    for verdicts in [[true, false], [false, false]] {
        assert_eq!(
            pending().finish(&verdicts),
            Err(OcspError::UnauthorizedResponder(
                ResponderProblem::NotIssuedByCa
            ))
        );
    }
    assert_eq!(
        pending().finish(&[true]),
        Err(OcspError::VerdictCount {
            expected: 2,
            got: 1
        })
    );
    assert_eq!(
        code(pending().finish(&[true, true, true])),
        "ERR_OCSP_VERDICT_COUNT"
    );
}

#[test]
fn time_window_edges_with_the_documented_skew() {
    assert_eq!(OCSP_CLOCK_SKEW, 300);
    let f = response("window.der");
    assert_eq!(f.this_update, T);
    let next = T + DAY;
    // thisUpdate ≤ now + skew.
    let earliest = check_at(&f, T - OCSP_CLOCK_SKEW).expect("thisUpdate = now + skew");
    assert_eq!(earliest.next_update, Some(time(next)));
    assert_eq!(
        check_at(&f, T - OCSP_CLOCK_SKEW - 1),
        Err(OcspError::NotYetValid {
            this_update: time(T)
        })
    );
    assert_eq!(
        code(check_at(&f, T - OCSP_CLOCK_SKEW - 1)),
        "ERR_OCSP_NOT_YET_VALID"
    );
    // now < nextUpdate + skew.
    assert!(check_at(&f, next + OCSP_CLOCK_SKEW - 1).is_ok());
    assert_eq!(
        check_at(&f, next + OCSP_CLOCK_SKEW),
        Err(OcspError::Stale { until: time(next) })
    );
    assert_eq!(code(check_at(&f, next + 10 * DAY)), "ERR_OCSP_STALE");
    // Cached until the earlier of nextUpdate and now + 1 day.
    assert_eq!(MAX_CACHE_SECONDS, DAY);
    assert_eq!(earliest.cache_until, time(next - OCSP_CLOCK_SKEW));
    assert_eq!(
        check_at(&f, T + 3600).expect("current").cache_until,
        time(next)
    );
}

#[test]
fn without_next_update_current_for_seven_days_and_never_cached() {
    let f = response("no_next_update.der");
    let until = T + MAX_AGE_WITHOUT_NEXT_UPDATE;
    let checked = check_at(&f, until + OCSP_CLOCK_SKEW - 1).expect("within 7 days");
    assert_eq!(checked.next_update, None);
    assert_eq!(checked.cache_until, UnixTime::EPOCH);
    assert_eq!(checked.nonce, NonceCheck::NotEchoed);
    assert_eq!(
        check_at(&f, until + OCSP_CLOCK_SKEW),
        Err(OcspError::Stale { until: time(until) })
    );
}

#[test]
fn nonce_echoed_matching_other_or_not_at_all() {
    assert_eq!(check("brom_good.der").unwrap().nonce, NonceCheck::Matched);
    let not_echoed = check("not_echoed.der").expect("a response without nonce is checked");
    assert_eq!(not_echoed.nonce, NonceCheck::NotEchoed);
    assert_eq!(not_echoed.status, CertRevocation::Good);
    // The response echoes the nonce of another request.
    assert_eq!(check("other_nonce.der"), Err(OcspError::NonceMismatch));
    // The right response presented as the answer to another request (a replay).
    let f = response("brom_good.der");
    assert_eq!(
        check_with(&f, &f.bytes, &nonce("ica"), f.now),
        Err(OcspError::NonceMismatch)
    );
    assert_eq!(
        code(check_with(&f, &f.bytes, &[], f.now)),
        "ERR_OCSP_NONCE_MISMATCH"
    );
    // The same bytes from a cache, with the nonce stored beside them: still matched.
    let cached = check_with(&f, &f.bytes, &nonce("brom_good"), f.now + 3600).expect("cached");
    assert_eq!(cached.nonce, NonceCheck::Matched);
}

#[test]
fn a_response_about_another_certificate_or_from_another_issuer() {
    // brom_revoked's response (same issuer) offered as the answer about brom_good.
    let f = response("brom_revoked.der");
    let result = check_response(
        &f.bytes,
        &request("brom_good"),
        &nonce("brom_revoked"),
        &f.issuer,
        UnixTime::from_secs(f.now).unwrap(),
    )
    .map(|_| ());
    assert_eq!(result, Err(OcspError::CertIdMismatch));
    // ica's response about ica (issuer identity) offered for brom_good with the right issuer.
    let g = response("ica.der");
    let result = check_response(
        &g.bytes,
        &request("brom_good"),
        &nonce("ica"),
        &f.issuer,
        UnixTime::from_secs(g.now).unwrap(),
    )
    .map(|_| ());
    assert!(
        matches!(result, Err(OcspError::UnauthorizedResponder(_))),
        "signed by identity's responder: {result:?}"
    );
    // The caller passes an issuer other than the one the request names.
    let result = check_response(
        &f.bytes,
        &request("brom_revoked"),
        &nonce("brom_revoked"),
        &der("identity.pem"),
        UnixTime::from_secs(f.now).unwrap(),
    )
    .map(|_| ());
    assert_eq!(result, Err(OcspError::IssuerMismatch));
    assert_eq!(OcspError::IssuerMismatch.code(), "ERR_OCSP_ISSUER_MISMATCH");
}

#[test]
fn unsuccessful_statuses_and_other_response_types() {
    let f = response("brom_good.der");
    for (file, status) in [
        ("try_later.der", ResponseStatus::TryLater),
        ("unauthorized.der", ResponseStatus::Unauthorized),
        ("malformed_request.der", ResponseStatus::MalformedRequest),
    ] {
        let bytes = std::fs::read(fixtures::pki(&format!("responses/{file}"))).unwrap();
        let result = check_with(&f, &bytes, &nonce("brom_good"), f.now);
        assert_eq!(result, Err(OcspError::ResponseStatus(status)), "{file}");
        assert_eq!(code(result), "ERR_OCSP_RESPONSE_STATUS");
    }
    assert_eq!(
        OcspError::ResponseStatus(ResponseStatus::TryLater).to_string(),
        "the responder answered tryLater"
    );
    assert_eq!(check("not_basic.der"), Err(OcspError::ResponseType));
    assert_eq!(code(check("not_basic.der")), "ERR_OCSP_RESPONSE_TYPE");
}

#[test]
fn signature_algorithms_outside_the_allow_list() {
    // ecdsa-with-SHA256 by the right responder (openssl -rmd sha256), and an RSA signature.
    for file in ["ecdsa_sha256.der", "rsa_signed.der"] {
        assert_eq!(check(file), Err(OcspError::SignatureAlgorithm), "{file}");
    }
    assert_eq!(
        code(check("rsa_signed.der")),
        "ERR_OCSP_SIGNATURE_ALGORITHM"
    );
}

#[test]
fn truncated_trailing_and_oversized_der() {
    let f = response("brom_good.der");
    let n = nonce("brom_good");
    let malformed = |bytes: &[u8]| code(check_with(&f, bytes, &n, f.now));
    for cut in [1, 2, f.bytes.len() / 2, f.bytes.len() - 1] {
        assert_eq!(
            malformed(&f.bytes[..f.bytes.len() - cut]),
            "ERR_OCSP_MALFORMED",
            "cut {cut}"
        );
    }
    assert_eq!(malformed(&[]), "ERR_OCSP_MALFORMED");
    let mut trailing = f.bytes.clone();
    trailing.push(0);
    assert_eq!(malformed(&trailing), "ERR_OCSP_MALFORMED");
    // At the cap: parsed (and refused as DER); one byte more: refused before parsing.
    let mut at_cap = f.bytes.clone();
    at_cap.resize(MAX_RESPONSE_LEN, 0);
    assert_eq!(malformed(&at_cap), "ERR_OCSP_MALFORMED");
    let mut over = at_cap;
    over.push(0);
    assert_eq!(
        check_with(&f, &over, &n, f.now),
        Err(OcspError::TooLarge {
            len: MAX_RESPONSE_LEN + 1
        })
    );
    assert_eq!(malformed(&over), "ERR_OCSP_RESPONSE_TOO_LARGE");
}

#[test]
fn work_budgets_on_single_responses_and_certificates() {
    // 16 SingleResponses (the cap), one of them about brom_good: found among the others.
    let checked = check("many_16.der").expect("16 responses are read");
    assert_eq!(checked.status, CertRevocation::Good);
    assert_eq!(checked.nonce, NonceCheck::NotEchoed);
    assert_eq!(check("many_17.der"), Err(OcspError::TooManyResponses));
    assert_eq!(code(check("many_17.der")), "ERR_OCSP_TOO_MANY_RESPONSES");
    assert_eq!(
        check("four_certs.der").unwrap().status,
        CertRevocation::Good
    );
    assert_eq!(
        check("too_many_certs.der"),
        Err(OcspError::TooManyCertificates)
    );
    assert_eq!(
        code(check("too_many_certs.der")),
        "ERR_OCSP_TOO_MANY_CERTIFICATES"
    );
}

#[test]
fn critical_extensions_are_refused_unless_understood() {
    assert_eq!(
        check("critical_extension.der"),
        Err(OcspError::CriticalExtension {
            oid: "1.3.6.1.4.1.99999.1".into()
        })
    );
    assert_eq!(
        code(check("critical_extension.der")),
        "ERR_OCSP_CRITICAL_EXTENSION"
    );
    assert_eq!(
        check("noncritical_extension.der").unwrap().status,
        CertRevocation::Good
    );
}

#[test]
fn every_failure_is_the_services_5001() {
    for err in [
        OcspError::SignatureInvalid,
        OcspError::NonceMismatch,
        OcspError::Unavailable(edgeattest::ocsp::FetchFailure::Timeout),
        OcspError::ResponseStatus(ResponseStatus::TryLater),
    ] {
        assert_eq!(err.service_code(), 5001, "{err}");
    }
    assert_eq!(
        OcspError::Unavailable(edgeattest::ocsp::FetchFailure::HttpStatus(503)).to_string(),
        "OCSP unavailable: the responder answered HTTP 503"
    );
    assert_eq!(
        OcspError::Unavailable(edgeattest::ocsp::FetchFailure::Unreachable).code(),
        "ERR_OCSP_UNAVAILABLE"
    );
}
