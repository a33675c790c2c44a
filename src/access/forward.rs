//! What an allowed request carries upstream: the client's headers minus those the upstream
//! must not believe, the gateway's identity headers, and the query minus method overrides.
//!
//! The gateway authorizes one method, one path and one key; the upstream must execute exactly
//! that. Client headers are therefore stripped, never refused, in these classes (names
//! compared case-insensitively with `_` equal to `-`, because CGI-style upstreams turn both
//! into `HTTP_X_…` and merge them):
//!
//! | class | names | why |
//! |---|---|---|
//! | credentials | `Authorization`, `Cookie` | the key stays at the edge; any other credential would carry authority the gateway never checked |
//! | hop-by-hop (RFC 9110 §7.6.1) | `Connection`, `Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`, `Proxy-Authorization`, `Proxy-Authenticate`, and every name listed in `Connection` | meant for the gateway's own connection, not the upstream's |
//! | method overrides | `X-HTTP-Method-Override`, `X-HTTP-Method`, `X-Method-Override` | the decision was made for the real method: a GET-scoped key must not DELETE |
//! | path overrides | `X-Original-URL`, `X-Original-URI`, `X-Rewrite-URL` | the decision was made for the real path |
//! | gateway-set | the whole `X-Edgeattest-*` family | only the gateway speaks for the key |
//! | proxy-asserted | `Forwarded`, the `X-Forwarded-*` family, `X-Real-IP`, `True-Client-IP`, `X-Client-IP` | a client can claim any address, host or scheme; an upstream trusting them is misled |
//! | framing | `Host`, `Content-Length` | the host's HTTP client derives them from the upstream URL and the body it sends |
//! | unsendable | a name that is not an RFC 9110 token, a value holding CR, LF or NUL | no conforming client sends them; upstream parsers disagree on them |
//!
//! Query parameters named `_method` or like an override header (name percent-decoded and
//! compared the same way) are stripped too, with `&` and `;` both taken as separators, since
//! upstreams disagree on `;`. Stripping rather than refusing is deliberate: after stripping,
//! the upstream executes exactly the request that was authorized, and a 400 would protect
//! nothing more (an override is harmless once gone). Overrides inside a form body are out of
//! the gateway's sight; the upstream must not honour them.

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

use super::denial::Denial;
pub use super::limits::{MAX_QUERY_LEN, MAX_REQUEST_HEADERS, MAX_REQUEST_HEADER_BYTES};
use crate::urlencoded::{self, Segment, Separators};

/// Counts client headers against [`MAX_REQUEST_HEADERS`] and [`MAX_REQUEST_HEADER_BYTES`],
/// one header at a time, before the header is taken: a host converting headers from
/// another runtime admits each before copying it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeaderBudget {
    count: usize,
    bytes: usize,
}

impl HeaderBudget {
    /// Nothing admitted yet.
    pub const fn new() -> Self {
        Self { count: 0, bytes: 0 }
    }

    /// Admits one more header whose name and value are `name_len` and `value_len` bytes
    /// long (a lower bound will do for a first check, the exact length for the last).
    ///
    /// # Errors
    /// [`Denial::TooManyHeaders`] or [`Denial::HeadersTooLarge`], each once its cap is passed.
    pub fn admit(&mut self, name_len: usize, value_len: usize) -> Result<(), Denial> {
        self.count = self.count.saturating_add(1);
        if self.count > MAX_REQUEST_HEADERS {
            return Err(Denial::TooManyHeaders);
        }
        self.bytes = self
            .bytes
            .saturating_add(name_len)
            .saturating_add(value_len);
        if self.bytes > MAX_REQUEST_HEADER_BYTES {
            return Err(Denial::HeadersTooLarge);
        }
        Ok(())
    }
}

/// Prefix of the headers the gateway sets on forwarded requests.
pub const FORWARD_HEADER_PREFIX: &str = "x-edgeattest-";

/// Stripped names, lower case with `-` (see the module table).
const STRIPPED: &[&str] = &[
    "authorization",
    "cookie",
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "proxy-authorization",
    "proxy-authenticate",
    "x-http-method-override",
    "x-http-method",
    "x-method-override",
    "x-original-url",
    "x-original-uri",
    "x-rewrite-url",
    "forwarded",
    "x-real-ip",
    "true-client-ip",
    "x-client-ip",
    "host",
    "content-length",
];

/// Stripped families, by prefix after normalising.
const STRIPPED_PREFIXES: &[&str] = &[FORWARD_HEADER_PREFIX, "x-forwarded-"];

/// Query parameters stripped besides the override header names: `_method` (Express,
/// Laravel, Symfony), normalised like a header name.
const STRIPPED_PARAMETERS: &[&str] = &["-method"];

const METHOD_OVERRIDES: &[&str] = &[
    "x-http-method-override",
    "x-http-method",
    "x-method-override",
];

/// A header name as upstreams compare it: ASCII lower case, `_` as `-`.
pub(crate) fn normalize_header_name(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'_' => '-',
            _ => char::from(b.to_ascii_lowercase()),
        })
        .collect()
}

