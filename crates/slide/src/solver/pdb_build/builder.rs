//! The breadth-first search itself: the shared state words, the per-thread
//! scratch, and the expansion of one layer.

use super::*;

/// Shared by the worker threads: the values (16 placements a word) and the
/// reached free cells (`mask_bits` a placement), both only ever added to.
pub(super) struct Builder {
    pub(super) spec: PatternSpec,
    pub(super) n: usize,
    pub(super) all: u32,
    pub(super) geometry: Geometry,
    pub(super) neighbours: Vec<u32>,
    /// Manhattan distance of pattern tile `j` on cell `c` from its goal
    /// cell, at `j * n + c`.
    pub(super) manhattan: Vec<u8>,
    /// The weight of pattern tile `j`'s digit in a placement's index.
    pub(super) weights: Vec<usize>,
    /// `2^64 / (n − j)` rounded up: division by tile `j`'s radix as one
    /// wide multiplication (the high half), exact for indices below 2^32.
    pub(super) reciprocals: Vec<u128>,
    pub(super) values: Vec<AtomicU64>,
    pub(super) masks: Vec<AtomicU64>,
    pub(super) mask_bits: usize,
    /// Two bits a placement (one per parity of depth): a finished
    /// placement has a later region waiting at the next depth of that
    /// parity.
    pub(super) later: Vec<AtomicU64>,
    pub(super) entries: usize,
    pub(super) filled: AtomicU64,
}

/// A worker's decoded placement. Placements are met in index order, and
/// consecutive ones share all but the last tile, so the other tiles'
/// cells are kept and reused.
pub(super) struct Scratch {
    pub(super) cells: Vec<u8>,
    /// The index of the first tiles' placement now in `cells`.
    pub(super) prefix: usize,
    /// Their cells.
    pub(super) prefix_used: u32,
}

/// What one worker did in a layer.
#[derive(Default)]
pub(super) struct Work {
    /// Placements reached for the first time (they wait for the next layer).
    pub(super) filled: u64,
    /// Placements whose value was capped.
    pub(super) capped: u64,
    /// Later regions reached (a region counted once per discovery).
    pub(super) later: u64,
}

impl Work {
    pub(super) fn merge(mut self, other: Work) -> Work {
        self.filled += other.filled;
        self.capped += other.capped;
        self.later += other.later;
        self
    }
}

/// `len` words holding `value`, set up a slice at a time so that `stop`
/// is heard; `None` if it said to stop.
pub(super) fn words(len: usize, value: u64, stop: &dyn Fn() -> bool) -> Option<Vec<AtomicU64>> {
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
    pub(super) fn new(spec: &PatternSpec, stop: &dyn Fn() -> bool) -> Option<Builder> {
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
        assert!(
            (entries as u64) < 1 << 32,
            "indices fit the reciprocal division"
        );
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
    pub(super) fn swap_value(&self, p: usize, from: u64, to: u64) -> Result<(), u64> {
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
    pub(super) fn mask(&self, p: usize) -> u32 {
        let bit = p * self.mask_bits;
        (self.masks[bit >> 6].load(Relaxed) >> (bit & 63)) as u32
            & (u64::MAX >> (64 - self.mask_bits)) as u32
    }

    /// Marks free cells of `p`.
    #[inline]
    pub(super) fn add_mask(&self, p: usize, ordinals: u32) {
        let bit = p * self.mask_bits;
        self.masks[bit >> 6].fetch_or((ordinals as u64) << (bit & 63), Relaxed);
    }

    pub(super) fn run(
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
    pub(super) fn layer(
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
    pub(super) fn each(
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
    pub(super) fn scan_later(&self, w: usize, depth: u32, scratch: &mut Scratch, work: &mut Work) {
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
    pub(super) fn scan_word(
        &self,
        w: usize,
        code: u64,
        depth: u32,
        scratch: &mut Scratch,
        work: &mut Work,
    ) {
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
    pub(super) fn decode(&self, p: usize, scratch: &mut Scratch) -> u32 {
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
    pub(super) fn finish(&self, p: usize, code: u64, depth: u32, cells: &[u8], work: &mut Work) {
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
    pub(super) fn expand(
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
    pub(super) fn successor(
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
    pub(super) fn discover(&self, q: usize, (c, free): (u8, u32), depth: u32, work: &mut Work) {
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

    pub(super) fn progress(&self, depth: u32) -> BuildProgress {
        BuildProgress {
            depth,
            filled: self.filled.load(Relaxed),
            entries: self.entries as u64,
        }
    }
}
