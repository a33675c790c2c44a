//! Calendar formatting of Unix seconds, for claims (`x-nvidia-cert-expiration-date`), notices
//! and HTTP headers. The core never reads a clock: callers pass the seconds.
//!
//! Written by hand because the date crates need `std` or pull in far more than this: the
//! conversion between days and civil dates is Howard Hinnant's `days_from_civil` /
//! `civil_from_days` (proleptic Gregorian calendar, exact for every `i64` day count used here).

use alloc::format;
use alloc::string::String;

const SECONDS_PER_DAY: i64 = 86_400;
/// Seconds of 9999-12-31T23:59:59Z, the largest instant [`format_rfc3339`] writes with four
/// year digits (X.509's "no well-defined expiration", RFC 5280 §4.1.2.5).
pub const MAX_RFC3339_SECONDS: i64 = 253_402_300_799;

/// A civil date-time in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateTime {
    /// Year, e.g. 2026.
    pub year: i64,
    /// Month, 1–12.
    pub month: u8,
    /// Day of the month, 1–31.
    pub day: u8,
    /// Hour, 0–23.
    pub hour: u8,
    /// Minute, 0–59.
    pub minute: u8,
    /// Second, 0–59.
    pub second: u8,
}

impl DateTime {
    /// The date-time of `seconds` since 1970-01-01T00:00:00Z.
    pub fn from_unix(seconds: i64) -> Self {
        let days = seconds.div_euclid(SECONDS_PER_DAY);
        let secs = seconds.rem_euclid(SECONDS_PER_DAY);
        let (year, month, day) = civil_from_days(days);
        // rem_euclid keeps secs in 0..86400, so these narrowings are exact.
        let hour = (secs / 3600) as u8;
        let minute = (secs % 3600 / 60) as u8;
        let second = (secs % 60) as u8;
        Self {
            year,
            month,
            day,
            hour,
            minute,
            second,
        }
    }

    /// Seconds since the epoch; `None` for an impossible date or time.
    pub fn to_unix(self) -> Option<i64> {
        let days_in_month = match self.month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if is_leap(self.year) => 29,
            2 => 28,
            _ => return None,
        };
        if self.day == 0
            || self.day > days_in_month
            || self.hour > 23
            || self.minute > 59
            || self.second > 59
        {
            return None;
        }
        let days = days_from_civil(self.year, self.month, self.day)?;
        days.checked_mul(SECONDS_PER_DAY)?.checked_add(
            i64::from(self.hour) * 3600 + i64::from(self.minute) * 60 + i64::from(self.second),
        )
    }

    /// Day of the week, 0 = Sunday.
    fn weekday(self) -> usize {
        let days = days_from_civil(self.year, self.month, self.day).unwrap_or(0);
        // 1970-01-01 was a Thursday (4).
        (days + 4).rem_euclid(7) as usize
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339 §5.6, UTC, no fraction), as the real service writes dates.
pub fn format_rfc3339(seconds: i64) -> String {
    let t = DateTime::from_unix(seconds);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

/// Parses `YYYY-MM-DDTHH:MM:SSZ` (also with a lowercase `t`/`z`); `None` otherwise.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() != 20
        || b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || b.get(13) != Some(&b':')
        || b.get(16) != Some(&b':')
    {
        return None;
    }
    if !matches!(b.get(10), Some(b'T' | b't')) || !matches!(b.get(19), Some(b'Z' | b'z')) {
        return None;
    }
    let number = |range: core::ops::Range<usize>| -> Option<i64> {
        let digits = text.get(range)?;
        digits
            .bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| digits.parse().ok())?
    };
    let narrow = |value: i64| u8::try_from(value).ok();
    DateTime {
        year: number(0..4)?,
        month: narrow(number(5..7)?)?,
        day: narrow(number(8..10)?)?,
        hour: narrow(number(11..13)?)?,
        minute: narrow(number(14..16)?)?,
        second: narrow(number(17..19)?)?,
    }
    .to_unix()
}

/// IMF-fixdate (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, for `Sunset` and other
/// HTTP date headers.
pub fn format_http_date(seconds: i64) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let t = DateTime::from_unix(seconds);
    let weekday = DAYS.get(t.weekday()).copied().unwrap_or("Sun");
    let month = MONTHS
        .get(usize::from(t.month.saturating_sub(1)))
        .copied()
        .unwrap_or("Jan");
    format!(
        "{weekday}, {:02} {month} {:04} {:02}:{:02}:{:02} GMT",
        t.day, t.year, t.hour, t.minute, t.second
    )
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: u8, day: u8) -> Option<i64> {
    let month = i64::from(month);
    let year = if month <= 2 {
        year.checked_sub(1)?
    } else {
        year
    };
    let era = year.div_euclid(400);
    let year_of_era = year.rem_euclid(400);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era.checked_mul(146_097)?.checked_add(day_of_era - 719_468)
}

/// The civil date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let days = days.saturating_add(719_468);
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    // mp is 0..=11 and the day 1..=31 by construction.
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u8;
    let month = (if mp < 10 { mp + 3 } else { mp - 9 }) as u8;
    let year = year_of_era + era.saturating_mul(400) + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        assert_eq!(format_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_rfc3339(1_749_601_858), "2025-06-11T00:30:58Z");
        assert_eq!(format_rfc3339(MAX_RFC3339_SECONDS), "9999-12-31T23:59:59Z");
        assert_eq!(format_rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_rfc3339(-1), "1969-12-31T23:59:59Z");
        assert_eq!(
            format_http_date(784_111_777),
            "Sun, 06 Nov 1994 08:49:37 GMT"
        );
        assert_eq!(format_http_date(0), "Thu, 01 Jan 1970 00:00:00 GMT");
    }

    #[test]
    fn parse_round_trips_and_refuses_nonsense() {
        for seconds in [
            0,
            1,
            951_782_400,
            1_782_698_883,
            MAX_RFC3339_SECONDS,
            -86_400 * 365,
        ] {
            assert_eq!(parse_rfc3339(&format_rfc3339(seconds)), Some(seconds));
        }
        // Every day across a few years, both directions.
        for day in -800..2000i64 {
            let seconds = day * SECONDS_PER_DAY + 3661;
            assert_eq!(parse_rfc3339(&format_rfc3339(seconds)), Some(seconds));
        }
        for bad in [
            "",
            "2026-02-30T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-01-01T24:00:00Z",
            "2026-01-01 00:00:00Z",
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:00+00:00",
            "+026-01-01T00:00:00Z",
            "2026-1-01T00:00:00Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
        assert_eq!(parse_rfc3339("2024-02-29t12:00:00z"), Some(1_709_208_000));
    }

    #[test]
    fn extreme_inputs_do_not_panic() {
        for seconds in [i64::MIN, i64::MAX, i64::MIN + 1, i64::MAX - 1] {
            let _ = format_rfc3339(seconds);
            let _ = format_http_date(seconds);
        }
    }
}
