//! Parsing a list query string against an endpoint's schema (spec §4 A, query parameters).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::error::ListError;
use super::schema::{ColumnType, Schema};
use super::{DEFAULT_RPP, MAX_FILTERS, MAX_RPP};
use crate::urlencoded::parse_pairs;

/// A filter type (spec §4 A, "Filter types"). Codes are lower case and case-sensitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FilterOp {
    /// `eq`: equals.
    Eq,
    /// `neq`: not equal; exactly the rows `eq` does not select.
    Neq,
    /// `con`: contains (substring).
    Con,
    /// `ncon`: not contains; exactly the rows `con` does not select.
    Ncon,
    /// `sw`: starts with.
    Sw,
    /// `ew`: ends with.
    Ew,
    /// `eqm`: multi equals, a comma-separated list of values; any one may match.
    Eqm,
}

impl FilterOp {
    /// The seven filter types.
    pub const ALL: [FilterOp; 7] = [
        Self::Eq,
        Self::Neq,
        Self::Con,
        Self::Ncon,
        Self::Sw,
        Self::Ew,
        Self::Eqm,
    ];

    /// The code in a `filter` parameter.
    pub const fn code(self) -> &'static str {
        match self {
            Self::Eq => "eq",
            Self::Neq => "neq",
            Self::Con => "con",
            Self::Ncon => "ncon",
            Self::Sw => "sw",
            Self::Ew => "ew",
            Self::Eqm => "eqm",
        }
    }

    /// The filter type of a code (exact, lower case).
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|op| op.code() == code)
    }

    /// Whether the operator compares text (`con`, `ncon`, `sw`, `ew`).
    pub const fn is_textual(self) -> bool {
        matches!(self, Self::Con | Self::Ncon | Self::Sw | Self::Ew)
    }
}

impl fmt::Display for FilterOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A filter value, read according to the column type and the filter type.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Operand {
    /// `eq`/`neq` on an integer column.
    Integer(i64),
    /// `eq`/`neq` on a number column.
    Number(f64),
    /// `eq`/`neq` on a string or string-array column, or any textual operator.
    Text(String),
    /// `eqm` on an integer column.
    Integers(Vec<i64>),
    /// `eqm` on a number column.
    Numbers(Vec<f64>),
    /// `eqm` on a string or string-array column.
    Texts(Vec<String>),
}

/// One `filter` parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    /// Position of the column in the schema.
    pub column: usize,
    /// The filter type.
    pub op: FilterOp,
    /// The typed value.
    pub operand: Operand,
}

/// A sort direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `asc`: smallest first.
    Asc,
    /// `desc`: largest first.
    Desc,
}

/// One key of `sorting`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SortKey {
    /// Position of the column in the schema.
    pub column: usize,
    /// The direction.
    pub direction: Direction,
}

/// A parsed, validated list query.
#[derive(Clone, Debug, PartialEq)]
pub struct ListQuery {
    /// The 1-based page asked for; 1 when absent.
    pub page_number: u64,
    /// Rows per page, `1..=MAX_RPP`; [`DEFAULT_RPP`] when absent.
    pub rpp: u64,
    /// The filters, in the order given; all must hold (AND).
    pub filters: Vec<Filter>,
    /// The sort keys, most significant first. The primary key (ascending) always follows as
    /// the tie-breaker, so it is not listed here unless asked for.
    pub sort: Vec<SortKey>,
}

impl Default for ListQuery {
    fn default() -> Self {
        Self {
            page_number: 1,
            rpp: DEFAULT_RPP,
            filters: Vec::new(),
            sort: Vec::new(),
        }
    }
}

impl ListQuery {
    /// Parses a query string (with or without the leading `?`) for `schema`'s endpoint.
    ///
    /// Whether `page_number` is past the last page depends on the data, so it is checked
    /// when the query runs.
    ///
    /// # Errors
    /// The first problem found, in parameter order, as a [`ListError`].
    pub fn parse(schema: &Schema, query: &str) -> Result<Self, ListError> {
        let mut parsed = Self::default();
        let (mut seen_page, mut seen_rpp, mut seen_sorting) = (false, false, false);
        let mut filter_count = 0usize;
        for (name, value) in parse_pairs(query)? {
            match name.as_str() {
                "page_number" => {
                    once(&mut seen_page, "page_number")?;
                    parsed.page_number = positive(&value, "page_number")?;
                }
                "rpp" => {
                    once(&mut seen_rpp, "rpp")?;
                    let rpp = positive(&value, "rpp")?;
                    if rpp > MAX_RPP {
                        return Err(ListError::RppTooLarge { rpp });
                    }
                    parsed.rpp = rpp;
                }
                "sorting" => {
                    once(&mut seen_sorting, "sorting")?;
                    parsed.sort = parse_sorting(schema, &value)?;
                }
                "filter" => {
                    if filter_count >= MAX_FILTERS {
                        return Err(ListError::TooManyFilters {
                            count: filter_count + 1,
                        });
                    }
                    parsed
                        .filters
                        .push(parse_filter(schema, filter_count, &value)?);
                    filter_count += 1;
                }
                _ => return Err(ListError::UnknownParameter { parameter: name }),
            }
        }
        Ok(parsed)
    }
}

