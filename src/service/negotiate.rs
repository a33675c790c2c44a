//! Which result an attest request asks for: the real service's (NVIDIA's JSON: the detached
//! EAT, or V1's `{"eat": …}`), or an EAT Attestation Result (`crate::ear`).
//!
//! Decisions:
//! - The EAR is opt-in, by `Accept: application/eat+jwt; eat_profile="tag:github.com,2023:veraison/ear"`
//!   (the draft's older `application/eat-jwt` too; names and the parameter value compare
//!   case-insensitively; a media range without `eat_profile` counts, as this service writes
//!   one EAR profile; `q=0` refuses it), or by the query parameter `?result=ear`
//!   (`?result=nras` asks for the default; the query wins over `Accept`). Every attest
//!   endpoint, V1 to V4, serves it: it is made from the verification's outcomes, not from
//!   the endpoint's token format.
//! - Any other `Accept` is ignored, as the real service ignores it (NRAS answers JSON
//!   whatever is asked): parity holds for every client that does not ask for an EAR — except
//!   one that asks only for EAT media types of another profile, which gets 406
//!   `ERR_NOT_ACCEPTABLE` rather than a JSON body it said it cannot read.
//! - Another `result` value is 400 `ERR_REQUEST_RESULT_FORMAT` (field `result`); other query
//!   parameters are ignored.
//! - Every attest response says `Vary: Accept`.

use super::http::{Request, Response};
use crate::ear::EAR_PROFILE;
use crate::error_code::ErrorBody;
use crate::urlencoded::{self, Separators};

/// The result an attest request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum ResultKind {
    /// The real service's.
    #[default]
    Nras,
    /// An EAR.
    Ear,
}

/// The query parameter that selects the result.
const RESULT_PARAMETER: &str = "result";

/// Reads the request's choice (see the module documentation).
pub(crate) fn result_kind(request: &Request) -> Result<ResultKind, Response> {
    if let Some((_, query)) = request.path.split_once('?') {
        // Other parameters are ignored, well encoded or not (the real service reads none);
        // a `result` whose value does not decode is refused like any other bad value.
        let mut segments = urlencoded::segments(query, Separators::Ampersand);
        if let Some(segment) =
            segments.find(|segment| segment.name().as_deref() == Some(RESULT_PARAMETER))
        {
            return match urlencoded::decode(segment.raw_value()).as_deref() {
                Some("ear") => Ok(ResultKind::Ear),
                Some("nras") => Ok(ResultKind::Nras),
                _ => {
                    let mut body = ErrorBody::new(
                        400,
                        "ERR_REQUEST_RESULT_FORMAT",
                        "the result query parameter is \"ear\" or \"nras\"",
                    );
                    body.field = Some(RESULT_PARAMETER.into());
                    Err(body.into_response())
                }
            };
        }
    }
    let Some(accept) = request.header_value("accept") else {
        return Ok(ResultKind::Nras);
    };
    let (mut other_eat, mut anything_else) = (false, false);
    for range in split_unquoted(accept, ',') {
        let mut parts = split_unquoted(range, ';');
        let essence = parts.next().unwrap_or("").trim();
        let (mut profile, mut refused) = (None, false);
        for parameter in parts {
            let Some((name, value)) = parameter.split_once('=') else {
                continue;
            };
            let value = value.trim().trim_matches('"');
            match name.trim().to_ascii_lowercase().as_str() {
                "eat_profile" => profile = Some(value),
                "q" => refused = is_zero_qvalue(value),
                _ => {}
            }
        }
        if refused || essence.is_empty() {
            continue;
        }
        let eat = essence.eq_ignore_ascii_case("application/eat+jwt")
            || essence.eq_ignore_ascii_case("application/eat-jwt");
        if !eat {
            anything_else = true;
        } else if profile.is_none_or(|p| p.eq_ignore_ascii_case(EAR_PROFILE)) {
            return Ok(ResultKind::Ear);
        } else {
            other_eat = true;
        }
    }
    if other_eat && !anything_else {
        let mut body = ErrorBody::new(
            406,
            "ERR_NOT_ACCEPTABLE",
            "this service writes EAT results of profile tag:github.com,2023:veraison/ear \
             (or NVIDIA's JSON)",
        );
        body.field = Some("Accept".into());
        return Err(body.into_response());
    }
    Ok(ResultKind::Nras)
}

