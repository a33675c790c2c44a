//! Certificate path validation to a trust store (RFC 5280 §6.1, strict closed-PKI profile,
//! P-384 / ecdsa-with-SHA384 only), the TCG DICE FWID extensions, `hwmodel` and `ueid`.
//!
//! # API (stable; used by `evidence` for device chains and by `rim` for RIM signing chains)
//!
//! ```text
//! parse_pem_chain(&str) -> Result<Vec<Vec<u8>>, ChainError>          // PEM text → DER, in order
//! TrustStore::nvidia_device_identity() / ::nvidia_rim()               // embedded NVIDIA roots
//! TrustStore::from_pem(&str) / ::from_der(&[impl AsRef<[u8]>])       // any anchors
//! verify_chain(&chain_der, &store, now, &ChainOptions::default())
//!     -> Result<VerifiedChain, ChainError>                            // software signatures
//! ChainPlan::new(..same args..)?  .signature_checks() / .finish(&verdicts) / .verify()
//!                                                                     // signatures as data
//! ```
//!
//! * `chain`: DER certificates, **leaf first**; the others may come in any order and may
//!   include the root. A supplied certificate byte-equal to an anchor is that anchor; a
//!   supplied self-signed root that is not an anchor fails with
//!   [`ChainError::UntrustedRoot`]; a missing link with [`ChainError::IssuerNotFound`].
//! * `now`: Unix seconds. With [`TimeCheck::Report`] (default) time is not a failure but
//!   [`VerifiedChain::status`] says `valid` / `expired` / not-yet-valid, with
//!   [`VerifiedChain::earliest_not_after`] — as the real service reports certificate status.
//!   [`TimeCheck::Enforce`] makes it an error.
//! * [`VerifiedChain`] (proof type) gives the leaf key ([`VerifiedChain::leaf_public_key_sec1`],
//!   SEC1 uncompressed), the path ([`VerifiedChain::certificates`], subjects, serials,
//!   validity, DER), `ueid`, `hwmodel`, the DICE FWIDs, and [`RevocationStatus::NotChecked`].
//! * Checks: DER, v3, serial, ecdsa-with-SHA384 (outer = inner), P-384 named-curve keys,
//!   duplicate and unknown critical extensions, name chaining (byte-equal DER names), key
//!   identifiers (AKI on every non-root, SKI on every CA, AKI = SKI between links), issuer
//!   basicConstraints critical cA TRUE, keyCertSign when keyUsage is present, pathLen
//!   (self-issued excepted), leaf not a CA, the leaf's keyUsage / extendedKeyUsage for its
//!   [`Purpose`] ([`ChainOptions::purpose`]: device leaf, RIM signer, OCSP responder), path
//!   length, validity, each link's signature.
//!   The anchor's own signature is not checked (it is trusted); its profile is.
//! * Revocation (OCSP, CRL) is not checked and reported as such.

mod cache;
mod dice;
mod path;
mod pem;
mod revocation;
mod roots;
mod store;
mod verified;

use crate::time::UnixTime;
use alloc::vec::Vec;

pub use crate::x509::{CertPosition, ChainError, Purpose, MAX_CHAIN_CERTIFICATES};
pub(crate) use cache::CertCache;
pub use path::{ChainOptions, ChainPlan, TimeCheck};
pub use revocation::RevocationStatus;
pub use roots::{
    NVIDIA_CORIM_ROOT_CA001_PEM, NVIDIA_DEVICE_IDENTITY_CA_PEM, NVIDIA_RIM_ROOT_CA_PEM,
};
pub use store::{parse_pem_chain, TrustStore};
pub use verified::{ChainCertificate, ChainStatus, VerifiedChain};

/// Validates `chain` (DER, leaf first) to an anchor of `store` at `now` and checks every
/// link's signature with the software backend.
///
/// # Errors
/// [`ChainError`] naming the first failed check.
pub fn verify_chain<C: AsRef<[u8]>>(
    chain: &[C],
    store: &TrustStore,
    now: UnixTime,
    options: &ChainOptions,
) -> Result<VerifiedChain, ChainError> {
    ChainPlan::new(chain, store, now, options)?.verify()
}

/// [`verify_chain`] for a PEM text (leaf first).
///
/// # Errors
/// As [`parse_pem_chain`] and [`verify_chain`].
pub fn verify_pem_chain(
    pem: &str,
    store: &TrustStore,
    now: UnixTime,
    options: &ChainOptions,
) -> Result<VerifiedChain, ChainError> {
    let ders: Vec<Vec<u8>> = parse_pem_chain(pem)?;
    verify_chain(&ders, store, now, options)
}
