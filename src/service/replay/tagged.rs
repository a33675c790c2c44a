//! The kind-tagged records of a bundle ([`ResourceRecord`], [`AnswerRecord`]) as read.

use alloc::string::String;

use serde::{Deserialize, Deserializer};

use super::bundle::{AnswerRecord, FailureRecord, ResourceRecord};

/// The members of a [`ResourceRecord`] or an [`AnswerRecord`] as read: one flat record
/// checked by kind (an internally tagged enum would buffer every member first, and cost the
/// wasm modules more code). A member of another kind is refused, as an unknown one is.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TaggedIn {
    kind: String,
    id: Option<String>,
    url: Option<String>,
    request: Option<String>,
    nonce: Option<String>,
    cache_key: Option<String>,
    body: Option<String>,
    failure: Option<FailureRecord>,
}

impl TaggedIn {
    /// The members given, by name, for the check that only `allowed` are.
    fn given(&self) -> [(&'static str, bool); 7] {
        [
            ("id", self.id.is_some()),
            ("url", self.url.is_some()),
            ("request", self.request.is_some()),
            ("nonce", self.nonce.is_some()),
            ("cacheKey", self.cache_key.is_some()),
            ("body", self.body.is_some()),
            ("failure", self.failure.is_some()),
        ]
    }

    /// Refuses a member not in `allowed`.
    fn only<E: serde::de::Error>(&self, allowed: &'static [&'static str]) -> Result<(), E> {
        match self
            .given()
            .iter()
            .find(|(name, given)| *given && !allowed.contains(name))
        {
            Some((name, _)) => Err(E::unknown_field(name, allowed)),
            None => Ok(()),
        }
    }
}

/// A required member of a kind.
fn required<T, E: serde::de::Error>(value: Option<T>, name: &'static str) -> Result<T, E> {
    value.ok_or_else(|| E::missing_field(name))
}

impl<'de> Deserialize<'de> for ResourceRecord {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let record = TaggedIn::deserialize(deserializer)?;
        match record.kind.as_str() {
            "rim" => {
                record.only(&["id", "url"])?;
                Ok(Self::Rim {
                    id: required(record.id, "id")?,
                    url: required(record.url, "url")?,
                })
            }
            "ocsp" => {
                record.only(&["url", "request", "nonce", "cacheKey"])?;
                Ok(Self::Ocsp {
                    url: required(record.url, "url")?,
                    request: required(record.request, "request")?,
                    nonce: required(record.nonce, "nonce")?,
                    cache_key: required(record.cache_key, "cacheKey")?,
                })
            }
            other => Err(serde::de::Error::unknown_variant(other, &["rim", "ocsp"])),
        }
    }
}

impl<'de> Deserialize<'de> for AnswerRecord {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let record = TaggedIn::deserialize(deserializer)?;
        match record.kind.as_str() {
            "body" => {
                record.only(&["body"])?;
                Ok(Self::Body {
                    body: required(record.body, "body")?,
                })
            }
            "cached" => {
                record.only(&["body", "nonce"])?;
                Ok(Self::Cached {
                    body: required(record.body, "body")?,
                    nonce: required(record.nonce, "nonce")?,
                })
            }
            "stale" => {
                record.only(&["body", "nonce"])?;
                Ok(Self::Stale {
                    body: required(record.body, "body")?,
                    nonce: record.nonce,
                })
            }
            "failed" => {
                record.only(&["failure"])?;
                Ok(Self::Failed {
                    failure: required(record.failure, "failure")?,
                })
            }
            other => Err(serde::de::Error::unknown_variant(
                other,
                &["body", "cached", "stale", "failed"],
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;

    use super::*;

    #[test]
    fn a_record_reads_by_its_kind_and_refuses_members_of_another() {
        let answer: AnswerRecord =
            serde_json::from_str(r#"{"kind":"stale","body":"AA=="}"#).unwrap();
        assert_eq!(
            answer,
            AnswerRecord::Stale {
                body: "AA==".into(),
                nonce: None
            }
        );
        for (text, says) in [
            (
                r#"{"kind":"body","body":"AA==","failure":"timeout"}"#,
                "unknown field `failure`",
            ),
            (
                r#"{"kind":"cached","body":"AA=="}"#,
                "missing field `nonce`",
            ),
            (
                r#"{"kind":"later","body":"AA=="}"#,
                "unknown variant `later`",
            ),
            (
                r#"{"kind":"body","body":"AA==","extra":1}"#,
                "unknown field `extra`",
            ),
        ] {
            let error = serde_json::from_str::<AnswerRecord>(text)
                .unwrap_err()
                .to_string();
            assert!(error.contains(says), "{text}: {error}");
        }
        let resource: ResourceRecord =
            serde_json::from_str(r#"{"kind":"rim","id":"NV_X","url":"https://r/NV_X"}"#).unwrap();
        let text = serde_json::to_string(&resource).unwrap();
        assert_eq!(
            serde_json::from_str::<ResourceRecord>(&text).unwrap(),
            resource
        );
        let error = serde_json::from_str::<ResourceRecord>(
            r#"{"kind":"rim","id":"NV_X","url":"https://r/NV_X","cacheKey":"k"}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("unknown field `cacheKey`"), "{error}");
    }
}
