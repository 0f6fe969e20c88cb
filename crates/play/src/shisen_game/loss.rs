//! Where a Shisen-Sho game was lost: after each turn of a replay, whether
//! the board could still be cleared, decided by the exact solver under the
//! game's rules; the first turn after which it could not; and a winning
//! continuation from the last position that could.
//!
//! A position the solver cannot decide within its budget is
//! [`Solvability::Unknown`], never guessed: the losing turn is only named
//! when every position before it was proven solvable.

use std::time::Duration;

use shisen::{Board, Move, Rules, Verdict};

use super::session::{analyse, ReplayError, Session, Turn};
use crate::Deadline;

/// Whether one position could still be cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solvability {
    /// The solver found a clearing sequence.
    Solvable,
    /// The solver proved no sequence clears it.
    Unsolvable,
    /// The solver's budget ran out first.
    Unknown,
}

impl Solvability {
    /// `solvable`, `unsolvable` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Solvability::Solvable => "solvable",
            Solvability::Unsolvable => "unsolvable",
            Solvability::Unknown => "unknown",
        }
    }
}

/// The first position that could not be cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// Every position was proven solvable (or the game was cleared).
    Never,
    /// The position after this many turns (0: the deal itself) was the
    /// first proven unsolvable, and every one before it proven solvable.
    At(usize),
    /// Some position is unknown before any proven unsolvable one, so the
    /// losing turn cannot be named.
    Undecided,
}

/// A winning line from a position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Continuation {
    /// The position it starts from: after this many turns (0: the deal).
    pub after: usize,
    /// The solver's removals that clear the board from there, in order.
    pub removals: Vec<Move>,
}

/// The analysis of a whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LossAnalysis {
    /// One verdict per position: the deal, then the board after each turn
    /// (n + 1 for n turns).
    pub positions: Vec<Solvability>,
    /// The first position that could not be cleared.
    pub loss: Loss,
    /// From the last position proven solvable before the loss (or, when
    /// nothing was lost, the last proven solvable one).
    pub continuation: Option<Continuation>,
}

/// Analyses the game that plays `turns` from `start`, giving the solver at
/// most `per_position` on each position and stopping every search once
/// `overall` has passed (the positions left are then unknown). Fails on
/// the first turn that cannot be played.
///
/// A position is searched only when no other one decides it. Along a run
/// of removals the verdicts can only go from solvable to unsolvable, once:
/// a board whose removal leaves a clearable board is clearable (the
/// removal, then that clearing), and a removal from a board that cannot be
/// cleared leaves one that cannot. So the last position of a run is
/// searched first: solvable, the whole run is, each line the removal
/// followed by the next position's line. Unsolvable, the first is
/// searched, and if it is solvable the turn where the run was lost is
/// found by bisection. A board seen before (an undo, a redo) has the
/// verdict it had. Where a search runs out of its budget, the run's
/// undecided positions are searched one by one from the start, each
/// removal after an unsolvable board unsolvable, and the earlier line less
/// the removal tried (played to a clear board, every removal checked).
pub fn where_lost(
    start: Session,
    turns: &[Turn],
    per_position: Duration,
    overall: &Deadline,
) -> Result<LossAnalysis, ReplayError> {
    let replay = start.clone().replay(turns)?;
    let rules = start.game().rules();
    let boards: Vec<Board> = std::iter::once(start.game().board().clone())
        .chain(replay.steps.into_iter().map(|step| step.board))
        .collect();
    let mut game = Positions {
        boards,
        turns,
        rules,
        per_position,
        overall,
        decided: Vec::new(),
    };
    game.decided = vec![None; game.boards.len()];
    // Runs of positions joined by removals: [from, to].
    let mut from = 0;
    for at in 1..=game.boards.len() {
        let joined = at < game.boards.len() && matches!(turns[at - 1], Turn::Remove(..));
        if !joined {
            game.run(from, at - 1);
            from = at;
        }
    }
    let (positions, solutions): (Vec<Solvability>, Vec<Option<Vec<Move>>>) = game
        .decided
        .into_iter()
        .map(|d| d.expect("every position decided"))
        .unzip();
    let loss = first_loss(&positions);
    // The line to show is from before the loss: positions after it may
    // have become solvable again only through undos or shuffles.
    let until = match loss {
        Loss::At(at) => at,
        Loss::Never | Loss::Undecided => positions.len(),
    };
    let continuation = solutions[..until]
        .iter()
        .enumerate()
        .rev()
        .find_map(|(after, solution)| {
            solution
                .clone()
                .map(|removals| Continuation { after, removals })
        });
    Ok(LossAnalysis {
        positions,
        loss,
        continuation,
    })
}

