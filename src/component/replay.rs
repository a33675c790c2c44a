//! `edgeattest:verifier/replay`: a replay bundle's verdict recomputed offline
//! ([`crate::service::replay::replay`]), the JS `replayAttestation`.

use alloc::string::String;
use alloc::vec::Vec;

use super::exports::edgeattest::verifier::replay::{
    Guest, ReplayDifference, ReplayOptions as WitOptions, ReplayVerdict, Replayed as WitReplayed,
    TokenClaims as WitClaims,
};
use super::{coded, json, Verifier, WitError};
use crate::service::replay::{replay, ReplayOptions, Verdict};

impl Guest for Verifier {
    fn replay_attestation(
        bundle: Vec<u8>,
        options: WitOptions,
        key_random: Vec<u8>,
    ) -> Result<WitReplayed, WitError> {
        let options = ReplayOptions {
            device_roots: options.device_roots,
            rim_roots: options.rim_roots,
        };
        let anchors = options.anchors().map_err(|e| coded(&e))?;
        let replayed = replay(&bundle, &anchors, &key_random).map_err(|e| coded(&e))?;
        Ok(WitReplayed {
            matches: replayed.matches,
            recorded: verdict(&replayed.recorded)?,
            replayed: verdict(&replayed.replayed)?,
            differences: replayed
                .differences
                .iter()
                .map(|difference| {
                    let detail = json(difference)?;
                    Ok(ReplayDifference {
                        kind: kebab(&kind_of(&detail)),
                        message: alloc::format!("{difference}"),
                        detail,
                    })
                })
                .collect::<Result<_, WitError>>()?,
        })
    }
}

fn verdict(verdict: &Verdict) -> Result<ReplayVerdict, WitError> {
    Ok(ReplayVerdict {
        status: verdict.status,
        tokens: verdict
            .tokens
            .iter()
            .map(|token| {
                Ok(WitClaims {
                    label: token.label.clone(),
                    claims: json(&token.claims)?,
                })
            })
            .collect::<Result<_, WitError>>()?,
        body: verdict.body.as_ref().map(json).transpose()?,
    })
}

/// The `kind` member of a difference's JSON.
fn kind_of(detail: &str) -> String {
    serde_json::from_str::<serde_json::Value>(detail)
        .ok()
        .and_then(|value| value.get("kind")?.as_str().map(String::from))
        .unwrap_or_default()
}

/// `inputDigest` → `input-digest`.
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
