//! Additive pattern databases (Korf & Felner 2002; Felner, Korf & Hanan
//! 2004).
//!
//! A pattern is a set of tiles, named by their goal cells. Its database
//! holds, for every placement of those tiles, the fewest moves *of pattern
//! tiles* that bring them home — the other tiles are indistinguishable and
//! their moves are free. Because only pattern moves are counted, the values
//! of disjoint patterns add up to a lower bound of the true distance.
//!
//! Construction is a breadth-first search over (placement, blank) states
//! in which moving a non-pattern tile costs nothing: every blank cell of
//! one connected free region is equivalent, so a state is expanded once per
//! region (found by flood fill on bit masks) and only pattern-tile moves
//! cost a step. The search keeps two bits per (placement, free cell):
//! unseen, in the current layer, in the next layer, done — 1 GiB for the
//! 8-tile pattern of the 4 × 4 board, and the values one byte per
//! placement (16!/8! = 518,918,400 bytes).
//!
//! The search is seeded with the goal placement and the blank anywhere, so
//! a database does not depend on the goal's blank cell: one database serves
//! every goal layout and, through board symmetries (see
//! the `heuristic` module), every congruent pattern.
//!
//! Each layer is scanned by all cores (rayon) with atomic marks.
//!
//! The engine does no I/O: [`PatternDatabase::to_bytes`] and
//! [`PatternDatabase::from_bytes`] (format version and checksum checked)
//! let the front end cache databases on disk.

use crate::Size;
use rayon::prelude::*;
use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// A pattern on a board shape: the goal cells of its tiles, sorted, and
/// where the goal's blank is when that matters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PatternSpec {
    size: Size,
    cells: Vec<u8>,
    /// The goal blank cell, kept only when the pattern's home cells cut the
    /// free cells into several regions (e.g. tiles 1 and 4 home wall the
    /// blank into the corner of a 4 × 4 blank-first goal): the search is
    /// then seeded from the blank's region alone, which gives larger,
    /// still admissible values. Otherwise every free cell is equivalent.
    blank: Option<u8>,
}

/// Boards up to this many cells can carry pattern databases (cell sets are
/// `u32` bit masks).
pub const PDB_MAX_CELLS: usize = 32;

impl PatternSpec {
    /// `cells` are goal cells of the pattern tiles; at least one cell of
    /// the board must stay outside the pattern (for the blank).
    pub fn new(size: Size, mut cells: Vec<u8>) -> PatternSpec {
        assert!(size.cells() <= PDB_MAX_CELLS);
        cells.sort_unstable();
        cells.dedup();
        assert!(!cells.is_empty() && cells.len() < size.cells());
        assert!(cells.iter().all(|&c| (c as usize) < size.cells()));
        PatternSpec {
            size,
            cells,
            blank: None,
        }
    }

    /// The pattern for a goal whose blank is on `goal_blank` (outside the
    /// pattern): seeded from the blank's region if the free cells of the
    /// goal placement are not all connected.
    pub fn with_goal_blank(size: Size, cells: Vec<u8>, goal_blank: u8) -> PatternSpec {
        let mut spec = PatternSpec::new(size, cells);
        assert!(!spec.cells.contains(&goal_blank));
        let occupied = spec.cells.iter().fold(0u32, |m, &c| m | 1 << c);
        let free = full_mask(size.cells()) & !occupied;
        if Geometry::new(size).region(goal_blank as u32, free) != free {
            spec.blank = Some(goal_blank);
        }
        spec
    }

    /// The goal blank cell the database is seeded from, if it matters.
    pub fn goal_blank(&self) -> Option<u8> {
        self.blank
    }

    /// The board size of the pattern.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The goal cells whose tiles the pattern tracks.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Number of placements: n! / (n − k)!.
    pub fn entries(&self) -> usize {
        let n = self.size.cells();
        (0..self.cells.len()).map(|j| n - j).product()
    }

    /// A file name that identifies the pattern, e.g. `4x4-0.1.2.3.4.5.6.pdb`.
    pub fn file_name(&self) -> String {
        let cells: Vec<String> = self.cells.iter().map(ToString::to_string).collect();
        match self.blank {
            None => format!("{}-{}.pdb", self.size, cells.join(".")),
            Some(b) => format!("{}-{}-b{b}.pdb", self.size, cells.join(".")),
        }
    }
}

