//! Judging a result: whether a person could have produced it, and so
//! whether it is ranked.
//!
//! A result arrives with the time of every move, in milliseconds since the
//! puzzle was shown. The times must be well-formed (one per move, never
//! decreasing, [`check_times`]); a result is then ranked only if
//!
//! * nothing about the game was assisted (no solve or hint asked for a
//!   position or board of the game, by id or not);
//! * the times fit inside the time the server itself saw between dealing
//!   and submission (allowing for network latency);
//! * a person could have moved that fast: the first move no sooner than a
//!   reaction time after the puzzle appeared, no more than a burst of moves
//!   in any short window, and no more than a sustained rate over the solve;
//! * (Shisen-Sho) no turn was made while the board was hidden by a pause.
//!
//! The bounds ([`SLIDE`], [`SLIDE_CLICK`], [`SLIDE_HOVER`], [`SHISEN`])
//! come from what top players reach, one set for each way of moving
//! (`crate::format::Control::slide_bounds` picks it), so that no human
//! record is refused. A click on a tile several cells from the blank slides
//! the whole run at once, so the burst bound lets a 10 × 10 row (9 tiles)
//! move in one instant, but not two such rows within the window; on a
//! larger board it widens by the longer run ([`Bounds::for_side`]).
//!
//! What this does not stop: a patient program that paces its moves like a
//! person, or help asked under another identity, still looks human. The
//! bounds catch scripts that play at machine speed and results whose times
//! do not add up — not every bot.

use std::fmt;

/// The limits of human play for one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// The most moves a second over a whole solve (from the first move to
    /// the last), checked once there are at least `sustained_after` moves.
    pub sustained_rate: f64,
    /// Solves shorter than this are judged by the burst and reaction
    /// bounds only: a rate over a few moves says little.
    pub sustained_after: usize,
    /// The most moves in any window of `burst_window_ms`.
    pub burst_moves: usize,
    /// The burst window, in milliseconds.
    pub burst_window_ms: i64,
    /// No person moves sooner than this after the puzzle appears.
    pub reaction_ms: i64,
    /// How much later than the server's own clock a move's time may be:
    /// the client's clock starts after the deal reached it, so its times
    /// should be inside the server's; this allows for timer resolution and
    /// clock drift.
    pub latency_ms: i64,
}

/// Sliding puzzles by keyboard or touch, and results that do not say how
/// they were made: moves are single-tile moves. The fastest keyboard
/// solvers sustain roughly 15–25 single-tile moves a second (TPS) over a
/// solve, touch players less; 30 sits above them.
pub const SLIDE: Bounds = Bounds {
    sustained_rate: 30.0,
    sustained_after: 10,
    burst_moves: 12,
    burst_window_ms: 200,
    reaction_ms: 100,
    latency_ms: 1_000,
};

/// Sliding puzzles by mouse click: one click slides a whole run, so a
/// player clicking 10–12 times a second on runs of two or three tiles
/// (common on 5×5 and larger, and longer still on big boards) moves more
/// tiles a second than any keyboard player; 40 leaves room above that.
pub const SLIDE_CLICK: Bounds = Bounds {
    sustained_rate: 40.0,
    ..SLIDE
};

/// Sliding puzzles by hover (the blank follows the pointer), the fastest
/// way there is: the best hover players reach 30–40 TPS over a whole 4×4
/// solve (Open Slidysim's top 4×4 single is 1.35 s for some 45–55 moves,
/// nearer 45 TPS from the first move to the last once the reading time is
/// taken off), and a short lucky solve goes faster still. 60 a second
/// sustained and 24 within 200 ms (a sweep across a row slides it in one
/// frame) leave every one of those ranked, while a script sending moves
/// at machine speed is still far beyond them.
pub const SLIDE_HOVER: Bounds = Bounds {
    sustained_rate: 60.0,
    burst_moves: 24,
    ..SLIDE
};

/// Shisen-Sho: moves are turns (removals, shuffles, undos, redos). A
/// removal takes two clicks on tiles that first have to be found.
pub const SHISEN: Bounds = Bounds {
    sustained_rate: 4.0,
    sustained_after: 6,
    burst_moves: 4,
    burst_window_ms: 500,
    reaction_ms: 200,
    latency_ms: 1_000,
};