/// A verdict, with its clearing line when solvable.
type Decided = (Solvability, Option<Vec<Move>>);

/// The positions of a game being analysed, and what is known of them.
struct Positions<'a> {
    /// The deal, then the board after each turn.
    boards: Vec<Board>,
    turns: &'a [Turn],
    rules: Rules,
    per_position: Duration,
    overall: &'a Deadline,
    decided: Vec<Option<Decided>>,
}

impl Positions<'_> {
    /// The removal that leads from position `at` to the next, if any.
    fn removal_after(&self, at: usize) -> Option<Move> {
        match self.turns.get(at) {
            Some(&Turn::Remove(p, q)) => Some(Move::new(p, q)),
            _ => None,
        }
    }

    /// Decides the run of positions `from..=to`, each joined to the next by
    /// a removal.
    fn run(&mut self, from: usize, to: usize) {
        match self.decide(to) {
            Solvability::Solvable => return self.solvable_until(from, to),
            Solvability::Unknown => return self.one_by_one(from, to),
            Solvability::Unsolvable => {}
        }
        match self.decide(from) {
            Solvability::Unsolvable => return self.unsolvable_from(from, to),
            Solvability::Unknown => return self.one_by_one(from, to),
            Solvability::Solvable => {}
        }
        // Solvable at `lo`, unsolvable at `hi`: the loss is in between.
        let (mut lo, mut hi) = (from, to);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            match self.decide(mid) {
                Solvability::Solvable => lo = mid,
                Solvability::Unsolvable => hi = mid,
                Solvability::Unknown => {
                    self.solvable_until(from, lo);
                    self.unsolvable_from(hi, to);
                    return self.one_by_one(lo, hi);
                }
            }
        }
        self.solvable_until(from, lo);
        self.unsolvable_from(hi, to);
    }

    /// Positions `from..to` are solvable because `to` is: each line is the
    /// removal played, then the next position's line.
    fn solvable_until(&mut self, from: usize, to: usize) {
        for at in (from..to).rev() {
            if self.decided[at].is_some() {
                continue;
            }
            let removal = self.removal_after(at).expect("a run of removals");
            let next = self.decided[at + 1].as_ref().and_then(|d| d.1.as_ref());
            let line = next.map(|rest| std::iter::once(removal).chain(rest.iter().copied()));
            self.decided[at] = Some((Solvability::Solvable, line.map(Iterator::collect)));
        }
    }

    /// Positions after `from` up to `to` cannot be cleared because `from`
    /// cannot.
    fn unsolvable_from(&mut self, from: usize, to: usize) {
        for at in from + 1..=to {
            self.decided[at].get_or_insert((Solvability::Unsolvable, None));
        }
    }

    /// Positions `from..=to` in order, each from the one before where it
    /// can be, searched otherwise.
    fn one_by_one(&mut self, from: usize, to: usize) {
        for at in from..=to {
            let known = self.decided[at].as_ref().map(|d| d.0);
            if known.is_some_and(|v| v != Solvability::Unknown) {
                continue;
            }
            let before = at.checked_sub(1).and_then(|b| {
                let removal = self.removal_after(b)?;
                let decided = self.decided[b].as_ref()?;
                from_before(decided, removal, &self.boards[at], self.rules)
            });
            match before {
                Some(decided) => self.decided[at] = Some(decided),
                // Searched once already when unknown: not again.
                None if known.is_some() => {}
                None => {
                    self.decide(at);
                }
            }
        }
    }

    /// The verdict on position `at`: known, that of the same board seen
    /// elsewhere, or searched within the budgets.
    fn decide(&mut self, at: usize) -> Solvability {
        if let Some((verdict, _)) = &self.decided[at] {
            return *verdict;
        }
        let board = &self.boards[at];
        let seen = self.decided.iter().enumerate().find_map(|(i, d)| {
            d.as_ref()
                .filter(|d| d.0 != Solvability::Unknown && &self.boards[i] == board)
                .cloned()
        });
        let decided = seen.unwrap_or_else(|| {
            let game = shisen::Game::new(board.clone(), self.rules);
            let mut budget = self.overall.clone().within(self.per_position);
            match analyse(&game, &mut budget) {
                Verdict::Solvable(removals) => (Solvability::Solvable, Some(removals)),
                Verdict::Unsolvable => (Solvability::Unsolvable, None),
                Verdict::Unknown => (Solvability::Unknown, None),
            }
        });
        let verdict = decided.0;
        self.decided[at] = Some(decided);
        verdict
    }
}

