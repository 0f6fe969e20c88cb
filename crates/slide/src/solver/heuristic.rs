//! Lower bounds for IDA*: Manhattan distance, and additive pattern
//! databases with the maximum over a reflected partition.
//!
//! Tiles are named by their goal cells (see the `relabel` module). A
//! partition splits the goal cells (the blank's excepted) into disjoint
//! patterns; the values of one partition add up. On square boards a second
//! partition, the first one turned on its side, gives a second sum, and the
//! heuristic is the larger of the two (Korf & Felner's "reflected lookup").
//!
//! With [`Lookups::Dual`] the dual position is looked up too (see `Dual`
//! below): about half the nodes on Korf's 100, each node dearer, so it is
//! not the default.
//!
//! A pattern is looked up in the database of a congruent pattern when a
//! symmetry of the board maps one onto the other, so the 4 × 4 board needs
//! one 8-tile and one 7-tile database for every goal with the blank in a
//! corner, both partitions included.

use super::colouring::ColourTable;
use super::grid::Grid;
use super::pdb::{full_mask, Geometry, PatternDatabase, PatternSpec};
use crate::Size;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock};

/// Which lower bound IDA* uses on boards without a complete table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// Sum of the tiles' taxicab distances: no tables, weak.
    Manhattan,
    /// Patterns of at most 6 tiles (6-6-3 on 4 × 4): tables of a few MB,
    /// built in seconds. The default for library callers.
    #[default]
    Small,
    /// The strongest partition that fits: 7-8 on 4 × 4 (288 MB, built in
    /// about two minutes on two cores), 6-6-6-6 on 5 × 5 (Korf and
    /// Felner's partition: two tables, 128 MB, built in under a minute on
    /// two cores), 7-7 on 3 × 5, 6-7 on 2 × 7. On 5 × 5, `Small` is
    /// 5-5-5-5-4 (built in seconds).
    Large,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown heuristic {0:?}: use manhattan, small (6-6-3) or large (7-8)")]
/// Why a heuristic name is not known (the message lists the names).
pub struct HeuristicError(String);

impl FromStr for HeuristicKind {
    type Err = HeuristicError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "manhattan" | "md" => Ok(HeuristicKind::Manhattan),
            "small" | "6-6-3" | "663" => Ok(HeuristicKind::Small),
            "large" | "7-8" | "78" => Ok(HeuristicKind::Large),
            _ => Err(HeuristicError(s.to_string())),
        }
    }
}

/// Which positions IDA* looks up in the pattern databases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lookups {
    /// The position under both partitions (the reflected lookup): the
    /// fastest per solve.
    #[default]
    Regular,
    /// Also the dual position under both partitions (Zahavi, Felner et
    /// al.'s four lookups): fewer nodes, each dearer. Whole where the
    /// tables of [`dual_sets`] are loaded, else a weaker partial lookup.
    Dual,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown lookups {0:?}: use regular or dual")]
/// Why a lookups name is not known.
pub struct LookupsError(String);

impl FromStr for Lookups {
    type Err = LookupsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "regular" => Ok(Lookups::Regular),
            "dual" => Ok(Lookups::Dual),
            _ => Err(LookupsError(s.to_string())),
        }
    }
}

/// The table sets, as (goal blank, kind), that let [`Lookups::Dual`] look
/// up the dual position whole when the blank is on that cell (see the
/// `heuristic` module): on 4 × 4 every cell's large or small set, on
/// 5 × 5 the large set of the corners (the regular tables). A front end
/// prepares them with the regular set.
pub fn dual_sets(size: Size, kind: HeuristicKind) -> Vec<(usize, HeuristicKind)> {
    (0..size.cells())
        .filter_map(|blank| dual_kind(size, blank, kind).map(|k| (blank, k)))
        .collect()
}

impl HeuristicKind {
    /// Most tiles per pattern on a board of `cells` cells.
    fn group_size(self, cells: usize) -> usize {
        let half = (cells - 1).div_ceil(2);
        match self {
            HeuristicKind::Manhattan => 1,
            HeuristicKind::Large if cells <= 16 => half,
            HeuristicKind::Large if cells == 25 => 6,
            HeuristicKind::Large => 5,
            HeuristicKind::Small if cells <= 16 => half.min(6),
            HeuristicKind::Small if cells == 25 => 5,
            HeuristicKind::Small => 4,
        }
    }
}

