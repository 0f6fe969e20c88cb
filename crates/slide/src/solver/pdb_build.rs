//! Building a pattern database: a breadth-first search over
//! (placement, blank region) states in which only pattern-tile moves cost
//! a step (Felner, Korf & Hanan 2004).
//!
//! The search writes the final table as it goes, four bits per placement,
//! and keeps beside it one bit per (placement, free cell) — the cells whose
//! blank region has been reached — and two bits per placement for later
//! regions. For the 8-tile pattern of the 4 × 4 board that is 259 MB of
//! values, 519 MB of marks and 130 MB of flags, where two bits per
//! (placement, free cell) and a byte per value took 1.5 GB.
//!
//! Two facts keep the state that small:
//! - **Parity.** A pattern move takes one tile one cell, so it changes the
//!   pattern's Manhattan sum by exactly one: every state's distance has the
//!   parity of its placement's Manhattan sum, and the two ends of a move lie
//!   one layer apart. While layer `d` is expanded, a placement is therefore
//!   unreached, finished, or waiting with distance `d` or `d + 1`: a nibble
//!   code for each parity says which, and no distance needs storing.
//! - **The first region reached gives the value.** The lookup takes the
//!   minimum over blank regions, which is the distance of the first one
//!   reached. A region of a finished placement reached later (at a
//!   distance of the same parity, two or more layers on) is marked at
//!   once and flagged for the next layer, one flag per parity, so a layer
//!   never mistakes it for its own; that layer expands the placement's
//!   regions again, the old ones finding nothing new.
//!
//! A finished placement holds its excess over the Manhattan sum, halved
//! (the excess is even by the parity above), in 0..=12; larger excesses are
//! capped, which keeps the value a lower bound.

use super::grid::Grid;
use super::pdb::{full_mask, index, Geometry, PatternDatabase, PatternSpec};
use super::BuildProgress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Nibble codes of a placement during the build; 0..=[`MAX_EXCESS`] are
/// finished values.
const UNSET: u64 = 15;
const WAITING_ODD: u64 = 14;
const WAITING_EVEN: u64 = 13;
/// The largest stored half excess over the Manhattan sum.
pub(super) const MAX_EXCESS: u8 = 12;
/// Words of values scanned between two progress reports.
const BATCH_WORDS: usize = 1 << 16;
/// Words set up between two questions to the stop hook (32 MB).
const SETUP_WORDS: usize = 1 << 22;
const NIBBLES: u64 = 0x1111_1111_1111_1111;
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

impl PatternDatabase {
    /// Builds the database by breadth-first search; `progress` is called
    /// now and then (and once at the end).
    pub fn build(spec: &PatternSpec, progress: &mut dyn FnMut(BuildProgress)) -> PatternDatabase {
        PatternDatabase::build_until(spec, progress, &|| false).expect("a build never stopped")
    }

    /// Like [`PatternDatabase::build`], giving up (`None`) once `stop`
    /// returns true: it is asked every [`SETUP_WORDS`] words while the
    /// build's memory is set up (900 MB for the 8-tile table of 4 × 4,
    /// seconds to clear), then whenever `progress` is told, every
    /// [`BATCH_WORDS`] words of a layer (well under a second apart on
    /// 4 × 4).
    pub fn build_until(
        spec: &PatternSpec,
        progress: &mut dyn FnMut(BuildProgress),
        stop: &dyn Fn() -> bool,
    ) -> Option<PatternDatabase> {
        let (packed, capped) = Builder::new(spec, stop)?.run(progress, stop)?;
        Some(PatternDatabase::new(spec, Box::new(packed), 0, capped))
    }
}

fn waiting(depth: u32) -> u64 {
    if depth.is_multiple_of(2) {
        WAITING_EVEN
    } else {
        WAITING_ODD
    }
}

