//! An admissible multi-tile (MTM) bound from a colouring of the tiles.
//!
//! Additive pattern databases do not carry over to MTM: one move may slide
//! tiles of several patterns, so the sum of per-pattern MTM costs can
//! exceed the true distance. An abstraction of the whole board does carry
//! over. Paint every tile in one of a few colours by the quadrant of the
//! board it belongs to, and forget which tile of a colour is which. Every
//! multi-tile move of the real board is a multi-tile move of the painted
//! board, so the painted board's distance to the painted goal never
//! exceeds the real distance: an admissible bound. One breadth-first
//! search from the painted goal finds it for every painted board.
//!
//! On 4 × 4 with the blank's goal in a corner the colours hold 2, 4, 5 and
//! 4 tiles (the quadrant opposite the blank is split, and the blank's own
//! quadrant borrows a tile), so there are 16!/(2!·4!·5!·4!) = 151,351,200
//! painted boards. A board symmetry that fixes the goal's blank (the
//! diagonal reflection, on a square board with a corner blank) maps the
//! goal to itself and keeps every distance, so the search looks up the
//! reflected board too and takes the larger bound.
//!
//! A painted board is indexed by the rank of the colour sequence read over
//! the cells but the blank's in row-major order, then the blank's cell. A
//! horizontal move keeps that sequence, so it changes only the blank's
//! part of the index (in the search, for the reflected view, a vertical
//! move does), and the neighbour lies in the same cache line: the build's
//! and the search's horizontal look-ups cost no memory traffic.
//!
//! The table keeps each distance modulo 3 in two bits (38 MB on 4 × 4):
//! one move changes a painted distance by at most one, so the search,
//! knowing a board's distances, reads its children's from the residues.
//! The root's are found by walking down the table to the painted goal.
//! The breadth-first search fills a byte per board, expanding each level
//! while it is small and, once fewer boards are left than the level
//! holds, checking each board left for a neighbour on the level.

use super::pdb::{check_file, checksum, BuildProgress, LoadError};
use super::relabel::Canonical;
use crate::{Direction, Moves, Size};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Painted boards beyond this many are not worth a table.
const MAX_ENTRIES: usize = 300_000_000;

const UNSEEN: u8 = u8::MAX;

/// Tables of at most this many entries build in well under a second, so
/// even a search with a budget builds them.
const QUICK_ENTRIES: usize = 5_000_000;

/// The colour of each tile, and the counting tables that rank a colour
/// sequence among all sequences with the same colour counts.
struct Colouring {
    size: Size,
    goal_blank: usize,
    /// `colour[t]`: the colour of the tile whose goal cell is `t`.
    colour: Vec<u8>,
    colours: usize,
    /// Tiles of each colour.
    counts: Vec<usize>,
    /// Mixed-radix place of each colour in a "tiles left" state.
    strides: Vec<usize>,
    /// `offsets[state * colours + c]`: how many sequences from `state`
    /// start with a colour before `c`.
    offsets: Vec<u32>,
    /// `totals[state]`: how many sequences there are from `state`.
    totals: Vec<u32>,
    /// The full state: every colour's count.
    full: usize,
    /// Sequences per blank cell.
    arrangements: usize,
    /// Ranks of colour sequences packed two bits a cell.
    packed: PackedRanks,
}

impl Colouring {
    fn new(size: Size, goal_blank: usize) -> Option<Colouring> {
        Colouring::with(size, goal_blank, paint(size, goal_blank))
    }

    /// The colouring `colour` (by goal cell, `UNSEEN` on the blank's).
    fn with(size: Size, goal_blank: usize, colour: Vec<u8>) -> Option<Colouring> {
        let colours = colour.iter().filter(|&&c| c != UNSEEN).max()? + 1;
        let colours = colours as usize;
        let mut counts = vec![0usize; colours];
        for &c in colour.iter().filter(|&&c| c != UNSEEN) {
            counts[c as usize] += 1;
        }
        let mut strides = vec![0; colours];
        let mut states = 1;
        for c in 0..colours {
            strides[c] = states;
            states *= counts[c] + 1;
        }
        let left = |state: usize, c: usize| state / strides[c] % (counts[c] + 1);
        // States in increasing order: every state's predecessors (one tile
        // fewer) come first.
        let mut totals = vec![0u64; states];
        let mut offsets = vec![0u64; states * colours];
        for state in 0..states {
            if state == 0 {
                totals[0] = 1;
                continue;
            }
            let mut sum = 0u64;
            for c in 0..colours {
                offsets[state * colours + c] = sum;
                if left(state, c) > 0 {
                    sum += totals[state - strides[c]];
                }
            }
            totals[state] = sum;
        }
        let full = states - 1;
        let arrangements = totals[full] as usize;
        // Two bits a colour, 16 cells at most: a board fits a `u64`.
        if colours > 4 || size.cells() > 16 {
            return None;
        }
        if arrangements.checked_mul(size.cells())? > MAX_ENTRIES {
            return None;
        }
        let mut colouring = Colouring {
            size,
            goal_blank,
            colour,
            colours,
            counts,
            strides,
            offsets: offsets.into_iter().map(|v| v as u32).collect(),
            totals: totals.into_iter().map(|v| v as u32).collect(),
            full,
            arrangements,
            packed: PackedRanks::default(),
        };
        colouring.packed = PackedRanks::new(&colouring);
        Some(colouring)
    }

    /// The rank contribution of `colours` (the first of them at the
    /// sequence's position with `state` tiles left), or `None` where a
    /// colour is exhausted.
    fn partial_rank(&self, mut state: usize, colours: impl Iterator<Item = usize>) -> Option<u32> {
        let mut rank = 0;
        for c in colours {
            let left = |c: usize| state / self.strides[c] % (self.counts[c] + 1);
            if c >= self.colours || left(c) == 0 {
                return None;
            }
            rank += self.offsets[state * self.colours + c];
            state -= self.strides[c];
        }
        Some(rank)
    }

