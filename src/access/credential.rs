//! Reading the bearer credential from a request (RFC 6750 §2.1).
//!
//! ```text
//! credentials = "Bearer" 1*SP b64token
//! b64token    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
//! ```
//!
//! The scheme name is case-insensitive (RFC 9110 §11.1); the token is taken byte for byte.
//! Keys are accepted only in the `Authorization` header: a key in the URL (`access_token`,
//! RFC 6750 §2.3) is refused, because URLs end up in logs, browser history and `Referer`.

use core::fmt;

use crate::urlencoded::{self, Separators};

/// Longest accepted `Authorization` value, in bytes. Keys are 58 bytes; GitHub asks
/// integrators to allow 255-byte tokens, so this leaves room without inviting abuse.
pub const MAX_AUTHORIZATION_LEN: usize = 512;

/// Why no bearer token could be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CredentialError {
    /// No `Authorization` header: 401 with a bare challenge (RFC 6750 §3.1: no error code
    /// when the request carries no authentication information).
    Missing,
    /// A scheme other than `Bearer` (e.g. `Basic`): treated like [`Self::Missing`], as the
    /// RFC asks for clients "attempting an unsupported authentication method".
    UnsupportedScheme,
    /// A malformed header or credentials sent twice: 400 `invalid_request`.
    Malformed(Malformation),
}

/// What is wrong with a malformed `Authorization` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Malformation {
    /// The header is present but empty.
    Empty,
    /// `Bearer` with no token after it.
    MissingToken,
    /// The scheme is not followed by a space (e.g. a tab).
    BadSeparator,
    /// The token holds a character outside `b64token`.
    InvalidTokenCharacter,
    /// Two credentials in one header (`Bearer a, Bearer b`, or two headers joined by a
    /// proxy).
    MultipleCredentials,
    /// Longer than [`MAX_AUTHORIZATION_LEN`].
    TooLong,
    /// Control characters or non-ASCII bytes.
    NotVisibleAscii,
    /// An `access_token` query parameter (alone or besides the header).
    TokenInQuery,
}

impl Malformation {
    /// A one-sentence explanation, safe for `error_description` (no `"` or `\`).
    pub const fn description(self) -> &'static str {
        match self {
            Self::Empty => "The Authorization header is empty",
            Self::MissingToken => "The Authorization header names the Bearer scheme but no key",
            Self::BadSeparator => "The Bearer scheme must be followed by one or more spaces",
            Self::InvalidTokenCharacter => {
                "The bearer key holds a character that a bearer token cannot hold"
            }
            Self::MultipleCredentials => "The request carries more than one credential",
            Self::TooLong => "The Authorization header is too long",
            Self::NotVisibleAscii => {
                "The Authorization header holds control or non-ASCII characters"
            }
            Self::TokenInQuery => {
                "API keys are accepted only in the Authorization header, never in the URL"
            }
        }
    }

    /// A stable snake_case name, used in decision audits.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Empty => "empty",
            Self::MissingToken => "missing_token",
            Self::BadSeparator => "bad_separator",
            Self::InvalidTokenCharacter => "invalid_token_character",
            Self::MultipleCredentials => "multiple_credentials",
            Self::TooLong => "too_long",
            Self::NotVisibleAscii => "not_visible_ascii",
            Self::TokenInQuery => "token_in_query",
        }
    }
}

impl fmt::Display for Malformation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

impl fmt::Display for CredentialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing => f.write_str("The request carries no bearer credential"),
            Self::UnsupportedScheme => {
                f.write_str("The Authorization header uses a scheme other than Bearer")
            }
            Self::Malformed(problem) => problem.fmt(f),
        }
    }
}

impl core::error::Error for CredentialError {}

/// The same codes the gateway's answers carry ([`super::authorize`]): a missing credential
/// or another scheme is a 401 without an error code, a malformed one a 400 `invalid_request`.
impl crate::error_code::ErrorCode for CredentialError {
    fn code(&self) -> &'static str {
        match self {
            Self::Missing | Self::UnsupportedScheme => "ERR_ACCESS_NO_CREDENTIALS",
            Self::Malformed(_) => "ERR_ACCESS_INVALID_REQUEST",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Malformed(Malformation::TokenInQuery) => Some("access_token"),
            _ => Some("authorization"),
        }
    }
}

