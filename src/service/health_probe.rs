//! Whether the service can reach its sources (the RIM service, the OCSP responder), said at
//! once: the sources a host probes when the service starts (and again at a bounded
//! interval), and `/health`'s reading of what the host saw — `network` and, in words, the
//! cause and the remedy.
//!
//! The host probes, the core decides: a probe is one cheap request per configured source
//! (`HEAD` of its URL, a short timeout) whose outcome the host records like any fetch's
//! ([`super::Service::set_source_state`]); whether that makes the service online, offline or
//! partly offline, and what the user should do about it, is decided here alone.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Serialize, Serializer};

use super::config::ServiceConfig;
use super::fetch::{NVIDIA_OCSP_URL, NVIDIA_RIM_SERVICE_URL};
use super::remedy;
use super::source::{Source, SourceState};

/// A probe's time budget, request to answer: short, as it only asks whether the source
/// answers at all, and a start must not wait long for it.
pub const PROBE_TIMEOUT_MS: u64 = 3_000;

/// The least time between two probes: a host probes again, when a request comes, once the
/// last probe is older (attestations' own fetches keep the state fresh in between).
pub const PROBE_INTERVAL_SECONDS: u64 = 300;

/// One source a host should probe: its kind and the URL to ask (`HEAD`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(as = "ProbeTargetOut<'static>"))]
pub struct ProbeTarget {
    /// Which source.
    pub source: Source,
    /// Its configured URL.
    pub url: String,
}

/// The JS `ProbeTarget`: `{kind: 'rim' | 'ocsp', url}`, `kind` as `setSourceState` takes it.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
struct ProbeTargetOut<'a> {
    #[cfg_attr(feature = "ts", ts(type = "'rim' | 'ocsp'"))]
    kind: &'static str,
    url: &'a str,
}

impl Serialize for ProbeTarget {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let kind = match self.source {
            Source::RimService => "rim",
            Source::Ocsp => "ocsp",
        };
        ProbeTargetOut {
            kind,
            url: &self.url,
        }
        .serialize(serializer)
    }
}

/// The sources to probe: each one configured (a source that is off is not asked).
pub fn probe_targets(config: &ServiceConfig) -> Vec<ProbeTarget> {
    [
        (Source::RimService, &config.rim_service_url),
        (Source::Ocsp, &config.ocsp_url),
    ]
    .into_iter()
    .filter_map(|(source, url)| {
        url.as_ref().map(|url| ProbeTarget {
            source,
            url: url.clone(),
        })
    })
    .collect()
}

/// Whether the configured sources answer: `/health`'s `network`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Network {
    /// Every configured source answered when last asked.
    Online,
    /// Some configured sources answered, others did not.
    PartlyOffline,
    /// No configured source answered.
    Offline,
    /// Every source is off (`off`): only the RIMs held are used, revocation is not checked.
    AirGapped,
    /// A configured source has not been asked yet (the probe is under way).
    Unknown,
}

/// A source as `/health` sees it: its URL (`None`: off) and what the host last saw.
pub(crate) type SourceSetting = (Option<String>, SourceState);

/// `network` and its sentence: for each source, whether it answers, and for one that does
/// not, what fails because of it and what to do.
pub(crate) fn network(rim: &SourceSetting, ocsp: &SourceSetting) -> (Network, String) {
    let configured = [rim, ocsp].into_iter().filter(|s| s.0.is_some());
    let (mut down, mut unknown, mut total) = (0, 0, 0);
    for (_, state) in configured {
        total += 1;
        match state.reachable {
            Some(false) => down += 1,
            None => unknown += 1,
            Some(true) => {}
        }
    }
    let status = if total == 0 {
        Network::AirGapped
    } else if down == total {
        Network::Offline
    } else if down > 0 {
        Network::PartlyOffline
    } else if unknown > 0 {
        Network::Unknown
    } else {
        Network::Online
    };
    let parts = [
        describe(Source::RimService, rim),
        describe(Source::Ocsp, ocsp),
    ];
    (status, parts.join(" "))
}

/// One source in words: off, not asked yet, answering, or unreachable with its remedy.
fn describe(source: Source, (url, state): &SourceSetting) -> String {
    let Some(url) = url else {
        return String::from(match source {
            Source::RimService => remedy::RIM_SERVICE_OFF,
            Source::Ocsp => remedy::OCSP_OFF,
        });
    };
    let name = source_name(source, url);
    match state.reachable {
        None => format!("{name} {url} has not been asked yet."),
        Some(true) => format!("{name} {url} answers."),
        Some(false) => {
            let why = cause_in_words(state.last_error.as_deref());
            let remedy = match source {
                Source::RimService => remedy::RIM_SERVICE_UNREACHABLE,
                Source::Ocsp => remedy::OCSP_SOURCE_UNREACHABLE,
            };
            format!("{name} {url} is unreachable ({why}): {remedy}")
        }
    }
}

/// A host's `lastError` in words: its fetch's failures (`unreachable`, `timeout`) said as
/// what they mean, anything else (`HTTP 503`, `too-large`) as it came.
fn cause_in_words(last_error: Option<&str>) -> &str {
    match last_error {
        None => "no answer",
        Some("unreachable") => "no connection: its name did not resolve or it refused",
        Some("timeout") => "no answer in time",
        Some(other) => other,
    }
}