fn once(seen: &mut bool, parameter: &'static str) -> Result<(), ListError> {
    if core::mem::replace(seen, true) {
        return Err(ListError::RepeatedParameter { parameter });
    }
    Ok(())
}

/// A positive decimal integer: ASCII digits only (no sign, no spaces), value at least 1.
/// Values beyond `u64` saturate; they are then past the last page or above `MAX_RPP`.
fn positive(value: &str, parameter: &'static str) -> Result<u64, ListError> {
    let invalid = || ListError::InvalidNumber {
        parameter,
        value: String::from(value),
    };
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    let number = value.bytes().fold(0u64, |acc, digit| {
        acc.saturating_mul(10)
            .saturating_add(u64::from(digit - b'0'))
    });
    if number == 0 {
        return Err(invalid());
    }
    Ok(number)
}

fn parse_sorting(schema: &Schema, value: &str) -> Result<Vec<SortKey>, ListError> {
    if value.is_empty() {
        return Err(ListError::MalformedSorting {
            reason: "the value is empty",
        });
    }
    let mut keys: Vec<SortKey> = Vec::new();
    for item in value.split(',') {
        let Some((name, rest)) = item.split_once('[') else {
            return Err(ListError::MalformedSorting {
                reason: "a key has no [asc] or [desc]",
            });
        };
        let Some(direction) = rest.strip_suffix(']') else {
            return Err(ListError::MalformedSorting {
                reason: "a direction is not closed by ] at the end of its key",
            });
        };
        if name.is_empty() {
            return Err(ListError::MalformedSorting {
                reason: "a key has no column name",
            });
        }
        let column = schema
            .column_index(name)
            .ok_or_else(|| ListError::UnknownColumn {
                parameter: "sorting",
                column: String::from(name),
            })?;
        let direction = match direction {
            "asc" => Direction::Asc,
            "desc" => Direction::Desc,
            other => {
                return Err(ListError::UnknownSortDirection {
                    direction: String::from(other),
                })
            }
        };
        if keys.iter().any(|key| key.column == column) {
            return Err(ListError::RepeatedSortColumn {
                column: String::from(name),
            });
        }
        keys.push(SortKey { column, direction });
    }
    Ok(keys)
}

fn parse_filter(schema: &Schema, index: usize, value: &str) -> Result<Filter, ListError> {
    let malformed = |reason| ListError::MalformedFilter { index, reason };
    let (name, rest) = value
        .split_once('[')
        .ok_or_else(|| malformed("no [ after the column name"))?;
    let (code, raw) = rest
        .split_once(']')
        .ok_or_else(|| malformed("the filter type is not closed by ]"))?;
    if name.is_empty() {
        return Err(malformed("the column name is empty"));
    }
    let column = schema
        .column_index(name)
        .ok_or_else(|| ListError::UnknownColumn {
            parameter: "filter",
            column: String::from(name),
        })?;
    let op = FilterOp::from_code(code).ok_or_else(|| ListError::UnknownFilterType {
        index,
        filter_type: String::from(code),
    })?;
    let column_type = schema
        .columns
        .get(column)
        .map_or(ColumnType::String, |c| c.column_type);
    let invalid = |reason| ListError::InvalidFilterValue {
        index,
        column: String::from(name),
        reason,
    };
    let operand = read_operand(column_type, op, raw).map_err(invalid)?;
    Ok(Filter {
        column,
        op,
        operand,
    })
}

