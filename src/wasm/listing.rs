//! JS API for `crate::listing`: the `ListTable` handle (load rows once, answer many
//! queries), `generateDataset`, the one-shot `listPage`, `listSchemas` and `listLimits`.
//! Results are the core's (`Page` JSON, `ListResponse`, `Schema`, `ListLimits`).

use alloc::string::String;

use js_sys::Reflect;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::error::{to_js, OrJs};
use super::{args, convert};
use crate::listing::{
    generate_json, generate_table, list_response, respond, ListError, ListLimits, Schema, Table,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_LISTING: &str = include_str!("types/listing.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_LISTING_HAND: &str = include_str!("types/hand/listing.d.ts");

/// One list endpoint's items, loaded and checked against its schema once; each query
/// filters, sorts and pages them. `free()` releases it.
#[wasm_bindgen]
pub struct ListTable {
    table: Table,
}

#[wasm_bindgen]
impl ListTable {
    /// Loads items for `path`: a JSON array as text or bytes (`Uint8Array`, or the
    /// `ArrayBuffer` of a fetched upstream response), or an array of objects. Throws
    /// `ERR_LIST_UNKNOWN_PATH` for a path that is not a list endpoint, `ERR_LIST_DATA_*` for
    /// items that do not fit its schema (e.g. `ERR_LIST_DATA_MISSING_FIELD`,
    /// `ERR_LIST_DATA_DUPLICATE_KEY`, `ERR_LIST_DATA_TOO_MANY_ROWS`).
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | ArrayBuffer | object[]")]
        rows: JsValue,
    ) -> Result<ListTable, JsValue> {
        let schema = schema(&path)?;
        let bytes = if rows.is_instance_of::<js_sys::ArrayBuffer>() {
            js_sys::Uint8Array::new(&rows).to_vec()
        } else {
            args::json_bytes(&rows, "rows")?
        };
        let table = Table::from_json(schema, &bytes).or_js()?;
        Ok(ListTable { table })
    }

    /// A table of `count` generated items (deterministic for `seed`; see `generateDataset`).
    /// Throws `ERR_LIST_UNKNOWN_PATH`, `ERR_LIST_DATA_TOO_MANY_ROWS`, or
    /// `ERR_INVALID_ARGUMENT` for a count or seed that is not a 32-bit whole number.
    pub fn generate(
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] count: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] seed: JsValue,
    ) -> Result<ListTable, JsValue> {
        let (schema, count, seed) = generated(&path, &count, &seed)?;
        let table = generate_table(schema, count, seed).or_js()?;
        Ok(ListTable { table })
    }

    /// Runs a query string (`page_number`, `rpp`, `filter`, `sorting`; with or without `?`)
    /// and returns the page envelope. Throws an `EdgeAttestError`: `ERR_LIST_*` with `field` (the parameter) and `status` 400 for an
    /// invalid query (e.g. `ERR_LIST_MALFORMED_FILTER`, `ERR_LIST_UNKNOWN_COLUMN`,
    /// `ERR_LIST_RPP_TOO_LARGE`, `ERR_LIST_PAGE_OUT_OF_RANGE`).
    #[wasm_bindgen(unchecked_return_type = "ListPage")]
    pub fn query(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
    ) -> Result<JsValue, JsValue> {
        convert::parse_json(&self.query_json(query)?)
    }

    /// As `query`, but returns the envelope as JSON text (ready to send as a body); throws
    /// as `query` does.
    #[wasm_bindgen(js_name = queryJson)]
    pub fn query_json(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
    ) -> Result<String, JsValue> {
        let query = args::string_arg(&query, "query")?;
        list_response(self.path_str(), &query, &self.table).map_err(|error| list_error(&error))
    }

    /// Answers a request without throwing for client errors: `{status, body}` with the
    /// envelope (200) or the error body (400).
    #[wasm_bindgen(unchecked_return_type = "ListResponse")]
    pub fn respond(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
    ) -> Result<JsValue, JsValue> {
        let query = args::string_arg(&query, "query")?;
        convert::to_js(&respond(self.path_str(), &query, &self.table))
    }

    /// The number of items loaded.
    #[wasm_bindgen(getter)]
    pub fn len(&self) -> u32 {
        u32::try_from(self.table.len()).unwrap_or(u32::MAX)
    }

    /// Whether the table holds no item.
    #[wasm_bindgen(getter, js_name = isEmpty)]
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The endpoint path of the table.
    #[wasm_bindgen(getter)]
    pub fn path(&self) -> String {
        String::from(self.path_str())
    }
}