/// "NVIDIA's RIM service" at NVIDIA's URL, "The RIM service" at another.
fn source_name(source: Source, url: &str) -> &'static str {
    match source {
        Source::RimService if url == NVIDIA_RIM_SERVICE_URL => "NVIDIA's RIM service",
        Source::RimService => "The RIM service",
        Source::Ocsp if url == NVIDIA_OCSP_URL => "NVIDIA's OCSP responder",
        Source::Ocsp => "The OCSP responder",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(reachable: Option<bool>, last_error: Option<&str>) -> SourceState {
        SourceState {
            reachable,
            last_error: last_error.map(String::from),
            cached_entries: 0,
            kept_seconds: None,
        }
    }

    fn nvidia_rim(state: SourceState) -> SourceSetting {
        (Some(String::from(NVIDIA_RIM_SERVICE_URL)), state)
    }

    fn nvidia_ocsp(state: SourceState) -> SourceSetting {
        (Some(String::from(NVIDIA_OCSP_URL)), state)
    }

    fn off() -> SourceSetting {
        (None, SourceState::default())
    }

    #[test]
    fn targets_are_the_configured_sources() {
        let all = probe_targets(&ServiceConfig::default());
        assert_eq!(
            all,
            [
                ProbeTarget {
                    source: Source::RimService,
                    url: NVIDIA_RIM_SERVICE_URL.into()
                },
                ProbeTarget {
                    source: Source::Ocsp,
                    url: NVIDIA_OCSP_URL.into()
                },
            ]
        );
        assert_eq!(
            serde_json::to_value(&all[0]).unwrap(),
            serde_json::json!({"kind": "rim", "url": NVIDIA_RIM_SERVICE_URL})
        );
        let ocsp_off = ServiceConfig {
            ocsp_url: None,
            ..ServiceConfig::default()
        };
        assert_eq!(probe_targets(&ocsp_off).len(), 1);
        let air_gapped = ServiceConfig {
            rim_service_url: None,
            ..ocsp_off
        };
        assert!(probe_targets(&air_gapped).is_empty());
    }

    #[test]
    fn offline_names_each_cause_and_remedy() {
        let (status, text) = network(
            &nvidia_rim(seen(Some(false), Some("unreachable"))),
            &nvidia_ocsp(seen(Some(false), Some("timeout"))),
        );
        assert_eq!(status, Network::Offline);
        assert!(text.contains(
            "NVIDIA's RIM service https://rim.attestation.nvidia.com/v1/rim/ is unreachable \
             (no connection: its name did not resolve or it refused)"
        ));
        assert!(text.contains(
            "NVIDIA's OCSP responder https://ocsp.ndis.nvidia.com/ is unreachable (no answer in \
             time)"
        ));
        // The remedies: go online, or the air-gapped settings.
        assert!(text.contains("EDGEATTEST_RIM_SERVICE_URL=off"), "{text}");
        assert!(text.contains("EDGEATTEST_OCSP_URL=off"), "{text}");
        assert!(text.contains("5008") && text.contains("5001"), "{text}");
    }

    #[test]
    fn partly_offline_unknown_online_air_gapped() {
        let up = || seen(Some(true), None);
        let (status, text) = network(
            &nvidia_rim(up()),
            &(
                Some("http://127.0.0.1:9/".into()),
                seen(Some(false), Some("HTTP 503")),
            ),
        );
        assert_eq!(status, Network::PartlyOffline);
        assert!(text.starts_with(
            "NVIDIA's RIM service https://rim.attestation.nvidia.com/v1/rim/ answers."
        ));
        assert!(text.contains("The OCSP responder http://127.0.0.1:9/ is unreachable (HTTP 503)"));

        // Not asked yet: unknown, never online.
        let (status, text) = network(&nvidia_rim(up()), &nvidia_ocsp(SourceState::default()));
        assert_eq!(status, Network::Unknown);
        assert!(text.contains("has not been asked yet"), "{text}");
        // A source down outweighs one not asked yet.
        let (status, _) = network(
            &nvidia_rim(seen(Some(false), None)),
            &nvidia_ocsp(SourceState::default()),
        );
        assert_eq!(status, Network::PartlyOffline);

        let (status, _) = network(&nvidia_rim(up()), &nvidia_ocsp(up()));
        assert_eq!(status, Network::Online);
        // A source off is not asked: the other one decides.
        let (status, text) = network(&off(), &nvidia_ocsp(up()));
        assert_eq!(status, Network::Online);
        assert!(text.starts_with(remedy::RIM_SERVICE_OFF), "{text}");
        let (status, _) = network(&off(), &nvidia_ocsp(seen(Some(false), None)));
        assert_eq!(status, Network::Offline);

        let (status, text) = network(&off(), &off());
        assert_eq!(status, Network::AirGapped);
        assert!(text.contains("revocation is not checked"), "{text}");
        assert_eq!(
            serde_json::to_value(Network::PartlyOffline).unwrap(),
            "PARTLY_OFFLINE"
        );
    }
}
