//! `openssl ocsp` as the responder of the OCSP test PKI
//! (`tests/fixtures/generated/generate_ocsp.py`), answering the core's own DER requests
//! offline (`-reqin` / `-respout`): a real responder's answers, made now, signed the way
//! NVIDIA's responder signs (a delegated responder per CA, ResponderID by key hash,
//! ecdsa-with-SHA384, its certificate embedded).
#![allow(dead_code)] // each test binary uses a part

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::crypto::SigningKey;
use edgeattest::service::{
    FetchFailure, Fetched, OcspCacheEntry, Request, Resource, Response, Service, Step,
};
use edgeattest::UnixTime;
use serde_json::{Map, Value};

pub(crate) fn ocsp_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/generated/ocsp")
}

/// How the stand-in responder answers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// Each CA's own delegated responder, as NVIDIA's.
    Normal,
    /// Signed by a certificate the ICA issued without id-kp-OCSPSigning.
    Rogue,
    /// Signed by a responder another CA issued.
    Foreign,
    /// The answer for another certificate (the identity CA's) to every request.
    OtherCertificate,
    /// The HTTP side failed: connection refused.
    Down,
    /// The answer of an earlier request (its nonce) for the same certificate.
    Replay,
}

/// `openssl ocsp` answering one DER request as the responder of the CA whose key hash the
/// request names.
pub(crate) struct Responder {
    manifest: Map<String, Value>,
    mode: Mode,
    work: tempdir::Dir,
    earlier: std::cell::RefCell<std::collections::BTreeMap<String, Vec<u8>>>,
}

mod tempdir {
    use std::path::PathBuf;

    /// A directory removed when dropped.
    pub(crate) struct Dir(pub(crate) PathBuf);

