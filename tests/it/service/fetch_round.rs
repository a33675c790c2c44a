//! The fetch round answered one resource at a time: the RIMs' chains' OCSP queries are handed
//! out as soon as the last RIM document is answered, while the devices' queries are still
//! unanswered; answers that do not fit are refused with their code and change nothing. With
//! the RIMs held, the devices' and the RIMs' queries go out in one batch.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::service::{
    ExchangeError, FetchFailure, Fetched, Request, Resource, Service, ServiceConfig, Step,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{answer_resource, device_request, now, test_service, tokens, Mode, Responder};

fn service(rim_service: bool) -> Service {
    let mut service = test_service(
        ServiceConfig {
            rim_service_url: rim_service.then(|| "https://rims.example/v1/rim/".into()),
            issuer: Some("https://attest.example".into()),
            fetch_cache: false,
            ..ServiceConfig::default()
        },
        false,
    );
    if rim_service {
        *service.rims_mut() = edgeattest::service::RimStore::new();
    }
    service
}

fn request() -> Request {
    device_request("good")
}

fn is_rim(resource: &Resource) -> bool {
    matches!(resource, Resource::Rim { .. })
}

#[test]
fn the_rims_chains_are_asked_once_the_rims_are_answered_before_the_devices_queries() {
    let responder = Responder::new(Mode::Normal);
    let service = service(true);
    let mut exchange = service.begin(&request(), UnixTime::from_secs(now()).unwrap(), [4; 32]);
    exchange.verify_in_core(&service).unwrap();
    let Step::Fetch(first) = exchange.step() else {
        panic!("a fetch round")
    };
    let first: Vec<Resource> = first.to_vec();
    assert_eq!(exchange.fetch_offset(), 0);
    assert_eq!(first.iter().filter(|r| is_rim(r)).count(), 2, "{first:?}");
    // The RIM documents first: the next batch is out while the devices' queries wait.
    for (index, resource) in first.iter().enumerate().filter(|(_, r)| is_rim(r)) {
        exchange
            .fetched_one(&service, index, &answer_resource(&responder, resource))
            .unwrap();
    }
    assert_eq!(exchange.fetch_offset(), first.len());
    let Step::Fetch(second) = exchange.step() else {
        panic!("the RIMs' chains' queries")
    };
    let second: Vec<Resource> = second.to_vec();
    assert!(
        !second.is_empty() && second.iter().all(|r| !is_rim(r)),
        "{second:?}"
    );

    // What does not fit is refused and changes nothing: an index answered or not handed
    // out, a whole batch after part of the round was answered one by one.
    let refused = exchange
        .fetched_one(&service, 0, &answer_resource(&responder, &first[0]))
        .unwrap_err();
    let refused_again = exchange
        .fetched_one(
            &service,
            first.len() + second.len(),
            &Fetched::Failed(FetchFailure::NotFetched),
        )
        .unwrap_err();
    assert_eq!(refused_again.code(), "ERR_EXCHANGE_FETCH_INDEX");
    if is_rim(&first[0]) {
        assert_eq!(refused, ExchangeError::FetchIndex { index: 0 });
    }
    assert_eq!(exchange.fetch_offset(), first.len());

    // The rest, in any order: the RIMs' chains' queries, then the devices'.
    for (i, resource) in second.iter().enumerate() {
        exchange
            .fetched_one(
                &service,
                first.len() + i,
                &answer_resource(&responder, resource),
            )
            .unwrap();
    }
    for (index, resource) in first.iter().enumerate().filter(|(_, r)| !is_rim(r)) {
        exchange
            .fetched_one(&service, index, &answer_resource(&responder, resource))
            .unwrap();
    }
    while let Step::Verify(_) = exchange.step() {
        exchange.verify_in_core(&service).unwrap();
    }
    let response = exchange.into_response().unwrap();
    assert_eq!(tokens(&response).0["x-nvidia-overall-att-result"], true);
}

#[test]
fn a_batch_answer_after_one_by_one_answers_is_refused() {
    let responder = Responder::new(Mode::Normal);
    let service = service(true);
    let mut exchange = service.begin(&request(), UnixTime::from_secs(now()).unwrap(), [4; 32]);
    exchange.verify_in_core(&service).unwrap();
    let Step::Fetch(first) = exchange.step() else {
        panic!("a fetch round")
    };
    let first: Vec<Resource> = first.to_vec();
    let last = first.len() - 1;
    let lone = first.iter().rposition(|r| !is_rim(r)).unwrap_or(last);
    exchange
        .fetched_one(&service, lone, &answer_resource(&responder, &first[lone]))
        .unwrap();
    let answers: Vec<Fetched> = first
        .iter()
        .map(|r| answer_resource(&responder, r))
        .collect();
    let refused = exchange.fetched(&service, &answers).unwrap_err();
    assert_eq!(refused.code(), "ERR_EXCHANGE_UNEXPECTED_ANSWER");
}

#[test]
fn with_the_rims_held_the_devices_and_the_rims_queries_go_out_together() {
    let responder = Responder::new(Mode::Normal);
    let service = service(false);
    let mut exchange = service.begin(&request(), UnixTime::from_secs(now()).unwrap(), [4; 32]);
    let mut batches = Vec::new();
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(_) => exchange.verify_in_core(&service).unwrap(),
            Step::Fetch(resources) => {
                batches.push(resources.len());
                let answers: Vec<Fetched> = resources
                    .iter()
                    .map(|r| answer_resource(&responder, r))
                    .collect();
                exchange.fetched(&service, &answers).unwrap();
            }
            Step::Sign(_) => panic!("the service holds its key"),
        }
    }
    // One batch: the device chain's and the two RIM chains' queries.
    assert_eq!(batches.len(), 1, "{batches:?}");
    assert!(batches[0] > 2, "{batches:?}");
    assert_eq!(
        tokens(&exchange.into_response().unwrap()).0["x-nvidia-overall-att-result"],
        true
    );
}
