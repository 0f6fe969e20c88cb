//! Bans: pairs of tiles the search has ruled out as partners.

use crate::board::Board;
use crate::moves::Move;
use crate::point::Point;
use common::Rng;

/// Pairs of tiles ruled out as partners, as counts per pair of cells (a
/// pair can be banned at the root and again on a line), with a hash of
/// the line's bans for the table of failed positions.
pub(super) struct Bans {
    count: Vec<u8>,
    cells: usize,
    width: usize,
    keys: Vec<u64>,
    pub(super) hash: u64,
}

impl Bans {
    pub(super) fn new(board: &Board) -> Bans {
        let cells = board.width() * board.height();
        let mut rng = Rng::new(0xBA25);
        Bans {
            count: vec![0; cells * cells],
            cells,
            width: board.width(),
            keys: (0..cells).map(|_| rng.next_u64()).collect(),
            hash: 0,
        }
    }

    fn cell(&self, p: Point) -> usize {
        p.y as usize * self.width + p.x as usize
    }

    fn index(&self, m: Move) -> usize {
        self.cell(m.a) * self.cells + self.cell(m.b)
    }

    fn key(&self, m: Move) -> u64 {
        let h = self.keys[self.cell(m.a)] ^ self.keys[self.cell(m.b)].rotate_left(29);
        h.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (h >> 31)
    }

    pub(super) fn contains(&self, m: Move) -> bool {
        self.count[self.index(m)] > 0
    }

    /// Bans `m`; `hashed` bans enter the hash (the root's bans hold in
    /// every position, so they need not).
    pub(super) fn add(&mut self, m: Move, hashed: bool) {
        let i = self.index(m);
        self.count[i] += 1;
        if hashed && self.count[i] == 1 {
            self.hash ^= self.key(m);
        }
    }

    /// Lifts a ban made by [`Bans::add`] with the same `hashed`.
    pub(super) fn unban(&mut self, m: Move, hashed: bool) {
        let i = self.index(m);
        self.count[i] -= 1;
        if hashed && self.count[i] == 0 {
            self.hash ^= self.key(m);
        }
    }

    /// Bans `m` and, when its class has four tiles left, the pair of the
    /// other two (the one pairing holding `m`). Returns the bans added.
    pub(super) fn ban_pairing(&mut self, board: &Board, m: Move) -> Vec<Move> {
        let class = board.class_of(m.a);
        let mut banned = vec![m];
        if class.len() == 4 {
            let rest: Vec<Point> = class
                .iter()
                .map(|&c| Point::new((c & 0xFFFF) as i32, (c >> 16) as i32))
                .filter(|&p| p != m.a && p != m.b)
                .collect();
            banned.push(Move::new(rest[0], rest[1]));
        }
        for &b in &banned {
            self.add(b, true);
        }
        banned
    }

    /// Whether the tile at `p` has exactly one partner not banned.
    pub(super) fn only_partner(&self, board: &Board, p: Point) -> bool {
        let mut partners = board
            .class_of(p)
            .iter()
            .map(|&c| Point::new((c & 0xFFFF) as i32, (c >> 16) as i32))
            .filter(|&q| q != p && !self.contains(Move::new(p, q)));
        partners.next().is_some() && partners.next().is_none()
    }
}
