//! Moves: pairs of matching tiles that connect.

use std::fmt;

use crate::board::Board;
use crate::line::Line;
use crate::path::Rays;
use crate::point::Point;

/// A pair of tiles to remove, `a` before `b` in reading order (by row,
/// then by column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub a: Point,
    pub b: Point,
}

impl Move {
    /// The move removing `p` and `q`, in reading order.
    pub fn new(p: Point, q: Point) -> Move {
        if (p.y, p.x) <= (q.y, q.x) {
            Move { a: p, b: q }
        } else {
            Move { a: q, b: p }
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.a, self.b)
    }
}

impl Board {
    /// Calls `found` on every connectable pair, in reading order of `a`,
    /// then of `b`, until it returns `false`.
    fn each_move(&self, found: impl FnMut(Move) -> bool) {
        if self.is_narrow() {
            self.each_move_in::<u64>(found)
        } else {
            self.each_move_in::<u128>(found)
        }
    }

    fn each_move_in<L: Line>(&self, mut found: impl FnMut(Move) -> bool) {
        // Group the tiles' rays by class with a counting sort on the class
        // ids; each group stays in reading order.
        let (ids, counts) = self.class_ids();
        let mut ends: Vec<u32> = counts
            .iter()
            .scan(0, |start, &n| {
                *start += n;
                Some(*start - n) // the group's start for now
            })
            .collect();
        let far = Rays {
            at: Point::new(0, 0),
            row: L::ZERO,
            col: L::ZERO,
        };
        let mut rays = vec![far; self.tiles_left()];
        // Per tile in reading order: its slot in `rays` and its class.
        let mut order: Vec<(u32, u16)> = Vec::with_capacity(self.tiles_left());
        let w = self.width();
        for y in 0..self.height() {
            // The row's tiles, from its occupancy bits (walls and ring off).
            let mut tiles = (self.row_bits(y) >> 1) & ((1u128 << w) - 1);
            while tiles != 0 {
                let x = tiles.trailing_zeros() as usize;
                tiles &= tiles - 1;
                let id = ids[y * w + x];
                let slot = &mut ends[usize::from(id)];
                rays[*slot as usize] = self.rays(Point::new(x as i32, y as i32));
                order.push((*slot, id));
                *slot += 1; // ends up at the group's end
            }
        }
        for (slot, id) in order {
            let a = &rays[slot as usize];
            let enclosed = a.is_enclosed();
            for b in &rays[slot as usize + 1..ends[usize::from(id)] as usize] {
                // A walled-in tile reaches only its neighbours.
                if enclosed && a.at.x.abs_diff(b.at.x) + a.at.y.abs_diff(b.at.y) != 1 {
                    continue;
                }
                if self.connect(a, b).is_some() && !found(Move { a: a.at, b: b.at }) {
                    return;
                }
            }
        }
    }

    /// Every connectable pair of matching tiles (the hint list), sorted in
    /// reading order of `a`, then of `b`.
    pub fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.each_move(|m| {
            moves.push(m);
            true
        });
        moves
    }

    /// The number of connectable pairs.
    pub fn count_moves(&self) -> usize {
        let mut n = 0;
        self.each_move(|_| {
            n += 1;
            true
        });
        n
    }

    /// Whether any pair can be removed.
    pub fn has_moves(&self) -> bool {
        let mut any = false;
        self.each_move(|_| {
            any = true;
            false
        });
        any
    }

    /// Whether `p` and `q` hold matching tiles that connect.
    pub fn is_move(&self, p: Point, q: Point) -> bool {
        match (self.get(p), self.get(q)) {
            (Some(x), Some(y)) => self.matching().matches(x, y) && self.connects(p, q),
            _ => false,
        }
    }
}
