//! Tests shared by the Node and the browser wasm suites: the core compiled to wasm, and the
//! JS binding called with real and hostile JS values.

use edgeattest::attest::{validate_request, Endpoint};
use edgeattest::wasm::attest::{build_attest_request, generate_nonce, validate_attest_request};
use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

const HOPPER_HEX: &str =
    include_str!("../fixtures/nvidia/evidence/hopper/nvat_hopper_535.86.09_report.hex");
const HOPPER_PEM: &str =
    include_str!("../fixtures/nvidia/evidence/hopper/nvat_hopper_535.86.09_certchain.pem");
const TEEP_V3_REQUEST: &[u8] =
    include_bytes!("../fixtures/nvidia/nras/teep/v3_1gpu_success_20260629_request.json");

fn object(members: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (name, value) in members {
        Reflect::set(&object, &(*name).into(), value).unwrap();
    }
    object.into()
}

fn code(error: &JsValue) -> String {
    Reflect::get(error, &"code".into())
        .unwrap()
        .as_string()
        .unwrap()
}

fn field(error: &JsValue) -> Option<String> {
    Reflect::get(error, &"field".into()).unwrap().as_string()
}

fn hopper_item() -> JsValue {
    let bytes = hex::decode(HOPPER_HEX.trim()).unwrap();
    object(&[
        ("evidence", Uint8Array::from(bytes.as_slice()).into()),
        ("certificate", HOPPER_PEM.into()),
    ])
}

#[wasm_bindgen_test]
fn core_validates_a_recorded_request() {
    let request = validate_request(Endpoint::GpuV3, TEEP_V3_REQUEST).unwrap();
    assert_eq!(request.devices().len(), 1);
}

#[wasm_bindgen_test]
fn nonces_are_random_hex() {
    let a = generate_nonce().unwrap();
    let b = generate_nonce().unwrap();
    assert_eq!(a.len(), 64);
    assert!(a
        .bytes()
        .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)));
    assert_ne!(a, b);
}

#[wasm_bindgen_test]
fn builds_and_validates_through_the_binding() {
    let evidence = Array::of1(&hopper_item());
    let options = object(&[
        ("endpoint", "/v4/attest/gpu".into()),
        ("arch", "HOPPER".into()),
        ("claimsVersion", "4.0".into()),
        ("evidence", evidence.into()),
    ]);
    let body = build_attest_request(options).unwrap();
    let nonce = Reflect::get(&body, &"nonce".into())
        .unwrap()
        .as_string()
        .unwrap();
    let summary = validate_attest_request("/v4/attest/gpu".into(), body).unwrap();
    assert_eq!(
        Reflect::get(&summary, &"nonce".into())
            .unwrap()
            .as_string()
            .unwrap(),
        nonce
    );
    assert_eq!(
        Reflect::get(&summary, &"claimsVersion".into())
            .unwrap()
            .as_string()
            .unwrap(),
        "4.0"
    );
    let devices = Array::from(&Reflect::get(&summary, &"devices".into()).unwrap());
    assert_eq!(devices.length(), 1);
    let label = Reflect::get(&devices.get(0), &"label".into()).unwrap();
    assert_eq!(label.as_string().unwrap(), "GPU-0");
}

