//! Columnar storage: each column keeps its distinct values in sorted order and, per row, the
//! rank of the row's value among them.
//!
//! Ranks make the engine cheap: a filter is decided once per *distinct* value (a set of
//! ranks) and then tested per row with one bit lookup; a sort key is the rank itself, a
//! small integer whose order is the column's order, so several keys pack into one machine
//! integer (see `engine.rs`).

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use serde_json::Value;

use super::query::{FilterOp, Operand};

/// The sorted distinct values of a column.
#[derive(Clone, Debug)]
pub(crate) enum Distinct {
    Integer(Vec<i64>),
    /// Sorted by `total_cmp`; `-0` was normalised to `0` on load, so equality and order agree.
    Number(Vec<f64>),
    /// Sorted by byte order, which for UTF-8 is Unicode scalar value order.
    String(Vec<Box<str>>),
    /// `elements`: the sorted distinct strings of all arrays; `lists`: the sorted distinct
    /// arrays, each as ranks into `elements` (rank order is string order, so comparing rank
    /// sequences lexicographically compares the arrays).
    StringArray {
        elements: Vec<Box<str>>,
        lists: Vec<Box<[u32]>>,
    },
}

/// One column of a table.
#[derive(Clone, Debug)]
pub(crate) struct ColumnData {
    pub(crate) distinct: Distinct,
    /// Per row, the rank of its value in `distinct`.
    pub(crate) ranks: Vec<u32>,
    /// Bits needed for the largest rank.
    pub(crate) bits: u32,
}

/// A column's values as loaded, one per row, before ranking. Strings are interned as they
/// arrive (one allocation per distinct string, not per row) and rows hold their ids.
pub(crate) enum RawColumn {
    Integer(Vec<i64>),
    Number(Vec<f64>),
    String(Interner, Vec<u32>),
    StringArray(Interner, Vec<Box<[u32]>>),
}

/// Distinct strings and their ids in order of first appearance.
#[derive(Default)]
pub(crate) struct Interner {
    ids: BTreeMap<Box<str>, u32>,
}

impl Interner {
    pub(crate) fn intern(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(Box::from(text), id);
        id
    }

    /// The distinct strings in order, and for each id its rank among them.
    fn finish(self) -> (Vec<Box<str>>, Vec<u32>) {
        let mut rank_of = alloc::vec![0u32; self.ids.len()];
        let mut distinct = Vec::with_capacity(self.ids.len());
        for (rank, (text, id)) in self.ids.into_iter().enumerate() {
            if let Some(slot) = rank_of.get_mut(id as usize) {
                *slot = rank as u32;
            }
            distinct.push(text);
        }
        (distinct, rank_of)
    }
}

impl ColumnData {
    pub(crate) fn build(raw: RawColumn) -> Self {
        let (distinct, ranks) = match raw {
            RawColumn::Integer(values) => {
                let (distinct, ranks) = rank_by(&values, |a, b| a.cmp(b));
                (Distinct::Integer(distinct), ranks)
            }
            RawColumn::Number(values) => {
                let (distinct, ranks) = rank_by(&values, f64::total_cmp);
                (Distinct::Number(distinct), ranks)
            }
            RawColumn::String(interner, ids) => {
                let (distinct, rank_of) = interner.finish();
                let ranks = ids
                    .into_iter()
                    .map(|id| rank_of.get(id as usize).copied().unwrap_or_default())
                    .collect();
                (Distinct::String(distinct), ranks)
            }
            RawColumn::StringArray(interner, mut lists) => {
                // Arrays become their elements' ranks: ranking the arrays then compares
                // small integers, not strings.
                let (elements, rank_of) = interner.finish();
                for list in &mut lists {
                    for id in list.iter_mut() {
                        *id = rank_of.get(*id as usize).copied().unwrap_or_default();
                    }
                }
                let (distinct_lists, ranks) = rank_by(&lists, |a, b| a.cmp(b));
                (
                    Distinct::StringArray {
                        elements,
                        lists: distinct_lists,
                    },
                    ranks,
                )
            }
        };
        let count = distinct.len();
        let bits = match u32::try_from(count.saturating_sub(1)) {
            Ok(max) => u32::BITS - max.leading_zeros(),
            Err(_) => u32::BITS,
        };
        Self {
            distinct,
            ranks,
            bits,
        }
    }

