//! The choices of heuristic and of lookups, parsed from their names.

use super::*;

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
    pub(super) fn group_size(self, cells: usize) -> usize {
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
