//! RATS Conceptual Message Wrappers (CMW, draft-ietf-rats-msg-wrap-23) as evidence input:
//! the wrapper read in both serialisations, and NVIDIA's evidence profile on top of it.
//!
//! The forms (draft §3, §4):
//! - **Record**: JSON `[type, base64url value, ? ind]` (type a media type; value base64url
//!   without padding, even for text); CBOR `[type, bstr, ? ind]` (type a media type or a
//!   CoAP Content-Format, `uint .size 2`). `ind` is a non-zero bitmap of the conceptual
//!   message types (bit 2 = evidence); only the five registered bits (1..=31) are accepted.
//! - **Tag** (CBOR only): `#6.TN(bstr)` with `TN(cf) = 1668546817 + (cf / 255) * 256 + cf % 255`
//!   (RFC 9277 App. B), read as a record of Content-Format `cf`.
//! - **Collection**: JSON object / CBOR map of label → CMW (labels text, or int in CBOR), at
//!   least one entry, the reserved label `__cmwc_t` its type (an absolute URI or an OID).
//!
//! Which serialisation is told by the first byte, as the draft's demultiplexer does (§5):
//! `[` / `{` JSON; `0x82`, `0x83`, `0x9f` a CBOR record; `0xda` a tag; `0xa0..=0xbb`,
//! `0xbf` a CBOR collection. An SPDM transcript starts with its version byte (`0x10..=0x1f`),
//! so a CMW is never taken for a transcript nor the reverse ([`CmwForm::sniff`]).
//!
//! Budgets ([`CmwLimits`]) bound the work on input from outside before anything is decoded
//! (size) and while decoding (collection depth, entries and records counted together).
//! Duplicate labels are refused in both forms, as JSON members are everywhere in the crate.
//!
//! [`CmwEvidence`] reads a CMW as NVIDIA's verifier input (SDK 2.0, `collect-evidence-v2`):
//! devices with their transcript, chain, nonce and firmware-version hint.

use alloc::string::String;
use alloc::vec::Vec;

mod cbor;
mod error;
mod json;
mod nvidia;
mod walk;

pub use error::CmwError;
pub use nvidia::{
    CmwDevice, CmwEvidence, NVIDIA_COLLECTION_TYPE, NVIDIA_ITEM_TYPE, PEM_CHAIN_MEDIA_TYPE,
    SPDM_TRANSCRIPT_MEDIA_TYPE,
};

/// The reserved collection label of the collection's type.
pub const COLLECTION_TYPE_LABEL: &str = "__cmwc_t";

/// The `ind` bit of evidence (`cm-type` value 2).
pub const IND_EVIDENCE: u64 = 1 << 2;

/// The `ind` bits the draft registers (reference values, endorsements, evidence, attestation
/// results, appraisal policy).
const IND_REGISTERED: u64 = 0b1_1111;

/// The smallest Tag CMW number, `TN(0)`.
pub const TN_MIN: u64 = 1_668_546_817;

/// The largest Content-Format a tag can carry (RFC 9277 App. B: `cf <= 65024`).
const CF_MAX_TAGGED: u64 = 65_024;

/// Budgets for one CMW.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CmwLimits {
    /// Largest serialised CMW, in bytes.
    pub max_bytes: usize,
    /// Deepest nesting of collections (the outermost is level 1).
    pub max_depth: usize,
    /// Most collection entries and records, counted together.
    pub max_items: usize,
}

impl CmwLimits {
    /// 2 MiB (an attest request body's limit), 4 levels (NVIDIA's profile uses 2), 512
    /// items (64 devices of NVIDIA's layout need 5 each plus the root's 3).
    pub const DEFAULT: Self = Self {
        max_bytes: 2 * 1024 * 1024,
        max_depth: 4,
        max_items: 512,
    };
}

impl Default for CmwLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The serialisation a CMW was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmwForm {
    /// `application/cmw+json`.
    Json,
    /// `application/cmw+cbor`.
    Cbor,
}

