//! The service's serde shapes, driven from JSON as a Rust host (or the JS binding, through
//! serde-wasm-bindgen) gives them: requests, responses, exchange steps, fetch answers, source
//! states, host error answers and the limits table; each with the inputs it refuses.

use edgeattest::bytes::{Document, HexBytes};
use edgeattest::service::{
    AnswerError, ErrorResponseInit, FetchAnswer, FetchFailure, Fetched, InitError, OcspCacheEntry,
    Request, Resource, Response, ServiceLimits, ServiceOptions, Source, SourceState, Step,
    DEFAULT_OCSP_TIMEOUT_MS, FETCH_CACHE_ENTRIES, FETCH_CONCURRENCY, MAX_FETCHED_BYTES,
    MAX_LAST_ERROR_CHARS, RIM_CACHE_SECONDS, RIM_MISS_SECONDS, RIM_TIMEOUT_MS,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

fn read<T: DeserializeOwned>(value: Value) -> T {
    match serde_json::from_value(value.clone()) {
        Ok(read) => read,
        Err(error) => panic!("refused {value}: {error}"),
    }
}

/// The refusal's text, which names what was expected.
fn refused<T: DeserializeOwned + std::fmt::Debug>(value: Value) -> String {
    match serde_json::from_value::<T>(value.clone()) {
        Ok(read) => panic!("accepted {value}: {read:?}"),
        Err(error) => error.to_string(),
    }
}

fn service() -> edgeattest::service::Service {
    let pem = std::fs::read_to_string(format!(
        "{}/tests/fixtures/generated/token_signing_key.pem",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    read::<ServiceOptions>(json!({ "signingKey": pem, "rimServiceUrl": null, "ocspUrl": null }))
        .build()
        .unwrap()
}

#[test]
fn a_request_takes_header_pairs_or_a_record_and_a_text_or_byte_body() {
    let request: Request = read(json!({
        "method": "POST",
        "path": "/v4/attest/gpu",
        "origin": "https://attest.example",
        "headers": [["Content-Type", "application/json"], ["x-a", "1"], ["X-A", "2"]],
        "body": "{}",
    }));
    let expected = Request::new("POST", "/v4/attest/gpu")
        .origin("https://attest.example")
        .header("Content-Type", "application/json")
        .header("x-a", "1")
        .header("X-A", "2")
        .body(b"{}".to_vec());
    assert_eq!(request, expected);
    // A record keeps its order; no headers and no body are empty.
    let request: Request = read(json!({
        "method": "GET", "path": "/health", "headers": { "b": "2", "a": "1" },
    }));
    assert_eq!(
        request.headers,
        [("b".into(), "2".into()), ("a".into(), "1".into())]
    );
    assert!(request.body.is_empty() && request.origin.is_none());
    assert_eq!(
        read::<Request>(json!({ "method": "GET", "path": "/" })),
        Request::new("GET", "/")
    );
}

#[test]
fn a_request_refuses_what_it_does_not_know() {
    for (value, says) in [
        (json!({ "path": "/" }), "missing field `method`"),
        (json!({ "method": "GET" }), "missing field `path`"),
        (
            json!({ "method": "GET", "path": "/", "query": "a=1" }),
            "unknown field `query`",
        ),
        (json!({ "method": 1, "path": "/" }), "expected a string"),
        (
            json!({ "method": "GET", "path": "/", "headers": [["a"]] }),
            "invalid length 1",
        ),
        (
            json!({ "method": "GET", "path": "/", "headers": { "a": 1 } }),
            "expected a string",
        ),
        (
            json!({ "method": "GET", "path": "/", "headers": "a: 1" }),
            "[name, value] string pairs",
        ),
        (
            json!({ "method": "GET", "path": "/", "body": [1, 2] }),
            "a string or a Uint8Array",
        ),
        (json!([]), "invalid length 0"),
    ] {
        let error = refused::<Request>(value.clone());
        assert!(error.contains(says), "{value}: {error}");
    }
}

#[test]
fn a_response_is_status_headers_and_body_bytes() {
    let service = service();
    let request: Request = read(json!({ "method": "GET", "path": "/health" }));
    let response = service.handle(
        &request,
        UnixTime::from_secs(1_780_272_000).unwrap(),
        [1; 32],
    );
    let written = serde_json::to_value(&response).unwrap();
    assert_eq!(written["status"], response.status);
    let headers: Vec<(String, String)> = read(written["headers"].clone());
    assert_eq!(headers, response.headers);
    let body: Vec<u8> = read(written["body"].clone());
    assert_eq!(body, response.body);
    let health: Value = serde_json::from_slice(&body).unwrap();
    assert!(health["overallStatus"].is_string(), "{health}");
    assert_eq!(
        serde_json::to_value(Response::empty(204)).unwrap(),
        json!({ "status": 204, "headers": [], "body": [] })
    );
}

#[test]
fn an_exchange_step_is_tagged_by_kind() {
    let service = service();
    // A request the service answers at once: the exchange's first step is `respond`.
    let request: Request = read(json!({ "method": "GET", "path": "/nope" }));
    let exchange = service.begin(
        &request,
        UnixTime::from_secs(1_780_272_000).unwrap(),
        [1; 32],
    );
    let step = serde_json::to_value(exchange.step()).unwrap();
    assert_eq!(step["kind"], "respond");
    assert_eq!(step["response"]["status"], 404);
    assert_eq!(
        step.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["kind", "response"]
    );
    // A signing round: the inputs as bytes.
    let inputs = [b"a.b".to_vec()];
    assert_eq!(
        serde_json::to_value(Step::Sign(&inputs)).unwrap(),
        json!({ "kind": "sign", "inputs": [[97, 46, 98]] })
    );
    let resources = [Resource::Rim {
        id: "NV_X".into(),
        url: "https://rim.example/NV_X".into(),
        fallbacks: vec!["https://mirror.example/v1/rim/NV_X".into()],
        formats: edgeattest::rim::RimFormats::Xml,
    }];
    assert_eq!(
        serde_json::to_value(Step::Fetch(&resources)).unwrap(),
        json!({ "kind": "fetch", "resources": [{ "kind": "rim", "id": "NV_X", "url": "https://rim.example/NV_X", "fallbacks": ["https://mirror.example/v1/rim/NV_X"], "accept": "application/json" }] })
    );
    let check = edgeattest::crypto::SignatureCheck {
        public_key_sec1: vec![4, 1],
        message: vec![2],
        signature: vec![3, 3],
    };
    assert_eq!(
        serde_json::to_value(Step::Verify(std::slice::from_ref(&check))).unwrap(),
        json!({ "kind": "verify", "checks": [{ "publicKey": [4, 1], "message": [2], "signature": [3, 3] }] })
    );
}

#[test]
fn an_ocsp_resource_and_a_cache_entry_carry_their_bytes_and_cache_key() {
    let resource = Resource::Ocsp {
        url: "https://ocsp.example/".into(),
        fallbacks: Vec::new(),
        request: vec![0x30, 0],
        nonce: vec![9],
        cache_key: "sha384:aa:01".into(),
    };
    assert_eq!(
        serde_json::to_value(&resource).unwrap(),
        json!({ "kind": "ocsp", "url": "https://ocsp.example/", "fallbacks": [], "request": [48, 0], "nonce": [9], "cacheKey": "sha384:aa:01" })
    );
    let entry = OcspCacheEntry {
        cache_key: "sha384:aa:01".into(),
        body: vec![1],
        nonce: vec![2],
        until: edgeattest::UnixTime::from_secs(99).unwrap(),
        keep_until: edgeattest::UnixTime::from_secs(99).unwrap(),
    };
    assert_eq!(
        serde_json::to_value(&entry).unwrap(),
        json!({ "cacheKey": "sha384:aa:01", "body": [1], "nonce": [2], "until": 99, "keepUntil": 99 })
    );
}

#[test]
fn a_fetch_answer_is_a_body_a_cached_body_or_a_failure() {
    let fetched = |value: Value| read::<FetchAnswer>(value).fetched();
    assert_eq!(
        fetched(json!({ "body": " 00ff " })),
        Ok(Fetched::Body(vec![0, 255]))
    );
    assert_eq!(
        fetched(json!({ "body": [1, 2], "nonce": "aa" })),
        Ok(Fetched::Cached {
            body: vec![1, 2],
            nonce: vec![0xaa]
        })
    );
    // A kept copy, with or without its nonce.
    assert_eq!(
        fetched(json!({ "body": [1], "nonce": "aa", "stale": true })),
        Ok(Fetched::Stale {
            body: vec![1],
            nonce: Some(vec![0xaa])
        })
    );
    assert_eq!(
        fetched(json!({ "body": [1], "stale": true })),
        Ok(Fetched::Stale {
            body: vec![1],
            nonce: None
        })
    );
    assert_eq!(
        fetched(json!({ "error": "status", "status": 503 })),
        Ok(Fetched::Failed(FetchFailure::HttpStatus(503)))
    );
    // An error wins over a body.
    for (error, failure) in [
        ("unreachable", FetchFailure::Unreachable),
        ("timeout", FetchFailure::Timeout),
        ("too-large", FetchFailure::TooLarge),
        ("not-fetched", FetchFailure::NotFetched),
    ] {
        assert_eq!(
            fetched(json!({ "error": error, "body": "00" })),
            Ok(Fetched::Failed(failure))
        );
    }
    // A member it lacks is named.
    for (value, missing, field) in [
        (json!({}), AnswerError::NoBody, "body"),
        (json!({ "nonce": "aa" }), AnswerError::NoBody, "body"),
        (
            json!({ "error": "status" }),
            AnswerError::NoStatus,
            "status",
        ),
        (
            json!({ "error": "status", "status": null }),
            AnswerError::NoStatus,
            "status",
        ),
    ] {
        let error = fetched(value.clone()).unwrap_err();
        assert_eq!(error, missing, "{value}");
        assert_eq!(error.code(), "ERR_INVALID_ARGUMENT");
        assert_eq!(error.field(), Some(field));
        assert!(error.to_string().starts_with(field), "{error}");
    }
    for (value, says) in [
        (json!({ "error": "lost" }), "unknown variant `lost`"),
        (
            json!({ "error": "status", "status": 42 }),
            "an HTTP status is from 100 to 599",
        ),
        (
            json!({ "error": "status", "status": 600 }),
            "an HTTP status is from 100 to 599",
        ),
        (json!({ "body": "zz" }), "not valid hex text"),
        (json!({ "body": [256] }), "u8"),
        (json!({ "body": "00", "size": 1 }), "unknown field `size`"),
    ] {
        let error = refused::<FetchAnswer>(value.clone());
        assert!(error.contains(says), "{value}: {error}");
    }
}

#[test]
fn an_exchange_reads_a_body_past_the_fetch_limit_as_too_large() {
    let at = vec![0; MAX_FETCHED_BYTES];
    assert_eq!(
        Fetched::Body(at.clone()).capped(),
        Fetched::Body(at.clone())
    );
    let over = vec![0; MAX_FETCHED_BYTES + 1];
    assert_eq!(
        Fetched::Body(over.clone()).capped(),
        Fetched::Failed(FetchFailure::TooLarge)
    );
    assert_eq!(
        Fetched::Cached {
            body: over,
            nonce: vec![1]
        }
        .capped(),
        Fetched::Failed(FetchFailure::TooLarge)
    );
    let failed = Fetched::Failed(FetchFailure::Timeout);
    assert_eq!(failed.clone().capped(), failed);
}

#[test]
fn a_source_state_is_read_with_its_error_text_cut() {
    let long = "e".repeat(MAX_LAST_ERROR_CHARS + 50);
    let state: SourceState =
        read(json!({ "reachable": false, "lastError": long, "cachedEntries": 7 }));
    assert_eq!(state.reachable, Some(false));
    assert_eq!(
        state.last_error.as_deref().map(str::len),
        Some(MAX_LAST_ERROR_CHARS)
    );
    assert_eq!(state.cached_entries, 7);
    assert_eq!(read::<SourceState>(json!({})), SourceState::default());
    for (value, says) in [
        (json!({ "cachedEntries": -1 }), "invalid value"),
        (json!({ "cachedEntries": 4_294_967_296_u64 }), "u32"),
        (json!({ "reachable": "yes" }), "expected a boolean"),
        (json!({ "healthy": true }), "unknown field `healthy`"),
    ] {
        let error = refused::<SourceState>(value.clone());
        assert!(error.contains(says), "{value}: {error}");
    }
    assert_eq!(read::<Source>(json!("rim")), Source::RimService);
    assert_eq!(read::<Source>(json!("ocsp")), Source::Ocsp);
    for bad in [json!("RIM"), json!("rimService"), json!(1)] {
        refused::<Source>(bad);
    }
}

#[test]
fn a_host_error_answer_is_the_one_error_body_with_the_service_headers() {
    let init: ErrorResponseInit = read(json!({
        "status": 400, "code": "ERR_REQUEST_INVALID_NONCE", "message": "bad", "field": "nonce",
    }));
    let answer = init.response().unwrap();
    assert_eq!(answer.status, 400);
    assert_eq!(
        answer.body,
        r#"{"code":"ERR_REQUEST_INVALID_NONCE","message":"bad","field":"nonce","status":400}"#
    );
    let header = |name: &str| {
        answer
            .headers
            .iter()
            .find(|(candidate, _)| candidate == name)
            .map(|(_, value)| value.as_str())
    };
    assert_eq!(header("content-type"), Some("application/json"));
    assert_eq!(header("x-content-type-options"), Some("nosniff"));
    assert_eq!(
        serde_json::to_value(&answer).unwrap()["body"],
        json!(answer.body)
    );
    // An empty field is left out.
    let init: ErrorResponseInit = read(json!({
        "status": 404, "code": "ERR_NOT_FOUND", "message": "no route", "field": "",
    }));
    assert_eq!(
        init.response().unwrap().body,
        r#"{"code":"ERR_NOT_FOUND","message":"no route","status":404}"#
    );
}

#[test]
fn a_host_error_answer_refuses_a_success_status_an_unknown_code_or_no_message() {
    for (value, fault) in [
        (
            json!({ "status": 200, "code": "ERR_NOT_FOUND", "message": "m" }),
            InitError::Status,
        ),
        (
            json!({ "status": 600, "code": "ERR_NOT_FOUND", "message": "m" }),
            InitError::Status,
        ),
        (
            json!({ "code": "ERR_NOT_FOUND", "message": "m" }),
            InitError::Status,
        ),
        (
            json!({ "status": 404, "code": "not_found", "message": "m" }),
            InitError::Code,
        ),
        (
            json!({ "status": 404, "code": "ERR_NOT_A_REGISTERED_CODE", "message": "m" }),
            InitError::Code,
        ),
        (json!({ "status": 404, "message": "m" }), InitError::Code),
        (
            json!({ "status": 404, "code": "ERR_NOT_FOUND", "message": "" }),
            InitError::Message,
        ),
        (
            json!({ "status": 404, "code": "ERR_NOT_FOUND" }),
            InitError::Message,
        ),
    ] {
        let error = read::<ErrorResponseInit>(value.clone())
            .response()
            .unwrap_err();
        assert_eq!(error, fault, "{value}");
        assert_eq!(error.code(), "ERR_INVALID_ARGUMENT");
        let field = error.field().unwrap();
        assert!(error.to_string().starts_with(field), "{error}");
    }
    for (value, says) in [
        (
            json!({ "status": 404.5, "code": "ERR_NOT_FOUND", "message": "m" }),
            "invalid type",
        ),
        (
            json!({ "status": 70_000, "code": "ERR_NOT_FOUND", "message": "m" }),
            "u16",
        ),
        (
            json!({ "status": 404, "code": "ERR_NOT_FOUND", "message": "m", "field": 7 }),
            "expected a string",
        ),
        (
            json!({ "status": 404, "code": "ERR_NOT_FOUND", "message": "m", "field": null }),
            "expected a string",
        ),
        (
            json!({ "status": 404, "code": "ERR_NOT_FOUND", "message": "m", "extra": 1 }),
            "unknown field `extra`",
        ),
        (json!(null), "invalid type: null"),
    ] {
        let error = refused::<ErrorResponseInit>(value.clone());
        assert!(error.contains(says), "{value}: {error}");
    }
}

#[test]
fn the_limits_table_is_the_cores_constants() {
    assert_eq!(
        serde_json::to_value(ServiceLimits::CORE).unwrap(),
        json!({
            "maxBodyBytes": edgeattest::attest::MAX_BODY_BYTES,
            "maxFetchedBytes": MAX_FETCHED_BYTES,
            "maxOcspResponseBytes": edgeattest::ocsp::MAX_RESPONSE_LEN,
            "maxAuthorizationBytes": edgeattest::access::MAX_AUTHORIZATION_LEN,
            "rimTimeoutMs": RIM_TIMEOUT_MS,
            "ocspTimeoutMs": DEFAULT_OCSP_TIMEOUT_MS,
            "fetchConcurrency": FETCH_CONCURRENCY,
            "rimCacheSeconds": RIM_CACHE_SECONDS,
            "rimMissSeconds": RIM_MISS_SECONDS,
            "rimKeepSeconds": edgeattest::service::RIM_KEEP_SECONDS,
            "fetchCacheEntries": FETCH_CACHE_ENTRIES,
            "probeTimeoutMs": edgeattest::service::PROBE_TIMEOUT_MS,
            "probeIntervalSeconds": edgeattest::service::PROBE_INTERVAL_SECONDS,
        })
    );
    // The figures every host used before they came from here.
    assert_eq!(
        (RIM_TIMEOUT_MS, DEFAULT_OCSP_TIMEOUT_MS, FETCH_CONCURRENCY),
        (10_000, 5_000, 8)
    );
    assert_eq!(
        (RIM_CACHE_SECONDS, RIM_MISS_SECONDS, FETCH_CACHE_ENTRIES),
        (86_400, 300, 4096)
    );
    assert_eq!(ServiceLimits::CORE.max_body_bytes, 2 * 1024 * 1024);
    assert_eq!(ServiceLimits::CORE.max_authorization_bytes, 512);
}

#[test]
fn documents_are_text_or_bytes_and_hex_bytes_are_hex_or_byte_arrays() {
    assert_eq!(read::<Document>(json!("<a/>")), Document(b"<a/>".to_vec()));
    assert_eq!(read::<HexBytes>(json!("0a0B")), HexBytes(vec![10, 11]));
    assert_eq!(read::<HexBytes>(json!([0, 255])), HexBytes(vec![0, 255]));
    refused::<Document>(json!([60, 47]));
    refused::<Document>(json!(1));
    refused::<HexBytes>(json!("0"));
    refused::<HexBytes>(json!([-1]));
    refused::<HexBytes>(json!({}));
    assert_eq!(
        serde_json::to_value(HexBytes(vec![1, 2])).unwrap(),
        json!([1, 2])
    );
}

#[test]
fn a_host_error_answer_names_exactly_the_members_serde_reads() {
    let full = json!({ "status": 404, "code": "ERR_NOT_FOUND", "message": "m", "field": "f" });
    let read: ErrorResponseInit = read(full.clone());
    assert_eq!(read.field.as_deref(), Some("f"));
    let members = crate::keys(&full);
    assert_eq!(members, ErrorResponseInit::MEMBERS);
    for member in ["Status", "fields", "headers"] {
        let mut value = full.clone();
        value[member] = json!(1);
        refused::<ErrorResponseInit>(value);
    }
}

#[test]
fn a_resource_reads_back_as_written_and_a_missing_member_is_named() {
    let resources = [
        Resource::Rim {
            id: "NV_X".into(),
            url: "https://rim.example/NV_X".into(),
            fallbacks: vec!["https://mirror.example/v1/rim/NV_X".into()],
            formats: edgeattest::rim::RimFormats::CorimPreferred,
        },
        Resource::Ocsp {
            url: "https://ocsp.example/".into(),
            fallbacks: Vec::new(),
            request: vec![0x30, 0],
            nonce: vec![9],
            cache_key: "sha384:aa:01".into(),
        },
    ];
    for resource in resources {
        let value = serde_json::to_value(&resource).unwrap();
        assert_eq!(read::<Resource>(value), resource);
    }
    let error = refused::<Resource>(json!({ "kind": "rim", "url": "https://rim.example/NV_X" }));
    assert!(error.contains("missing field `id`"), "{error}");
    let mirrors: Vec<String> = (0..5).map(|n| format!("https://m{n}.example/")).collect();
    let error = refused::<Resource>(
        json!({ "kind": "rim", "id": "NV_X", "url": "https://rim.example/NV_X", "fallbacks": mirrors }),
    );
    assert!(error.contains("at most 4 mirrors"), "{error}");
}