/// What the position before `board`, left by `removed`, decides of it:
/// unsolvable after an unsolvable one; solvable when the earlier line,
/// less that removal, still clears it. `None` when it must be searched.
fn from_before(before: &Decided, removed: Move, board: &Board, rules: Rules) -> Option<Decided> {
    match before {
        (Solvability::Unsolvable, _) => Some((Solvability::Unsolvable, None)),
        (Solvability::Solvable, Some(line)) => {
            // The line as it was, less the pair just removed: its first
            // removal under any rules, or a later one (which, without
            // gravity, names the same cells on the new board).
            let rest: Vec<Move> = match line.iter().position(|&m| m == removed) {
                Some(0) => line[1..].to_vec(),
                Some(i) if !rules.gravity => {
                    let mut rest = line.clone();
                    rest.remove(i);
                    rest
                }
                _ => return None,
            };
            clears(board, rules, &rest).then_some((Solvability::Solvable, Some(rest)))
        }
        _ => None,
    }
}

/// Whether `removals`, each checked as a player's, clear `board`.
fn clears(board: &Board, rules: Rules, removals: &[Move]) -> bool {
    let mut game = shisen::Game::new(board.clone(), rules);
    removals.iter().all(|m| game.remove(m.a, m.b).is_ok()) && game.is_won()
}

/// The first unsolvable position, when every one before it is solvable.
fn first_loss(positions: &[Solvability]) -> Loss {
    for (at, &solvability) in positions.iter().enumerate() {
        match solvability {
            Solvability::Solvable => {}
            Solvability::Unsolvable => return Loss::At(at),
            Solvability::Unknown => {
                return if positions[at..].contains(&Solvability::Unsolvable) {
                    Loss::Undecided
                } else {
                    Loss::Never
                };
            }
        }
    }
    Loss::Never
}

#[cfg(test)]
mod tests {
    use super::*;
    use shisen::{parse_board, Matching, Nodes, Point, Rules, Size, TileSet};

    const NO_LIMIT: Duration = Duration::from_secs(3600);

    fn session(text: &str, rules: Rules) -> Session {
        Session::new(parse_board(text, Matching::Standard).unwrap(), rules, 1)
    }

    fn remove(m: Move) -> Turn {
        Turn::Remove(m.a, m.b)
    }

    #[test]
    fn a_deal_that_cannot_be_cleared_is_lost_at_the_deal() {
        let start = session("AB\nBA\nCC\n", Rules::STANDARD);
        // Only the Cs connect: removing them leaves AB/BA, stuck for good.
        let turns = [Turn::Remove(Point::new(0, 2), Point::new(1, 2))];
        let analysis = where_lost(start, &turns, NO_LIMIT, &Deadline::none()).unwrap();
        assert_eq!(
            analysis.positions,
            [Solvability::Unsolvable, Solvability::Unsolvable]
        );
        assert_eq!(analysis.loss, Loss::At(0), "dealt lost");
        assert_eq!(analysis.continuation, None);
    }