/// Reads a filter value for a column type and filter type (the rules are in the module
/// documentation of [`crate::listing`]).
fn read_operand(column_type: ColumnType, op: FilterOp, raw: &str) -> Result<Operand, &'static str> {
    if op.is_textual() {
        if raw.is_empty() {
            return Err("the value is empty");
        }
        return Ok(Operand::Text(String::from(raw)));
    }
    if op == FilterOp::Eqm {
        let members = split_eqm(raw)?;
        return Ok(match column_type {
            ColumnType::Integer => Operand::Integers(
                members
                    .iter()
                    .map(|m| parse_integer(m))
                    .collect::<Result<_, _>>()?,
            ),
            ColumnType::Number => Operand::Numbers(
                members
                    .iter()
                    .map(|m| parse_number(m))
                    .collect::<Result<_, _>>()?,
            ),
            _ => Operand::Texts(members),
        });
    }
    Ok(match column_type {
        ColumnType::Integer => Operand::Integer(parse_integer(raw)?),
        ColumnType::Number => Operand::Number(parse_number(raw)?),
        ColumnType::String | ColumnType::StringArray => Operand::Text(String::from(raw)),
    })
}

/// Splits an `eqm` value at unescaped commas. `\,` is a literal comma and `\\` a literal
/// backslash; any other backslash, and an empty member, is an error.
pub(crate) fn split_eqm(raw: &str) -> Result<Vec<String>, &'static str> {
    let mut members = Vec::new();
    let mut current = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped @ (',' | '\\')) => current.push(escaped),
                _ => return Err("in eqm, a backslash must be followed by , or \\"),
            },
            ',' => {
                if current.is_empty() {
                    return Err("an eqm member is empty");
                }
                members.push(core::mem::take(&mut current));
            }
            other => current.push(other),
        }
    }
    if current.is_empty() {
        return Err("an eqm member is empty");
    }
    members.push(current);
    Ok(members)
}

/// A JSON integer (RFC 8259 §6 without fraction or exponent) that fits `i64`.
fn parse_integer(text: &str) -> Result<i64, &'static str> {
    const NOT_INTEGER: &str = "the value is not an integer (JSON syntax, fits 64 bits)";
    let digits = text.strip_prefix('-').unwrap_or(text);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if !canonical {
        return Err(NOT_INTEGER);
    }
    text.parse::<i64>().map_err(|_| NOT_INTEGER)
}

/// A finite JSON number (RFC 8259 §6). `-0` reads as `0`.
///
/// Read by `serde_json`, the reader of the table's own numbers: a filter value equals the
/// loaded value of the same text to the last bit (and no second float parser ships).
fn parse_number(text: &str) -> Result<f64, &'static str> {
    const NOT_NUMBER: &str = "the value is not a number (JSON syntax, finite)";
    if !is_json_number(text) {
        return Err(NOT_NUMBER);
    }
    match serde_json::from_str::<f64>(text) {
        Ok(value) if value.is_finite() => Ok(value + 0.0),
        _ => Err(NOT_NUMBER),
    }
}

fn is_json_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let digits_from = |i: usize| {
        bytes.get(i..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        })
    };
    let int_digits = digits_from(i);
    if int_digits == 0 || (int_digits > 1 && bytes.get(i) == Some(&b'0')) {
        return false;
    }
    i += int_digits;
    if bytes.get(i) == Some(&b'.') {
        let frac = digits_from(i + 1);
        if frac == 0 {
            return false;
        }
        i += 1 + frac;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = digits_from(i);
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_number_grammar() {
        for ok in ["0", "-0", "1", "12.5", "-3.25e10", "1E+2", "1e-2", "0.5"] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in [
            "", "-", "01", "1.", ".5", "+1", "1e", "1e+", "NaN", "inf", " 1", "1 ", "0x1",
        ] {
            assert!(!is_json_number(bad), "{bad}");
        }
        assert_eq!(parse_number("-0"), Ok(0.0));
        assert!(parse_number("-0").unwrap().is_sign_positive());
        assert!(parse_number("1e400").is_err());
    }

    #[test]
    fn integer_grammar() {
        assert_eq!(parse_integer("-42"), Ok(-42));
        assert_eq!(parse_integer("9223372036854775807"), Ok(i64::MAX));
        for bad in [
            "",
            "-",
            "007",
            "1.0",
            "1e3",
            "+1",
            "9223372036854775808",
            " 1",
        ] {
            assert!(parse_integer(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn eqm_escapes() {
        assert_eq!(split_eqm("a,b").unwrap(), ["a", "b"]);
        assert_eq!(split_eqm(r"a\,b,c\\").unwrap(), ["a,b", r"c\"]);
        assert_eq!(split_eqm(r"\,").unwrap(), [","]);
        for bad in ["", ",", "a,", ",a", "a,,b", r"a\b", "a\\"] {
            assert!(split_eqm(bad).is_err(), "{bad}");
        }
    }
}