impl ListTable {
    fn path_str(&self) -> &'static str {
        self.table.schema().path
    }
}

/// Generates `count` deterministic items for list endpoint `path` (SplitMix64 seeded with
/// `seed`), as an array of objects that fit its schema: test and demo data.
///
/// @throws EdgeAttestError `ERR_LIST_UNKNOWN_PATH`, `ERR_LIST_DATA_TOO_MANY_ROWS`,
/// `ERR_INVALID_ARGUMENT` for a count or seed that is not a 32-bit whole number.
///
/// @example
/// ```ts
/// const rows = generateDataset('/analytics/anomalies/network', 100, 42);
/// const table = ListTable.fromJson('/analytics/anomalies/network', rows);
/// ```
#[wasm_bindgen(js_name = generateDataset, unchecked_return_type = "Record<string, unknown>[]")]
pub fn generate_dataset(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] count: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] seed: JsValue,
) -> Result<JsValue, JsValue> {
    let (schema, count, seed) = generated(&path, &count, &seed)?;
    convert::parse_json(&generate_json(schema, count, seed).or_js()?)
}

/// Runs one list query (`page_number`, `rpp`, `filter`, `sorting`) over rows loaded for
/// this call only, and returns the page envelope (load once with `ListTable` instead when the
/// rows serve several queries).
///
/// @throws EdgeAttestError `ERR_LIST_UNKNOWN_PATH`, `ERR_LIST_DATA_*` for rows that do not fit
/// the endpoint's schema, `ERR_LIST_*` with `field` (the parameter) and `status` 400 for an
/// invalid query (e.g. `ERR_LIST_MALFORMED_FILTER`, `ERR_LIST_UNKNOWN_COLUMN`,
/// `ERR_LIST_RPP_TOO_LARGE`, `ERR_LIST_PAGE_OUT_OF_RANGE`).
///
/// @example
/// ```ts
/// declare const rows: string; // the upstream's JSON array
/// const page = listPage('/analytics/alerts/filter', rows, '?page_number=2&rpp=25');
/// console.log(page.first_index, page.last_index, page.filtered_resources);
/// ```
#[wasm_bindgen(js_name = listPage, unchecked_return_type = "ListPage")]
pub fn list_page(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | ArrayBuffer | object[]")]
    rows: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
) -> Result<JsValue, JsValue> {
    args::string_arg(&path, "path")?;
    args::string_arg(&query, "query")?;
    ListTable::from_json(path, rows)?.query(query)
}

/// The nine list endpoints and their item columns (name, type, meaning), in the order the
/// service lists them.
///
/// @example
/// ```ts
/// for (const schema of listSchemas()) console.log(schema.path, schema.columns.map((column) => column.name));
/// ```
#[wasm_bindgen(js_name = listSchemas, unchecked_return_type = "ListSchema[]")]
pub fn list_schemas() -> Result<JsValue, JsValue> {
    convert::to_js(Schema::all())
}

/// The list limits (default and maximum `rpp`, most filters, most rows) and the size and
/// seed of the embedded data set.
///
/// @example
/// ```ts
/// const { defaultRpp, maxRpp } = listLimits();
/// ```
#[wasm_bindgen(js_name = listLimits, unchecked_return_type = "ListLimits")]
pub fn list_limits() -> Result<JsValue, JsValue> {
    convert::to_js(&ListLimits::CURRENT)
}

fn schema(path: &JsValue) -> Result<&'static Schema, JsValue> {
    Schema::find(&args::string_arg(path, "path")?).or_js()
}

/// The schema, count and seed of a generated table, read in that order.
fn generated(
    path: &JsValue,
    count: &JsValue,
    seed: &JsValue,
) -> Result<(&'static Schema, usize, u64), JsValue> {
    let schema = schema(path)?;
    let count = args::u32_arg(count, "count")? as usize;
    Ok((schema, count, u64::from(args::u32_arg(seed, "seed")?)))
}

/// The coded error of a query, with the HTTP `status` it maps to.
fn list_error(error: &ListError) -> JsValue {
    let value = to_js(error);
    // Setting a property on a fresh Error cannot fail; ignore rather than panic.
    let _ = Reflect::set(&value, &"status".into(), &error.status().into());
    value
}
