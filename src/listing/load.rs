//! Streaming, typed JSON loading: a JSON array of items read straight into columns.
//!
//! `crate::json::parse` builds a whole `Value` tree first; for a million alerts that tree
//! is over a gigabyte, too much for a 32-bit wasm memory next to the text itself. This
//! loader keeps the same guarantees for the one shape it accepts — a repeated member is
//! refused (RFC 8259 §4; reported as `ERR_LIST_DATA_DUPLICATE_MEMBER`), nesting stops at an
//! array of strings — and checks each member against the schema as it is read.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::error::TableError;
use super::schema::{Column, ColumnType, Schema};
use super::table::{Cell, Table, TableBuilder};
use crate::json::JsonError;

impl Table {
    /// Loads a JSON array of items.
    ///
    /// The array is read item by item straight into the columns (no intermediate JSON
    /// tree, which for a million items would take gigabytes), with the strictness of
    /// [`crate::json::parse`]: a repeated member is refused, and nesting cannot go deeper
    /// than an array of strings.
    ///
    /// # Errors
    /// [`TableError`] naming the first item member that does not fit the schema.
    pub fn from_json(schema: &'static Schema, json: &[u8]) -> Result<Self, TableError> {
        let first = json.iter().find(|b| !b" \t\r\n".contains(b));
        if first != Some(&b'[') {
            // Not an array: say whether it is JSON at all.
            crate::json::parse(json)?;
            return Err(TableError::NotAnArray);
        }
        // A first guess at the item count (items of these schemas are a few hundred bytes);
        // the columns grow past it if needed.
        let capacity = (json.len() / 256).min(super::MAX_ROWS);
        let state = Loader {
            builder: RefCell::new(TableBuilder::new(schema, capacity)?),
            failure: RefCell::new(None),
        };
        let mut deserializer = serde_json::Deserializer::from_slice(json);
        let result = Items(&state)
            .deserialize(&mut deserializer)
            .and_then(|()| deserializer.end());
        if let Err(error) = result {
            return Err(state.failure.into_inner().unwrap_or(TableError::Json(
                JsonError::Syntax {
                    line: error.line(),
                    column: error.column(),
                },
            )));
        }
        state.builder.into_inner().finish()
    }
}

struct Loader {
    builder: RefCell<TableBuilder>,
    failure: RefCell<Option<TableError>>,
}

impl Loader {
    fn fail<E: de::Error>(&self, error: TableError) -> E {
        let message = alloc::string::ToString::to_string(&error);
        self.failure.borrow_mut().get_or_insert(error);
        E::custom(message)
    }

    fn row(&self) -> usize {
        self.builder.borrow().next_row()
    }
}

/// The top-level array.
struct Items<'l>(&'l Loader);

impl<'de> DeserializeSeed<'de> for Items<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array of items")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Item(self.0))?.is_some() {}
        Ok(())
    }
}

/// One item: an object with exactly the schema's columns.
#[derive(Clone, Copy)]
struct Item<'l>(&'l Loader);

impl Item<'_> {
    fn not_object<E: de::Error>(self) -> Result<(), E> {
        let field = format!("[{}]", self.0.row());
        Err(self.0.fail(TableError::NotAnObject { field }))
    }
}

