//! The game clock. Time comes in from the caller (`now`), so the games can
//! be driven by tests without waiting.

use std::time::{Duration, Instant};

/// A stopwatch that starts with the first move and stops at the win.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    started: Option<Instant>,
    stopped: Option<Duration>,
}

impl Clock {
    /// Starts the clock unless it is running or stopped.
    pub fn start(&mut self, now: Instant) {
        if self.started.is_none() {
            self.started = Some(now);
        }
    }

    /// Freezes the time shown.
    pub fn stop(&mut self, now: Instant) {
        if self.stopped.is_none() {
            self.stopped = Some(self.elapsed(now));
        }
    }

    pub fn elapsed(&self, now: Instant) -> Duration {
        match (self.stopped, self.started) {
            (Some(stopped), _) => stopped,
            (None, Some(started)) => now.saturating_duration_since(started),
            (None, None) => Duration::ZERO,
        }
    }
}

/// `mm:ss`, or `h:mm:ss` past an hour.
pub fn format(elapsed: Duration) -> String {
    let secs = elapsed.as_secs();
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_from_the_first_move_and_stops_at_the_win() {
        let t0 = Instant::now();
        let mut clock = Clock::default();
        assert_eq!(clock.elapsed(t0 + Duration::from_secs(5)), Duration::ZERO);
        clock.start(t0);
        clock.start(t0 + Duration::from_secs(3));
        assert_eq!(clock.elapsed(t0 + Duration::from_secs(7)).as_secs(), 7);
        clock.stop(t0 + Duration::from_secs(9));
        assert_eq!(clock.elapsed(t0 + Duration::from_secs(60)).as_secs(), 9);
    }

    #[test]
    fn formats_minutes_and_hours() {
        assert_eq!(format(Duration::from_secs(65)), "01:05");
        assert_eq!(format(Duration::from_secs(3725)), "1:02:05");
    }
}
