//! The verdict of a response as claims, and the comparison of two verdicts: what differs and
//! where, claim by claim.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::Serialize;
use serde_json::{Map, Value};

/// Claims that differ on every run by design: the token id and the times (the time is an
/// input, compared by its digest).
const VOLATILE_CLAIMS: [&str; 4] = ["jti", "iat", "nbf", "exp"];

/// A response read as claims.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReplayVerdict"))]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// The status.
    pub status: u16,
    /// The tokens' claims, in the response's order: `overall` then `GPU-0`, … (NVIDIA's
    /// JSON), `eat` (V1), or `ear` (an EAR). Empty for a response without tokens.
    pub tokens: Vec<TokenClaims>,
    /// A response without tokens: its body, as JSON when it is JSON, else as text.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub body: Option<Value>,
}

/// One token's claims.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReplayTokenClaims"))]
#[serde(rename_all = "camelCase")]
pub struct TokenClaims {
    /// `overall`, the device label (`GPU-0`), `eat` or `ear`.
    pub label: String,
    /// The claims, in the token's order.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub claims: Map<String, Value>,
}

impl Verdict {
    /// Reads a response: `content_type` and `body` as sent.
    pub(crate) fn read(status: u16, content_type: Option<&str>, body: &str) -> Self {
        // An EAR JWT of either dialect (a CWT EAR's body is binary: kept as the body).
        let is_ear = content_type.is_some_and(|t| t.starts_with("application/eat+jwt"));
        let tokens = if is_ear {
            claims_of(body).map(|claims| Vec::from([token("ear", claims)]))
        } else {
            serde_json::from_str::<Value>(body)
                .ok()
                .and_then(|json| nras_tokens(&json))
        };
        match tokens {
            Some(tokens) if status == 200 => Self {
                status,
                tokens,
                body: None,
            },
            _ => Self {
                status,
                tokens: Vec::new(),
                body: Some(
                    serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.into())),
                ),
            },
        }
    }
}

fn token(label: &str, claims: Map<String, Value>) -> TokenClaims {
    TokenClaims {
        label: label.into(),
        claims,
    }
}

/// `[["JWT", overall], {label: token, …}]` or `{"eat": token}`.
fn nras_tokens(json: &Value) -> Option<Vec<TokenClaims>> {
    if let Some(eat) = json.as_object().and_then(|o| o.get("eat")) {
        return Some(Vec::from([token("eat", claims_of(eat.as_str()?)?)]));
    }
    let [overall, devices] = json.as_array()?.as_slice() else {
        return None;
    };
    let overall = overall.as_array()?.get(1)?.as_str()?;
    let mut tokens = Vec::from([token("overall", claims_of(overall)?)]);
    for (label, jwt) in devices.as_object()? {
        tokens.push(token(label, claims_of(jwt.as_str()?)?));
    }
    Some(tokens)
}

/// The payload of a compact JWS.
fn claims_of(jws: &str) -> Option<Map<String, Value>> {
    let payload = URL_SAFE_NO_PAD.decode(jws.split('.').nth(1)?).ok()?;
    serde_json::from_slice(&payload).ok()
}