#[wasm_bindgen_test]
fn hostile_values_give_coded_errors_and_the_instance_survives() {
    let hostile: Vec<JsValue> = vec![
        JsValue::UNDEFINED,
        JsValue::NULL,
        JsValue::from(42),
        JsValue::from("not an object"),
        JsValue::from(true),
        Array::new().into(),
        object(&[("endpoint", JsValue::from(7))]),
        object(&[("endpoint", "/v9/attest/gpu".into())]),
        object(&[
            ("endpoint", "/v4/attest/gpu".into()),
            ("evidence", "nope".into()),
        ]),
        object(&[
            ("endpoint", "/v4/attest/gpu".into()),
            ("nonce", "xyz".into()),
            ("evidence", Array::new().into()),
        ]),
        object(&[
            ("endpoint", "/v4/attest/gpu".into()),
            ("arch", "HOPPER".into()),
            ("evidence", Array::of1(&JsValue::NULL).into()),
        ]),
        object(&[
            ("endpoint", "/v4/attest/gpu".into()),
            ("arch", "HOPPER".into()),
            (
                "evidence",
                Array::of1(&object(&[
                    ("evidence", "zz-not-hex".into()),
                    ("certificate", HOPPER_PEM.into()),
                ]))
                .into(),
            ),
        ]),
        object(&[
            ("endpoint", "/v4/attest/gpu".into()),
            ("arch", "HOPPER".into()),
            ("evidence", Array::new().into()),
        ]),
    ];
    for value in hostile {
        let error = build_attest_request(value).unwrap_err();
        assert!(code(&error).starts_with("ERR_"), "{}", code(&error));
        assert_eq!(
            Reflect::get(&error, &"name".into())
                .unwrap()
                .as_string()
                .unwrap(),
            "EdgeAttestError"
        );
    }
    let long = "x".repeat(4 * 1024 * 1024);
    let error =
        validate_attest_request("/v4/attest/gpu".into(), JsValue::from(long.as_str())).unwrap_err();
    assert_eq!(code(&error), "ERR_REQUEST_TOO_LARGE");
    let error = validate_attest_request(
        "/v4/attest/gpu".into(),
        Uint8Array::from(&[0xff, 0xfe, 0xfd][..]).into(),
    )
    .unwrap_err();
    assert_eq!(code(&error), "ERR_REQUEST_MALFORMED_JSON");
    let error = validate_attest_request("/v4/attest/gpu".into(), JsValue::from(3)).unwrap_err();
    assert_eq!(
        (code(&error), field(&error)),
        ("ERR_INVALID_ARGUMENT".into(), Some("body".into()))
    );
    // A path that is not a string: a coded error, not a glue trap (issue 11).
    let error = validate_attest_request(JsValue::from(42), JsValue::from("{}")).unwrap_err();
    assert_eq!(code(&error), "ERR_INVALID_ARGUMENT");
    let error = validate_attest_request("/nowhere".into(), JsValue::from("{}")).unwrap_err();
    assert_eq!(code(&error), "ERR_REQUEST_UNKNOWN_ENDPOINT");
    // Still working afterwards.
    assert!(validate_attest_request(
        "/v3/attest/gpu".into(),
        Uint8Array::from(TEEP_V3_REQUEST).into()
    )
    .is_ok());
}

#[wasm_bindgen_test]
fn the_reader_refuses_a_large_argument_before_walking_it() {
    use edgeattest::wasm::service::AttestationService;
    let options = object(&[
        (
            "signingKey",
            include_str!("../fixtures/generated/token_signing_key.pem").into(),
        ),
        ("rimServiceUrl", JsValue::NULL),
        ("ocspUrl", JsValue::NULL),
    ]);
    let service = AttestationService::new(options).unwrap();
    let request = |headers: JsValue| {
        object(&[
            ("method", "GET".into()),
            ("path", "/health".into()),
            ("headers", headers),
        ])
    };
    let now = JsValue::from(0);
    // A sparse array is as long as it says: 2e6 elements, none there, refused by its length.
    let sparse = Array::new();
    sparse.set_length(2_000_000);
    let error = service
        .handle(request(sparse.into()), now.clone())
        .unwrap_err();
    assert_eq!(
        (code(&error), field(&error)),
        (
            "ERR_ARGUMENT_TOO_LARGE".into(),
            Some("request.headers".into())
        )
    );
    // An object's keys are counted before any member is read.
    let many = request(Array::new().into());
    for i in 0..20_000 {
        Reflect::set(&many, &format!("k{i}").into(), &JsValue::from(i)).unwrap();
    }
    let error = service.handle(many, now.clone()).unwrap_err();
    assert_eq!(
        (code(&error), field(&error)),
        ("ERR_ARGUMENT_TOO_LARGE".into(), Some("request".into()))
    );
    // Shared arrays nest into 16^8 reads: refused once the whole copy has read its budget.
    let mut shared: JsValue = Array::of2(&"a".into(), &"b".into()).into();
    for _ in 0..8 {
        let level = Array::new();
        for _ in 0..16 {
            level.push(&shared);
        }
        shared = level.into();
    }
    let error = service.handle(request(shared), now.clone()).unwrap_err();
    assert_eq!(code(&error), "ERR_ARGUMENT_TOO_LARGE");
    assert!(field(&error).unwrap().starts_with("request.headers["));
    // Within the limits, a request is read as before.
    let pair = Array::of2(&"accept".into(), &"application/json".into());
    let response = service
        .handle(request(Array::of1(&pair).into()), now)
        .unwrap();
    assert_eq!(
        Reflect::get(&response, &"status".into()).unwrap().as_f64(),
        Some(200.0)
    );
}
