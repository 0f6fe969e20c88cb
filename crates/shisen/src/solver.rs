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

/// Work between two budget checks inside nodes, in tiles looked at: a
/// relaxation or a mobility count over `t` tiles spends `t`. On an 18 × 8
/// board that is a check every few hundred relaxations, a few
/// milliseconds; on 64 × 64 every sixteen.
const CHECK_WORK: u64 = 1 << 16;

/// Counts a search's work and asks the budget whenever [`CHECK_WORK`] has
/// been spent since the last time.
struct Meter<'b, B: Budget> {
    budget: &'b mut B,
    work: u64,
    next_check: u64,
}

impl<B: Budget> Meter<'_, B> {
    /// Spends `units` of work, in a search at `nodes` nodes.
    fn spend(&mut self, units: u64, nodes: u64) -> Result<(), Stop> {
        self.work += units;
        if self.work < self.next_check {
            return Ok(());
        }
        self.next_check = self.work + CHECK_WORK;
        if self.budget.allows(nodes) {
            Ok(())
        } else {
            Err(Stop::Budget)
        }
    }
}

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

/// Without gravity: nodes of the first attempt, which does not probe.
const FIRST_ATTEMPT: u64 = 500;

/// Without gravity: nodes of the first two probing attempts (one choosing
/// branches by mobility, one in plain order); each later pair doubles.
const PROBING_UNIT: u64 = 25;

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

/// Random keys per cell: a position without gravity is the set of removed
/// tiles, hashed as the XOR of their keys.
struct Zobrist {
    keys: Vec<u64>,
    hash: u64,
    width: usize,
}

impl Zobrist {
    fn new(board: &Board) -> Zobrist {
        let mut rng = Rng::new(0x5A0B_8157);
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
    meter: Meter<'b, B>,
    nodes: u64,
    /// The node count that ends this attempt.
    limit: u64,
    /// The move order of this attempt: as found, or shuffled.
    shuffle: Option<Rng>,
    /// Pairs no solution below the current node uses: from probing the
    /// pairings at the root, and from the branches already refuted.
    bans: Bans,
    /// Whether nodes probe the pairings of their classes of four.
    probing: bool,
    /// Whether this attempt orders moves by mobility (else by burden under
    /// gravity, as found without); attempts alternate, the two orders
    /// failing on different deals.
    mobility: bool,
    /// Hashes of positions known to be unsolvable.
    failed: HashSet<u64>,
    /// The removals made so far on the current line, with the kind removed.
    played: Vec<(Move, Kind)>,
}

impl<B: Budget> Search<'_, B> {
    fn tick(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(B::INTERVAL) && !self.meter.budget.allows(self.nodes) {
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

    /// Makes safe removals until none is left: every class whose tiles can
    /// all be paired by open connections (taking one class's pairs only
    /// opens connections, so every class found open in a round can be
    /// taken), and every open pair whose tiles the bans leave no other
    /// partner (every solution pairs them; taking them now is never wrong).
    /// Returns the open pairs left, none of them banned.
    fn take_safe(&mut self, board: &mut Board, zobrist: &mut Zobrist) -> Vec<Move> {
        loop {
            let moves = board.open_pairings();
            if !moves.is_empty() {
                for m in moves {
                    self.take(board, zobrist, m);
                }
                continue;
            }
            let moves: Vec<Move> = self
                .ordered(board)
                .into_iter()
                .filter(|&m| !self.bans.contains(m))
                .collect();
            let forced: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    self.bans.only_partner(board, m.a) || self.bans.only_partner(board, m.b)
                })
                .collect();
            if forced.is_empty() {
                return moves;
            }
            // Two forced pairs can share a tile only on a dead board (two
            // tiles whose one partner is the same): take the first, and
            // the relaxation will find the other tile stranded.
            for m in forced {
                if board.get(m.a).is_some() && board.get(m.b).is_some() {
                    self.take(board, zobrist, m);
                }
            }
        }
    }

    /// The search without gravity. A node branches on one open pair (a, b)
    /// only: either a solution pairs a with b — then one takes (a, b) now,
    /// removals never block anything — or none does, and the pair is banned
    /// for the rest of that branch (with, in a class of four, the pair of
    /// the two other tiles). Refuted alternatives are thus never retried
    /// below a sibling, and bans sharpen the relaxation.
    fn free(&mut self, board: &mut Board, zobrist: &mut Zobrist) -> Step {
        self.tick()?;
        let mark = self.played.len();
        let moves = self.take_safe(board, zobrist);
        if board.is_cleared() {
            return Ok(true);
        }
        let key = zobrist.hash ^ self.bans.hash;
        let refuted = self.failed.contains(&key)
            || self.failed.contains(&zobrist.hash)
            || moves.is_empty()
            || self.hopeless(board)?;
        if !refuted && self.probe_and_branch(board, zobrist, &moves)? {
            return Ok(true);
        }
        self.failed.insert(key);
        self.untake(board, zobrist, mark);
        Ok(false)
    }

