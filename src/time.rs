//! Unix seconds ⇄ calendar text, written by hand for `no_std`: RFC 3339 UTC timestamps
//! (`2026-09-10T00:00:00Z`) and HTTP dates in IMF-fixdate form
//! (`Thu, 10 Sep 2026 00:00:00 GMT`, RFC 9110 §5.6.7).
//!
//! The calendar arithmetic is Howard Hinnant's `days_from_civil` / `civil_from_days`
//! (<https://howardhinnant.github.io/date_algorithms.html>): the proleptic Gregorian calendar
//! is shifted so that years start on 1 March, which puts the leap day last; a 400-year era
//! then has a fixed 146 097 days, and day-of-year ⇄ month is the linear formula
//! `(153·m + 2) / 5`. Exact for every date, with no tables and no loops.
//!
//! Range: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z, the span both formats can write
//! with four-digit years and Unix seconds can hold unsigned. Leap seconds (`:60`) are
//! refused: Unix time has no place for them.

use alloc::string::String;
use core::fmt;

use serde::de::{Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error_code::ErrorCode;

/// The last second representable: 9999-12-31T23:59:59Z.
pub const MAX_SECS: u64 = 253_402_300_799;

const SECS_PER_DAY: u64 = 86_400;
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/// A point in time: whole seconds since 1970-01-01T00:00:00Z, from 0 to [`MAX_SECS`]
/// (9999-12-31T23:59:59Z). The core never reads a clock; its caller passes one of these.
///
/// JSON writes it as the number of seconds (TypeScript `number`), and reads that number back
/// only when it is whole and in range; the JS binding reads its times itself, where a `Date`
/// is allowed too and the host clock is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnixTime(u64);

impl UnixTime {
    /// The epoch, 1970-01-01T00:00:00Z.
    pub const EPOCH: Self = Self(0);
    /// The last representable second, 9999-12-31T23:59:59Z.
    pub const MAX: Self = Self(MAX_SECS);

    /// `secs` seconds after the epoch, or `None` past [`MAX_SECS`].
    pub const fn from_secs(secs: u64) -> Option<Self> {
        if secs > MAX_SECS {
            None
        } else {
            Some(Self(secs))
        }
    }

    /// A number of seconds as a host gives it (a JS number): `None` unless it is a whole
    /// number from 0 to [`MAX_SECS`] (NaN, infinities, negatives and fractions are refused,
    /// not rounded: a caller that means "about now" floors it first).
    pub fn from_number(secs: f64) -> Option<Self> {
        // `f64::fract` and `floor` need std: in range (which excludes NaN and infinities), the
        // truncating conversion is exact exactly when the number is whole.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let whole = secs as u64;
        #[allow(clippy::cast_precision_loss)]
        let exact = whole as f64 == secs;
        ((0.0..=MAX_SECS as f64).contains(&secs) && exact).then_some(Self(whole))
    }

    /// A host's millisecond clock reading (a JS `Date`): floored to whole seconds; `None`
    /// before the epoch, past [`MAX_SECS`], or not a number.
    pub fn from_millis(millis: f64) -> Option<Self> {
        // Before the epoch is refused, so flooring is truncating a non-negative number.
        if !(0.0..=(MAX_SECS as f64 + 1.0) * 1000.0).contains(&millis) {
            return None;
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let secs = (millis / 1000.0) as u64;
        Self::from_secs(secs)
    }

    /// Seconds since the epoch.
    pub const fn as_secs(self) -> u64 {
        self.0
    }

    /// `secs` seconds later, or [`Self::MAX`] when that is past it.
    #[must_use]
    pub const fn saturating_add(self, secs: u64) -> Self {
        let later = self.0.saturating_add(secs);
        if later > MAX_SECS {
            Self::MAX
        } else {
            Self(later)
        }
    }

    /// A reader of an optional `now` for the option methods: the time given, else `clock`
    /// (the caller's clock reading; the core reads none).
    pub fn given_or<E>(clock: Self) -> impl Fn(Option<&Self>) -> Result<Self, E> + Copy {
        move |now| Ok(now.copied().unwrap_or(clock))
    }
}

impl Serialize for UnixTime {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for UnixTime {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Secs;
        impl Visitor<'_> for Secs {
            type Value = UnixTime;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("Unix seconds (a whole number from 0 to 253402300799)")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<UnixTime, E> {
                UnixTime::from_secs(n)
                    .ok_or_else(|| E::invalid_value(Unexpected::Unsigned(n), &self))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<UnixTime, E> {
                u64::try_from(n)
                    .ok()
                    .and_then(UnixTime::from_secs)
                    .ok_or_else(|| E::invalid_value(Unexpected::Signed(n), &self))
            }
            fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<UnixTime, E> {
                UnixTime::from_number(n)
                    .ok_or_else(|| E::invalid_value(Unexpected::Float(n), &self))
            }
        }
        deserializer.deserialize_any(Secs)
    }
}

/// A JS number: every time in range is a safe integer.
#[cfg(feature = "ts")]
impl ts_rs::TS for UnixTime {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;
    fn name(_: &ts_rs::Config) -> String {
        String::from("number")
    }
    fn inline(_: &ts_rs::Config) -> String {
        String::from("number")
    }
}

impl fmt::Display for UnixTime {
    /// RFC 3339 UTC, e.g. `2026-09-10T00:00:00Z`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match format_rfc3339(self.0) {
            Some(text) => f.write_str(&text),
            None => write!(f, "{} s", self.0),
        }
    }
}

