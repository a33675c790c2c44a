//! A deterministic data set for each endpoint, for the worker's embedded default data,
//! demos, tests and benchmarks.
//!
//! Same `(schema, count, seed)`, same items, on every platform: the only randomness is
//! SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
//! OOPSLA 2014; the constants of Java's `SplittableRandom`) seeded with `seed`, and numbers
//! are made from integers (no platform float functions). Not for anything secret.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::Value;

use super::error::TableError;
use super::schema::{Schema, ValueGen};
use super::table::{Table, TableBuilder};
use super::MAX_ROWS;

/// 2026-01-01T00:00:00Z: generated timestamps fall in the 30 days before it.
pub const GENERATED_EPOCH_END: i64 = 1_767_225_600;
const THIRTY_DAYS: u64 = 30 * 86_400;

/// SplitMix64: a 64-bit state advanced by a fixed odd constant, output through a mixer.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (Lemire's multiply-shift; `n` = 0 gives 0).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len() as u64) as usize)
    }
}

/// `count` items for `schema`, as JSON objects with the schema's columns in order.
///
/// # Errors
/// [`TableError::TooManyRows`] when `count` exceeds [`MAX_ROWS`].
pub fn generate_rows(schema: &Schema, count: usize, seed: u64) -> Result<Vec<Value>, TableError> {
    let mut rows = Vec::with_capacity(count.min(MAX_ROWS));
    for_each_row(schema, count, seed, &mut |values| {
        let names = schema.columns.iter().map(|c| String::from(c.name));
        rows.push(Value::Object(names.zip(values).collect()));
        true
    })?;
    Ok(rows)
}

/// Calls `each` with every generated item in turn (its values in schema order) until it
/// returns false, so that large data sets never exist as one JSON tree. `each` is `dyn`: one
/// copy of the generator serves its three callers.
fn for_each_row(
    schema: &Schema,
    count: usize,
    seed: u64,
    each: &mut dyn FnMut(Vec<Value>) -> bool,
) -> Result<(), TableError> {
    if count > MAX_ROWS {
        return Err(TableError::TooManyRows { count });
    }
    let mut rng = SplitMix64(seed);
    // Keys 1..=count in a shuffled order (Fisher-Yates), so that input order is not key order.
    let mut keys: Vec<i64> = (1..=count as i64).collect();
    for i in (1..keys.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        keys.swap(i, j);
    }
    let mut guids: Vec<Vec<u32>> = alloc::vec![Vec::new(); schema.columns.len()];
    for key in keys {
        let mut values = Vec::with_capacity(schema.columns.len());
        for (position, column) in schema.columns.iter().enumerate() {
            let value = match column.generator {
                ValueGen::Key => Value::from(key),
                ValueGen::Timestamp => {
                    Value::from(GENERATED_EPOCH_END - 1 - rng.below(THIRTY_DAYS) as i64)
                }
                ValueGen::Int(lo, hi) => {
                    let span = (i128::from(hi) - i128::from(lo) + 1).clamp(1, i128::from(u64::MAX));
                    Value::from(lo.wrapping_add(rng.below(span as u64) as i64))
                }
                ValueGen::Num(lo, hi, decimals) => Value::from(number(&mut rng, lo, hi, decimals)),
                ValueGen::IntChoice(items) => Value::from(rng.pick(items).copied().unwrap_or(0)),
                ValueGen::Choice(items) => Value::from(rng.pick(items).copied().unwrap_or("")),
                ValueGen::Guid(pool) => Value::from(guid(rng.below(u64::from(pool)) as u32)),
                ValueGen::Serial(pool) => {
                    let n = rng.below(u64::from(pool));
                    Value::from(format!("MT{:04}FT{:05}", 2200 + n % 40, n))
                }
                ValueGen::Text(templates) => {
                    let template = rng.pick(templates).copied().unwrap_or("");
                    let n = 1 + rng.below(64);
                    Value::from(template.replace("{n}", &format!("{n}")))
                }
                ValueGen::GuidList(pool, max) => {
                    let picked = distinct(&mut rng, u64::from(pool), max);
                    let list = picked.iter().map(|&n| Value::from(guid(n))).collect();
                    if let Some(slot) = guids.get_mut(position) {
                        *slot = picked;
                    }
                    Value::Array(list)
                }
                ValueGen::WordList(words, max) => {
                    let picked = distinct(&mut rng, words.len() as u64, max);
                    Value::Array(
                        picked
                            .iter()
                            .filter_map(|&i| words.get(i as usize))
                            .map(|&w| Value::from(w))
                            .collect(),
                    )
                }
                ValueGen::DisplayNamesOf(source) => Value::Array(
                    guids
                        .get(source)
                        .map(|picked| {
                            picked
                                .iter()
                                .map(|&n| Value::from(display_name(n)))
                                .collect()
                        })
                        .unwrap_or_default(),
                ),
            };
            values.push(value);
        }
        if !each(values) {
            break;
        }
    }
    Ok(())
}