/// Pattern databases by pattern, shared by the searches that need them.
///
/// The solver asks for a database and builds it if it is missing; a front
/// end that caches databases on disk [`insert`](Self::insert)s them first.
#[derive(Default)]
pub struct Databases {
    map: Mutex<HashMap<PatternSpec, Arc<OnceLock<Arc<PatternDatabase>>>>>,
    /// The multi-tile metric's colouring tables, by shape and goal blank
    /// (`None` for a board that has none).
    colourings: Mutex<HashMap<(Size, usize), ColourSlot>>,
}

type ColourSlot = Arc<OnceLock<Option<Arc<ColourTable>>>>;

static GLOBAL: OnceLock<Databases> = OnceLock::new();

impl Databases {
    /// An empty set of tables.
    pub fn new() -> Databases {
        Databases::default()
    }

    /// The process-wide set used when a caller passes none: a memo of pure
    /// results (a database is a function of its pattern), so every solve in
    /// the process builds each database at most once.
    pub fn global() -> &'static Databases {
        GLOBAL.get_or_init(Databases::new)
    }

    fn slot(&self, spec: &PatternSpec) -> Arc<OnceLock<Arc<PatternDatabase>>> {
        let mut map = self
            .map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.entry(spec.clone()).or_default().clone()
    }

    /// Adds a database (e.g. loaded from disk); an existing one is kept.
    pub fn insert(&self, database: PatternDatabase) {
        let spec = database.spec().clone();
        let _ = self.slot(&spec).set(Arc::new(database));
    }

    /// Whether the table for `spec` is loaded.
    pub fn contains(&self, spec: &PatternSpec) -> bool {
        self.slot(spec).get().is_some()
    }

    fn colour_slot(&self, size: Size, goal_blank: usize) -> ColourSlot {
        let mut map = self
            .colourings
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.entry((size, goal_blank)).or_default().clone()
    }

    /// Adds a multi-tile colouring table (e.g. loaded from disk); an
    /// existing one is kept.
    pub fn insert_colouring(&self, table: ColourTable) {
        let slot = self.colour_slot(table.size(), table.goal_blank());
        let _ = slot.set(Some(Arc::new(table)));
    }

    /// The colouring table for `size` and `goal_blank` if it is loaded.
    pub fn colouring(&self, size: Size, goal_blank: usize) -> Option<Arc<ColourTable>> {
        self.colour_slot(size, goal_blank).get().cloned().flatten()
    }

    /// The colouring table for `size` and `goal_blank`, built now if
    /// missing; `None` for a board that has none.
    pub fn colouring_or_build(&self, size: Size, goal_blank: usize) -> Option<Arc<ColourTable>> {
        self.colour_slot(size, goal_blank)
            .get_or_init(|| ColourTable::build(size, goal_blank, &mut |_| {}).map(Arc::new))
            .clone()
    }

    /// The database for `spec`, built now if missing.
    pub fn get_or_build(&self, spec: &PatternSpec) -> Arc<PatternDatabase> {
        self.slot(spec)
            .get_or_init(|| Arc::new(PatternDatabase::build(spec, &mut |_| {})))
            .clone()
    }
}

/// The canonical patterns (up to board symmetry) that solving on `size`
/// towards a goal with the blank on `goal_blank` needs with `kind`: what a
/// front end should load or build beforehand.
pub fn required_patterns(size: Size, goal_blank: usize, kind: HeuristicKind) -> Vec<PatternSpec> {
    if kind == HeuristicKind::Manhattan {
        return Vec::new();
    }
    let symmetries = symmetries(size);
    let mut specs: Vec<PatternSpec> = partitions(size, goal_blank, kind)
        .iter()
        .flatten()
        .map(|group| canonical(size, group, goal_blank, &symmetries).0)
        .collect();
    specs.sort();
    specs.dedup();
    specs
}

