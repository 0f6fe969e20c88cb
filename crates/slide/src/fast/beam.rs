//! Beam search for boards of up to 64 cells: markedly shorter solutions
//! than the line-by-line reduction where there is time to look around.
//!
//! Each depth keeps the `width` most promising positions by Manhattan
//! distance plus linear conflicts (an admissible lower bound, so a finished
//! path is never cut short by it) and expands them by every move but the
//! one undoing the last. A stage (the tiles of one outer line) ends the
//! search once its tiles are home, and their distances count twice in the
//! ranking; its beam keeps one position per arrangement of those tiles and
//! the blank. Positions already seen are dropped. The search is
//! bounded in width and depth, so it always ends; it may fail to find a
//! solution, and then the reduction's stands.

use crate::bound::line_conflicts;
use crate::Direction;
use std::collections::HashSet;

/// Boards this large or smaller get a beam search.
pub(crate) const MAX_CELLS: usize = 64;

/// The board measured against its goal; tiles are named by goal cell.
pub(crate) struct Bound {
    width: usize,
    height: usize,
    blank_goal: u8,
    /// Goal column and row of each tile.
    column: Vec<u8>,
    row: Vec<u8>,
}

impl Bound {
    pub fn new(width: usize, height: usize, blank_goal: usize) -> Bound {
        let cells = width * height;
        Bound {
            width,
            height,
            blank_goal: blank_goal as u8,
            column: (0..cells).map(|c| (c % width) as u8).collect(),
            row: (0..cells).map(|c| (c / width) as u8).collect(),
        }
    }

    /// Manhattan distance plus linear conflicts: a lower bound on the moves
    /// left.
    pub fn of(&self, tiles: &[u8]) -> u32 {
        let manhattan: u32 = (0..tiles.len())
            .map(|cell| self.distance(tiles, cell))
            .sum();
        let rows: u32 = (0..self.height).map(|y| self.row_conflicts(tiles, y)).sum();
        let columns: u32 = (0..self.width)
            .map(|x| self.column_conflicts(tiles, x))
            .sum();
        manhattan + rows + columns
    }

    /// The bound after the blank at `blank` swaps with the tile at `to`,
    /// from the bound `before`: only that tile's distance and the conflicts
    /// of its own line change. `tiles` is the position after the move.
    fn after(&self, tiles: &[u8], before: u32, blank: usize, to: usize, lines_before: u32) -> u32 {
        let (w, t) = (self.width, tiles[blank] as usize);
        let old =
            (to % w).abs_diff(self.column[t] as usize) + (to / w).abs_diff(self.row[t] as usize);
        let new = self.distance(tiles, blank) as usize;
        before + new as u32 - old as u32 + self.lines(tiles, blank, to) - lines_before
    }

    /// The conflicts a move between cells `a` and `b` can change: those of
    /// the moving tile's goal column (or row) when the move takes it into
    /// or out of that line. Any other line keeps the same tiles of its own
    /// in the same order. One of the two cells holds the blank.
    fn lines(&self, tiles: &[u8], a: usize, b: usize) -> u32 {
        let w = self.width;
        let t = if tiles[a] == self.blank_goal {
            tiles[b]
        } else {
            tiles[a]
        } as usize;
        if a / w == b / w {
            let x = self.column[t] as usize;
            if x == a % w || x == b % w {
                return self.column_conflicts(tiles, x);
            }
        } else {
            let y = self.row[t] as usize;
            if y == a / w || y == b / w {
                return self.row_conflicts(tiles, y);
            }
        }
        0
    }

    fn distance(&self, tiles: &[u8], cell: usize) -> u32 {
        let t = tiles[cell];
        if t == self.blank_goal {
            return 0;
        }
        let w = self.width;
        ((cell % w).abs_diff(self.column[t as usize] as usize)
            + (cell / w).abs_diff(self.row[t as usize] as usize)) as u32
    }

