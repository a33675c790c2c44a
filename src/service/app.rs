//! How a [`Service`] answers: the ten endpoints of the attestation service behind one
//! `handle` call, or an [`Exchange`] begun for a host that runs the checks itself.

use alloc::string::String;
use alloc::vec::Vec;

use super::config::ServiceConfig;
use super::context::Service;
use super::device::rim_ids;
use super::exchange::{Exchange, Step};
use super::health::{Health, HealthInputs, KeyLocation, SourceHealth};
use super::http::{Request, Response};
use super::negotiate::result_kind;
use super::router::{decorate, finish_attest_response, route, strip_body_for_head, Route};
use crate::attest::{validate_request, ClaimsVersion, ValidatedRequest};
use crate::chain::CertCache;
use crate::error_code::ErrorBody;
use crate::evidence::{OpaqueFormat, Transcript};
use crate::time::UnixTime;

impl Service {
    /// The RIM ids an attest request needs that the store lacks, read from its transcripts
    /// before any verification — so a forged transcript names what it likes: a host that
    /// fetches should rather answer the exchange's [`super::Step::Fetch`], which names only
    /// the ids of verified devices. Empty for anything that is not a valid attest request.
    pub fn missing_rims(&self, request: &Request) -> Vec<String> {
        let Ok(Route::Attest(endpoint)) = route(request) else {
            return Vec::new();
        };
        let Ok(validated) = validate_request(endpoint, &request.body) else {
            return Vec::new();
        };
        let mut missing = Vec::new();
        for device in validated.devices() {
            let Ok(transcript) = Transcript::parse(device.evidence()) else {
                continue;
            };
            let hint = device.firmware_version().map(|v| String::from(v.as_str()));
            let (driver, firmware) = rim_ids(&transcript, validated.arch(), hint);
            for id in driver.into_iter().chain(firmware) {
                if !self.rims.contains(&id) && !missing.contains(&id) {
                    missing.push(id);
                }
            }
        }
        missing
    }

    /// Answers one request with the software backend: every ECDSA check and signature runs
    /// in the core. `now` is Unix seconds; `entropy` is 32 fresh random bytes from the host
    /// (token ids). A service whose key is [`super::KeyRing::external`] cannot sign here: it
    /// answers 500 `ERR_SIGNING_KEY_EXTERNAL`; drive [`Self::begin`] instead.
    pub fn handle(&self, request: &Request, now: UnixTime, entropy: [u8; 32]) -> Response {
        let mut exchange = self.begin(request, now, entropy);
        loop {
            match exchange.step() {
                Step::Respond(_) => break,
                Step::Verify(_) => {
                    if exchange.verify_in_core(self).is_err() {
                        break;
                    }
                }
                // No I/O here: the documents held are all there is; with a responder
                // configured, its unanswered queries are errors of the devices (5001).
                Step::Fetch(_) => {
                    if exchange.fetched_nothing(self).is_err() {
                        break;
                    }
                }
                // The core signs itself whenever it holds the key: a Sign step means it
                // does not.
                Step::Sign(_) => {
                    return decorate(
                        ErrorBody::new(
                            500,
                            "ERR_SIGNING_KEY_EXTERNAL",
                            "the signing key is held by the host: this service answers \
                             attestation requests through begin/verified/signed",
                        )
                        .into_response(),
                    )
                }
            }
        }
        exchange.into_response().unwrap_or_else(|| {
            decorate(
                ErrorBody::new(500, "ERR_INTERNAL", "the request was not completed")
                    .into_response(),
            )
        })
    }

    /// Starts answering one request, for a host that runs the ECDSA checks and signatures
    /// itself (WebCrypto): see [`Exchange`]. `now` is Unix seconds; `entropy` is 32 fresh
    /// random bytes (token ids).
    pub fn begin(&self, request: &Request, now: UnixTime, entropy: [u8; 32]) -> Exchange {
        self.begin_with(request, now, entropy, &mut CertCache::default())
    }

    /// [`Self::begin`], keeping the chain certificates it decodes for the next requests
    /// (at most 256): the CA certificates every request presents are decoded once.
    pub fn begin_cached(
        &mut self,
        request: &Request,
        now: UnixTime,
        entropy: [u8; 32],
    ) -> Exchange {
        let mut certs = core::mem::take(&mut self.certs);
        let exchange = self.begin_with(request, now, entropy, &mut certs);
        self.certs = certs;
        exchange
    }

    fn begin_with(
        &self,
        request: &Request,
        now: UnixTime,
        entropy: [u8; 32],
        certs: &mut CertCache,
    ) -> Exchange {
        let immediate = |response: Response| {
            Exchange::respond(decorate(strip_body_for_head(request, response)), now)
        };
        match route(request) {
            Err(response) => immediate(response),
            Ok(Route::Info) => immediate(Response::json(200, &self.config.documentation)),
            Ok(Route::Health) => immediate(Health::new(&self.health_inputs(now)).into_response()),
            Ok(Route::Jwks) => immediate(match &self.jwks_json {
                Some(body) => Response {
                    status: 200,
                    headers: Vec::from([("content-type".into(), "application/json".into())]),
                    body: body.clone(),
                },
                None => ErrorBody::new(500, "ERR_INTERNAL", "the key set could not be built")
                    .into_response(),
            }),
            Ok(Route::Mirror) => immediate(self.mirror_route(&request.path, now, &entropy[..16])),
            Ok(Route::Attest(endpoint)) => {
                let refusal = match (
                    issuer_for(&self.config, request),
                    validate_request(endpoint, &request.body),
                    result_kind(request),
                    super::replay::requested(request),
                ) {
                    // The client's own mistakes first; a missing issuer is the host's.
                    (_, _, Err(refusal), _) | (_, _, _, Err(refusal)) => refusal,
                    (_, Err(error), _, _) => ErrorBody::from(&error).into_response(),
                    (Err(refusal), _, _, _) => refusal,
                    (Ok(issuer), Ok(validated), Ok(kind), Ok(record)) => {
                        match versioned_opaque_needs_4_0(&validated) {
                            Some(refusal) => refusal,
                            None => {
                                let allow_hold = allows_certificate_hold(request);
                                return Exchange::attest(
                                    self,
                                    validated,
                                    kind,
                                    allow_hold,
                                    issuer,
                                    now,
                                    entropy,
                                    certs,
                                    record.then_some(request),
                                );
                            }
                        }
                    }
                };
                Exchange::respond(finish_attest_response(refusal, endpoint, now), now)
            }
        }
    }

