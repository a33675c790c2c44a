//! [`replay`]: a bundle's verdict recomputed offline, beside the recorded one.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::bundle::{
    anchors_digest, field, Bundle, BUNDLE_FORMAT, MAX_BUNDLE_BYTES, MAX_BUNDLE_FETCHES,
    MAX_BUNDLE_RIMS, REPLAY_HEADER,
};
use super::compare::{compare, Difference, Verdict};
use super::error::ReplayError;
use crate::chain::TrustStore;
use crate::crypto::SigningKey;
use crate::host_answer::{FetchFailure, Fetched};
use crate::rim::RimTrust;
use crate::service::context::Service;
use crate::service::exchange::{ExchangeError, Step};
use crate::service::fetch::Resource;
use crate::service::keys::KeyRing;
use crate::time::UnixTime;

/// The trust anchors the replayer trusts (never the bundle's: it holds their digests only).
#[derive(Clone, Debug)]
pub struct ReplayAnchors {
    /// Device roots.
    pub device: TrustStore,
    /// RIM roots.
    pub rim: RimTrust,
}

impl ReplayAnchors {
    /// The anchors `service` trusts: a deployment replaying the bundles it answered.
    pub fn of(service: &Service) -> Self {
        Self {
            device: service.device_trust.clone(),
            rim: service.rim_trust.clone(),
        }
    }
}

/// A replayed verdict beside the recorded one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Replayed {
    /// No difference: every input has its recorded digest, the anchors are the recorded
    /// ones and the replayed claims are the recorded claims.
    pub matches: bool,
    /// The recorded verdict.
    pub recorded: Verdict,
    /// The replayed verdict.
    pub replayed: Verdict,
    /// Each difference, inputs first.
    pub differences: Vec<Difference>,
}

/// Replays the bundle `bundle` (its JSON) with `anchors`, the software backend and an
/// ephemeral key made from `key_random` (at least 48 fresh random bytes; its tokens are
/// read, never returned). No I/O: every fetched answer comes from the bundle.
///
/// # Errors
/// [`ReplayError`] when the bundle cannot be read or holds a value that does not decode;
/// [`ReplayError::Key`] for too little randomness.
pub fn replay(
    bundle: &[u8],
    anchors: &ReplayAnchors,
    key_random: &[u8],
) -> Result<Replayed, ReplayError> {
    let bundle = read(bundle)?;
    let mut differences = input_differences(&bundle, anchors);
    let key = SigningKey::generate(key_random).map_err(ReplayError::Key)?;

    let time = UnixTime::from_secs(bundle.time.value)
        .ok_or_else(|| field("time.value", "is not a time"))?;
    let entropy: [u8; 32] = hex::decode(&bundle.entropy.value)
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| field("entropy.value", "is not 32 bytes of hex"))?;
    let mut request = bundle.request.value.to_request()?;
    // The header selects the bundle; it takes no part in the verdict.
    request
        .headers
        .retain(|(name, _)| !name.eq_ignore_ascii_case(REPLAY_HEADER));
    let config = bundle.config.value.to_config()?;
    let mut answers = Vec::with_capacity(bundle.fetches.len());
    for (i, fetch) in bundle.fetches.iter().enumerate() {
        let at = alloc::format!("fetches[{i}].value.answer");
        answers.push((&fetch.value.resource, fetch.value.answer.to_fetched(&at)?));
    }

    let mut service = Service::new(
        config,
        KeyRing::new(key, Some(String::from("replay"))),
        anchors.device.clone(),
        anchors.rim.clone(),
        anchors.rim.store().map_or(0, TrustStore::len),
    );
    for (i, rim) in bundle.rims.iter().enumerate() {
        let at = alloc::format!("rims[{i}].value.xml");
        let xml = super::bundle::base64(&rim.value.xml, &at)?;
        service.rims_mut().insert(&rim.value.key, xml);
    }

    let mut exchange = service.begin(&request, time, entropy);
    let mut asked = 0;
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(_) => exchange.verify_in_core(&service).map_err(exchange_error)?,
            Step::Fetch(resources) => {
                let given: Vec<Fetched> = resources
                    .iter()
                    .map(|resource| {
                        let index = asked;
                        asked += 1;
                        answer(index, resource, &answers, &mut differences)
                    })
                    .collect();
                exchange.fetched(&service, &given).map_err(exchange_error)?;
            }
            // The service holds its key: the core signs itself.
            Step::Sign(_) => {
                return Err(exchange_error(ExchangeError::UnexpectedAnswer {
                    awaiting: "signatures",
                }))
            }
        }
    }
    if asked != answers.len() {
        differences.push(Difference::FetchCount {
            recorded: answers.len(),
            asked,
        });
    }
    let response = exchange.into_response().ok_or_else(|| {
        exchange_error(ExchangeError::UnexpectedAnswer {
            awaiting: "nothing",
        })
    })?;
    let replayed = Verdict::read(
        response.status,
        super::bundle::content_type(&response),
        &String::from_utf8_lossy(&response.body),
    );
    let result = &bundle.result.value;
    let recorded = Verdict::read(result.status, result.content_type.as_deref(), &result.body);
    compare(&recorded, &replayed, &mut differences);
    Ok(Replayed {
        matches: differences.is_empty(),
        recorded,
        replayed,
        differences,
    })
}