    /// The "tiles left" state of exactly the `colours` given, or `None`
    /// where they hold more of a colour than the board.
    fn state_of(&self, colours: impl Iterator<Item = usize>) -> Option<usize> {
        let mut held = vec![0; self.colours];
        for c in colours {
            *held.get_mut(c)? += 1;
        }
        let fits = held.iter().zip(&self.counts).all(|(h, n)| h <= n);
        fits.then(|| held.iter().zip(&self.strides).map(|(h, s)| h * s).sum())
    }

    /// The index of the painted board packed in `word` (two bits a cell,
    /// zero on the blank's cell `blank`).
    #[inline]
    fn packed_index(&self, word: u64, blank: usize) -> usize {
        let below = word & ((1 << (2 * blank)) - 1);
        let sequence = below | (word >> (2 * blank + 2)) << (2 * blank);
        self.packed.rank(sequence) as usize * self.size.cells() + blank
    }

    fn entries(&self) -> usize {
        self.arrangements * self.size.cells()
    }

    /// The index of a painted board given by `colour_at(cell)`.
    #[inline]
    fn index(&self, blank: usize, colour_at: impl Fn(usize) -> u8) -> usize {
        let (mut state, mut rank) = (self.full, 0u32);
        for cell in (0..self.size.cells()).filter(|&c| c != blank) {
            let c = colour_at(cell) as usize;
            rank += self.offsets[state * self.colours + c];
            state -= self.strides[c];
        }
        rank as usize * self.size.cells() + blank
    }

    /// The painted board of `index`: a colour per cell, `UNSEEN` on the
    /// blank.
    fn board(&self, index: usize, board: &mut [u8]) -> usize {
        let (mut sequence, mut decoded) = ([0u8; 32], u32::MAX);
        self.board_from(index, &mut sequence, &mut decoded, board)
    }

    /// [`board`](Self::board), decoding the colour sequence into
    /// `sequence` only when its rank differs from `decoded` (consecutive
    /// indices share it).
    #[inline]
    fn board_from(
        &self,
        index: usize,
        sequence: &mut [u8; 32],
        decoded: &mut u32,
        board: &mut [u8],
    ) -> usize {
        let n = self.size.cells();
        let blank = index % n;
        let rank = (index / n) as u32;
        // Ranks are lexicographic, so a rank a little past the decoded one
        // is reached by stepping to the next sequence, far cheaper than
        // decoding (a division per colour and cell).
        if rank > *decoded && rank - *decoded <= 4 {
            for _ in *decoded..rank {
                next_sequence(&mut sequence[..n - 1]);
            }
        } else if rank != *decoded {
            self.decode(rank, &mut sequence[..n - 1]);
        }
        *decoded = rank;
        board[..blank].copy_from_slice(&sequence[..blank]);
        board[blank] = UNSEEN;
        board[blank + 1..].copy_from_slice(&sequence[blank..n - 1]);
        blank
    }

    /// The colour sequence of `rank`.
    fn decode(&self, mut rank: u32, sequence: &mut [u8]) {
        let mut state = self.full;
        for slot in sequence.iter_mut() {
            let mut c = 0;
            loop {
                let left = state / self.strides[c] % (self.counts[c] + 1);
                if left > 0 {
                    let start = self.offsets[state * self.colours + c];
                    if rank < start + self.totals[state - self.strides[c]] {
                        rank -= start;
                        break;
                    }
                }
                c += 1;
            }
            *slot = c as u8;
            state -= self.strides[c];
        }
    }
}

/// Steps `sequence` to the next arrangement of its colours in
/// lexicographic order (the last one wraps to the first, never used).
fn next_sequence(sequence: &mut [u8]) {
    let Some(i) = (1..sequence.len())
        .rev()
        .find(|&i| sequence[i - 1] < sequence[i])
    else {
        sequence.reverse();
        return;
    };
    let pivot = sequence[i - 1];
    let j = (i..sequence.len())
        .rev()
        .find(|&j| sequence[j] > pivot)
        .expect("a larger colour after the pivot");
    sequence.swap(i - 1, j);
    sequence[i..].reverse();
}

/// The rank of a colour sequence packed two bits a colour, by two table
/// look-ups instead of a walk over every cell: the rank is the sum of the
/// first `head` colours' contributions (from the full state, so a function
/// of those colours alone) and the rank of the rest among sequences of
/// their own colour counts (the state they start from is exactly those
/// counts). Entries for impossible sequences are never read.
#[derive(Default)]
struct PackedRanks {
    head: u32,
    prefix: Vec<u32>,
    suffix: Vec<u32>,
}

impl PackedRanks {
    /// At most this many colours in the prefix table (4^8 entries).
    const HEAD: usize = 8;

    fn new(colouring: &Colouring) -> PackedRanks {
        let length = colouring.size.cells() - 1;
        let head = length.min(Self::HEAD);
        let colours = |word: usize, k: usize| (0..k).map(move |i| word >> (2 * i) & 3);
        let prefix = (0..1 << (2 * head))
            .map(|w| {
                let rank = colouring.partial_rank(colouring.full, colours(w, head));
                rank.unwrap_or(0)
            })
            .collect();
        let tail = length - head;
        let suffix = (0..1 << (2 * tail))
            .map(|w| {
                let state = colouring.state_of(colours(w, tail));
                let rank = state.and_then(|s| colouring.partial_rank(s, colours(w, tail)));
                rank.unwrap_or(0)
            })
            .collect();
        PackedRanks {
            head: head as u32,
            prefix,
            suffix,
        }
    }

    #[inline]
    fn rank(&self, sequence: u64) -> u32 {
        let low = sequence & ((1 << (2 * self.head)) - 1);
        self.prefix[low as usize] + self.suffix[(sequence >> (2 * self.head)) as usize]
    }
}