/// Reads the bearer token from the `Authorization` header value (`None` when the header is
/// absent) and the URL query (without `?`).
///
/// Surrounding spaces and tabs are ignored (RFC 9110 §5.5: they are not part of the field
/// value). Several `Authorization` headers arrive joined by `, ` (Fetch `Headers.get`), and
/// are refused as [`Malformation::MultipleCredentials`].
///
/// # Errors
/// [`CredentialError`], which decides between 401 and 400.
pub fn bearer_token<'a>(
    authorization: Option<&'a str>,
    query: Option<&str>,
) -> Result<&'a str, CredentialError> {
    if query.is_some_and(has_access_token_parameter) {
        return Err(CredentialError::Malformed(Malformation::TokenInQuery));
    }
    let Some(raw) = authorization else {
        return Err(CredentialError::Missing);
    };
    if raw.len() > MAX_AUTHORIZATION_LEN {
        return Err(CredentialError::Malformed(Malformation::TooLong));
    }
    let value = raw.trim_matches([' ', '\t']);
    if value.bytes().any(|b| b >= 0x7F || (b < 0x20 && b != b'\t')) {
        return Err(CredentialError::Malformed(Malformation::NotVisibleAscii));
    }
    if value.is_empty() {
        return Err(CredentialError::Malformed(Malformation::Empty));
    }
    let (scheme, rest) = value.split_at(value.find(' ').unwrap_or(value.len()));
    if !scheme.eq_ignore_ascii_case("bearer") {
        let lower = value.to_ascii_lowercase();
        return Err(if lower.starts_with("bearer") {
            // `Bearer\tkey`, `Bearerkey`, `Bearer,`: our scheme, badly separated.
            CredentialError::Malformed(Malformation::BadSeparator)
        } else if lower.contains("bearer ") {
            // `Basic x, Bearer y`: two credentials, one of them ours.
            CredentialError::Malformed(Malformation::MultipleCredentials)
        } else {
            CredentialError::UnsupportedScheme
        });
    }
    let token = rest.trim_start_matches(' ');
    if token.is_empty() {
        return Err(CredentialError::Malformed(Malformation::MissingToken));
    }
    if token.contains(',') {
        return Err(CredentialError::Malformed(
            Malformation::MultipleCredentials,
        ));
    }
    if !is_b64token(token) {
        return Err(CredentialError::Malformed(
            Malformation::InvalidTokenCharacter,
        ));
    }
    Ok(token)
}

/// RFC 6750 §2.1 `b64token`: the token characters, then only `=` padding.
fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/')
        })
}

/// Whether a query string has an `access_token` parameter: its name percent-decoded and
/// compared case-insensitively, pairs split on `&` and `;` (as an upstream server may).
fn has_access_token_parameter(query: &str) -> bool {
    urlencoded::names(query, Separators::AmpersandOrSemicolon)
        .flatten()
        .any(|name| name.eq_ignore_ascii_case("access_token"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b64token_grammar() {
        assert!(is_b64token("abc"));
        assert!(is_b64token("a-b.c_d~e+f/g=="));
        assert!(!is_b64token("=="));
        assert!(!is_b64token("a=b"));
        assert!(!is_b64token("a\"b"));
    }

    #[test]
    fn access_token_in_query() {
        assert!(has_access_token_parameter("access_token=x"));
        assert!(has_access_token_parameter("a=1&ACCESS_TOKEN=x"));
        assert!(has_access_token_parameter("access%5Ftoken=x"));
        assert!(has_access_token_parameter("access_token"));
        assert!(has_access_token_parameter("%61ccess_token=x"));
        assert!(has_access_token_parameter("a=1;access_token=x"));
        assert!(has_access_token_parameter("%ZZ=1&access_token=x"));
        assert!(!has_access_token_parameter("access_token%ZZ=x"));
        assert!(!has_access_token_parameter("access+token=x"));
        assert!(!has_access_token_parameter(""));
        assert!(!has_access_token_parameter("my_access_token=x"));
        assert!(!has_access_token_parameter("limit=10"));
    }

    #[test]
    fn credential_errors_carry_the_gateway_codes() {
        use crate::error_code::ErrorCode;
        assert_eq!(
            bearer_token(None, None).unwrap_err().code(),
            "ERR_ACCESS_NO_CREDENTIALS"
        );
        let malformed = bearer_token(Some("Bearer"), None).unwrap_err();
        assert_eq!(malformed.code(), "ERR_ACCESS_INVALID_REQUEST");
        assert_eq!(malformed.field(), Some("authorization"));
        assert!(!alloc::format!("{malformed}").is_empty());
        let in_query = bearer_token(None, Some("access_token=x")).unwrap_err();
        assert_eq!(in_query.field(), Some("access_token"));
    }
}