    #[test]
    fn a_won_game_was_never_lost_and_continues_from_its_end() {
        let start = session("AB\nAB\n", Rules::STANDARD);
        let turns = [
            Turn::Remove(Point::new(0, 0), Point::new(0, 1)),
            Turn::Remove(Point::new(1, 0), Point::new(1, 1)),
        ];
        let analysis = where_lost(start, &turns, NO_LIMIT, &Deadline::none()).unwrap();
        assert_eq!(analysis.positions, [Solvability::Solvable; 3]);
        assert_eq!(analysis.loss, Loss::Never);
        let line = analysis.continuation.unwrap();
        assert_eq!((line.after, line.removals.len()), (2, 0));
    }

    /// The first seeded 6x4 deal that is solvable but has a first removal
    /// after which it is not.
    fn a_deal_with_a_losing_first_move() -> (Session, Move) {
        let size = Size::new(6, 4).unwrap();
        for seed in 0.. {
            let board = shisen::Deal::random(seed, size, TileSet::custom(6, 4).unwrap()).unwrap();
            let start = Session::new(board, Rules::STANDARD, seed);
            if !matches!(
                analyse(start.game(), &mut Nodes(u64::MAX)),
                Verdict::Solvable(_)
            ) {
                continue;
            }
            for m in start.game().board().moves() {
                let mut s = start.clone();
                s.remove(m.a, m.b).unwrap();
                if analyse(s.game(), &mut Nodes(u64::MAX)) == Verdict::Unsolvable {
                    return (start, m);
                }
            }
        }
        unreachable!("seeds run out")
    }

    #[test]
    fn a_bad_removal_loses_and_the_line_starts_before_it() {
        let (start, losing) = a_deal_with_a_losing_first_move();
        let analysis = where_lost(
            start.clone(),
            &[remove(losing)],
            NO_LIMIT,
            &Deadline::none(),
        )
        .unwrap();
        assert_eq!(
            analysis.positions,
            [Solvability::Solvable, Solvability::Unsolvable]
        );
        assert_eq!(analysis.loss, Loss::At(1));
        let line = analysis.continuation.unwrap();
        assert_eq!(line.after, 0);
        let mut s = start;
        for m in line.removals {
            s.remove(m.a, m.b).unwrap();
        }
        assert!(s.game().is_won(), "the continuation clears the board");
    }

    #[test]
    fn an_exhausted_budget_is_unknown_never_a_loss() {
        // A full 18x8 board takes the solver past its first budget check.
        let board = shisen::Deal::random(3, Size::new(18, 8).unwrap(), TileSet::Standard).unwrap();
        let start = Session::new(board, Rules::new(Matching::Standard, true), 3);
        let analysis = where_lost(start, &[], NO_LIMIT, &Deadline::after(Duration::ZERO)).unwrap();
        assert_eq!(analysis.positions, [Solvability::Unknown]);
        assert_eq!(analysis.loss, Loss::Never);
        assert_eq!(analysis.continuation, None);
    }

    #[test]
    fn an_unknown_before_the_first_unsolvable_leaves_the_loss_undecided() {
        use Solvability::*;
        assert_eq!(
            first_loss(&[Solvable, Unknown, Unsolvable]),
            Loss::Undecided
        );
        assert_eq!(first_loss(&[Solvable, Unsolvable, Unknown]), Loss::At(1));
        assert_eq!(first_loss(&[Solvable, Unknown, Solvable]), Loss::Never);
        assert_eq!(first_loss(&[Unsolvable]), Loss::At(0));
    }

    #[test]
    fn an_unplayable_turn_is_named() {
        let start = session("AB\nAB\n", Rules::STANDARD);
        let error = where_lost(start, &[Turn::Undo], NO_LIMIT, &Deadline::none()).unwrap_err();
        assert_eq!(error.turn, 1);
    }

