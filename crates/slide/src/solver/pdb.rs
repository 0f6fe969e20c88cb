//! Additive pattern databases (Korf & Felner 2002; Felner, Korf & Hanan
//! 2004).
//!
//! A pattern is a set of tiles, named by their goal cells. Its database
//! holds, for every placement of those tiles, the fewest moves *of pattern
//! tiles* that bring them home — the other tiles are indistinguishable and
//! their moves are free. Because only pattern moves are counted, the values
//! of disjoint patterns add up to a lower bound of the true distance.
//!
//! Construction (module `pdb_build`) is a breadth-first search over
//! (placement, blank region) states in which moving a non-pattern tile
//! costs nothing: every blank cell of one connected free region is
//! equivalent, so a state is expanded once per region and only
//! pattern-tile moves cost a step.
//!
//! A value is stored as its excess over the Manhattan sum of the pattern's
//! tiles, halved, in four bits (the delta encoding of Korf and Felner's
//! later work): a pattern move changes that sum by one, so the excess is
//! even, and it is small — the 7-8 set of the 4 × 4 board is 288 MB where
//! a byte per value took 577 MB. The lookup adds the Manhattan sum back,
//! computed in the same pass as the index.
//!
//! The search is seeded with the goal placement and the blank anywhere, so
//! a database does not depend on the goal's blank cell: one database serves
//! every goal layout and, through board symmetries (see
//! the `heuristic` module), every congruent pattern.
//!
//! The engine does no I/O: [`PatternDatabase::to_bytes`] and
//! [`PatternDatabase::from_bytes`] (format version and checksum checked)
//! let the front end cache databases on disk. `from_bytes` takes any
//! owner of the bytes (a vector read from the file, or other storage a
//! front end may choose) and reads the values where they are.

use crate::Size;
use std::fmt;
use std::sync::Arc;

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

    /// The Manhattan distance of pattern tile `j` on cell `c` from its goal
    /// cell, at `j * n + c`: what a stored value is the excess over.
    pub(super) fn manhattan(&self) -> Vec<u8> {
        let n = self.size.cells();
        self.cells
            .iter()
            .flat_map(|&goal| (0..n).map(move |cell| self.size.distance(goal as usize, cell) as u8))
            .collect()
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
        )?;
        // Two databases may share their tiles and differ by the goal blank
        // they are seeded from: without it they would read as one table
        // announced twice.
        match self.blank {
            Some(blank) => write!(f, ", goal blank on cell {blank}"),
            None => Ok(()),
        }
    }
}

/// The bytes a database reads its values from: its own, or whatever
/// storage `from_bytes` was given.
pub(super) type Storage = Box<dyn AsRef<[u8]> + Send + Sync>;

/// Lower bounds for one pattern, four bits per placement.
pub struct PatternDatabase {
    spec: PatternSpec,
    storage: Storage,
    /// Where the packed values start in `storage` (after a file header).
    offset: usize,
    /// Manhattan distance of pattern tile `j` on cell `c` from its goal
    /// cell, at `j * n + c`.
    manhattan: Vec<u8>,
    /// Values the build capped at the largest storable excess (0 for a
    /// table read back: the file does not record it).
    capped: u64,
    /// For tables of at most [`WIDE_MAX_ENTRIES`], every value a byte:
    /// a few megabytes that spare each lookup the Manhattan sum (the
    /// small set's search is 15 % faster so).
    wide: Option<Arc<[u8]>>,
}

/// Tables up to this many entries are also held a byte per value.
const WIDE_MAX_ENTRIES: usize = 1 << 24;

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
/// Bump whenever the layout or the meaning of the values changes
/// (2: four-bit excesses over the Manhattan sum; 1 was a byte per value).
pub const FORMAT_VERSION: u32 = 2;

impl PatternDatabase {
    /// The pattern this table is for.
    pub fn spec(&self) -> &PatternSpec {
        &self.spec
    }

    /// A database reading its values from `storage`, from `offset` on.
    pub(super) fn new(
        spec: &PatternSpec,
        storage: Storage,
        offset: usize,
        capped: u64,
    ) -> PatternDatabase {
        let mut database = PatternDatabase {
            spec: spec.clone(),
            storage,
            offset,
            manhattan: spec.manhattan(),
            capped,
            wide: None,
        };
        if spec.entries() <= WIDE_MAX_ENTRIES {
            database.wide = Some(database.widen().into());
        }
        database
    }