/// The partitions of the goal cells (blank excepted) into patterns: cells
/// in column-major order (row-major when the board is taller than wide),
/// read from the end far from the blank, cut into groups of at most
/// `group_size` tiles — on 4 × 4 with a corner blank, the two column
/// halves. Square boards add the same cut of the transposed order.
pub(crate) fn partitions(size: Size, goal_blank: usize, kind: HeuristicKind) -> Vec<Vec<Vec<u8>>> {
    if kind == HeuristicKind::Small && (size.width(), size.height()) == (4, 4) {
        return blocks(size, goal_blank);
    }
    if kind == HeuristicKind::Large && (size.width(), size.height()) == (5, 5) {
        if let Some(partitions) = corner_blocks(size, goal_blank) {
            return partitions;
        }
    }
    let n = size.cells();
    let m = kind.group_size(n);
    let column_major: Vec<usize> = (0..size.width())
        .flat_map(|x| (0..size.height()).map(move |y| size.cell(x, y)))
        .collect();
    let row_major: Vec<usize> = (0..n).collect();
    let orders = if size.width() == size.height() {
        vec![column_major, row_major]
    } else if size.width() > size.height() {
        vec![column_major]
    } else {
        vec![row_major]
    };
    orders
        .into_iter()
        .map(|mut order| {
            let at = order.iter().position(|&c| c == goal_blank).expect("a cell");
            if at < n / 2 {
                order.reverse();
            }
            order.retain(|&c| c != goal_blank);
            order
                .chunks(m)
                .map(|g| g.iter().map(|&c| c as u8).collect())
                .collect()
        })
        .collect()
}

/// Korf and Felner's 6-6-3 partition of the 4 × 4 board, placed around
/// the goal's blank: the rest of the blank's row is the 3-tile pattern, and
/// the other three rows split into a left and a right 2 × 3 block. The
/// reflected partition does the same with the blank's column. Compact
/// blocks capture more of the tiles' interactions than the column-major
/// cut of the larger partitions: fewer nodes, and every 6-tile block of
/// both partitions is congruent, so one 6-tile table serves them all.
fn blocks(size: Size, goal_blank: usize) -> Vec<Vec<Vec<u8>>> {
    let (bx, by) = (goal_blank % size.width(), goal_blank / size.width());
    let cut = |transpose: bool| -> Vec<Vec<u8>> {
        let mut groups = vec![Vec::new(); 3];
        for y in 0..size.height() {
            for x in 0..size.width() {
                let cell = size.cell(x, y);
                if cell == goal_blank {
                    continue;
                }
                // (along, across): the blank's line is `across == its own`.
                let (along, across, line) = if transpose { (y, x, bx) } else { (x, y, by) };
                let g = if across == line {
                    2
                } else {
                    usize::from(along >= 2)
                };
                groups[g].push(cell as u8);
            }
        }
        groups
    };
    vec![cut(false), cut(true)]
}

/// Korf and Felner's 6-6-6-6 partition of the 5 × 5 board, for a goal
/// with the blank in a corner: four compact blocks of six tiles, drawn
/// here with the blank at the top left (`_`). The reflected partition is
/// the same drawing turned about the diagonal through the blank. B, C and
/// D are congruent rectangles, so two tables serve both partitions: A's
/// (which walls the blank into its corner) and the rectangle's. `None`
/// when the blank is not in a corner.
fn corner_blocks(size: Size, goal_blank: usize) -> Option<Vec<Vec<Vec<u8>>>> {
    const SHAPE: [&[u8; 5]; 5] = [b"_AABB", b"AAABB", b"CCABB", b"CCDDD", b"CCDDD"];
    let (w, h) = (size.width(), size.height());
    let (bx, by) = (goal_blank % w, goal_blank / w);
    if !(bx == 0 || bx == w - 1) || !(by == 0 || by == h - 1) {
        return None;
    }
    // The drawing's coordinates of a cell: mirrored so the blank is at
    // (0, 0).
    let frame = |x: usize, y: usize| {
        let fx = if bx == 0 { x } else { w - 1 - x };
        let fy = if by == 0 { y } else { h - 1 - y };
        (fx, fy)
    };
    let cut = |transpose: bool| -> Vec<Vec<u8>> {
        let mut groups = vec![Vec::new(); 4];
        for cell in (0..size.cells()).filter(|&c| c != goal_blank) {
            let (fx, fy) = frame(cell % w, cell / w);
            let (col, row) = if transpose { (fy, fx) } else { (fx, fy) };
            groups[usize::from(SHAPE[row][col] - b'A')].push(cell as u8);
        }
        groups
    };
    Some(vec![cut(false), cut(true)])
}

