//! Which result an attest request asks for: the real service's (NVIDIA's JSON: the detached
//! EAT, or V1's `{"eat": …}`), or an EAT Attestation Result (`crate::ear`).
//!
//! Decisions:
//! - The EAR is opt-in, by `Accept` naming an EAR media type: `application/eat+jwt` (a JWT)
//!   or `application/eat+cwt` (a CWT, `COSE_Sign1`, a binary body), the draft's older
//!   `application/eat-jwt` / `application/eat-cwt` too, with `eat_profile` the veraison
//!   profile (`tag:github.com,2023:veraison/ear`) or draft -04's
//!   (`tag:ietf.org,2026:rats/ear#04`). Names and the parameter value compare
//!   case-insensitively; `q=0` refuses a range; the first acceptable range, in the header's
//!   order, wins. A JWT range without `eat_profile` means the veraison profile (what this
//!   service wrote first), a CWT range without it -04 (the only dialect with CWT labels);
//!   a CWT range of the veraison profile is not acceptable. The query parameter
//!   `?result=ear` asks for the veraison JWT (`?result=nras` for the default; the query wins
//!   over `Accept`). Every attest endpoint, V1 to V4, serves it: it is made from the
//!   verification's outcomes, not from the endpoint's token format.
//! - Any other `Accept` is ignored, as the real service ignores it (NRAS answers JSON
//!   whatever is asked): parity holds for every client that does not ask for an EAR — except
//!   one that asks only for EAT media types of another profile (or the veraison profile as a
//!   CWT), which gets 406 `ERR_NOT_ACCEPTABLE` rather than a JSON body it said it cannot
//!   read.
//! - Another `result` value is 400 `ERR_REQUEST_RESULT_FORMAT` (field `result`); other query
//!   parameters are ignored.
//! - Every attest response says `Vary: Accept`.

use super::http::{Request, Response};
use crate::ear::{EarDialect, EarEncoding};
use crate::error_code::ErrorBody;
use crate::urlencoded::{self, Separators};

/// The result an attest request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum ResultKind {
    /// The real service's.
    #[default]
    Nras,
    /// An EAR in this dialect and encoding.
    Ear(EarDialect, EarEncoding),
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
                Some("ear") => Ok(ResultKind::Ear(EarDialect::Veraison, EarEncoding::Jwt)),
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
        let Some(encoding) = ear_encoding(essence) else {
            anything_else = true;
            continue;
        };
        let dialect = match profile {
            None if encoding == EarEncoding::Jwt => Some(EarDialect::Veraison),
            None => Some(EarDialect::Ietf04),
            Some(p) => [EarDialect::Veraison, EarDialect::Ietf04]
                .into_iter()
                .find(|d| p.eq_ignore_ascii_case(d.profile())),
        };
        match dialect {
            Some(EarDialect::Veraison) if encoding == EarEncoding::Cwt => other_eat = true,
            Some(dialect) => return Ok(ResultKind::Ear(dialect, encoding)),
            None => other_eat = true,
        }
    }
    if other_eat && !anything_else {
        let mut body = ErrorBody::new(
            406,
            "ERR_NOT_ACCEPTABLE",
            "this service writes EAT results of profile tag:github.com,2023:veraison/ear \
             (application/eat+jwt) and tag:ietf.org,2026:rats/ear#04 (application/eat+jwt, \
             application/eat+cwt), or NVIDIA's JSON",
        );
        body.field = Some("Accept".into());
        return Err(body.into_response());
    }
    Ok(ResultKind::Nras)
}