/// A broken-down UTC time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateTime {
    /// Year, 1970–9999.
    pub year: u32,
    /// Month, 1–12.
    pub month: u32,
    /// Day of the month, 1–31.
    pub day: u32,
    /// Hour, 0–23.
    pub hour: u32,
    /// Minute, 0–59.
    pub minute: u32,
    /// Second, 0–59.
    pub second: u32,
}

impl DateTime {
    /// The UTC calendar time of `secs`, or `None` past [`MAX_SECS`].
    pub fn from_unix(secs: u64) -> Option<Self> {
        if secs > MAX_SECS {
            return None;
        }
        let days = secs / SECS_PER_DAY;
        let rest = secs % SECS_PER_DAY;
        let (year, month, day) = civil_from_days(days);
        Some(Self {
            year,
            month,
            day,
            hour: (rest / 3600) as u32,
            minute: (rest % 3600 / 60) as u32,
            second: (rest % 60) as u32,
        })
    }

    /// Unix seconds, or `None` for an invalid or out-of-range date or time.
    pub fn to_unix(self) -> Option<u64> {
        let valid = (1970..=9999).contains(&self.year)
            && (1..=12).contains(&self.month)
            && self.day >= 1
            && self.day <= days_in_month(self.year, self.month)
            && self.hour < 24
            && self.minute < 60
            && self.second < 60;
        if !valid {
            return None;
        }
        let days = days_from_civil(self.year, self.month, self.day);
        Some(
            days * SECS_PER_DAY
                + u64::from(self.hour) * 3600
                + u64::from(self.minute) * 60
                + u64::from(self.second),
        )
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339 §5.6, UTC, no fraction), or `None` past [`MAX_SECS`].
pub fn format_rfc3339(secs: u64) -> Option<String> {
    let t = DateTime::from_unix(secs)?;
    Some(alloc::format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year,
        t.month,
        t.day,
        t.hour,
        t.minute,
        t.second
    ))
}

/// IMF-fixdate (RFC 9110 §5.6.7), e.g. `Thu, 10 Sep 2026 00:00:00 GMT`, as the `Sunset`
/// header requires (RFC 8594 §3), or `None` past [`MAX_SECS`].
pub fn format_http_date(secs: u64) -> Option<String> {
    let t = DateTime::from_unix(secs)?;
    let weekday = WEEKDAYS.get(weekday(secs / SECS_PER_DAY))?;
    let month = MONTHS.get(usize::try_from(t.month).ok()?.checked_sub(1)?)?;
    Some(alloc::format!(
        "{weekday}, {:02} {month} {:04} {:02}:{:02}:{:02} GMT",
        t.day,
        t.year,
        t.hour,
        t.minute,
        t.second
    ))
}