    /// The JSON value of rank `rank` (`Null` only for an out-of-range rank, which the
    /// engine never asks for).
    pub(crate) fn value(&self, rank: u32) -> Value {
        let i = rank as usize;
        match &self.distinct {
            Distinct::Integer(v) => v.get(i).map_or(Value::Null, |&x| Value::from(x)),
            Distinct::Number(v) => v
                .get(i)
                .and_then(|&x| serde_json::Number::from_f64(x))
                .map_or(Value::Null, Value::Number),
            Distinct::String(v) => v.get(i).map_or(Value::Null, |s| Value::from(&**s)),
            Distinct::StringArray { elements, lists } => lists.get(i).map_or(Value::Null, |l| {
                Value::Array(
                    l.iter()
                        .map(|&e| {
                            elements
                                .get(e as usize)
                                .map_or(Value::Null, |s| Value::from(&**s))
                        })
                        .collect(),
                )
            }),
        }
    }

    /// The set of ranks whose values a filter selects.
    pub(crate) fn select(&self, op: FilterOp, operand: &Operand) -> RankSet {
        let negate = matches!(op, FilterOp::Neq | FilterOp::Ncon);
        let positive = match &self.distinct {
            Distinct::Integer(values) => match operand {
                Operand::Text(text) if op.is_textual() => {
                    textual_set(values.len(), op, text, |i| {
                        values.get(i).map(|v| alloc::format!("{v}"))
                    })
                }
                _ => exact_set(values.len(), int_positions(values, operand)),
            },
            Distinct::Number(values) => match operand {
                Operand::Text(text) if op.is_textual() => {
                    textual_set(values.len(), op, text, |i| {
                        values.get(i).map(|&v| number_text(v))
                    })
                }
                _ => exact_set(values.len(), num_positions(values, operand)),
            },
            Distinct::String(values) => string_set(values, op, operand),
            Distinct::StringArray { elements, lists } => {
                let hits = string_set(elements, op, operand);
                let mut set = RankSet::empty(lists.len());
                for (i, list) in lists.iter().enumerate() {
                    if list.iter().any(|&e| hits.contains(e)) {
                        set.insert(i);
                    }
                }
                set
            }
        };
        if negate {
            positive.complement()
        } else {
            positive
        }
    }
}

impl Distinct {
    fn len(&self) -> usize {
        match self {
            Self::Integer(v) => v.len(),
            Self::Number(v) => v.len(),
            Self::String(v) => v.len(),
            Self::StringArray { lists, .. } => lists.len(),
        }
    }
}

/// The canonical text of a number, as it appears in the JSON output (`serde_json`'s
/// shortest round-trip form: `1.0`, `0.25`, `1e-7`).
pub(crate) fn number_text(value: f64) -> String {
    serde_json::to_string(&value).unwrap_or_default()
}

/// For textual operators on numeric columns: test the text of each distinct value.
fn textual_set(
    len: usize,
    op: FilterOp,
    text: &str,
    value_text: impl Fn(usize) -> Option<String>,
) -> RankSet {
    let mut set = RankSet::empty(len);
    for i in 0..len {
        if value_text(i).is_some_and(|value| text_match(op, &value, text)) {
            set.insert(i);
        }
    }
    set
}

fn exact_set(len: usize, positions: Vec<usize>) -> RankSet {
    let mut set = RankSet::empty(len);
    for i in positions {
        set.insert(i);
    }
    set
}

fn int_positions(values: &[i64], operand: &Operand) -> Vec<usize> {
    let one = |x: &i64| values.binary_search(x).ok();
    match operand {
        Operand::Integer(x) => one(x).into_iter().collect(),
        Operand::Integers(xs) => xs.iter().filter_map(one).collect(),
        _ => Vec::new(),
    }
}