/// The EAR encoding a media type names (RFC 9782's `+jwt`/`+cwt`, the draft's `-jwt`/`-cwt`).
fn ear_encoding(essence: &str) -> Option<EarEncoding> {
    let is = |name: &str| essence.eq_ignore_ascii_case(name);
    if is("application/eat+jwt") || is("application/eat-jwt") {
        Some(EarEncoding::Jwt)
    } else if is("application/eat+cwt") || is("application/eat-cwt") {
        Some(EarEncoding::Cwt)
    } else {
        None
    }
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

    const EAR: ResultKind = ResultKind::Ear(EarDialect::Veraison, EarEncoding::Jwt);
    const EAR_04_JWT: ResultKind = ResultKind::Ear(EarDialect::Ietf04, EarEncoding::Jwt);
    const EAR_04_CWT: ResultKind = ResultKind::Ear(EarDialect::Ietf04, EarEncoding::Cwt);

    #[test]
    fn accept_selects_the_dialect_and_encoding() {
        let p = "/v4/attest/gpu";
        let v04 = "tag:ietf.org,2026:rats/ear#04";
        for (accept, expected) in [
            (
                alloc::format!(r#"application/eat+jwt; eat_profile="{v04}""#),
                Ok(EAR_04_JWT),
            ),
            (
                alloc::format!(r#"application/eat-jwt;eat_profile="{v04}""#),
                Ok(EAR_04_JWT),
            ),
            (
                alloc::format!(r#"application/eat+cwt; eat_profile="{v04}""#),
                Ok(EAR_04_CWT),
            ),
            (
                alloc::format!(
                    r#"APPLICATION/EAT-CWT; EAT_PROFILE="{}""#,
                    v04.to_uppercase()
                ),
                Ok(EAR_04_CWT),
            ),
            ("application/eat+cwt".into(), Ok(EAR_04_CWT)),
            (
                alloc::format!(
                    r#"application/eat+cwt;q=0, application/eat+jwt;eat_profile="{v04}""#
                ),
                Ok(EAR_04_JWT),
            ),
            (
                alloc::format!(r#"application/eat+cwt;eat_profile="{v04}", application/eat+jwt"#),
                Ok(EAR_04_CWT),
            ),
            // The veraison profile has no CWT labels of its own: not acceptable as a CWT.
            (
                r#"application/eat+cwt; eat_profile="tag:github.com,2023:veraison/ear""#.into(),
                Err(406),
            ),
            (
                r#"application/eat+cwt; eat_profile="tag:ietf.org,2026:rats/ear#03""#.into(),
                Err(406),
            ),
            (
                r#"application/eat+jwt; eat_profile="tag:ietf.org,2025-07:ear""#.into(),
                Err(406),
            ),
            (
                r#"application/eat+cwt; eat_profile="x", application/json"#.into(),
                Ok(ResultKind::Nras),
            ),
        ] {
            assert_eq!(kind(p, Some(&accept)), expected, "{accept}");
        }
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
            assert_eq!(kind(p, Some(ear)), Ok(EAR), "{ear}");
        }
        for refused in ["q=0", "q=0.", "q=0.000", "Q=0.0"] {
            let accept = alloc::format!("application/eat+jwt;{refused}, application/json");
            assert_eq!(kind(p, Some(&accept)), Ok(ResultKind::Nras), "{refused}");
        }
        assert_eq!(kind(p, Some("application/eat+jwt;q=0.001")), Ok(EAR));
        let other = r#"application/eat+jwt; eat_profile="tag:ietf.org,2026:rats/ear#03""#;
        assert_eq!(kind(p, Some(other)), Err(406));
        assert_eq!(
            kind(p, Some(&alloc::format!("{other}, */*;q=0.1"))),
            Ok(ResultKind::Nras)
        );
        assert_eq!(kind("/v4/attest/gpu?result=ear", None), Ok(EAR));
        assert_eq!(kind("/v4/attest/gpu?x=1&result=ear", None), Ok(EAR));
        assert_eq!(
            kind("/v4/attest/gpu?result=nras", Some("application/eat+jwt")),
            Ok(ResultKind::Nras)
        );
        assert_eq!(kind("/v4/attest/gpu?result=EAR", None), Err(400));
        assert_eq!(kind("/v4/attest/gpu?result=%65ar", None), Ok(EAR));
        assert_eq!(kind("/v4/attest/gpu?%72esult=ear", None), Ok(EAR));
        assert_eq!(kind("/v4/attest/gpu?result=e%zzar", None), Err(400));
        assert_eq!(kind("/v4/attest/gpu?x=%zz&result=ear", None), Ok(EAR));
        assert_eq!(kind("/v4/attest/gpu?x=%zz", None), Ok(ResultKind::Nras));
        assert_eq!(kind("/v4/attest/gpu?other=1", None), Ok(ResultKind::Nras));
    }
}
