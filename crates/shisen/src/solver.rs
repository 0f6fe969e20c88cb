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
//! * The search then branches over the open pairs, and remembers every
//!   failed position (a transposition table over the set of removed tiles,
//!   Zobrist-hashed), since many orders reach the same position.
//! * A position is dropped at once when its *relaxation* fails: let every
//!   tile go as soon as it connects to the cell of any tile of its class
//!   (still there or gone) and repeat; a tile left behind proves that no
//!   solution exists (every real solution removes its tiles no sooner).
//! * Attempts restart with doubling node allowances (under gravity, Luby's
//!   sequence) and reshuffled move orders (the failed table carries over); on a hard board the pairings
//!   of each class of four are probed at the root and impossible ones are
//!   never tried.
//!
//! With gravity a removal moves the tiles above it, so connections can also
//! close. A class's whole pairing is still safe to take when all its tiles
//! are on top of their columns: no tile moves, so the rest of any solution
//! stays valid. The search branches over all open pairs otherwise, tiles
//! with the fewest tiles above them first, with a transposition table over
//! whole positions (tiles of one class being interchangeable).
//!
//! The work is measured in nodes (positions expanded); a [`Budget`] can stop
//! the search, which then answers [`Verdict::Unknown`].

use std::collections::HashSet;

use crate::board::Board;
use crate::kind::Kind;
use crate::moves::Move;
use crate::point::Point;
use crate::rng::DealRng;
use crate::rules::Rules;

/// The answer of the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The board can be cleared by these removals, in order. Under gravity
    /// each move names its tiles where they stand when it is played.
    Solvable(Vec<Move>),
    Unsolvable,
    /// The budget ran out first.
    Unknown,
}

/// What the solver found, and how much work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub verdict: Verdict,
    /// Positions expanded.
    pub nodes: u64,
}

