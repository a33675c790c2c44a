//! JS API for `crate::access`: `gatewayDecision`, `evaluateAccess`, `createApiKey`,
//! `parseApiKey`, `hashApiKey`, `devKeySet`, `accessRouteTable`, `roleScopes`.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::args;
use super::error::{invalid_argument, to_js};
use crate::access::{
    authorize, decide_for_record, dev_key_set, route_table_json, store_of, ApiKey, Decision,
    GatewayConfig, GatewayRequest, HeaderBudget, IssuedKey, KeyRequest, KeyRequestError, KeyStore,
    KeyType, Method, Role, SIMULATION_SERVICE,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_ACCESS: &str = include_str!("types/access.d.ts");

/// The gateway's decision for one request against a key store (JSON text or object, in
/// the key-store form), at `now` (Unix seconds). The store is parsed on every call: a host
/// that decides many requests against one store keeps an `ApiGateway`.
#[wasm_bindgen(js_name = gatewayDecision, unchecked_return_type = "GatewayDecision")]
pub fn gateway_decision(
    #[wasm_bindgen(unchecked_param_type = "GatewayRequestInit")] request: JsValue,
    #[wasm_bindgen(js_name = keyStore, unchecked_param_type = "string | KeyStoreJson")]
    key_store: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "GatewayOptions")] options: Option<
        js_sys::Object,
    >,
) -> Result<JsValue, JsValue> {
    let store = key_store_from(&key_store, "keyStore")?;
    let config = config_from(&options_value(options))?;
    decide(&request, &store, &config, &now)
}

/// The gateway over one key store, parsed and checked once: `decide` is
/// `gatewayDecision` without parsing the store again.
#[wasm_bindgen]
pub struct ApiGateway {
    store: KeyStore,
    config: GatewayConfig,
}

#[wasm_bindgen]
impl ApiGateway {
    /// Parses the key store (JSON text or object) and the options.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = keyStore, unchecked_param_type = "string | KeyStoreJson")]
        key_store: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "GatewayOptions")] options: Option<
            js_sys::Object,
        >,
    ) -> Result<ApiGateway, JsValue> {
        Ok(Self {
            store: key_store_from(&key_store, "keyStore")?,
            config: config_from(&options_value(options))?,
        })
    }

    /// The decision for one request at `now` (Unix seconds).
    #[wasm_bindgen(unchecked_return_type = "GatewayDecision")]
    pub fn decide(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GatewayRequestInit")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<JsValue, JsValue> {
        decide(&request, &self.store, &self.config, &now)
    }
}

fn decide(
    request: &JsValue,
    store: &KeyStore,
    config: &GatewayConfig,
    now: &JsValue,
) -> Result<JsValue, JsValue> {
    if !request.is_object() {
        return Err(invalid_argument("request", "an object"));
    }
    let method = args::required_string(&args::member(request, "method"), "request.method")?;
    let url = args::required_string(&args::member(request, "url"), "request.url")?;
    let authorization = args::optional_string(
        &args::member(request, "authorization"),
        "request.authorization",
    )?;
    let now = args::time(now, "now")?.as_secs();
    let headers = match headers_from(&args::member(request, "headers"))? {
        Ok(headers) => headers,
        Err(denial) => return decision_to_js(&Decision::over_budget(config, denial)),
    };
    let pairs: Vec<(&str, &str)> = headers
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect();
    let decision = authorize(
        &GatewayRequest {
            method: &method,
            target: target_of(&url),
            authorization: authorization.as_deref(),
            headers: &pairs,
        },
        store,
        config,
        now,
    );
    decision_to_js(&decision)
}

/// Allow or deny, with the reasons. `key` is a key record (object), an API key
/// (`eak_…`), or an `Authorization` value (`Bearer eak_…`); the last two need
/// `options.keyStore`.
#[wasm_bindgen(js_name = evaluateAccess, unchecked_return_type = "GatewayDecision")]
pub fn evaluate_access(
    #[wasm_bindgen(unchecked_param_type = "KeyRecord | string")] key: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "EvaluateAccessOptions")] options: Option<
        js_sys::Object,
    >,
) -> Result<JsValue, JsValue> {
    let method: &str = &args::string_arg(&method, "method")?;
    let path: &str = &args::string_arg(&path, "path")?;
    let options = options_value(options);
    let config = config_from(&options)?;
    let now = args::time_or_clock(&args::member(&options, "now"), "options.now")?.as_secs();
    let target = target_of(path);
    let decision = if let Some(text) = key.as_string() {
        let store = key_store_from(&args::member(&options, "keyStore"), "options.keyStore")?;
        let authorization = if text.starts_with(crate::access::KEY_PREFIX) {
            alloc::format!("Bearer {text}")
        } else {
            text
        };
        authorize(
            &GatewayRequest {
                method,
                target,
                authorization: Some(&authorization),
                headers: &[],
            },
            &store,
            &config,
            now,
        )
    } else if key.is_object() {
        let record = args::json_bytes(&key, "key")?;
        let mut json = Vec::from(&b"{\"keys\":["[..]);
        json.extend_from_slice(&record);
        json.extend_from_slice(b"]}");
        let store = KeyStore::from_json(&json).map_err(|error| to_js(&error))?;
        let record = store
            .records()
            .first()
            .ok_or_else(|| invalid_argument("key", "a key record"))?;
        decide_for_record(record, Method::parse(method), target, &config, now)
    } else {
        return Err(invalid_argument(
            "key",
            "a key record, an API key or a Bearer value",
        ));
    };
    decision_to_js(&decision)
}