/// Shared by the worker threads: the values (16 placements a word) and the
/// reached free cells (`mask_bits` a placement), both only ever added to.
struct Builder {
    spec: PatternSpec,
    n: usize,
    all: u32,
    geometry: Geometry,
    neighbours: Vec<u32>,
    /// Manhattan distance of pattern tile `j` on cell `c` from its goal
    /// cell, at `j * n + c`.
    manhattan: Vec<u8>,
    /// The weight of pattern tile `j`'s digit in a placement's index.
    weights: Vec<usize>,
    /// `2^64 / (n − j)` rounded up: division by tile `j`'s radix as one
    /// wide multiplication (the high half), exact for indices below 2^32.
    reciprocals: Vec<u128>,
    values: Vec<AtomicU64>,
    masks: Vec<AtomicU64>,
    mask_bits: usize,
    /// Two bits a placement (one per parity of depth): a finished
    /// placement has a later region waiting at the next depth of that
    /// parity.
    later: Vec<AtomicU64>,
    entries: usize,
    filled: AtomicU64,
}

/// A worker's decoded placement. Placements are met in index order, and
/// consecutive ones share all but the last tile, so the other tiles'
/// cells are kept and reused.
struct Scratch {
    cells: Vec<u8>,
    /// The index of the first tiles' placement now in `cells`.
    prefix: usize,
    /// Their cells.
    prefix_used: u32,
}

/// What one worker did in a layer.
#[derive(Default)]
struct Work {
    /// Placements reached for the first time (they wait for the next layer).
    filled: u64,
    /// Placements whose value was capped.
    capped: u64,
    /// Later regions reached (a region counted once per discovery).
    later: u64,
}

impl Work {
    fn merge(mut self, other: Work) -> Work {
        self.filled += other.filled;
        self.capped += other.capped;
        self.later += other.later;
        self
    }
}

/// `len` words holding `value`, set up a slice at a time so that `stop`
/// is heard; `None` if it said to stop.
fn words(len: usize, value: u64, stop: &dyn Fn() -> bool) -> Option<Vec<AtomicU64>> {
    let mut words = Vec::with_capacity(len);
    while words.len() < len {
        if stop() {
            return None;
        }
        let end = (words.len() + SETUP_WORDS).min(len);
        words.extend((words.len()..end).map(|_| AtomicU64::new(value)));
    }
    Some(words)
}

impl Builder {
    /// The builder with nothing reached yet; `None` if `stop` said so
    /// while its memory was set up.
    fn new(spec: &PatternSpec, stop: &dyn Fn() -> bool) -> Option<Builder> {
        let size = spec.size();
        let n = size.cells();
        let geometry = Geometry::new(size);
        // Each cell's neighbours as a mask, from the searches' adjacency.
        let neighbours = Grid::new(size)
            .neighbours
            .iter()
            .map(|next| next.iter().fold(0u32, |mask, &(c, _)| mask | 1 << c))
            .collect();
        let manhattan = spec.manhattan();
        let entries = spec.entries();
        assert!(entries < 1 << 32, "indices fit the reciprocal division");
        let k = spec.cells().len();
        let weights = (0..k)
            .map(|j| (j + 1..k).map(|i| n - i).product())
            .collect();
        let reciprocals = reciprocals(n, k);
        let free = n - k;
        let mask_bits = free.next_power_of_two().max(8);
        assert!(
            mask_bits <= 32,
            "a placement's free cells fit a 32-bit mask"
        );
        Some(Builder {
            spec: spec.clone(),
            n,
            all: full_mask(n),
            geometry,
            neighbours,
            manhattan,
            weights,
            reciprocals,
            values: words(entries.div_ceil(16), u64::MAX, stop)?,
            masks: words((entries * mask_bits).div_ceil(64), 0, stop)?,
            mask_bits,
            later: words(entries.div_ceil(32), 0, stop)?,
            entries,
            filled: AtomicU64::new(0),
        })
    }

    /// Sets placement `p` from `from` to `to` if it holds `from`.
    #[inline]
    fn swap_value(&self, p: usize, from: u64, to: u64) -> Result<(), u64> {
        let (word, shift) = (&self.values[p >> 4], (p & 15) * 4);
        let mut now = word.load(Relaxed);
        loop {
            let held = now >> shift & 15;
            if held != from {
                return Err(held);
            }
            let next = now ^ (from ^ to) << shift;
            match word.compare_exchange_weak(now, next, Relaxed, Relaxed) {
                Ok(_) => return Ok(()),
                Err(actual) => now = actual,
            }
        }
    }