    /// Every value a byte, in index order.
    fn widen(&self) -> Vec<u8> {
        let mut wide = Vec::with_capacity(self.spec.entries());
        self.widen_tile(0, 0, 0, &mut wide);
        wide
    }

    /// Appends the values of every placement of tiles `j..` given the
    /// cells `used` by the earlier ones and their Manhattan sum `md`: each
    /// tile over the free cells in increasing order, the order of its
    /// digit, so the values come in index order.
    fn widen_tile(&self, j: usize, used: u32, md: u8, wide: &mut Vec<u8>) {
        let n = self.spec.size.cells();
        let last = j + 1 == self.spec.cells.len();
        let mut free = full_mask(n) & !used;
        while free != 0 {
            let cell = free.trailing_zeros();
            free &= free - 1;
            let md = md + self.manhattan[j * n + cell as usize];
            if last {
                let r = wide.len();
                let byte = (*self.storage).as_ref()[self.offset + (r >> 1)];
                wide.push(md + 2 * (byte >> ((r & 1) * 4) & 15));
            } else {
                self.widen_tile(j + 1, used | 1 << cell, md, wide);
            }
        }
    }

    fn packed(&self) -> &[u8] {
        &(*self.storage).as_ref()[self.offset..][..self.spec.entries().div_ceil(2)]
    }

    /// The lower bound for a placement: `cells[j]` is the cell of pattern
    /// tile `j` (the tile whose goal cell is `spec().cells()[j]`).
    #[inline]
    pub(crate) fn value(&self, cells: &[u8]) -> u8 {
        let n = self.spec.size.cells();
        match &self.wide {
            Some(wide) => wide[index(cells, n)],
            None => self.packed_value(cells),
        }
    }

    /// Every value a byte, in [`index`] order, when the table is small
    /// enough to be held so (shared, for a lookup that keeps them at
    /// hand).
    pub(crate) fn wide_shared(&self) -> Option<Arc<[u8]>> {
        self.wide.clone()
    }

    /// [`value`](Self::value) from the four-bit values.
    #[inline]
    fn packed_value(&self, cells: &[u8]) -> u8 {
        let n = self.spec.size.cells();
        let (mut used, mut r, mut md) = (0u32, 0usize, 0u8);
        for (j, &c) in cells.iter().enumerate() {
            let below = (used & ((1u32 << c) - 1)).count_ones() as usize;
            r = r * (n - j) + (c as usize - below);
            used |= 1 << c;
            md += self.manhattan[j * n + c as usize];
        }
        let byte = (*self.storage).as_ref()[self.offset + (r >> 1)];
        md + 2 * (byte >> ((r & 1) * 4) & 15)
    }

    /// Bytes of values (held in memory, or mapped).
    pub fn memory(&self) -> usize {
        self.spec.entries().div_ceil(2) + self.wide.as_ref().map_or(0, |wide| wide.len())
    }

    /// Placements whose value the build had to cap (their excess over the
    /// Manhattan sum is more than the four bits hold): still lower
    /// bounds, only weaker. Zero for every table tessera uses (and for a
    /// table read back from bytes, which do not record it).
    pub fn capped(&self) -> u64 {
        self.capped
    }

    /// Serialised form: header (magic, version, pattern), values, checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = header(&self.spec);
        bytes.extend_from_slice(self.packed());
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote, for `spec`, from
    /// any owner of the bytes (a vector, a mapped file); anything stale or
    /// damaged is an error, never a wrong database.
    pub fn from_bytes(
        spec: &PatternSpec,
        bytes: impl AsRef<[u8]> + Send + Sync + 'static,
    ) -> Result<PatternDatabase, LoadError> {
        let head = header(spec);
        check(spec, &head, bytes.as_ref())?;
        let database = PatternDatabase::new(spec, Box::new(bytes), head.len(), 0);
        if database.value(spec.cells()) != 0 {
            return Err(LoadError::Inconsistent);
        }
        Ok(database)
    }
}

fn check(spec: &PatternSpec, head: &[u8], bytes: &[u8]) -> Result<(), LoadError> {
    check_file(head, spec.entries().div_ceil(2), bytes, || spec.to_string())
}