/// The colour of each goal cell (`UNSEEN` for the blank's): the quadrants
/// of the board, with the quadrant opposite the blank split (its edge row
/// alone, the rest joined to the quadrant beside the blank's) and the
/// blank's quadrant given the nearest tile of that neighbour when it is
/// short. Any colouring is admissible; this one keeps the table near 150 M
/// entries on 4 × 4 while every colour stays in one region.
fn paint(size: Size, goal_blank: usize) -> Vec<u8> {
    let (w, h) = (size.width(), size.height());
    let quadrant = |cell: usize| {
        let (x, y) = size.coords(cell);
        (2 * x / w, 2 * y / h)
    };
    let (bx, by) = quadrant(goal_blank);
    let (ox, oy) = (1 - bx, 1 - by);
    let edge_row = if oy == 0 { 0 } else { h - 1 };
    let code = |(qx, qy): (usize, usize)| (qx + 2 * qy) as u8;
    let mut colour: Vec<u8> = (0..size.cells())
        .map(|cell| {
            let q = quadrant(cell);
            if cell == goal_blank {
                UNSEEN
            } else if q == (ox, oy) && size.coords(cell).1 == edge_row {
                4
            } else if q == (ox, oy) {
                code((ox, by))
            } else {
                code(q)
            }
        })
        .collect();
    let count = |colour: &[u8], c: u8| colour.iter().filter(|&&k| k == c).count();
    let (own, beside) = (code((bx, by)), code((ox, by)));
    if own != beside && count(&colour, own) + 1 < count(&colour, beside) {
        let nearest = (0..size.cells())
            .filter(|&c| colour[c] == beside)
            .min_by_key(|&c| size.distance(c, goal_blank));
        if let Some(cell) = nearest {
            colour[cell] = own;
        }
    }
    // Number the colours in use 0, 1, …
    let mut used: Vec<u8> = colour.iter().copied().filter(|&c| c != UNSEEN).collect();
    used.sort_unstable();
    used.dedup();
    for c in colour.iter_mut().filter(|c| **c != UNSEEN) {
        *c = used.iter().position(|u| u == c).expect("in use") as u8;
    }
    colour
}

/// A symmetry of the board that fixes the goal's blank: the board seen
/// through it is as far from the goal as the board itself.
struct Symmetry {
    /// `inverse[c']`: the cell that lands on `c'`.
    inverse: Vec<u8>,
    /// `image[c]`: where cell `c` lands.
    image: Vec<u8>,
    /// Whether rows become columns.
    transposes: bool,
}

fn symmetries(size: Size, goal_blank: usize) -> Vec<Symmetry> {
    let (w, h) = (size.width(), size.height());
    let mut found = Vec::new();
    for transpose in [false, true] {
        if transpose && w != h {
            continue;
        }
        for (flip_x, flip_y) in [(false, false), (true, false), (false, true), (true, true)] {
            let image: Vec<u8> = (0..size.cells())
                .map(|cell| {
                    let (mut x, mut y) = size.coords(cell);
                    if transpose {
                        (x, y) = (y, x);
                    }
                    if flip_x {
                        x = w - 1 - x;
                    }
                    if flip_y {
                        y = h - 1 - y;
                    }
                    size.cell(x, y) as u8
                })
                .collect();
            if image[goal_blank] as usize != goal_blank {
                continue;
            }
            let mut inverse = vec![0u8; image.len()];
            for (cell, &to) in image.iter().enumerate() {
                inverse[to as usize] = cell as u8;
            }
            found.push(Symmetry {
                inverse,
                image,
                transposes: transpose,
            });
        }
    }
    found
}

/// Where each tile of each view lands on its view's packed board: the
/// tile's colour in the view, shifted to the cell's image.
fn view_bits(symmetries: &[Symmetry], colour_of: &[Vec<u8>], n: usize) -> Vec<u64> {
    let mut bits = vec![0; symmetries.len() * n * n];
    for (s, symmetry) in symmetries.iter().enumerate() {
        for tile in 0..n {
            for cell in 0..n {
                let colour = u64::from(colour_of[s][tile]);
                let shift = 2 * u64::from(symmetry.image[cell]);
                bits[(s * n + tile) * n + cell] = colour << shift;
            }
        }
    }
    bits
}

/// The cells each move from a blank cell slides, nearest first, by the
/// direction the tiles move.
fn lines(size: Size) -> Vec<Vec<(Direction, Vec<u8>)>> {
    (0..size.cells())
        .map(|blank| {
            let (x, y) = size.coords(blank);
            Direction::ALL
                .into_iter()
                .map(|d| {
                    let (dx, dy) = d.blank_step();
                    let mut cells = Vec::new();
                    let (mut cx, mut cy) = (x, y);
                    while let (Some(nx), Some(ny)) =
                        (cx.checked_add_signed(dx), cy.checked_add_signed(dy))
                    {
                        if nx >= size.width() || ny >= size.height() {
                            break;
                        }
                        cells.push(size.cell(nx, ny) as u8);
                        (cx, cy) = (nx, ny);
                    }
                    (d, cells)
                })
                .filter(|(_, cells)| !cells.is_empty())
                .collect()
        })
        .collect()
}

fn is_horizontal(d: Direction) -> bool {
    matches!(d, Direction::Left | Direction::Right)
}