    /// A game played by random legal removals from a solvable seeded 10x6
    /// deal, until no pair connects. Two tiles of each of 30 kinds: with
    /// fewer choices of partner, random play loses often (60 of the 200
    /// games below), so the losing turn is tested, not only "never".
    fn random_game(seed: u64, rules: Rules) -> (Session, Vec<Turn>) {
        let board = shisen::Deal::solvable(
            seed,
            Size::new(10, 6).unwrap(),
            TileSet::custom(30, 2).unwrap(),
            rules,
            &mut Nodes(u64::MAX),
        )
        .unwrap()
        .unwrap()
        .board;
        let start = Session::new(board, rules, seed);
        let mut rng = shisen::Rng::new(seed ^ 0x5eed);
        let mut game = start.clone();
        let mut turns = Vec::new();
        loop {
            let moves = game.game().board().moves();
            if moves.is_empty() {
                return (start, turns);
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            game.remove(m.a, m.b).unwrap();
            turns.push(remove(m));
        }
    }

    /// A random game that also shuffles, undoes and redoes: a removal most
    /// turns, and each of the others one turn in ten.
    fn random_game_with_takebacks(seed: u64, rules: Rules) -> (Session, Vec<Turn>) {
        let (start, _) = random_game(seed, rules);
        let mut rng = shisen::Rng::new(seed ^ 0x7a4e);
        let mut game = start.clone();
        let mut turns = Vec::new();
        while !game.game().is_won() && turns.len() < 60 {
            let moves = game.game().board().moves();
            let turn = match rng.below(10) {
                0 => Turn::Shuffle,
                1 => Turn::Undo,
                2 => Turn::Redo,
                _ if moves.is_empty() => Turn::Shuffle,
                _ => remove(moves[rng.below(moves.len() as u64) as usize]),
            };
            if game.play(turn).is_ok() {
                turns.push(turn);
            }
        }
        (start, turns)
    }

    #[test]
    fn every_verdict_is_the_solver_on_that_position_alone() {
        // The verdicts taken from earlier positions (a board seen before,
        // a removal after a loss, the earlier line less the removal) must
        // be what the solver says of each position on its own.
        let mut derived = 0;
        for seed in 0..60 {
            let rules = Rules::new(Matching::Standard, seed % 2 == 1);
            let (start, turns) = random_game_with_takebacks(seed, rules);
            let analysis = where_lost(start.clone(), &turns, NO_LIMIT, &Deadline::none()).unwrap();
            assert_eq!(analysis.positions.len(), turns.len() + 1);
            for (k, &verdict) in analysis.positions.iter().enumerate() {
                let board = start.clone().replay(&turns[..k]).unwrap();
                let alone =
                    shisen::solve(board.session.game().board(), rules, &mut Nodes(u64::MAX));
                let expected = match alone.verdict {
                    Verdict::Solvable(_) => Solvability::Solvable,
                    Verdict::Unsolvable => Solvability::Unsolvable,
                    Verdict::Unknown => unreachable!("no limit"),
                };
                assert_eq!(verdict, expected, "seed {seed}, after {k} turns");
            }
            derived += turns.len();
        }
        assert!(derived > 1000, "{derived} positions");
    }

    #[test]
    fn on_random_games_the_loss_is_the_solver_on_every_prefix() {
        let mut lost = 0;
        for seed in 0..200 {
            let rules = Rules::new(Matching::Standard, seed % 2 == 1);
            let (start, turns) = random_game(seed, rules);
            let analysis = where_lost(start.clone(), &turns, NO_LIMIT, &Deadline::none()).unwrap();
            // Each prefix replayed and solved on its own.
            let first_unsolvable = (0..=turns.len()).find(|&k| {
                let board = start.clone().replay(&turns[..k]).unwrap();
                let verdict =
                    shisen::solve(board.session.game().board(), rules, &mut Nodes(u64::MAX));
                verdict.verdict == Verdict::Unsolvable
            });
            let expected = first_unsolvable.map_or(Loss::Never, Loss::At);
            assert_eq!(analysis.loss, expected, "seed {seed}");
            lost += usize::from(expected != Loss::Never);
            // The continuation clears the board from where it starts.
            let line = analysis.continuation.unwrap();
            let mut from = start.replay(&turns[..line.after]).unwrap().session;
            for m in line.removals {
                from.remove(m.a, m.b).unwrap();
            }
            assert!(from.game().is_won(), "seed {seed}");
        }
        assert!(lost >= 40, "{lost} of the random games were lost");
    }
}
