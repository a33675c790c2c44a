//! JS API for `crate::access`: `gatewayDecision`, `ApiGateway`, `evaluateAccess`,
//! `createApiKey`, `parseApiKey`, `hashApiKey`, `devKeySet`, `accessRouteTable`, `roleScopes`.
//! Options are the core's serde types (`AccessOptions`, `NewKeyOptions`); what stays here is
//! reading JS values: a request's `Headers`, key stores as text or objects, `Date`s, randomness.

use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::args;
use super::convert::{
    json_to_js as to_js_value, optional_options_from_js, options_from_js, parse_json, Js,
};
use super::error::{invalid_argument, OrJs};
use crate::access::{
    authorize, evaluate_access as decide_access, route_table_json, target_of, AccessKey,
    AccessOptions, ApiKey, DevKeys, GatewayConfig, GatewayRequest, HeaderBudget, KeyRecord,
    KeyStore, KeySummary, NewKeyOptions, RoleScopes,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_ACCESS: &str = include_str!("types/access.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_ACCESS_HAND: &str = include_str!("types/hand/access.d.ts");

/// The gateway's decision for one request against a key store (JSON text or object, in
/// the key-store form), at `now` (Unix seconds): the credential (a Bearer API key, never one
/// in the URL), the key's digest in the store, its expiry and revocation, the service it was
/// issued for, and the route's required scopes. A denial is a decision (status, headers,
/// body), not a throw. The store is parsed on every call: a host that decides many requests
/// against one store keeps an `ApiGateway`.
///
/// @throws EdgeAttestError `ERR_KEYSTORE_*` for a key store that does not read (e.g.
/// `ERR_KEYSTORE_MALFORMED_JSON`, `ERR_KEYSTORE_DUPLICATE_ID`, `ERR_KEYSTORE_UNKNOWN_SCOPE`),
/// `ERR_ACCESS_INVALID_REALM` / `ERR_ACCESS_INVALID_SERVICE` for options the challenge
/// cannot carry, `ERR_INVALID_ARGUMENT` for arguments of the wrong shape.
///
/// @example
/// ```ts
/// declare const request: Request; // the client's request
/// declare const keyStoreJson: string; // { keys: [KeyRecord, …] }
/// const decision = gatewayDecision(
///   { method: request.method, url: request.url, authorization: request.headers.get('authorization'), headers: request.headers },
///   keyStoreJson,
///   Math.floor(Date.now() / 1000),
/// );
/// if (!decision.allow) {
///   const response = new Response(JSON.stringify(decision.body), { status: decision.status, headers: decision.headers });
/// }
/// ```
#[wasm_bindgen(js_name = gatewayDecision, unchecked_return_type = "GatewayDecision")]
pub fn gateway_decision(
    #[wasm_bindgen(unchecked_param_type = "GatewayRequestInit")] request: JsValue,
    #[wasm_bindgen(js_name = keyStore, unchecked_param_type = "string | KeyStoreJson")]
    key_store: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "GatewayOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    // One decision: the index keeps the key derived from the stored digests (the core's
    // fallback), sparing a second index build and a call for randomness per request.
    ApiGateway::build(key_store, options, false)?.decide(request, now)
}

/// The gateway over one key store, parsed and checked once: `decide` is
/// `gatewayDecision` without parsing the store again. `free()` releases it.
#[wasm_bindgen]
pub struct ApiGateway {
    store: KeyStore,
    config: GatewayConfig,
}

#[wasm_bindgen]
impl ApiGateway {
    /// Parses the key store (JSON text or object) and the options. Throws `ERR_KEYSTORE_*` for a key store that does not read (e.g.
    /// `ERR_KEYSTORE_MALFORMED_JSON`, `ERR_KEYSTORE_DUPLICATE_ID`, `ERR_KEYSTORE_UNKNOWN_SCOPE`),
    /// `ERR_ACCESS_INVALID_REALM` / `ERR_ACCESS_INVALID_SERVICE` for options the challenge
    /// cannot carry, `ERR_INVALID_ARGUMENT` for arguments of the wrong shape.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = keyStore, unchecked_param_type = "string | KeyStoreJson")]
        key_store: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "GatewayOptions")] options: JsValue,
    ) -> Result<ApiGateway, JsValue> {
        Self::build(key_store, options, true)
    }

    /// The decision for one request at `now` (Unix seconds), as `gatewayDecision` makes it.
    /// Throws `ERR_INVALID_ARGUMENT` for a request or `now` of the wrong shape.
    #[wasm_bindgen(unchecked_return_type = "GatewayDecision")]
    pub fn decide(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GatewayRequestInit")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<JsValue, JsValue> {
        if !request.is_object() {
            return Err(invalid_argument("request", "an object"));
        }
        let member = |name| args::member(&request, name);
        let method = args::required_string(&member("method"), "request.method")?;
        let url = args::required_string(&member("url"), "request.url")?;
        let authorization =
            args::optional_string(&member("authorization"), "request.authorization")?;
        let now = args::time(&now, "now")?;
        let headers = match headers_from(&member("headers"))? {
            Ok(headers) => headers,
            Err(denial) => {
                return to_js_value(&crate::access::Decision::over_budget(&self.config, denial))
            }
        };
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (&**n, &**v)).collect();
        let request = GatewayRequest {
            method: &method,
            target: target_of(&url),
            authorization: authorization.as_deref(),
            headers: &headers,
        };
        to_js_value(&authorize(&request, &self.store, &self.config, now))
    }
}

