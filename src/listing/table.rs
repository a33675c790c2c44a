//! A table: one endpoint's items, loaded once, stored by column, queried many times.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::column::{ColumnData, Interner, RawColumn};
use super::error::TableError;
use super::order;
use super::schema::{ColumnType, Schema};
use super::MAX_ROWS;

/// The items of one list endpoint, typed by its [`Schema`] and ordered by primary key.
///
/// Build it once (from JSON with [`Table::from_json`], from values with
/// [`Table::from_values`], or with [`super::generate_table`]) and run any number of
/// queries with [`Table::query`]; a query never changes the table.
#[derive(Clone, Debug)]
pub struct Table {
    schema: &'static Schema,
    columns: Vec<ColumnData>,
    len: usize,
}

impl Table {
    /// Loads items already parsed. Every item must be an object with exactly the schema's
    /// columns, each of its type, and primary keys must be unique.
    ///
    /// # Errors
    /// [`TableError`] naming the first item member that does not fit the schema.
    pub fn from_values(schema: &'static Schema, rows: Vec<Value>) -> Result<Self, TableError> {
        let mut builder = TableBuilder::new(schema, rows.len())?;
        for row in rows {
            builder.push_value(row)?;
        }
        builder.finish()
    }

    /// The endpoint's schema.
    pub fn schema(&self) -> &'static Schema {
        self.schema
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table holds no item.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Item `row` (0-based, in primary-key order) as a JSON object with the schema's
    /// columns in schema order.
    pub fn row(&self, row: usize) -> Option<Value> {
        if row >= self.len {
            return None;
        }
        let mut object = Map::with_capacity(self.columns.len());
        for (column, data) in self.schema.columns.iter().zip(&self.columns) {
            let rank = data.ranks.get(row).copied().unwrap_or_default();
            object.insert(String::from(column.name), data.value(rank));
        }
        Some(Value::Object(object))
    }

    pub(crate) fn columns(&self) -> &[ColumnData] {
        &self.columns
    }
}

/// A table under construction: rows are appended one at a time, then ranked.
pub(crate) struct TableBuilder {
    schema: &'static Schema,
    raw: Vec<RawColumn>,
    rows: usize,
}

/// One loaded value; strings are already interned ([`TableBuilder::intern`]).
pub(crate) enum Cell {
    Integer(i64),
    Number(f64),
    String(u32),
    StringArray(Box<[u32]>),
}

impl TableBuilder {
    pub(crate) fn new(schema: &'static Schema, capacity: usize) -> Result<Self, TableError> {
        if capacity > MAX_ROWS {
            return Err(TableError::TooManyRows { count: capacity });
        }
        let raw = schema
            .columns
            .iter()
            .map(|column| match column.column_type {
                ColumnType::Integer => RawColumn::Integer(Vec::with_capacity(capacity)),
                ColumnType::Number => RawColumn::Number(Vec::with_capacity(capacity)),
                ColumnType::String => {
                    RawColumn::String(Interner::default(), Vec::with_capacity(capacity))
                }
                ColumnType::StringArray => {
                    RawColumn::StringArray(Interner::default(), Vec::with_capacity(capacity))
                }
            })
            .collect();
        Ok(Self {
            schema,
            raw,
            rows: 0,
        })
    }

