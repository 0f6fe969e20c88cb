//! The table of painted distances modulo 3, two bits an entry, and its file.

use super::*;

/// Distances modulo 3 of every painted board, two bits each (3: never
/// reached). One move changes a distance by at most one, so a search that
/// knows a board's distance reads its neighbours' from their residues.
pub struct ColourTable {
    pub(super) colouring: Colouring,
    pub(super) packed: Vec<u8>,
    /// The painted goal's index.
    pub(super) goal: usize,
    pub(super) symmetries: Vec<Symmetry>,
    /// `colour_of[s][t]`: the colour of tile `t` seen through symmetry `s`.
    pub(super) colour_of: Vec<Vec<u8>>,
    /// `bits[(s * n + t) * n + c]`: tile `t` on cell `c` in the packed
    /// board of view `s` (its colour at two bits per cell of the view).
    pub(super) bits: Vec<u64>,
    pub(super) lines: Vec<Vec<(Direction, Vec<u8>)>>,
}

/// At most this many symmetric views are probed (a square has 8
/// symmetries).
pub(super) const MAX_VIEWS: usize = 8;

pub(super) const MAGIC: &[u8; 8] = b"TSSRMTM\0";
/// Bump whenever the colouring, the index or the packing changes.
pub const COLOUR_FORMAT_VERSION: u32 = 2;

impl ColourTable {
    /// Entries of the table for `size` and `goal_blank`; `None` where the
    /// board has no table (its colouring is too large, or it is not solved
    /// optimally at all). Boards of at most `FULL_TABLE_MAX_CELLS` cells
    /// have one too, though their solver walks a complete table.
    pub fn entries_for(size: Size, goal_blank: usize) -> Option<usize> {
        if size.cells() > crate::solver::OPTIMAL_MAX_CELLS {
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

    pub(super) fn build_colouring(
        colouring: Colouring,
        progress: &mut dyn FnMut(BuildProgress),
    ) -> Option<ColourTable> {
        let distances = breadth_first(&colouring, progress);
        let packed = pack(&distances);
        drop(distances);
        Some(ColourTable::new(colouring, packed))
    }

    pub(super) fn new(colouring: Colouring, packed: Vec<u8>) -> ColourTable {
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
    pub(super) fn view_word(&self, s: usize, cells: &[u8], blank: usize) -> u64 {
        let n = cells.len();
        (0..n)
            .filter(|&c| c != blank)
            .map(|c| self.bits[(s * n + cells[c] as usize) * n + c])
            .fold(0, |word, bits| word | bits)
    }

    /// Slides tile `tile` from cell `from` to the blank's cell `to` in
    /// every view's packed board.
    #[inline]
    pub(super) fn slide(&self, words: &mut [u64; MAX_VIEWS], tile: u8, from: usize, to: usize) {
        let n = self.size().cells();
        for (s, word) in words.iter_mut().enumerate().take(self.symmetries.len()) {
            let at = (s * n + tile as usize) * n;
            *word ^= self.bits[at + from] ^ self.bits[at + to];
        }
    }

    pub(super) fn header(size: Size, goal_blank: usize, entries: usize) -> Vec<u8> {
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
    pub(super) fn residue(&self, index: usize) -> u8 {
        self.packed[index >> 2] >> ((index & 3) * 2) & 3
    }

    /// The painted distance of the board of `index`: a walk down to the
    /// painted goal, each step to a neighbour one closer (its residue one
    /// less, modulo 3).
    pub(super) fn distance(&self, mut index: usize) -> u32 {
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
    pub(super) fn view_index(&self, s: usize, cells: &[u8], blank: usize) -> usize {
        let symmetry = &self.symmetries[s];
        let colour_of = &self.colour_of[s];
        self.colouring
            .index(symmetry.image[blank] as usize, |cell| {
                colour_of[cells[symmetry.inverse[cell] as usize] as usize]
            })
    }

    /// Every view of a canonical board, with its exact painted distance.
    pub(super) fn views(&self, cells: &[u8], blank: usize) -> Views {
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
    pub(super) fn step(
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
pub(super) struct Views {
    pub(super) index: [u32; MAX_VIEWS],
    pub(super) distance: [u8; MAX_VIEWS],
    /// The packed board of each view (see [`ColourTable::slide`]).
    pub(super) word: [u64; MAX_VIEWS],
}

impl Views {
    #[inline]
    pub(super) fn bound(&self) -> u32 {
        u32::from(*self.distance.iter().max().expect("views"))
    }
}

/// Two bits per entry: the distance modulo 3, or 3 where never reached.
pub(super) fn pack(distances: &[AtomicU8]) -> Vec<u8> {
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