fn num_positions(values: &[f64], operand: &Operand) -> Vec<usize> {
    let one = |x: &f64| values.binary_search_by(|v| v.total_cmp(x)).ok();
    match operand {
        Operand::Number(x) => one(x).into_iter().collect(),
        Operand::Numbers(xs) => xs.iter().filter_map(one).collect(),
        _ => Vec::new(),
    }
}

/// The positive set (before `neq`/`ncon` negation) over sorted distinct strings.
fn string_set(values: &[Box<str>], op: FilterOp, operand: &Operand) -> RankSet {
    let mut set = RankSet::empty(values.len());
    let find = |x: &str| values.binary_search_by(|v| (**v).cmp(x)).ok();
    match operand {
        Operand::Text(text) if !op.is_textual() => {
            if let Some(i) = find(text) {
                set.insert(i);
            }
        }
        Operand::Text(text) => {
            if op == FilterOp::Sw {
                // Sorted values: the ones starting with `text` form one run.
                let start = values.partition_point(|v| (**v) < **text);
                for (i, v) in values.iter().enumerate().skip(start) {
                    if !v.starts_with(text.as_str()) {
                        break;
                    }
                    set.insert(i);
                }
            } else {
                for (i, v) in values.iter().enumerate() {
                    if text_match(op, v, text) {
                        set.insert(i);
                    }
                }
            }
        }
        Operand::Texts(texts) => {
            for text in texts {
                if let Some(i) = find(text) {
                    set.insert(i);
                }
            }
        }
        _ => {}
    }
    set
}

/// The positive form of a textual operator: `ncon` tests like `con` (negated by the caller).
fn text_match(op: FilterOp, value: &str, text: &str) -> bool {
    match op {
        FilterOp::Sw => value.starts_with(text),
        FilterOp::Ew => value.ends_with(text),
        _ => value.contains(text),
    }
}

/// Ranks `values`: the sorted distinct values and each value's rank.
fn rank_by<T: Clone>(values: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> (Vec<T>, Vec<u32>) {
    let mut order: Vec<u32> = (0..values.len() as u32).collect();
    let at = |i: u32| values.get(i as usize);
    order.sort_unstable_by(|&a, &b| match (at(a), at(b)) {
        (Some(x), Some(y)) => cmp(x, y),
        _ => Ordering::Equal,
    });
    let mut distinct: Vec<T> = Vec::new();
    let mut ranks = alloc::vec![0u32; values.len()];
    for &i in &order {
        let Some(value) = at(i) else { continue };
        let new = distinct
            .last()
            .is_none_or(|last| cmp(last, value) != Ordering::Equal);
        if new {
            distinct.push(value.clone());
        }
        if let Some(slot) = ranks.get_mut(i as usize) {
            *slot = (distinct.len() - 1) as u32;
        }
    }
    (distinct, ranks)
}

/// A set of ranks as a bitmap.
#[derive(Clone, Debug)]
pub(crate) struct RankSet {
    words: Vec<u64>,
    len: usize,
}

impl RankSet {
    fn empty(len: usize) -> Self {
        Self {
            words: alloc::vec![0; len.div_ceil(64)],
            len,
        }
    }

    fn insert(&mut self, i: usize) {
        if let Some(word) = self.words.get_mut(i / 64) {
            *word |= 1 << (i % 64);
        }
    }

    #[inline]
    pub(crate) fn contains(&self, i: u32) -> bool {
        let i = i as usize;
        self.words
            .get(i / 64)
            .is_some_and(|word| word >> (i % 64) & 1 == 1)
    }

    fn complement(mut self) -> Self {
        for word in &mut self.words {
            *word = !*word;
        }
        let tail = self.len % 64;
        if tail != 0 {
            if let Some(last) = self.words.last_mut() {
                *last &= (1u64 << tail) - 1;
            }
        }
        self
    }

    /// Number of ranks in the set.
    pub(crate) fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Number of ranks the set ranges over.
    pub(crate) fn universe(&self) -> usize {
        self.len
    }
}
