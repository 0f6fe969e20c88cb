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

/// The part of a frame still free to use: all of it except the first
/// `locked` cells of row 0, which hold tiles already placed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region {
    pub frame: Frame,
    pub locked: i32,
}

impl Region {
    pub fn free(&self, (u, v): Cell) -> bool {
        self.frame.contains((u, v)) && !(v == 0 && u < self.locked)
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

fn manhattan(a: Cell, b: Cell) -> i32 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// Moves tiles on the board and sends every move to the output.
pub(crate) struct Router<'s, S: FnMut(Direction)> {
    pub board: Board,
    out: Canceller<'s, S>,
    path: Vec<Cell>,
    candidate: Vec<Cell>,
    search: Search,
}

impl<'s, S: FnMut(Direction)> Router<'s, S> {
    pub fn new(board: Board, sink: &'s mut S) -> Router<'s, S> {
        Router {
            board,
            out: Canceller::new(sink),
            path: Vec::new(),
            candidate: Vec::new(),
            search: Search::default(),
        }
    }

    /// Releases the moves held back for cancellation; returns the total.
    pub fn finish(self) -> u64 {
        self.out.finish()
    }

    /// Slides the tile on the neighbouring board cell `cell` into the blank.
    #[inline]
    pub fn step(&mut self, cell: usize) {
        let direction = self.board.slide(cell);
        self.out.push(direction);
    }

    /// Brings the tile that belongs on board cell `name` to `target`.
    pub fn tile_to(&mut self, region: Region, name: usize, target: Cell) {
        let frame = region.frame;
        loop {
            let tile = frame.logical(self.board.at(name));
            if tile == target {
                return;
            }
            let next = self.next_step(region, tile, target);
            self.blank_to(region, next, Some(tile));
            self.step(frame.cell(tile));
        }
    }

    /// The neighbour of `tile` it moves to next: toward `target`, on the
    /// side the blank reaches first; on a tie, along the longer remaining
    /// leg, which keeps the path a staircase for as long as possible.
    fn next_step(&self, region: Region, tile: Cell, target: Cell) -> Cell {
        let blank = region.frame.logical(self.board.blank());
        let (du, dv) = (target.0 - tile.0, target.1 - tile.1);
        let options = [
            (du != 0).then(|| (tile.0 + du.signum(), tile.1)),
            (dv != 0).then(|| (tile.0, tile.1 + dv.signum())),
        ];
        let cost = |cell: Cell, along_u: bool| {
            let behind =
                (blank.0 == cell.0 && cell.0 == tile.0) || (blank.1 == cell.1 && cell.1 == tile.1);
            let lead = if along_u { du.abs() } else { dv.abs() };
            (manhattan(blank, cell) + 2 * behind as i32, -lead)
        };
        options
            .into_iter()
            .zip([true, false])
            .filter_map(|(cell, along_u)| cell.map(|cell| (cell, along_u)))
            .filter(|&(cell, _)| region.free(cell))
            .min_by_key(|&(cell, along_u)| cost(cell, along_u))
            .map(|(cell, _)| cell)
            .expect("a free cell toward the target")
    }

    /// Moves the blank to `target` without disturbing `avoid` or the locked
    /// cells.
    pub fn blank_to(&mut self, region: Region, target: Cell, avoid: Option<Cell>) {
        let blank = region.frame.logical(self.board.blank());
        if blank == target {
            return;
        }
        self.path.clear();
        let found = avoid.is_some_and(|tile| self.ring_path(region, blank, target, tile))
            || self.straight_path(region, blank, target, avoid)
            || self
                .search
                .path(region, blank, target, avoid, &mut self.path);
        assert!(found, "the free region is connected");
        for i in 0..self.path.len() {
            let cell = region.frame.cell(self.path[i]);
            self.step(cell);
        }
    }

    /// Around `tile` through its ring of eight neighbours, the shorter way
    /// that stays free.
    fn ring_path(&mut self, region: Region, from: Cell, to: Cell, tile: Cell) -> bool {
        let index = |cell: Cell| RING.iter().position(|&o| add(tile, o) == cell);
        let (Some(start), Some(end)) = (index(from), index(to)) else {
            return false;
        };
        let forward = (end + 8 - start) % 8;
        let walks = if forward <= 4 {
            [(forward, 1), (8 - forward, 7)]
        } else {
            [(8 - forward, 7), (forward, 1)]
        };
        for (length, stride) in walks {
            let cells = (1..=length).map(|i| add(tile, RING[(start + i * stride) % 8]));
            if cells.clone().all(|cell| region.free(cell)) {
                self.path.extend(cells);
                return true;
            }
        }
        false
    }

    /// An L-shaped path (along `u` then `v`, or `v` then `u`), the shorter
    /// of the two that are free.
    fn straight_path(&mut self, region: Region, from: Cell, to: Cell, avoid: Option<Cell>) -> bool {
        self.candidate.clear();
        let first = l_path(region, from, to, avoid, true, &mut self.candidate);
        if first && self.candidate.len() == manhattan(from, to) as usize {
            self.path.extend_from_slice(&self.candidate);
            return true;
        }
        if l_path(region, from, to, avoid, false, &mut self.path)
            && (!first || self.path.len() <= self.candidate.len())
        {
            return true;
        }
        self.path.clear();
        if first {
            self.path.extend_from_slice(&self.candidate);
        }
        first
    }
}

/// Appends to `path` the cells of an L from `from` to `to`; a tile at
/// `avoid` on a straight leg is passed on whichever side is free.
fn l_path(
    region: Region,
    from: Cell,
    to: Cell,
    avoid: Option<Cell>,
    u_first: bool,
    path: &mut Vec<Cell>,
) -> bool {
    let corner = if u_first {
        (to.0, from.1)
    } else {
        (from.0, to.1)
    };
    leg(region, from, corner, avoid, path) && leg(region, corner, to, avoid, path)
}

/// One straight leg of an L.
fn leg(region: Region, from: Cell, to: Cell, avoid: Option<Cell>, path: &mut Vec<Cell>) -> bool {
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
    fn path(
        &mut self,
        region: Region,
        from: Cell,
        to: Cell,
        avoid: Option<Cell>,
        path: &mut Vec<Cell>,
    ) -> bool {
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
