//! Server time: the only clock records trust.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch.
pub fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Today's UTC date as `(year, month, day)`.
pub fn utc_date(millis: i64) -> (i64, u32, u32) {
    civil_from_days(millis.div_euclid(86_400_000))
}

/// The proleptic Gregorian date of a day count since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The daily puzzle's seed: the UTC date written as the number `YYYYMMDD`,
/// the same for everyone on that day.
pub fn daily_seed(millis: i64) -> u64 {
    let (y, m, d) = utc_date(millis);
    (y * 10_000 + i64::from(m) * 100 + i64::from(d)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_match_known_days() {
        assert_eq!(utc_date(0), (1970, 1, 1));
        // 2000-02-29T12:00:00Z
        assert_eq!(utc_date(951_825_600_000), (2000, 2, 29));
        // 2026-11-21T07:00:00Z
        assert_eq!(utc_date(1_795_244_400_000), (2026, 11, 21));
        assert_eq!(daily_seed(1_795_244_400_000), 20_261_121);
    }
}
