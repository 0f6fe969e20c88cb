//! Moves: pairs of matching tiles that connect.

use std::fmt;

use crate::board::{Board, NO_CLASS};
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
    /// The tiles' rays grouped by matching class (a counting sort on the
    /// class ids), each group in reading order, and where each group starts
    /// (`starts[id]..starts[id + 1]`).
    fn classes<L: Line>(&self) -> (Vec<u32>, Vec<Rays<L>>) {
        let (ids, count) = self.class_ids();
        let mut starts = vec![0u32; count + 1];
        for &id in ids.iter().filter(|&&id| id != NO_CLASS) {
            starts[usize::from(id) + 1] += 1;
        }
        for i in 1..=count {
            starts[i] += starts[i - 1];
        }
        let mut next = starts.clone();
        let far = Rays {
            at: Point::new(0, 0),
            row: L::ZERO,
            col: L::ZERO,
        };
        let mut rays = vec![far; self.tiles_left()];
        let w = self.width();
        for (i, &id) in ids.iter().enumerate().filter(|&(_, &id)| id != NO_CLASS) {
            let slot = &mut next[usize::from(id)];
            rays[*slot as usize] = self.rays(Point::new((i % w) as i32, (i / w) as i32));
            *slot += 1;
        }
        (starts, rays)
    }

    /// Calls `found` on every connectable pair (reading order within each
    /// class) until it returns `false`.
    fn each_move(&self, found: impl FnMut(Move) -> bool) {
        if self.is_narrow() {
            self.each_move_in::<u64>(found)
        } else {
            self.each_move_in::<u128>(found)
        }
    }

    fn each_move_in<L: Line>(&self, mut found: impl FnMut(Move) -> bool) {
        let (starts, rays) = self.classes::<L>();
        for group in starts.windows(2) {
            let group = &rays[group[0] as usize..group[1] as usize];
            for (i, a) in group.iter().enumerate() {
                for b in &group[i + 1..] {
                    if self.connect(a, b).is_some() && !found(Move { a: a.at, b: b.at }) {
                        return;
                    }
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
        let key = |p: Point| (p.y, p.x);
        moves.sort_unstable_by_key(|m| (key(m.a), key(m.b)));
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