fn exchange_error(error: ExchangeError) -> ReplayError {
    ReplayError::Exchange {
        code: crate::error_code::ErrorCode::code(&error),
        message: alloc::format!("{error}"),
    }
}

/// The recorded answer `index`, for `resource`: a different resource is a difference (and is
/// still answered with the recorded answer, whose verdict then shows); none left, not fetched.
fn answer(
    index: usize,
    resource: &Resource,
    answers: &[(&super::bundle::ResourceRecord, Fetched)],
    differences: &mut Vec<Difference>,
) -> Fetched {
    let Some((recorded, answer)) = answers.get(index) else {
        return Fetched::Failed(FetchFailure::NotFetched);
    };
    let asked = super::bundle::ResourceRecord::of(resource);
    if asked != **recorded {
        differences.push(Difference::Fetch {
            index,
            recorded: recorded.describe(),
            asked: asked.describe(),
        });
    }
    answer.clone()
}

/// The bundle, strictly read and within its budgets.
fn read(bytes: &[u8]) -> Result<Bundle, ReplayError> {
    if bytes.len() > MAX_BUNDLE_BYTES {
        return Err(ReplayError::TooLarge {
            len: bytes.len(),
            max: MAX_BUNDLE_BYTES,
        });
    }
    let shape = |message: String| ReplayError::Shape { message };
    // Strict first: duplicate members and excessive nesting are refused, not resolved.
    crate::json::parse(bytes).map_err(|e| shape(alloc::format!("{e}")))?;
    let bundle: Bundle = serde_json::from_slice(bytes).map_err(|e| shape(alloc::format!("{e}")))?;
    if bundle.format != BUNDLE_FORMAT {
        return Err(ReplayError::Format {
            found: bundle.format,
            expected: BUNDLE_FORMAT,
        });
    }
    for (what, count, max) in [
        ("fetches", bundle.fetches.len(), MAX_BUNDLE_FETCHES),
        ("rims", bundle.rims.len(), MAX_BUNDLE_RIMS),
    ] {
        if count > max {
            return Err(ReplayError::Budget { what, count, max });
        }
    }
    Ok(bundle)
}

/// The inputs whose values lost their recorded digests, and anchors not the recorded ones.
fn input_differences(bundle: &Bundle, anchors: &ReplayAnchors) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut check = |input: String, recorded: &str, computed: String| {
        if recorded != computed {
            out.push(Difference::InputDigest {
                input,
                recorded: recorded.into(),
                computed,
            });
        }
    };
    check("time".into(), &bundle.time.digest, bundle.time.computed());
    check(
        "entropy".into(),
        &bundle.entropy.digest,
        bundle.entropy.computed(),
    );
    check(
        "request".into(),
        &bundle.request.digest,
        bundle.request.computed(),
    );
    check(
        "config".into(),
        &bundle.config.digest,
        bundle.config.computed(),
    );
    for (i, rim) in bundle.rims.iter().enumerate() {
        check(alloc::format!("rims[{i}]"), &rim.digest, rim.computed());
    }
    for (i, fetch) in bundle.fetches.iter().enumerate() {
        check(
            alloc::format!("fetches[{i}]"),
            &fetch.digest,
            fetch.computed(),
        );
    }
    check(
        "result".into(),
        &bundle.result.digest,
        bundle.result.computed(),
    );
    for (which, recorded, computed) in [
        (
            "device",
            &bundle.anchors.device,
            anchors_digest(Some(&anchors.device)),
        ),
        (
            "rim",
            &bundle.anchors.rim,
            anchors_digest(anchors.rim.store()),
        ),
    ] {
        if *recorded != computed {
            out.push(Difference::Anchors {
                which: which.into(),
                recorded: recorded.clone(),
                computed,
            });
        }
    }
    out
}