/// Calls `each` with the index of every painted board one multi-tile move
/// from the painted `board` (blank on `blank`, index `index`). A
/// horizontal move keeps the colour sequence, so only the blank's part of
/// the index changes; a vertical one is ranked from the board packed two
/// bits a cell.
#[inline]
fn neighbours(
    colouring: &Colouring,
    lines: &[(Direction, Vec<u8>)],
    index: usize,
    blank: usize,
    board: &[u8],
    mut each: impl FnMut(usize) -> bool,
) {
    let n = colouring.size.cells();
    for (d, line) in lines {
        if is_horizontal(*d) {
            for &to in line {
                if each(index - index % n + to as usize) {
                    return;
                }
            }
            continue;
        }
        let mut word = pack_board(board, blank);
        let mut b = blank;
        for &to in line {
            let to = to as usize;
            let colour = word >> (2 * to) & 3;
            word ^= colour << (2 * to) | colour << (2 * b);
            b = to;
            if each(colouring.packed_index(word, b)) {
                return;
            }
        }
    }
}

/// A painted board (a colour per cell) packed two bits a cell, zero on
/// the blank's cell.
#[inline]
fn pack_board(board: &[u8], blank: usize) -> u64 {
    (0..board.len())
        .filter(|&c| c != blank)
        .fold(0, |word, c| word | u64::from(board[c]) << (2 * c))
}

/// Distances modulo 3 of every painted board, two bits each (3: never
/// reached). One move changes a distance by at most one, so a search that
/// knows a board's distance reads its neighbours' from their residues.
pub struct ColourTable {
    colouring: Colouring,
    packed: Vec<u8>,
    /// The painted goal's index.
    goal: usize,
    symmetries: Vec<Symmetry>,
    /// `colour_of[s][t]`: the colour of tile `t` seen through symmetry `s`.
    colour_of: Vec<Vec<u8>>,
    /// `bits[(s * n + t) * n + c]`: tile `t` on cell `c` in the packed
    /// board of view `s` (its colour at two bits per cell of the view).
    bits: Vec<u64>,
    lines: Vec<Vec<(Direction, Vec<u8>)>>,
}

/// At most this many symmetric views are probed (a square has 8
/// symmetries).
const MAX_VIEWS: usize = 8;

const MAGIC: &[u8; 8] = b"TSSRMTM\0";
/// Bump whenever the colouring, the index or the packing changes.
pub const COLOUR_FORMAT_VERSION: u32 = 2;

impl ColourTable {
    /// Entries of the table for `size` and `goal_blank`; `None` where the
    /// board has no table (its colouring is too large, or it is not solved
    /// optimally at all). Boards of at most `FULL_TABLE_MAX_CELLS` cells
    /// have one too, though their solver walks a complete table.
    pub fn entries_for(size: Size, goal_blank: usize) -> Option<usize> {
        if size.cells() > super::OPTIMAL_MAX_CELLS {
            return None;
        }
        Colouring::new(size, goal_blank).map(|c| c.entries())
    }

    /// The cache file name of the table for `size` and `goal_blank`.
    pub fn file_name_for(size: Size, goal_blank: usize) -> String {
        format!("{size}-mtm-{goal_blank}.mtm")
    }

    /// Whether the table builds in a blink (every board but 4 × 4 and the
    /// other 15- and 16-cell shapes).
    pub fn is_quick(size: Size, goal_blank: usize) -> bool {
        Self::entries_for(size, goal_blank).is_some_and(|e| e <= QUICK_ENTRIES)
    }

    /// The board shape.
    pub fn size(&self) -> Size {
        self.colouring.size
    }

    /// The goal's blank cell.
    pub fn goal_blank(&self) -> usize {
        self.colouring.goal_blank
    }

    /// Bytes held in memory.
    pub fn memory(&self) -> usize {
        self.packed.len()
    }

    /// Builds the table by breadth-first search over painted boards, in
    /// parallel, telling `progress` how far it has come; `None` where
    /// [`entries_for`](Self::entries_for) is.
    pub fn build(
        size: Size,
        goal_blank: usize,
        progress: &mut dyn FnMut(BuildProgress),
    ) -> Option<ColourTable> {
        Self::entries_for(size, goal_blank)?;
        Self::build_colouring(Colouring::new(size, goal_blank)?, progress)
    }

    fn build_colouring(
        colouring: Colouring,
        progress: &mut dyn FnMut(BuildProgress),
    ) -> Option<ColourTable> {
        let distances = breadth_first(&colouring, progress);
        let packed = pack(&distances);
        drop(distances);
        Some(ColourTable::new(colouring, packed))
    }

    fn new(colouring: Colouring, packed: Vec<u8>) -> ColourTable {
        let size = colouring.size;
        let symmetries = symmetries(size, colouring.goal_blank);
        let colour_of: Vec<Vec<u8>> = symmetries
            .iter()
            .map(|s| {
                (0..size.cells())
                    .map(|t| colouring.colour[s.image[t] as usize])
                    .collect()
            })
            .collect();
        let bits = view_bits(&symmetries, &colour_of, size.cells());
        let goal = colouring.index(colouring.goal_blank, |cell| colouring.colour[cell]);
        ColourTable {
            colouring,
            packed,
            goal,
            symmetries,
            colour_of,
            bits,
            lines: lines(size),
        }
    }

    /// The packed board of view `s`: tile on `cells[c]` at two bits per
    /// cell of the view, zero on the blank's.
    fn view_word(&self, s: usize, cells: &[u8], blank: usize) -> u64 {
        let n = cells.len();
        (0..n)
            .filter(|&c| c != blank)
            .map(|c| self.bits[(s * n + cells[c] as usize) * n + c])
            .fold(0, |word, bits| word | bits)
    }

    /// Slides tile `tile` from cell `from` to the blank's cell `to` in
    /// every view's packed board.
    #[inline]
    fn slide(&self, words: &mut [u64; MAX_VIEWS], tile: u8, from: usize, to: usize) {
        let n = self.size().cells();
        for (s, word) in words.iter_mut().enumerate().take(self.symmetries.len()) {
            let at = (s * n + tile as usize) * n;
            *word ^= self.bits[at + from] ^ self.bits[at + to];
        }
    }