impl Bounds {
    /// The bounds for a board whose longer side is `side`: one click or
    /// sweep slides a run of up to `side - 1` tiles at once, so past 10 the
    /// burst bound grows by the extra length (a 32 × 32 row is 31 tiles).
    pub fn for_side(self, side: usize) -> Bounds {
        Bounds {
            burst_moves: self.burst_moves + side.saturating_sub(10),
            ..self
        }
    }
}

/// Why a list of times is not a list of times: the submission is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimesError {
    /// There must be exactly one time per move.
    #[error("{times} times for {moves} moves: send one time per move")]
    Count {
        /// Times sent.
        times: usize,
        /// Moves sent.
        moves: usize,
    },
    /// A time before the puzzle was shown.
    #[error("time {index} is negative ({value} ms): times count from when the puzzle was shown")]
    Negative {
        /// 1-based index of the time.
        index: usize,
        /// The time.
        value: i64,
    },
    /// A time earlier than the one before it.
    #[error("time {index} ({value} ms) is earlier than the time before it ({before} ms)")]
    Decreasing {
        /// 1-based index of the time.
        index: usize,
        /// The time.
        value: i64,
        /// The time before it.
        before: i64,
    },
}

/// Checks that `times` has one entry per move and never goes back.
pub fn check_times(times: &[i64], moves: usize) -> Result<(), TimesError> {
    if times.len() != moves {
        return Err(TimesError::Count {
            times: times.len(),
            moves,
        });
    }
    let mut before = 0;
    for (i, &value) in times.iter().enumerate() {
        if value < 0 {
            return Err(TimesError::Negative {
                index: i + 1,
                value,
            });
        }
        if value < before {
            return Err(TimesError::Decreasing {
                index: i + 1,
                value,
                before,
            });
        }
        before = value;
    }
    Ok(())
}

/// Why a result is not ranked.
#[derive(Clone, Debug, PartialEq)]
pub enum Unranked {
    /// The solver helped: a solve or hint for a position of the game.
    Assisted,
    /// Faster than a person moves.
    TooFast(String),
    /// The times do not fit the server's own clock.
    TimesInconsistent(String),
    /// A turn made while the board was hidden by a pause.
    PlayedWhilePaused(String),
    /// Played without an account: ranked records need one. It is ranked
    /// when the guest signs up or in on that browser (if nothing else
    /// stood in its way).
    Guest,
    /// A second attempt at a day's puzzle: only the first is ranked
    /// (`crate::daily`), since the second knows the puzzle.
    DailyRepeat,
}

impl fmt::Display for Unranked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unranked::Assisted => f.write_str("assisted: the solver was asked about this game"),
            Unranked::TooFast(why) => explained(f, "too fast", why),
            Unranked::TimesInconsistent(why) => explained(f, "times inconsistent", why),
            Unranked::PlayedWhilePaused(why) => explained(f, "played while paused", why),
            Unranked::Guest => f.write_str("guest"),
            Unranked::DailyRepeat => f.write_str(
                "daily: second attempt (only the first attempt at the day's puzzle is ranked)",
            ),
        }
    }
}

impl Unranked {
    /// Every reason's stable code, as [`Unranked::code`] gives them.
    pub const CODES: [&'static str; 6] = [
        "assisted",
        "too-fast",
        "times-inconsistent",
        "played-while-paused",
        "guest",
        "daily-repeat",
    ];

    /// The reason's stable code: what the store keeps and the API names,
    /// never reworded (the message, [`fmt::Display`], may be).
    pub fn code(&self) -> &'static str {
        match self {
            Unranked::Assisted => "assisted",
            Unranked::TooFast(_) => "too-fast",
            Unranked::TimesInconsistent(_) => "times-inconsistent",
            Unranked::PlayedWhilePaused(_) => "played-while-paused",
            Unranked::Guest => "guest",
            Unranked::DailyRepeat => "daily-repeat",
        }
    }

    /// What the reason says of this result beyond its code (which move,
    /// which bound), if anything.
    pub fn detail(&self) -> Option<&str> {
        match self {
            Unranked::TooFast(why)
            | Unranked::TimesInconsistent(why)
            | Unranked::PlayedWhilePaused(why) => Some(why),
            Unranked::Assisted | Unranked::Guest | Unranked::DailyRepeat => None,
        }
    }

    /// The reason of `code` with `detail` (as [`Unranked::code`] and
    /// [`Unranked::detail`] gave them); `None` for a code there is not.
    pub fn from_code(code: &str, detail: Option<String>) -> Option<Unranked> {
        let detail = || detail.clone().unwrap_or_default();
        Some(match code {
            "assisted" => Unranked::Assisted,
            "too-fast" => Unranked::TooFast(detail()),
            "times-inconsistent" => Unranked::TimesInconsistent(detail()),
            "played-while-paused" => Unranked::PlayedWhilePaused(detail()),
            "guest" => Unranked::Guest,
            "daily-repeat" => Unranked::DailyRepeat,
            _ => return None,
        })
    }
}