    /// Branches on the first open pair left after probing (if this attempt
    /// probes), with the pairs probing rules out banned meanwhile: they
    /// follow from the position and the line's bans, so they stay out of
    /// the table's keys.
    fn probe_and_branch(
        &mut self,
        board: &mut Board,
        zobrist: &mut Zobrist,
        moves: &[Move],
    ) -> Step {
        if !self.probing {
            return self.branch(board, zobrist, moves[0]);
        }
        let nodes = self.nodes;
        let mut spend = |units| self.meter.spend(units, nodes);
        let Some(found) = probe(board, &mut self.bans, &mut spend)? else {
            return Ok(false);
        };
        let left: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| !self.bans.contains(m))
            .collect();
        let result = if left.is_empty() {
            Ok(false)
        } else {
            let m = if self.mobility {
                self.free_mobility(board, &left)?
            } else {
                left[0]
            };
            self.branch(board, zobrist, m)
        };
        for &m in &found {
            self.bans.unban(m, false);
        }
        result
    }

    /// Both sides of the choice on the open pair `m`: taken, or banned.
    fn branch(&mut self, board: &mut Board, zobrist: &mut Zobrist, m: Move) -> Step {
        let before = self.played.len();
        self.take(board, zobrist, m);
        if self.free(board, zobrist)? {
            return Ok(true);
        }
        self.untake(board, zobrist, before);
        let banned = self.bans.ban_pairing(board, m);
        let found = self.free(board, zobrist);
        for &b in &banned {
            self.bans.unban(b, true);
        }
        found
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
            if self.mobility {
                moves = self.by_mobility(&board, moves)?;
            } else {
                // Tiles with little above them disturb the least.
                moves.sort_by_key(|m| burden(&board, m));
            }
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
    /// Whether the board cannot be cleared without gravity, by a relaxation:
    /// let any tile go as soon as it connects to the cell of any tile of its
    /// class it may still pair with (not banned), still there or gone, and
    /// repeat. Every real solution removes its tiles no sooner than this does
    /// (by induction on its moves: their paths run through cells this has
    /// emptied too), so if this leaves a tile, no solution exists.
    fn hopeless(&mut self, board: &Board) -> Result<bool, Stop> {
        let (tiles, ranges) = flat_classes(board);
        self.meter.spend(tiles.len() as u64, self.nodes)?;
        let order = outside_in(board, &tiles);
        Ok(!relaxation_clears(
            board,
            &tiles,
            &ranges,
            not_banned(&self.bans, &tiles),
            &[],
            &order,
            None,
        ))
    }

    /// Without gravity: the move whose removal leaves the most moves open
    /// (the last of equals). A removal only opens connections, so this takes
    /// the pair that frees the most; on hard boards it finds solutions, and
    /// short refutations, where the plain order wanders.
    fn free_mobility(&mut self, board: &Board, moves: &[Move]) -> Result<Move, Stop> {
        let mut best = (0, moves[0]);
        for &m in moves {
            self.meter.spend(board.tiles_left() as u64, self.nodes)?;
            let mut next = board.clone();
            next.remove_pair(m.a, m.b, false);
            let open = next.count_moves();
            if open >= best.0 {
                best = (open, m);
            }
        }
        Ok(best.1)
    }

    /// `moves` ordered by the moves their removal leaves, most first (ties
    /// in the given order): under gravity, keeping many pairs open keeps
    /// the options that a falling column can take away.
    fn by_mobility(&mut self, board: &Board, moves: Vec<Move>) -> Result<Vec<Move>, Stop> {
        let mut scored = Vec::with_capacity(moves.len());
        for m in moves {
            self.meter.spend(board.tiles_left() as u64, self.nodes)?;
            let mut next = board.clone();
            next.remove_pair(m.a, m.b, true);
            scored.push((next.count_moves(), m));
        }
        scored.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
        Ok(scored.into_iter().map(|(_, m)| m).collect())
    }
}

