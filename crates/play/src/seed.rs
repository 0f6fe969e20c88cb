//! Where seeds come from: the operating system's randomness for a fresh
//! puzzle, the UTC date for the daily one. A seed then fixes the puzzle on
//! every front end (the engines draw everything from it).

use std::hash::BuildHasher;

/// The largest seed handed out: a JavaScript number holds integers below
/// 2⁵³ exactly, so a seed in a share link comes back unchanged.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// A fresh random seed in `0..=MAX_SEED`.
pub fn random_seed() -> u64 {
    random_u64() & MAX_SEED
}

/// A fresh random 128-bit id as 32 lowercase hex digits (players, games):
/// unguessable, from the operating system's random source.
pub fn random_id() -> String {
    format!("{:016x}{:016x}", random_u64(), random_u64())
}

/// An id in [`random_id`]'s form derived from `parts`: the same parts
/// give the same id on every instance (a race's games, drawn by each
/// instance that replays the room), and it is as unguessable as the parts
/// (a room's random id among them).
pub fn derived_id(parts: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(parts.as_bytes());
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// Fills `bytes` from the operating system's random source (secrets:
/// salts, session tokens). Should that source fail, 64-bit blocks from
/// [`random_u64`] stand in.
pub fn random_bytes(bytes: &mut [u8]) {
    if getrandom::fill(bytes).is_err() {
        for chunk in bytes.chunks_mut(8) {
            let block = random_u64().to_le_bytes();
            chunk.copy_from_slice(&block[..chunk.len()]);
        }
    }
}

/// 64 bits from the operating system. Should that source ever fail, the
/// standard library's per-process random hash keys (also seeded by the
/// operating system) stand in, so no caller has an error to handle.
fn random_u64() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        std::collections::hash_map::RandomState::new().hash_one(nanos)
    })
}

/// The daily puzzle's seed: the UTC date of `unix_millis` written as the
/// number `YYYYMMDD`, the same for everyone on that day.
pub fn daily_seed(unix_millis: i64) -> u64 {
    let (y, m, d) = utc_date(unix_millis);
    (y * 10_000 + i64::from(m) * 100 + i64::from(d)) as u64
}

/// The UTC date of `unix_millis` as `(year, month, day)`.
pub fn utc_date(unix_millis: i64) -> (i64, u32, u32) {
    civil_from_days(unix_millis.div_euclid(86_400_000))
}

/// The day count since 1970-01-01 of a proleptic Gregorian date (Howard
/// Hinnant's `days_from_civil`); the inverse of [`civil_from_days`] on
/// real dates.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((month + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_counts_and_dates_are_inverse() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        for days in -800_000..800_000 {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn dates_match_known_days() {
        assert_eq!(utc_date(0), (1970, 1, 1));
        // 2000-02-29T12:00:00Z
        assert_eq!(utc_date(951_825_600_000), (2000, 2, 29));
        // 2026-11-21T07:00:00Z
        assert_eq!(utc_date(1_795_244_400_000), (2026, 11, 21));
        assert_eq!(daily_seed(1_795_244_400_000), 20_261_121);
        // One millisecond before midnight is still the day before.
        assert_eq!(daily_seed(1_795_305_600_000 - 1), 20_261_121);
        assert_eq!(daily_seed(1_795_305_600_000), 20_261_122);
    }

    #[test]
    fn random_seeds_fit_a_javascript_number_and_ids_are_hex() {
        for _ in 0..1000 {
            assert!(random_seed() <= MAX_SEED);
        }
        let derived = derived_id("room:7:1");
        assert_eq!(derived, derived_id("room:7:1"));
        assert_ne!(derived, derived_id("room:7:2"));
        assert_eq!(derived.len(), 32);
        let (a, b) = (random_id(), random_id());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    }
}
