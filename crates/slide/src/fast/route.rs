//! Moving the blank and single tiles along short paths.
//!
//! Everything here is geometric and costs O(1) per move: the blank follows
//! an L-shaped path (stepping around the tile in transit when it lies in
//! the way) or circles that tile through its eight neighbours; a tile
//! follows a staircase toward its target, each step chosen by where the
//! blank already is, so a diagonal costs 3 moves per cell instead of the 5
//! of a straight push. Only if no such path exists — rare corners — does a
//! breadth-first search over the region run, O(cells) once.

use super::board::Board;
use super::cancel::Canceller;
use super::frame::{Cell, Frame};
use crate::Direction;
use std::collections::VecDeque;

/// The part of a frame still free to use: all of it except the cells of
/// row 0 marked `placed`, which hold tiles already in their goal cells.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region<'a> {
    pub frame: Frame,
    pub placed: &'a [bool],
}

impl Region<'_> {
    #[inline]
    pub fn free(&self, (u, v): Cell) -> bool {
        self.frame.contains((u, v)) && (v != 0 || !self.placed[u as usize])
    }
}

/// The eight neighbours of a cell, in order around it: consecutive entries
/// are adjacent, so the blank can walk the ring in either direction.
const RING: [Cell; 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
];

fn add(a: Cell, b: Cell) -> Cell {
    (a.0 + b.0, a.1 + b.1)
}

/// Moves tiles on the board and sends every move to the output.
pub(crate) struct Router<'s> {
    pub board: Board,
    out: Canceller<'s>,
    path: Vec<Cell>,
    /// The gain of `path` (see [`Router::gain`]) when planning computed it
    /// on the way, so that scoring the plan need not read its cells again.
    path_gain: Option<i32>,
    /// Moves made so far, which date the ring gains.
    moved: u64,
    ring_gains: RingGains,
    candidate: Vec<Cell>,
    held: Vec<Cell>,
    search: Search,
    /// Whether to plan both candidate steps of a tile and seek gain on
    /// every blank path (shorter solutions), or pick steps by a distance
    /// estimate and never look at gain (about twice as fast: gain-seeking
    /// reads cells off the path, cache misses on big boards).
    pub thorough: bool,
}

