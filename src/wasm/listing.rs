//! JS API for `crate::listing`: the `ListTable` handle (load rows once, answer many
//! queries), `generateDataset`, the one-shot `listPage`, and `listSchemas`.

use alloc::string::String;
use alloc::vec::Vec;

use js_sys::Reflect;
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::error::{coded, to_js};
use super::{args, convert};
use crate::listing::{
    generate_json, generate_table, respond, ListError, ListQuery, Schema, Table, TableError,
    DEFAULT_RPP, EMBEDDED_ROWS, EMBEDDED_SEED, MAX_FILTERS, MAX_ROWS, MAX_RPP,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_LISTING: &str = include_str!("types/listing.d.ts");

/// One endpoint's items, loaded once; each query filters, sorts and pages them.
#[wasm_bindgen]
pub struct ListTable {
    table: Table,
}

#[wasm_bindgen]
impl ListTable {
    /// Loads items for `path`: a JSON array as text or bytes (`Uint8Array`, or the
    /// `ArrayBuffer` of a fetched upstream response), or an array of objects.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | ArrayBuffer | object[]")]
        rows: JsValue,
    ) -> Result<ListTable, JsValue> {
        let path: &str = &args::string_arg(&path, "path")?;
        let schema = schema(path)?;
        let bytes = if rows.is_instance_of::<js_sys::ArrayBuffer>() {
            js_sys::Uint8Array::new(&rows).to_vec()
        } else {
            args::json_bytes(&rows, "rows")?
        };
        Table::from_json(schema, &bytes)
            .map(|table| ListTable { table })
            .map_err(|error| to_js(&error))
    }

    /// A table of `count` generated items (deterministic for `seed`; see `generateDataset`).
    pub fn generate(
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] count: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] seed: JsValue,
    ) -> Result<ListTable, JsValue> {
        let path: &str = &args::string_arg(&path, "path")?;
        let count = args::u32_arg(&count, "count")?;
        let seed = args::u32_arg(&seed, "seed")?;
        let schema = schema(path)?;
        generate_table(schema, count as usize, u64::from(seed))
            .map(|table| ListTable { table })
            .map_err(|error| to_js(&error))
    }

    /// Runs a query string (`page_number`, `rpp`, `filter`, `sorting`; with or without `?`)
    /// and returns the envelope. Throws an `EdgeAttestError` with `code`, `field` (the
    /// parameter) and `status` (400) for an invalid query.
    #[wasm_bindgen(unchecked_return_type = "ListPage")]
    pub fn query(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
    ) -> Result<JsValue, JsValue> {
        let query: &str = &args::string_arg(&query, "query")?;
        args::parse_json(&self.query_json(query.into())?)
    }

    /// As `query`, but returns the envelope as JSON text (ready to send as a body).
    #[wasm_bindgen(js_name = queryJson)]
    pub fn query_json(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
    ) -> Result<String, JsValue> {
        let query: &str = &args::string_arg(&query, "query")?;
        self.run(query)
            .map(|page| page.to_json())
            .map_err(|error| list_error(&error))
    }

    /// Answers a request without throwing for client errors: `{status, body}` with the
    /// envelope (200) or the error body (400).
    #[wasm_bindgen(unchecked_return_type = "ListResponse")]
    pub fn respond(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
    ) -> Result<JsValue, JsValue> {
        let query: &str = &args::string_arg(&query, "query")?;
        let response = respond(self.table.schema().path, query, &self.table);
        convert::to_js(&ResponseOut {
            status: response.status,
            body: &response.body,
        })
    }

    /// The number of items.
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
        String::from(self.table.schema().path)
    }
}

impl ListTable {
    fn run(&self, query: &str) -> Result<crate::listing::Page, ListError> {
        let query = ListQuery::parse(self.table.schema(), query)?;
        self.table.query(&query)
    }
}

/// `count` deterministic items for `path` (SplitMix64 seeded with `seed`), as an array of
/// objects.
#[wasm_bindgen(js_name = generateDataset, unchecked_return_type = "Record<string, unknown>[]")]
pub fn generate_dataset(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] count: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] seed: JsValue,
) -> Result<JsValue, JsValue> {
    let path: &str = &args::string_arg(&path, "path")?;
    let count = args::u32_arg(&count, "count")?;
    let seed = args::u32_arg(&seed, "seed")?;
    let schema = schema(path)?;
    let text =
        generate_json(schema, count as usize, u64::from(seed)).map_err(|error| to_js(&error))?;
    args::parse_json(&text)
}

/// One query over rows loaded for this call only (load once with `ListTable` instead when
/// the rows serve several queries).
#[wasm_bindgen(js_name = listPage, unchecked_return_type = "ListPage")]
pub fn list_page(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | ArrayBuffer | object[]")]
    rows: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
) -> Result<JsValue, JsValue> {
    let path: &str = &args::string_arg(&path, "path")?;
    let query: &str = &args::string_arg(&query, "query")?;
    ListTable::from_json(path.into(), rows)?.query(query.into())
}

/// The nine list endpoints and their item columns.
#[wasm_bindgen(js_name = listSchemas, unchecked_return_type = "ListSchema[]")]
pub fn list_schemas() -> Result<JsValue, JsValue> {
    let schemas: Vec<SchemaDoc> = Schema::all()
        .iter()
        .map(|schema| SchemaDoc {
            path: schema.path,
            item: schema.item,
            key: schema.key_name(),
            columns: schema
                .columns
                .iter()
                .map(|column| ColumnDoc {
                    name: column.name,
                    column_type: column.column_type.as_str(),
                    doc: column.doc,
                })
                .collect(),
        })
        .collect();
    let text = serde_json::to_string(&schemas)
        .map_err(|_| coded("ERR_INTERNAL", "internal JSON error", None))?;
    args::parse_json(&text)
}

/// The list limits (default and maximum `rpp`, most filters, most rows) and the size and
/// seed of the embedded data set.
#[wasm_bindgen(js_name = listLimits, unchecked_return_type = "ListLimits")]
pub fn list_limits() -> Result<JsValue, JsValue> {
    convert::to_js(&LimitsOut {
        default_rpp: DEFAULT_RPP,
        max_rpp: MAX_RPP,
        max_filters: MAX_FILTERS,
        max_rows: MAX_ROWS,
        embedded_rows: EMBEDDED_ROWS,
        embedded_seed: EMBEDDED_SEED,
    })
}

/// The JS `ListResponse`.
#[derive(Serialize)]
struct ResponseOut<'a> {
    status: u16,
    body: &'a str,
}

/// The JS `ListLimits`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LimitsOut {
    default_rpp: u64,
    max_rpp: u64,
    max_filters: usize,
    max_rows: usize,
    embedded_rows: usize,
    embedded_seed: u64,
}

fn schema(path: &str) -> Result<&'static Schema, JsValue> {
    Schema::for_path(path).ok_or_else(|| {
        to_js(&TableError::UnknownPath {
            path: String::from(path),
        })
    })
}

/// The coded error of a query, with the HTTP `status` it maps to.
fn list_error(error: &ListError) -> JsValue {
    let value = to_js(error);
    // Setting a property on a fresh Error cannot fail; ignore rather than panic.
    let _ = Reflect::set(&value, &"status".into(), &error.status().into());
    value
}

#[derive(Serialize)]
struct SchemaDoc {
    path: &'static str,
    item: &'static str,
    key: &'static str,
    columns: Vec<ColumnDoc>,
}

#[derive(Serialize)]
struct ColumnDoc {
    name: &'static str,
    #[serde(rename = "type")]
    column_type: &'static str,
    doc: &'static str,
}