    fn health_inputs(&self, now: UnixTime) -> HealthInputs {
        let now_ms = now
            .as_secs()
            .saturating_mul(1000)
            .max(self.sources.latest_ms());
        let config = &self.config;
        let mut sources = Vec::new();
        for (kind, first, mirrors) in [
            ("rim", &config.rim_service_url, &config.rim_mirrors),
            ("ocsp", &config.ocsp_url, &config.ocsp_mirrors),
        ] {
            // Mirrors serve only when their source is on.
            if let Some(first) = first {
                for url in core::iter::once(first).chain(mirrors) {
                    sources.push(SourceHealth::of(kind, url, &self.sources, now_ms));
                }
            }
        }
        HealthInputs {
            sources,
            signing_key: Some(if self.keys.signing_key().is_some() {
                KeyLocation::InCore
            } else {
                KeyLocation::External
            }),
            kid: self.keys.kid().into(),
            device_anchors: self.device_trust.len(),
            rim_anchors: self.rim_anchors,
            rim_documents: self.rims.len(),
            rim_service: (
                self.config.rim_service_url.clone(),
                self.rim_service.clone(),
            ),
            ocsp: (self.config.ocsp_url.clone(), self.ocsp.clone()),
            verified: self.memo.counts(),
        }
    }
}

/// Longest issuer accepted (a base URL).
const MAX_ISSUER_LEN: usize = 256;

/// The `iss` of this request's tokens: the configured issuer, else the request's own origin
/// (never an earlier request's). Checked before any verification work.
fn issuer_for(config: &ServiceConfig, request: &Request) -> Result<String, Response> {
    match (&config.issuer, &request.origin) {
        (Some(issuer), _) if usable_issuer(issuer) => Ok(issuer.clone()),
        (Some(_), _) => Err(ErrorBody::new(
            500,
            "ERR_ISSUER_INVALID",
            "the configured issuer is not an http(s) base URL",
        )
        .into_response()),
        (None, Some(origin)) if usable_issuer(origin) => Ok(origin.clone()),
        (None, Some(_)) => {
            let mut body = ErrorBody::new(
                400,
                "ERR_REQUEST_ORIGIN_INVALID",
                "the request's origin cannot name the token issuer",
            );
            body.field = Some("Host".into());
            Err(body.into_response())
        }
        (None, None) => Err(ErrorBody::new(
            500,
            "ERR_NO_ISSUER",
            "no issuer is configured and the host did not give the request's origin",
        )
        .into_response()),
    }
}

/// An `http`/`https` origin or base URL without a trailing slash, query or fragment: what
/// relying parties compare `iss` with byte for byte.
fn usable_issuer(text: &str) -> bool {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"));
    text.len() <= MAX_ISSUER_LEN
        && rest.is_some_and(|rest| {
            let host = rest.split('/').next().unwrap_or("");
            !host.is_empty()
                && !rest.ends_with('/')
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_graphic() && !matches!(b, b'?' | b'#' | b'"' | b'\\'))
        })
}

/// Spec §4 rule 3: evidence that carries opaque data in the versioned (NVDAOD) format must be
/// submitted with claims version 4.0 — older claim sets cannot report its records. A request
/// breaking the rule is refused as a whole (400, the real service's 4019
/// INVALID_CLAIMS_VERSION) before any verification work, naming the first such item.
fn versioned_opaque_needs_4_0(request: &ValidatedRequest) -> Option<Response> {
    if request.claims_version() == ClaimsVersion::V4_0 {
        return None;
    }
    let field = request.endpoint().evidence_field();
    let index = request.devices().iter().position(|device| {
        Transcript::parse(device.evidence())
            .is_ok_and(|t| matches!(t.response.opaque.format(), OpaqueFormat::Versioned { .. }))
    })?;
    let mut body = ErrorBody::new(
        400,
        "ERR_REQUEST_CLAIMS_VERSION_REQUIRED",
        "evidence with opaque data in the versioned (NVDAOD) format needs claims_version 4.0",
    );
    body.error_code = Some(4019);
    body.field = Some(alloc::format!("{field}[{index}].evidence"));
    Some(body.into_response())
}

/// Whether the request accepts certificates on hold: `X-NVIDIA-OCSP-ALLOW-CERT-HOLD: true`
/// (case-insensitive), as NVIDIA's clients send it.
fn allows_certificate_hold(request: &Request) -> bool {
    request
        .header_value("x-nvidia-ocsp-allow-cert-hold")
        .is_some_and(|value| value.trim().eq_ignore_ascii_case("true"))
}
