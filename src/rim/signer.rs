//! A RIM signer, whatever the format that carries its certificates (XML `X509Data`, a
//! CoRIM's `x5chain`): its key must be EC P-384, and its certificate path is planned to the
//! format's anchors as a RIM signer's.

use alloc::vec::Vec;

use const_oid::ObjectIdentifier;

use super::error::RimError;
use crate::chain::{ChainError, ChainOptions, ChainPlan, Purpose, TrustStore};
use crate::time::UnixTime;

const EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const SECP384R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");

/// The SEC1 point of an EC P-384 signer certificate.
pub(crate) fn signer_key(der: &[u8]) -> Result<Vec<u8>, RimError> {
    let bad = |problem| RimError::Certificate { index: 0, problem };
    // The chain module's reader: the same acceptance as x509-cert's `Certificate::from_der`,
    // without a second certificate decoder in the module.
    let spki = crate::x509::Cert::public_key_info(der).ok_or(bad("not a DER certificate"))?;
    if spki.algorithm.oid != EC_PUBLIC_KEY {
        return Err(bad("signer key is not an EC key"));
    }
    let curve = spki
        .algorithm
        .parameters
        .as_ref()
        .and_then(|p| p.decode_as::<ObjectIdentifier>().ok());
    if curve != Some(SECP384R1) {
        return Err(bad("signer key is not on P-384"));
    }
    spki.subject_public_key
        .as_bytes()
        .map(<[u8]>::to_vec)
        .ok_or(bad("signer key bit string is not whole bytes"))
}

/// The path of a RIM signer's certificates (leaf first) to `store` at `now`, as a RIM
/// signer's: the one planning both formats share.
pub(crate) fn plan_chain(
    certificates: &[Vec<u8>],
    store: Option<&TrustStore>,
    now: UnixTime,
) -> Result<ChainPlan, ChainError> {
    match store {
        Some(store) => ChainPlan::new(
            certificates,
            store,
            now,
            &ChainOptions::default().with_purpose(Purpose::RimSigner),
        ),
        None => Err(ChainError::Empty),
    }
}
