//! JS API for `crate::access`: `gatewayDecision`, `evaluateAccess`, `createApiKey`,
//! `parseApiKey`, `hashApiKey`, `devKeySet`, `accessRouteTable`, `roleScopes`.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::error::{coded, invalid_argument, to_js};
use super::js;
use crate::access::{
    authorize, decide_for_record, dev_key_set, route_table_json, store_of, ApiKey, Decision,
    GatewayConfig, GatewayRequest, HeaderBudget, IssuedKey, KeyStore, KeyType, Method, Role, Scope,
    ScopeSet, SIMULATION_SERVICE,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_ACCESS: &str = r#"
export type Scope =
  | "lab:simulation_read" | "lab:simulation_create" | "lab:simulation_edit"
  | "lab:simulation_delete" | "lab:simulation_start_stop" | "lab:image_read"
  | "lab:image_write" | "lab:image_publish" | "lab:image_sharing" | "lab:image_claiming"
  | "lab:marketplace_demo_write" | "lab:marketplace_demo_publish" | "lab:training_instructor";
export type Role =
  | "lab_user" | "lab_org_admin" | "lab_instructor" | "lab_demo_manager"
  | "lab_image_uploader" | "lab_image_publisher" | "lab_image_sharer" | "lab_image_claimer";

/** A stored key (key-store JSON form): never the key, only its SHA-256 digest. */
export interface KeyRecord {
  id: string;
  type: "personal" | "service";
  /** 64 hex digits: SHA-256 of the key text. */
  digest: string;
  /** Personal keys only. */
  roles?: Role[];
  /** Service keys only. */
  scopes?: Scope[];
  /** Services the key was issued for; it grants nothing elsewhere ("simulation"). */
  services: string[];
  /** Unix seconds. */
  expiresAt?: number;
  /** Unix seconds. */
  revokedAt?: number;
}
export interface KeyStoreJson { keys: KeyRecord[] }

/** The parts of a request the gateway looks at. */
export interface GatewayRequestInit {
  method: string;
  /** The path with optional ?query, or a full URL (only its path and query are used). */
  url: string;
  /** The Authorization header value, if any (`headers.get("authorization")`). */
  authorization?: string | null;
  /**
   * Every client header: a `Headers` object or [name, value] pairs. The decision's
   * `forward.headers` is built from them; without them it holds the gateway's headers only.
   * At most 128 headers and 64 KiB (431 `ERR_ACCESS_TOO_MANY_HEADERS`,
   * `ERR_ACCESS_HEADERS_TOO_LARGE`).
   */
  headers?: Iterable<[string, string]> | null;
}

export interface GatewayOptions {
  /** WWW-Authenticate realm; default "edgeattest". */
  realm?: string;
  /** The service keys must be issued for; default "simulation". */
  service?: string;
}

/**
 * A denial's body: the members of every error body of the service (`code`, `message`,
 * `field`, `status`), then the details of a 403 or 405. The RFC 6750 `error`,
 * `error_description` and `scope` are in the `WWW-Authenticate` header only.
 */
export interface AccessErrorBody {
  /** `ERR_ACCESS_*`. */
  code: string;
  /** The sentence of the challenge's `error_description`. */
  message: string;
  /** "Authorization" (or "access_token") for credential refusals. */
  field?: string;
  status: number;
  route?: string;
  requirement?: "all_of" | "any_of";
  requiredScopes?: Scope[];
  grantedScopes?: Scope[];
  missingScopes?: Scope[];
  allowedMethods?: string[];
}

/** Exactly what to send upstream: request `target` with `headers`, the method and the body. */
export interface GatewayForward {
  /** The canonical path, without the query. */
  path: string;
  /** The canonical path and the query without method overrides (`_method`). */
  target: string;
  /** The client's headers that survive stripping, then the gateway's own, each once. */
  headers: [string, string][];
  /** The gateway's own X-Edgeattest-* headers (also in `headers`). */
  setHeaders: [string, string][];
  /** The client's header names that were stripped, "Authorization" first. */
  removeHeaders: string[];
}

/** What the gateway must do: forward (allow) or answer with status, headers and body. */
export interface GatewayDecision {
  allow: boolean;
  /** 0 when forwarded. */
  status: number;
  /** [name, value] pairs for the answer (usable with `new Headers(...)`). */
  headers: [string, string][];
  body: AccessErrorBody | null;
  forward: GatewayForward | null;
  /** For the host's logs only; never send it to the client. */
  audit: { reason: string; keyId?: string; route?: string };
}

export interface EvaluateAccessOptions extends GatewayOptions {
  /** Required when the first argument is a key or an Authorization value. */
  keyStore?: string | KeyStoreJson;
  /** Unix seconds; default now. */
  now?: number;
}

export interface CreateApiKeyOptions {
  type: "personal" | "service";
  id: string;
  roles?: Role[];
  scopes?: Scope[];
  /** Default ["simulation"]. */
  services?: string[];
  expiresAt?: number;
}

/** A new key: show `key` once, store `record`. */
export interface CreatedApiKey { key: string; redacted: string; record: KeyRecord }

export interface ParsedApiKey { type: "personal" | "service"; redacted: string; digest: string }

export interface DevKey {
  id: string; type: "personal" | "service"; key: string;
  roles?: Role[]; scopes: Scope[]; services: string[]; expiresAt: number;
}
export interface DevKeySet { keys: DevKey[]; keyStore: KeyStoreJson }

export interface AccessRoute {
  method: string; path: string; resource: string;
  requires: { all_of: Scope[] } | { any_of: Scope[] };
  basis: "direct" | "inferred"; rationale: string;
}
"#;

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
    let method = js::required_string(&js::member(request, "method"), "request.method")?;
    let url = js::required_string(&js::member(request, "url"), "request.url")?;
    let authorization = js::optional_string(
        &js::member(request, "authorization"),
        "request.authorization",
    )?;
    let now = unix_seconds(js::number_arg(now, "now")?, "now")?;
    let headers = match headers_from(&js::member(request, "headers"))? {
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
    let method: &str = &js::string_arg(&method, "method")?;
    let path: &str = &js::string_arg(&path, "path")?;
    let options = options_value(options);
    let config = config_from(&options)?;
    let now = match js::member(&options, "now").as_f64() {
        Some(now) => unix_seconds(now, "options.now")?,
        None => unix_seconds((js_sys::Date::now() / 1000.0).floor(), "now")?,
    };
    let target = target_of(path);
    let decision = if let Some(text) = key.as_string() {
        let store = key_store_from(&js::member(&options, "keyStore"), "options.keyStore")?;
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
        let record = js::json_bytes(&key, "key")?;
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
    let type_name = js::required_string(&js::member(&options, "type"), "type")?;
    let key_type = KeyType::parse(&type_name)
        .ok_or_else(|| invalid_argument("type", "\"personal\" or \"service\""))?;
    let id = js::required_string(&js::member(&options, "id"), "id")?;
    let services = match string_list(&js::member(&options, "services"), "services")? {
        Some(list) => list,
        None => alloc::vec![String::from(SIMULATION_SERVICE)],
    };
    let random = js::random_bytes::<32>()?;
    let issued = match key_type {
        KeyType::Personal => {
            if !js::member(&options, "scopes").is_undefined() {
                return Err(coded(
                    "ERR_INVALID_ARGUMENT",
                    "personal keys get their scopes from roles; scopes is not allowed",
                    Some("scopes"),
                ));
            }
            let mut roles = Vec::new();
            for (i, name) in string_list(&js::member(&options, "roles"), "roles")?
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                let role = Role::parse(name).ok_or_else(|| {
                    invalid_argument(&alloc::format!("roles[{i}]"), "a role name")
                })?;
                roles.push(role);
            }
            IssuedKey::personal(id, roles, services, &random)
        }
        KeyType::Service => {
            if !js::member(&options, "roles").is_undefined() {
                return Err(coded(
                    "ERR_INVALID_ARGUMENT",
                    "service keys hold exactly their chosen scopes; roles is not allowed",
                    Some("roles"),
                ));
            }
            let mut scopes = ScopeSet::EMPTY;
            for (i, name) in string_list(&js::member(&options, "scopes"), "scopes")?
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                let scope = Scope::parse(name).ok_or_else(|| {
                    invalid_argument(&alloc::format!("scopes[{i}]"), "a scope name")
                })?;
                scopes.insert(scope);
            }
            IssuedKey::service(id, scopes, services, &random)
        }
    };
    let issued = match js::member(&options, "expiresAt").as_f64() {
        Some(at) => issued.with_expiry(unix_seconds(at, "expiresAt")?),
        None => issued,
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
    let key = ApiKey::parse(&js::string_arg(&key, "key")?).map_err(|error| to_js(&error))?;
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
    let key = ApiKey::parse(&js::string_arg(&key, "key")?).map_err(|error| to_js(&error))?;
    Ok(key.digest().to_hex())
}

/// The development key set (one personal key per role, four service keys), from the
/// host's randomness or a 32-byte `seed`, expiring 30 days after `now`.
#[wasm_bindgen(js_name = devKeySet, unchecked_return_type = "DevKeySet")]
pub fn dev_keys(
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Uint8Array | number[] | null")] seed: JsValue,
) -> Result<JsValue, JsValue> {
    let now = unix_seconds(js::number_arg(&now, "now")?, "now")?;
    let seed = if seed.is_undefined() || seed.is_null() {
        None
    } else {
        Some(js::bytes(&seed, "seed")?)
    };
    let seed: [u8; 32] = match seed {
        None => js::random_bytes::<32>()?,
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
    js::parse_json(&route_table_json())
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
    let text = serde_json::to_string(value)
        .map_err(|_| coded("ERR_INTERNAL", "internal JSON error", None))?;
    js::parse_json(&text)
}

fn decision_to_js(decision: &Decision) -> Result<JsValue, JsValue> {
    js::parse_json(&decision.to_json())
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
        let (name, value) = (js::member(&item, "0"), js::member(&item, "1"));
        let units = |v: &JsValue| v.dyn_ref::<js_sys::JsString>().map(|s| s.length() as usize);
        let (Some(name_units), Some(value_units)) = (units(&name), units(&value)) else {
            return Err(invalid_argument(&field, "a [name, value] pair of strings"));
        };
        if let Err(denial) = budget.admit(name_units, value_units) {
            return Ok(Err(denial));
        }
        headers.push((
            js::required_string(&name, &field)?,
            js::required_string(&value, &field)?,
        ));
    }
    Ok(Ok(headers))
}

fn key_store_from(value: &JsValue, field: &str) -> Result<KeyStore, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Err(invalid_argument(field, "a key store (JSON text or object)"));
    }
    let bytes = js::json_bytes(value, field)?;
    KeyStore::from_json(&bytes).map_err(|error| to_js(&error))
}

fn config_from(options: &JsValue) -> Result<GatewayConfig, JsValue> {
    let realm = js::optional_string(&js::member(options, "realm"), "realm")?;
    let service = js::optional_string(&js::member(options, "service"), "service")?;
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
        .map(|(i, item)| js::required_string(&item, &alloc::format!("{field}[{i}]")))
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
