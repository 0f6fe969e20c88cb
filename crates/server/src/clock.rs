//! Server time: the only clock records trust. (The daily seed that comes
//! from it is `play::seed::daily_seed`.)

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch.
pub fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The environment variable that shifts a debug build's [`Clock`] by a
/// number of milliseconds, so that the tests can close a day (the
/// fewest-moves challenge's results show once it is over). A release build
/// ignores it: production runs on the system clock.
pub const SHIFT_VARIABLE: &str = "TESSERA_TEST_CLOCK_SHIFT_MS";

/// The clock a server's handlers read where the day matters: the system
/// clock, or in a debug build the system clock shifted by
/// [`SHIFT_VARIABLE`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Added to the system clock's milliseconds.
    shift_millis: i64,
}

impl Clock {
    /// The system clock.
    pub fn system() -> Clock {
        Clock::default()
    }

    /// The system clock, shifted in a debug build by the milliseconds
    /// [`SHIFT_VARIABLE`] holds (an integer, else no shift).
    pub fn from_env() -> Clock {
        if !cfg!(debug_assertions) {
            return Clock::system();
        }
        let shift_millis = std::env::var(SHIFT_VARIABLE)
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(0);
        Clock { shift_millis }
    }

    /// Milliseconds since the Unix epoch, as this clock reads them.
    pub fn now_millis(self) -> i64 {
        now_millis().saturating_add(self.shift_millis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_clock_is_not_shifted() {
        let before = now_millis();
        let read = Clock::system().now_millis();
        assert!(before <= read && read <= now_millis());
        let shifted = Clock {
            shift_millis: 86_400_000,
        };
        assert!(shifted.now_millis() >= before + 86_400_000);
    }
}
