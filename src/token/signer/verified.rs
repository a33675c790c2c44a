//! Who signed a verified token: the pinned signer's anchor and path, or no pinning.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use serde::Serialize;

use crate::time::UnixTime;

/// One certificate of a signer's path, as reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "SignerCertificate"))]
#[serde(rename_all = "camelCase")]
pub struct SignerCertificate {
    /// Subject, RFC 4514 text.
    pub subject: String,
    /// Issuer, RFC 4514 text.
    pub issuer: String,
    /// notBefore, Unix seconds.
    pub not_before: UnixTime,
    /// notAfter, Unix seconds.
    pub not_after: UnixTime,
}

/// Who signed a verified token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifiedSigner {
    /// No pinning ([`super::Signers::Any`]): any key of the set was accepted.
    Unpinned,
    /// The key's chain reached an anchor.
    Pinned(Arc<PinnedSigner>),
}

impl VerifiedSigner {
    /// Whether the signer was pinned.
    pub fn pinned(&self) -> Option<&PinnedSigner> {
        match self {
            Self::Unpinned => None,
            Self::Pinned(signer) => Some(signer),
        }
    }
}

/// A signer whose `x5c` chain reached an anchor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PinnedSigner {
    pub(super) anchor: String,
    pub(super) chain: Vec<SignerCertificate>,
    pub(super) kid: Option<String>,
    /// The DER of each certificate of the path, anchor certificate included when it ended the
    /// path (the OCSP requests need subjects and issuers).
    pub(super) ders: Vec<Vec<u8>>,
    /// The OCSP URL of each certificate of the path, when it carries one.
    pub(super) ocsp_urls: Vec<Option<String>>,
}

impl PinnedSigner {
    /// The anchor reached: `spkiSha256:<hex>` or `certificate:<subject>`.
    pub fn anchor(&self) -> &str {
        &self.anchor
    }

    /// The path, leaf first, through the anchor's certificate when it ended the path.
    pub fn chain(&self) -> &[SignerCertificate] {
        &self.chain
    }

    /// The `kid` of the key.
    pub fn kid(&self) -> Option<&str> {
        self.kid.as_deref()
    }

    /// The DER of each certificate of [`Self::chain`], in order (for OCSP requests: a
    /// certificate's issuer is the next one).
    pub fn certificates_der(&self) -> &[Vec<u8>] {
        &self.ders
    }

    /// The OCSP responder URL each certificate of [`Self::chain`] names, as written.
    pub fn ocsp_urls(&self) -> &[Option<String>] {
        &self.ocsp_urls
    }
}
