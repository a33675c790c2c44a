//! NVIDIA's verifier-input profile of a CMW (attestation SDK 2.0, `collect-evidence-v2` /
//! `attest-v2`; `nv_attestation/cmw.h`), read into the inputs the crate verifies: per device
//! the SPDM transcript, the PEM chain, the nonce and the firmware-version hint.
//!
//! The profile, as NVIDIA's reader enforces it:
//! - the root is a collection of type [`NVIDIA_COLLECTION_TYPE`];
//! - optional root members `nonce` (`application/octet-stream`) and `appraisal-settings`
//!   (`application/json`; accepted and not used: our appraisal is configured by the caller);
//! - every other member is one device's evidence item, a collection of type [`NVIDIA_ITEM_TYPE`]
//!   with `evidence` ([`SPDM_TRANSCRIPT_MEDIA_TYPE`], required), and optional `certificate`
//!   ([`PEM_CHAIN_MEDIA_TYPE`]: base64url of the PEM text, leaf first), `nonce` and `hints`
//!   (`application/json`, an object whose `fwversion` names the firmware; untrusted, it only
//!   selects the reference measurements);
//! - records are two-element: NVIDIA refuses `ind`, and so do we;
//! - at least one item. Labels are free (`gpu_0`, `gpu_1`, …); devices keep document order.
//!
//! Besides the profile, a lone record of [`SPDM_TRANSCRIPT_MEDIA_TYPE`] is read as one device without
//! chain or nonce (the chain is then the caller's); its `ind`, if present, must include
//! evidence. Each nonce is 32 bytes (the SPDM request nonce); an item's must equal the
//! collection's. Comparing them with the request's is the caller's ([`CmwEvidence::check_nonce`]).
//!
//! The profile binds nothing: each transcript is signed by its device, the collection is
//! not (draft §10.3 asks composite-device collections to be bound). Every device is verified
//! on its own, against the caller's nonce.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use super::walk::child;
use super::{Cmw, CmwError, CmwForm, CmwLimits, Collection, Label, Record, IND_EVIDENCE};

/// The root collection type of NVIDIA's verifier input.
pub const NVIDIA_COLLECTION_TYPE: &str =
    "tag:nvidia.com,2026:verifier-input/profiles/base/pre-1.0.0";
/// The type of one device's evidence item.
pub const NVIDIA_ITEM_TYPE: &str = "tag:nvidia.com,2026:evidence-item/v1";
/// An SPDM GET_MEASUREMENTS request followed by the response (the NRAS evidence bytes).
pub const SPDM_TRANSCRIPT_MEDIA_TYPE: &str = "application/vnd.nvidia.spdm-measurement-transcript";
/// A PEM certificate chain, leaf first.
pub const PEM_CHAIN_MEDIA_TYPE: &str = "application/vnd.nvidia.pem-cert-chain";
/// A nonce's media type.
const OCTET_STREAM: &str = "application/octet-stream";
/// The hints' and appraisal settings' media type.
const JSON: &str = "application/json";
/// The SPDM request nonce's length.
const NONCE_LEN: usize = 32;

/// One device of a CMW.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CmwDevice {
    /// Its label in the collection (`gpu_0`); `$` for a lone record.
    pub label: String,
    /// The SPDM transcript.
    pub evidence: Vec<u8>,
    /// The PEM chain, leaf first, when the item carries one.
    pub certificate_pem: Option<String>,
    /// `hints.fwversion`, when given.
    pub firmware_version: Option<String>,
}

/// The devices of a CMW in NVIDIA's profile, with the nonce they claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CmwEvidence {
    /// The serialisation it was read from.
    pub form: CmwForm,
    /// The collection's nonce (the root's, else the items'), when given.
    pub nonce: Option<[u8; NONCE_LEN]>,
    /// Where `nonce` was read (`nonce`, `gpu_0.nonce`).
    pub nonce_path: String,
    /// The devices, in document order.
    pub devices: Vec<CmwDevice>,
}

impl CmwEvidence {
    /// Reads `bytes` (JSON or CBOR) as NVIDIA's verifier input, or as a lone transcript
    /// record.
    ///
    /// # Errors
    /// [`CmwError`]: the wrapper's own errors, then the profile's.
    pub fn decode(bytes: &[u8], limits: CmwLimits) -> Result<Self, CmwError> {
        let (cmw, form) = Cmw::decode(bytes, limits)?;
        let mut out = Self {
            form,
            nonce: None,
            nonce_path: String::new(),
            devices: Vec::new(),
        };
        match cmw {
            Cmw::Record(record) => {
                if let Some(ind) = record.ind.filter(|ind| ind & IND_EVIDENCE == 0) {
                    return Err(CmwError::Indicator {
                        path: "$".into(),
                        value: ind,
                    });
                }
                out.devices.push(CmwDevice {
                    label: "$".into(),
                    evidence: typed(record, SPDM_TRANSCRIPT_MEDIA_TYPE, "$")?,
                    certificate_pem: None,
                    firmware_version: None,
                });
            }
            Cmw::Collection(root) => out.root(root)?,
        }
        Ok(out)
    }

    /// Checks the CMW's nonce, when it has one, against the request's.
    ///
    /// # Errors
    /// [`CmwError::NonceMismatch`] naming where the CMW's nonce was read.
    pub fn check_nonce(&self, request: &[u8; NONCE_LEN]) -> Result<(), CmwError> {
        match &self.nonce {
            Some(nonce) if nonce != request => Err(CmwError::NonceMismatch {
                path: self.nonce_path.clone(),
            }),
            _ => Ok(()),
        }
    }