/// A [`Table`] of `count` generated items.
///
/// # Errors
/// As [`generate_rows`].
pub fn generate_table(
    schema: &'static Schema,
    count: usize,
    seed: u64,
) -> Result<Table, TableError> {
    let mut builder = TableBuilder::new(schema, count)?;
    let mut failure = None;
    for_each_row(schema, count, seed, &mut |values| {
        let pushed = builder.push_ordered(values);
        pushed.map_err(|error| failure = Some(error)).is_ok()
    })?;
    match failure {
        Some(error) => Err(error),
        None => builder.finish(),
    }
}

/// Generated items as a JSON array (the worker's embedded data set, or an upstream mock).
///
/// # Errors
/// As [`generate_rows`].
pub fn generate_json(schema: &Schema, count: usize, seed: u64) -> Result<String, TableError> {
    if count > MAX_ROWS {
        return Err(TableError::TooManyRows { count });
    }
    let rows = Lazy {
        schema,
        count,
        seed,
    };
    Ok(crate::json::write::to_string(&rows).unwrap_or_default())
}

/// Generated items serialised as they are made.
struct Lazy<'s> {
    schema: &'s Schema,
    count: usize,
    seed: u64,
}

/// One generated item: its columns' names with its values, in schema order.
struct Item<'a> {
    schema: &'a Schema,
    values: &'a [Value],
}

impl Serialize for Item<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let names = self.schema.columns.iter().map(|c| c.name);
        serializer.collect_map(names.zip(self.values))
    }
}

impl Serialize for Lazy<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.count))?;
        let mut failure = None;
        let generated = for_each_row(self.schema, self.count, self.seed, &mut |values| {
            let item = Item {
                schema: self.schema,
                values: &values,
            };
            let written = seq.serialize_element(&item);
            written.map_err(|error| failure = Some(error)).is_ok()
        });
        if let Some(error) = failure {
            return Err(error);
        }
        match generated {
            Ok(()) => seq.end(),
            Err(_) => Err(serde::ser::Error::custom("too many rows")),
        }
    }
}

/// A number in `lo..hi` with `decimals` decimal places, made from an integer.
fn number(rng: &mut SplitMix64, lo: f64, hi: f64, decimals: u32) -> f64 {
    let scale = (0..decimals).fold(1.0f64, |acc, _| acc * 10.0);
    let (lo_units, hi_units) = ((lo * scale) as i64, (hi * scale) as i64);
    let span = hi_units.saturating_sub(lo_units).max(1) as u64;
    (lo_units + rng.below(span) as i64) as f64 / scale
}

/// Up to `max` distinct values below `pool`, in the order drawn; at least 0.
fn distinct(rng: &mut SplitMix64, pool: u64, max: u32) -> Vec<u32> {
    let want = rng.below(u64::from(max) + 1).min(pool) as usize;
    let mut picked: Vec<u32> = Vec::with_capacity(want);
    while picked.len() < want {
        let n = rng.below(pool) as u32;
        if !picked.contains(&n) {
            picked.push(n);
        }
    }
    picked
}

/// Node `n`'s GUID: a fixed vendor prefix and a scrambled, unique low half.
fn guid(n: u32) -> String {
    let low = n.wrapping_mul(0x9e37_79b1) ^ 0x5bd1_e995;
    format!("0xe41d2d0300{:06x}", low & 0x00ff_ffff)
}

fn display_name(n: u32) -> String {
    match n {
        0..=31 => format!("spine-{n:02}"),
        32..=127 => format!("leaf-{:03}", n - 32),
        _ => format!("host-{:03}", n - 128),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64's published first outputs for seed 0 (as in Java's `SplittableRandom`
    /// and Vigna's reference `splitmix64.c`).
    #[test]
    fn splitmix64_reference_outputs() {
        let mut rng = SplitMix64(0);
        assert_eq!(rng.next(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64(3);
        assert_eq!(rng.below(0), 0);
        assert!((0..10_000).all(|_| rng.below(7) < 7));
    }
}
