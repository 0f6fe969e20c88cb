//! Additive pattern databases, maximised over the partitions, with the
//! optional dual lookup.

use super::*;

/// One pattern of a partition, looked up through a symmetry.
pub(super) struct Group {
    pub(super) database: Arc<PatternDatabase>,
    /// The database's values a byte each, when it holds them so: kept
    /// here so that a lookup reads them without going through the
    /// database.
    pub(super) wide: Option<Arc<[u8]>>,
    /// Goal cells of the tiles, in the database's slot order: the first
    /// `len` entries, in a fixed array so that a lookup needs no pointer
    /// chase.
    pub(super) tiles: [u8; 32],
    pub(super) len: usize,
    /// The weight of slot `j`'s digit in the index: the product of the
    /// later slots' radices. The digits' products are independent, so the
    /// index is not one chain of multiplications. Set for the byte lookup
    /// (patterns of at most [`FAST_TILES`] tiles).
    pub(super) weights: [u32; FAST_TILES],
    /// Maps a board cell to the database's frame (σ⁻¹); 32 entries, so
    /// that a cell masked to five bits needs no bounds check.
    pub(super) frame: [u8; 32],
}

/// The most tiles a pattern may have for the fixed-array byte lookup.
pub(super) const FAST_TILES: usize = 8;

impl Group {
    pub(super) fn new(database: Arc<PatternDatabase>, goal_cells: &[u8], frame: [u8; 32]) -> Group {
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
    pub(super) fn value(&self, positions: &[u8]) -> u8 {
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

/// Additive pattern databases, maximised over up to two partitions.
pub(crate) struct Patterns {
    pub(super) partitions: Vec<Vec<Group>>,
    /// `group_of[p][tile]`: the group of `tile` in partition `p`.
    pub(super) group_of: Vec<[u8; 32]>,
    pub(super) dual: Dual,
    /// `around[b]`: the databases for a goal with the blank on `b`, which
    /// look up the dual position whole when the blank is on `b`.
    pub(super) around: Vec<Option<Patterns>>,
}

/// Which set looks up the dual position whole when the blank is on
/// `blank`: the same kind on boards of up to 16 cells (on 4 × 4 the large
/// set around a blank off the corners is three more 7-tile tables, 87 MB),
/// the large set on the corners of 5 × 5 (the regular tables), else none.
pub(super) fn dual_kind(size: Size, blank: usize, kind: HeuristicKind) -> Option<HeuristicKind> {
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
pub(super) struct Dual {
    pub(super) enabled: bool,
    pub(super) n: usize,
    /// `usable[p * n + b]`: bit g when group g of partition p may be
    /// looked up with the blank on `b`.
    pub(super) usable: Vec<u8>,
    /// `leftover[p * n + b]`: the objects that add their Manhattan
    /// distance instead.
    pub(super) leftover: Vec<u32>,
    /// `distance[j * n + c]`: from cell `c` to cell `j`.
    pub(super) distance: Vec<u8>,
}

impl Dual {
    pub(super) fn new(size: Size, goal_blank: usize, partitions: &[Vec<Vec<u8>>]) -> Dual {
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
    pub(super) fn loaded_around(
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
    pub(super) fn bound(&self, positions: &[u8], cutoff: u32) -> u32 {
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
    pub(super) fn towards(
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