/// `what`, and `why` after a colon if there is one.
fn explained(f: &mut fmt::Formatter<'_>, what: &str, why: &str) -> fmt::Result {
    match why {
        "" => f.write_str(what),
        why => write!(f, "{what}: {why}"),
    }
}

/// What the server knows of a finished game besides its moves.
#[derive(Clone, Debug, Default)]
pub struct Evidence<'a> {
    /// The time of each move, in milliseconds since the puzzle was shown
    /// (already checked by [`check_times`]).
    pub times: &'a [i64],
    /// Milliseconds the server saw between issuing the puzzle and the
    /// submission, pauses included.
    pub server_millis: i64,
    /// Whether the solver helped.
    pub assisted: bool,
    /// Pauses, as (start, end) in milliseconds since the puzzle was issued.
    pub pauses: &'a [(i64, i64)],
}

/// Whether a person could have produced this result: `Ok(())` to rank
/// it, else the first reason not to.
pub fn judge(evidence: &Evidence, bounds: &Bounds) -> Result<(), Unranked> {
    if evidence.assisted {
        return Err(Unranked::Assisted);
    }
    let times = evidence.times;
    let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
        return Ok(());
    };
    if last > evidence.server_millis + bounds.latency_ms {
        return Err(Unranked::TimesInconsistent(format!(
            "the last move is at {last} ms, but the server saw only {} ms between the deal and the submission",
            evidence.server_millis
        )));
    }
    if first < bounds.reaction_ms {
        return Err(Unranked::TooFast(format!(
            "the first move came {first} ms after the puzzle appeared (a person needs at least {} ms)",
            bounds.reaction_ms
        )));
    }
    burst(times, bounds)?;
    sustained(times, bounds)?;
    paused(times, evidence.pauses, bounds)
}

/// A judged result of a player with an account (`signed_in`) or without:
/// a guest's result that a person could have made is unranked as a
/// guest's; any other reason stands.
pub fn owned(judged: Result<(), Unranked>, signed_in: bool) -> Result<(), Unranked> {
    match judged {
        Ok(()) if !signed_in => Err(Unranked::Guest),
        other => other,
    }
}

/// The most moves in any window of the burst length.
fn burst(times: &[i64], bounds: &Bounds) -> Result<(), Unranked> {
    let mut start = 0;
    for (end, &t) in times.iter().enumerate() {
        while t - times[start] >= bounds.burst_window_ms {
            start += 1;
        }
        let count = end - start + 1;
        if count > bounds.burst_moves {
            return Err(Unranked::TooFast(format!(
                "{count} moves within {} ms at {} ms (a person makes at most {})",
                bounds.burst_window_ms, times[start], bounds.burst_moves
            )));
        }
    }
    Ok(())
}

/// The rate from the first move to the last.
fn sustained(times: &[i64], bounds: &Bounds) -> Result<(), Unranked> {
    if times.len() < bounds.sustained_after {
        return Ok(());
    }
    let span = (times[times.len() - 1] - times[0]).max(1) as f64 / 1000.0;
    // Moves after the first, over the time they took.
    let rate = (times.len() - 1) as f64 / span;
    if rate > bounds.sustained_rate {
        return Err(Unranked::TooFast(format!(
            "{rate:.1} moves a second over the whole solve (a person sustains at most {})",
            bounds.sustained_rate
        )));
    }
    Ok(())
}