    #[inline]
    fn mask(&self, p: usize) -> u32 {
        let bit = p * self.mask_bits;
        (self.masks[bit >> 6].load(Relaxed) >> (bit & 63)) as u32
            & (u64::MAX >> (64 - self.mask_bits)) as u32
    }

    /// Marks free cells of `p`.
    #[inline]
    fn add_mask(&self, p: usize, ordinals: u32) {
        let bit = p * self.mask_bits;
        self.masks[bit >> 6].fetch_or((ordinals as u64) << (bit & 63), Relaxed);
    }

    fn run(
        self,
        progress: &mut dyn FnMut(BuildProgress),
        stop: &dyn Fn() -> bool,
    ) -> Option<(Vec<u8>, u64)> {
        let goal = index(self.spec.cells(), self.n);
        let occupied = self.spec.cells().iter().fold(0u32, |m, &c| m | 1 << c);
        let free = self.all & !occupied;
        let seeds = match self.spec.goal_blank() {
            Some(b) => self.geometry.region(b as u32, free),
            None => free,
        };
        self.swap_value(goal, UNSET, waiting(0)).expect("fresh");
        self.add_mask(goal, ordinals_of(seeds, free));
        self.filled.store(1, Relaxed);
        let (mut depth, mut capped) = (0u32, 0);
        let (mut waiting_now, mut later_now) = (1u64, 0u64);
        while waiting_now > 0 || later_now > 0 {
            assert!(depth < 250, "pattern distances fit a byte");
            let work = self.layer(depth, progress, stop)?;
            (waiting_now, later_now) = (work.filled, work.later);
            capped += work.capped;
            depth += 1;
        }
        progress(self.progress(depth));
        drop(self.masks);
        drop(self.later);
        let mut bytes: Vec<u8> = self
            .values
            .into_par_iter()
            .flat_map_iter(|word| finished(word.into_inner()).to_le_bytes())
            .collect();
        bytes.truncate(self.entries.div_ceil(2));
        Some((bytes, capped))
    }

    /// Expands every state at `depth`: the placements waiting with it and
    /// the later regions found by the layer before; `None` once `stop`
    /// says so.
    fn layer(
        &self,
        depth: u32,
        progress: &mut dyn FnMut(BuildProgress),
        stop: &dyn Fn() -> bool,
    ) -> Option<Work> {
        let code = waiting(depth);
        let mut total = Work::default();
        for batch in (0..self.values.len()).step_by(BATCH_WORDS) {
            let end = (batch + BATCH_WORDS).min(self.values.len());
            let work = self.each(batch..end, |w, scratch, work| {
                self.scan_word(w, code, depth, scratch, work);
            });
            self.filled.fetch_add(work.filled, Relaxed);
            total = total.merge(work);
            progress(self.progress(depth));
            if stop() {
                return None;
            }
        }
        let work = self.each(0..self.later.len(), |w, scratch, work| {
            self.scan_later(w, depth, scratch, work);
        });
        self.filled.fetch_add(work.filled, Relaxed);
        Some(total.merge(work))
    }

    /// Runs `scan` on every item of `items`, on all cores.
    fn each(
        &self,
        items: std::ops::Range<usize>,
        scan: impl Fn(usize, &mut Scratch, &mut Work) + Sync,
    ) -> Work {
        let k = self.spec.cells().len();
        items
            .into_par_iter()
            .fold(
                || {
                    let scratch = Scratch {
                        cells: vec![0u8; k],
                        prefix: usize::MAX,
                        prefix_used: 0,
                    };
                    (Work::default(), scratch)
                },
                |(mut work, mut scratch), i| {
                    scan(i, &mut scratch, &mut work);
                    (work, scratch)
                },
            )
            .map(|(work, _)| work)
            .reduce(Work::default, Work::merge)
    }