impl CmwForm {
    /// The form `bytes` start, by their first byte (after JSON whitespace for JSON), as the
    /// draft's demultiplexer; `None` when they start no CMW (an SPDM transcript, text).
    pub fn sniff(bytes: &[u8]) -> Option<Self> {
        match bytes.first()? {
            0x82 | 0x83 | 0x9f | 0xda | 0xa0..=0xbb | 0xbf => Some(Self::Cbor),
            _ => match bytes
                .iter()
                .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?
            {
                b'[' | b'{' => Some(Self::Json),
                _ => None,
            },
        }
    }
}

/// The form evidence came in, as reports name it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvidenceForm {
    /// The transcript itself (bytes or text in one of the evidence encodings).
    #[default]
    Plain,
    /// Inside a JSON CMW.
    JsonCmw,
    /// Inside a CBOR CMW.
    CborCmw,
}

impl EvidenceForm {
    /// `plain`, `json-cmw` or `cbor-cmw`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Plain => "plain",
            Self::JsonCmw => "json-cmw",
            Self::CborCmw => "cbor-cmw",
        }
    }

    /// The form [`Self::as_str`] names; `None` for any other text.
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::Plain, Self::JsonCmw, Self::CborCmw]
            .into_iter()
            .find(|form| form.as_str() == name)
    }
}

impl From<CmwForm> for EvidenceForm {
    fn from(form: CmwForm) -> Self {
        match form {
            CmwForm::Json => Self::JsonCmw,
            CmwForm::Cbor => Self::CborCmw,
        }
    }
}

/// A record's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MediaType {
    /// A media type (`application/eat+cwt; eat_profile="…"`), as written.
    Text(String),
    /// A CoAP Content-Format (CBOR records and tags only).
    ContentFormat(u16),
}

impl MediaType {
    /// Whether this is the media type `essence` (type/subtype, case-insensitive, parameters
    /// ignored).
    pub fn is(&self, essence: &str) -> bool {
        match self {
            Self::Text(text) => text
                .split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case(essence)),
            Self::ContentFormat(_) => false,
        }
    }
}

/// A collection label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// A text label (both forms).
    Text(String),
    /// An integer label (CBOR only).
    Int(i64),
}

impl Label {
    /// The text label, if it is one.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(text) => Some(text),
            Self::Int(_) => None,
        }
    }

    /// The label as a path segment.
    fn segment(&self) -> String {
        match self {
            Self::Text(text) => text.clone(),
            Self::Int(n) => alloc::format!("{n}"),
        }
    }
}

/// One conceptual message with its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// What `value` is.
    pub media_type: MediaType,
    /// The message.
    pub value: Vec<u8>,
    /// The conceptual message types, when given (never for a tag).
    pub ind: Option<u64>,
}

/// Labelled CMWs and the collection's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collection {
    /// `__cmwc_t`, when given.
    pub collection_type: Option<String>,
    /// The other entries, in document order.
    pub entries: Vec<(Label, Cmw)>,
}

/// A conceptual message wrapper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmw {
    /// A record, or a tag read as one.
    Record(Record),
    /// A collection.
    Collection(Collection),
}

impl Cmw {
    /// Reads a CMW in either serialisation ([`CmwForm::sniff`]) within `limits`.
    ///
    /// # Errors
    /// [`CmwError`]: over a budget, not JSON or CBOR, or not of the draft's shape.
    pub fn decode(bytes: &[u8], limits: CmwLimits) -> Result<(Self, CmwForm), CmwError> {
        if bytes.len() > limits.max_bytes {
            return Err(CmwError::TooLarge {
                size: bytes.len(),
                limit: limits.max_bytes,
            });
        }
        match CmwForm::sniff(bytes) {
            Some(CmwForm::Json) => json::decode(bytes, limits).map(|c| (c, CmwForm::Json)),
            Some(CmwForm::Cbor) => cbor::decode(bytes, limits).map(|c| (c, CmwForm::Cbor)),
            None => Err(CmwError::Syntax {
                detail: "the first byte starts no JSON or CBOR CMW".into(),
            }),
        }
    }
}

/// A record's `ind`: non-zero and only registered bits.
fn indicator(value: u64, path: &str) -> Result<u64, CmwError> {
    if value == 0 || value & !IND_REGISTERED != 0 {
        return Err(CmwError::Indicator {
            path: path.into(),
            value,
        });
    }
    Ok(value)
}