    /// Two moves for each tile of row `y` that must leave the row to let
    /// the others pass: the row's tiles that belong in it, minus the longest
    /// run already in goal order.
    fn row_conflicts(&self, tiles: &[u8], y: usize) -> u32 {
        let w = self.width;
        let keys = tiles[y * w..y * w + w]
            .iter()
            .filter(|&&t| t != self.blank_goal && self.row[t as usize] as usize == y)
            .map(|&t| self.column[t as usize] as usize);
        line_conflicts(keys, &mut [0; MAX_CELLS])
    }

    fn column_conflicts(&self, tiles: &[u8], x: usize) -> u32 {
        let keys = tiles[x..]
            .iter()
            .step_by(self.width)
            .filter(|&&t| t != self.blank_goal && self.column[t as usize] as usize == x)
            .map(|&t| self.row[t as usize] as usize);
        line_conflicts(keys, &mut [0; MAX_CELLS])
    }
}

/// How a position was reached: the node before and the cell the blank
/// moved to.
struct Node {
    parent: u32,
    to: u8,
}

/// A move considered at one depth, before the beam keeps the best.
struct Child {
    slot: u32,
    to: u8,
    bound: u32,
    /// The stage tiles' Manhattan distance.
    stage: u32,
    hash: u64,
    /// The cells of the stage's tiles, hashed.
    placed: u64,
}

/// One position of a layer, its tiles aside.
struct Entry {
    node: u32,
    bound: u32,
    stage: u32,
    hash: u64,
    placed: u64,
}

/// After the first position that finishes a stage, the search goes on
/// this many depths and keeps the finished position with the fewest moves
/// plus bound, the others' tiles counted: the first to finish has often
/// left them worse (measured on 7 × 7 and 8 × 8, BENCHMARKS.md).
const SETTLE: usize = 4;

