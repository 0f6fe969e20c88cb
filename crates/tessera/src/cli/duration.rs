//! One grammar for every `--time-limit`: `500ms`, `3s`, `2m`, `1h`, `1.5s`.
//!
//! A bare number keeps the unit its command always had (seconds for the
//! sliding puzzle, milliseconds for Shisen-Sho), so scripts written before
//! the grammar existed mean what they meant. Zero is refused everywhere:
//! a budget of nothing would answer with nothing.

use std::time::Duration;

/// The longest budget accepted: a day. Beyond that a limit is a typo.
const LONGEST: Duration = Duration::from_secs(24 * 3600);

/// What a bare number counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bare {
    Seconds,
    Millis,
}

/// Parses a time limit; `bare` says what a number without a unit counts.
pub fn parse(text: &str, bare: Bare) -> Result<Duration, String> {
    let s = text.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (number, unit) = s.split_at(split);
    let scale = match (unit, bare) {
        ("", Bare::Seconds) | ("s", _) => 1.0,
        ("", Bare::Millis) | ("ms", _) => 0.001,
        ("m", _) => 60.0,
        ("h", _) => 3600.0,
        _ => {
            return Err(format!(
                "{text:?} is not a duration: use 500ms, 3s, 2m or 1h"
            ))
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration: use 500ms, 3s, 2m or 1h"))?;
    let duration = Duration::try_from_secs_f64(value * scale)
        .map_err(|_| format!("{text:?} is not a duration: use 500ms, 3s, 2m or 1h"))?;
    if duration.is_zero() {
        return Err(format!("{text:?}: a time limit must be more than zero"));
    }
    if duration > LONGEST {
        return Err(format!("{text:?}: a time limit is at most a day (24h)"));
    }
    Ok(duration)
}

/// `clap` value parser: a bare number is seconds.
pub fn seconds(text: &str) -> Result<Duration, String> {
    parse(text, Bare::Seconds)
}

/// `clap` value parser: a bare number is milliseconds.
pub fn millis(text: &str) -> Result<Duration, String> {
    parse(text, Bare::Millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_bare_numbers() {
        let ms = Duration::from_millis;
        assert_eq!(seconds("500ms"), Ok(ms(500)));
        assert_eq!(millis("500ms"), Ok(ms(500)));
        assert_eq!(seconds("3s"), Ok(ms(3000)));
        assert_eq!(millis("3s"), Ok(ms(3000)));
        assert_eq!(seconds("2m"), Ok(ms(120_000)));
        assert_eq!(seconds("1.5"), Ok(ms(1500)));
        assert_eq!(millis("1500"), Ok(ms(1500)));
        assert_eq!(seconds(" 10 "), Ok(ms(10_000)));
        assert_eq!(millis("1h"), Ok(ms(3_600_000)));
    }

    #[test]
    fn zero_nonsense_and_huge_are_refused_alike() {
        for bad in [
            "0", "0ms", "0s", "0.0m", "", "s", "-1", "1d", "3 s", "1e3", "nan", "inf",
        ] {
            assert!(seconds(bad).is_err(), "{bad:?} accepted as seconds");
            assert!(millis(bad).is_err(), "{bad:?} accepted as milliseconds");
        }
        assert!(seconds("86401").is_err());
        assert!(millis("99999999999999999999999").is_err());
        assert!(seconds("25h").is_err());
        assert!(seconds("0").unwrap_err().contains("more than zero"));
    }
}