/// The tiles of the classes still on the board, class after class, and
/// for each tile the index range of its class.
fn flat_classes(board: &Board) -> (Vec<Point>, Vec<Range<usize>>) {
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

/// The indices of `tiles`, nearest the board's edge first: the order in
/// which a relaxation tends to let them go, so that its first sweep
/// already lets most go.
fn outside_in(board: &Board, tiles: &[Point]) -> Vec<usize> {
    let (w, h) = (board.width() as i32, board.height() as i32);
    let depth = |p: Point| p.x.min(w - 1 - p.x).min(p.y).min(h - 1 - p.y);
    let mut order: Vec<usize> = (0..tiles.len()).collect();
    order.sort_by_key(|&i| depth(tiles[i]));
    order
}

/// The relaxation: tile `i` may go once it connects to the cell of a tile
/// `j` of its class (`ranges[i]`) with `allowed(i, j)`. Whether every tile
/// goes. The tiles `given` go first, unchecked (the caller knows they
/// would); the sweeps visit the others in `order`: the result
/// does not depend on it (letting a tile go only helps the others), the
/// time does. With `partners`, also records for each tile the allowed
/// tiles of its class it connects to when it goes (bit
/// `j - ranges[i].start`), and in `gone` the order they went in.
fn relaxation_clears(
    board: &Board,
    tiles: &[Point],
    ranges: &[Range<usize>],
    allowed: impl Fn(usize, usize) -> bool,
    given: &[usize],
    order: &[usize],
    mut partners: Option<(&mut Vec<u8>, &mut Vec<usize>)>,
) -> bool {
    let mut relaxed = board.clone();
    for &i in given {
        relaxed.vacate(tiles[i]);
    }
    if given.len() == tiles.len() {
        return true;
    }
    // Sweeps over the tiles still there, each letting go whatever it can
    // (a tile let go early in a sweep helps the later ones), until a sweep
    // lets none go.
    let mut left: Vec<usize> = order.to_vec();
    loop {
        let before = left.len();
        left.retain(|&i| {
            let t = tiles[i];
            let mut candidates = ranges[i].clone().filter(|&j| j != i && allowed(i, j));
            let goes = relaxed.connects_any(t, candidates.by_ref().map(|j| tiles[j]));
            if goes {
                if let Some((partners, gone)) = partners.as_mut() {
                    gone.push(i);
                    // `connects_any` stopped at the first partner found.
                    let first = ranges[i]
                        .clone()
                        .filter(|&j| j != i && allowed(i, j))
                        .find(|&j| relaxed.connects_any(t, std::iter::once(tiles[j])));
                    let mut mask = 0u8;
                    for j in first.into_iter().chain(candidates) {
                        if j == first.unwrap_or(usize::MAX)
                            || relaxed.connects_any(t, std::iter::once(tiles[j]))
                        {
                            mask |= 1 << (j - ranges[i].start).min(7);
                        }
                    }
                    partners[i] = mask;
                }
                relaxed.vacate(t);
            }
            !goes
        });
        if left.is_empty() {
            return true;
        }
        if left.len() == before {
            return false;
        }
    }
}

/// The pairings of four tiles, as index pairs.
const PAIRINGS: [[(usize, usize); 2]; 3] = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]];

/// The partner of the `at`-th tile of a class of four under pairing `k`.
fn partner_in(k: usize, at: usize) -> usize {
    let [(a, b), (x, y)] = PAIRINGS[k];
    [(a, b), (b, a), (x, y), (y, x)]
        .iter()
        .find(|p| p.0 == at)
        .map_or(at, |p| p.1)
}

/// Whether the bans allow tiles `i` and `j` of `tiles` to pair.
fn not_banned<'a>(bans: &'a Bans, tiles: &'a [Point]) -> impl Fn(usize, usize) -> bool + 'a {
    move |i, j| !bans.contains(Move::new(tiles[i], tiles[j]))
}