impl<'s> Router<'s> {
    pub fn new(board: Board, sink: &'s mut dyn FnMut(Direction), thorough: bool) -> Router<'s> {
        Router {
            board,
            out: Canceller::new(sink),
            path: Vec::new(),
            path_gain: None,
            moved: 0,
            ring_gains: RingGains::default(),
            candidate: Vec::new(),
            held: Vec::new(),
            thorough,
            search: Search::default(),
        }
    }

    /// Releases the moves held back for cancellation; returns the total.
    pub fn finish(self) -> u64 {
        self.out.finish()
    }

    /// Releases the moves held back and hands back the board.
    pub fn into_board(self) -> Board {
        self.out.finish();
        self.board
    }

    /// Takes over `board`, reached from the current one by `moves`, and
    /// sends those moves to the output.
    pub fn adopt(&mut self, board: Board, moves: &[Direction]) {
        self.board = board;
        self.ring_gains.key = None;
        self.moved += moves.len() as u64;
        moves.iter().for_each(|&d| self.out.push(d));
    }

    /// Slides the tile on the neighbouring board cell `cell` into the blank.
    #[inline]
    pub fn step(&mut self, cell: usize) {
        let direction = self.board.slide(cell);
        self.moved += 1;
        self.out.push(direction);
    }

    /// Brings the tile that belongs on board cell `name` to `target`.
    ///
    /// Each step goes toward the target along whichever axis is cheaper
    /// for the blank to serve, counting the blank's moves less what the
    /// tiles it displaces gain (see [`worth`]).
    pub fn tile_to(&mut self, region: Region<'_>, name: usize, target: Cell) {
        let frame = region.frame;
        // Ring gains are in this frame's coordinates: none from another.
        self.ring_gains.key = None;
        let mut tile = frame.logical(self.board.at(name));
        let mut blank = frame.logical(self.board.blank());
        while tile != target {
            let next = match next_steps(region, tile, target) {
                [Some(a), Some(b)] if !self.thorough => {
                    let next = guess(blank, tile, a, b);
                    self.plan(region, blank, next, Some(tile));
                    next
                }
                // Scored with the tile's own way on from the step, valued
                // as the gains are: the longer leg first, all else equal.
                [Some(a), Some(b)] => {
                    self.plan(region, blank, a, Some(tile));
                    let first = self.score(frame, blank) + worth(a, target);
                    std::mem::swap(&mut self.path, &mut self.held);
                    self.plan(region, blank, b, Some(tile));
                    if first <= self.score(frame, blank) + worth(b, target) {
                        std::mem::swap(&mut self.path, &mut self.held);
                        a
                    } else {
                        b
                    }
                }
                [Some(a), None] | [None, Some(a)] => {
                    self.plan(region, blank, a, Some(tile));
                    a
                }
                // A tile in row 0 cut off from its target by placed tiles
                // first steps down, out of the line.
                [None, None] => {
                    let down = (tile.0, tile.1 + 1);
                    self.plan(region, blank, down, Some(tile));
                    down
                }
            };
            self.walk(frame);
            self.step(frame.cell(tile));
            (blank, tile) = (tile, next);
        }
    }

    /// The planned path's length minus its gain, in half moves (the unit
    /// of [`worth`]): lower is better.
    fn score(&self, frame: Frame, from: Cell) -> i32 {
        let gain = match self.path_gain {
            Some(gain) => gain,
            None => self.gain(frame, from, &self.path),
        };
        2 * self.path.len() as i32 - gain
    }

    /// Moves the blank to `target` without disturbing `avoid` or the placed
    /// cells.
    pub fn blank_to(&mut self, region: Region<'_>, target: Cell, avoid: Option<Cell>) {
        self.ring_gains.key = None;
        let blank = region.frame.logical(self.board.blank());
        self.plan(region, blank, target, avoid);
        self.walk(region.frame);
    }

    /// Plans in `path` a way for the blank from `blank` to `target`.
    fn plan(&mut self, region: Region<'_>, blank: Cell, target: Cell, avoid: Option<Cell>) {
        self.path.clear();
        self.path_gain = Some(0);
        if blank == target {
            return;
        }
        self.path_gain = None;
        let trip = Trip {
            from: blank,
            to: target,
            avoid,
        };
        let found = avoid.is_some_and(|tile| self.ring_path(region, blank, target, tile))
            || self.straight_path(region, trip)
            || self.search.path(region, trip, &mut self.path);
        assert!(found, "the free region is connected");
    }

    /// Moves the blank along the planned `path`.
    fn walk(&mut self, frame: Frame) {
        for i in 0..self.path.len() {
            let cell = frame.cell(self.path[i]);
            self.step(cell);
        }
    }

    /// Around `tile` through its ring of eight neighbours, the shorter way
    /// that stays free; of two equally short ways, the one that moves the
    /// tiles it displaces nearer their goals.
    fn ring_path(&mut self, region: Region<'_>, from: Cell, to: Cell, tile: Cell) -> bool {
        let (Some(start), Some(end)) = (ring_index(from, tile), ring_index(to, tile)) else {
            return false;
        };
        let forward = (end + 8 - start) % 8;
        let walks = if forward <= 4 {
            [(forward, 1), (8 - forward, 7)]
        } else {
            [(8 - forward, 7), (forward, 1)]
        };
        // Bit k: ring cell k is free. A walk's cells, in walking order,
        // are the low bits of this mask turned (and for the backward walk
        // mirrored) to start after `start`.
        let mut free = 0u8;
        for (k, &offset) in RING.iter().enumerate() {
            free |= u8::from(region.free(add(tile, offset))) << k;
        }
        let mut chosen: Option<(usize, i32, usize)> = None;
        for (length, stride) in walks {
            let ahead = match stride {
                1 => free.rotate_right((start as u32 + 1) % 8),
                _ => free.reverse_bits().rotate_right((8 - start as u32) % 8),
            };
            let walk = ((1u16 << length) - 1) as u8;
            if ahead & walk == walk {
                let mut gain = 0;
                if self.thorough {
                    for i in 1..=length {
                        gain +=
                            self.ring_gain(region.frame, tile, (start + i * stride) % 8, stride);
                    }
                }
                match chosen {
                    Some((l, g, _)) if (l, -g) <= (length, -gain) => {}
                    _ => chosen = Some((length, gain, stride)),
                }
                if length != 4 {
                    break;
                }
            }
        }
        let Some((length, gain, stride)) = chosen else {
            return false;
        };
        self.path_gain = self.thorough.then_some(gain);
        self.path
            .extend((1..=length).map(|i| add(tile, RING[(start + i * stride) % 8])));
        true
    }

    /// The gain (see [`Router::gain_of`]) of the tile on ring cell `k` of
    /// `tile` moving one step back along a walk of `stride` (1 or 7). The
    /// two plans of a tile step walk the same ring on the same board, so
    /// gains are kept until the next move (or the next frame).
    fn ring_gain(&mut self, frame: Frame, tile: Cell, k: usize, stride: usize) -> i32 {
        let way = usize::from(stride == 1);
        if self.ring_gains.key != Some((tile, self.moved)) {
            self.ring_gains.key = Some((tile, self.moved));
            self.ring_gains.known = 0;
        }
        let bit = 1 << (2 * k + way);
        if self.ring_gains.known & bit == 0 {
            let back = add(tile, RING[(k + 8 - stride) % 8]);
            self.ring_gains.gains[k][way] = self.gain_of(frame, back, add(tile, RING[k]));
            self.ring_gains.known |= bit;
        }
        self.ring_gains.gains[k][way]
    }

    /// How much nearer their goals the tiles the blank displaces along
    /// `path` (from `from`) end up, in total: every blank move is a tile
    /// move, and a tile brought nearer its goal now is cheaper to place
    /// later, so among equally short paths this one is worth maximising.
    fn gain(&self, frame: Frame, from: Cell, path: &[Cell]) -> i32 {
        let mut gain = 0;
        let mut blank = from;
        for &cell in path {
            gain += self.gain_of(frame, blank, cell);
            blank = cell;
        }
        gain
    }

    /// How much nearer its goal the tile on `cell` gets when the blank on
    /// the neighbouring `blank` swaps with it, by [`worth`].
    #[inline(always)]
    fn gain_of(&self, frame: Frame, blank: Cell, cell: Cell) -> i32 {
        // In the frame's coordinates: turning and mirroring keep distances.
        let goal = frame.logical_xy(self.board.goal_xy(frame.cell(cell)));
        worth(cell, goal) - worth(blank, goal)
    }

    /// A shortest path built step by step, each step toward `to` along the
    /// axis whose displaced tile gains more (see [`Router::gain`]). Fails
    /// if it walks into a dead end (the tile or placed cells ahead).
    fn greedy_path(&mut self, region: Region<'_>, trip: Trip) -> bool {
        let Trip { from, to, avoid } = trip;
        let frame = region.frame;
        let mut at = from;
        let mut gain = 0;
        while at != to {
            let (du, dv) = (to.0 - at.0, to.1 - at.1);
            let mut best: Option<((i32, i32), Cell)> = None;
            for (step, lead) in [((du.signum(), 0), du.abs()), ((0, dv.signum()), dv.abs())] {
                let next = add(at, step);
                if lead != 0 && region.free(next) && Some(next) != avoid {
                    let key = (self.gain_of(frame, at, next), lead);
                    if best.is_none_or(|(b, _)| key > b) {
                        best = Some((key, next));
                    }
                }
            }
            let Some(((step_gain, _), next)) = best else {
                return false;
            };
            gain += step_gain;
            self.path.push(next);
            at = next;
        }
        self.path_gain = Some(gain);
        true
    }

    /// An L-shaped path (along `u` then `v`, or `v` then `u`), the shorter
    /// of the two that are free, or of two equally short the one with the
    /// larger [`Router::gain`].
    fn straight_path(&mut self, region: Region<'_>, trip: Trip) -> bool {
        if self.thorough && self.greedy_path(region, trip) {
            return true;
        }
        self.path.clear();
        self.candidate.clear();
        let first = l_path(region, trip, true, &mut self.candidate);
        if !l_path(region, trip, false, &mut self.path) {
            self.path.clear();
            if first {
                self.path.extend_from_slice(&self.candidate);
            }
            return first;
        }
        if first {
            let (a, b) = (self.candidate.len(), self.path.len());
            let gains = (a == b && self.thorough).then(|| {
                (
                    self.gain(region.frame, trip.from, &self.candidate),
                    self.gain(region.frame, trip.from, &self.path),
                )
            });
            let better = a < b || gains.is_some_and(|(g, h)| g > h);
            if better {
                self.path.clear();
                self.path.extend_from_slice(&self.candidate);
            }
            self.path_gain = gains.map(|(g, h)| if better { g } else { h });
        }
        true
    }
}

/// What a tile's way from `at` to `goal` is worth, in half moves: 1.5
/// moves a cell of its longer leg, 0.5 a cell of the shorter. A tile is
/// pushed home at 3 moves a cell while it can take a staircase (both legs
/// left) and at 5 a cell on the straight rest, so a cell off the longer
/// leg saves more than one off the shorter. (Measured on ten 100 × 100
/// boards: Manhattan distance at a move a cell, 1.937 n³; these weights,
/// 1.843 n³, 1.867 without the tile's own way in its choice of step.
/// Without that, other weights: 1–1.67 and 0.25–0.5, 1.875–1.889; 1.5
/// and 0 or 0.75, 1.906 and 1.940; 1.75 or 2 and 0.5, 1.942.)
#[inline(always)]
fn worth(at: Cell, goal: Cell) -> i32 {
    let (du, dv) = ((at.0 - goal.0).abs(), (at.1 - goal.1).abs());
    // 3 × the longer leg + the shorter, in the fewest operations.
    2 * du.max(dv) + du + dv
}

/// Gains of moves around one tile's ring, for the board after `key.1`
/// moves: bit `2k + w` of `known` says `gains[k][w]` is set (see
/// [`Router::ring_gain`]).
#[derive(Clone, Copy, Default)]
struct RingGains {
    key: Option<(Cell, u64)>,
    known: u16,
    gains: [[i32; 2]; 8],
}

/// Where `cell` sits in the ring around `tile`, if it is a neighbour.
fn ring_index(cell: Cell, tile: Cell) -> Option<usize> {
    const INDEX: [[u8; 3]; 3] = [[0, 7, 6], [1, 8, 5], [2, 3, 4]];
    let (du, dv) = (cell.0 - tile.0 + 1, cell.1 - tile.1 + 1);
    if !(0..3).contains(&du) || !(0..3).contains(&dv) {
        return None;
    }
    match INDEX[du as usize][dv as usize] {
        8 => None,
        i => Some(i as usize),
    }
}

/// The free neighbours of `tile` toward `target`, the one along the
/// longer remaining leg first (which keeps the path a staircase, 3 moves
/// per cell instead of 5, for as long as possible).
fn next_steps(region: Region<'_>, tile: Cell, target: Cell) -> [Option<Cell>; 2] {
    let (du, dv) = (target.0 - tile.0, target.1 - tile.1);
    let along_u = (du != 0).then(|| add(tile, (du.signum(), 0)));
    // Into row 0 only straight into the target: elsewhere placed tiles may
    // cut the way along the row.
    let along_v = (dv != 0 && (tile.1 != 1 || du == 0)).then(|| add(tile, (0, dv.signum())));
    let (along_u, along_v) = (
        along_u.filter(|&c| region.free(c)),
        along_v.filter(|&c| region.free(c)),
    );
    if du.abs() >= dv.abs() {
        [along_u, along_v]
    } else {
        [along_v, along_u]
    }
}

/// Of two steps for `tile`, the one the blank reaches in fewer moves by
/// estimate (Manhattan distance, plus 2 when the tile is in the way); on a
/// tie the first.
fn guess(blank: Cell, tile: Cell, a: Cell, b: Cell) -> Cell {
    let cost = |cell: Cell| {
        let behind =
            (blank.0 == cell.0 && cell.0 == tile.0) || (blank.1 == cell.1 && cell.1 == tile.1);
        (blank.0 - cell.0).abs() + (blank.1 - cell.1).abs() + 2 * behind as i32
    };
    if cost(b) < cost(a) {
        b
    } else {
        a
    }
}

/// A way the blank is asked to go: from a cell to another, never through
/// the cell `avoid` (the tile being placed), if any.
#[derive(Clone, Copy)]
struct Trip {
    from: Cell,
    to: Cell,
    avoid: Option<Cell>,
}

/// Appends to `path` the cells of an L for `trip`; a tile at `avoid` on a
/// straight leg is passed on whichever side is free.
fn l_path(region: Region<'_>, trip: Trip, u_first: bool, path: &mut Vec<Cell>) -> bool {
    let Trip { from, to, .. } = trip;
    let corner = if u_first {
        (to.0, from.1)
    } else {
        (from.0, to.1)
    };
    leg(region, Trip { to: corner, ..trip }, path)
        && leg(
            region,
            Trip {
                from: corner,
                ..trip
            },
            path,
        )
}

/// One straight leg of an L.
fn leg(region: Region<'_>, trip: Trip, path: &mut Vec<Cell>) -> bool {
    let Trip { from, to, avoid } = trip;
    let step = ((to.0 - from.0).signum(), (to.1 - from.1).signum());
    let side = (step.1, step.0);
    let mut at = from;
    while at != to {
        let next = add(at, step);
        if Some(next) == avoid {
            if next == to {
                return false;
            }
            let after = add(next, step);
            let detour = [1, -1].into_iter().find_map(|sign| {
                let off = (side.0 * sign, side.1 * sign);
                let cells = [add(at, off), add(next, off), add(after, off), after];
                cells.iter().all(|&c| region.free(c)).then_some(cells)
            });
            match detour {
                Some(cells) => path.extend_from_slice(&cells),
                None => return false,
            }
            at = after;
        } else {
            if !region.free(next) {
                return false;
            }
            path.push(next);
            at = next;
        }
    }
    true
}

/// Breadth-first search over a region: the fallback when no geometric path
/// is free. Marks are stamped with a round number so nothing is cleared.
#[derive(Default)]
struct Search {
    round: u32,
    seen: Vec<u32>,
    parent: Vec<u32>,
    queue: VecDeque<u32>,
}

impl Search {
    fn path(&mut self, region: Region<'_>, trip: Trip, path: &mut Vec<Cell>) -> bool {
        let Trip { from, to, avoid } = trip;
        let frame = region.frame;
        let (width, cells) = (frame.width, (frame.width * frame.height) as usize);
        if self.seen.len() < cells {
            self.seen.resize(cells, 0);
            self.parent.resize(cells, 0);
        }
        self.round += 1;
        let index = |c: Cell| (c.1 * width + c.0) as u32;
        let cell = |i: u32| ((i as i32) % width, (i as i32) / width);
        self.queue.clear();
        self.queue.push_back(index(from));
        self.seen[index(from) as usize] = self.round;
        while let Some(i) = self.queue.pop_front() {
            if i == index(to) {
                let start = path.len();
                let mut at = i;
                while at != index(from) {
                    path.push(cell(at));
                    at = self.parent[at as usize];
                }
                path[start..].reverse();
                return true;
            }
            let here = cell(i);
            for offset in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let next = add(here, offset);
                if region.free(next)
                    && Some(next) != avoid
                    && self.seen[index(next) as usize] != self.round
                {
                    self.seen[index(next) as usize] = self.round;
                    self.parent[index(next) as usize] = i;
                    self.queue.push_back(index(next));
                }
            }
        }
        false
    }
}