impl ApiGateway {
    /// The gateway over `key_store`; `seeded`: its index keyed from the host's randomness
    /// when there is any (a gateway serves many requests), else from the stored digests.
    fn build(key_store: JsValue, options: JsValue, seeded: bool) -> Result<Self, JsValue> {
        let mut store = key_store_from(Some(&key_store), "keyStore")?;
        // `Js`: a `keyStore` member (EvaluateAccessOptions') is not read here; no JSON value
        // reader through serde-wasm-bindgen for it.
        let options: AccessOptions<Js> = optional_options_from_js(&options)?;
        let config = options.config().or_js()?;
        if seeded {
            // Without randomness the derived index key stands; it is safe too (the core's
            // index documentation), so a host without it is not refused.
            if let Ok(seed) = args::random_bytes::<32>() {
                store = store.with_index_seed(&seed);
            }
        }
        Ok(Self { store, config })
    }
}

/// Decides whether a key may call `method` `path`: allow or deny, with the reasons (the
/// route's required scopes against the key's, its expiry and revocation, the service it was
/// issued for). `key` is a key record (object), an API key (`eak_…`), or an `Authorization`
/// value (`Bearer eak_…`); the last two need `options.keyStore`. A denial is a decision, not
/// a throw.
///
/// @throws EdgeAttestError `ERR_KEYSTORE_*` for a key store that does not read (e.g.
/// `ERR_KEYSTORE_MALFORMED_JSON`, `ERR_KEYSTORE_DUPLICATE_ID`, `ERR_KEYSTORE_UNKNOWN_SCOPE`),
/// `ERR_ACCESS_INVALID_REALM` / `ERR_ACCESS_INVALID_SERVICE` for options the challenge
/// cannot carry, `ERR_INVALID_ARGUMENT` for arguments of the wrong shape, a key record that does not read, or a key text
/// without `options.keyStore`.
///
/// @example
/// ```ts
/// declare const keyStore: KeyStoreJson;
/// declare const apiKey: string; // eak_…
/// const decision = evaluateAccess(apiKey, 'POST', '/api/v3/simulations/', { keyStore });
/// console.log(decision.allow, decision.body?.missingScopes);
/// ```
#[wasm_bindgen(js_name = evaluateAccess, unchecked_return_type = "GatewayDecision")]
pub fn evaluate_access(
    #[wasm_bindgen(unchecked_param_type = "KeyRecord | string")] key: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "EvaluateAccessOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let method = args::string_arg(&method, "method")?;
    let path = args::string_arg(&path, "path")?;
    let options: AccessOptions<Js, Js> = optional_options_from_js(&options)?;
    let config = options.config().or_js()?;
    let now = options.now.map_or(JsValue::UNDEFINED, |now| now.0);
    let now = args::time_or_clock(&now, "options.now")?;
    let decide = |key| Ok(decide_access(key, &method, &path, &config, now));
    let decision = if let Some(text) = key.as_string() {
        let store = key_store_from(options.key_store.as_ref().map(|s| &s.0), "options.keyStore")?;
        decide(AccessKey::Text {
            text: &text,
            store: &store,
        })
    } else if key.is_object() {
        let record = KeyRecord::from_json(&args::json_bytes(&key, "key")?);
        decide(AccessKey::Record(&record.or_js()?))
    } else {
        let expected = "a key record, an API key or a Bearer value";
        Err(invalid_argument("key", expected))
    };
    to_js_value(&decision?)
}

/// Creates an API key from the host's randomness: the secret (show it once) and its record
/// for the key store (only the key's SHA-256 digest).
///
/// @throws EdgeAttestError `ERR_KEYSTORE_*` / `ERR_ACCESS_*` for a record the store would
/// refuse (e.g. `ERR_KEYSTORE_INVALID_ID`, `ERR_KEYSTORE_UNKNOWN_ROLE`),
/// `ERR_INVALID_ARGUMENT` for options of the wrong shape, `ERR_NO_RANDOMNESS` when the host
/// has no randomness.
///
/// @example
/// ```ts
/// const { key, record } = createApiKey({ type: 'personal', id: 'alice', roles: ['lab_user'] });
/// console.log('your key (shown once):', key);
/// const keyStore: KeyStoreJson = { keys: [record] };
/// ```
#[wasm_bindgen(js_name = createApiKey, unchecked_return_type = "CreatedApiKey")]
pub fn create_api_key(
    #[wasm_bindgen(unchecked_param_type = "CreateApiKeyOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options: NewKeyOptions<Js> = options_from_js(&options)?;
    let expires_at = match &options.expires_at {
        Some(Js(at)) if !at.is_null() => Some(args::time(at, "expiresAt")?),
        _ => None,
    };
    let created = options.issue_at(&args::random_bytes::<32>()?, expires_at);
    to_js_value(&created.or_js()?)
}