    /// Expands the finished placements of later word `w` that have later
    /// regions at `depth`. Their earlier regions are expanded again: every
    /// placement one move from those is marked already, so that costs time
    /// but changes nothing. (Telling the new regions apart by their marks
    /// does not pay: a new region is often a single cell, whose one mark
    /// makes it look expanded.)
    fn scan_later(&self, w: usize, depth: u32, scratch: &mut Scratch, work: &mut Work) {
        let parity = u64::from(depth % 2);
        let mut flags = self.later[w].load(Relaxed) >> parity & LOW_BITS;
        if flags == 0 {
            return;
        }
        // Placements of the other parity cannot gain flags of this one
        // meanwhile (all of a placement's regions share its parity).
        self.later[w].fetch_and(!(flags << parity), Relaxed);
        while flags != 0 {
            let p = w * 32 + flags.trailing_zeros() as usize / 2;
            flags &= flags - 1;
            let occupied = self.decode(p, scratch);
            self.expand(p, occupied, self.mask(p), depth, &scratch.cells, work);
        }
    }

    /// Finishes and expands the placements of word `w` waiting with `code`.
    fn scan_word(&self, w: usize, code: u64, depth: u32, scratch: &mut Scratch, work: &mut Work) {
        let word = self.values[w].load(Relaxed);
        // Nibbles equal to `code` become zero; find them without a loop
        // over all sixteen (most words hold none).
        let x = word ^ (code * NIBBLES);
        if (x.wrapping_sub(NIBBLES) & !x & NIBBLES << 3) == 0 {
            return;
        }
        for slot in 0..16 {
            let p = w * 16 + slot;
            if x >> (slot * 4) & 15 != 0 || p >= self.entries {
                continue;
            }
            let occupied = self.decode(p, scratch);
            self.finish(p, code, depth, &scratch.cells, work);
            self.expand(p, occupied, self.mask(p), depth, &scratch.cells, work);
        }
    }

    /// Decodes placement `p` into `scratch.cells`; returns the occupied
    /// cells. Only the last tile is decoded when the others are as before.
    #[inline]
    fn decode(&self, p: usize, scratch: &mut Scratch) -> u32 {
        let k = scratch.cells.len();
        let last = self.n - (k - 1);
        let prefix = ((p as u128 * self.reciprocals[k - 1]) >> 64) as usize;
        if prefix != scratch.prefix {
            scratch.prefix_used = decode(
                prefix,
                self.n,
                &self.reciprocals,
                &mut scratch.cells[..k - 1],
            );
            scratch.prefix = prefix;
        }
        let cell = nth_free((p - prefix * last) as u32, scratch.prefix_used);
        scratch.cells[k - 1] = cell as u8;
        scratch.prefix_used | 1 << cell
    }

    /// Gives waiting placement `p` (on `cells`) its final value.
    fn finish(&self, p: usize, code: u64, depth: u32, cells: &[u8], work: &mut Work) {
        let md: u32 = cells
            .iter()
            .enumerate()
            .map(|(j, &c)| self.manhattan[j * self.n + c as usize] as u32)
            .sum();
        let half = (depth - md) / 2;
        let stored = half.min(MAX_EXCESS as u32) as u64;
        work.capped += u64::from(half > MAX_EXCESS as u32);
        self.swap_value(p, code, stored)
            .expect("only this worker finishes p");
    }

    /// Expands the blank regions of placement `p` that hold the free cells
    /// numbered in `ordinals` (marked already): discovers every placement
    /// one pattern move away.
    fn expand(
        &self,
        p: usize,
        occupied: u32,
        ordinals: u32,
        depth: u32,
        cells: &[u8],
        work: &mut Work,
    ) {
        let free = self.all & !occupied;
        // Marks are only ever added a whole region at a time (the seeds,
        // and every region `discover` reaches), so the marked cells are
        // already the union of their regions: nothing to fill or mark.
        let union = deposit(ordinals, free);
        debug_assert!({
            let mut seeds = union;
            let mut filled = 0u32;
            while seeds != 0 {
                let region = self.geometry.region(seeds.trailing_zeros(), free);
                filled |= region;
                seeds &= !region;
            }
            filled == union
        });
        let mut tile_at = [0u8; 32];
        for (j, &c) in cells.iter().enumerate() {
            tile_at[c as usize] = j as u8;
        }
        let mut before = 0u32;
        for (j, &c) in cells.iter().enumerate() {
            let after = occupied & !before & !(1u32 << c);
            let mut targets = self.neighbours[c as usize] & union;
            while targets != 0 {
                let r = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let next = self.successor(p, j, (c, r), before, after, &tile_at);
                let next_free = free ^ (1u32 << r) ^ (1u32 << c);
                self.discover(next, (c, next_free), depth, work);
            }
            before |= 1 << c;
        }
    }