/// One way the replayed verdict, or the bundle, differs from the recorded one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReplayDifference"))]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum Difference {
    /// An input whose value no longer has its recorded digest: altered after recording.
    #[serde(rename_all = "camelCase")]
    InputDigest {
        /// `time`, `entropy`, `request`, `config`, `rims[i]`, `fetches[i]`, `result`.
        input: String,
        /// The recorded digest.
        recorded: String,
        /// The digest of the value in the bundle.
        computed: String,
    },
    /// The replayer's trust anchors are not the recorded ones.
    #[serde(rename_all = "camelCase")]
    Anchors {
        /// `device` or `rim`.
        which: String,
        /// The recorded digest.
        recorded: String,
        /// The digest of the replayer's anchors.
        computed: String,
    },
    /// The replay asked for another resource than the recorded answer answered.
    #[serde(rename_all = "camelCase")]
    Fetch {
        /// The answer's position in `fetches`.
        index: usize,
        /// What the recorded answer answered.
        recorded: String,
        /// What the replay asked for.
        asked: String,
    },
    /// The replay asked for more or fewer resources than were answered.
    #[serde(rename_all = "camelCase")]
    FetchCount {
        /// Answers recorded.
        recorded: usize,
        /// Resources the replay asked for.
        asked: usize,
    },
    /// Another status.
    #[serde(rename_all = "camelCase")]
    Status {
        /// The recorded status.
        recorded: u16,
        /// The replayed status.
        replayed: u16,
    },
    /// Other tokens (labels, in order).
    #[serde(rename_all = "camelCase")]
    Tokens {
        /// The recorded labels.
        recorded: Vec<String>,
        /// The replayed labels.
        replayed: Vec<String>,
    },
    /// A claim of a token differs, or is only in one of them.
    #[serde(rename_all = "camelCase")]
    Claim {
        /// The token's label.
        token: String,
        /// The claim.
        claim: String,
        /// Its JSON in the recorded token (`None`: absent).
        recorded: Option<String>,
        /// Its JSON in the replayed token (`None`: absent).
        replayed: Option<String>,
    },
    /// The same claims in another order.
    #[serde(rename_all = "camelCase")]
    ClaimOrder {
        /// The token's label.
        token: String,
    },
    /// A response without tokens differs.
    #[serde(rename_all = "camelCase")]
    Body {
        /// The recorded body.
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        recorded: Option<Value>,
        /// The replayed body.
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        replayed: Option<Value>,
    },
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InputDigest { input, .. } => {
                write!(f, "input {input} does not match its recorded digest")
            }
            Self::Anchors { which, .. } => write!(
                f,
                "the {which} trust anchors are not the ones the verdict was made with"
            ),
            Self::Fetch {
                index,
                recorded,
                asked,
            } => write!(
                f,
                "fetch {index}: the replay asked for {asked}; the recorded answer is for {recorded}"
            ),
            Self::FetchCount { recorded, asked } => write!(
                f,
                "the replay asked for {asked} resources; {recorded} answers were recorded"
            ),
            Self::Status { recorded, replayed } => {
                write!(f, "status {replayed}, recorded {recorded}")
            }
            Self::Tokens { recorded, replayed } => {
                write!(f, "tokens {replayed:?}, recorded {recorded:?}")
            }
            Self::Claim {
                token,
                claim,
                recorded,
                replayed,
            } => write!(
                f,
                "{token}: claim {claim} is {}, recorded {}",
                replayed.as_deref().unwrap_or("absent"),
                recorded.as_deref().unwrap_or("absent")
            ),
            Self::ClaimOrder { token } => write!(f, "{token}: the claims are in another order"),
            Self::Body { .. } => f.write_str("the response body differs"),
        }
    }
}

/// The differences of `replayed` from `recorded`.
pub(crate) fn compare(recorded: &Verdict, replayed: &Verdict, out: &mut Vec<Difference>) {
    if recorded.status != replayed.status {
        out.push(Difference::Status {
            recorded: recorded.status,
            replayed: replayed.status,
        });
    }
    if recorded.body != replayed.body {
        out.push(Difference::Body {
            recorded: recorded.body.clone(),
            replayed: replayed.body.clone(),
        });
    }
    let labels =
        |v: &Verdict| -> Vec<String> { v.tokens.iter().map(|t| t.label.clone()).collect() };
    if labels(recorded) != labels(replayed) {
        out.push(Difference::Tokens {
            recorded: labels(recorded),
            replayed: labels(replayed),
        });
    }
    for theirs in &recorded.tokens {
        if let Some(ours) = replayed.tokens.iter().find(|t| t.label == theirs.label) {
            compare_claims(&theirs.label, &theirs.claims, &ours.claims, out);
        }
    }
}

fn compare_claims(
    token: &str,
    recorded: &Map<String, Value>,
    replayed: &Map<String, Value>,
    out: &mut Vec<Difference>,
) {
    let compared = |claims: &Map<String, Value>| -> Vec<(String, String)> {
        claims
            .iter()
            .filter(|(name, _)| !VOLATILE_CLAIMS.contains(&name.as_str()))
            .map(|(name, value)| (name.clone(), claim_text(name, value)))
            .collect()
    };
    let (theirs, ours) = (compared(recorded), compared(replayed));
    let find = |list: &[(String, String)], name: &str| {
        list.iter()
            .find(|(n, _)| n == name)
            .map(|(_, text)| text.clone())
    };
    let mut names: Vec<&String> = theirs.iter().map(|(n, _)| n).collect();
    for (name, _) in &ours {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let before = out.len();
    for name in names {
        let (was, now) = (find(&theirs, name), find(&ours, name));
        if was != now {
            out.push(Difference::Claim {
                token: token.into(),
                claim: name.clone(),
                recorded: was,
                replayed: now,
            });
        }
    }
    if out.len() == before && theirs != ours {
        out.push(Difference::ClaimOrder {
            token: token.into(),
        });
    }
}

/// A claim's compact JSON; in the overall token's `submods`, the device tokens' digests
/// (`["DIGEST", ["SHA-256", hex]]`) are replaced by their algorithm: they cover signatures,
/// and the device tokens' claims are compared instead.
fn claim_text(name: &str, value: &Value) -> String {
    if name == "submods" {
        if let Some(members) = value.as_object() {
            let mut without = Map::new();
            for (label, member) in members {
                let digest = member
                    .as_array()
                    .filter(|a| a.first().and_then(Value::as_str) == Some("DIGEST"))
                    .and_then(|a| a.get(1))
                    .and_then(Value::as_array)
                    .and_then(|pair| pair.first().cloned());
                without.insert(label.clone(), digest.unwrap_or_else(|| member.clone()));
            }
            return Value::Object(without).to_string();
        }
    }
    value.to_string()
}