/// Cell permutations that preserve adjacency: mirrors and half turns, and
/// on square boards the transpositions and quarter turns too.
fn symmetries(size: Size) -> Vec<Vec<u8>> {
    type CellMap = Box<dyn Fn(usize, usize) -> (usize, usize)>;
    let (w, h) = (size.width(), size.height());
    let mut maps: Vec<CellMap> = vec![
        Box::new(|x, y| (x, y)),
        Box::new(move |x, y| (w - 1 - x, y)),
        Box::new(move |x, y| (x, h - 1 - y)),
        Box::new(move |x, y| (w - 1 - x, h - 1 - y)),
    ];
    if w == h {
        maps.push(Box::new(|x, y| (y, x)));
        maps.push(Box::new(move |x, y| (w - 1 - y, x)));
        maps.push(Box::new(move |x, y| (y, h - 1 - x)));
        maps.push(Box::new(move |x, y| (w - 1 - y, h - 1 - x)));
    }
    maps.iter()
        .map(|f| {
            (0..size.cells())
                .map(|cell| {
                    let (x, y) = size.coords(cell);
                    let (nx, ny) = f(x, y);
                    size.cell(nx, ny) as u8
                })
                .collect()
        })
        .collect()
}

/// The smallest congruent pattern S and a symmetry σ with σ(S) = `group`.
fn canonical(
    size: Size,
    group: &[u8],
    goal_blank: usize,
    symmetries: &[Vec<u8>],
) -> (PatternSpec, Vec<u8>) {
    symmetries
        .iter()
        .map(|sigma| {
            let mut inverse = vec![0u8; sigma.len()];
            for (c, &s) in sigma.iter().enumerate() {
                inverse[s as usize] = c as u8;
            }
            let cells = group.iter().map(|&g| inverse[g as usize]).collect();
            let blank = inverse[goal_blank];
            (
                PatternSpec::with_goal_blank(size, cells, blank),
                sigma.clone(),
            )
        })
        .min()
        .expect("the identity")
}

/// One pattern of a partition, looked up through a symmetry.
struct Group {
    database: Arc<PatternDatabase>,
    /// The database's values a byte each, when it holds them so: kept
    /// here so that a lookup reads them without going through the
    /// database.
    wide: Option<Arc<[u8]>>,
    /// Goal cells of the tiles, in the database's slot order: the first
    /// `len` entries, in a fixed array so that a lookup needs no pointer
    /// chase.
    tiles: [u8; 32],
    len: usize,
    /// The weight of slot `j`'s digit in the index: the product of the
    /// later slots' radices. The digits' products are independent, so the
    /// index is not one chain of multiplications. Set for the byte lookup
    /// (patterns of at most [`FAST_TILES`] tiles).
    weights: [u32; FAST_TILES],
    /// Maps a board cell to the database's frame (σ⁻¹); 32 entries, so
    /// that a cell masked to five bits needs no bounds check.
    frame: [u8; 32],
}

/// The most tiles a pattern may have for the fixed-array byte lookup.
const FAST_TILES: usize = 8;

impl Group {
    fn new(database: Arc<PatternDatabase>, goal_cells: &[u8], frame: [u8; 32]) -> Group {
        let n = database.spec().size().cells();
        let k = goal_cells.len();
        let mut tiles = [0u8; 32];
        tiles[..k].copy_from_slice(goal_cells);
        let mut weights = [0u32; FAST_TILES];
        let wide = if k <= FAST_TILES {
            for (j, weight) in weights[..k].iter_mut().enumerate() {
                *weight = (j + 1..k).map(|i| (n - i) as u32).product();
            }
            database.wide_shared()
        } else {
            None
        };
        Group {
            database,
            wide,
            tiles,
            len: k,
            weights,
            frame,
        }
    }

    /// The database's value for the pattern's tiles on `positions`. With
    /// a byte per value the rank is computed as the cells are read, with
    /// no placement array to clear and fill first: this runs once or
    /// twice per node.
    #[inline]
    fn value(&self, positions: &[u8]) -> u8 {
        let cell = |tile: u8| self.frame[positions[tile as usize] as usize & 31];
        let Some(wide) = &self.wide else {
            let mut cells = [0u8; 32];
            let k = self.len;
            for (slot, &tile) in cells[..k].iter_mut().zip(&self.tiles[..k]) {
                *slot = cell(tile);
            }
            return self.database.value(&cells[..k]);
        };
        let (mut used, mut r) = (0u32, 0usize);
        let k = self.len;
        for (&tile, &weight) in self.tiles[..k].iter().zip(&self.weights[..k]) {
            let c = cell(tile) as u32;
            let below = (used & ((1u32 << c) - 1)).count_ones();
            r += (c - below) as usize * weight as usize;
            used |= 1 << c;
        }
        wide[r]
    }
}

