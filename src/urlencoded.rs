//! The crate's one query-string splitter: `application/x-www-form-urlencoded` (WHATWG URL
//! §5.1), decoded strictly. Every reader of a query — the list endpoints, the deprecation
//! checks, the API-key gateway, the attest endpoints' `result` — splits and decodes here.
//!
//! Differences from the WHATWG parser, on purpose: a `%` that does not start a `%XX` escape
//! and decoded bytes that are not UTF-8 are errors (the WHATWG parser keeps the `%` and
//! substitutes U+FFFD), because a query that says something other than what was meant must be
//! refused, not guessed. Each caller turns [`BadEncoding`] into its own typed error.

use alloc::string::String;
use alloc::vec::Vec;

use crate::bytes::hex_digit;

/// Which bytes separate the pairs of a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Separators {
    /// `&` only (WHATWG): what this crate's own endpoints read.
    Ampersand,
    /// `&` and `;`: what some upstream servers split on, so what the gateway must look at
    /// when it decides what a forwarded query names.
    AmpersandOrSemicolon,
}

impl Separators {
    const fn is_separator(self, byte: u8) -> bool {
        byte == b'&' || (byte == b';' && matches!(self, Self::AmpersandOrSemicolon))
    }
}

/// One `name=value` segment of a query, as written (not decoded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment<'a> {
    /// The separator before it (`&` or `;`); `None` for the first segment.
    pub(crate) separator: Option<char>,
    /// The segment's text, maybe empty (`a=1&&b`).
    pub(crate) text: &'a str,
}

impl<'a> Segment<'a> {
    /// The name as written: the text up to the first `=`, or all of it.
    pub(crate) fn raw_name(&self) -> &'a str {
        self.text
            .split_once('=')
            .map_or(self.text, |(name, _)| name)
    }

    /// The value as written: the text after the first `=`, or empty.
    pub(crate) fn raw_value(&self) -> &'a str {
        self.text.split_once('=').map_or("", |(_, value)| value)
    }

    /// The decoded name; `None` when it does not decode.
    pub(crate) fn name(&self) -> Option<String> {
        decode(self.raw_name())
    }
}

/// Every segment of `query` in order, empty ones included (a leading `?` is not part of the
/// query: strip it first). An empty query has one empty segment.
pub(crate) fn segments(query: &str, separators: Separators) -> impl Iterator<Item = Segment<'_>> {
    let mut start = 0;
    let mut separator = None;
    let mut done = false;
    core::iter::from_fn(move || {
        if done {
            return None;
        }
        let rest = query.get(start..).unwrap_or("");
        let segment = match rest.bytes().position(|b| separators.is_separator(b)) {
            Some(at) => {
                let text = rest.get(..at).unwrap_or("");
                let this = Segment { separator, text };
                separator = rest.get(at..=at).and_then(|s| s.chars().next());
                start += at + 1;
                this
            }
            None => {
                done = true;
                Segment {
                    separator,
                    text: rest,
                }
            }
        };
        Some(segment)
    })
}

/// A query component that does not decode: a `%` not followed by two hex digits, or bytes
/// that are not UTF-8.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BadEncoding {
    /// A parameter name.
    Name,
    /// The value of the (decoded) parameter.
    Value(String),
}

/// The decoded `(name, value)` pairs of a query string (split on `&`), in order, repeats
/// kept.
///
/// A leading `?` is ignored; empty segments (`a=1&&b=2`, a trailing `&`) are skipped; a
/// segment without `=` has an empty value.
pub(crate) fn parse_pairs(query: &str) -> Result<Vec<(String, String)>, BadEncoding> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut pairs = Vec::new();
    for segment in segments(query, Separators::Ampersand) {
        if segment.text.is_empty() {
            continue;
        }
        let name = segment.name().ok_or(BadEncoding::Name)?;
        let value = decode(segment.raw_value()).ok_or_else(|| BadEncoding::Value(name.clone()))?;
        pairs.push((name, value));
    }
    Ok(pairs)
}

/// The decoded names of the non-empty segments of `query`, in order; a name that does not
/// decode is `None` (it cannot equal any name the crate looks for, all of them ASCII).
pub(crate) fn names(
    query: &str,
    separators: Separators,
) -> impl Iterator<Item = Option<String>> + '_ {
    segments(query, separators)
        .filter(|segment| !segment.text.is_empty())
        .map(|segment| segment.name())
}

/// Percent-decodes one component: `+` is a space, `%XX` a byte; the result must be UTF-8.
pub(crate) fn decode(component: &str) -> Option<String> {
    let bytes = component.as_bytes();
    if !bytes.iter().any(|&b| b == b'%' || b == b'+') {
        return Some(String::from(component));
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b'%' => {
                let high = hex_digit(*bytes.get(i + 1)?)?;
                let low = hex_digit(*bytes.get(i + 2)?)?;
                out.push(high << 4 | low);
                i += 3;
            }
            _ => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_plus_and_percent() {
        assert_eq!(decode("a+b%2Cc%5b%5D").unwrap(), "a b,c[]");
        assert_eq!(decode("%E2%82%AC").unwrap(), "€");
        assert_eq!(decode("%2B").unwrap(), "+");
        assert_eq!(decode("plain").unwrap(), "plain");
    }

    #[test]
    fn refuses_bad_escapes_and_non_utf8() {
        for bad in ["%", "%2", "%G0", "%0g", "a%", "%FF", "%C3"] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn keeps_order_and_repeats() {
        let pairs = parse_pairs("?filter=a%5Beq%5D1&&filter=b[eq]2&rpp&").unwrap();
        assert_eq!(
            pairs,
            [
                ("filter".into(), "a[eq]1".into()),
                ("filter".into(), "b[eq]2".into()),
                ("rpp".into(), String::new()),
            ]
        );
        assert_eq!(parse_pairs("").unwrap(), []);
    }

    #[test]
    fn names_the_parameter_of_a_bad_value() {
        assert_eq!(
            parse_pairs("rpp=1&filter=%ZZ"),
            Err(BadEncoding::Value("filter".into()))
        );
        assert_eq!(parse_pairs("%ZZ=1"), Err(BadEncoding::Name));
    }

    #[test]
    fn segments_keep_separators_and_empties() {
        let all: Vec<(Option<char>, &str)> =
            segments("a=1;b&&c=", Separators::AmpersandOrSemicolon)
                .map(|s| (s.separator, s.text))
                .collect();
        assert_eq!(
            all,
            [
                (None, "a=1"),
                (Some(';'), "b"),
                (Some('&'), ""),
                (Some('&'), "c=")
            ]
        );
        let amp: Vec<&str> = segments("a=1;b&c", Separators::Ampersand)
            .map(|s| s.text)
            .collect();
        assert_eq!(amp, ["a=1;b", "c"]);
        assert_eq!(segments("", Separators::Ampersand).count(), 1);
        let s = segments("x%5Fy=1=2", Separators::Ampersand).next().unwrap();
        assert_eq!((s.raw_name(), s.raw_value()), ("x%5Fy", "1=2"));
        assert_eq!(s.name().as_deref(), Some("x_y"));
    }

    #[test]
    fn names_decode_or_are_none() {
        let got: Vec<Option<String>> =
            names("a+b=1&&%61=2&%ZZ=3&c", Separators::Ampersand).collect();
        assert_eq!(
            got,
            [Some("a b".into()), Some("a".into()), None, Some("c".into())]
        );
    }
}