    /// The index after tile `j` of placement `p` moves from cell `c` to
    /// `r`, without recomputing it: tile `j`'s digit is its cell less the
    /// earlier tiles below it (`before`), and each later tile (on `after`)
    /// between `c` and `r` has one more or one fewer earlier tile below it.
    #[inline]
    fn successor(
        &self,
        p: usize,
        j: usize,
        (c, r): (u8, u8),
        before: u32,
        after: u32,
        tile_at: &[u8; 32],
    ) -> usize {
        let below = |x: u8| (before & ((1u32 << x) - 1)).count_ones() as isize;
        let mut delta = (r as isize - below(r) - c as isize + below(c)) * self.weights[j] as isize;
        let (low, high) = (c.min(r), c.max(r));
        // Cells strictly between: none for a move along a row.
        let mut between = after & ((1u32 << high) - 1) & !((2u32 << low) - 1);
        // Moving down past a tile (r < x < c) puts tile j below it.
        let sign = if r < c { -1 } else { 1 };
        while between != 0 {
            let x = between.trailing_zeros();
            between &= between - 1;
            delta += sign * self.weights[tile_at[x as usize] as usize] as isize;
        }
        (p as isize + delta) as usize
    }

    /// State (`q`, the blank region of cell `c` among its free cells) is
    /// one move past `depth`: by parity at `depth + 1`, or at `depth − 1`
    /// and then already marked.
    #[inline]
    fn discover(&self, q: usize, (c, free): (u8, u32), depth: u32, work: &mut Work) {
        let o = (free & ((1u32 << c) - 1)).count_ones();
        if self.mask(q) >> o & 1 != 0 {
            return;
        }
        // The whole region is marked at once: its other cells, reached by
        // other moves, then stop at the check above instead of each paying
        // for the value and a locked write.
        let region = ordinals_of(self.geometry.region(c as u32, free), free);
        let next = waiting(depth + 1);
        match self.swap_value(q, UNSET, next) {
            Ok(()) => {
                work.filled += 1;
                self.add_mask(q, region);
            }
            Err(held) if held == next => {
                self.add_mask(q, region);
            }
            Err(_) => {
                // A later region of a finished placement, by parity two
                // or more layers after its first.
                self.add_mask(q, region);
                let parity = u64::from((depth + 1) % 2);
                self.later[q >> 5].fetch_or(1 << ((q & 31) * 2) << parity, Relaxed);
                work.later += 1;
            }
        }
    }

    fn progress(&self, depth: u32) -> BuildProgress {
        BuildProgress {
            depth,
            filled: self.filled.load(Relaxed),
            entries: self.entries as u64,
        }
    }
}

/// A word of values with anything but a finished value (a placement never
/// reached: none should be) set to 0, which is still a lower bound. The
/// words' nibbles are already the file's packing: placement `p` in nibble
/// `p % 16`, so two a byte, the even one low.
fn finished(word: u64) -> u64 {
    (0..16)
        .map(|slot| word >> (slot * 4) & 15)
        .enumerate()
        .filter(|&(_, v)| v <= MAX_EXCESS as u64)
        .fold(0, |out, (slot, v)| out | v << (slot * 4))
}

/// See [`Builder::reciprocals`].
fn reciprocals(n: usize, k: usize) -> Vec<u128> {
    (0..k)
        .map(|j| (1u128 << 64).div_ceil((n - j) as u128))
        .collect()
}

/// The cells of placement `p` of `cells.len()` tiles on `n` cells (the
/// inverse of [`index`], without dividing); returns the occupied cells.
#[inline]
fn decode(mut p: usize, n: usize, reciprocals: &[u128], cells: &mut [u8]) -> u32 {
    for j in (0..cells.len()).rev() {
        let quotient = ((p as u128 * reciprocals[j]) >> 64) as usize;
        cells[j] = (p - quotient * (n - j)) as u8;
        p = quotient;
    }
    let mut used = 0u32;
    for c in cells.iter_mut() {
        let cell = nth_free(*c as u32, used);
        *c = cell as u8;
        used |= 1 << cell;
    }
    used
}

