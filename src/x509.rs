//! X.509 certificate parsing, shared by path validation (`chain`), OCSP (`ocsp`), RIM signing
//! keys (`rim`) and JWKS `x5c` chains (`token`): the parsed certificate, what it reports
//! ([`ChainError`] at a [`CertPosition`]), the keyUsage / extendedKeyUsage rule of a
//! [`Purpose`], and a subject as RFC 4514 text.

mod cert;
// A subject as RFC 4514 text, without const-oid's OID database.
mod dn_text;
mod error;
mod purpose;

pub(crate) use cert::{Cert, ECDSA_WITH_SHA384};
pub use error::{CertPosition, ChainError};
pub use purpose::Purpose;

/// Most certificates accepted in one supplied chain (device chains have 5, RIM chains 4).
pub const MAX_CHAIN_CERTIFICATES: usize = 16;
