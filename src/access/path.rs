//! Request methods and request paths in the strict canonical form the gateway authorizes.
//!
//! A gateway must authorize exactly the resource the upstream will serve. Paths that
//! servers disagree about — dot segments, empty segments, percent-encoding (`%2F`, `%2e`),
//! backslashes, `;` parameters, non-ASCII — are therefore refused (400), not "cleaned":
//! cleaning is where authorization bypasses live (the gateway cleans one way, the upstream
//! another). What is accepted is forwarded in canonical form, so the upstream sees the path
//! that was authorized. A missing trailing slash is the one tolerated variation: it is added,
//! as the service's own paths end in `/` (spec §4, `/api/v3/simulations/`).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::error_code::ErrorCode;

/// Longest accepted path, in bytes.
pub const MAX_PATH_LEN: usize = 2048;

/// An HTTP method (RFC 9110 §9; method names are case-sensitive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Method {
    /// `GET`.
    Get,
    /// `HEAD`: authorized as `GET` (RFC 9110 §9.3.2: the same response without content).
    Head,
    /// `POST`.
    Post,
    /// `PUT`.
    Put,
    /// `PATCH`.
    Patch,
    /// `DELETE`.
    Delete,
    /// `OPTIONS`: CORS preflight, answered without credentials.
    Options,
    /// Any other token; never authorized.
    Other,
}

impl Method {
    /// Parses a method token exactly (`get` is not `GET`).
    pub fn parse(token: &str) -> Self {
        match token {
            "GET" => Self::Get,
            "HEAD" => Self::Head,
            "POST" => Self::Post,
            "PUT" => Self::Put,
            "PATCH" => Self::Patch,
            "DELETE" => Self::Delete,
            "OPTIONS" => Self::Options,
            _ => Self::Other,
        }
    }

    /// The method token; `Other` is written `OTHER`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Head => "HEAD",
            Self::Post => "POST",
            Self::Put => "PUT",
            Self::Patch => "PATCH",
            Self::Delete => "DELETE",
            Self::Options => "OPTIONS",
            Self::Other => "OTHER",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a path was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathError {
    /// Does not start with `/`.
    NotAbsolute,
    /// Longer than [`MAX_PATH_LEN`].
    TooLong,
    /// Holds `//`.
    EmptySegment,
    /// Holds a `.` or `..` segment.
    DotSegment,
    /// Holds `%`: percent-encoding is ambiguous between servers, and no route needs it.
    PercentEncoded,
    /// Holds a byte outside RFC 3986 `unreserved` (`A-Z a-z 0-9 - . _ ~`) and `/`.
    ForbiddenCharacter {
        /// The offending byte.
        byte: u8,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAbsolute => f.write_str("the path must start with '/'"),
            Self::TooLong => write!(f, "the path is longer than {MAX_PATH_LEN} bytes"),
            Self::EmptySegment => f.write_str("the path holds an empty segment ('//')"),
            Self::DotSegment => f.write_str("the path holds a '.' or '..' segment"),
            Self::PercentEncoded => f.write_str("the path holds percent-encoding"),
            Self::ForbiddenCharacter { byte } => {
                write!(f, "the path holds the forbidden byte 0x{byte:02x}")
            }
        }
    }
}

impl core::error::Error for PathError {}

impl ErrorCode for PathError {
    fn code(&self) -> &'static str {
        "ERR_ACCESS_INVALID_PATH"
    }
}

/// A path in canonical form: absolute, segments of unreserved characters, no dot segments,
/// ending in `/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanonicalPath {
    text: String,
}

impl CanonicalPath {
    /// Checks `raw` (the path alone, without query or fragment) and puts it in canonical form.
    ///
    /// # Errors
    /// [`PathError`] for anything outside the strict form described in the module docs.
    pub fn parse(raw: &str) -> Result<Self, PathError> {
        if raw.len() > MAX_PATH_LEN {
            return Err(PathError::TooLong);
        }
        let rest = raw.strip_prefix('/').ok_or(PathError::NotAbsolute)?;
        if let Some(byte) = rest.bytes().find(|b| !is_path_byte(*b)) {
            return Err(if byte == b'%' {
                PathError::PercentEncoded
            } else {
                PathError::ForbiddenCharacter { byte }
            });
        }
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        let mut text = String::with_capacity(raw.len() + 1);
        text.push('/');
        if !rest.is_empty() {
            for segment in rest.split('/') {
                match segment {
                    "" => return Err(PathError::EmptySegment),
                    "." | ".." => return Err(PathError::DotSegment),
                    _ => {}
                }
                text.push_str(segment);
                text.push('/');
            }
        }
        Ok(Self { text })
    }

    /// The canonical text, e.g. `/api/v3/simulations/`.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The segments between slashes.
    pub fn segments(&self) -> Vec<&str> {
        let inner = self.text.trim_matches('/');
        if inner.is_empty() {
            Vec::new()
        } else {
            inner.split('/').collect()
        }
    }
}

const fn is_path_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/')
}

/// Splits a request target (`/path?query#fragment`) into path and query (without `?`).
pub fn split_target(target: &str) -> (&str, Option<&str>) {
    let target = target.split('#').next().unwrap_or(target);
    match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
        let ok = |raw: &str| CanonicalPath::parse(raw).map(|p| String::from(p.as_str()));
        assert_eq!(ok("/api/v3/simulations/").unwrap(), "/api/v3/simulations/");
        assert_eq!(ok("/api/v3/simulations").unwrap(), "/api/v3/simulations/");
        assert_eq!(ok("/").unwrap(), "/");
        assert_eq!(ok("/a.b~c_d-e/").unwrap(), "/a.b~c_d-e/");
    }

    #[test]
    fn ambiguous_paths_are_refused() {
        let err = |raw: &str| CanonicalPath::parse(raw).unwrap_err();
        assert_eq!(err("api/v3/"), PathError::NotAbsolute);
        assert_eq!(err(""), PathError::NotAbsolute);
        assert_eq!(err("/api//v3/"), PathError::EmptySegment);
        assert_eq!(err("//api/v3/"), PathError::EmptySegment);
        assert_eq!(err("/api/v3//"), PathError::EmptySegment);
        assert_eq!(err("/api/v3/../v2/"), PathError::DotSegment);
        assert_eq!(err("/api/./v3/"), PathError::DotSegment);
        assert_eq!(err("/api/v3/%2e%2e/"), PathError::PercentEncoded);
        assert_eq!(err("/api/v3/a%2Fb/"), PathError::PercentEncoded);
        assert_eq!(
            err("/api\\v3/"),
            PathError::ForbiddenCharacter { byte: b'\\' }
        );
        assert_eq!(
            err("/api/v3/x;y=1/"),
            PathError::ForbiddenCharacter { byte: b';' }
        );
        assert_eq!(
            err("/api/v3/x?y"),
            PathError::ForbiddenCharacter { byte: b'?' }
        );
        assert_eq!(
            err("/api/v3/é/"),
            PathError::ForbiddenCharacter { byte: 0xC3 }
        );
        assert_eq!(err(&"/a".repeat(MAX_PATH_LEN)), PathError::TooLong);
    }

    #[test]
    fn targets_split() {
        assert_eq!(split_target("/a/?x=1#f"), ("/a/", Some("x=1")));
        assert_eq!(split_target("/a/#f?x"), ("/a/", None));
        assert_eq!(split_target("/a/"), ("/a/", None));
    }
}