/// Creates a key from the host's randomness: the secret (show it once) and its record.
#[wasm_bindgen(js_name = createApiKey, unchecked_return_type = "CreatedApiKey")]
pub fn create_api_key(
    #[wasm_bindgen(unchecked_param_type = "CreateApiKeyOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    if !options.is_object() {
        return Err(invalid_argument("options", "an object"));
    }
    let type_name = args::required_string(&args::member(&options, "type"), "type")?;
    let key_type = KeyType::parse(&type_name)
        .ok_or_else(|| invalid_argument("type", "\"personal\" or \"service\""))?;
    let id = args::required_string(&args::member(&options, "id"), "id")?;
    let services = string_list(&args::member(&options, "services"), "services")?;
    // `roles` and `scopes` are present unless `undefined` (`null` reads as an empty list).
    // A list that cannot be read is reported after the core's rule on which member the type
    // allows, as before: `roles: 5` on a service key is "roles is not allowed".
    let list = |name: &str| {
        let value = args::member(&options, name);
        (!value.is_undefined()).then(|| string_list(&value, name).map(Option::unwrap_or_default))
    };
    let (roles, scopes) = (list("roles"), list("scopes"));
    let readable = |list: &Option<Result<Vec<String>, JsValue>>| {
        list.as_ref().map(|read| read.clone().unwrap_or_default())
    };
    let request = KeyRequest {
        kind: key_type,
        roles: readable(&roles),
        scopes: readable(&scopes),
        services,
    };
    if let Err(error) = request.grant() {
        if matches!(
            error,
            KeyRequestError::ScopesOnPersonal | KeyRequestError::RolesOnService
        ) {
            return Err(to_js(&error));
        }
    }
    roles.transpose()?;
    scopes.transpose()?;
    let random = args::random_bytes::<32>()?;
    let issued = request.issue(id, &random).map_err(|error| to_js(&error))?;
    let expires_at = args::member(&options, "expiresAt");
    let issued = if expires_at.is_undefined() || expires_at.is_null() {
        issued
    } else {
        issued.with_expiry(args::time(&expires_at, "expiresAt")?.as_secs())
    };
    // Validate the id as a store would.
    store_of(core::slice::from_ref(&issued)).map_err(|error| to_js(&error))?;
    let created = Created {
        key: issued.key().expose_secret(),
        redacted: issued.key().redacted(),
        record: issued.record(),
    };
    to_js_value(&created)
}

/// Checks a key's format and checksum offline; returns its type, redacted form and digest.
#[wasm_bindgen(js_name = parseApiKey, unchecked_return_type = "ParsedApiKey")]
pub fn parse_api_key(
    #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
) -> Result<JsValue, JsValue> {
    let key = ApiKey::parse(&args::string_arg(&key, "key")?).map_err(|error| to_js(&error))?;
    let parsed = Parsed {
        key_type: key.key_type().as_str(),
        redacted: key.redacted(),
        digest: key.digest().to_hex(),
    };
    to_js_value(&parsed)
}

/// The SHA-256 digest (64 hex digits) under which a store keeps `key`; throws `ERR_KEY_*`
/// for text that is not a well-formed key.
#[wasm_bindgen(js_name = hashApiKey)]
pub fn hash_api_key(
    #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
) -> Result<String, JsValue> {
    let key = ApiKey::parse(&args::string_arg(&key, "key")?).map_err(|error| to_js(&error))?;
    Ok(key.digest().to_hex())
}

/// The development key set (one personal key per role, four service keys), from the
/// host's randomness or a 32-byte `seed`, expiring 30 days after `now`.
#[wasm_bindgen(js_name = devKeySet, unchecked_return_type = "DevKeySet")]
pub fn dev_keys(
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Uint8Array | number[] | null")] seed: JsValue,
) -> Result<JsValue, JsValue> {
    let now = args::time(&now, "now")?.as_secs();
    let seed = if seed.is_undefined() || seed.is_null() {
        None
    } else {
        Some(args::bytes(&seed, "seed")?)
    };
    let seed: [u8; 32] = match seed {
        None => args::random_bytes::<32>()?,
        Some(bytes) => bytes
            .try_into()
            .map_err(|_| invalid_argument("seed", "32 bytes"))?,
    };
    let keys = dev_key_set(&seed, now);
    let store = store_of(&keys).map_err(|error| to_js(&error))?;
    to_js_value(&DevKeys {
        keys: &keys,
        key_store: &store,
    })
}

