//! Recording: what an exchange that was asked for a bundle keeps as it goes, and the bundle
//! it answers with once its response is ready.

use alloc::string::String;
use alloc::vec::Vec;

use super::bundle::{
    anchors_digest, AnchorDigests, AnswerRecord, Bundle, ConfigRecord, Digested, FetchRecord,
    RequestRecord, ResourceRecord, ResultRecord, RimRecord, BUNDLE_FORMAT, BUNDLE_MEDIA_TYPE,
    REPLAY_HEADER,
};
use crate::error_code::ErrorBody;
use crate::host_answer::Fetched;
use crate::service::context::Service;
use crate::service::fetch::Resource;
use crate::service::http::{Request, Response};
use crate::service::rims::RimStore;
use crate::time::UnixTime;

/// The header's one value.
const BUNDLE_VALUE: &str = "bundle";

/// Whether `request` asks for a bundle: header [`REPLAY_HEADER`] is `bundle` (any case);
/// absent, no. Any other value is refused (400 `ERR_REQUEST_REPLAY_HEADER`), never ignored.
pub(crate) fn requested(request: &Request) -> Result<bool, Response> {
    match request.header_value(REPLAY_HEADER) {
        None => Ok(false),
        Some(value) if value.trim().eq_ignore_ascii_case(BUNDLE_VALUE) => Ok(true),
        Some(_) => {
            let mut body = ErrorBody::new(
                400,
                "ERR_REQUEST_REPLAY_HEADER",
                "the x-edgeattest-replay header's one value is \"bundle\"",
            );
            body.field = Some(REPLAY_HEADER.into());
            Err(body.into_response())
        }
    }
}

/// What an exchange records of its inputs.
#[derive(Debug)]
pub(crate) struct Recorder {
    request: Request,
    rims: Vec<Digested<RimRecord>>,
    fetches: Vec<Digested<FetchRecord>>,
}

impl Recorder {
    /// A recorder of `request`, as received.
    pub(crate) fn new(request: &Request) -> Self {
        Self {
            request: request.clone(),
            rims: Vec::new(),
            fetches: Vec::new(),
        }
    }

    /// Records the host's answers to a round of fetches, each with what it answered.
    pub(crate) fn fetched(&mut self, resources: &[Resource], answers: &[Fetched]) {
        for (resource, answer) in resources.iter().zip(answers) {
            self.fetches.push(Digested::new(FetchRecord {
                resource: ResourceRecord::of(resource),
                answer: AnswerRecord::of(answer),
            }));
        }
    }

    /// Records the documents `store` holds under `keys` (the store keys the verified
    /// devices name), each once, as the store would answer them.
    pub(crate) fn held_rims<'a>(&mut self, keys: impl Iterator<Item = &'a str>, store: &RimStore) {
        for key in keys {
            let recorded = self.rims.iter().any(|rim| rim.value.key == key);
            if let (false, Some(xml)) = (recorded, store.get(key)) {
                self.rims.push(Digested::new(RimRecord {
                    key: String::from(key),
                    xml: base64_text(xml),
                }));
            }
        }
    }

    /// The bundle of this exchange, as the response: its `result` is `response`.
    pub(crate) fn seal(
        self,
        service: &Service,
        now: UnixTime,
        entropy: [u8; 32],
        response: Response,
    ) -> Response {
        let bundle = Bundle {
            format: BUNDLE_FORMAT.into(),
            time: Digested::new(now.as_secs()),
            entropy: Digested::new(hex::encode(entropy)),
            request: Digested::new(RequestRecord::of(&self.request)),
            config: Digested::new(ConfigRecord::of(service.config())),
            anchors: AnchorDigests {
                device: anchors_digest(Some(service.device_trust())),
                rim: anchors_digest(service.rim_trust.store()),
            },
            rims: self.rims,
            fetches: self.fetches,
            result: Digested::new(ResultRecord::of(&response)),
        };
        let mut headers: Vec<(String, String)> = response
            .headers
            .into_iter()
            .filter(|(name, _)| !name.eq_ignore_ascii_case("content-type"))
            .collect();
        headers.insert(0, ("content-type".into(), BUNDLE_MEDIA_TYPE.into()));
        Response {
            status: response.status,
            headers,
            body: serde_json::to_vec(&bundle).unwrap_or_default(),
        }
    }
}

fn base64_text(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
