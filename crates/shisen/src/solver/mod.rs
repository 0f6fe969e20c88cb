//! The exact solver: is there an order of removals that clears the board?
//!
//! Without gravity a removal only empties cells, so it never blocks another
//! connection. Two consequences drive the search:
//!
//! * Order between kinds does not matter, only which tiles of a kind pair
//!   up. If a class's tiles can all be paired by connections open right
//!   now, taking those pairs at once is never wrong (any solution can be
//!   rearranged to start with them). Such *safe* removals are made without
//!   branching, until none is left.
//! * The search then branches on one open pair (a, b) at a time: either
//!   some solution pairs a with b — then taking (a, b) now is never wrong —
//!   or none does, and the pair is *banned* below (in a class of four, with
//!   the pair of the other two tiles). A tile whose bans leave it a single
//!   partner, open, is taken with it at once. Failed positions (the set of
//!   removed tiles and the line's bans, Zobrist-hashed) are remembered.
//! * A position is dropped at once when its *relaxation* fails: let every
//!   tile go as soon as it connects to the cell of any tile of its class
//!   it may pair with (still there or gone) and repeat; a tile left behind
//!   proves that no solution exists (every real solution removes its tiles
//!   no sooner).
//! * Attempts restart with growing node allowances and reshuffled move
//!   orders (the failed table carries over). Once a first attempt (500
//!   nodes) has failed the board is hard: short attempts follow (25, 25,
//!   50, 50, 100, … nodes), choosing the pair to branch on alternately by
//!   *mobility* (the removal leaving the most moves open) and in plain
//!   order, and every node also *probes* the pairings of each class of
//!   four: one whose relaxation fails with that pairing fixed is banned (a
//!   few dozen relaxations per node), which often proves a position
//!   unsolvable without branching at all.
//!
//! With gravity a removal moves the tiles above it, so connections can also
//! close. A class's whole pairing is still safe to take when all its tiles
//! are on top of their columns: no tile moves, so the rest of any solution
//! stays valid. The search branches over all open pairs otherwise, with a
//! transposition table over whole positions (tiles of one class being
//! interchangeable). Attempts follow Luby's sequence and alternate two move
//! orders, each fast where the other is slow: tiles with the fewest tiles above them first, and
//! the removals that leave the most moves open first (mobility).
//!
//! The work is measured in nodes (positions expanded); a [`Budget`] can stop
//! the search, which then answers [`Verdict::Unknown`].

use std::collections::HashSet;
use std::ops::Range;

mod bans;
use bans::Bans;

use crate::board::Board;
use crate::kind::Kind;
use crate::moves::Move;
use crate::point::Point;
use crate::rules::Rules;
use common::Rng;

/// The answer of the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The board can be cleared by these removals, in order. Under gravity
    /// each move names its tiles where they stand when it is played.
    Solvable(Vec<Move>),
    /// No sequence of removals clears the board.
    Unsolvable,
    /// The budget ran out first.
    Unknown,
}

/// What the solver found, and how much work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Whether the board can be cleared, with a clearing sequence if so.
    pub verdict: Verdict,
    /// Positions expanded.
    pub nodes: u64,
}

/// Lets a front end bound the search (by nodes, by time, …): asked every
/// [`Budget::INTERVAL`] nodes whether to go on, and inside a node as often
/// as its work demands (on large boards one node can cost much longer
/// than a caller's whole budget), so a search stops soon after it is told.
pub trait Budget {
    /// How many nodes pass between two checks of the budget (checking costs a clock read).
    const INTERVAL: u64 = 256;

    /// Whether the search may continue after `nodes` nodes.
    fn allows(&mut self, nodes: u64) -> bool;
}

/// A budget of at most this many nodes (checked every
/// [`Budget::INTERVAL`] nodes).
#[derive(Clone, Copy, Debug)]
pub struct Nodes(pub u64);

impl Budget for Nodes {
    fn allows(&mut self, nodes: u64) -> bool {
        nodes < self.0
    }
}

/// Why a search stopped before deciding.
enum Stop {
    /// The caller's budget ran out.
    Budget,
    /// This attempt used its nodes: start over with another move order.
    Restart,
}

type Step = Result<bool, Stop>;

/// Decides whether `board` can be cleared under `rules.gravity` (the
/// matching rule is the board's).
///
/// Searches run in attempts with growing node allowances, each trying the
/// moves in another (seeded, reproducible) order: a solvable board's search
/// time is heavy-tailed in the move order, and restarts cut the tail. The
/// table of failed positions carries over, so no proof is redone.
pub fn solve(board: &Board, rules: Rules, budget: &mut impl Budget) -> Solution {
    solve_probing_from(board, rules, budget, 1)
}

/// [`solve`], with nodes probing from attempt `probe_from` on.
fn solve_probing_from(
    board: &Board,
    rules: Rules,
    budget: &mut impl Budget,
    probe_from: u32,
) -> Solution {
    let mut search = Search {
        meter: Meter {
            budget,
            work: 0,
            next_check: CHECK_WORK,
        },
        nodes: 0,
        limit: 0,
        shuffle: None,
        bans: Bans::new(board),
        probing: false,
        mobility: false,
        failed: HashSet::new(),
        played: Vec::new(),
    };
    let mut result = Err(Stop::Restart);
    for attempt in 0u32.. {
        let allowance = if rules.gravity {
            GRAVITY_UNIT * luby(attempt + 1)
        } else if attempt == 0 {
            FIRST_ATTEMPT
        } else {
            // Probing attempts, mobility and plain in turn, each pair
            // twice as long as the one before.
            PROBING_UNIT << ((attempt - 1) / 2).min(40)
        };
        search.limit = search.nodes.saturating_add(allowance);
        search.shuffle = (attempt > 0).then(|| Rng::new(u64::from(attempt)));
        search.played.clear();
        // A first attempt failed: the board is hard. Probing the pairings
        // at every node costs about a hundred relaxations, worth it only now.
        search.probing = attempt >= probe_from;
        search.mobility = attempt % 2 == 1;
        // A stopped attempt leaves its line's bans behind.
        search.bans = Bans::new(board);
        result = if rules.gravity {
            search.gravity(board)
        } else {
            let mut board = board.clone();
            let mut zobrist = Zobrist::new(&board);
            search.free(&mut board, &mut zobrist)
        };
        if !matches!(result, Err(Stop::Restart)) {
            break;
        }
    }
    let verdict = match result {
        Ok(true) => Verdict::Solvable(search.played.iter().map(|&(m, _)| m).collect()),
        Ok(false) => Verdict::Unsolvable,
        Err(_) => Verdict::Unknown,
    };
    Solution {
        verdict,
        nodes: search.nodes,
    }
}

mod relaxation;
mod schedule;
mod search;
#[cfg(test)]
mod tests;

use relaxation::*;
use schedule::*;
use search::*;