/// A media type as RFC 9110 §8.3.1 writes one: `type/subtype` of token characters, then
/// parameters (not parsed further; the profile compares the essence only).
fn media_type(text: &str, path: &str) -> Result<MediaType, CmwError> {
    let essence = text.split(';').next().unwrap_or_default().trim_end();
    let token = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
    };
    match essence.split_once('/') {
        Some((kind, subtype)) if token(kind) && token(subtype) => Ok(MediaType::Text(text.into())),
        _ => Err(CmwError::MediaType { path: path.into() }),
    }
}

/// A collection type: an absolute URI (a scheme, then `:`) or a dotted-decimal OID.
fn collection_type(text: &str, path: &str) -> Result<String, CmwError> {
    let oid = !text.is_empty()
        && text.split('.').count() >= 2
        && text.split('.').enumerate().all(|(i, arc)| {
            !arc.is_empty()
                && arc.bytes().all(|b| b.is_ascii_digit())
                && (arc == "0" || !arc.starts_with('0'))
                && (i > 0 || matches!(arc, "0" | "1" | "2"))
        });
    let uri = text.split_once(':').is_some_and(|(scheme, rest)| {
        !rest.is_empty()
            && scheme
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
            && !text
                .bytes()
                .any(|b| b.is_ascii_whitespace() || b.is_ascii_control())
    });
    if oid || uri {
        Ok(text.into())
    } else {
        Err(CmwError::CollectionType {
            path: path.into(),
            found: Some(text.into()),
        })
    }
}

/// The Content-Format a Tag CMW's number stands for (RFC 9277 App. B), if it is one.
fn content_format_of_tag(tag: u64) -> Option<u16> {
    let n = tag.checked_sub(TN_MIN)?;
    let (high, low) = (n / 256, n % 256);
    let cf = high.checked_mul(255)?.checked_add(low)?;
    // The low byte 255 is never produced (cf % 255 < 255).
    (low < 255 && cf <= CF_MAX_TAGGED)
        .then(|| u16::try_from(cf).ok())
        .flatten()
}

/// The Tag CMW number of Content-Format `cf` (RFC 9277 App. B), if it can be tagged.
pub fn tag_of_content_format(cf: u16) -> Option<u64> {
    let cf = u64::from(cf);
    (cf <= CF_MAX_TAGGED).then(|| TN_MIN + (cf / 255) * 256 + cf % 255)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_numbers_round_trip_over_every_content_format() {
        assert_eq!(tag_of_content_format(0), Some(TN_MIN));
        assert_eq!(tag_of_content_format(64_999), Some(1_668_612_070));
        assert_eq!(tag_of_content_format(65_024), Some(1_668_612_095));
        assert_eq!(tag_of_content_format(65_025), None);
        for cf in 0..=65_024u16 {
            let tn = tag_of_content_format(cf).unwrap();
            assert_eq!(content_format_of_tag(tn), Some(cf));
        }
        assert_eq!(content_format_of_tag(TN_MIN - 1), None);
        assert_eq!(content_format_of_tag(TN_MIN + 255), None);
        assert_eq!(content_format_of_tag(1_668_612_096), None);
    }

    #[test]
    fn collection_types_are_uris_or_oids() {
        for ok in [
            "tag:nvidia.com,2026:verifier-input/profiles/base/pre-1.0.0",
            "https://example.com/x",
            "1.2.840.10045",
            "2.5",
        ] {
            assert!(collection_type(ok, "$").is_ok(), "{ok}");
        }
        for bad in ["", "gpu", "3.1", "1.02", "1.", "x y:z", ":z", "tag:"] {
            assert!(collection_type(bad, "$").is_err(), "{bad}");
        }
    }

    #[test]
    fn media_types_need_type_and_subtype() {
        assert!(media_type("application/eat+cwt; eat_profile=\"x\"", "$").is_ok());
        for bad in [
            "",
            "application",
            "application/",
            "/x",
            "app lication/x",
            "a/b c",
        ] {
            assert!(media_type(bad, "$").is_err(), "{bad:?}");
        }
    }
}
