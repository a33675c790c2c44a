//! `application/x-www-form-urlencoded` query strings (WHATWG URL §5.1), decoded strictly.
//!
//! Differences from the WHATWG parser, on purpose: a `%` that does not start a `%XX` escape
//! and decoded bytes that are not UTF-8 are errors (the WHATWG parser keeps the `%` and
//! substitutes U+FFFD), because a list query that says something other than what was meant
//! must be refused, not guessed.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::ListError;

/// The decoded `(name, value)` pairs of a query string, in order, repeats kept.
///
/// A leading `?` is ignored; empty segments (`a=1&&b=2`, a trailing `&`) are skipped; a
/// segment without `=` has an empty value.
pub(crate) fn parse_pairs(query: &str) -> Result<Vec<(String, String)>, ListError> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut pairs = Vec::new();
    for segment in query.split('&') {
        if segment.is_empty() {
            continue;
        }
        let (raw_name, raw_value) = segment.split_once('=').unwrap_or((segment, ""));
        let name = decode(raw_name).ok_or_else(|| ListError::MalformedEncoding {
            parameter: String::from("query"),
        })?;
        let value = decode(raw_value).ok_or_else(|| ListError::MalformedEncoding {
            parameter: name.clone(),
        })?;
        pairs.push((name, value));
    }
    Ok(pairs)
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

fn hex_digit(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
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
            Err(ListError::MalformedEncoding {
                parameter: "filter".into()
            })
        );
        assert_eq!(
            parse_pairs("%ZZ=1"),
            Err(ListError::MalformedEncoding {
                parameter: "query".into()
            })
        );
    }
}