/// Up to this many patterns per partition.
pub(crate) const MAX_GROUPS: usize = 8;

/// Incremental heuristic state carried down the search.
#[derive(Clone, Copy)]
pub(crate) struct Memo {
    values: [[u8; MAX_GROUPS]; 2],
    sums: [u32; 2],
}

/// A lower bound IDA* can update one moved tile at a time.
pub(crate) trait Estimate {
    type Memo: Copy;
    /// The bound for `positions` (cell of each tile) and its memo.
    fn initial(&self, positions: &[u8]) -> (u32, Self::Memo);
    /// The bound after `tile` moved from cell `from` (positions updated).
    /// Once the bound is known to exceed `cutoff` the caller prunes the
    /// node, so the rest (and the memo) may be left unfinished.
    fn update(
        &self,
        memo: &Self::Memo,
        positions: &[u8],
        tile: u8,
        from: u8,
        cutoff: u32,
    ) -> (u32, Self::Memo);
    /// A second bound from the dual position (see [`Dual`]), checked only
    /// where the first did not already prune: `cells[c]` is the tile on
    /// cell `c`, the blank is on `blank`. The caller takes the larger.
    #[inline]
    fn dual(&self, _cells: &[u8], _blank: usize, _cutoff: u32) -> u32 {
        0
    }
    /// Whether [`dual`](Self::dual) can give anything but 0: the search
    /// asks once, not on every node.
    fn has_dual(&self) -> bool {
        false
    }
}

/// Sum of taxicab distances of the tiles (not the blank).
pub(crate) struct Manhattan {
    /// `distance[tile * n + cell]`.
    distance: Vec<u8>,
    n: usize,
    goal_blank: usize,
}

impl Manhattan {
    pub fn new(grid: &Grid, goal_blank: usize) -> Manhattan {
        let n = grid.cells;
        let mut distance = vec![0u8; n * n];
        for tile in 0..n {
            for cell in 0..n {
                if tile != goal_blank {
                    distance[tile * n + cell] = grid.distance(tile, cell) as u8;
                }
            }
        }
        Manhattan {
            distance,
            n,
            goal_blank,
        }
    }
}

impl Estimate for Manhattan {
    type Memo = u32;

    fn initial(&self, positions: &[u8]) -> (u32, u32) {
        let h = (0..self.n)
            .filter(|&t| t != self.goal_blank)
            .map(|t| self.distance[t * self.n + positions[t] as usize] as u32)
            .sum();
        (h, h)
    }

    #[inline]
    fn update(&self, memo: &u32, positions: &[u8], tile: u8, from: u8, _: u32) -> (u32, u32) {
        let row = tile as usize * self.n;
        let h = memo + self.distance[row + positions[tile as usize] as usize] as u32
            - self.distance[row + from as usize] as u32;
        (h, h)
    }
}

/// Additive pattern databases, maximised over up to two partitions.
pub(crate) struct Patterns {
    partitions: Vec<Vec<Group>>,
    /// `group_of[p][tile]`: the group of `tile` in partition `p`.
    group_of: Vec<[u8; 32]>,
    dual: Dual,
    /// `around[b]`: the databases for a goal with the blank on `b`, which
    /// look up the dual position whole when the blank is on `b`.
    around: Vec<Option<Patterns>>,
}

/// Which set looks up the dual position whole when the blank is on
/// `blank`: the same kind on boards of up to 16 cells (on 4 × 4 the large
/// set around a blank off the corners is three more 7-tile tables, 87 MB),
/// the large set on the corners of 5 × 5 (the regular tables), else none.
fn dual_kind(size: Size, blank: usize, kind: HeuristicKind) -> Option<HeuristicKind> {
    let (w, h) = (size.width(), size.height());
    let (x, y) = size.coords(blank);
    let corner = (x == 0 || x == w - 1) && (y == 0 || y == h - 1);
    match kind {
        HeuristicKind::Manhattan => None,
        _ if size.cells() <= 16 => Some(kind),
        HeuristicKind::Large if (w, h) == (5, 5) && corner => Some(kind),
        _ => None,
    }
}