/// Checks a cached table file against what it must be: `head` (its first
/// 12 bytes the magic and the format version), then `body` bytes, then a
/// checksum of all before it. `name` names the table expected, for the
/// error of a file written for another. The pattern databases and the
/// colouring table share this file layout.
pub(super) fn check_file(
    head: &[u8],
    body: usize,
    bytes: &[u8],
    name: impl FnOnce() -> String,
) -> Result<(), LoadError> {
    if bytes.len() < head.len() + 8 || bytes[..8] != head[..8] {
        return Err(LoadError::NotADatabase);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    let expected = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
    if version != expected {
        return Err(LoadError::Version {
            found: version,
            expected,
        });
    }
    if bytes[..head.len()] != head[..] {
        return Err(LoadError::OtherPattern { expected: name() });
    }
    let expected = head.len() + body + 8;
    if bytes.len() != expected {
        return Err(LoadError::Length {
            found: bytes.len(),
            expected,
        });
    }
    let end = bytes.len() - 8;
    let stored = u64::from_le_bytes(bytes[end..].try_into().expect("8 bytes"));
    if checksum(&bytes[..end]) != stored {
        return Err(LoadError::Checksum);
    }
    Ok(())
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

/// Inverse of [`index`]; returns the occupied-cell mask. (The builder
/// decodes faster, with reciprocals; this is the plain reference.)
#[cfg(test)]
pub(super) fn placement(mut r: usize, n: usize, cells: &mut [u8]) -> u32 {
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

pub(super) fn full_mask(n: usize) -> u32 {
    if n == 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Cell adjacency as bit masks, for flood fills.
pub(super) struct Geometry {
    width: usize,
    not_first_column: u32,
    not_last_column: u32,
}

impl Geometry {
    pub(super) fn new(size: Size) -> Geometry {
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
    pub(super) fn region(&self, from: u32, free: u32) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_that_differ_only_by_the_goal_blank_are_named_apart() {
        let size: Size = "5x5".parse().unwrap();
        let column = vec![1, 6, 11, 16, 21];
        let left = PatternSpec::with_goal_blank(size, column.clone(), 0);
        let right = PatternSpec::with_goal_blank(size, column, 4);
        assert_ne!(left.file_name(), right.file_name());
        assert_ne!(left.to_string(), right.to_string());
        assert!(left.to_string().ends_with("goal blank on cell 0"), "{left}");
        let plain = PatternSpec::new(size, vec![0, 1, 2, 3, 4]);
        assert_eq!(plain.to_string(), "5x5 pattern of 5 tiles [0, 1, 2, 3, 4]");
    }

    #[test]
    fn index_and_placement_are_inverse() {
        let mut cells = [0u8; 4];
        for r in [0usize, 1, 77, 16 * 15 * 14 * 13 - 1] {
            placement(r, 16, &mut cells);
            assert_eq!(index(&cells, 16), r);
        }
    }

    #[test]
    fn the_byte_values_equal_the_four_bit_ones() {
        for (size, cells) in [("4x4", vec![0, 1, 2, 4, 5]), ("3x4", vec![1, 3, 4, 6, 7])] {
            let spec = PatternSpec::new(size.parse().unwrap(), cells);
            let database = PatternDatabase::build(&spec, &mut |_| {});
            let wide = database.wide.as_ref().expect("a small table is widened");
            let mut at = vec![0u8; spec.cells().len()];
            let mut largest = 0;
            for (r, &value) in wide.iter().enumerate() {
                placement(r, spec.size().cells(), &mut at);
                assert_eq!(database.packed_value(&at), value, "{spec} {at:?}");
                largest = largest.max(value);
            }
            assert_eq!(wide.len(), spec.entries());
            assert!(largest > 10, "{spec}: {largest}");
        }
    }

    #[test]
    fn bytes_round_trip_and_damage_is_caught() {
        let spec = PatternSpec::new("3x3".parse().unwrap(), vec![0, 1, 2]);
        let pdb = PatternDatabase::build(&spec, &mut |_| {});
        let bytes = pdb.to_bytes();
        let back = PatternDatabase::from_bytes(&spec, bytes.clone()).unwrap();
        assert_eq!(back.packed(), pdb.packed());

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