/// Why a timestamp could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeError {
    /// The text does not have the format's shape.
    Syntax,
    /// Well-formed, but not a real date or time (31 April, 25:00, a leap second, a weekday
    /// that does not match), or outside 1970–9999.
    Range,
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax => f.write_str("the timestamp is not in the expected format"),
            Self::Range => f.write_str("the timestamp names no valid time from 1970 to 9999"),
        }
    }
}

impl core::error::Error for TimeError {}

impl ErrorCode for TimeError {
    fn code(&self) -> &'static str {
        match self {
            Self::Syntax => "ERR_TIME_SYNTAX",
            Self::Range => "ERR_TIME_RANGE",
        }
    }
}

/// Parses an RFC 3339 `date-time`: `YYYY-MM-DDTHH:MM:SS`, an optional fraction (dropped:
/// the result is whole seconds, rounded down), then `Z` or a `±HH:MM` offset. `T` and `Z`
/// may be lower case (RFC 3339 §5.6 note).
///
/// # Errors
/// [`TimeError::Syntax`] or [`TimeError::Range`].
pub fn parse_rfc3339(text: &str) -> Result<u64, TimeError> {
    let b = text.as_bytes();
    let year = digits(b, 0, 4)?;
    expect(b, 4, b'-')?;
    let month = digits(b, 5, 2)?;
    expect(b, 7, b'-')?;
    let day = digits(b, 8, 2)?;
    if !matches!(b.get(10), Some(b'T' | b't')) {
        return Err(TimeError::Syntax);
    }
    let hour = digits(b, 11, 2)?;
    expect(b, 13, b':')?;
    let minute = digits(b, 14, 2)?;
    expect(b, 16, b':')?;
    let second = digits(b, 17, 2)?;
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return Err(TimeError::Syntax);
        }
    }
    let offset: i64 = match b.get(i) {
        Some(b'Z' | b'z') if b.len() == i + 1 => 0,
        Some(sign @ (b'+' | b'-')) if b.len() == i + 6 => {
            let oh = digits(b, i + 1, 2)?;
            expect(b, i + 3, b':')?;
            let om = digits(b, i + 4, 2)?;
            if oh > 23 || om > 59 {
                return Err(TimeError::Range);
            }
            let minutes = i64::from(oh * 60 + om);
            if *sign == b'+' {
                minutes
            } else {
                -minutes
            }
        }
        _ => return Err(TimeError::Syntax),
    };
    let local = DateTime {
        year,
        month,
        day,
        hour,
        minute,
        second,
    };
    // Validate the local fields, then shift by the offset. A local time just after
    // 1970-01-01 with a positive offset can fall before the epoch: out of range.
    let local_secs = local.to_unix().ok_or(TimeError::Range)?;
    let utc = i64::try_from(local_secs).map_err(|_| TimeError::Range)? - offset * 60;
    let utc = u64::try_from(utc).map_err(|_| TimeError::Range)?;
    if utc > MAX_SECS {
        return Err(TimeError::Range);
    }
    Ok(utc)
}

/// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form this crate writes.
/// The weekday must match the date.
///
/// # Errors
/// [`TimeError::Syntax`] or [`TimeError::Range`].
pub fn parse_http_date(text: &str) -> Result<u64, TimeError> {
    let b = text.as_bytes();
    if b.len() != 29 {
        return Err(TimeError::Syntax);
    }
    let weekday_name = text.get(0..3).ok_or(TimeError::Syntax)?;
    let weekday_index = WEEKDAYS
        .iter()
        .position(|w| *w == weekday_name)
        .ok_or(TimeError::Syntax)?;
    if text.get(3..5) != Some(", ") {
        return Err(TimeError::Syntax);
    }
    let day = digits(b, 5, 2)?;
    expect(b, 7, b' ')?;
    let month_name = text.get(8..11).ok_or(TimeError::Syntax)?;
    let month = MONTHS
        .iter()
        .position(|m| *m == month_name)
        .ok_or(TimeError::Syntax)?;
    expect(b, 11, b' ')?;
    let year = digits(b, 12, 4)?;
    expect(b, 16, b' ')?;
    let hour = digits(b, 17, 2)?;
    expect(b, 19, b':')?;
    let minute = digits(b, 20, 2)?;
    expect(b, 22, b':')?;
    let second = digits(b, 23, 2)?;
    if text.get(25..) != Some(" GMT") {
        return Err(TimeError::Syntax);
    }
    let secs = DateTime {
        year,
        month: u32::try_from(month).map_err(|_| TimeError::Syntax)? + 1,
        day,
        hour,
        minute,
        second,
    }
    .to_unix()
    .ok_or(TimeError::Range)?;
    if weekday(secs / SECS_PER_DAY) != weekday_index {
        return Err(TimeError::Range);
    }
    Ok(secs)
}

