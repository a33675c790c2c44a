//! `edgeattest:verifier/rim`: a RIM verified by the core's [`RimOptions`] (the JS `verifyRim`)
//! with the software backend.

use alloc::vec::Vec;

use super::exports::edgeattest::verifier::rim::{Guest, RimOptions as WitOptions, VerifiedRim};
use super::{checked_now, coded, json, Verifier, WitError};
use crate::rim::RimOptions;

impl Guest for Verifier {
    fn verify_rim(xml: Vec<u8>, options: WitOptions) -> Result<VerifiedRim, WitError> {
        let now = checked_now(options.now)?;
        let read: RimOptions = RimOptions {
            trust_anchor_pem: options.trust_anchors,
            now: None,
        };
        let rim = read.verify(&xml, now).map_err(|e| coded(&e))?;
        Ok(VerifiedRim {
            trusted: rim.is_trusted(),
            colloquial_version: rim.document().meta.colloquial_version.clone(),
            document: json(&rim)?,
        })
    }
}