/// Probes every class of four tiles: a pairing is impossible if the
/// relaxation fails with the class's other pairings banned. Bans the pairs
/// of impossible pairings (unhashed: they follow from the position and
/// the bans) and repeats while that finds more. Returns the bans added, or
/// `None` (with none added) if the relaxation fails or some class has no
/// possible pairing: the position is unsolvable.
///
/// A pairing the plain relaxation already respects — each tile of the
/// class, when it went, connected to its partner under that pairing — is
/// not probed: fixing it changes nothing in the relaxation's run.
///
/// Each relaxation is paid for through `spend` first; when the budget
/// refuses, the bans added are taken back and the refusal returned.
fn probe(
    board: &Board,
    bans: &mut Bans,
    spend: &mut impl FnMut(u64) -> Result<(), Stop>,
) -> Result<Option<Vec<Move>>, Stop> {
    let (tiles, ranges) = flat_classes(board);
    let mut found = Vec::new();
    let fours: Vec<usize> = (0..tiles.len())
        .filter(|&i| ranges[i].start == i && ranges[i].len() == 4)
        .collect();
    let pair = |f: usize, (a, b): (usize, usize)| Move::new(tiles[f + a], tiles[f + b]);
    let undo = |bans: &mut Bans, found: &[Move]| {
        for &m in found {
            bans.unban(m, false);
        }
    };
    let dead = |bans: &mut Bans, found: &[Move]| {
        undo(bans, found);
        Ok(None)
    };
    let mut pay = |bans: &mut Bans, found: &[Move]| {
        spend(tiles.len() as u64).inspect_err(|_| undo(bans, found))
    };
    let outside = outside_in(board, &tiles);
    loop {
        let mut partners = vec![0u8; tiles.len()];
        // The plain run's order makes the probes' first sweeps go far.
        let mut gone = Vec::with_capacity(tiles.len());
        pay(bans, &found)?;
        if !relaxation_clears(
            board,
            &tiles,
            &ranges,
            not_banned(bans, &tiles),
            &[],
            &outside,
            Some((&mut partners, &mut gone)),
        ) {
            return dead(bans, &found);
        }
        let mut changed = false;
        for &f in &fours {
            let open =
                |bans: &Bans, k: usize| PAIRINGS[k].iter().all(|&p| !bans.contains(pair(f, p)));
            let options: Vec<usize> = (0..3).filter(|&k| open(bans, k)).collect();
            if options.is_empty() {
                return dead(bans, &found);
            }
            if options.len() < 2 {
                continue;
            }
            for k in options {
                let respected = (0..4).all(|at| partners[f + at] & (1 << partner_in(k, at)) != 0);
                if respected || !open(bans, k) {
                    continue;
                }
                pay(bans, &found)?;
                let others: Vec<Move> = (0..3)
                    .filter(|&o| o != k)
                    .flat_map(|o| PAIRINGS[o].map(|p| pair(f, p)))
                    .collect();
                others.iter().for_each(|&m| bans.add(m, false));
                // The plain run's tiles up to the first that connected to
                // no partner allowed now go the same way in this one.
                let allowed = not_banned(bans, &tiles);
                let same = gone
                    .iter()
                    .take_while(|&&i| {
                        let start = ranges[i].start;
                        ranges[i].len() <= 8
                            && ranges[i]
                                .clone()
                                .any(|j| partners[i] & (1 << (j - start)) != 0 && allowed(i, j))
                    })
                    .count();
                let (given, rest) = gone.split_at(same);
                let clears = relaxation_clears(board, &tiles, &ranges, allowed, given, rest, None);
                others.iter().for_each(|&m| bans.unban(m, false));
                if !clears {
                    for p in PAIRINGS[k] {
                        bans.add(pair(f, p), false);
                        found.push(pair(f, p));
                    }
                    changed = true;
                }
            }
            if (0..3).all(|k| !open(bans, k)) {
                return dead(bans, &found);
            }
        }
        if !changed {
            return Ok(Some(found));
        }
    }
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
    use super::*;
    use crate::{Deal, Game, Size, TileSet};

    /// Whether `board` can be cleared without gravity, trying every pair.
    fn exhaustive(board: &Board, failed: &mut HashSet<u64>) -> bool {
        if board.is_cleared() {
            return true;
        }
        if failed.contains(&board.position_key()) {
            return false;
        }
        for m in board.moves() {
            let mut next = board.clone();
            next.remove_pair(m.a, m.b, false);
            if exhaustive(&next, failed) {
                return true;
            }
        }
        failed.insert(board.position_key());
        false
    }

    #[test]
    fn probing_everywhere_agrees_with_exhaustive_search() {
        // Easy boards never reach probing in `solve`: force it at every node.
        let size = Size::new(8, 6).unwrap();
        let set = TileSet::custom(12, 4).unwrap();
        let mut unsolvable = 0;
        for seed in 0..100 {
            let board = Deal::random(seed, size, set).unwrap();
            let truth = exhaustive(&board, &mut HashSet::new());
            let rules = Rules::default();
            match solve_probing_from(&board, rules, &mut Nodes(u64::MAX), 0).verdict {
                Verdict::Solvable(moves) => {
                    assert!(truth, "seed {seed}");
                    let mut game = Game::new(board, rules);
                    assert!(moves.iter().all(|m| game.remove(m.a, m.b).is_ok()));
                    assert!(game.is_won());
                }
                Verdict::Unsolvable => {
                    assert!(!truth, "seed {seed}");
                    unsolvable += 1;
                }
                Verdict::Unknown => panic!("unbounded"),
            }
        }
        assert!(unsolvable > 0, "{unsolvable}");
    }

    #[test]
    fn luby_sequence() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
