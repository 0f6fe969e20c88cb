//! Moves: pairs of matching tiles that connect.

use std::fmt;

use crate::board::Board;
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
    /// The tiles' rays grouped by matching class: runs of equal class, each
    /// run in reading order.
    fn classes(&self) -> (Vec<u32>, Vec<Rays>) {
        let matching = self.matching();
        let mut keyed: Vec<(u32, u32)> = Vec::with_capacity(self.tiles_left());
        let w = self.width();
        for (p, kind) in self.tiles() {
            let index = (p.y as usize * w + p.x as usize) as u32;
            keyed.push((matching.class(kind).symbol() as u32, index));
        }
        keyed.sort_unstable();
        let rays = keyed
            .iter()
            .map(|&(_, i)| self.rays(Point::new((i as usize % w) as i32, (i as usize / w) as i32)))
            .collect();
        (keyed.into_iter().map(|(c, _)| c).collect(), rays)
    }

    /// Calls `found` on every connectable pair (reading order within each
    /// class) until it returns `false`.
    fn each_move(&self, mut found: impl FnMut(Move) -> bool) {
        let (class, rays) = self.classes();
        let mut start = 0;
        while start < rays.len() {
            let end = start
                + class[start..]
                    .iter()
                    .take_while(|&&c| c == class[start])
                    .count();
            for i in start..end {
                for j in i + 1..end {
                    if self.connect(&rays[i], &rays[j]).is_some()
                        && !found(Move {
                            a: rays[i].at,
                            b: rays[j].at,
                        })
                    {
                        return;
                    }
                }
            }
            start = end;
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