/// The dual lookups of Zahavi, Felner et al., with the blank handled so
/// that they stay admissible.
///
/// Name tiles by their goal cells and read a position's `cells` array
/// (the tile on each cell) as the placement of another puzzle: its object
/// `j` stands on cell `cells[j]`. Take any solution of the position, as a
/// sequence of swaps of two adjacent cells. Applied in reverse order to
/// that dual placement it brings every object home, and each swap moves
/// object `b` (the position's blank cell) and one neighbour: `b` is the
/// dual puzzle's blank, and it ends on cell `b`. So every object but `b`
/// moves only into the blank, one cell a move, and the moves of disjoint
/// sets of them add up exactly as in the regular lookup: each pattern
/// without `b` gives a lower bound from its database, as long as the
/// database does not assume the blank ends elsewhere (a pattern that walls
/// the goal blank into a corner is seeded from that corner alone). The
/// objects of the other patterns, and object `goal_blank`, which is an
/// ordinary tile in the dual, add their Manhattan distances.
///
/// When the blank is on its goal cell this is the classic dual lookup,
/// every pattern usable; elsewhere it is weaker but still a bound.
struct Dual {
    enabled: bool,
    n: usize,
    /// `usable[p * n + b]`: bit g when group g of partition p may be
    /// looked up with the blank on `b`.
    usable: Vec<u8>,
    /// `leftover[p * n + b]`: the objects that add their Manhattan
    /// distance instead.
    leftover: Vec<u32>,
    /// `distance[j * n + c]`: from cell `c` to cell `j`.
    distance: Vec<u8>,
}

impl Dual {
    fn new(size: Size, goal_blank: usize, partitions: &[Vec<Vec<u8>>]) -> Dual {
        let n = size.cells();
        let geometry = Geometry::new(size);
        let mut usable = vec![0u8; partitions.len() * n];
        let mut leftover = vec![0u32; partitions.len() * n];
        for (p, groups) in partitions.iter().enumerate() {
            for blank in 0..n {
                let mut counted = 0u32;
                for (g, group) in groups.iter().enumerate() {
                    let occupied = group.iter().fold(0u32, |m, &c| m | 1 << c);
                    let free = full_mask(n) & !occupied;
                    // A database is seeded from the goal blank's region
                    // when the pattern cuts the free cells apart.
                    let region = geometry.region(goal_blank as u32, free);
                    let home = region == free || region >> blank & 1 == 1;
                    if occupied >> blank & 1 == 0 && home {
                        usable[p * n + blank] |= 1 << g;
                        counted |= occupied;
                    }
                }
                leftover[p * n + blank] = full_mask(n) & !counted & !(1 << blank);
            }
        }
        let distance = (0..n)
            .flat_map(|j| (0..n).map(move |c| size.distance(j, c) as u8))
            .collect();
        Dual {
            enabled: false,
            n,
            usable,
            leftover,
            distance,
        }
    }
}

impl Patterns {
    pub fn new(
        size: Size,
        goal_blank: usize,
        kind: HeuristicKind,
        lookups: Lookups,
        databases: &Databases,
    ) -> Patterns {
        let mut patterns = Patterns::towards(size, goal_blank, kind, databases);
        patterns.dual.enabled = lookups == Lookups::Dual;
        if patterns.dual.enabled {
            // Only sets already loaded: a search never waits on a build.
            patterns.around = Patterns::loaded_around(size, kind, databases);
        }
        patterns
    }

    /// For each cell, the set of `kind` for a goal with the blank there,
    /// where its tables are all loaded (and `kind`'s set is the strong one
    /// [`dual_kind`] names); nothing is built.
    fn loaded_around(
        size: Size,
        kind: HeuristicKind,
        databases: &Databases,
    ) -> Vec<Option<Patterns>> {
        (0..size.cells())
            .map(|blank| {
                dual_kind(size, blank, kind)
                    .filter(|&kind| {
                        required_patterns(size, blank, kind)
                            .iter()
                            .all(|spec| databases.contains(spec))
                    })
                    .map(|kind| Patterns::towards(size, blank, kind, databases))
            })
            .collect()
    }

    /// The bound of `positions`, given up once it exceeds `cutoff`.
    #[inline]
    fn bound(&self, positions: &[u8], cutoff: u32) -> u32 {
        let mut h = 0;
        for groups in &self.partitions {
            h = h.max(groups.iter().map(|g| g.value(positions) as u32).sum());
            if h > cutoff {
                break;
            }
        }
        h
    }