    fn header(size: Size, goal_blank: usize, entries: usize) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&COLOUR_FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&(size.width() as u16).to_le_bytes());
        bytes.extend_from_slice(&(size.height() as u16).to_le_bytes());
        bytes.extend_from_slice(&(goal_blank as u16).to_le_bytes());
        bytes.extend_from_slice(&(entries as u64).to_le_bytes());
        bytes
    }

    /// Serialised form: header (magic, version, shape, goal blank,
    /// entries), the packed residues, checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Self::header(self.size(), self.goal_blank(), self.colouring.entries());
        bytes.extend_from_slice(&self.packed);
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote for `size` and
    /// `goal_blank`; anything stale or damaged is an error, never a wrong
    /// table.
    pub fn from_bytes(
        size: Size,
        goal_blank: usize,
        bytes: &[u8],
    ) -> Result<ColourTable, LoadError> {
        let entries = Self::entries_for(size, goal_blank).ok_or(LoadError::NotADatabase)?;
        let head = Self::header(size, goal_blank, entries);
        check_file(&head, entries.div_ceil(4), bytes, || {
            Self::file_name_for(size, goal_blank)
        })?;
        let body = bytes.len() - 8;
        let colouring = Colouring::new(size, goal_blank).ok_or(LoadError::NotADatabase)?;
        let table = ColourTable::new(colouring, bytes[head.len()..body].to_vec());
        if table.residue(table.goal) != 0 {
            return Err(LoadError::Inconsistent);
        }
        Ok(table)
    }

    #[inline]
    fn residue(&self, index: usize) -> u8 {
        self.packed[index >> 2] >> ((index & 3) * 2) & 3
    }

    /// The painted distance of the board of `index`: a walk down to the
    /// painted goal, each step to a neighbour one closer (its residue one
    /// less, modulo 3).
    fn distance(&self, mut index: usize) -> u32 {
        let n = self.size().cells();
        let mut board = vec![0u8; n];
        let mut distance = 0;
        while index != self.goal {
            let r = self.residue(index);
            debug_assert!(r < 3, "a painted board of a real position is reached");
            let closer = (r + 2) % 3;
            let blank = self.colouring.board(index, &mut board);
            let mut next = None;
            neighbours(
                &self.colouring,
                &self.lines[blank],
                index,
                blank,
                &board,
                |i| {
                    let found = self.residue(i) == closer;
                    if found {
                        next = Some(i);
                    }
                    found
                },
            );
            index = next.expect("a reached board has a neighbour one closer");
            distance += 1;
        }
        distance
    }

    /// The index of a canonical board (`cells[c]`: the goal cell of the
    /// tile on `c`, blank on `blank`) seen through symmetry `s`.
    #[inline]
    fn view_index(&self, s: usize, cells: &[u8], blank: usize) -> usize {
        let symmetry = &self.symmetries[s];
        let colour_of = &self.colour_of[s];
        self.colouring
            .index(symmetry.image[blank] as usize, |cell| {
                colour_of[cells[symmetry.inverse[cell] as usize] as usize]
            })
    }

    /// Every view of a canonical board, with its exact painted distance.
    fn views(&self, cells: &[u8], blank: usize) -> Views {
        let mut views = Views::default();
        for s in 0..self.symmetries.len() {
            let index = self.view_index(s, cells, blank);
            views.index[s] = index as u32;
            views.distance[s] = self.distance(index) as u8;
            views.word[s] = self.view_word(s, cells, blank);
        }
        views
    }

    /// Fills in the views of `child`, a board one move from `parent` (its
    /// views and blank cell), whose packed boards are already slid (see
    /// [`slide`](Self::slide)), blank on `blank`, moved along
    /// `horizontal`; or answers, as soon as one view's distance exceeds
    /// `limit`, that distance. (The packed boards are slid in place: a
    /// copy would read them back wider than they were written, which
    /// stalls.) Each distance is read from the residue beside the
    /// parent's. The views in which the move is horizontal go first: their
    /// entry shares a cache line with the parent's, so a child they prune
    /// costs no memory traffic; the others are ranked from the packed
    /// board by two look-ups.
    #[inline]
    fn step(
        &self,
        parent: (&Views, usize),
        child: &mut Views,
        blank: usize,
        horizontal: bool,
        limit: u32,
    ) -> Result<(), u32> {
        let (parent, parent_blank) = parent;
        for near in [true, false] {
            for (s, symmetry) in self.symmetries.iter().enumerate() {
                if (horizontal != symmetry.transposes) != near {
                    continue;
                }
                let image = symmetry.image[blank] as usize;
                // A move horizontal in the view keeps its colour sequence,
                // so only the blank's part of the index changes.
                let index = if near {
                    parent.index[s] as usize + image - symmetry.image[parent_blank] as usize
                } else {
                    self.colouring.packed_index(child.word[s], image)
                };
                let d = parent.distance[s];
                let d = match (self.residue(index) + 3 - d % 3) % 3 {
                    0 => d,
                    1 => d + 1,
                    _ => d - 1,
                };
                if u32::from(d) > limit {
                    return Err(u32::from(d));
                }
                child.index[s] = index as u32;
                child.distance[s] = d;
            }
        }
        Ok(())
    }

    /// The bound of a canonical board: the largest painted distance over
    /// the symmetric views.
    pub(crate) fn bound(&self, cells: &[u8], blank: usize) -> u32 {
        self.views(cells, blank).bound()
    }

    /// The bound of a canonical position.
    pub(crate) fn bound_of(&self, start: &Canonical) -> u32 {
        self.bound(&start.cells, start.blank)
    }
}

/// A board's index and painted distance in each symmetric view.
#[derive(Clone, Copy, Default)]
struct Views {
    index: [u32; MAX_VIEWS],
    distance: [u8; MAX_VIEWS],
    /// The packed board of each view (see [`ColourTable::slide`]).
    word: [u64; MAX_VIEWS],
}

