//! A finished game's result: the one path from a submission to what is
//! recorded, for every way a game ends — a single sliding puzzle (daily
//! or not, submitted or raced), a format of several puzzles on one clock,
//! and a Shisen-Sho game (submitted or raced).
//!
//! Each path replays the submission against the game as issued, judges
//! its times ([`crate::judge`], bounds chosen by the control), and comes
//! to one [`Ending`]: a typed [`Finished`] result, or where an unsolved
//! game stopped. Who owns the result (an account, a second daily attempt)
//! is known only where it is stored: [`Finished::owned`] settles it.

use std::fmt;

use shisen::Board;
use slide::{Moves, Position, ReplayError};

use crate::display::Display;
use crate::format::{self, Control, Format, FormatEvidence, Played, PuzzleUnranked};
use crate::format::{FormatOutcome, SubmissionError};
use crate::judge::{self, check_times, Evidence, Unranked};
use crate::shisen_game::{self, Session as ShisenSession, Turn};
use crate::slide_game::{Outcome, Puzzle, Session as SlideSession};
use crate::stopwatch::SolveTime;

/// What the server itself knows of a game, whatever the player sent.
#[derive(Clone, Copy, Debug, Default)]
pub struct Facts<'a> {
    /// Milliseconds of play between the deal and the submission, pauses
    /// left out: a Shisen-Sho game's time (a sliding solve is timed by its
    /// own moves, [`crate::stopwatch`]).
    pub played_millis: i64,
    /// Milliseconds between the deal and the submission, pauses included:
    /// the span the player's own times must fit in.
    pub elapsed_millis: i64,
    /// Hints asked naming the game.
    pub hints: i64,
    /// Whether the solver was asked anything naming the game.
    pub assisted: bool,
    /// Pauses, as (start, end) milliseconds since the deal.
    pub pauses: &'a [(i64, i64)],
}

impl Facts<'_> {
    /// A race's solve: `millis` from the start to the solve, never
    /// paused, no help asked by the game's id (a race has none to ask by).
    pub fn race(millis: i64) -> Facts<'static> {
        Facts {
            played_millis: millis,
            elapsed_millis: millis,
            ..Facts::default()
        }
    }
}

/// The moves or turns of a result, as they are replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// One sliding puzzle's moves.
    Moves(Moves),
    /// Each puzzle's moves of a format, in the order dealt.
    Puzzles(Vec<Moves>),
    /// A Shisen-Sho game's turns.
    Turns(Vec<Turn>),
}

impl fmt::Display for Replay {
    /// The replay as text: moves as letters, a format's puzzles split by
    /// commas, turns as [`turns_text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Replay::Moves(moves) => write!(f, "{moves}"),
            Replay::Puzzles(puzzles) => {
                let texts: Vec<String> = puzzles.iter().map(Moves::to_string).collect();
                f.write_str(&texts.join(","))
            }
            Replay::Turns(turns) => f.write_str(&turns_text(turns)),
        }
    }
}

/// Turns as text, as a replay keeps them: `x1,y1-x2,y2` and `shuffle`,
/// separated by spaces.
pub fn turns_text(turns: &[Turn]) -> String {
    let texts: Vec<String> = turns.iter().map(Turn::to_string).collect();
    texts.join(" ")
}

/// Why a result is not ranked.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// The game as a whole (a single solve, a Shisen-Sho game, help named
    /// by a format's id, a guest's or a second daily attempt).
    Game(Unranked),
    /// The first puzzle of a format that would not be ranked alone.
    Puzzle(PuzzleUnranked),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Game(why) => why.fmt(f),
            Reason::Puzzle(why) => why.fmt(f),
        }
    }
}