    /// The databases for one goal blank, without dual lookups.
    fn towards(
        size: Size,
        goal_blank: usize,
        kind: HeuristicKind,
        databases: &Databases,
    ) -> Patterns {
        let symmetries = symmetries(size);
        let mut group_of = Vec::new();
        let cuts = partitions(size, goal_blank, kind);
        let partitions: Vec<Vec<Group>> = cuts
            .iter()
            .map(|groups| {
                assert!(groups.len() <= MAX_GROUPS);
                let mut of = [u8::MAX; 32];
                let built = groups
                    .iter()
                    .enumerate()
                    .map(|(g, group)| {
                        group.iter().for_each(|&t| of[t as usize] = g as u8);
                        let (spec, sigma) = canonical(size, group, goal_blank, &symmetries);
                        let mut frame = [0u8; 32];
                        for (c, &s) in sigma.iter().enumerate() {
                            frame[s as usize] = c as u8;
                        }
                        Group::new(
                            databases.get_or_build(&spec),
                            &spec
                                .cells()
                                .iter()
                                .map(|&s| sigma[s as usize])
                                .collect::<Vec<_>>(),
                            frame,
                        )
                    })
                    .collect();
                group_of.push(of);
                built
            })
            .collect();
        Patterns {
            dual: Dual::new(size, goal_blank, &cuts),
            partitions,
            group_of,
            around: Vec::new(),
        }
    }
}

impl Estimate for Patterns {
    type Memo = Memo;

    fn initial(&self, positions: &[u8]) -> (u32, Memo) {
        let mut memo = Memo {
            values: [[0; MAX_GROUPS]; 2],
            sums: [0; 2],
        };
        for (p, groups) in self.partitions.iter().enumerate() {
            for (g, group) in groups.iter().enumerate() {
                let v = group.value(positions);
                memo.values[p][g] = v;
                memo.sums[p] += v as u32;
            }
        }
        (memo.sums[0].max(memo.sums[1]), memo)
    }

    #[inline]
    fn update(
        &self,
        memo: &Memo,
        positions: &[u8],
        tile: u8,
        _from: u8,
        cutoff: u32,
    ) -> (u32, Memo) {
        let mut next = *memo;
        let mut h = 0;
        for (p, groups) in self.partitions.iter().enumerate() {
            let g = self.group_of[p][tile as usize & 31] as usize;
            let v = groups[g].value(positions);
            next.sums[p] = next.sums[p] + v as u32 - next.values[p][g] as u32;
            next.values[p][g] = v;
            h = h.max(next.sums[p]);
            if h > cutoff {
                // Pruned on the first partition: the reflected lookup, a
                // second cache miss in a large table, is not needed.
                break;
            }
        }
        (h, next)
    }

    fn has_dual(&self) -> bool {
        self.dual.enabled
    }

    #[inline]
    fn dual(&self, cells: &[u8], blank: usize, cutoff: u32) -> u32 {
        let dual = &self.dual;
        if !dual.enabled {
            return 0;
        }
        if let Some(Some(whole)) = self.around.get(blank) {
            // Every object looked up: no weaker than the partial sums.
            return whole.bound(cells, cutoff);
        }
        let n = dual.n;
        let mut h = 0;
        for (p, groups) in self.partitions.iter().enumerate() {
            let at = p * n + blank;
            let mut sum = 0;
            let mut rest = dual.leftover[at];
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                sum += dual.distance[j * n + cells[j] as usize] as u32;
            }
            let mut usable = dual.usable[at];
            while usable != 0 {
                let g = usable.trailing_zeros() as usize;
                usable &= usable - 1;
                sum += groups[g].value(cells) as u32;
            }
            h = h.max(sum);
            if h > cutoff {
                break;
            }
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_by_four_uses_the_column_halves_and_their_reflection() {
        let size: Size = "4x4".parse().unwrap();
        let parts = partitions(size, 0, HeuristicKind::Large);
        assert_eq!(parts.len(), 2);
        let mut halves: Vec<Vec<u8>> = parts[0].clone();
        halves.iter_mut().for_each(|g| g.sort_unstable());
        assert_eq!(
            halves,
            vec![
                vec![2, 3, 6, 7, 10, 11, 14, 15],
                vec![1, 4, 5, 8, 9, 12, 13]
            ]
        );
        // Blank-first and row-major goals share one 7-tile and one 8-tile table.
        let corner = required_patterns(size, 0, HeuristicKind::Large);
        assert_eq!(corner.len(), 2);
        assert_eq!(corner, required_patterns(size, 15, HeuristicKind::Large));
        let small = partitions(size, 15, HeuristicKind::Small);
        let sizes: Vec<usize> = small[0].iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![6, 6, 3]);
    }