    fn root(&mut self, root: Collection) -> Result<(), CmwError> {
        require_type(&root, NVIDIA_COLLECTION_TYPE, "$")?;
        // The collection's nonce first, wherever it is written: the items' are compared
        // with it.
        let (roots, items): (Vec<_>, Vec<_>) = root
            .entries
            .into_iter()
            .partition(|(label, _)| label.as_text() == Some("nonce"));
        for (label, entry) in roots.into_iter().chain(items) {
            let path = child("$", &label);
            match label.as_text() {
                Some("nonce") => {
                    let nonce = nonce(record(entry, &path)?, &path)?;
                    self.nonce(nonce, path)?;
                }
                Some("appraisal-settings") => {
                    typed(record(entry, &path)?, JSON, &path)?;
                }
                _ => self.item(entry, &label, path)?,
            }
        }
        if self.devices.is_empty() {
            return Err(CmwError::Profile {
                path: "$".into(),
                problem: "the collection holds no evidence item",
            });
        }
        Ok(())
    }

    fn item(&mut self, entry: Cmw, label: &Label, path: String) -> Result<(), CmwError> {
        let Cmw::Collection(item) = entry else {
            return Err(CmwError::Profile {
                path,
                problem: "an evidence item must be a collection of type \
                          tag:nvidia.com,2026:evidence-item/v1",
            });
        };
        require_type(&item, NVIDIA_ITEM_TYPE, &path)?;
        let mut device = CmwDevice {
            label: label.as_text().map_or_else(|| path.clone(), String::from),
            evidence: Vec::new(),
            certificate_pem: None,
            firmware_version: None,
        };
        let mut has_evidence = false;
        for (label, entry) in item.entries {
            let member = child(&path, &label);
            let record = record(entry, &member)?;
            match label.as_text() {
                Some("evidence") => {
                    device.evidence = typed(record, SPDM_TRANSCRIPT_MEDIA_TYPE, &member)?;
                    has_evidence = true;
                }
                Some("certificate") => {
                    let pem = typed(record, PEM_CHAIN_MEDIA_TYPE, &member)?;
                    device.certificate_pem =
                        Some(String::from_utf8(pem).map_err(|_| CmwError::Profile {
                            path: member,
                            problem: "the certificate chain is not UTF-8 PEM text",
                        })?);
                }
                Some("nonce") => {
                    let nonce = nonce(record, &member)?;
                    self.nonce(nonce, member)?;
                }
                Some("hints") => {
                    device.firmware_version = hints(&typed(record, JSON, &member)?, &member)?;
                }
                _ => {
                    return Err(CmwError::Profile {
                        path: member,
                        problem: "not a member of an evidence item (evidence, certificate, \
                                  nonce, hints)",
                    })
                }
            }
        }
        if !has_evidence {
            return Err(CmwError::Profile {
                path: child(&path, &Label::Text("evidence".into())),
                problem: "an evidence item needs its evidence",
            });
        }
        self.devices.push(device);
        Ok(())
    }

    /// Records a nonce; every nonce of the CMW must be the same.
    fn nonce(&mut self, nonce: [u8; NONCE_LEN], path: String) -> Result<(), CmwError> {
        match self.nonce {
            Some(first) if first != nonce => Err(CmwError::Nonce {
                path,
                problem: "this nonce differs from the collection's",
            }),
            Some(_) => Ok(()),
            None => {
                self.nonce = Some(nonce);
                self.nonce_path = path;
                Ok(())
            }
        }
    }
}

/// The collection's type must be `expected`.
fn require_type(collection: &Collection, expected: &str, path: &str) -> Result<(), CmwError> {
    match &collection.collection_type {
        Some(found) if found == expected => Ok(()),
        found => Err(CmwError::CollectionType {
            path: path.into(),
            found: found.clone(),
        }),
    }
}

/// The entry as a two-element record (the profile refuses `ind`).
fn record(entry: Cmw, path: &str) -> Result<Record, CmwError> {
    match entry {
        Cmw::Record(record) => match record.ind {
            Some(value) => Err(CmwError::Indicator {
                path: path.into(),
                value,
            }),
            None => Ok(record),
        },
        Cmw::Collection(_) => Err(CmwError::Profile {
            path: path.into(),
            problem: "must be a record, not a collection",
        }),
    }
}

/// The record's value, when its type is `essence`.
fn typed(record: Record, essence: &str, path: &str) -> Result<Vec<u8>, CmwError> {
    if !record.media_type.is(essence) {
        return Err(CmwError::Profile {
            path: path.into(),
            problem: "record of another media type than the profile's for this member",
        });
    }
    Ok(record.value)
}

fn nonce(record: Record, path: &str) -> Result<[u8; NONCE_LEN], CmwError> {
    <[u8; NONCE_LEN]>::try_from(typed(record, OCTET_STREAM, path)?.as_slice()).map_err(|_| {
        CmwError::Nonce {
            path: path.into(),
            problem: "a nonce must be 32 bytes (the SPDM request nonce)",
        }
    })
}

/// `hints`: a JSON object (duplicate members refused); its `fwversion`, when present, a
/// string. Other members are NVIDIA's to define and are ignored.
fn hints(bytes: &[u8], path: &str) -> Result<Option<String>, CmwError> {
    let refuse = || CmwError::Hints { path: path.into() };
    let Ok(Value::Object(members)) = crate::json::parse(bytes) else {
        return Err(refuse());
    };
    match members.get("fwversion") {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(refuse()),
    }
}