    impl Dir {
        pub(crate) fn new(name: &str) -> Self {
            let path = std::env::temp_dir().join(format!(
                "edgeattest-{name}-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            std::fs::create_dir_all(&path).unwrap();
            Self(path)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl Responder {
    pub(crate) fn new(mode: Mode) -> Self {
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(ocsp_dir().join("responders.json")).unwrap(),
        )
        .unwrap();
        Self {
            manifest: manifest.as_object().unwrap().clone(),
            mode,
            work: tempdir::Dir::new(&format!("{mode:?}")),
            earlier: std::cell::RefCell::default(),
        }
    }

    pub(crate) fn answer(&self, request: &[u8], cache_key: &str) -> Fetched {
        if self.mode == Mode::Down {
            return Fetched::Failed(FetchFailure::Unreachable);
        }
        let (ca, entry) = self
            .manifest
            .iter()
            .find(|(_, entry)| {
                let hash =
                    hex::decode(entry["issuer_key_hash"]["sha384"].as_str().unwrap()).unwrap();
                request.windows(hash.len()).any(|w| w == hash.as_slice())
            })
            .unwrap_or_else(|| panic!("no CA of the test PKI is named by {cache_key}"));
        let file = |name: &str| ocsp_dir().join(entry[name].as_str().unwrap());
        let (signer, key) = match self.mode {
            Mode::Rogue => (
                ocsp_dir().join("rogue_responder.pem"),
                ocsp_dir().join("rogue_responder_key.pem"),
            ),
            Mode::Foreign => (
                ocsp_dir().join("foreign_responder.pem"),
                ocsp_dir().join("foreign_responder_key.pem"),
            ),
            _ => (file("responder"), file("responder_key")),
        };
        let request_path = self.work.0.join(format!("{ca}.req"));
        let response_path = self.work.0.join(format!("{ca}.resp"));
        let request = if self.mode == Mode::OtherCertificate {
            // openssl builds a request for the identity CA (issued by the root) instead.
            let status = Command::new("openssl")
                .args(["ocsp", "-sha384", "-no_nonce", "-issuer"])
                .arg(ocsp_dir().join("root.pem"))
                .arg("-cert")
                .arg(ocsp_dir().join("identity.pem"))
                .arg("-reqout")
                .arg(&request_path)
                .output()
                .unwrap();
            assert!(status.status.success(), "{status:?}");
            return self.respond_with(
                &request_path,
                &response_path,
                &self.manifest["root"],
                (
                    ocsp_dir().join("responder_root.pem"),
                    ocsp_dir().join("responder_root_key.pem"),
                ),
            );
        } else {
            request
        };
        std::fs::write(&request_path, request).unwrap();
        let answer = self.respond_with(&request_path, &response_path, entry, (signer, key));
        if self.mode == Mode::Replay {
            let mut earlier = self.earlier.borrow_mut();
            if let Fetched::Body(body) = &answer {
                if let Some(old) = earlier.insert(cache_key.into(), body.clone()) {
                    return Fetched::Body(old);
                }
            }
        }
        answer
    }

    fn respond_with(
        &self,
        request: &Path,
        response: &Path,
        entry: &Value,
        (signer, key): (PathBuf, PathBuf),
    ) -> Fetched {
        let file = |name: &str| ocsp_dir().join(entry[name].as_str().unwrap());
        let output = Command::new("openssl")
            .arg("ocsp")
            .arg("-index")
            .arg(file("index"))
            .arg("-CA")
            .arg(file("ca"))
            .arg("-rsigner")
            .arg(signer)
            .arg("-rkey")
            .arg(key)
            .args(["-rmd", "sha384", "-resp_key_id", "-ndays", "1"])
            .arg("-reqin")
            .arg(request)
            .arg("-respout")
            .arg(response)
            .output()
            .expect("openssl is installed (pkg-config/setup.sh)");
        assert!(output.status.success(), "{output:?}");
        Fetched::Body(std::fs::read(response).unwrap())
    }
}

pub(crate) fn read(path: &str) -> String {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// NVIDIA's real LS10 switch (96.10.55.00.01) as a V4 request, claims 3.0.
pub(crate) fn ls10_request() -> Request {
    let evidence =
        hex::decode(read("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_report.hex").trim())
            .unwrap();
    let chain = read("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem");
    let body = serde_json::json!({
        "nonce": hex::encode(&evidence[4..36]),
        "arch": "LS10",
        "claims_version": "3.0",
        "evidence_list": [{"evidence": STANDARD.encode(&evidence), "certificate": STANDARD.encode(&chain)}],
    });
    Request::new("POST", "/v4/attest/switch")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&body).unwrap())
}

/// The real Hopper 550.90.07 transcript re-signed with the leaf of `status`'s device.
/// A V4 claims-3.0 attestation request for the test device of `status` (`good`, `revoked`,
/// …), its nonce the evidence's.
pub(crate) fn device_request(status: &str) -> Request {
    let (evidence, chain) = device(status);
    let body = serde_json::json!({
        "nonce": hex::encode(&evidence[4..36]),
        "arch": "HOPPER",
        "claims_version": "3.0",
        "evidence_list": [{"evidence": STANDARD.encode(&evidence), "certificate": STANDARD.encode(chain)}],
    });
    Request::new("POST", "/v4/attest/gpu").body(serde_json::to_vec(&body).unwrap())
}

/// `responder`'s answer to an OCSP resource; to a RIM resource, the RIM service's envelope of
/// the test RIM it names.
pub(crate) fn answer_resource(responder: &Responder, resource: &Resource) -> Fetched {
    match resource {
        Resource::Ocsp {
            request, cache_key, ..
        } => responder.answer(request, cache_key),
        Resource::Rim { id, .. } => {
            let xml = read(&format!("generated/ocsp/rims/{id}.xml"));
            let envelope = serde_json::json!({"id": id, "rim": STANDARD.encode(xml)});
            Fetched::Body(envelope.to_string().into_bytes())
        }
        _ => Fetched::Failed(FetchFailure::NotFetched),
    }
}

pub(crate) fn device(status: &str) -> (Vec<u8>, String) {
    let report =
        hex::decode(read("nvidia/evidence/hopper/nvtrust_hopper_550.90.07_report.hex").trim())
            .unwrap();
    let key = SigningKey::from_pkcs8_pem(&read(&format!("generated/ocsp/leaf_{status}_key.pem")))
        .unwrap();
    let mut evidence = report[..report.len() - 96].to_vec();
    let signature = key.sign(&evidence);
    evidence.extend_from_slice(&signature);
    (
        evidence,
        read(&format!("generated/ocsp/chain_{status}.pem")),
    )
}

/// Drives an exchange as a host does, with `entropy`, answering each OCSP resource with
/// `answer(request, cache_key)` (RIMs are not fetched). Returns the response and the
/// exchange's cacheable answers.
pub(crate) fn attest_answering(
    service: &Service,
    request: &Request,
    entropy: [u8; 32],
    answer: impl FnMut(&[u8], &str) -> Fetched,
) -> (Response, Vec<OcspCacheEntry>) {
    attest_answering_at(service, request, now(), entropy, answer)
}

/// [`attest_answering`] at `at` (Unix seconds).
pub(crate) fn attest_answering_at(
    service: &Service,
    request: &Request,
    at: u64,
    entropy: [u8; 32],
    mut answer: impl FnMut(&[u8], &str) -> Fetched,
) -> (Response, Vec<OcspCacheEntry>) {
    let mut exchange = service.begin(request, UnixTime::from_secs(at).unwrap(), entropy);
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(_) => exchange.verify_in_core(service).unwrap(),
            Step::Fetch(resources) => {
                let answers: Vec<Fetched> = resources
                    .iter()
                    .map(|resource| match resource {
                        Resource::Ocsp {
                            url,
                            request,
                            cache_key,
                            ..
                        } => {
                            assert_eq!(url, "https://ocsp.ndis.nvidia.com/");
                            answer(request, cache_key)
                        }
                        _ => Fetched::Failed(FetchFailure::NotFetched),
                    })
                    .collect();
                exchange.fetched(service, &answers).unwrap();
            }
            Step::Sign(_) => panic!("the service holds its key"),
        }
    }
    let cacheable = exchange.cacheable().to_vec();
    (exchange.into_response().unwrap(), cacheable)
}

/// [`attest_answering`] with `responder`; also returns how many OCSP requests it answered.
pub(crate) fn attest_with(
    service: &Service,
    request: &Request,
    responder: &Responder,
) -> (Response, Vec<OcspCacheEntry>, usize) {
    let mut asked = 0;
    let (response, cacheable) = attest_answering(service, request, [9; 32], |der, key| {
        asked += 1;
        responder.answer(der, key)
    });
    (response, cacheable, asked)
}

pub(crate) fn claims(token: &str) -> Map<String, Value> {
    serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap()
}

/// The overall claims and the device claims of a response.
pub(crate) fn tokens(response: &Response) -> (Map<String, Value>, Vec<Map<String, Value>>) {
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    // `GPU-0`, `GPU-1`, … or `SWITCH-0`, …, in index order.
    let mut devices: Vec<(usize, &str)> = result[1]
        .as_object()
        .unwrap()
        .iter()
        .map(|(label, token)| {
            let index = label.rsplit('-').next().unwrap().parse().unwrap();
            (index, token.as_str().unwrap())
        })
        .collect();
    devices.sort_unstable();
    (
        claims(result[0][1].as_str().unwrap()),
        devices
            .into_iter()
            .map(|(_, token)| claims(token))
            .collect(),
    )
}

/// A service holding the OCSP test RIMs (the 550.90.07 driver and VBIOS RIMs, the LS10 BIOS
/// RIM), trusting the test device and RIM roots, with `config`; `revoked_driver_signer`: the
/// driver RIM signed by the revoked signer instead.
pub(crate) fn test_service(
    config: edgeattest::service::ServiceConfig,
    revoked_driver_signer: bool,
) -> Service {
    use edgeattest::chain::TrustStore;
    use edgeattest::rim::RimTrust;
    let mut service = Service::new(
        config,
        edgeattest::service::KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), None),
        TrustStore::from_pem(&read("generated/ocsp/root.pem")).unwrap(),
        RimTrust::from_store(TrustStore::from_pem(&read("generated/ocsp/rim_root.pem")).unwrap()),
        1,
    );
    let manifest: Value = serde_json::from_str(&read("generated/ocsp/rims/manifest.json")).unwrap();
    for kind in ["driver", "vbios", "switch"] {
        let id = manifest[kind].as_str().unwrap();
        let file = if kind == "driver" && revoked_driver_signer {
            format!("generated/ocsp/rims/{id}_revoked_signer.xml")
        } else {
            format!("generated/ocsp/rims/{id}.xml")
        };
        service.rims_mut().insert(id, read(&file).into_bytes());
    }
    service
}