/// Searches with `beam` positions per depth for a solution shorter than
/// `limit` moves; returns the moves. With a `stage` (a flag per tile,
/// named by goal cell) the search ends once those tiles are home,
/// wherever the others are.
///
/// Only the positions the beam keeps are built; the others are judged from
/// their parent by the incremental bound and an incremental hash.
pub(crate) fn search(
    width: usize,
    tiles: &[u8],
    blank: usize,
    blank_goal: usize,
    stage: Option<&[bool]>,
    beam: usize,
    limit: usize,
) -> Option<Vec<Direction>> {
    let cells = tiles.len();
    let bound = Bound::new(width, cells / width, blank_goal);
    let keys = Zobrist::new(cells);
    let in_stage = |t: u8| stage.is_some_and(|s| s[t as usize]);
    let away = |t: u8, cell: usize| {
        let (goal, w) = (t as usize, width);
        ((goal % w).abs_diff(cell % w) + (goal / w).abs_diff(cell / w)) as u32
    };
    let on_stage = (0..cells).filter(|&c| c != blank && in_stage(tiles[c]));
    let root = Entry {
        node: 0,
        bound: bound.of(tiles),
        stage: on_stage.clone().map(|c| away(tiles[c], c)).sum(),
        hash: keys.of(tiles),
        placed: on_stage.fold(0, |h, c| h ^ keys.key(tiles[c], c)),
    };
    let mut nodes = vec![Node {
        parent: u32::MAX,
        to: blank as u8,
    }];
    let mut seen: HashSet<u64, BuildZobrist> = HashSet::default();
    seen.insert(root.hash);
    // The layer: per slot its entry, and its tiles in `states`.
    let mut layer = vec![root];
    let mut states = tiles.to_vec();
    let mut scratch = vec![0u8; cells];
    let mut children = Vec::new();
    let done = |e: &Entry| {
        if stage.is_some() {
            e.stage == 0
        } else {
            e.bound == 0
        }
    };
    // The best finished position (moves plus bound, node) and the depth
    // the search ends at once one is found.
    let mut best: Option<(u32, u32)> = None;
    let mut end = limit;
    for depth in 0..limit {
        for e in layer.iter().filter(|e| done(e)) {
            let score = depth as u32 + e.bound;
            if best.is_none_or(|(b, _)| score < b) {
                best = Some((score, e.node));
            }
        }
        if best.is_some() {
            end = end.min(depth + if stage.is_some() { SETTLE } else { 0 });
        }
        if depth >= end {
            break;
        }
        children.clear();
        for (slot, e) in layer.iter().enumerate() {
            let here = nodes[e.node as usize].to as usize;
            let parent = nodes[e.node as usize].parent;
            let back = (parent != u32::MAX).then(|| nodes[parent as usize].to as usize);
            scratch.copy_from_slice(&states[slot * cells..(slot + 1) * cells]);
            for to in neighbours(here, width, cells).filter(|&to| Some(to) != back) {
                let lines_before = bound.lines(&scratch, here, to);
                scratch.swap(here, to);
                let hash = keys.after(e.hash, &scratch, here, to);
                if !seen.contains(&hash) {
                    // The tile that moved now stands on `here`.
                    let moved = scratch[here];
                    let (stage, placed) = if in_stage(moved) {
                        let shift = keys.key(moved, here) ^ keys.key(moved, to);
                        (
                            e.stage + away(moved, here) - away(moved, to),
                            e.placed ^ shift,
                        )
                    } else {
                        (e.stage, e.placed)
                    };
                    children.push(Child {
                        slot: slot as u32,
                        to: to as u8,
                        bound: bound.after(&scratch, e.bound, here, to, lines_before),
                        stage,
                        hash,
                        placed,
                    });
                }
                scratch.swap(here, to);
            }
        }
        if children.is_empty() {
            break;
        }
        if stage.is_some() {
            keep_varied(&mut children, beam, |c| {
                c.placed ^ keys.key(blank_goal as u8, c.to as usize)
            });
        } else if children.len() > beam {
            children.select_nth_unstable_by_key(beam, rank);
            children.truncate(beam);
        }
        let mut next_states = Vec::with_capacity(children.len() * cells);
        let mut next_layer = Vec::with_capacity(children.len());
        for child in &children {
            if !seen.insert(child.hash) {
                continue;
            }
            let node = layer[child.slot as usize].node;
            let start = child.slot as usize * cells;
            let here = nodes[node as usize].to as usize;
            let first = next_states.len();
            next_states.extend_from_slice(&states[start..start + cells]);
            next_states.swap(first + here, first + child.to as usize);
            nodes.push(Node {
                parent: node,
                to: child.to,
            });
            next_layer.push(Entry {
                node: nodes.len() as u32 - 1,
                bound: child.bound,
                stage: child.stage,
                hash: child.hash,
                placed: child.placed,
            });
        }
        layer = next_layer;
        states = next_states;
    }
    best.map(|(_, node)| moves(&nodes, node as usize, width))
}

/// A child's rank, lowest first: the bound, with a stage's tiles counted
/// twice (in the bound and again on their own); ties broken by hash.
fn rank(c: &Child) -> (u32, u64) {
    (c.bound + c.stage, c.hash)
}

/// Keeps the `beam` best children, at most one per `shape` (the cells of
/// the stage's tiles and of the blank) while there are enough shapes.
///
/// Without this a stage's beam fills with positions that differ only in
/// the other tiles: the moves that bring a line's last tiles home first
/// take others of the line away, and those positions never rank among the
/// best. The beam then solves much of the rest of the board before the
/// line and loses its way (8 × 8: first stages of 400–600 moves, 1.88 ×
/// the bound in all; with one per shape, 1.70).
fn keep_varied(children: &mut Vec<Child>, beam: usize, shape: impl Fn(&Child) -> u64) {
    children.sort_unstable_by_key(rank);
    let mut shapes: HashSet<u64, BuildZobrist> = HashSet::default();
    let (mut kept, mut others) = (Vec::with_capacity(beam), Vec::new());
    for child in children.drain(..) {
        if kept.len() < beam && shapes.insert(shape(&child)) {
            kept.push(child);
        } else if others.len() < beam {
            others.push(child);
        }
    }
    let room = beam - kept.len();
    kept.extend(others.into_iter().take(room));
    *children = kept;
}