impl Reason {
    /// The reason's stable code ([`Unranked::code`]): a format's names
    /// the puzzle apart ([`Reason::puzzle`]).
    pub fn code(&self) -> &'static str {
        self.unranked().code()
    }

    /// What the reason says beyond its code, if anything
    /// ([`Unranked::detail`]).
    pub fn detail(&self) -> Option<&str> {
        self.unranked().detail()
    }

    /// The puzzle of a format that unranked it (1-based), if one did.
    pub fn puzzle(&self) -> Option<usize> {
        match self {
            Reason::Game(_) => None,
            Reason::Puzzle(why) => Some(why.puzzle),
        }
    }

    /// The reason of `code`, `detail` and `puzzle`, as [`Reason::code`],
    /// [`Reason::detail`] and [`Reason::puzzle`] gave them; `None` for a
    /// code there is not.
    pub fn from_parts(code: &str, detail: Option<String>, puzzle: Option<usize>) -> Option<Reason> {
        let reason = Unranked::from_code(code, detail)?;
        Some(match puzzle {
            None => Reason::Game(reason),
            Some(puzzle) => Reason::Puzzle(PuzzleUnranked { puzzle, reason }),
        })
    }

    fn unranked(&self) -> &Unranked {
        match self {
            Reason::Game(why) => why,
            Reason::Puzzle(why) => &why.reason,
        }
    }
}

/// A solved game's result, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// Single-tile moves (sliding puzzle) or removals (Shisen-Sho).
    pub moves: usize,
    /// Single-tile moves; 0 for Shisen-Sho.
    pub stm: usize,
    /// Multi-tile moves; 0 for Shisen-Sho.
    pub mtm: usize,
    /// The result's time: a sliding solve's from its first move to its
    /// last ([`SolveTime`]); a Shisen-Sho game's by the server's clock
    /// from the deal, pauses left out.
    pub millis: i64,
    /// A sliding solve's reading time, from the puzzle appearing to the
    /// first move (not timed); `None` for Shisen-Sho.
    pub reading_ms: Option<i64>,
    /// Shisen-Sho's score; 0 for the sliding puzzle.
    pub score: i64,
    /// Hints charged to the game.
    pub hints: i64,
    /// The moves or turns, as replayed.
    pub replay: Replay,
    /// The player's time of each move or turn, in milliseconds since the
    /// deal (a format's since its first puzzle appeared).
    pub times: Vec<i64>,
    /// How the moves were made; `None` when not told.
    pub control: Option<Control>,
    /// The format played (`single` for every Shisen-Sho game and race).
    pub format: Format,
    /// What the tiles showed: a category of its own in the records
    /// (`standard` for Shisen-Sho and races).
    pub display: Display,
    /// Ranked (`Ok`), or why not.
    pub verdict: Result<(), Reason>,
}

impl Finished {
    /// Whether the result goes in the records.
    pub fn ranked(&self) -> bool {
        self.verdict.is_ok()
    }

    /// The result once its owner is known: a result a person could have
    /// made is still unranked as a second attempt at a day's puzzle
    /// ([`crate::daily::judged`]) or as a guest's ([`judge::owned`]).
    pub fn owned(self, first_attempt: bool, signed_in: bool) -> Finished {
        let verdict = match self.verdict {
            Ok(()) => {
                let daily = crate::daily::judged(Ok(()), first_attempt);
                judge::owned(daily, signed_in).map_err(Reason::Game)
            }
            judged => judged,
        };
        Finished { verdict, ..self }
    }

    /// The result as played with `display` (the caller checked it is
    /// [allowed](Display::allowed_with) with the format).
    pub fn shown_as(self, display: Display) -> Finished {
        Finished { display, ..self }
    }
}

/// What a submission comes to: a result, or where the game stopped
/// (`U`: the sliding puzzle's [`Outcome`], Shisen-Sho's [`Stuck`]).
#[derive(Clone, Debug)]
pub enum Ending<U> {
    /// Solved: the result.
    Solved(Finished),
    /// Not solved: where it stopped.
    Unsolved(U),
}

/// A Shisen-Sho game that did not clear the board.
#[derive(Clone, Debug)]
pub struct Stuck {
    /// Pairs removed.
    pub removals: usize,
    /// The board the turns led to.
    pub board: Board,
}

