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
const ROOM: usize = 16;

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

    /// Counts the moves of the board that `text` starts with (its first
    /// row; the board ends at a blank line or the text's end): the count,
    /// the bytes of its rows with their line ends, and the number of rows.
    /// `None` when the board is not one the counter takes (see the
    /// module's description).
    pub(crate) fn count(&mut self, text: &[u8]) -> Option<(usize, usize, usize)> {
        let read = self.read(text);
        let count = read.and_then(|(width, height, bytes)| {
            Some((self.count_read(width, height)?, bytes, height))
        });
        for &s in &self.slots[..self.seen] {
            self.counts[usize::from(s)] = 0;
        }
        self.seen = 0;
        count
    }

    /// Reads the rows into lines and classes: the board's width, height
    /// and bytes. Every row must be as long as the first and end as it
    /// does (`\n` or `\r\n`), so a row's end is looked at, not searched
    /// for.
    fn read(&mut self, text: &[u8]) -> Option<(usize, usize, usize)> {
        let first = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
        let crlf = first > 0 && text[first - 1] == b'\r';
        let width = first - usize::from(crlf);
        if width == 0 || width > NARROW_MAX {
            return None;
        }
        self.cols[..width].fill(0);
        let (mut at, mut y) = (0, 0);
        while at < text.len() && text[at].is_ascii_graphic() {
            let row = text.get(at..at + width)?;
            let end = &text[at + width..];
            let ending = match end {
                [] => 0,
                [b'\n', ..] if !crlf => 1,
                [b'\r', b'\n', ..] | [b'\r'] if crlf => 2.min(end.len()),
                _ => return None,
            };
            if y == NARROW_MAX {
                return None;
            }
            let full = full_cells(row)?;
            self.rows[y] = wall(width) | u128::from(full) << 1;
            self.place(row, y, full);
            (at, y) = (at + width + ending, y + 1);
        }
        // The board ends at the text's end or a blank line; anything else
        // (a line starting with a space, say) is for the full parser.
        match &text[at..] {
            [] | [b'\n', ..] | [b'\r', b'\n', ..] => {}
            _ => return None,
        }
        for col in &mut self.cols[..width] {
            *col |= wall(y);
        }
        Some((width, y, at))
    }

    /// Files the tiles of row `y` (the set bits of `full`) under their
    /// classes and in their columns.
    #[inline]
    fn place(&mut self, row: &[u8], y: usize, mut full: u64) {
        // Disjoint borrows and a local count: nothing is reloaded after a
        // store through another field.
        let Counter {
            slot,
            cols,
            members,
            counts,
            slots,
            seen,
            ..
        } = self;
        let mut fresh = *seen;
        while full != 0 {
            let x = full.trailing_zeros() as usize;
            full &= full - 1;
            let s = usize::from(slot[usize::from(row[x] & 0x7F)]);
            let n = counts[s];
            // A slot's first tile is met at random among the others: a
            // write and a step, not a branch. Past the room, tiles overwrite
            // each other; the count says to decline.
            members[s][n as usize % ROOM] = ((y << 16) | x) as u32;
            counts[s] = n + 1;
            slots[fresh % 128] = s as u8;
            fresh += usize::from(n == 0);
            cols[x % NARROW_MAX] |= 1 << (y + 1);
        }
        *seen = fresh;
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

/// Bit `x` set for every cell of `row` (at most 64 bytes) other than
/// `.`, eight cells at a time; `None` if a byte is not graphic ASCII.
#[inline]
fn full_cells(row: &[u8]) -> Option<u64> {
    const fn splat(b: u8) -> u64 {
        u64::from_le_bytes([b; 8])
    }
    const LOW7: u64 = splat(0x7F);
    const HIGH: u64 = splat(0x80);
    let mut bits = 0;
    let mut bad = 0;
    let mut chunks = row.chunks_exact(8);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let v = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        // High bit of a byte set where it is below '!' (its low seven
        // bits, under a high bit that stops the borrow) or above '~' (or
        // not ASCII).
        let below = !((v | HIGH) - splat(b'!')) | v;
        let above = ((v & LOW7) + splat(1)) | v;
        bad |= (below | above) & HIGH;
        let d = v ^ splat(b'.');
        // The high bit of each byte: whether the byte is not `.`.
        let nonzero = (((d & LOW7) + LOW7) | d) & HIGH;
        // Gathers the eight high bits into the top byte, in order.
        let byte = (nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        bits |= byte << (8 * i);
    }
    let done = row.len() - chunks.remainder().len();
    for (x, &b) in chunks.remainder().iter().enumerate() {
        bad |= u64::from(!b.is_ascii_graphic());
        bits |= u64::from(b != b'.') << (done + x);
    }
    (bad == 0).then_some(bits)
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
            ("1.2\r\n2.1\r\n", Matching::Standard),
            ("st\nuv", chinese),
            ("xs.\ns.x", chinese),
        ] {
            let board = crate::parse_board(text, matching).unwrap();
            let counted = Counter::new(matching).count(text.as_bytes());
            let rows = text.lines().count();
            assert_eq!(
                counted,
                Some((board.count_moves(), text.len(), rows)),
                "{text:?}"
            );
        }
    }

    #[test]
    fn full_cells_marks_every_cell_but_dots() {
        let row: Vec<u8> = (0..62)
            .map(|i| {
                if i % 3 == 0 || i % 7 == 2 {
                    b'.'
                } else {
                    b'!' + (i % 94) as u8
                }
            })
            .collect();
        for len in 0..=row.len() {
            let expected = (0..len).fold(0u64, |bits, x| bits | u64::from(row[x] != b'.') << x);
            assert_eq!(full_cells(&row[..len]), Some(expected), "{len} cells");
        }
    }

    #[test]
    fn full_cells_refuses_every_byte_but_graphic_ascii() {
        for byte in 0..=255u8 {
            for at in [0, 5, 7, 8, 13, 17] {
                let mut row = b"a.b.c.d.e.f.g.h.ij".to_vec();
                row[at] = byte;
                let read = full_cells(&row);
                assert_eq!(read.is_some(), byte.is_ascii_graphic(), "{byte:#x} at {at}");
            }
        }
    }
}