/// The endpoint → scope table: every route with its requirement, basis and rationale.
#[wasm_bindgen(js_name = accessRouteTable, unchecked_return_type = "AccessRoute[]")]
pub fn access_route_table() -> Result<JsValue, JsValue> {
    args::parse_json(&route_table_json())
}

/// The spec's role → scope table.
#[wasm_bindgen(js_name = roleScopes, unchecked_return_type = "Record<Role, Scope[]>")]
pub fn role_scopes() -> Result<JsValue, JsValue> {
    let mut map = serde_json::Map::new();
    for role in Role::ALL {
        let scopes = serde_json::to_value(role.scopes()).unwrap_or_default();
        map.insert(role.as_str().into(), scopes);
    }
    to_js_value(&map)
}

/// An optional options object as a plain value (`undefined` when absent).
pub(crate) fn options_value(options: Option<js_sys::Object>) -> JsValue {
    options.map_or(JsValue::UNDEFINED, JsValue::from)
}

/// Unix seconds from a JS number: finite, non-negative, integral, at most 2^53.
pub(crate) fn unix_seconds(value: f64, field: &str) -> Result<u64, JsValue> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    if !value.is_finite() || value < 0.0 || value.fract() != 0.0 || value > MAX_SAFE {
        return Err(invalid_argument(
            field,
            "Unix seconds (a non-negative integer)",
        ));
    }
    Ok(value as u64)
}

pub(crate) fn to_js_value<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    super::convert::to_js(value)
}

fn decision_to_js(decision: &Decision) -> Result<JsValue, JsValue> {
    args::parse_json(&decision.to_json())
}

/// The path and query of a URL or a path (`https://h/p?q` → `/p?q`).
fn target_of(url: &str) -> &str {
    let Some(scheme_end) = url.find("://") else {
        return url;
    };
    let after = url.get(scheme_end + 3..).unwrap_or("");
    match after.find(['/', '?']) {
        Some(start) => after.get(start..).unwrap_or("/"),
        None => "/",
    }
}

/// Client headers from a `Headers` object or an iterable of [name, value] pairs, each
/// admitted by the core's budget before it is copied (a JS string's UTF-16 length is at
/// most its UTF-8 length); the inner error is the budget's refusal.
fn headers_from(
    value: &JsValue,
) -> Result<Result<Vec<(String, String)>, crate::access::Denial>, JsValue> {
    let mut headers = Vec::new();
    if value.is_undefined() || value.is_null() {
        return Ok(Ok(headers));
    }
    let expected = "a Headers object or an iterable of [name, value] pairs";
    let iter = js_sys::try_iter(value)
        .ok()
        .flatten()
        .ok_or_else(|| invalid_argument("request.headers", expected))?;
    let mut budget = HeaderBudget::new();
    for (i, item) in iter.enumerate() {
        let item = item?;
        let field = alloc::format!("request.headers[{i}]");
        let (name, value) = (args::member(&item, "0"), args::member(&item, "1"));
        let units = |v: &JsValue| v.dyn_ref::<js_sys::JsString>().map(|s| s.length() as usize);
        let (Some(name_units), Some(value_units)) = (units(&name), units(&value)) else {
            return Err(invalid_argument(&field, "a [name, value] pair of strings"));
        };
        if let Err(denial) = budget.admit(name_units, value_units) {
            return Ok(Err(denial));
        }
        headers.push((
            args::required_string(&name, &field)?,
            args::required_string(&value, &field)?,
        ));
    }
    Ok(Ok(headers))
}

fn key_store_from(value: &JsValue, field: &str) -> Result<KeyStore, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Err(invalid_argument(field, "a key store (JSON text or object)"));
    }
    let bytes = args::json_bytes(value, field)?;
    KeyStore::from_json(&bytes).map_err(|error| to_js(&error))
}

fn config_from(options: &JsValue) -> Result<GatewayConfig, JsValue> {
    let realm = args::optional_string(&args::member(options, "realm"), "realm")?;
    let service = args::optional_string(&args::member(options, "service"), "service")?;
    if realm.is_none() && service.is_none() {
        return Ok(GatewayConfig::default());
    }
    GatewayConfig::new(
        realm.as_deref().unwrap_or(GatewayConfig::DEFAULT_REALM),
        service.as_deref().unwrap_or(SIMULATION_SERVICE),
    )
    .map_err(|error| to_js(&error))
}

fn string_list(value: &JsValue, field: &str) -> Result<Option<Vec<String>>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !js_sys::Array::is_array(value) {
        return Err(invalid_argument(field, "an array of strings"));
    }
    js_sys::Array::from(value)
        .iter()
        .enumerate()
        .map(|(i, item)| args::required_string(&item, &alloc::format!("{field}[{i}]")))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

#[derive(Serialize)]
struct Created<'a> {
    key: &'a str,
    redacted: String,
    record: &'a crate::access::KeyRecord,
}

#[derive(Serialize)]
struct Parsed {
    #[serde(rename = "type")]
    key_type: &'static str,
    redacted: String,
    digest: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DevKeys<'a> {
    keys: &'a [IssuedKey],
    key_store: &'a KeyStore,
}