/// A `q` of zero (RFC 9110 §12.4.2: `0`, `0.`, `0.0` to `0.000`): the range is refused.
/// Read by hand: a float parser is kilobytes of wasm for one comparison.
fn is_zero_qvalue(value: &str) -> bool {
    match value.strip_prefix('0') {
        Some("") => true,
        Some(rest) => rest
            .strip_prefix('.')
            .is_some_and(|digits| digits.len() <= 3 && digits.bytes().all(|b| b == b'0')),
        None => false,
    }
}

/// `text` split at `separator` outside quoted strings (the profile holds a comma).
fn split_unquoted(text: &str, separator: char) -> impl Iterator<Item = &str> {
    let mut quoted = false;
    let mut escaped = false;
    text.split(move |c: char| {
        if escaped {
            escaped = false;
        } else if quoted && c == '\\' {
            escaped = true;
        } else if c == '"' {
            quoted = !quoted;
        }
        c == separator && !quoted
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(path: &str, accept: Option<&str>) -> Result<ResultKind, u16> {
        let mut request = Request::new("POST", path);
        if let Some(accept) = accept {
            request = request.header("Accept", accept);
        }
        result_kind(&request).map_err(|r| r.status)
    }

    #[test]
    fn accept_and_query_select_the_ear() {
        let p = "/v4/attest/gpu";
        assert_eq!(kind(p, None), Ok(ResultKind::Nras));
        assert_eq!(kind(p, Some("application/json")), Ok(ResultKind::Nras));
        assert_eq!(kind(p, Some("*/*")), Ok(ResultKind::Nras));
        assert_eq!(kind(p, Some("text/html")), Ok(ResultKind::Nras));
        for ear in [
            r#"application/eat+jwt; eat_profile="tag:github.com,2023:veraison/ear""#,
            r#"Application/EAT+JWT;EAT_PROFILE="TAG:GITHUB.COM,2023:VERAISON/EAR""#,
            r#"application/eat-jwt; eat_profile="tag:github.com,2023:veraison/ear""#,
            "application/eat+jwt",
            "application/json;q=0.5, application/eat+jwt",
        ] {
            assert_eq!(kind(p, Some(ear)), Ok(ResultKind::Ear), "{ear}");
        }
        for refused in ["q=0", "q=0.", "q=0.000", "Q=0.0"] {
            let accept = alloc::format!("application/eat+jwt;{refused}, application/json");
            assert_eq!(kind(p, Some(&accept)), Ok(ResultKind::Nras), "{refused}");
        }
        assert_eq!(
            kind(p, Some("application/eat+jwt;q=0.001")),
            Ok(ResultKind::Ear)
        );
        let other = r#"application/eat+jwt; eat_profile="tag:ietf.org,2026:rats/ear#04""#;
        assert_eq!(kind(p, Some(other)), Err(406));
        assert_eq!(
            kind(p, Some(&alloc::format!("{other}, */*;q=0.1"))),
            Ok(ResultKind::Nras)
        );
        assert_eq!(kind("/v4/attest/gpu?result=ear", None), Ok(ResultKind::Ear));
        assert_eq!(
            kind("/v4/attest/gpu?x=1&result=ear", None),
            Ok(ResultKind::Ear)
        );
        assert_eq!(
            kind("/v4/attest/gpu?result=nras", Some("application/eat+jwt")),
            Ok(ResultKind::Nras)
        );
        assert_eq!(kind("/v4/attest/gpu?result=EAR", None), Err(400));
        assert_eq!(
            kind("/v4/attest/gpu?result=%65ar", None),
            Ok(ResultKind::Ear)
        );
        assert_eq!(
            kind("/v4/attest/gpu?%72esult=ear", None),
            Ok(ResultKind::Ear)
        );
        assert_eq!(kind("/v4/attest/gpu?result=e%zzar", None), Err(400));
        assert_eq!(
            kind("/v4/attest/gpu?x=%zz&result=ear", None),
            Ok(ResultKind::Ear)
        );
        assert_eq!(kind("/v4/attest/gpu?x=%zz", None), Ok(ResultKind::Nras));
        assert_eq!(kind("/v4/attest/gpu?other=1", None), Ok(ResultKind::Nras));
    }
}
