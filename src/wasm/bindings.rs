//! JS API for `crate::service::HostSettings`: the worker's `EDGEATTEST_*` bindings read by the
//! core (`readServiceBindings`), as the service component reads its environment, so the two
//! hosts cannot come to mean different things by one variable. `EDGEATTEST_TEST_PKI=on` is
//! applied here too, by the core's rule (`HostSettings::add_test_pki`), to the collateral the
//! host brings. TS type: types/bindings.d.ts.

use js_sys::{Map, Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{from_js, json_to_js};
use super::error::{invalid_argument, OrJs};
use crate::service::{HostSettings, TestPkiCollateral};

#[wasm_bindgen(typescript_custom_section)]
const TS_BINDINGS: &str = include_str!("types/bindings.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_BINDINGS_HAND: &str = include_str!("types/hand/bindings.d.ts");

/// Reads a host's `EDGEATTEST_*` variables (a worker's `env`; values that are not strings,
/// such as KV namespaces, are skipped) into the settings they give (`ServiceBindings`): the
/// `AttestationService` options, the crypto backend, the clock, the fetch settings and the
/// RIMs to add. Each variable is checked as the service component checks it.
///
/// `testPki` is the edgeattest TEST PKI's collateral the host holds (development only). With
/// `EDGEATTEST_TEST_PKI=on` the core adds it as on every host: its roots after the configured
/// anchors, its RIMs as `configured-roots/<id>.xml` before the configured documents, and its
/// OCSP answers in `testPkiAnswers`, which the host gives ahead of its cache. Off, or without
/// collateral, nothing is added.
///
/// @throws EdgeAttestError `ERR_NO_SIGNING_KEY` when no signing key is set, `ERR_CONFIG`
/// for a variable that does not read (its name in the message) or test PKI OCSP answers that
/// do not, `ERR_INVALID_ARGUMENT` for an `env` that is not an object or a `testPki` that is
/// not collateral.
///
/// @example
/// ```ts
/// declare const env: Record<string, unknown>; // the worker's bindings
/// const { options, crypto } = readServiceBindings(env);
/// const service = new AttestationService(options);
/// ```
#[wasm_bindgen(js_name = readServiceBindings, unchecked_return_type = "ServiceBindings")]
pub fn read_service_bindings(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] env: JsValue,
    #[wasm_bindgen(js_name = testPki, unchecked_optional_param_type = "TestPkiCollateral")]
    test_pki: JsValue,
) -> Result<JsValue, JsValue> {
    if !env.is_object() {
        return Err(invalid_argument("env", "an object of bindings"));
    }
    // Only string values are variables (a worker's env also holds KV namespaces, ASSETS).
    let get = |name: &str| {
        Reflect::get(&env, &JsValue::from_str(name))
            .ok()
            .and_then(|value| value.as_string())
    };
    let mut settings = HostSettings::read(get).or_js()?;
    if !settings.test_pki || test_pki.is_undefined() || test_pki.is_null() {
        return json_to_js(&settings);
    }
    let held: TestPkiCollateral = from_js(&test_pki, "testPki")?;
    let answers = held.add_to(&mut settings).or_js()?;
    let bindings = json_to_js(&settings)?;
    let by_key = Map::new();
    for (key, der) in answers.iter() {
        by_key.set(&JsValue::from_str(key), &Uint8Array::from(der));
    }
    // Setting a member of a plain object that JSON.parse made cannot fail.
    let _ = Reflect::set(&bindings, &"testPkiAnswers".into(), &by_key);
    Ok(bindings)
}