    /// Each of `kind`'s partitions covers every tile (every cell but the
    /// goal blank's) once.
    fn assert_every_tile_once(size: Size, blank: usize, kind: HeuristicKind) {
        for part in partitions(size, blank, kind) {
            let mut cells: Vec<u8> = part.concat();
            cells.sort_unstable();
            let expected: Vec<u8> = (0..size.cells() as u8)
                .filter(|&c| c != blank as u8)
                .collect();
            assert_eq!(cells, expected, "{size}, blank {blank}");
        }
    }

    #[test]
    fn four_by_four_small_set_is_korf_and_felners_blocks() {
        let size: Size = "4x4".parse().unwrap();
        // Blank-first: the top row, then two 2 × 3 blocks below it.
        assert_eq!(
            partitions(size, 0, HeuristicKind::Small),
            vec![
                vec![
                    vec![4, 5, 8, 9, 12, 13],
                    vec![6, 7, 10, 11, 14, 15],
                    vec![1, 2, 3]
                ],
                vec![
                    vec![1, 2, 3, 5, 6, 7],
                    vec![9, 10, 11, 13, 14, 15],
                    vec![4, 8, 12]
                ],
            ]
        );
        // Every goal blank: each partition covers every tile once, and the
        // set needs one 6-tile table (all blocks congruent) and the 3-tile
        // tables of the blank's lines.
        for blank in 0..16 {
            assert_every_tile_once(size, blank, HeuristicKind::Small);
            let sixes = required_patterns(size, blank, HeuristicKind::Small)
                .iter()
                .filter(|spec| spec.cells().len() == 6)
                .count();
            assert!(sixes >= 1, "blank {blank}");
        }
        assert_eq!(required_patterns(size, 0, HeuristicKind::Small).len(), 2);
    }

    #[test]
    fn five_by_five_large_set_is_korf_and_felners_six_tile_blocks() {
        let size: Size = "5x5".parse().unwrap();
        // Blank-first: the drawing itself, and its turn about the diagonal.
        assert_eq!(
            partitions(size, 0, HeuristicKind::Large),
            vec![
                vec![
                    vec![1, 2, 5, 6, 7, 12],
                    vec![3, 4, 8, 9, 13, 14],
                    vec![10, 11, 15, 16, 20, 21],
                    vec![17, 18, 19, 22, 23, 24]
                ],
                vec![
                    vec![1, 5, 6, 10, 11, 12],
                    vec![15, 16, 17, 20, 21, 22],
                    vec![2, 3, 4, 7, 8, 9],
                    vec![13, 14, 18, 19, 23, 24]
                ],
            ]
        );
        // Every corner blank: two tables of six tiles serve both partitions
        // (the block that walls the blank in, and the three rectangles),
        // and each partition covers every tile once.
        for blank in [0, 4, 20, 24] {
            let specs = required_patterns(size, blank, HeuristicKind::Large);
            assert_eq!(specs.len(), 2, "blank {blank}");
            assert!(specs.iter().all(|spec| spec.cells().len() == 6));
            assert!(specs.iter().all(|spec| spec.entries() == 127_512_000));
            assert_every_tile_once(size, blank, HeuristicKind::Large);
        }
        // The small set is 5-5-5-5-4; other blanks cut six-tile columns.
        let small = partitions(size, 24, HeuristicKind::Small);
        assert_eq!(
            small[0].iter().map(Vec::len).collect::<Vec<_>>(),
            [5, 5, 5, 5, 4]
        );
        let center = partitions(size, 12, HeuristicKind::Large);
        assert!(center.iter().all(|part| part.iter().all(|g| g.len() == 6)));
    }

    #[test]
    fn symmetries_preserve_adjacency() {
        for size in ["4x4", "3x5", "2x7"] {
            let size: Size = size.parse().unwrap();
            for sigma in symmetries(size) {
                for a in 0..size.cells() {
                    for b in 0..size.cells() {
                        assert_eq!(
                            size.distance(a, b),
                            size.distance(sigma[a] as usize, sigma[b] as usize)
                        );
                    }
                }
            }
        }
    }
}