/// Whether the client's header `name` (with `value`) must not reach the upstream, given the
/// normalised names its `Connection` headers list.
pub(crate) fn is_stripped_header(name: &str, value: &str, connection_named: &[String]) -> bool {
    if !is_token(name) || value.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0)) {
        return true;
    }
    let name = normalize_header_name(name);
    STRIPPED.contains(&name.as_str())
        || STRIPPED_PREFIXES.iter().any(|p| name.starts_with(p))
        || connection_named.contains(&name)
}

/// The normalised names listed by every `Connection` header (RFC 9110 §7.6.1).
pub(crate) fn connection_named(headers: &[(&str, &str)]) -> Vec<String> {
    let mut named = Vec::new();
    for (name, value) in headers {
        if !is_token(name) || normalize_header_name(name) != "connection" {
            continue;
        }
        for option in value.split(',') {
            let option = option.trim_matches([' ', '\t']);
            if is_token(option) {
                named.push(normalize_header_name(option));
            }
        }
    }
    named
}

/// The headers to send upstream: the client's, in order, minus the stripped ones, then the
/// gateway's. Also the names stripped (as the client spelled them, first spelling of each),
/// for hosts that edit the incoming headers instead.
pub(crate) fn forward_headers(
    client: &[(&str, &str)],
    gateway: &[(&'static str, String)],
) -> (Vec<(String, String)>, Vec<String>) {
    let named = connection_named(client);
    let mut kept = Vec::with_capacity(client.len() + gateway.len());
    let mut removed: Vec<String> = Vec::new();
    for (name, value) in client {
        if is_stripped_header(name, value, &named) {
            if is_token(name) && !removed.iter().any(|r| r.eq_ignore_ascii_case(name)) {
                removed.push((*name).to_owned());
            }
        } else {
            kept.push(((*name).to_owned(), (*value).to_owned()));
        }
    }
    kept.extend(gateway.iter().map(|(n, v)| ((*n).to_owned(), v.clone())));
    (kept, removed)
}

/// The query without override parameters; `None` when nothing is left. Untouched
/// parameters keep their bytes, order and separators.
pub(crate) fn clean_query(query: &str) -> Option<String> {
    let mut out = String::with_capacity(query.len());
    let mut wrote = false;
    for segment in urlencoded::segments(query, Separators::AmpersandOrSemicolon) {
        if is_override_parameter(&segment) {
            continue;
        }
        if wrote {
            // The separator this pair had: `&` or `;`, as the client wrote it.
            out.push(segment.separator.unwrap_or('&'));
        }
        out.push_str(segment.text);
        wrote = true;
    }
    (!out.is_empty()).then_some(out)
}

/// Whether a `name=value` pair names a method override, its name percent-decoded.
fn is_override_parameter(segment: &Segment<'_>) -> bool {
    // Every override name is short; a longer one cannot match after decoding.
    if segment.raw_name().len() > 3 * 32 {
        return false;
    }
    // A name that does not decode (a stray `%`, not UTF-8) cannot spell an override: every
    // override name is ASCII letters and `-`/`_`.
    let Some(decoded) = segment.name() else {
        return false;
    };
    let decoded = normalize_header_name(&decoded);
    STRIPPED_PARAMETERS.contains(&decoded.as_str()) || METHOD_OVERRIDES.contains(&decoded.as_str())
}

/// RFC 9110 §5.6.2 `token`.
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'!' | b'#'
                        | b'$'
                        | b'%'
                        | b'&'
                        | b'\''
                        | b'*'
                        | b'+'
                        | b'-'
                        | b'.'
                        | b'^'
                        | b'_'
                        | b'`'
                        | b'|'
                        | b'~'
                )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_lose_only_overrides() {
        let clean = |q: &str| clean_query(q);
        assert_eq!(clean("a=1&b=2").as_deref(), Some("a=1&b=2"));
        assert_eq!(clean("a=1;b=2").as_deref(), Some("a=1;b=2"));
        assert_eq!(clean("_method=DELETE"), None);
        assert_eq!(clean("a=1&_method=DELETE&b=2").as_deref(), Some("a=1&b=2"));
        assert_eq!(clean("_method=DELETE&a=1").as_deref(), Some("a=1"));
        assert_eq!(clean("a=1;_METHOD=x;b=2").as_deref(), Some("a=1;b=2"));
        assert_eq!(clean("%5Fmethod=x&a").as_deref(), Some("a"));
        assert_eq!(clean("_%6Dethod=x&a").as_deref(), Some("a"));
        assert_eq!(clean("X_HTTP_Method_Override=PUT&a").as_deref(), Some("a"));
        assert_eq!(clean("_method"), None);
        assert_eq!(clean("my_method=1").as_deref(), Some("my_method=1"));
        assert_eq!(clean("a=_method").as_deref(), Some("a=_method"));
        assert_eq!(clean(""), None);
        assert_eq!(clean("&&a=1").as_deref(), Some("&&a=1"));
        assert_eq!(clean("a=1&&b").as_deref(), Some("a=1&&b"));
        assert_eq!(clean("%ff=1").as_deref(), Some("%ff=1"));
    }

    #[test]
    fn tokens() {
        assert!(is_token("X-Request-Id"));
        assert!(is_token("X_Edgeattest_Scopes"));
        assert!(!is_token(""));
        assert!(!is_token("X Edgeattest"));
        assert!(!is_token("X-Edgeattest-Scopes:"));
        assert!(!is_token("é"));
    }
}