impl Views {
    #[inline]
    fn bound(&self) -> u32 {
        u32::from(*self.distance.iter().max().expect("views"))
    }
}

/// Two bits per entry: the distance modulo 3, or 3 where never reached.
fn pack(distances: &[AtomicU8]) -> Vec<u8> {
    distances
        .par_chunks(4 << 12)
        .flat_map_iter(|chunk| {
            chunk.chunks(4).map(|four| {
                four.iter().enumerate().fold(0u8, |byte, (k, d)| {
                    let d = d.load(Ordering::Relaxed);
                    let r = if d == UNSEEN { 3 } else { d % 3 };
                    byte | r << (2 * k)
                })
            })
        })
        .collect()
}

/// Breadth-first search from the painted goal over painted boards, one
/// level at a time, the level's boards shared among the threads. Early
/// levels expand the level's boards (a board of the next level is claimed
/// by one thread, so the count of boards filled is exact); once the boards not yet reached are fewer than the level's,
/// each of those looks for a neighbour on the level instead.
fn breadth_first(colouring: &Colouring, progress: &mut dyn FnMut(BuildProgress)) -> Vec<AtomicU8> {
    let size = colouring.size;
    let n = size.cells();
    let entries = colouring.entries();
    let distances: Vec<AtomicU8> = (0..entries).map(|_| AtomicU8::new(UNSEEN)).collect();
    let goal = colouring.index(colouring.goal_blank, |cell| colouring.colour[cell]);
    distances[goal].store(0, Ordering::Relaxed);
    let lines = lines(size);
    const CHUNK: usize = 1 << 14;
    /// Each level is searched in this many slices, with progress between.
    const SLICES: usize = 16;
    let chunks = entries.div_ceil(CHUNK);
    let (mut filled, mut level) = (1u64, 1u64);
    for depth in 0u8..UNSEEN - 1 {
        let backward = entries as u64 - filled < level;
        let added = AtomicU64::new(0);
        for slice in 0..SLICES {
            let range = chunks * slice / SLICES..chunks * (slice + 1) / SLICES;
            range.into_par_iter().for_each(|chunk| {
                let mut board = vec![0u8; n];
                let (mut sequence, mut decoded) = ([0u8; 32], u32::MAX);
                let mut new = 0;
                for index in chunk * CHUNK..((chunk + 1) * CHUNK).min(entries) {
                    let d = distances[index].load(Ordering::Relaxed);
                    if backward {
                        if d != UNSEEN {
                            continue;
                        }
                        let blank =
                            colouring.board_from(index, &mut sequence, &mut decoded, &mut board);
                        let mut found = false;
                        neighbours(colouring, &lines[blank], index, blank, &board, |i| {
                            found = distances[i].load(Ordering::Relaxed) == depth;
                            found
                        });
                        if found {
                            distances[index].store(depth + 1, Ordering::Relaxed);
                            new += 1;
                        }
                        continue;
                    }
                    if d != depth {
                        continue;
                    }
                    let blank =
                        colouring.board_from(index, &mut sequence, &mut decoded, &mut board);
                    neighbours(colouring, &lines[blank], index, blank, &board, |i| {
                        // Claimed once: the count of boards filled
                        // stays exact however the threads race.
                        let claimed = distances[i].load(Ordering::Relaxed) == UNSEEN
                            && distances[i]
                                .compare_exchange(
                                    UNSEEN,
                                    depth + 1,
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok();
                        new += u64::from(claimed);
                        false
                    });
                }
                added.fetch_add(new, Ordering::Relaxed);
            });
            progress(BuildProgress {
                depth: u32::from(depth) + 1,
                filled: filled + added.load(Ordering::Relaxed),
                entries: entries as u64,
            });
        }
        level = added.load(Ordering::Relaxed);
        if level == 0 {
            break;
        }
        filled += level;
    }
    distances
}

/// IDA* over multi-tile moves bounded by a [`ColourTable`]. Answers the
/// moves of a shortest solution with the nodes generated, or `None` with
/// the proven lower bound when `stop` ends it first.
pub(crate) fn search(
    table: &ColourTable,
    start: &Canonical,
    stop: &dyn Fn(u64) -> bool,
) -> Result<(Moves, u64), (u32, u64)> {
    match search_within(table, start, stop, 0, u32::MAX)? {
        (Some(moves), nodes) => Ok((moves, nodes)),
        (None, _) => unreachable!("every solvable position has a solution"),
    }
}

/// IDA* for a position whose distance is known to be at least `floor`:
/// the first threshold is `floor` (or the bound, if higher), and past
/// `ceiling` it gives up with `None`. The analysis of a solve knows the
/// distance of the position before, so each position is one or two
/// thresholds, and a move away from the goal needs no search at its own
/// distance, the costliest.
pub(crate) fn search_within(
    table: &ColourTable,
    start: &Canonical,
    stop: &dyn Fn(u64) -> bool,
    floor: u32,
    ceiling: u32,
) -> Result<(Option<Moves>, u64), (u32, u64)> {
    let mut dfs = Dfs {
        table,
        cells: start.cells.clone(),
        path: Vec::new(),
        nodes: 0,
        next_check: 0,
        next_bound: u32::MAX,
        stop,
        stopped: false,
    };
    if dfs.solved() {
        return Ok((Some(Moves(Vec::new())), 0));
    }
    let views = table.views(&dfs.cells, start.blank);
    let mut bound = views.bound().max(floor);
    while bound <= ceiling {
        dfs.next_bound = u32::MAX;
        if dfs.visit(start.blank, &views, None, 0, bound) {
            return Ok((Some(Moves(dfs.path)), dfs.nodes));
        }
        if dfs.stopped {
            return Err((bound, dfs.nodes));
        }
        bound = dfs.next_bound;
    }
    Ok((None, dfs.nodes))
}

struct Dfs<'a> {
    table: &'a ColourTable,
    cells: Vec<u8>,
    path: Vec<Direction>,
    nodes: u64,
    next_check: u64,
    next_bound: u32,
    stop: &'a dyn Fn(u64) -> bool,
    stopped: bool,
}

