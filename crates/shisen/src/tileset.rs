//! Tile sets: which kinds a deal uses and how many of each.
//!
//! A set is a cyclic list of groups. `standard` is the 36 kinds dealt by
//! kshisen on 18 × 8 — the 34 classic kinds (circles, bamboo, characters,
//! winds, dragons) plus plum and orchid — four of each. `chinese` is the 34
//! classic kinds × 4 followed by a group of the four flowers and a group of
//! the four seasons (played with [`Matching::Chinese`], where any flower
//! matches any flower). `KxC` is the first K kinds of [`Kind::nth`], C of
//! each.
//!
//! A board whose cell count differs from the set's is filled by cycling
//! through the groups in order until the board is full, trimming the last
//! group to the cells left. Every cell count must therefore be even, and
//! every group has an even size, so every matching class ends up with an
//! even count: 14 × 6 takes the first 21 standard kinds, 24 × 12 the
//! standard set twice, 30 × 16 three times plus 12 kinds.

use std::fmt;
use std::str::FromStr;

use crate::kind::Kind;
use crate::rules::Matching;
use crate::size::Size;

/// A tile set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TileSet {
    #[default]
    /// kshisen's 36 kinds × 4: the 34 classic kinds plus plum and orchid.
    Standard,
    /// The 34 classic kinds × 4, then the four flowers and the four seasons.
    Chinese,
    /// `kinds` kinds × `copies` copies; `copies` is even and both are ≥ 1.
    Custom {
        /// How many kinds.
        kinds: u16,
        /// Copies of each kind (even).
        copies: u16,
    },
}

/// Why a tile set name or a deal size is not usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TileSetError {
    #[error("unknown tile set {0:?}: expected standard, chinese or KxC (e.g. 36x4)")]
    /// A name that is not a tile set.
    Unknown(String),
    #[error("tile set {0}: the number of copies must be even and at least 2")]
    /// A custom set with an odd (or zero) number of copies.
    OddCopies(String),
    #[error("tile set {0}: kinds must be between 1 and {max}", max = Kind::COUNT)]
    /// A custom set with more kinds than there are faces, or none.
    KindsOutOfRange(String),
    #[error("a {0} board has an odd number of cells: tiles go in pairs")]
    /// A board whose cell count is odd.
    OddCells(Size),
}

impl TileSet {
    /// A custom set of `kinds` kinds × `copies` copies.
    pub fn custom(kinds: usize, copies: usize) -> Result<TileSet, TileSetError> {
        let name = format!("{kinds}x{copies}");
        if kinds == 0 || kinds > Kind::COUNT {
            return Err(TileSetError::KindsOutOfRange(name));
        }
        if copies == 0 || copies % 2 == 1 || copies > usize::from(u16::MAX) {
            return Err(TileSetError::OddCopies(name));
        }
        Ok(TileSet::Custom {
            kinds: kinds as u16,
            copies: copies as u16,
        })
    }

    /// The matching rule this set is meant for.
    pub fn matching(self) -> Matching {
        match self {
            TileSet::Chinese => Matching::Chinese,
            _ => Matching::Standard,
        }
    }

    /// The set's groups in order; each group is a list of tiles.
    fn groups(self) -> Vec<Vec<Kind>> {
        let kind = |n: usize| Kind::nth(n).expect("tile sets stay within Kind::COUNT");
        let repeat = |n: usize, copies: usize| vec![kind(n); copies];
        match self {
            TileSet::Standard => (0..36).map(|n| repeat(n, 4)).collect(),
            TileSet::Chinese => {
                let mut groups: Vec<Vec<Kind>> = (0..34).map(|n| repeat(n, 4)).collect();
                groups.push((34..38).map(kind).collect());
                groups.push((38..42).map(kind).collect());
                groups
            }
            TileSet::Custom { kinds, copies } => (0..usize::from(kinds))
                .map(|n| repeat(n, usize::from(copies)))
                .collect(),
        }
    }