/// The verdict on times a front end has not checked (a race's, which the
/// room checked as they came): malformed ones are inconsistent.
fn judged(
    times: &[i64],
    moves: usize,
    evidence: &Evidence,
    bounds: &judge::Bounds,
) -> Result<(), Reason> {
    check_times(times, moves)
        .map_err(|e| Unranked::TimesInconsistent(e.to_string()))
        .and_then(|()| judge::judge(evidence, bounds))
        .map_err(Reason::Game)
}

/// The longer side of a puzzle.
fn side(puzzle: &Position) -> usize {
    puzzle.size().width().max(puzzle.size().height())
}

/// One sliding puzzle from `start` to `goal`, played as `moves` at the
/// player's `times` under `control`; assisted when the moves pass through
/// a position the player asked the solver about (`asked`).
#[allow(clippy::too_many_arguments)]
pub fn slide_single(
    start: &Position,
    goal: &Position,
    format: Format,
    played: Played,
    control: Option<Control>,
    facts: &Facts,
    asked: &[Position],
) -> Result<Ending<Outcome>, ReplayError> {
    let outcome = SlideSession::replay(start, goal, &played.moves)?;
    if !outcome.solved {
        return Ok(Ending::Unsolved(outcome));
    }
    let evidence = Evidence {
        times: &played.times,
        server_millis: facts.elapsed_millis,
        assisted: facts.assisted || SlideSession::passes_through(start, &played.moves, asked),
        pauses: &[],
    };
    let bounds = format::slide_bounds(control, side(start));
    let verdict = judged(&played.times, played.moves.len(), &evidence, &bounds);
    let time = SolveTime::in_format(format, &played.times);
    Ok(Ending::Solved(Finished {
        moves: outcome.stm,
        stm: outcome.stm,
        mtm: outcome.mtm,
        millis: time.millis,
        reading_ms: Some(time.reading_ms),
        score: 0,
        hints: facts.hints,
        replay: Replay::Moves(played.moves),
        times: played.times,
        control,
        format,
        display: Display::Standard,
        verdict,
    }))
}

/// A format's puzzles as dealt (`puzzles`) and as played, every puzzle
/// judged by the rules of a single solve: one that would not be ranked
/// unranks the whole result, its reason naming the puzzle. Unsolved, the
/// last puzzle's outcome with the totals over the format.
pub fn slide_format(
    format: Format,
    puzzles: &[Puzzle],
    played: Vec<Played>,
    control: Option<Control>,
    facts: &Facts,
    asked: &[Position],
) -> Result<Ending<Outcome>, SubmissionError> {
    let FormatOutcome {
        puzzles: outcomes,
        solved,
        stm,
        mtm,
        ..
    } = format::replay(format, puzzles, &played)?;
    if !solved {
        let last = outcomes.into_iter().last().expect("a format has puzzles");
        return Ok(Ending::Unsolved(Outcome { stm, mtm, ..last }));
    }
    let assisted: Vec<bool> = puzzles
        .iter()
        .zip(&played)
        .map(|(puzzle, p)| SlideSession::passes_through(&puzzle.start, &p.moves, asked))
        .collect();
    let evidence = FormatEvidence {
        played: &played,
        server_millis: facts.elapsed_millis,
        assisted: &assisted,
    };
    let widest = puzzles.iter().map(|p| side(&p.start)).max().unwrap_or(0);
    // Help named by the game but for no position of it still unranks it.
    let by_id = match facts.assisted {
        true => Err(Reason::Game(Unranked::Assisted)),
        false => Ok(()),
    };
    let verdict = format::judge(&evidence, &format::slide_bounds(control, widest))
        .map_err(Reason::Puzzle)
        .and(by_id);
    let times: Vec<i64> = played
        .iter()
        .flat_map(|p| p.times.iter().copied())
        .collect();
    // One clock over the format, from its first move to its last.
    let time = SolveTime::in_format(format, &times);
    Ok(Ending::Solved(Finished {
        moves: stm,
        stm,
        mtm,
        millis: time.millis,
        reading_ms: Some(time.reading_ms),
        score: 0,
        hints: facts.hints,
        replay: Replay::Puzzles(played.into_iter().map(|p| p.moves).collect()),
        times,
        control,
        format,
        display: Display::Standard,
        verdict,
    }))
}