/// Zobrist hashing: a random key per (tile, cell), XORed over the board,
/// so a move updates the hash in O(1).
struct Zobrist {
    cells: usize,
    keys: Vec<u64>,
}

impl Zobrist {
    fn new(cells: usize) -> Zobrist {
        let mut rng = common::Rng::new(0x5EED_F00D);
        Zobrist {
            cells,
            keys: (0..cells * cells).map(|_| rng.next_u64()).collect(),
        }
    }

    fn key(&self, tile: u8, cell: usize) -> u64 {
        self.keys[tile as usize * self.cells + cell]
    }

    fn of(&self, tiles: &[u8]) -> u64 {
        tiles
            .iter()
            .enumerate()
            .fold(0, |h, (cell, &t)| h ^ self.key(t, cell))
    }

    /// The hash after the blank moved from `here` to `to`; `tiles` is the
    /// position after the move.
    fn after(&self, hash: u64, tiles: &[u8], here: usize, to: usize) -> u64 {
        let (moved, blank) = (tiles[here], tiles[to]);
        hash ^ self.key(moved, to)
            ^ self.key(moved, here)
            ^ self.key(blank, here)
            ^ self.key(blank, to)
    }
}

/// Zobrist hashes are already uniformly random: use them as they are.
#[derive(Default, Clone, Copy)]
struct BuildZobrist;

impl std::hash::BuildHasher for BuildZobrist {
    type Hasher = PassThrough;
    fn build_hasher(&self) -> PassThrough {
        PassThrough(0)
    }
}

struct PassThrough(u64);

impl std::hash::Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}
/// The cells beside `cell` on a board `width` wide of `cells` cells.
pub(super) fn neighbours(cell: usize, width: usize, cells: usize) -> impl Iterator<Item = usize> {
    let x = cell % width;
    [
        (x > 0).then(|| cell - 1),
        (x + 1 < width).then(|| cell + 1),
        (cell >= width).then(|| cell - width),
        (cell + width < cells).then(|| cell + width),
    ]
    .into_iter()
    .flatten()
}

/// The moves from the root to node `index`.
fn moves(nodes: &[Node], mut index: usize, width: usize) -> Vec<Direction> {
    let mut moves = Vec::new();
    while nodes[index].parent != u32::MAX {
        let (to, from) = (
            nodes[index].to as usize,
            nodes[nodes[index].parent as usize].to as usize,
        );
        moves.push(if to == from + 1 {
            Direction::Left
        } else if to + 1 == from {
            Direction::Right
        } else if to == from + width {
            Direction::Up
        } else {
            Direction::Down
        });
        index = nodes[index].parent as usize;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along random walks on boards of every shape up to 8 × 8, the bound
    /// updated move by move equals the bound computed afresh.
    #[test]
    fn the_incremental_bound_matches_the_full_one() {
        let mut rng = common::Rng::new(7);
        for (width, height) in [(3, 3), (4, 4), (5, 3), (6, 6), (7, 7), (8, 8), (8, 5)] {
            let cells = width * height;
            let blank_goal = rng.next_u64() as usize % cells;
            let bound = Bound::new(width, height, blank_goal);
            let mut tiles: Vec<u8> = (0..cells as u8).collect();
            let mut blank = blank_goal;
            let mut h = bound.of(&tiles);
            for _ in 0..2000 {
                let next: Vec<usize> = neighbours(blank, width, cells).collect();
                let to = next[rng.next_u64() as usize % next.len()];
                let lines_before = bound.lines(&tiles, blank, to);
                tiles.swap(blank, to);
                h = bound.after(&tiles, h, blank, to, lines_before);
                blank = to;
                assert_eq!(h, bound.of(&tiles), "{width} x {height}");
            }
        }
    }
}
