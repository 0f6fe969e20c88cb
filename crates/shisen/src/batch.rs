//! Move counts straight from text, for batch work.
//!
//! A [`Board`](crate::Board) keeps what play needs: the cells, class ids,
//! each class's members laid out for removals. Counting the moves of a
//! board read once needs less: the occupancy lines and the tiles of each
//! class. [`Counter`] reads a board's rows into exactly that, in one pass
//! over the bytes, and runs the same connection tests as
//! [`Board::count_moves`](crate::Board::count_moves) on it.
//!
//! It takes the common case only: rows of graphic ASCII without spaces, at
//! most [`NARROW_MAX`] cells a side, no class of more than [`ROOM`] tiles.
//! For anything else, errors included, it declines and the caller reads
//! the board the full way, so answers and errors are the parser's.

use crate::board::wall;
use crate::kind::Kind;
use crate::line::NARROW_MAX;
use crate::moves::GroupRays;
use crate::path::Occupancy;
use crate::rules::Matching;

/// The most tiles of one class the counter holds (a standard set has four
/// of a class, a Chinese set's flowers and seasons four as well).
pub(crate) const ROOM: usize = 16;

/// The slot of `.`: empty cells are never looked up, but a slot keeps
/// the table total.
const EMPTY: u8 = 127;

pub(crate) struct Counter {
    /// Per ASCII byte, the slot of its matching class.
    slot: [u8; 128],
    rows: [u128; NARROW_MAX],
    cols: [u128; NARROW_MAX],
    /// Per slot, its tiles (`y << 16 | x`), reading order.
    members: Box<[[u32; ROOM]; 128]>,
    counts: [u32; 128],
    /// The slots with tiles on this board, each once: the first `seen`.
    slots: [u8; 128],
    seen: usize,
    rays: GroupRays<u64>,
}

impl Counter {
    pub(crate) fn new(matching: Matching) -> Counter {
        let mut slot = [EMPTY; 128];
        let mut classes: Vec<Kind> = Vec::new();
        for byte in (0u8..128).filter(|b| b.is_ascii_graphic() && *b != b'.') {
            let class = matching.class(Kind::from_graphic_ascii(byte));
            let id = classes.iter().position(|&c| c == class).unwrap_or_else(|| {
                classes.push(class);
                classes.len() - 1
            });
            slot[usize::from(byte)] = id as u8;
        }
        Counter {
            slot,
            rows: [0; NARROW_MAX],
            cols: [0; NARROW_MAX],
            members: Box::new([[0; ROOM]; 128]),
            counts: [0; 128],
            slots: [0; 128],
            seen: 0,
            rays: GroupRays::new(),
        }
    }

