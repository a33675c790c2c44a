//! One revocation status per chain (`edgeattest::ocsp::fold_chain`) from the checked
//! responses of its certificates, in chain order, as NVIDIA's verifiers fold them.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::ocsp::{
    fold_chain, ChainRevocation, CheckedOcsp, FetchFailure, OcspError, Relaxation,
    RevocationReason, RevocationRule,
};
use edgeattest::UnixTime;

#[path = "../../common/ocsp_fixtures.rs"]
mod fixtures;
use fixtures::response;

/// The checked response of a static fixture (real signatures, its own request and time).
fn checked(file: &str) -> Result<CheckedOcsp, OcspError> {
    let f = response(file);
    edgeattest::ocsp::check_response(
        &f.bytes,
        &fixtures::request(&f.request),
        &fixtures::nonce(&f.request),
        &f.issuer,
        UnixTime::from_secs(f.now).unwrap(),
    )?
    .verify_in_core()
}

/// The fold under the strict rule, or with only `allowHold` (the grace period plays no part
/// here, so the time does not either).
fn fold(results: &[Result<CheckedOcsp, OcspError>], allow_hold: bool) -> ChainRevocation {
    let rule = RevocationRule {
        allow_hold,
        ..RevocationRule::default()
    };
    fold_chain(results, &rule, UnixTime::EPOCH)
}

/// The device chain with `brom` as its BROM's response: brom, ica, identity.
fn device(brom: &str) -> Vec<Result<CheckedOcsp, OcspError>> {
    vec![checked(brom), checked("ica.der"), checked("identity.der")]
}

#[test]
fn good_only_when_every_certificate_is_good() {
    for allow_hold in [false, true] {
        assert_eq!(
            fold(&device("brom_good.der"), allow_hold),
            ChainRevocation::good()
        );
    }
    let rim = [
        checked("rim_signer.der"),
        checked("rim_l3.der"),
        checked("rim_ca.der"),
    ];
    assert_eq!(fold(&rim, false), ChainRevocation::good());
    let rim_revoked = [
        checked("rim_signer_revoked.der"),
        checked("rim_l3.der"),
        checked("rim_ca.der"),
    ];
    assert_eq!(
        fold(&rim_revoked, false),
        ChainRevocation::Revoked {
            reason: Some(RevocationReason::KeyCompromise)
        }
    );
}

#[test]
fn revoked_unknown_and_failed_chains() {
    let revoked = fold(&device("brom_revoked.der"), true);
    assert_eq!(
        revoked,
        ChainRevocation::Revoked {
            reason: Some(RevocationReason::KeyCompromise)
        }
    );
    assert_eq!(revoked.service_code(), Some(5002));
    let unknown = fold(&device("brom_unknown.der"), false);
    assert_eq!(unknown, ChainRevocation::Unknown);
    assert_eq!(unknown.service_code(), Some(5003));
    let failed = fold(&device("bad_signature.der"), false);
    assert_eq!(failed, ChainRevocation::Failed(OcspError::SignatureInvalid));
    assert_eq!(failed.service_code(), Some(5001));
    assert_eq!(failed.as_str(), "failed");
    assert_eq!(ChainRevocation::good().service_code(), None);
}

#[test]
fn certificate_hold_is_revoked_unless_allowed() {
    assert_eq!(
        fold(&device("brom_hold.der"), false),
        ChainRevocation::Revoked {
            reason: Some(RevocationReason::CertificateHold)
        }
    );
    assert_eq!(
        fold(&device("brom_hold.der"), true),
        ChainRevocation::Good {
            relaxations: vec![Relaxation::Held]
        }
    );
}

#[test]
fn the_first_non_good_certificate_in_chain_order_wins() {
    let hold = || checked("brom_hold.der");
    let revoked = || checked("brom_revoked.der");
    let unknown = || checked("brom_unknown.der");
    let timeout = || Err(OcspError::Unavailable(FetchFailure::Timeout));
    // An allowed hold does not stop the fold: what follows decides.
    assert_eq!(
        fold(&[hold(), unknown(), revoked()], true),
        ChainRevocation::Unknown
    );
    assert_eq!(
        fold(&[hold(), unknown(), revoked()], false),
        ChainRevocation::Revoked {
            reason: Some(RevocationReason::CertificateHold)
        }
    );
    assert_eq!(
        fold(&[revoked(), unknown()], false),
        ChainRevocation::Revoked {
            reason: Some(RevocationReason::KeyCompromise)
        }
    );
    assert_eq!(
        fold(&[unknown(), revoked()], false),
        ChainRevocation::Unknown
    );
    assert_eq!(
        fold(&[checked("brom_good.der"), timeout(), revoked()], false),
        ChainRevocation::Failed(OcspError::Unavailable(FetchFailure::Timeout))
    );
    assert_eq!(
        fold(&[revoked(), timeout()], false),
        ChainRevocation::Revoked {
            reason: Some(RevocationReason::KeyCompromise)
        }
    );
}

#[test]
fn nothing_checked_is_not_good() {
    assert_eq!(
        fold(&[], true),
        ChainRevocation::Failed(OcspError::Unavailable(FetchFailure::NotFetched))
    );
}
