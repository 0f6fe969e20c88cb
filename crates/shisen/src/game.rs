//! A game in progress: the board, its history for undo and redo, and the
//! counters a front end needs for scoring. The engine keeps no clock: the
//! front end passes elapsed time to [`Game::score`].

use crate::board::Board;
use crate::kind::Kind;
use crate::moves::Move;
use crate::path::Path;
use crate::point::Point;
use crate::rules::Rules;
use crate::solver::{solve, Budget, Verdict};
use common::Rng;

/// A step of the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A pair removed, as the tiles stood before the removal.
    Remove(Move),
    /// The remaining tiles shuffled in place.
    Shuffle,
}

/// Why a pair cannot be removed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("no tile at {0}")]
    /// There is no tile at this point.
    NoTile(Point),
    #[error("{0} and {1} are the same tile")]
    /// Both points are the same tile.
    SameTile(Point, Point),
    #[error("tiles '{0}' and '{1}' do not match")]
    /// The two tiles do not match under the rules.
    Mismatch(Kind, Kind),
    #[error("no connection of at most three segments joins {0} and {1}")]
    /// No path of at most three segments joins the two tiles.
    NoPath(Point, Point),
}

/// Counters for scoring, kept across undo and redo (an undone move still
/// counts as used help).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Moves taken back.
    pub undos: u32,
    /// Hints asked for.
    pub hints: u32,
    /// Shuffles made.
    pub shuffles: u32,
}

/// A game: the initial board, every board since, and where we are.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// `boards[i]` is the board after `actions[..i]`.
    boards: Vec<Board>,
    actions: Vec<Action>,
    /// The current step: `boards[at]` is on screen; later ones are redoable.
    at: usize,
    stats: Stats,
}

impl Game {
    /// A game starting from `board` under `rules`.
    pub fn new(board: Board, rules: Rules) -> Game {
        Game {
            rules,
            boards: vec![board],
            actions: Vec::new(),
            at: 0,
            stats: Stats::default(),
        }
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.boards[self.at]
    }

    /// The rules the game is played by.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// What the player has used so far: undos, hints, shuffles.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The board after each step, from the deal to the last redoable one
    /// (`boards()[step()]` is the current board).
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// The actions that led to the current board.
    pub fn history(&self) -> &[Action] {
        &self.actions[..self.at]
    }

    /// The current step (the number of actions applied).
    pub fn step(&self) -> usize {
        self.at
    }

    /// The number of steps that can be redone.
    pub fn redoable(&self) -> usize {
        self.actions.len() - self.at
    }

    /// Checks that `p` and `q` can be removed now, returning the path.
    pub fn check(&self, p: Point, q: Point) -> Result<Path, MoveError> {
        let board = self.board();
        if p == q {
            return Err(MoveError::SameTile(p, q));
        }
        let kp = board.get(p).ok_or(MoveError::NoTile(p))?;
        let kq = board.get(q).ok_or(MoveError::NoTile(q))?;
        if !board.matching().matches(kp, kq) {
            return Err(MoveError::Mismatch(kp, kq));
        }
        board.path(p, q).ok_or(MoveError::NoPath(p, q))
    }

    /// Removes the pair at `p` and `q`, discarding any redoable steps.
    pub fn remove(&mut self, p: Point, q: Point) -> Result<Path, MoveError> {
        let path = self.check(p, q)?;
        let mut next = self.board().clone();
        next.remove_pair(p, q, self.rules.gravity);
        self.push(Action::Remove(Move::new(p, q)), next);
        Ok(path)
    }

    fn push(&mut self, action: Action, board: Board) {
        self.boards.truncate(self.at + 1);
        self.actions.truncate(self.at);
        self.boards.push(board);
        self.actions.push(action);
        self.at += 1;
    }

    /// Steps back one action; `false` at the start.
    pub fn undo(&mut self) -> bool {
        self.go_to(self.at.wrapping_sub(1))
    }

    /// Steps forward one undone action; `false` when there is none.
    pub fn redo(&mut self) -> bool {
        self.go_to(self.at + 1)
    }

    /// Moves to any step between 0 (the deal) and the last action taken,
    /// keeping the history; `false` if `step` is out of range.
    pub fn go_to(&mut self, step: usize) -> bool {
        if step >= self.boards.len() {
            return false;
        }
        if step < self.at {
            self.stats.undos += (self.at - step) as u32;
        }
        self.at = step;
        true
    }

    /// Back to the deal, keeping the history redoable.
    pub fn restart(&mut self) {
        self.go_to(0);
    }

    /// Shuffles the remaining tiles among their cells, drawing from `seed`.
    /// Reshuffles (up to 100 times, deterministically) until a move exists
    /// if any arrangement tried has one.
    pub fn shuffle(&mut self, seed: u64) {
        let mut rng = Rng::new(seed);
        let mut kinds: Vec<Kind> = self.board().tiles().map(|(_, k)| k).collect();
        let mut next = self.board().clone();
        for _ in 0..100 {
            rng.shuffle(&mut kinds);
            next.refill(&kinds);
            if next.has_moves() {
                break;
            }
        }
        self.stats.shuffles += 1;
        self.push(Action::Shuffle, next);
    }

    /// Charges `hints` hints given outside the game (a server answering
    /// hint requests for it) as help, as if [`Game::hint`] had given them.
    pub fn charge_hints(&mut self, hints: u32) {
        self.stats.hints += hints;
    }

    /// A move to suggest, counted as help; `None` when stuck or won.
    pub fn hint(&mut self) -> Option<Move> {
        let hint = self.board().moves().into_iter().next();
        self.stats.hints += u32::from(hint.is_some());
        hint
    }

    /// Whether the current board can still be cleared (the solver's
    /// verdict within `budget`).
    pub fn still_solvable(&self, budget: &mut impl Budget) -> Verdict {
        solve(self.board(), self.rules, budget).verdict
    }

    /// A move that keeps the board solvable: the first removal of the
    /// solution in `verdict`, which must be the solver's verdict on the
    /// current board (from [`Game::still_solvable`], perhaps computed
    /// earlier on another thread). `None` if the verdict has no solution
    /// or the board is won. Counted as a hint.
    pub fn safe_hint(&mut self, verdict: &Verdict) -> Option<Move> {
        let first = match verdict {
            Verdict::Solvable(moves) => moves.first().copied(),
            _ => None,
        };
        self.stats.hints += u32::from(first.is_some());
        first
    }

    /// Whether the board is cleared.
    pub fn is_won(&self) -> bool {
        self.board().is_cleared()
    }

    /// Tiles remain but no pair can be removed.
    pub fn is_stuck(&self) -> bool {
        !self.is_won() && !self.board().has_moves()
    }

    /// A score for front ends: tiles removed earn points, faster play earns
    /// more (the front end measures `elapsed_secs`), and help costs: each
    /// undo, hint or shuffle takes away the value of a tile. Gravity doubles
    /// the score, being harder.
    pub fn score(&self, elapsed_secs: u64) -> u64 {
        let start = self.boards[0].tiles_left() as u64;
        let removed = start - self.board().tiles_left() as u64;
        let pace = 10 * start / (start / 2 + elapsed_secs).max(1);
        let base = removed * (10 + pace);
        let help =
            u64::from(self.stats.undos + self.stats.hints + self.stats.shuffles) * (10 + pace);
        let score = base.saturating_sub(help);
        if self.rules.gravity {
            2 * score
        } else {
            score
        }
    }
}