    /// The tiles of a deal of `size`, in set order (unshuffled).
    pub fn tiles(self, size: Size) -> Result<Vec<Kind>, TileSetError> {
        // A custom set built directly, not through `custom`, is checked here.
        if let TileSet::Custom { kinds, copies } = self {
            TileSet::custom(usize::from(kinds), usize::from(copies))?;
        }
        let cells = size.cells();
        if cells % 2 == 1 {
            return Err(TileSetError::OddCells(size));
        }
        let groups = self.groups();
        let mut tiles = Vec::with_capacity(cells);
        for group in groups.iter().cycle() {
            let left = cells - tiles.len();
            if left == 0 {
                break;
            }
            tiles.extend_from_slice(&group[..group.len().min(left)]);
        }
        Ok(tiles)
    }
}

impl fmt::Display for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TileSet::Standard => write!(f, "standard"),
            TileSet::Chinese => write!(f, "chinese"),
            TileSet::Custom { kinds, copies } => write!(f, "{kinds}x{copies}"),
        }
    }
}

impl FromStr for TileSet {
    type Err = TileSetError;

    fn from_str(s: &str) -> Result<TileSet, TileSetError> {
        match s {
            "standard" => Ok(TileSet::Standard),
            "chinese" => Ok(TileSet::Chinese),
            _ => {
                let unknown = || TileSetError::Unknown(s.to_string());
                let (k, c) = s.split_once(['x', 'X']).ok_or_else(unknown)?;
                let k: usize = k.parse().map_err(|_| unknown())?;
                let c: usize = c.parse().map_err(|_| unknown())?;
                TileSet::custom(k, c)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn counts(set: TileSet, size: Size) -> HashMap<Kind, usize> {
        let mut counts = HashMap::new();
        for k in set.tiles(size).unwrap() {
            *counts.entry(set.matching().class(k)).or_insert(0) += 1;
        }
        counts
    }

    #[test]
    fn standard_is_36_kinds_of_4_on_18x8() {
        let c = counts(TileSet::Standard, Size::DEFAULT);
        assert_eq!(c.len(), 36);
        assert!(c.values().all(|&n| n == 4));
    }

    #[test]
    fn chinese_has_single_flowers_and_seasons() {
        let tiles = TileSet::Chinese.tiles(Size::DEFAULT).unwrap();
        assert_eq!(tiles.len(), 144);
        let mut kinds = tiles.clone();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds.len(), 42);
        let c = counts(TileSet::Chinese, Size::DEFAULT);
        assert_eq!(c.len(), 36);
        assert!(c.values().all(|&n| n == 4));
    }

    #[test]
    fn presets_fill_with_even_classes() {
        for (w, h) in crate::size::PRESETS {
            let size = Size::new(w, h).unwrap();
            for set in [
                TileSet::Standard,
                TileSet::Chinese,
                TileSet::custom(10, 6).unwrap(),
            ] {
                let c = counts(set, size);
                assert_eq!(c.values().sum::<usize>(), w * h);
                assert!(c.values().all(|&n| n % 2 == 0), "{set} on {size}");
            }
        }
        assert_eq!(
            counts(TileSet::Standard, Size::new(14, 6).unwrap()).len(),
            21
        );
    }

    #[test]
    fn parses_names() {
        assert_eq!("standard".parse(), Ok(TileSet::Standard));
        assert_eq!(
            "12x2".parse(),
            Ok(TileSet::Custom {
                kinds: 12,
                copies: 2
            })
        );
        assert!(matches!(
            "12x3".parse::<TileSet>(),
            Err(TileSetError::OddCopies(_))
        ));
        assert!(matches!(
            "0x2".parse::<TileSet>(),
            Err(TileSetError::KindsOutOfRange(_))
        ));
        assert!(matches!(
            "mahjong".parse::<TileSet>(),
            Err(TileSetError::Unknown(_))
        ));
        let bad = TileSet::Custom {
            kinds: 3,
            copies: 3,
        };
        assert!(matches!(
            bad.tiles(Size::DEFAULT),
            Err(TileSetError::OddCopies(_))
        ));
        let bad = TileSet::Custom {
            kinds: u16::MAX,
            copies: 2,
        };
        assert!(matches!(
            bad.tiles(Size::DEFAULT),
            Err(TileSetError::KindsOutOfRange(_))
        ));
        let odd = Size::new(3, 3).unwrap();
        assert_eq!(
            TileSet::Standard.tiles(odd),
            Err(TileSetError::OddCells(odd))
        );
    }
}