fn digits(b: &[u8], start: usize, len: usize) -> Result<u32, TimeError> {
    let slice = b.get(start..start + len).ok_or(TimeError::Syntax)?;
    slice.iter().try_fold(0u32, |acc, d| {
        if d.is_ascii_digit() {
            Ok(acc * 10 + u32::from(d - b'0'))
        } else {
            Err(TimeError::Syntax)
        }
    })
}

fn expect(b: &[u8], at: usize, byte: u8) -> Result<(), TimeError> {
    if b.get(at) == Some(&byte) {
        Ok(())
    } else {
        Err(TimeError::Syntax)
    }
}

const fn is_leap(year: u32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

const fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// 0 = Sunday. 1970-01-01 was a Thursday.
const fn weekday(days: u64) -> usize {
    ((days + 4) % 7) as usize
}

/// Days since 1970-01-01 of a date in 1970–9999 (Hinnant's `days_from_civil`, restricted
/// to non-negative years, so all arithmetic is unsigned).
const fn days_from_civil(year: u32, month: u32, day: u32) -> u64 {
    // Years start on 1 March: January and February belong to the previous year.
    let y = (if month <= 2 { year - 1 } else { year }) as u64;
    let era = y / 400;
    let yoe = y - era * 400; // [0, 399]
    let mp = ((month + 9) % 12) as u64; // March = 0 … February = 11
    let doy = (153 * mp + 2) / 5 + day as u64 - 1; // [0, 365]
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; // [0, 146096]
                                                     // 719 468 = days from 0000-03-01 to 1970-01-01.
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01 (Hinnant's `civil_from_days`, unsigned).
const fn civil_from_days(days: u64) -> (u32, u32, u32) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097; // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11]
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
    let year = (yoe + era * 400) as u32 + (month <= 2) as u32;
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn unix_time_takes_whole_seconds_in_range_only() {
        assert_eq!(UnixTime::from_number(0.0), Some(UnixTime::EPOCH));
        assert_eq!(UnixTime::from_number(MAX_SECS as f64), Some(UnixTime::MAX));
        for bad in [
            f64::NAN,
            f64::INFINITY,
            -1.0,
            -0.5,
            1.5,
            MAX_SECS as f64 + 1.0,
            1e300,
        ] {
            assert_eq!(UnixTime::from_number(bad), None, "{bad}");
        }
        assert_eq!(
            UnixTime::from_millis(1_700_000_000_999.0).map(UnixTime::as_secs),
            Some(1_700_000_000)
        );
        assert_eq!(UnixTime::from_millis(-1.0), None);
        assert_eq!(UnixTime::from_millis(f64::NAN), None);
        assert_eq!(UnixTime::from_secs(MAX_SECS + 1), None);
        assert_eq!(
            UnixTime::from_secs(1_788_998_400)
                .map(|t| t.to_string())
                .as_deref(),
            Some("2026-09-10T00:00:00Z")
        );
    }

    #[test]
    fn day_count_round_trips_over_the_whole_range() {
        let last = MAX_SECS / SECS_PER_DAY;
        let mut previous = (1969, 12, 31);
        for days in 0..=last {
            let date = civil_from_days(days);
            assert_eq!(days_from_civil(date.0, date.1, date.2), days);
            // Consecutive days are consecutive dates.
            let (y, m, d) = previous;
            let expected = if d < days_in_month(y, m) {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
            assert_eq!(date, expected, "day {days}");
            previous = date;
        }
        assert_eq!(previous, (9999, 12, 31));
    }
}