/// A Shisen-Sho game from its deal (`session` at the start), played as
/// `turns` at the player's `times`. Hints are charged for every board the
/// player saw and asked about (`asked`, with how often), or those asked
/// naming the game if more; the score counts them.
pub fn shisen(
    session: ShisenSession,
    turns: Vec<Turn>,
    times: Vec<i64>,
    facts: &Facts,
    asked: &[(Board, i64)],
) -> Result<Ending<Stuck>, shisen_game::ReplayError> {
    let deal = session.game().board().clone();
    let mut replayed = session.replay(&turns)?;
    if !replayed.session.game().is_won() {
        return Ok(Ending::Unsolved(Stuck {
            removals: replayed.removals,
            board: replayed.session.game().board().clone(),
        }));
    }
    let seen: i64 = asked
        .iter()
        .filter(|(board, _)| replayed.visited(&deal, board))
        .map(|(_, count)| count)
        .sum();
    let hints = seen.max(facts.hints);
    replayed.session.charge_hints(hints as u32);
    let evidence = Evidence {
        times: &times,
        server_millis: facts.elapsed_millis,
        assisted: facts.assisted || hints > 0,
        pauses: facts.pauses,
    };
    let verdict = judged(&times, turns.len(), &evidence, &judge::SHISEN);
    let seconds = (facts.played_millis / 1000) as u64;
    Ok(Ending::Solved(Finished {
        moves: replayed.removals,
        stm: 0,
        mtm: 0,
        millis: facts.played_millis,
        reading_ms: None,
        score: replayed.session.game().score(seconds) as i64,
        hints,
        replay: Replay::Turns(turns),
        times,
        control: None,
        format: Format::Single,
        display: Display::Standard,
        verdict,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Input;
    use crate::slide_game::SlideSpec;
    use shisen::{parse_board, Matching, Point, Rules};

    /// Moves `gap` ms apart, the first at `first`.
    fn paced(count: usize, first: i64, gap: i64) -> Vec<i64> {
        (0..count as i64).map(|i| first + i * gap).collect()
    }

    fn optimal(puzzle: &Puzzle) -> Moves {
        let options = slide::SolveOptions::default();
        slide::solve_optimal(&puzzle.start, &puzzle.goal_position, &options)
            .unwrap()
            .moves
    }

    /// A 3×3 puzzle that takes some moves, and its optimal solution.
    fn puzzle() -> (Puzzle, Moves) {
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        (1..)
            .map(|seed| spec.issue(seed).unwrap())
            .map(|p| {
                let moves = optimal(&p);
                (p, moves)
            })
            .find(|(_, moves)| moves.len() >= 12)
            .unwrap()
    }

    fn facts(millis: i64) -> Facts<'static> {
        Facts {
            played_millis: millis,
            elapsed_millis: millis + 500,
            hints: 0,
            assisted: false,
            pauses: &[],
        }
    }

    /// `p` played as `moves` at `times`, inputs not told.
    fn untold(p: &Puzzle, moves: &Moves, times: Vec<i64>, facts: &Facts) -> Ending<Outcome> {
        let played = Played {
            moves: moves.clone(),
            times,
        };
        let (start, goal) = (&p.start, &p.goal_position);
        slide_single(start, goal, Format::Single, played, None, facts, &[]).unwrap()
    }

    fn single(moves: &Moves, times: Vec<i64>, asked: &[Position], facts: &Facts) -> Finished {
        let (p, _) = puzzle();
        let played = Played {
            moves: moves.clone(),
            times,
        };
        let control = Some(Control::of(&vec![Input::Keyboard; moves.len()]));
        let ending = slide_single(
            &p.start,
            &p.goal_position,
            Format::Single,
            played,
            control,
            facts,
            asked,
        );
        match ending.unwrap() {
            Ending::Solved(finished) => finished,
            Ending::Unsolved(outcome) => panic!("unsolved: {outcome:?}"),
        }
    }

    #[test]
    fn a_reason_reads_back_from_its_code_detail_and_puzzle() {
        let reasons = [
            Reason::Game(Unranked::Guest),
            Reason::Game(Unranked::TooFast("12 moves within 200 ms".into())),
            Reason::Puzzle(PuzzleUnranked {
                puzzle: 3,
                reason: Unranked::TimesInconsistent("the last move is at 9 ms".into()),
            }),
            Reason::Puzzle(PuzzleUnranked {
                puzzle: 1,
                reason: Unranked::Assisted,
            }),
        ];
        for reason in reasons {
            let detail = reason.detail().map(str::to_string);
            let again = Reason::from_parts(reason.code(), detail, reason.puzzle());
            assert_eq!(again.as_ref(), Some(&reason));
            assert_eq!(again.unwrap().to_string(), reason.to_string());
        }
        assert_eq!(Reason::from_parts("puzzle 3: guest", None, None), None);
    }

    #[test]
    fn a_person_paced_single_solve_is_ranked_for_its_owner_only() {
        let (_, moves) = puzzle();
        let times = paced(moves.len(), 900, 250);
        let done = single(&moves, times.clone(), &[], &facts(10_000));
        assert_eq!(done.verdict, Ok(()));
        assert_eq!((done.stm, done.moves), (moves.len(), moves.len()));
        assert_eq!(done.mtm, moves.mtm_len());
        // Timed from the first move to the last, the reading apart.
        let last = 900 + (moves.len() as i64 - 1) * 250;
        assert_eq!((done.millis, done.reading_ms), (last - 900, Some(900)));
        assert_eq!(done.times, times);
        assert_eq!(done.replay.to_string(), moves.to_string());
        assert_eq!(done.control, Some(Control::Keyboard));
        assert!(done.clone().owned(true, true).ranked());
        let guest = done.clone().owned(true, false);
        assert_eq!(guest.verdict, Err(Reason::Game(Unranked::Guest)));
        let again = done.owned(false, true);
        assert_eq!(again.verdict, Err(Reason::Game(Unranked::DailyRepeat)));
    }

    #[test]
    fn reading_the_scramble_is_free_but_a_reaction_is_still_needed() {
        let (_, moves) = puzzle();
        // 3 s of reading, then moves 200 ms apart; the server saw 3 s more.
        let times = paced(moves.len(), 3_000, 200);
        let solve = (moves.len() as i64 - 1) * 200;
        let done = single(&moves, times, &[], &facts(3_000 + solve + 100));
        assert_eq!(done.verdict, Ok(()));
        assert_eq!((done.millis, done.reading_ms), (solve, Some(3_000)));
        // The same solve read for a minute takes the same time.
        let times = paced(moves.len(), 63_000, 200);
        let done = single(&moves, times, &[], &facts(63_000 + solve + 100));
        assert_eq!((done.millis, done.reading_ms), (solve, Some(63_000)));
        // A first move sooner than a person reacts to the puzzle
        // appearing is still too fast, however the solve is timed.
        let times = paced(moves.len(), 40, 200);
        let done = single(&moves, times, &[], &facts(40 + solve + 100));
        assert!(matches!(
            done.verdict,
            Err(Reason::Game(Unranked::TooFast(_)))
        ));
    }

    #[test]
    fn help_on_a_position_played_or_by_the_games_id_unranks_a_single() {
        let (p, moves) = puzzle();
        let times = paced(moves.len(), 900, 250);
        // A position two moves in, asked about without naming the game.
        let mut midway = p.start.clone();
        midway.apply_all(&Moves(moves.0[..2].to_vec())).unwrap();
        let done = single(&moves, times.clone(), &[midway], &facts(10_000));
        assert_eq!(done.verdict, Err(Reason::Game(Unranked::Assisted)));
        // A position no solve passes through (two tiles swapped: the
        // other parity) changes nothing.
        let elsewhere: Position = "2 1 3/4 5 6/7 8 0".parse().unwrap();
        let done = single(&moves, times.clone(), &[elsewhere], &facts(10_000));
        assert_eq!(done.verdict, Ok(()));
        let named = Facts {
            assisted: true,
            hints: 2,
            ..facts(10_000)
        };
        let done = single(&moves, times, &[], &named);
        assert_eq!(done.verdict, Err(Reason::Game(Unranked::Assisted)));
        assert_eq!(done.hints, 2);
        // Help stands whoever owns the result.
        assert_eq!(
            done.owned(true, false).verdict,
            Err(Reason::Game(Unranked::Assisted))
        );
    }

    #[test]
    fn a_race_with_times_that_do_not_add_up_is_recorded_unranked() {
        let (p, moves) = puzzle();
        // Times the server never checked: one short.
        let times = paced(moves.len() - 1, 900, 250);
        let Ending::Solved(done) = untold(&p, &moves, times, &Facts::race(20_000)) else {
            panic!("a race's solve is a result")
        };
        let Err(Reason::Game(Unranked::TimesInconsistent(why))) = &done.verdict else {
            panic!("{:?}", done.verdict)
        };
        assert!(why.contains("send one time per move"), "{why}");
        assert_eq!(done.control, None);
        // More time than the server saw pass: inconsistent too.
        let times = paced(moves.len(), 900, 2_000);
        let Ending::Solved(done) = untold(&p, &moves, times, &Facts::race(3_000)) else {
            panic!("a race's solve is a result")
        };
        let why = done.verdict.unwrap_err().to_string();
        assert!(why.starts_with("times inconsistent"), "{why}");
    }

    #[test]
    fn an_unsolved_single_says_where_it_stopped_and_an_illegal_move_is_refused() {
        let (p, moves) = puzzle();
        let part = Moves(moves.0[..3].to_vec());
        let Ending::Unsolved(outcome) = untold(&p, &part, paced(3, 900, 250), &facts(5_000)) else {
            panic!("three moves do not solve it")
        };
        let mut there = p.start.clone();
        there.apply_all(&part).unwrap();
        assert_eq!((outcome.position, outcome.stm), (there, 3));
        // Off the board: the blank cannot move the same way forever.
        let off = Moves(vec![moves.0[0]; 5]);
        let played = Played {
            moves: off,
            times: paced(5, 900, 250),
        };
        assert!(slide_single(
            &p.start,
            &p.goal_position,
            Format::Single,
            played,
            None,
            &facts(5_000),
            &[]
        )
        .is_err());
    }

    /// A 3×3 marathon-10 and each puzzle solved, moves `gap` ms apart.
    fn marathon(gap: i64) -> (Format, Vec<Puzzle>, Vec<Played>) {
        let format: Format = "marathon-10".parse().unwrap();
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        let puzzles = format.deal(&spec, 5).unwrap();
        let mut at = 0;
        let played = puzzles
            .iter()
            .map(|puzzle| {
                let moves = optimal(puzzle);
                at += 600;
                let times = paced(moves.len(), at, gap);
                at = times.last().copied().unwrap_or(at);
                Played { moves, times }
            })
            .collect();
        (format, puzzles, played)
    }

    /// A marathon's puzzles played, inputs not told, `asked` the help asked.
    fn played_as(
        (format, puzzles): (Format, &[Puzzle]),
        played: &[Played],
        facts: &Facts,
        asked: &[Position],
    ) -> Result<Ending<Outcome>, SubmissionError> {
        slide_format(format, puzzles, played.to_vec(), None, facts, asked)
    }

    #[test]
    fn a_format_totals_its_puzzles_and_names_the_one_that_unranks_it() {
        let (format, puzzles, played) = marathon(250);
        let total: usize = played.iter().map(|p| p.moves.len()).sum();
        let end = played.last().unwrap().times.last().copied().unwrap();
        let ending = played_as((format, &puzzles), &played, &facts(end + 100), &[]);
        let Ok(Ending::Solved(done)) = ending else {
            panic!("every puzzle solved")
        };
        assert_eq!((done.stm, done.format), (total, format));
        assert_eq!(done.times.len(), total);
        // One clock from the format's first move to its last.
        let first = played[0].times[0];
        assert_eq!((done.millis, done.reading_ms), (end - first, Some(first)));
        let texts: Vec<String> = played.iter().map(|p| p.moves.to_string()).collect();
        assert_eq!(done.replay.to_string(), texts.join(","));
        assert_eq!(done.verdict, Ok(()));
        // Help on the third puzzle's start names it.
        let third = [puzzles[2].start.clone()];
        let ending = played_as((format, &puzzles), &played, &facts(end + 100), &third);
        let Ok(Ending::Solved(done)) = ending else {
            panic!("every puzzle solved")
        };
        assert_eq!(
            done.verdict.unwrap_err().to_string(),
            format!("puzzle 3: {}", Unranked::Assisted)
        );
        // Help by the game's id names none.
        let named = Facts {
            assisted: true,
            ..facts(end + 100)
        };
        let Ok(Ending::Solved(done)) = played_as((format, &puzzles), &played, &named, &[]) else {
            panic!("every puzzle solved")
        };
        assert_eq!(done.verdict, Err(Reason::Game(Unranked::Assisted)));
        // The last puzzle unfinished: where it stopped, with the totals.
        let mut unfinished = played.clone();
        unfinished[9] = Played::default();
        let Ok(Ending::Unsolved(outcome)) =
            played_as((format, &puzzles), &unfinished, &facts(end), &[])
        else {
            panic!("the last puzzle is not solved")
        };
        assert_eq!(outcome.position, puzzles[9].start);
        assert_eq!(outcome.stm, total - played[9].moves.len());
        // Sent out of order: refused.
        let mut swapped = played;
        swapped.swap(0, 1);
        assert!(played_as((format, &puzzles), &swapped, &facts(end), &[]).is_err());
    }

    #[test]
    fn a_shisen_game_is_scored_charged_its_hints_and_judged() {
        // A then B: two removals clear it.
        let deal = parse_board("AB\nAB\n", Matching::Standard).unwrap();
        let session = ShisenSession::new(deal.clone(), Rules::STANDARD, 3);
        let turns = vec![
            Turn::Remove(Point::new(0, 0), Point::new(0, 1)),
            Turn::Remove(Point::new(1, 0), Point::new(1, 1)),
        ];
        let times = vec![1_500, 3_000];
        let Ok(Ending::Solved(done)) = shisen(
            session.clone(),
            turns.clone(),
            times.clone(),
            &facts(4_000),
            &[],
        ) else {
            panic!("the board is cleared")
        };
        assert_eq!(
            (done.moves, done.hints, done.verdict.clone()),
            (2, 0, Ok(()))
        );
        assert_eq!(done.replay.to_string(), "0,0-0,1 1,0-1,1");
        let unhelped = done.score;
        assert!(unhelped > 0);
        // A hint asked about the deal, named or not, is charged and unranks.
        let asked = [(deal.clone(), 1)];
        let Ok(Ending::Solved(helped)) = shisen(
            session.clone(),
            turns.clone(),
            times.clone(),
            &facts(4_000),
            &asked,
        ) else {
            panic!("the board is cleared")
        };
        assert_eq!(helped.hints, 1);
        assert!(helped.score < unhelped);
        assert_eq!(helped.verdict, Err(Reason::Game(Unranked::Assisted)));
        // A turn inside a pause.
        let pauses = [(1_000, 5_000)];
        let paused = Facts {
            elapsed_millis: 9_000,
            pauses: &pauses,
            ..facts(4_000)
        };
        let times = vec![3_000, 7_000];
        let Ok(Ending::Solved(done)) = shisen(session.clone(), turns.clone(), times, &paused, &[])
        else {
            panic!("the board is cleared")
        };
        assert!(matches!(
            done.verdict,
            Err(Reason::Game(Unranked::PlayedWhilePaused(_)))
        ));
        // One removal: stuck with two tiles.
        let Ok(Ending::Unsolved(stuck)) = shisen(
            session,
            turns[..1].to_vec(),
            vec![1_500],
            &facts(2_000),
            &[],
        ) else {
            panic!("two tiles remain")
        };
        assert_eq!((stuck.removals, stuck.board.tiles_left()), (1, 2));
    }
}