/// No move inside a pause (its edges get the latency allowance: the two
/// clocks start a network trip apart).
fn paused(times: &[i64], pauses: &[(i64, i64)], bounds: &Bounds) -> Result<(), Unranked> {
    for &(start, end) in pauses {
        let (inner_start, inner_end) = (start + bounds.latency_ms, end - bounds.latency_ms);
        if let Some(t) = times.iter().find(|&&t| t > inner_start && t < inner_end) {
            return Err(Unranked::PlayedWhilePaused(format!(
                "a move at {t} ms, during the pause from {start} to {end} ms"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One reason of each kind, with a detail where it has one.
    fn every_reason() -> Vec<Unranked> {
        vec![
            Unranked::Assisted,
            Unranked::TooFast("30 moves within 200 ms".into()),
            Unranked::TimesInconsistent("the last move is at 9 ms".into()),
            Unranked::PlayedWhilePaused("a move at 5 ms".into()),
            Unranked::Guest,
            Unranked::DailyRepeat,
        ]
    }

    #[test]
    fn every_reason_reads_back_from_its_code_and_detail() {
        let reasons = every_reason();
        let codes: Vec<&str> = reasons.iter().map(Unranked::code).collect();
        assert_eq!(codes, Unranked::CODES);
        for reason in reasons {
            let detail = reason.detail().map(str::to_string);
            assert_eq!(Unranked::from_code(reason.code(), detail), Some(reason));
        }
        assert_eq!(Unranked::from_code("too fast", None), None);
        // A reason kept without its detail still reads, and says no more.
        let bare = Unranked::from_code("too-fast", None).unwrap();
        assert_eq!(bare.to_string(), "too fast");
    }

    fn evidence(times: &[i64], server_millis: i64) -> Evidence<'_> {
        Evidence {
            times,
            server_millis,
            ..Evidence::default()
        }
    }

    /// Moves `gap` ms apart, starting at `first`.
    fn paced(moves: usize, first: i64, gap: i64) -> Vec<i64> {
        (0..moves as i64).map(|i| first + i * gap).collect()
    }

    #[test]
    fn malformed_times_are_refused_with_the_place() {
        assert_eq!(
            check_times(&[1, 2], 3),
            Err(TimesError::Count { times: 2, moves: 3 })
        );
        assert!(matches!(
            check_times(&[5, -1], 2),
            Err(TimesError::Negative { index: 2, .. })
        ));
        let e = check_times(&[5, 9, 7], 3).unwrap_err();
        assert_eq!(
            e,
            TimesError::Decreasing {
                index: 3,
                value: 7,
                before: 9
            }
        );
        assert!(e.to_string().contains("earlier"));
        assert_eq!(check_times(&[0, 0, 3], 3), Ok(()));
    }

    #[test]
    fn a_person_paced_solve_is_ranked() {
        let times = paced(30, 800, 200);
        assert_eq!(judge(&evidence(&times, 7_000), &SLIDE), Ok(()));
        // The fastest human pace there is, 25 moves a second, still is.
        let times = paced(60, 400, 40);
        assert_eq!(judge(&evidence(&times, 3_000), &SLIDE), Ok(()));
    }

    #[test]
    fn help_unranks() {
        let times = paced(30, 800, 200);
        let e = Evidence {
            assisted: true,
            ..evidence(&times, 7_000)
        };
        assert_eq!(judge(&e, &SLIDE), Err(Unranked::Assisted));
        assert!(Unranked::Assisted.to_string().starts_with("assisted"));
    }

    #[test]
    fn ranked_records_need_an_account() {
        assert_eq!(owned(Ok(()), true), Ok(()));
        assert_eq!(owned(Ok(()), false), Err(Unranked::Guest));
        assert_eq!(Unranked::Guest.to_string(), "guest");
        // A bot stays a bot, signed in or not.
        let bot = Err(Unranked::TooFast("x".into()));
        assert_eq!(owned(bot.clone(), true), bot);
        assert_eq!(owned(bot.clone(), false), bot);
    }

    #[test]
    fn machine_speed_is_too_fast() {
        // All at once (the script: optimal moves sent 25 ms after the deal).
        let zeros = vec![0; 24];
        let e = judge(&evidence(&zeros, 25), &SLIDE).unwrap_err();
        assert!(e.to_string().starts_with("too fast"), "{e}");
        // A human start, then a burst: 13 moves inside 200 ms.
        let mut times = paced(10, 500, 200);
        let at = times[9];
        times.extend((1..=13).map(|i| at + 10 * i));
        let e = judge(&evidence(&times, 10_000), &SLIDE).unwrap_err();
        assert!(e.to_string().contains("within 200 ms"), "{e}");
        // Even pacing at 50 moves a second: no burst, but not sustainable.
        let times = paced(100, 500, 20);
        let e = judge(&evidence(&times, 10_000), &SLIDE).unwrap_err();
        assert!(e.to_string().contains("over the whole solve"), "{e}");
    }

    #[test]
    fn the_best_hover_solves_are_ranked_and_machine_speed_is_not() {
        // A 4×4 in 1.35 s: 50 moves after a 150 ms look, 40 a second.
        let times = paced(50, 150, 24);
        assert!(matches!(
            judge(&evidence(&times, 1_400), &SLIDE),
            Err(Unranked::TooFast(_))
        ));
        assert_eq!(judge(&evidence(&times, 1_400), &SLIDE_HOVER), Ok(()));
        // A short lucky one at 54 a second, sweeps of three tiles in one
        // frame included.
        let mut times = paced(20, 200, 22);
        times.extend([640, 640, 640, 662, 662, 662]);
        assert_eq!(judge(&evidence(&times, 1_000), &SLIDE_HOVER), Ok(()));
        // A script at 100 moves a second is too fast even for hover.
        let times = paced(200, 500, 10);
        let e = judge(&evidence(&times, 3_000), &SLIDE_HOVER).unwrap_err();
        assert!(e.to_string().contains("too fast"), "{e}");
        // Clicks: 35 tiles a second in runs is human, 50 is not.
        let times = paced(105, 300, 28);
        assert_eq!(judge(&evidence(&times, 4_000), &SLIDE_CLICK), Ok(()));
        assert!(judge(&evidence(&times, 4_000), &SLIDE).is_err());
        let times = paced(150, 300, 20);
        assert!(judge(&evidence(&times, 4_000), &SLIDE_CLICK).is_err());
    }

    #[test]
    fn a_long_row_slid_at_once_is_human_on_a_board_that_wide() {
        // A 32 × 32 row: 31 tiles at the same instant.
        let mut times = paced(10, 500, 200);
        times.extend(vec![2_600; 31]);
        times.extend(paced(10, 2_900, 200));
        assert!(judge(&evidence(&times, 6_000), &SLIDE).is_err());
        assert_eq!(judge(&evidence(&times, 6_000), &SLIDE.for_side(32)), Ok(()));
        // Up to 10 × 10 the bounds are as they were.
        assert_eq!(SLIDE.for_side(10), SLIDE);
        assert_eq!(SLIDE.for_side(4), SLIDE);
    }

    #[test]
    fn a_row_slid_by_one_click_is_human() {
        // A click moves nine tiles at the same instant; the next click
        // comes a quarter second later.
        let mut times = vec![600; 9];
        times.extend(vec![850; 9]);
        times.extend(paced(10, 1_200, 150));
        assert_eq!(judge(&evidence(&times, 5_000), &SLIDE), Ok(()));
    }

    #[test]
    fn times_beyond_the_servers_clock_are_inconsistent() {
        let times = paced(30, 800, 200);
        let e = judge(&evidence(&times, 2_000), &SLIDE).unwrap_err();
        assert!(e.to_string().starts_with("times inconsistent"), "{e}");
        // Within the latency allowance it is fine.
        assert_eq!(judge(&evidence(&times, 6_600), &SLIDE), Ok(()));
    }

    #[test]
    fn a_turn_during_a_pause_unranks() {
        let times = paced(10, 1_000, 1_000);
        let pauses = [(3_500, 8_000)];
        let e = Evidence {
            pauses: &pauses,
            ..evidence(&times, 20_000)
        };
        let why = judge(&e, &SHISEN).unwrap_err();
        assert!(why.to_string().starts_with("played while paused"), "{why}");
        // Turns just around the pause's edges are not counted in it.
        let edges = [500, 1_000, 3_600, 7_900, 9_000, 10_000];
        let pauses = [(3_000, 8_500)];
        let e = Evidence {
            pauses: &pauses,
            ..evidence(&edges, 20_000)
        };
        assert_eq!(judge(&e, &SHISEN), Ok(()));
    }
}
