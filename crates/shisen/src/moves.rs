//! Moves: pairs of matching tiles that connect.

use std::fmt;

use crate::board::Board;
use crate::line::Line;
use crate::path::{Occupancy, Rays};
use crate::point::Point;

/// A pair of tiles to remove, `a` before `b` in reading order (by row,
/// then by column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// One tile of the pair.
    pub a: Point,
    /// The other tile of the pair.
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

/// Classes of at most this many tiles keep their rays on the stack during
/// a move scan.
const INLINE: usize = 16;

/// Room for the rays of one class's tiles during a move scan.
pub(crate) struct GroupRays<L> {
    buffer: [Rays<L>; INLINE],
    spill: Vec<Rays<L>>,
}

impl<L: Line> GroupRays<L> {
    pub(crate) fn new() -> GroupRays<L> {
        let far = Rays {
            at: Point::new(0, 0),
            row: L::ZERO,
            col: L::ZERO,
        };
        GroupRays {
            buffer: [far; INLINE],
            spill: Vec::new(),
        }
    }

    /// Calls `found` on every connectable pair of the tiles `group` (cells
    /// as `y << 16 | x`, in reading order), `a` before `b`, until it
    /// returns `false`; whether it never did.
    #[inline]
    pub(crate) fn each_move(
        &mut self,
        occupancy: Occupancy<'_>,
        group: &[u32],
        found: &mut impl FnMut(Move) -> bool,
    ) -> bool {
        // The group's rays, on the stack unless the class is huge.
        let rays = if group.len() <= INLINE {
            &mut self.buffer[..group.len()]
        } else {
            self.spill.resize(group.len(), self.buffer[0]);
            &mut self.spill[..]
        };
        for (r, &cell) in rays.iter_mut().zip(group) {
            *r = occupancy.rays(Point::new((cell & 0xFFFF) as i32, (cell >> 16) as i32));
        }
        for (i, a) in rays.iter().enumerate() {
            for b in &rays[i + 1..] {
                if occupancy.joins(a, b) && !found(Move { a: a.at, b: b.at }) {
                    return false;
                }
            }
        }
        true
    }
}

impl Board {
    /// Calls `found` on every connectable pair, class by class, `a` before
    /// `b` in reading order, until it returns `false`.
    fn each_move(&self, found: impl FnMut(Move) -> bool) {
        if self.is_narrow() {
            self.each_move_in::<u64>(found);
        } else {
            self.each_move_in::<u128>(found);
        }
    }

    fn each_move_in<L: Line>(&self, mut found: impl FnMut(Move) -> bool) {
        let mut rays = GroupRays::<L>::new();
        let occupancy = self.occupancy();
        for group in self.groups().filter(|g| g.len() >= 2) {
            if !rays.each_move(occupancy, group, &mut found) {
                return;
            }
        }
    }

    /// For every class whose remaining tiles (two or four of them) can all
    /// be paired by connections open right now, those pairs.
    pub(crate) fn open_pairings(&self) -> Vec<Move> {
        self.open_pairings_where(|_| true)
    }

    /// As [`Board::open_pairings`], for the classes whose every tile
    /// satisfies `keep`.
    pub(crate) fn open_pairings_where(&self, keep: impl Fn(Point) -> bool) -> Vec<Move> {
        if self.is_narrow() {
            self.open_pairings_in::<u64>(keep)
        } else {
            self.open_pairings_in::<u128>(keep)
        }
    }

    fn open_pairings_in<L: Line>(&self, keep: impl Fn(Point) -> bool) -> Vec<Move> {
        let mut found = Vec::new();
        for group in self.groups() {
            let at = |i: usize| Point::new((group[i] & 0xFFFF) as i32, (group[i] >> 16) as i32);
            if group.len() != 2 && group.len() != 4 || !(0..group.len()).all(|i| keep(at(i))) {
                continue;
            }
            let mut rays = [Rays {
                at: Point::new(0, 0),
                row: L::ZERO,
                col: L::ZERO,
            }; 4];
            for (i, r) in rays.iter_mut().enumerate().take(group.len()) {
                *r = self.rays::<L>(at(i));
            }
            let open = |i: usize, j: usize| self.connect(&rays[i], &rays[j]).is_some();
            let pairs: &[[(usize, usize); 2]] = match group.len() {
                2 => &[[(0, 1), (0, 1)]],
                4 => &[[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]],
                _ => &[],
            };
            if let Some(pairing) = pairs
                .iter()
                .find(|[p, q]| open(p.0, p.1) && (p == q || open(q.0, q.1)))
            {
                found.push(Move::new(at(pairing[0].0), at(pairing[0].1)));
                if pairing[0] != pairing[1] {
                    found.push(Move::new(at(pairing[1].0), at(pairing[1].1)));
                }
            }
        }
        found
    }

    /// Every connectable pair of matching tiles (the hint list), sorted in
    /// reading order of `a`, then of `b`.
    pub fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.each_move(|m| {
            moves.push(m);
            true
        });
        moves.sort_unstable_by_key(|m| (m.a.y, m.a.x, m.b.y, m.b.x));
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