impl fmt::Display for PatternSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} pattern of {} tiles {:?}",
            self.size,
            self.cells.len(),
            self.cells
        )
    }
}

/// Lower bounds for one pattern, one byte per placement.
pub struct PatternDatabase {
    spec: PatternSpec,
    values: Vec<u8>,
}

/// How far a build has come: placements with a value, out of all.
#[derive(Clone, Copy, Debug)]
pub struct BuildProgress {
    /// The breadth-first depth being filled.
    pub depth: u32,
    /// Entries filled so far.
    pub filled: u64,
    /// Entries in the whole table.
    pub entries: u64,
}

/// Why stored bytes are not a usable database; the caller rebuilds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs)] // each variant's message names its fields
pub enum LoadError {
    #[error("not a pattern database file (bad magic or too short)")]
    /// The bytes do not start as a table file.
    NotADatabase,
    #[error("format version {found}, this build reads version {expected}")]
    Version { found: u32, expected: u32 },
    #[error("the file holds another pattern than {expected}")]
    OtherPattern { expected: String },
    #[error("the file is {found} bytes, {expected} expected")]
    Length { found: usize, expected: usize },
    #[error("checksum mismatch: the file is corrupt")]
    /// The checksum does not match: the file is damaged.
    Checksum,
    #[error("the goal placement has a non-zero value: the file is corrupt")]
    /// An entry has a value no table can hold.
    Inconsistent,
}

const MAGIC: &[u8; 8] = b"TSSRPDB\0";
/// Bump whenever the layout or the meaning of the values changes.
pub const FORMAT_VERSION: u32 = 1;
const UNSET: u8 = u8::MAX;

impl PatternDatabase {
    /// The pattern this table is for.
    pub fn spec(&self) -> &PatternSpec {
        &self.spec
    }

    /// The lower bound for the placement with this index (see [`index`]).
    #[inline]
    pub(crate) fn value(&self, index: usize) -> u8 {
        self.values[index]
    }

    /// Bytes held in memory.
    pub fn memory(&self) -> usize {
        self.values.len()
    }

    /// Builds the database by breadth-first search; `progress` is called
    /// now and then (and once at the end).
    pub fn build(spec: &PatternSpec, progress: &mut dyn FnMut(BuildProgress)) -> PatternDatabase {
        Builder::new(spec).run(progress)
    }

