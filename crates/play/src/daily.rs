//! The daily challenge: one puzzle a day for each variant and format,
//! dealt from the day's seed ([`crate::seed::daily_seed`]), and a board of
//! the day's first attempts. Only a player's first attempt at a day's
//! puzzle is ranked: a second one knows the puzzle already.

use std::fmt;
use std::str::FromStr;

use crate::judge::Unranked;
use crate::seed::{civil_from_days, days_from_civil};

/// A UTC day, the unit of the daily challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day {
    /// Days since 1970-01-01.
    days: i64,
}

/// The first day with a daily puzzle: the daily seed is a date written as
/// a number, and years before this are of no use to anyone.
pub const FIRST_DAY: Day = Day { days: 0 };

impl Day {
    /// The UTC day of `unix_millis`.
    pub fn of(unix_millis: i64) -> Day {
        Day {
            days: unix_millis.div_euclid(86_400_000),
        }
    }

    /// The day's seed, the date as the number `YYYYMMDD`: the same as
    /// [`crate::seed::daily_seed`] for any moment of the day.
    pub fn seed(self) -> u64 {
        let (y, m, d) = civil_from_days(self.days);
        (y * 10_000 + i64::from(m) * 100 + i64::from(d)) as u64
    }

    /// The day before.
    pub fn previous(self) -> Day {
        Day {
            days: self.days - 1,
        }
    }

    /// The day after.
    pub fn next(self) -> Day {
        Day {
            days: self.days + 1,
        }
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = civil_from_days(self.days);
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// Why a text is not a day of the daily challenge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DayError {
    /// Not `YYYY-MM-DD` with digits.
    #[error("bad date {0:?}: write it as YYYY-MM-DD, e.g. 2026-11-25")]
    Form(String),
    /// A month or a day the calendar does not have.
    #[error("bad date {0:?}: no such day in the calendar")]
    NoSuchDay(String),
    /// Before the first daily puzzle.
    #[error("bad date {0:?}: the daily puzzles start on 1970-01-01")]
    TooEarly(String),
}

impl FromStr for Day {
    type Err = DayError;

    fn from_str(text: &str) -> Result<Day, DayError> {
        let form = || DayError::Form(text.to_string());
        let bytes = text.as_bytes();
        let digits = |range: std::ops::Range<usize>| bytes[range].iter().all(u8::is_ascii_digit);
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return Err(form());
        }
        if !(digits(0..4) && digits(5..7) && digits(8..10)) {
            return Err(form());
        }
        let year: i64 = text[0..4].parse().map_err(|_| form())?;
        let month: u32 = text[5..7].parse().map_err(|_| form())?;
        let day: u32 = text[8..10].parse().map_err(|_| form())?;
        let days = days_from_civil(year, month, day);
        // A month or day out of range does not come back the same.
        if !(1..=12).contains(&month) || civil_from_days(days) != (year, month, day) {
            return Err(DayError::NoSuchDay(text.to_string()));
        }
        let day = Day { days };
        if day < FIRST_DAY {
            return Err(DayError::TooEarly(text.to_string()));
        }
        Ok(day)
    }
}

/// Who an attempt at a day's puzzle is counted against: the browser that
/// played it and, when one is signed in, the account. A guest who signs
/// in, or an account on a second browser, so has no second first attempt.
pub fn attempt_holders(player: &str, account: Option<&str>) -> Vec<String> {
    let mut holders = vec![format!("player:{player}")];
    holders.extend(account.map(|a| format!("account:{a}")));
    holders
}

/// A daily result's verdict: what the judge found, else unranked as a
/// second attempt unless it is the first.
pub fn judged(judged: Result<(), Unranked>, first_attempt: bool) -> Result<(), Unranked> {
    match judged {
        Ok(()) if !first_attempt => Err(Unranked::DailyRepeat),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::daily_seed;

    #[test]
    fn a_day_reads_and_writes_as_its_date_and_seeds_as_the_daily_seed() {
        let day: Day = "2026-11-21".parse().unwrap();
        assert_eq!(day.to_string(), "2026-11-21");
        // 2026-11-21T07:00:00Z
        assert_eq!(Day::of(1_795_244_400_000), day);
        assert_eq!(day.seed(), daily_seed(1_795_244_400_000));
        assert_eq!(day.previous().to_string(), "2026-11-20");
        assert_eq!(
            "2024-12-31".parse::<Day>().unwrap().next().to_string(),
            "2025-01-01"
        );
        assert_eq!("2024-02-29".parse::<Day>().unwrap().seed(), 20_240_229);
    }

    #[test]
    fn days_outside_the_calendar_or_its_form_are_refused() {
        for text in [
            "2026-1-21",
            "2026/11/21",
            "20261121",
            "2026-11-21T00",
            "+026-11-21",
            "２０26-11-21",
            "",
        ] {
            assert!(
                matches!(text.parse::<Day>(), Err(DayError::Form(_))),
                "{text}"
            );
        }
        for text in [
            "2026-13-01",
            "2026-00-10",
            "2026-02-29",
            "2026-04-31",
            "2026-11-00",
        ] {
            assert!(
                matches!(text.parse::<Day>(), Err(DayError::NoSuchDay(_))),
                "{text}"
            );
        }
        assert!(matches!(
            "1969-12-31".parse::<Day>(),
            Err(DayError::TooEarly(_))
        ));
        assert!("2024-02-29".parse::<Day>().is_ok());
    }

    #[test]
    fn only_a_first_attempt_is_ranked_and_a_judges_reason_comes_first() {
        assert_eq!(judged(Ok(()), true), Ok(()));
        assert_eq!(judged(Ok(()), false), Err(Unranked::DailyRepeat));
        assert_eq!(
            judged(Err(Unranked::Assisted), false),
            Err(Unranked::Assisted)
        );
        assert!(Unranked::DailyRepeat
            .to_string()
            .starts_with("daily: second attempt"));
        assert_eq!(attempt_holders("p", Some("a")), ["player:p", "account:a"]);
        assert_eq!(attempt_holders("p", None), ["player:p"]);
    }
}