impl Dfs<'_> {
    fn solved(&self) -> bool {
        self.cells.iter().enumerate().all(|(c, &t)| c == t as usize)
    }

    /// Searches below a node at MTM depth `g` (its `views`) whose last
    /// move went along `axis` (true: horizontal).
    fn visit(
        &mut self,
        blank: usize,
        views: &Views,
        axis: Option<bool>,
        g: u32,
        bound: u32,
    ) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + (1 << 14);
            self.stopped = (self.stop)(self.nodes);
        }
        if self.stopped {
            return false;
        }
        let table = self.table;
        for (d, line) in &table.lines[blank] {
            let horizontal = is_horizontal(*d);
            // Two moves along one line in a row make one move, or none.
            if axis == Some(horizontal) {
                continue;
            }
            let mut b = blank;
            let mut slid = 0;
            let mut found = false;
            let mut child = *views;
            for &to in line {
                let to = to as usize;
                table.slide(&mut child.word, self.cells[to], to, b);
                self.cells.swap(b, to);
                b = to;
                slid += 1;
                self.path.push(*d);
                self.nodes += 1;
                // The child is pruned as soon as one view's distance
                // exceeds what the bound leaves; that distance is a lower
                // bound on the child's, so the next bound stays safe.
                let limit = bound.saturating_sub(g + 1);
                match table.step((views, blank), &mut child, b, horizontal, limit) {
                    Err(h) => self.next_bound = self.next_bound.min(g + 1 + h),
                    Ok(()) if g < bound => {
                        let h = child.bound();
                        if (h == 0 && self.solved())
                            || self.visit(b, &child, Some(horizontal), g + 1, bound)
                        {
                            found = true;
                            break;
                        }
                    }
                    Ok(()) => self.next_bound = self.next_bound.min(g + 1 + child.bound()),
                }
                if self.stopped {
                    break;
                }
            }
            if found {
                return true;
            }
            // Slide the run back: the blank walks back along the line.
            for j in (0..slid).rev() {
                let before = if j == 0 { blank } else { line[j - 1] as usize };
                self.cells.swap(before, line[j] as usize);
                self.path.pop();
            }
            if self.stopped {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, VecDeque};

    /// The MTM distance of every canonical board (`cells[c]`: the goal cell
    /// of the tile on `c`) to the goal with the blank on `goal_blank`, by a
    /// breadth-first search over whole boards: independent of the painting.
    fn exact(size: Size, goal_blank: usize) -> HashMap<Vec<u8>, u32> {
        let goal: Vec<u8> = (0..size.cells() as u8).collect();
        let lines = lines(size);
        let mut seen = HashMap::from([(goal.clone(), 0)]);
        let mut queue = VecDeque::from([(goal, goal_blank)]);
        while let Some((cells, blank)) = queue.pop_front() {
            let d = seen[&cells];
            for (_, line) in &lines[blank] {
                let (mut next, mut b) = (cells.clone(), blank);
                for &to in line {
                    next.swap(b, to as usize);
                    b = to as usize;
                    if !seen.contains_key(&next) {
                        seen.insert(next.clone(), d + 1);
                        queue.push_back((next.clone(), b));
                    }
                }
            }
        }
        seen
    }

    fn blank_of(cells: &[u8], goal_blank: usize) -> usize {
        cells
            .iter()
            .position(|&t| t as usize == goal_blank)
            .unwrap()
    }

    #[test]
    fn the_bound_never_exceeds_the_distance_and_is_zero_only_when_painted_solved() {
        for (size, blanks) in [("3x3", 0..9), ("2x4", 0..8), ("4x2", 0..8)] {
            let size: Size = size.parse().unwrap();
            for goal_blank in blanks {
                let table = ColourTable::build(size, goal_blank, &mut |_| {}).unwrap();
                // The painted distances a byte each: the packed table's
                // walk is checked against them on every 200th board.
                let painted = breadth_first(&table.colouring, &mut |_| {});
                let distances = exact(size, goal_blank);
                assert_eq!(distances.len(), (1..=size.cells()).product::<usize>() / 2);
                let (mut bounds, mut lengths) = (0, 0);
                for (k, (cells, &d)) in distances.iter().enumerate() {
                    let blank = blank_of(cells, goal_blank);
                    let bound = (0..table.symmetries.len())
                        .map(|s| painted[table.view_index(s, cells, blank)].load(Ordering::Relaxed))
                        .max()
                        .map_or(0, u32::from);
                    if k % 200 == 0 {
                        assert_eq!(table.bound(cells, blank), bound);
                    }
                    assert!(
                        bound <= d,
                        "{size} blank {goal_blank}: {cells:?} {bound} > {d}"
                    );
                    // A move always moves the blank, so one move from the
                    // goal is never painted solved.
                    assert!(d > 1 || bound == d, "{cells:?}");
                    (bounds, lengths) = (bounds + bound, lengths + d);
                }
                // Far stronger than the STM bound over the longest run.
                assert!(
                    bounds * 10 > lengths * 7,
                    "{size} {goal_blank}: {bounds} {lengths}"
                );
            }
        }
    }

    #[test]
    fn the_next_sequence_is_the_next_rank() {
        let colouring = Colouring::new("3x4".parse().unwrap(), 11).unwrap();
        let (mut sequence, mut expected) = (vec![0u8; 11], vec![0u8; 11]);
        colouring.decode(0, &mut sequence);
        for rank in 1..colouring.arrangements as u32 {
            next_sequence(&mut sequence);
            colouring.decode(rank, &mut expected);
            assert_eq!(sequence, expected, "{rank}");
        }
    }

    #[test]
    fn painted_boards_round_trip_through_their_index() {
        let size: Size = "4x4".parse().unwrap();
        for goal_blank in [15, 0, 5] {
            let colouring = Colouring::new(size, goal_blank).unwrap();
            let mut board = vec![0; 16];
            let step = colouring.entries() / 997;
            for index in (0..colouring.entries()).step_by(step) {
                let blank = colouring.board(index, &mut board);
                assert_eq!(colouring.index(blank, |c| board[c]), index);
                // The same index from the board packed two bits a cell.
                let word = (0..16)
                    .filter(|&c| c != blank)
                    .fold(0u64, |w, c| w | u64::from(board[c]) << (2 * c));
                assert_eq!(colouring.packed_index(word, blank), index);
            }
        }
        // The quadrant painting with the blank's goal in a corner.
        let colouring = Colouring::new(size, 15).unwrap();
        let mut counts = colouring.counts.clone();
        counts.sort_unstable();
        assert_eq!(counts, [2, 4, 4, 5]);
        assert_eq!(colouring.entries(), 151_351_200);
    }

    #[test]
    fn packed_residues_walk_down_to_the_breadth_first_distances() {
        for (size, goal_blank) in [("3x3", 8), ("2x4", 3), ("3x4", 11)] {
            let size: Size = size.parse().unwrap();
            let colouring = Colouring::new(size, goal_blank).unwrap();
            let mut levels = Vec::new();
            let distances = breadth_first(&colouring, &mut |p| levels.push(p.depth));
            let table = ColourTable::build(size, goal_blank, &mut |_| {}).unwrap();
            let step = (distances.len() / 5000).max(1);
            for (index, d) in distances.iter().enumerate().step_by(step) {
                let d = d.load(Ordering::Relaxed);
                assert_ne!(d, UNSEEN, "{size}: every painted board is reached");
                assert_eq!(table.distance(index), u32::from(d), "{size} {index}");
            }
            assert!(levels.windows(2).all(|w| w[0] <= w[1]));
        }
    }

    #[test]
    fn a_move_updates_every_view_as_a_fresh_look_up_does() {
        for (size, goal_blank) in [("3x4", 11), ("4x3", 0), ("3x3", 4)] {
            let size: Size = size.parse().unwrap();
            let table = ColourTable::build(size, goal_blank, &mut |_| {}).unwrap();
            let mut rng = crate::Rng::new(7);
            let mut cells: Vec<u8> = (0..size.cells() as u8).collect();
            let mut blank = goal_blank;
            let mut views = table.views(&cells, blank);
            for _ in 0..3000 {
                let moves = &table.lines[blank];
                let (d, line) = &moves[rng.below(moves.len() as u64) as usize];
                let run = 1 + rng.below(line.len() as u64) as usize;
                let (mut stepped, before) = (views, blank);
                for &to in &line[..run] {
                    table.slide(&mut stepped.word, cells[to as usize], to as usize, blank);
                    cells.swap(blank, to as usize);
                    blank = to as usize;
                }
                let horizontal = is_horizontal(*d);
                table
                    .step((&views, before), &mut stepped, blank, horizontal, u32::MAX)
                    .unwrap();
                views = table.views(&cells, blank);
                let k = table.symmetries.len();
                assert_eq!(stepped.index[..k], views.index[..k], "{size} {d:?}");
                assert_eq!(stepped.distance[..k], views.distance[..k], "{size}");
                assert_eq!(stepped.word[..k], views.word[..k], "{size}");
            }
        }
    }

    #[test]
    fn a_table_reads_back_from_its_bytes_and_damage_is_refused() {
        let size: Size = "3x4".parse().unwrap();
        let table = ColourTable::build(size, 11, &mut |_| {}).unwrap();
        let bytes = table.to_bytes();
        let back = ColourTable::from_bytes(size, 11, &bytes).unwrap();
        assert_eq!(back.packed, table.packed);
        let mut damaged = bytes.clone();
        damaged[bytes.len() / 2] ^= 0x10;
        assert_eq!(
            ColourTable::from_bytes(size, 11, &damaged).err(),
            Some(LoadError::Checksum)
        );
        assert!(matches!(
            ColourTable::from_bytes(size, 11, &bytes[..bytes.len() - 1]),
            Err(LoadError::Length { .. })
        ));
        assert!(matches!(
            ColourTable::from_bytes(size, 0, &bytes),
            Err(LoadError::OtherPattern { .. })
        ));
        assert!(matches!(
            ColourTable::from_bytes(size, 11, b"not a table"),
            Err(LoadError::NotADatabase)
        ));
    }

    #[test]
    fn the_search_finds_shortest_solutions() {
        for (size, goal_blank) in [("3x3", 8), ("3x3", 4), ("2x4", 0)] {
            let size: Size = size.parse().unwrap();
            let table = ColourTable::build(size, goal_blank, &mut |_| {}).unwrap();
            let distances = exact(size, goal_blank);
            for (cells, &d) in distances.iter().step_by(97) {
                let start = Canonical {
                    size,
                    cells: cells.clone(),
                    blank: blank_of(cells, goal_blank),
                    goal_blank,
                };
                let (moves, _) = search(&table, &start, &|_| false).unwrap();
                assert_eq!(moves.mtm_len() as u32, d, "{cells:?}");
                // The moves take the board to the goal.
                let (mut cells, mut blank) = (cells.clone(), start.blank);
                for m in moves.0 {
                    let (dx, dy) = m.blank_step();
                    let (x, y) = size.coords(blank);
                    let to = size.cell(
                        x.checked_add_signed(dx).unwrap(),
                        y.checked_add_signed(dy).unwrap(),
                    );
                    cells.swap(blank, to);
                    blank = to;
                }
                assert!(cells.iter().enumerate().all(|(c, &t)| c == t as usize));
            }
        }
    }
}