/// Checks an API key's format and checksum offline (no store needed); returns its type,
/// redacted form and digest.
///
/// @throws EdgeAttestError `ERR_KEY_*` for text that is not a well-formed key
/// (`ERR_KEY_PREFIX`, `ERR_KEY_LENGTH`, `ERR_KEY_CHARSET`, `ERR_KEY_CHECKSUM`,
/// `ERR_KEY_TYPE`), `ERR_INVALID_ARGUMENT` for an argument that is not a string.
///
/// @example
/// ```ts
/// declare const apiKey: string;
/// const { type, redacted } = parseApiKey(apiKey);
/// console.log(`${type} key ${redacted}`);
/// ```
#[wasm_bindgen(js_name = parseApiKey, unchecked_return_type = "ParsedApiKey")]
pub fn parse_api_key(
    #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
) -> Result<JsValue, JsValue> {
    to_js_value(&KeySummary::from(&api_key(&key)?))
}

/// The SHA-256 digest (64 hex digits) under which a key store keeps `key`, after checking
/// the key's format and checksum.
///
/// @throws EdgeAttestError `ERR_KEY_*` for text that is not a well-formed key,
/// `ERR_INVALID_ARGUMENT` for an argument that is not a string.
///
/// @example
/// ```ts
/// declare const apiKey: string;
/// const digest = hashApiKey(apiKey); // the `digest` of its KeyRecord
/// ```
#[wasm_bindgen(js_name = hashApiKey)]
pub fn hash_api_key(
    #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
) -> Result<String, JsValue> {
    Ok(api_key(&key)?.digest().to_hex())
}

/// The development key set (one personal key per role, four service keys) with its key
/// store, from the host's randomness or a 32-byte `seed`, expiring 30 days after `now`. For
/// development only: a seed makes the keys predictable.
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a `now` that is not a time or a seed
/// that is not 32 bytes, `ERR_NO_RANDOMNESS` without a seed when the host has no randomness.
///
/// @example
/// ```ts
/// const { keys, keyStore } = devKeySet(Math.floor(Date.now() / 1000));
/// for (const key of keys) console.log(key.id, key.type, key.scopes.join(' '));
/// ```
#[wasm_bindgen(js_name = devKeySet, unchecked_return_type = "DevKeySet")]
pub fn dev_keys(
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Uint8Array | number[] | null")] seed: JsValue,
) -> Result<JsValue, JsValue> {
    let now = args::time(&now, "now")?;
    let seed: [u8; 32] = if seed.is_undefined() || seed.is_null() {
        args::random_bytes::<32>()?
    } else {
        let seed = args::bytes(&seed, "seed")?.try_into();
        seed.map_err(|_| invalid_argument("seed", "32 bytes"))?
    };
    to_js_value(&DevKeys::new(&seed, now))
}

/// The endpoint → scope table the gateway applies: every route with its requirement
/// (`all_of` or `any_of` scopes), basis and rationale.
///
/// @example
/// ```ts
/// for (const route of accessRouteTable()) console.log(route.method, route.path, route.requires);
/// ```
#[wasm_bindgen(js_name = accessRouteTable, unchecked_return_type = "AccessRoute[]")]
pub fn access_route_table() -> Result<JsValue, JsValue> {
    parse_json(&route_table_json())
}

/// The role → scope table: the scopes each role of a personal key grants.
///
/// @example
/// ```ts
/// const scopes = roleScopes()['lab_user'];
/// ```
#[wasm_bindgen(js_name = roleScopes, unchecked_return_type = "Record<Role, Scope[]>")]
pub fn role_scopes() -> Result<JsValue, JsValue> {
    to_js_value(&RoleScopes)
}

fn api_key(key: &JsValue) -> Result<ApiKey, JsValue> {
    ApiKey::parse(&args::string_arg(key, "key")?).or_js()
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
        // The pair's name is only written for an error (a request's headers are read on
        // every decision).
        let refused =
            |expected| invalid_argument(&alloc::format!("request.headers[{i}]"), expected);
        let (name, value) = (args::member(&item, "0"), args::member(&item, "1"));
        let units = |v: &JsValue| v.dyn_ref::<js_sys::JsString>().map(|s| s.length() as usize);
        let (Some(name_units), Some(value_units)) = (units(&name), units(&value)) else {
            return Err(refused("a [name, value] pair of strings"));
        };
        if let Err(denial) = budget.admit(name_units, value_units) {
            return Ok(Err(denial));
        }
        let text = |v: &JsValue| v.as_string().ok_or_else(|| refused("a string"));
        headers.push((text(&name)?, text(&value)?));
    }
    Ok(Ok(headers))
}

/// A key store from JSON text or an object.
fn key_store_from(value: Option<&JsValue>, field: &str) -> Result<KeyStore, JsValue> {
    let value = value.filter(|value| !value.is_undefined() && !value.is_null());
    let value =
        value.ok_or_else(|| invalid_argument(field, "a key store (JSON text or object)"))?;
    KeyStore::from_json(&args::json_bytes(value, field)?).or_js()
}