    /// The number of moves of the board whose rows `rows` yields (each
    /// without its line end), or `None` when the board is not one the
    /// counter takes (see the module's description).
    pub(crate) fn count<'a>(&mut self, rows: impl Iterator<Item = &'a [u8]>) -> Option<usize> {
        let read = self.read(rows);
        let count = read.and_then(|(width, height)| self.count_read(width, height));
        for &s in &self.slots[..self.seen] {
            self.counts[usize::from(s)] = 0;
        }
        self.seen = 0;
        count
    }

    /// Reads the rows into lines and classes: the board's (width, height).
    fn read<'a>(&mut self, rows: impl Iterator<Item = &'a [u8]>) -> Option<(usize, usize)> {
        let mut width = None;
        let mut height = 0;
        for (y, row) in rows.enumerate() {
            let row = row.strip_suffix(b"\r").unwrap_or(row);
            if y == NARROW_MAX || *width.get_or_insert(row.len()) != row.len() {
                return None;
            }
            if row.len() > NARROW_MAX || !row.iter().all(u8::is_ascii_graphic) {
                return None;
            }
            if y == 0 {
                self.cols[..row.len()].fill(0);
            }
            let full = full_cells(row);
            self.rows[y] = wall(row.len()) | u128::from(full) << 1;
            self.place(row, y, full);
            height = y + 1;
        }
        let width = width?;
        for col in &mut self.cols[..width] {
            *col |= wall(height);
        }
        Some((width, height))
    }

    /// Files the tiles of row `y` (the set bits of `full`) under their
    /// classes and in their columns.
    #[inline]
    fn place(&mut self, row: &[u8], y: usize, mut full: u64) {
        while full != 0 {
            let x = full.trailing_zeros() as usize;
            full &= full - 1;
            let s = self.slot[usize::from(row[x] & 0x7F)];
            let n = self.counts[usize::from(s)];
            // A slot's first tile is met at random among the others: a
            // write and a step, not a branch. Past the room, tiles overwrite
            // each other; the count says to decline.
            self.members[usize::from(s)][n as usize % ROOM] = ((y << 16) | x) as u32;
            self.counts[usize::from(s)] = n + 1;
            self.slots[self.seen % 128] = s;
            self.seen += usize::from(n == 0);
            self.cols[x] |= 1 << (y + 1);
        }
    }

    /// Counts the moves of the board read, or `None` when a class is odd
    /// (the full parser reports it) or over the room.
    fn count_read(&mut self, width: usize, height: usize) -> Option<usize> {
        let occupancy = Occupancy {
            rows: &self.rows[..height],
            cols: &self.cols[..width],
        };
        let mut n = 0;
        for &s in &self.slots[..self.seen] {
            let tiles = self.counts[usize::from(s)] as usize;
            if tiles % 2 == 1 || tiles > ROOM {
                return None;
            }
            let group = &self.members[usize::from(s)][..tiles];
            self.rays.each_move(occupancy, group, &mut |_| {
                n += 1;
                true
            });
        }
        Some(n)
    }
}

/// Bit `x` set for every cell of `row` (at most 64 bytes) other than `.`:
/// eight cells at a time.
#[inline]
fn full_cells(row: &[u8]) -> u64 {
    const DOTS: u64 = u64::from_le_bytes([b'.'; 8]);
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut bits = 0;
    let mut chunks = row.chunks_exact(8);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let v = u64::from_le_bytes(chunk.try_into().expect("eight bytes")) ^ DOTS;
        // The high bit of each byte: whether the byte is not `.`.
        let nonzero = ((v & LOW7).wrapping_add(LOW7) | v) & HIGH;
        // Gathers the eight high bits into the top byte, in order.
        let byte = (nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        bits |= byte << (8 * i);
    }
    let done = row.len() - chunks.remainder().len();
    for (x, &b) in chunks.remainder().iter().enumerate() {
        bits |= u64::from(b != b'.') << (done + x);
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counter takes plain boards (it does not decline them) and
    /// counts them as a built board does.
    #[test]
    fn plain_boards_are_counted_without_a_board() {
        let chinese = Matching::Chinese;
        for (text, matching) in [
            ("ab\nba", Matching::Standard),
            ("a..a\n.bb.\ncddc", Matching::Standard),
            ("1.2\r\n2.1\r", Matching::Standard),
            ("st\nuv", chinese),
            ("xs.\ns.x", chinese),
        ] {
            let board = crate::parse_board(text, matching).unwrap();
            let rows = text.lines().map(str::as_bytes);
            let counted = Counter::new(matching).count(rows);
            assert_eq!(counted, Some(board.count_moves()), "{text:?}");
        }
    }

    #[test]
    fn full_cells_marks_every_cell_but_dots() {
        let row: Vec<u8> = (0..62)
            .map(|i| {
                if i % 3 == 0 || i % 7 == 2 {
                    b'.'
                } else {
                    b'!' + (i % 90) as u8
                }
            })
            .collect();
        for len in 0..=row.len() {
            let expected = (0..len).fold(0u64, |bits, x| bits | u64::from(row[x] != b'.') << x);
            assert_eq!(full_cells(&row[..len]), expected, "{len} cells");
        }
    }
}