impl<'de> DeserializeSeed<'de> for Item<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Item<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an item object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let loader = self.0;
        let schema: &Schema = loader.builder.borrow().schema();
        let row = loader.row();
        let mut cells: Vec<Option<Cell>> = schema.columns.iter().map(|_| None).collect();
        while let Some(name) = map.next_key::<Cow<'de, str>>()? {
            let Some(index) = schema.column_index(&name) else {
                let field = format!("[{row}].{name}");
                return Err(loader.fail(TableError::UnknownField { field }));
            };
            let Some(slot) = cells.get_mut(index) else {
                return Err(loader.fail(TableError::NotAnArray));
            };
            if slot.is_some() {
                let name = String::from(name);
                return Err(loader.fail(TableError::Json(JsonError::DuplicateMember { name })));
            }
            let column = schema.columns.get(index).copied();
            let column = column.ok_or_else(|| loader.fail(TableError::NotAnArray))?;
            *slot = Some(map.next_value_seed(Value {
                loader,
                column,
                index,
                row,
            })?);
        }
        let mut complete = Vec::with_capacity(cells.len());
        for (cell, column) in cells.into_iter().zip(schema.columns) {
            match cell {
                Some(cell) => complete.push(cell),
                None => {
                    let field = format!("[{row}].{}", column.name);
                    return Err(loader.fail(TableError::MissingField { field }));
                }
            }
        }
        let pushed = loader.builder.borrow_mut().push_cells(complete.into_iter());
        pushed.map_err(|error| loader.fail(error))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.not_object()
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.not_object()
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.not_object()
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.not_object()
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.not_object()
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.not_object()
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.not_object()
    }
}

/// One member value, read as its column's type.
#[derive(Clone, Copy)]
struct Value<'l> {
    loader: &'l Loader,
    column: Column,
    /// The column's position in the schema.
    index: usize,
    row: usize,
}

impl Value<'_> {
    fn intern(self, text: &str) -> u32 {
        self.loader.builder.borrow_mut().intern(self.index, text)
    }
}

impl Value<'_> {
    fn wrong<E: de::Error>(self) -> E {
        let field = format!("[{}].{}", self.row, self.column.name);
        let expected = self.column.column_type.as_str();
        self.loader.fail(TableError::WrongType { field, expected })
    }
}

impl<'de> DeserializeSeed<'de> for Value<'_> {
    type Value = Cell;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cell, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Value<'_> {
    type Value = Cell;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.column.column_type.as_str())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Cell, E> {
        match self.column.column_type {
            ColumnType::Integer => Ok(Cell::Integer(v)),
            ColumnType::Number => Ok(Cell::Number(v as f64)),
            _ => Err(self.wrong()),
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Cell, E> {
        match self.column.column_type {
            ColumnType::Integer => i64::try_from(v)
                .map(Cell::Integer)
                .map_err(|_| self.wrong()),
            ColumnType::Number => Ok(Cell::Number(v as f64)),
            _ => Err(self.wrong()),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Cell, E> {
        match self.column.column_type {
            ColumnType::Number => Ok(Cell::Number(v)),
            _ => Err(self.wrong()),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cell, E> {
        match self.column.column_type {
            ColumnType::String => Ok(Cell::String(self.intern(v))),
            _ => Err(self.wrong()),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Cell, A::Error> {
        if self.column.column_type != ColumnType::StringArray {
            return Err(self.wrong());
        }
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Element {
            value: self,
            index: items.len(),
        })? {
            items.push(item);
        }
        Ok(Cell::StringArray(items.into_boxed_slice()))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Cell, E> {
        Err(self.wrong())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Cell, E> {
        Err(self.wrong())
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Cell, A::Error> {
        Err(self.wrong())
    }
}

/// One element of a string array.
struct Element<'l> {
    value: Value<'l>,
    index: usize,
}

impl Element<'_> {
    fn wrong<E: de::Error>(&self) -> E {
        let field = format!(
            "[{}].{}[{}]",
            self.value.row, self.value.column.name, self.index
        );
        let expected = ColumnType::String.as_str();
        self.value
            .loader
            .fail(TableError::WrongType { field, expected })
    }
}

impl<'de> DeserializeSeed<'de> for Element<'_> {
    type Value = u32;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u32, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Element<'_> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<u32, E> {
        Ok(self.value.intern(v))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<u32, E> {
        Err(self.wrong())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<u32, E> {
        Err(self.wrong())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<u32, E> {
        Err(self.wrong())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<u32, E> {
        Err(self.wrong())
    }
    fn visit_unit<E: de::Error>(self) -> Result<u32, E> {
        Err(self.wrong())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<u32, A::Error> {
        Err(self.wrong())
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<u32, A::Error> {
        Err(self.wrong())
    }
}
