//! The speedsolver's clock: how long a sliding solve took.
//!
//! slidysim, and so Open Slidysim's leaderboards, time a solve from its
//! first move to its last: the player may look at the scramble for as long
//! as they like first, and that look is free. tessera times every sliding
//! result the same way, so its times, TPS, averages and records compare
//! with theirs. The look is kept apart ([`SolveTime::reading_ms`]) for
//! analysis and the judge: the reaction bound still counts from the moment
//! the puzzle appeared, which the look does not change.
//!
//! A format of several puzzles (marathons, relays) runs on one clock from
//! the first move of its first puzzle to the last move of its last, the
//! next puzzle appearing as the last one is solved, as slidysim's do. A
//! blindfold solve is the exception: memorising is its first half, so it
//! is timed from the puzzle appearing, as blindfolded events are (the
//! WCA's rule); otherwise an unlimited look would make it a sighted solve.
//! A
//! race's standings are settled by the race's own clock from the start
//! signal (every racer sees the puzzle at once); the result a race stores
//! is timed like any other. Shisen-Sho is timed from the deal
//! ([docs/records.md](../../../docs/records.md#the-clock)).

use crate::format::Format;

/// A sliding solve's time, from the player's times of its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveTime {
    /// Milliseconds from the puzzle appearing to the first move: reading
    /// the scramble, not timed (but for a blindfold solve's memorising).
    pub reading_ms: i64,
    /// The solve's time in milliseconds: from the first move to the last
    /// (from the puzzle appearing to the last move, blindfold).
    pub millis: i64,
}

impl SolveTime {
    /// The time of a solve of `format` whose moves were made at `times`:
    /// [`SolveTime::of`], but a blindfold solve's memorising counts.
    pub fn in_format(format: Format, times: &[i64]) -> SolveTime {
        let time = SolveTime::of(times);
        let last = times.last().copied().unwrap_or(0);
        SolveTime {
            millis: last - started(format, times),
            ..time
        }
    }

    /// The time of a solve whose moves were made at `times` (milliseconds
    /// since the puzzle appeared, never decreasing: checked by
    /// [`crate::judge::check_times`]). No moves: no time.
    pub fn of(times: &[i64]) -> SolveTime {
        match (times.first(), times.last()) {
            (Some(&first), Some(&last)) => SolveTime {
                reading_ms: first,
                millis: last - first,
            },
            _ => SolveTime::default(),
        }
    }

    /// Single-tile moves a second over the solve (TPS), as slidysim gives
    /// it: the moves over the time from the first to the last; `None` when
    /// no time passed (a solve of one move).
    pub fn tps(self, moves: usize) -> Option<f64> {
        (self.millis > 0).then(|| moves as f64 / (self.millis as f64 / 1000.0))
    }
}

/// When the clock of a solve of `format` moved at `times` starts, in
/// milliseconds since the puzzle appeared: at the first move, or for a
/// blindfold solve when the puzzle appeared.
pub fn started(format: Format, times: &[i64]) -> i64 {
    match format {
        Format::Blindfold => 0,
        _ => times.first().copied().unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solve_is_timed_from_its_first_move_to_its_last() {
        // 3 s of reading, then 2.2 s of moves.
        let times = [3_000, 3_400, 4_100, 5_200];
        let time = SolveTime::of(&times);
        assert_eq!(time.reading_ms, 3_000);
        assert_eq!(time.millis, 2_200);
        let tps = time.tps(4).unwrap();
        assert!((tps - 4.0 / 2.2).abs() < 1e-9, "{tps}");
    }

    #[test]
    fn reading_longer_changes_nothing_but_the_reading() {
        let quick = SolveTime::of(&[500, 900, 1_700]);
        let slow = SolveTime::of(&[60_500, 60_900, 61_700]);
        assert_eq!(quick.millis, slow.millis);
        assert_eq!(slow.reading_ms - quick.reading_ms, 60_000);
    }

    #[test]
    fn a_blindfold_solve_counts_its_memorising() {
        let times = [8_000, 8_500, 9_000];
        let bld = SolveTime::in_format(Format::Blindfold, &times);
        assert_eq!((bld.reading_ms, bld.millis), (8_000, 9_000));
        assert_eq!(started(Format::Blindfold, &times), 0);
        assert_eq!(started(Format::Single, &times), 8_000);
        for format in ["single", "marathon-5", "relay-4", "height-relay"] {
            let format: Format = format.parse().unwrap();
            assert_eq!(SolveTime::in_format(format, &times), SolveTime::of(&times));
        }
    }

    #[test]
    fn one_move_takes_no_time_and_no_moves_no_time_at_all() {
        let one = SolveTime::of(&[1_234]);
        assert_eq!((one.reading_ms, one.millis), (1_234, 0));
        assert_eq!(one.tps(1), None);
        assert_eq!(SolveTime::of(&[]), SolveTime::default());
    }
}