    /// Serialised form: header (magic, version, pattern), values, checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = header(&self.spec);
        bytes.extend_from_slice(&self.values);
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote, for `spec`; anything
    /// stale or damaged is an error, never a wrong database.
    pub fn from_bytes(
        spec: &PatternSpec,
        mut bytes: Vec<u8>,
    ) -> Result<PatternDatabase, LoadError> {
        let head = header(spec);
        if bytes.len() < head.len() + 8 || bytes[..8] != MAGIC[..] {
            return Err(LoadError::NotADatabase);
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(LoadError::Version {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        if bytes[..head.len()] != head[..] {
            return Err(LoadError::OtherPattern {
                expected: spec.to_string(),
            });
        }
        let expected = head.len() + spec.entries() + 8;
        if bytes.len() != expected {
            return Err(LoadError::Length {
                found: bytes.len(),
                expected,
            });
        }
        let body = bytes.len() - 8;
        let stored = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
        if checksum(&bytes[..body]) != stored {
            return Err(LoadError::Checksum);
        }
        bytes.truncate(body);
        bytes.drain(..head.len());
        let database = PatternDatabase {
            spec: spec.clone(),
            values: bytes,
        };
        if database.values[index(spec.cells(), spec.size.cells())] != 0 {
            return Err(LoadError::Inconsistent);
        }
        Ok(database)
    }
}

fn header(spec: &PatternSpec) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&(spec.size.width() as u16).to_le_bytes());
    bytes.extend_from_slice(&(spec.size.height() as u16).to_le_bytes());
    // The pattern size; its top bit flags a goal blank cell after the cells
    // (databases seeded from every free cell keep the original layout).
    match spec.blank {
        None => {
            bytes.push(spec.cells.len() as u8);
            bytes.extend_from_slice(&spec.cells);
        }
        Some(b) => {
            bytes.push(spec.cells.len() as u8 | 0x80);
            bytes.extend_from_slice(&spec.cells);
            bytes.push(b);
        }
    }
    bytes.extend_from_slice(&(spec.entries() as u64).to_le_bytes());
    bytes
}

/// A 64-bit multiplicative hash over 8-byte words: fast enough for half a
/// gigabyte, and any damaged word changes it.
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        h = (h.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    for &b in chunks.remainder() {
        h = (h.rotate_left(23) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h ^ (h >> 29)
}

/// Index of a placement (`cells[j]` = the cell of pattern tile `j`) among
/// the n!/(n−k)! placements: the partial Lehmer code in mixed radix.
#[inline]
pub(crate) fn index(cells: &[u8], n: usize) -> usize {
    let mut used = 0u32;
    let mut r = 0usize;
    for (j, &c) in cells.iter().enumerate() {
        let below = (used & ((1u32 << c) - 1)).count_ones() as usize;
        r = r * (n - j) + (c as usize - below);
        used |= 1 << c;
    }
    r
}

/// Inverse of [`index`]; returns the occupied-cell mask.
fn placement(mut r: usize, n: usize, cells: &mut [u8]) -> u32 {
    let k = cells.len();
    for j in (0..k).rev() {
        let radix = n - j;
        cells[j] = (r % radix) as u8;
        r /= radix;
    }
    let mut used = 0u32;
    let all = full_mask(n);
    for c in cells.iter_mut() {
        let mut free = all & !used;
        for _ in 0..*c {
            free &= free - 1;
        }
        *c = free.trailing_zeros() as u8;
        used |= 1 << *c;
    }
    used
}

fn full_mask(n: usize) -> u32 {
    if n == 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Cell adjacency as bit masks, for flood fills.
struct Geometry {
    width: usize,
    not_first_column: u32,
    not_last_column: u32,
}

impl Geometry {
    fn new(size: Size) -> Geometry {
        let (mut not_first_column, mut not_last_column) = (0u32, 0u32);
        for cell in 0..size.cells() {
            let (x, _) = size.coords(cell);
            if x > 0 {
                not_first_column |= 1 << cell;
            }
            if x + 1 < size.width() {
                not_last_column |= 1 << cell;
            }
        }
        Geometry {
            width: size.width(),
            not_first_column,
            not_last_column,
        }
    }

    /// The cells of `free` reachable from `from` through `free`.
    fn region(&self, from: u32, free: u32) -> u32 {
        let mut region = 1u32 << from;
        loop {
            let grown = (region
                | (region << 1) & self.not_first_column
                | (region >> 1) & self.not_last_column
                | region << self.width
                | region >> self.width)
                & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// Two bits per (placement, free cell) and the values being filled,
/// shared by the worker threads. Every layer writes the same value
/// (depth + 1) and marks only move forward (unseen → next → current →
/// done), so the result does not depend on how the work is split.
struct Builder {
    spec: PatternSpec,
    n: usize,
    free: usize,
    all: u32,
    geometry: Geometry,
    neighbours: Vec<u32>,
    marks: Vec<AtomicU64>,
    values: Vec<AtomicU8>,
    filled: AtomicU64,
}

const UNSEEN: u64 = 0;
const CURRENT: u64 = 1;
const NEXT: u64 = 2;
const DONE: u64 = 3;
const LOW_BITS: u64 = 0x5555_5555_5555_5555;
/// Words of marks scanned between two progress reports.
const BATCH_WORDS: usize = 1 << 16;

impl Builder {
    fn new(spec: &PatternSpec) -> Builder {
        let size = spec.size;
        let n = size.cells();
        let k = spec.cells.len();
        let mut neighbours = vec![0u32; n];
        for (cell, mask) in neighbours.iter_mut().enumerate() {
            let (x, y) = size.coords(cell);
            if x > 0 {
                *mask |= 1 << (cell - 1);
            }
            if x + 1 < size.width() {
                *mask |= 1 << (cell + 1);
            }
            if y > 0 {
                *mask |= 1 << (cell - size.width());
            }
            if y + 1 < size.height() {
                *mask |= 1 << (cell + size.width());
            }
        }
        let entries = spec.entries();
        let free = n - k;
        Builder {
            spec: spec.clone(),
            n,
            free,
            all: full_mask(n),
            geometry: Geometry::new(size),
            neighbours,
            marks: (0..(entries * free).div_ceil(32))
                .map(|_| AtomicU64::new(0))
                .collect(),
            values: (0..entries).map(|_| AtomicU8::new(UNSET)).collect(),
            filled: AtomicU64::new(0),
        }
    }

    #[inline]
    fn mark(&self, entry: usize) -> u64 {
        self.marks[entry >> 5].load(Relaxed) >> ((entry & 31) * 2) & 3
    }

    /// Marks every cell of `region` (a subset of `free`) done in the
    /// placement whose entries start at `base`: the region's entries lie
    /// in at most two words, each written with one atomic operation.
    #[inline]
    fn set_region_done(&self, base: usize, free: u32, region: u32) {
        let (mut word, mut bits) = (base >> 5, 0u64);
        let mut rest = region;
        while rest != 0 {
            let r = rest.trailing_zeros();
            rest &= rest - 1;
            let entry = base + (free & ((1u32 << r) - 1)).count_ones() as usize;
            if entry >> 5 != word {
                self.marks[word].fetch_or(bits, Relaxed);
                (word, bits) = (entry >> 5, 0);
            }
            bits |= DONE << ((entry & 31) * 2);
        }
        self.marks[word].fetch_or(bits, Relaxed);
    }

    /// Marks `entry` for the next layer if it is unseen. Marks only move
    /// forward and a layer only adds NEXT (to unseen entries) and DONE, so
    /// an OR after an unseen read can only leave NEXT or DONE: no retry.
    #[inline]
    fn discover(&self, entry: usize) {
        let shift = (entry & 31) * 2;
        let word = &self.marks[entry >> 5];
        if word.load(Relaxed) >> shift & 3 == UNSEEN {
            word.fetch_or(NEXT << shift, Relaxed);
        }
    }

    /// The free cells reachable from `from` without crossing a pattern tile.
    fn region(&self, from: u32, free: u32) -> u32 {
        self.geometry.region(from, free)
    }

    fn run(self, progress: &mut dyn FnMut(BuildProgress)) -> PatternDatabase {
        let goal = index(&self.spec.cells, self.n);
        let occupied = self.spec.cells.iter().fold(0u32, |m, &c| m | 1 << c);
        let free = self.all & !occupied;
        let seeds = match self.spec.blank {
            Some(b) => self.region(b as u32, free),
            None => free,
        };
        for ord in 0..self.free {
            let mut cell = free;
            for _ in 0..ord {
                cell &= cell - 1;
            }
            if seeds & cell & cell.wrapping_neg() == 0 {
                continue;
            }
            let entry = goal * self.free + ord;
            self.marks[entry >> 5].fetch_or(CURRENT << ((entry & 31) * 2), Relaxed);
        }
        let mut depth = 0u32;
        loop {
            let mut any = false;
            for batch in (0..self.marks.len()).step_by(BATCH_WORDS) {
                let end = (batch + BATCH_WORDS).min(self.marks.len());
                // Each worker counts the placements it fills and adds
                // them once: one shared counter bumped per expansion
                // would bounce its cache line between the cores.
                let (found, filled) = (batch..end)
                    .into_par_iter()
                    .fold(
                        || (false, 0u64, vec![0u8; self.spec.cells.len()]),
                        |(any, filled, mut cells), w| {
                            let (found, more) = self.scan_word(w, depth, &mut cells);
                            (any | found, filled + more, cells)
                        },
                    )
                    .map(|(any, filled, _)| (any, filled))
                    .reduce(|| (false, 0), |a, b| (a.0 | b.0, a.1 + b.1));
                any |= found;
                self.filled.fetch_add(filled, Relaxed);
                progress(self.progress(depth));
            }
            if !any {
                break;
            }
            self.marks.par_iter().for_each(|word| {
                let w = word.load(Relaxed);
                let next = w & !(w << 1) & (LOW_BITS << 1);
                word.store(w ^ (next | next >> 1), Relaxed);
            });
            depth += 1;
        }
        progress(self.progress(depth));
        PatternDatabase {
            spec: self.spec,
            values: self.values.into_iter().map(AtomicU8::into_inner).collect(),
        }
    }

    /// Expands every current state in word `w`: whether there was one,
    /// and how many placements got their value.
    fn scan_word(&self, w: usize, depth: u32, cells: &mut [u8]) -> (bool, u64) {
        let word = self.marks[w].load(Relaxed);
        let mut current = word & !(word >> 1) & LOW_BITS;
        let any = current != 0;
        let mut filled = 0;
        while current != 0 {
            let bit = current.trailing_zeros() as usize;
            current &= current - 1;
            let entry = w * 32 + bit / 2;
            if self.mark(entry) == CURRENT {
                filled += u64::from(self.expand(entry, depth, cells));
            } // else its region was expanded from another of its cells
        }
        (any, filled)
    }

    fn progress(&self, depth: u32) -> BuildProgress {
        BuildProgress {
            depth,
            filled: self.filled.load(Relaxed),
            entries: self.values.len() as u64,
        }
    }

    /// Expands the region of the blank in state `entry` at `depth`: marks
    /// the region done and queues every placement one pattern move away.
    fn expand(&self, entry: usize, depth: u32, cells: &mut [u8]) -> bool {
        let index_now = entry / self.free;
        let ord = entry % self.free;
        let occupied = placement(index_now, self.n, cells);
        let free = self.all & !occupied;
        let mut blank_mask = free;
        for _ in 0..ord {
            blank_mask &= blank_mask - 1;
        }
        let region = self.region(blank_mask.trailing_zeros(), free);
        // The value is set here, when the scan reaches the placement in
        // index order, rather than at discovery: sequential writes instead
        // of one more cache miss per successor.
        let filled = self.values[index_now]
            .compare_exchange(UNSET, depth as u8, Relaxed, Relaxed)
            .is_ok();
        self.set_region_done(index_now * self.free, free, region);
        for j in 0..cells.len() {
            let c = cells[j];
            let mut targets = self.neighbours[c as usize] & region;
            while targets != 0 {
                let r = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                cells[j] = r;
                let next = index(cells, self.n);
                cells[j] = c;
                let next_free = free ^ (1u32 << r) ^ (1u32 << c);
                let o = (next_free & ((1u32 << c) - 1)).count_ones() as usize;
                self.discover(next * self.free + o);
            }
        }
        filled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_placement_are_inverse() {
        let mut cells = [0u8; 4];
        for r in [0usize, 1, 77, 16 * 15 * 14 * 13 - 1] {
            placement(r, 16, &mut cells);
            assert_eq!(index(&cells, 16), r);
        }
    }

    #[test]
    fn bytes_round_trip_and_damage_is_caught() {
        let spec = PatternSpec::new("3x3".parse().unwrap(), vec![0, 1, 2]);
        let pdb = PatternDatabase::build(&spec, &mut |_| {});
        let bytes = pdb.to_bytes();
        let back = PatternDatabase::from_bytes(&spec, bytes.clone()).unwrap();
        assert_eq!(back.values, pdb.values);

        let mut damaged = bytes.clone();
        let middle = damaged.len() / 2;
        damaged[middle] ^= 1;
        assert_eq!(
            PatternDatabase::from_bytes(&spec, damaged).err(),
            Some(LoadError::Checksum)
        );
        let mut stale = bytes.clone();
        stale[8] = 99;
        assert!(matches!(
            PatternDatabase::from_bytes(&spec, stale),
            Err(LoadError::Version { found: 99, .. })
        ));
        let other = PatternSpec::new("3x3".parse().unwrap(), vec![0, 1, 3]);
        assert!(matches!(
            PatternDatabase::from_bytes(&other, bytes.clone()),
            Err(LoadError::OtherPattern { .. })
        ));
        assert_eq!(
            PatternDatabase::from_bytes(&spec, bytes[..bytes.len() - 1].to_vec()).err(),
            Some(LoadError::Length {
                found: bytes.len() - 1,
                expected: bytes.len()
            })
        );
        assert_eq!(
            PatternDatabase::from_bytes(&spec, b"hello".to_vec()).err(),
            Some(LoadError::NotADatabase)
        );
    }
}