/// The `digit`-th cell (from 0) not in `used`: the fixed point of
/// c = digit + (used cells up to c), reached in a step or two.
#[inline]
fn nth_free(digit: u32, used: u32) -> u32 {
    let mut cell = digit;
    loop {
        let next = digit + (used & (u32::MAX >> (31 - cell))).count_ones();
        if next == cell {
            return cell;
        }
        cell = next;
    }
}

/// The cells of `free` whose ordinals (rank among the free cells) are set.
fn deposit(ordinals: u32, free: u32) -> u32 {
    let (mut cells, mut rest, mut o) = (0u32, free, 0);
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        if ordinals >> o & 1 != 0 {
            cells |= cell;
        }
        rest ^= cell;
        o += 1;
    }
    cells
}

/// The ordinals among `free` of the cells in `cells` (inverse of [`deposit`]).
fn ordinals_of(cells: u32, free: u32) -> u32 {
    let mut ordinals = 0u32;
    let mut rest = cells;
    while rest != 0 {
        let c = rest.trailing_zeros();
        rest &= rest - 1;
        ordinals |= 1 << (free & ((1u32 << c) - 1)).count_ones();
    }
    ordinals
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::pdb::placement;
    use crate::Size;
    use std::collections::VecDeque;

    /// The database by a plain 0-1 breadth-first search over (tile cells,
    /// blank cell): a blank move costs 1 if it moves a pattern tile and 0
    /// otherwise; a placement's value is its best over blank cells.
    /// (A placement of the whole board's tiles can be out of reach: `None`.)
    fn reference(spec: &PatternSpec) -> Vec<Option<u32>> {
        let size = spec.size();
        let n = size.cells();
        let mut distance = vec![u32::MAX; spec.entries() * n];
        let mut queue = VecDeque::new();
        let goal: Vec<u8> = spec.cells().to_vec();
        let g = index(&goal, n);
        for blank in 0..n as u8 {
            let allowed = match spec.goal_blank() {
                Some(b) => {
                    let occupied = goal.iter().fold(0u32, |m, &c| m | 1 << c);
                    let free = full_mask(n) & !occupied;
                    Geometry::new(size).region(b as u32, free) >> blank & 1 != 0
                }
                None => !goal.contains(&blank),
            };
            if allowed {
                distance[g * n + blank as usize] = 0;
                queue.push_back((goal.clone(), blank, 0u32));
            }
        }
        while let Some((cells, blank, d)) = queue.pop_front() {
            if d > distance[index(&cells, n) * n + blank as usize] {
                continue;
            }
            let (x, y) = size.coords(blank as usize);
            let mut next = Vec::new();
            if x > 0 {
                next.push(blank as usize - 1);
            }
            if x + 1 < size.width() {
                next.push(blank as usize + 1);
            }
            if y > 0 {
                next.push(blank as usize - size.width());
            }
            if y + 1 < size.height() {
                next.push(blank as usize + size.width());
            }
            for c in next {
                let mut moved = cells.clone();
                let cost = match moved.iter().position(|&t| t as usize == c) {
                    Some(j) => {
                        moved[j] = blank;
                        1
                    }
                    None => 0,
                };
                let slot = index(&moved, n) * n + c;
                if d + cost < distance[slot] {
                    distance[slot] = d + cost;
                    let item = (moved, c as u8, d + cost);
                    if cost == 0 {
                        queue.push_front(item);
                    } else {
                        queue.push_back(item);
                    }
                }
            }
        }
        (0..spec.entries())
            .map(|r| {
                let best = (0..n).map(|b| distance[r * n + b]).min().unwrap();
                (best < u32::MAX).then_some(best)
            })
            .collect()
    }

    #[test]
    fn every_value_equals_a_plain_search_over_tile_and_blank_cells() {
        let cases: &[(&str, &[u8], Option<u8>)] = &[
            ("3x3", &[0, 1, 2], None),
            ("3x3", &[1, 3, 4], Some(0)),
            ("3x3", &[0, 1, 2, 3, 4, 5, 6, 7], None),
            ("2x4", &[0, 1, 2, 3, 4, 5, 6], None),
            ("4x3", &[0, 1, 4, 5, 8], None),
            ("3x4", &[1, 3, 4, 6, 7], Some(0)),
            ("4x4", &[0, 1, 2, 4], None),
            ("5x5", &[0, 1, 5], None),
        ];
        for &(size, cells, blank) in cases {
            let size: Size = size.parse().unwrap();
            let spec = match blank {
                Some(b) => PatternSpec::with_goal_blank(size, cells.to_vec(), b),
                None => PatternSpec::new(size, cells.to_vec()),
            };
            assert_eq!(spec.goal_blank(), blank, "{spec}");
            let database = PatternDatabase::build(&spec, &mut |_| {});
            let expected = reference(&spec);
            let mut at = vec![0u8; cells.len()];
            let (mut reached, mut capped) = (0, 0);
            for (r, &d) in expected.iter().enumerate() {
                placement(r, size.cells(), &mut at);
                let value = database.value(&at) as u32;
                // Out of reach: any value is a lower bound.
                let Some(d) = d else { continue };
                let md: u32 = at
                    .iter()
                    .zip(cells)
                    .map(|(&c, &g)| {
                        let ((x, y), (gx, gy)) = (size.coords(c as usize), size.coords(g as usize));
                        (x.abs_diff(gx) + y.abs_diff(gy)) as u32
                    })
                    .sum();
                // An excess over four bits is capped, to a smaller bound.
                let stored = d.min(md + 2 * MAX_EXCESS as u32);
                assert_eq!(value, stored, "{spec}, placement {at:?}");
                capped += u64::from(stored < d);
                reached += 1;
            }
            assert_eq!(database.capped(), capped, "{spec}");
            let whole = cells.len() + 1 == size.cells();
            assert_eq!(reached * (1 + usize::from(whole)), expected.len());
            // Only the whole 2 × 4 board has excesses that large.
            assert_eq!(capped > 0, size.cells() == 8 && whole, "{spec}");
        }
    }

    /// The value of one placement found by a search of its own: A* from
    /// the placement (every blank cell at cost 0) to the goal placement
    /// (with the blank where the database seeds it) over (tile cells,
    /// blank cell), guided by the tiles' Manhattan sum. That bound is
    /// consistent (a pattern move changes it by one, a blank move not at
    /// all), so the first goal state taken is at the distance. It shares
    /// nothing with the builder: it runs from the placement, not from the
    /// goal, one state at a time.
    fn value_by_search(spec: &PatternSpec, start: &[u8]) -> u32 {
        let size = spec.size();
        let (n, w) = (size.cells(), size.width());
        let goal = spec.cells();
        let occupied = goal.iter().fold(0u32, |m, &c| m | 1 << c);
        let goal_blanks = match spec.goal_blank() {
            Some(b) => Geometry::new(size).region(u32::from(b), full_mask(n) & !occupied),
            None => full_mask(n) & !occupied,
        };
        let manhattan = |cells: &[u8]| -> u32 {
            cells
                .iter()
                .zip(goal)
                .map(|(&c, &g)| {
                    let ((x, y), (gx, gy)) = (size.coords(c as usize), size.coords(g as usize));
                    (x.abs_diff(gx) + y.abs_diff(gy)) as u32
                })
                .sum()
        };
        // A state: 5 bits a tile cell, then the blank's.
        let key = |cells: &[u8], blank: u8| {
            cells
                .iter()
                .fold(u64::from(blank), |k, &c| k << 5 | u64::from(c))
        };
        let mut best: std::collections::HashMap<u64, u32> = Default::default();
        // Buckets by f = g + h.
        let mut open: Vec<Vec<(Vec<u8>, u8, u32)>> = vec![Vec::new(); 256];
        for blank in (0..n as u8).filter(|b| !start.contains(b)) {
            best.insert(key(start, blank), 0);
            open[manhattan(start) as usize].push((start.to_vec(), blank, 0));
        }
        let mut f = 0;
        loop {
            let Some((cells, blank, g)) = open[f].pop() else {
                f += 1;
                continue;
            };
            if best[&key(&cells, blank)] < g {
                continue;
            }
            if cells == goal && goal_blanks >> blank & 1 != 0 {
                return g;
            }
            let (x, y) = (blank as usize % w, blank as usize / w);
            let steps = [
                (x > 0).then(|| blank - 1),
                (x + 1 < w).then(|| blank + 1),
                (y > 0).then(|| blank - w as u8),
                (y + 1 < size.height()).then(|| blank + w as u8),
            ];
            for next in steps.into_iter().flatten() {
                let mut moved = cells.clone();
                let cost = match moved.iter().position(|&c| c == next) {
                    Some(j) => {
                        moved[j] = blank;
                        1
                    }
                    None => 0,
                };
                let k = key(&moved, next);
                if best.get(&k).is_none_or(|&old| g + cost < old) {
                    best.insert(k, g + cost);
                    let h = manhattan(&moved);
                    open[(g + cost + h) as usize].push((moved, next, g + cost));
                }
            }
        }
    }

    /// The 5 × 5 six-tile tables of the large set (Korf and Felner's
    /// 6-6-6-6), built in full, against the search of each sampled
    /// placement. (Their 127.5 M entries are too many for the plain
    /// search over every state above.)
    #[test]
    fn five_by_five_six_tile_tables_agree_with_a_search_from_each_placement() {
        use crate::solver::heuristic::{required_patterns, HeuristicKind};
        let size: Size = "5x5".parse().unwrap();
        let specs = required_patterns(size, 0, HeuristicKind::Large);
        assert_eq!(specs.len(), 2);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for spec in &specs {
            let database = PatternDatabase::build(spec, &mut |_| {});
            assert_eq!(database.capped(), 0, "{spec}");
            let mut at = vec![0u8; spec.cells().len()];
            // The goal, then placements at random.
            for sample in 0..=SAMPLES {
                // xorshift: a fixed sample, the same on every run.
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let r = if sample == 0 {
                    index(spec.cells(), size.cells())
                } else {
                    (state % spec.entries() as u64) as usize
                };
                placement(r, size.cells(), &mut at);
                let expected = value_by_search(spec, &at);
                assert_eq!(
                    u32::from(database.value(&at)),
                    expected,
                    "{spec}, placement {at:?}"
                );
            }
        }
    }

    /// Placements sampled per table by the test above.
    const SAMPLES: usize = 60;

    #[test]
    fn a_build_gives_up_when_told_and_otherwise_matches_the_plain_build() {
        let spec = PatternSpec::new("4x3".parse().unwrap(), vec![0, 1, 4, 5, 8]);
        let asked = std::cell::Cell::new(0u32);
        let count = || {
            asked.set(asked.get() + 1);
            false
        };
        let whole = PatternDatabase::build_until(&spec, &mut |_| {}, &count).expect("not stopped");
        assert_eq!(
            whole.to_bytes(),
            PatternDatabase::build(&spec, &mut |_| {}).to_bytes()
        );
        let checks = asked.get();
        assert!(checks > 4, "asked once a layer at least: {checks}");
        // Told to stop at the third check: no table, and no more checks.
        // (The first ones are asked while its memory is set up.)
        asked.set(0);
        let third = || {
            asked.set(asked.get() + 1);
            asked.get() >= 3
        };
        assert!(PatternDatabase::build_until(&spec, &mut |_| {}, &third).is_none());
        assert_eq!(asked.get(), 3);
    }

    #[test]
    fn decoding_without_division_agrees_with_the_plain_inverse() {
        for (n, k) in [(16, 8), (16, 7), (25, 6), (9, 8), (32, 5)] {
            let entries: usize = (0..k).map(|j| n - j).product();
            let reciprocals = reciprocals(n, k);
            let (mut fast, mut plain) = (vec![0u8; k], vec![0u8; k]);
            let step = entries / 100_000 + 1;
            for p in (0..entries).step_by(step).chain([entries - 1]) {
                let used = decode(p, n, &reciprocals, &mut fast);
                assert_eq!(used, placement(p, n, &mut plain), "{n} {k} {p}");
                assert_eq!(fast, plain, "{n} {k} {p}");
            }
        }
    }

    #[test]
    fn free_cell_ordinals_round_trip() {
        let free = 0b1011_0110_1001u32;
        for ordinals in 0..1u32 << free.count_ones() {
            let cells = deposit(ordinals, free);
            assert_eq!(cells & !free, 0);
            assert_eq!(ordinals_of(cells, free), ordinals);
        }
    }
}