/// Lets a front end bound the search (by nodes, by time, …): asked every
/// [`Budget::INTERVAL`] nodes whether to go on.
pub trait Budget {
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

/// Under gravity attempts follow the Luby sequence (1, 1, 2, 1, 1, 2, 4, …)
/// in units of this many nodes: many short attempts, now and then a long one.
const GRAVITY_UNIT: u64 = 2_000;

/// The `i`-th term (from 1) of the Luby sequence.
fn luby(i: u32) -> u64 {
    let mut i = u64::from(i);
    loop {
        // The smallest k with i ≤ 2^k − 1.
        let k = 64 - i.leading_zeros();
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// Nodes of the first attempt; each restart doubles the allowance.
const FIRST_ATTEMPT: u64 = 500;

/// Decides whether `board` can be cleared under `rules.gravity` (the
/// matching rule is the board's).
///
/// Searches run in attempts with growing node allowances, each trying the
/// moves in another (seeded, reproducible) order: a solvable board's search
/// time is heavy-tailed in the move order, and restarts cut the tail. The
/// table of failed positions carries over, so no proof is redone.
pub fn solve(board: &Board, rules: Rules, budget: &mut impl Budget) -> Solution {
    let mut search = Search {
        budget,
        nodes: 0,
        limit: 0,
        shuffle: None,
        banned: HashSet::new(),
        failed: HashSet::new(),
        played: Vec::new(),
    };
    let mut result = Err(Stop::Restart);
    for attempt in 0u32.. {
        let allowance = if rules.gravity {
            GRAVITY_UNIT * luby(attempt + 1)
        } else {
            FIRST_ATTEMPT << attempt.min(40)
        };
        search.limit = search.nodes.saturating_add(allowance);
        search.shuffle = (attempt > 0).then(|| DealRng::new(u64::from(attempt)));
        search.played.clear();
        // A first attempt failed: the board is hard. Probing the pairings
        // costs about a hundred relaxations, worth it only now.
        if attempt == 1 && !rules.gravity {
            match impossible_pairs(board) {
                Some(banned) => search.banned = banned,
                None => {
                    result = Ok(false);
                    break;
                }
            }
        }
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

/// Random keys per cell: a position without gravity is the set of removed
/// tiles, hashed as the XOR of their keys.
struct Zobrist {
    keys: Vec<u64>,
    hash: u64,
    width: usize,
}

impl Zobrist {
    fn new(board: &Board) -> Zobrist {
        let mut rng = DealRng::new(0x5A0B_8157);
        let keys = (0..board.width() * board.height())
            .map(|_| rng.next_u64())
            .collect();
        Zobrist {
            keys,
            hash: 0,
            width: board.width(),
        }
    }

    fn toggle(&mut self, m: Move) {
        for p in [m.a, m.b] {
            self.hash ^= self.keys[p.y as usize * self.width + p.x as usize];
        }
    }
}

struct Search<'b, B: Budget> {
    budget: &'b mut B,
    nodes: u64,
    /// The node count that ends this attempt.
    limit: u64,
    /// The move order of this attempt: as found, or shuffled.
    shuffle: Option<DealRng>,
    /// Pairs no solution uses (from probing the pairings at the root).
    banned: HashSet<Move>,
    /// Hashes of positions known to be unsolvable.
    failed: HashSet<u64>,
    /// The removals made so far on the current line, with the kind removed.
    played: Vec<(Move, Kind)>,
}

impl<B: Budget> Search<'_, B> {
    fn tick(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes % B::INTERVAL == 0 && !self.budget.allows(self.nodes) {
            return Err(Stop::Budget);
        }
        if self.nodes >= self.limit {
            return Err(Stop::Restart);
        }
        Ok(())
    }

    /// The moves of `board` in this attempt's order.
    fn ordered(&mut self, board: &Board) -> Vec<Move> {
        let mut moves = board.moves();
        if let Some(rng) = &mut self.shuffle {
            rng.shuffle(&mut moves);
        }
        moves
    }

    /// Removes `m` without gravity, recording it.
    fn take(&mut self, board: &mut Board, zobrist: &mut Zobrist, m: Move) {
        let kind = board.get(m.a).expect("moves name tiles");
        board.remove_pair(m.a, m.b, false);
        zobrist.toggle(m);
        self.played.push((m, kind));
    }

    /// Undoes removals back to `mark` played moves.
    fn untake(&mut self, board: &mut Board, zobrist: &mut Zobrist, mark: usize) {
        while self.played.len() > mark {
            let (m, kind) = self.played.pop().expect("above the mark");
            board.put_back(m.a, kind);
            board.put_back(m.b, kind);
            zobrist.toggle(m);
        }
    }

    /// Makes safe removals (a whole class paired by open connections) until
    /// none is left. Taking one class's pairs only opens connections, so
    /// every class found open in a round can be taken.
    fn take_safe(&mut self, board: &mut Board, zobrist: &mut Zobrist) {
        loop {
            let moves = board.open_pairings();
            if moves.is_empty() {
                return;
            }
            for m in moves {
                self.take(board, zobrist, m);
            }
        }
    }

    /// The search without gravity.
    fn free(&mut self, board: &mut Board, zobrist: &mut Zobrist) -> Step {
        self.tick()?;
        let mark = self.played.len();
        self.take_safe(board, zobrist);
        if board.is_cleared() {
            return Ok(true);
        }
        if self.failed.contains(&zobrist.hash) || hopeless(board) {
            self.failed.insert(zobrist.hash);
            self.untake(board, zobrist, mark);
            return Ok(false);
        }
        for m in self.ordered(board) {
            if self.banned.contains(&m) {
                continue;
            }
            let before = self.played.len();
            self.take(board, zobrist, m);
            if self.free(board, zobrist)? {
                return Ok(true);
            }
            self.untake(board, zobrist, before);
        }
        self.failed.insert(zobrist.hash);
        self.untake(board, zobrist, mark);
        Ok(false)
    }

    /// The search with gravity, on copies of the board.
    fn gravity(&mut self, board: &Board) -> Step {
        self.tick()?;
        let mark = self.played.len();
        let mut board = board.clone();
        self.take_safe_gravity(&mut board);
        if board.is_cleared() {
            return Ok(true);
        }
        let hash = position_hash(&board);
        if !self.failed.contains(&hash) {
            let mut moves = self.ordered(&board);
            // Tiles with little above them disturb the least.
            moves.sort_by_key(|m| burden(&board, m));
            for m in moves {
                let kind = board.get(m.a).expect("moves name tiles");
                let mut next = board.clone();
                next.remove_pair(m.a, m.b, true);
                self.played.push((m, kind));
                if self.gravity(&next)? {
                    return Ok(true);
                }
                self.played.pop();
            }
            self.failed.insert(hash);
        }
        self.played.truncate(mark);
        Ok(false)
    }

    /// Safe removals under gravity: a class paired by open connections
    /// whose tiles all have nothing above them, so that nothing falls.
    fn take_safe_gravity(&mut self, board: &mut Board) {
        loop {
            // Every class found is taken: removing top tiles moves nothing,
            // so the other classes' pairs stay open and on top.
            let moves = board.open_pairings_where(|t| board.is_top(t));
            if moves.is_empty() {
                return;
            }
            for m in moves {
                let kind = board.get(m.a).expect("moves name tiles");
                board.remove_pair(m.a, m.b, true);
                self.played.push((m, kind));
            }
        }
    }
}

/// Whether the board cannot be cleared without gravity, by a relaxation:
/// let any tile go as soon as it connects to the cell of any tile of its
/// class, still there or gone, and repeat. Every real solution removes its
/// tiles no sooner than this does (by induction on its moves: their paths
/// run through cells this has emptied too), so if this leaves a tile, no
/// solution exists.
fn hopeless(board: &Board) -> bool {
    let (tiles, ranges) = flat_classes(board);
    let partners = |i: usize| ranges[i].clone();
    !relaxation_clears(board, &tiles, partners)
}

/// The tiles of the classes still on the board, class after class, and
/// for each tile the index range of its class.
fn flat_classes(board: &Board) -> (Vec<Point>, Vec<std::ops::Range<usize>>) {
    let mut tiles = Vec::with_capacity(board.tiles_left());
    let mut ranges = Vec::with_capacity(board.tiles_left());
    for group in board.groups().filter(|g| g.len() >= 2) {
        let range = tiles.len()..tiles.len() + group.len();
        tiles.extend(
            group
                .iter()
                .map(|&c| Point::new((c & 0xFFFF) as i32, (c >> 16) as i32)),
        );
        ranges.extend(std::iter::repeat_n(range, group.len()));
    }
    (tiles, ranges)
}

/// The relaxation: tile `i` may go once it connects to the cell of a tile
/// `partners(i)` names (its own index is skipped). Whether every tile goes.
fn relaxation_clears<R: Iterator<Item = usize>>(
    board: &Board,
    tiles: &[Point],
    partners: impl Fn(usize) -> R,
) -> bool {
    let mut relaxed = board.clone();
    // Round robin over the tiles until a whole round lets none go.
    let (mut i, mut since_change) = (0, 0);
    while since_change < tiles.len() {
        let t = tiles[i];
        if relaxed.get(t).is_some()
            && relaxed.connects_any(t, partners(i).filter(|&j| j != i).map(|j| tiles[j]))
        {
            relaxed.vacate(t);
            if relaxed.is_cleared() {
                return true;
            }
            since_change = 0;
        } else {
            since_change += 1;
        }
        i = (i + 1) % tiles.len();
    }
    relaxed.is_cleared()
}

/// The pairings of four tiles, as index pairs.
const PAIRINGS: [[(usize, usize); 2]; 3] = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]];

/// Probes every class of four tiles: a pairing is impossible if the
/// relaxation fails with that class's partners fixed to it (and the
/// partners of classes already down to one possible pairing fixed too).
/// Repeats while that fixes more classes. Returns the pairs of impossible
/// pairings (a pair belongs to one pairing only), or `None` if some class
/// has no possible pairing: the board is unsolvable.
fn impossible_pairs(board: &Board) -> Option<HashSet<Move>> {
    let (tiles, ranges) = flat_classes(board);
    let fours: Vec<usize> = (0..tiles.len())
        .filter(|&i| ranges[i].start == i && ranges[i].len() == 4)
        .collect();
    // Per class of four (by its first index): the pairings still possible.
    let mut allowed: Vec<(usize, Vec<usize>)> = fours.iter().map(|&f| (f, vec![0, 1, 2])).collect();
    // The partner of tile `i` under pairing `k` of its class starting at `f`.
    let partner = |f: usize, k: usize, i: usize| {
        let [(a, b), (x, y)] = PAIRINGS[k];
        let at = i - f;
        f + [(a, b), (b, a), (x, y), (y, x)]
            .iter()
            .find(|p| p.0 == at)
            .map_or(at, |p| p.1)
    };
    loop {
        let mut changed = false;
        for c in 0..allowed.len() {
            if allowed[c].1.len() < 2 {
                continue;
            }
            let (f, options) = allowed[c].clone();
            let keep: Vec<usize> = options
                .iter()
                .copied()
                .filter(|&k| {
                    let fixed = |i: usize| -> Option<usize> {
                        let start = ranges[i].start;
                        if start == f {
                            return Some(partner(f, k, i));
                        }
                        let class = allowed.iter().find(|(g, _)| *g == start)?;
                        (class.1.len() == 1).then(|| partner(start, class.1[0], i))
                    };
                    relaxation_clears(board, &tiles, |i| match fixed(i) {
                        Some(j) => j..j + 1,
                        None => ranges[i].clone(),
                    })
                })
                .collect();
            if keep.is_empty() {
                return None;
            }
            changed |= keep.len() < options.len();
            allowed[c].1 = keep;
        }
        if !changed {
            break;
        }
    }
    let mut banned = HashSet::new();
    for (f, options) in &allowed {
        for k in (0..3).filter(|k| !options.contains(k)) {
            for (i, j) in PAIRINGS[k] {
                banned.insert(Move::new(tiles[f + i], tiles[f + j]));
            }
        }
    }
    Some(banned)
}

/// The number of tiles above a move's two tiles.
fn burden(board: &Board, m: &Move) -> usize {
    [m.a, m.b]
        .iter()
        .map(|p| {
            (0..p.y)
                .filter(|&y| board.get(Point::new(p.x, y)).is_some())
                .count()
        })
        .sum()
}

/// A hash of a whole position (for gravity, where tiles move).
fn position_hash(board: &Board) -> u64 {
    board.position_key()
}

#[cfg(test)]
mod tests {
    use super::luby;

    #[test]
    fn luby_sequence() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
