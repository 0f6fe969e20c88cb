//! Ranking painted boards: the colour counts, the rank of a colour sequence
//! among its permutations, and the packed rank tables that speed it up.

use super::*;

/// The colour of each tile, and the counting tables that rank a colour
/// sequence among all sequences with the same colour counts.
pub(super) struct Colouring {
    pub(super) size: Size,
    pub(super) goal_blank: usize,
    /// `colour[t]`: the colour of the tile whose goal cell is `t`.
    pub(super) colour: Vec<u8>,
    pub(super) colours: usize,
    /// Tiles of each colour.
    pub(super) counts: Vec<usize>,
    /// Mixed-radix place of each colour in a "tiles left" state.
    pub(super) strides: Vec<usize>,
    /// `offsets[state * colours + c]`: how many sequences from `state`
    /// start with a colour before `c`.
    pub(super) offsets: Vec<u32>,
    /// `totals[state]`: how many sequences there are from `state`.
    pub(super) totals: Vec<u32>,
    /// The full state: every colour's count.
    pub(super) full: usize,
    /// Sequences per blank cell.
    pub(super) arrangements: usize,
    /// Ranks of colour sequences packed two bits a cell.
    pub(super) packed: PackedRanks,
}

impl Colouring {
    pub(super) fn new(size: Size, goal_blank: usize) -> Option<Colouring> {
        Colouring::with(size, goal_blank, paint(size, goal_blank))
    }

    /// The colouring `colour` (by goal cell, `UNSEEN` on the blank's).
    pub(super) fn with(size: Size, goal_blank: usize, colour: Vec<u8>) -> Option<Colouring> {
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
    pub(super) fn partial_rank(
        &self,
        mut state: usize,
        colours: impl Iterator<Item = usize>,
    ) -> Option<u32> {
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
    pub(super) fn state_of(&self, colours: impl Iterator<Item = usize>) -> Option<usize> {
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
    pub(super) fn packed_index(&self, word: u64, blank: usize) -> usize {
        let below = word & ((1 << (2 * blank)) - 1);
        let sequence = below | (word >> (2 * blank + 2)) << (2 * blank);
        self.packed.rank(sequence) as usize * self.size.cells() + blank
    }

    pub(super) fn entries(&self) -> usize {
        self.arrangements * self.size.cells()
    }

    /// The index of a painted board given by `colour_at(cell)`.
    #[inline]
    pub(super) fn index(&self, blank: usize, colour_at: impl Fn(usize) -> u8) -> usize {
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
    pub(super) fn board(&self, index: usize, board: &mut [u8]) -> usize {
        let (mut sequence, mut decoded) = ([0u8; 32], u32::MAX);
        self.board_from(index, &mut sequence, &mut decoded, board)
    }

    /// [`board`](Self::board), decoding the colour sequence into
    /// `sequence` only when its rank differs from `decoded` (consecutive
    /// indices share it).
    #[inline]
    pub(super) fn board_from(
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
    pub(super) fn decode(&self, mut rank: u32, sequence: &mut [u8]) {
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
pub(super) fn next_sequence(sequence: &mut [u8]) {
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
pub(super) struct PackedRanks {
    pub(super) head: u32,
    pub(super) prefix: Vec<u32>,
    pub(super) suffix: Vec<u32>,
}

impl PackedRanks {
    /// At most this many colours in the prefix table (4^8 entries).
    const HEAD: usize = 8;

    pub(super) fn new(colouring: &Colouring) -> PackedRanks {
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
    pub(super) fn rank(&self, sequence: u64) -> u32 {
        let low = sequence & ((1 << (2 * self.head)) - 1);
        self.prefix[low as usize] + self.suffix[(sequence >> (2 * self.head)) as usize]
    }
}