    pub(crate) fn schema(&self) -> &'static Schema {
        self.schema
    }

    /// The position of the next row, for error paths.
    pub(crate) fn next_row(&self) -> usize {
        self.rows
    }

    /// Appends one row given as typed cells in schema order (checked by the caller).
    pub(crate) fn push_cells(
        &mut self,
        cells: impl Iterator<Item = Cell>,
    ) -> Result<(), TableError> {
        if self.rows >= MAX_ROWS {
            return Err(TableError::TooManyRows {
                count: self.rows + 1,
            });
        }
        for (target, cell) in self.raw.iter_mut().zip(cells) {
            match (target, cell) {
                (RawColumn::Integer(values), Cell::Integer(v)) => values.push(v),
                // `+ 0.0` turns -0 into 0, so that equality and order agree.
                (RawColumn::Number(values), Cell::Number(v)) => values.push(v + 0.0),
                (RawColumn::String(_, ids), Cell::String(id)) => ids.push(id),
                (RawColumn::StringArray(_, lists), Cell::StringArray(list)) => lists.push(list),
                _ => {}
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// The id of `text` among column `column`'s strings (0 for a column without strings,
    /// which the callers never ask for).
    pub(crate) fn intern(&mut self, column: usize, text: &str) -> u32 {
        match self.raw.get_mut(column) {
            Some(RawColumn::String(interner, _) | RawColumn::StringArray(interner, _)) => {
                interner.intern(text)
            }
            _ => 0,
        }
    }

    /// Appends one row given as a JSON value.
    pub(crate) fn push_value(&mut self, row: Value) -> Result<(), TableError> {
        let i = self.rows;
        let Value::Object(mut object) = row else {
            return Err(TableError::NotAnObject {
                field: format!("[{i}]"),
            });
        };
        let mut values = Vec::with_capacity(self.schema.columns.len());
        for column in self.schema.columns {
            let value = object
                .remove(column.name)
                .ok_or_else(|| TableError::MissingField {
                    field: format!("[{i}].{}", column.name),
                })?;
            values.push(value);
        }
        if let Some(name) = object.keys().next() {
            return Err(TableError::UnknownField {
                field: format!("[{i}].{name}"),
            });
        }
        self.push_ordered(values)
    }

    /// Appends one row given as its values in schema order.
    pub(crate) fn push_ordered(&mut self, values: Vec<Value>) -> Result<(), TableError> {
        let i = self.rows;
        let mut cells = Vec::with_capacity(self.schema.columns.len());
        for ((index, column), value) in self.schema.columns.iter().enumerate().zip(values) {
            let field = || format!("[{i}].{}", column.name);
            let wrong = || TableError::WrongType {
                field: field(),
                expected: column.column_type.as_str(),
            };
            cells.push(match column.column_type {
                ColumnType::Integer => Cell::Integer(value.as_i64().ok_or_else(wrong)?),
                ColumnType::Number => Cell::Number(value.as_f64().ok_or_else(wrong)?),
                ColumnType::String => match value {
                    Value::String(text) => Cell::String(self.intern(index, &text)),
                    _ => return Err(wrong()),
                },
                ColumnType::StringArray => {
                    let items = string_array(value, &field)?;
                    Cell::StringArray(items.iter().map(|item| self.intern(index, item)).collect())
                }
            });
        }
        if cells.len() != self.schema.columns.len() {
            let missing = self.schema.columns.get(cells.len()).map_or("", |c| c.name);
            return Err(TableError::MissingField {
                field: format!("[{i}].{missing}"),
            });
        }
        self.push_cells(cells.into_iter())
    }

    /// Orders the rows by primary key and ranks every column.
    pub(crate) fn finish(self) -> Result<Table, TableError> {
        let order = key_order(self.schema, &self.raw)?;
        let columns = self
            .raw
            .into_iter()
            .map(|column| ColumnData::build(reorder(column, &order)))
            .collect();
        Ok(Table {
            schema: self.schema,
            columns,
            len: order.len(),
        })
    }
}

fn string_array(value: Value, field: &impl Fn() -> String) -> Result<Vec<String>, TableError> {
    let Value::Array(items) = value else {
        return Err(TableError::WrongType {
            field: field(),
            expected: ColumnType::StringArray.as_str(),
        });
    };
    items
        .into_iter()
        .enumerate()
        .map(|(j, item)| match item {
            Value::String(text) => Ok(text),
            _ => Err(TableError::WrongType {
                field: format!("{}[{j}]", field()),
                expected: ColumnType::String.as_str(),
            }),
        })
        .collect()
}

/// The row order by primary key; refuses a repeated key, naming the second row (by
/// position) of the smallest repeated key.
fn key_order(schema: &Schema, raw: &[RawColumn]) -> Result<Vec<u32>, TableError> {
    let Some(RawColumn::Integer(keys)) = raw.get(schema.key) else {
        // A schema's key is an integer column (checked by the schema tests).
        return Ok(Vec::new());
    };
    let (distinct, ranks) = order::rank(keys.iter().map(|&key| order::int_key(key)).collect());
    if distinct.len() < keys.len() {
        let mut seen = alloc::vec![false; distinct.len()];
        let mut repeat: Option<(u32, usize)> = None;
        for (row, &rank) in ranks.iter().enumerate() {
            match seen.get_mut(rank as usize) {
                Some(seen) if !*seen => *seen = true,
                _ if repeat.is_none_or(|(smallest, _)| rank < smallest) => {
                    repeat = Some((rank, row));
                }
                _ => {}
            }
        }
        let row = repeat.map_or(0, |(_, row)| row);
        return Err(TableError::DuplicateKey {
            field: format!("[{row}].{}", schema.key_name()),
        });
    }
    // Ranks of unique keys are a permutation: the row of rank r goes to position r.
    let mut order = alloc::vec![0u32; keys.len()];
    for (row, &rank) in (0u32..).zip(&ranks) {
        if let Some(slot) = order.get_mut(rank as usize) {
            *slot = row;
        }
    }
    Ok(order)
}

fn reorder(column: RawColumn, order: &[u32]) -> RawColumn {
    fn take<T: Default>(mut values: Vec<T>, order: &[u32]) -> Vec<T> {
        order
            .iter()
            .filter_map(|&i| values.get_mut(i as usize).map(core::mem::take))
            .collect()
    }
    match column {
        RawColumn::Integer(v) => RawColumn::Integer(take(v, order)),
        RawColumn::Number(v) => RawColumn::Number(take(v, order)),
        RawColumn::String(interner, v) => RawColumn::String(interner, take(v, order)),
        RawColumn::StringArray(interner, v) => RawColumn::StringArray(interner, take(v, order)),
    }
}
