//! What a Shisen-Sho deal is: a size, a tile set, gravity or not, and
//! whether only solvable deals are dealt.

use std::fmt;
use std::str::FromStr;

use shisen::{Board, Deal, Rules, Size, TileSet, TileSetError};

use crate::Deadline;

/// A kind of deal, as a player picks it.
///
/// As text: the size, then the words that differ from a standard,
/// solvable-only deal, joined by `-`: `18x8`, `18x8-gravity-chinese`,
/// `8x4-tiles:8x4`, `14x6-any` (deals that may be unsolvable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShisenSpec {
    /// The board's interior size.
    pub size: Size,
    /// The tiles dealt; the Chinese set brings its matching rule.
    pub tiles: TileSet,
    /// Tiles fall down their column after a removal.
    pub gravity: bool,
    /// Only deals the solver can clear (drawn uniformly among them).
    pub solvable: bool,
}

/// Why no deal came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// The tile set cannot fill the board.
    #[error(transparent)]
    Tiles(#[from] TileSetError),
    /// The deadline passed before a solvable deal was found. The deal of a
    /// seed is fixed: it is never replaced by an easier one.
    #[error("the solver ran out of time finding a solvable deal")]
    OutOfTime,
    /// Every draw the generator makes was proven unsolvable.
    #[error("no solvable {0} deal among the first {max} draws", max = Deal::MAX_ATTEMPTS)]
    NoneSolvable(Size),
}

impl ShisenSpec {
    /// The classic game: 18 × 8, the standard tiles, no gravity, solvable
    /// deals only.
    pub const CLASSIC: ShisenSpec = ShisenSpec {
        size: Size::DEFAULT,
        tiles: TileSet::Standard,
        gravity: false,
        solvable: true,
    };

    /// The rules the game is played by: the tile set's matching, and
    /// gravity.
    pub fn rules(&self) -> Rules {
        Rules::new(self.tiles.matching(), self.gravity)
    }

    /// The name records are grouped under: the size and the rules (and a
    /// custom tile set), e.g. `18x8` or `18x8-gravity-chinese`. Whether
    /// deals are solvable-only is no part of it.
    pub fn variant(&self) -> String {
        let mut name = self.size.to_string();
        for word in self.words() {
            if word != "any" {
                name.push('-');
                name.push_str(&word);
            }
        }
        name
    }

    fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if self.gravity {
            words.push("gravity".to_string());
        }
        match self.tiles {
            TileSet::Standard => {}
            TileSet::Chinese => words.push("chinese".to_string()),
            custom => words.push(format!("tiles:{custom}")),
        }
        if !self.solvable {
            words.push("any".to_string());
        }
        words
    }

    /// The board `seed` deals. A solvable-only deal is exactly
    /// `shisen::Deal::solvable`: the first draw of the seed's stream that
    /// the solver does not prove unsolvable. `deadline` can make it give up
    /// ([`DealError::OutOfTime`]) but never makes it skip a hard draw, so a
    /// seed deals the same board on every front end.
    pub fn deal(&self, seed: u64, deadline: &mut Deadline) -> Result<Board, DealError> {
        if !self.solvable {
            return Ok(Deal::random(seed, self.size, self.tiles)?);
        }
        match Deal::solvable(seed, self.size, self.tiles, self.rules(), deadline)? {
            Some(deal) => Ok(deal.board),
            None if deadline.stopped() => Err(DealError::OutOfTime),
            None => Err(DealError::NoneSolvable(self.size)),
        }
    }
}

impl fmt::Display for ShisenSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.size)?;
        for word in self.words() {
            write!(f, "-{word}")?;
        }
        Ok(())
    }
}

/// Text that names no deal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The size before the first `-`.
    #[error(transparent)]
    Size(#[from] shisen::SizeError),
    /// The tile set after `tiles:`.
    #[error(transparent)]
    Tiles(#[from] TileSetError),
    /// A word that is none of gravity, chinese, any, tiles:SET, or one
    /// given twice.
    #[error(
        "unknown or repeated word {0:?} in a deal: expected gravity, chinese, any or tiles:KxC"
    )]
    Word(String),
}

impl FromStr for ShisenSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<ShisenSpec, SpecError> {
        let mut words = s.split('-');
        let size = words.next().unwrap_or_default().parse()?;
        let mut spec = ShisenSpec {
            size,
            ..ShisenSpec::CLASSIC
        };
        for word in words {
            let repeated = || SpecError::Word(word.to_string());
            let standard = spec.tiles == TileSet::Standard;
            match word {
                "gravity" if !spec.gravity => spec.gravity = true,
                "chinese" if standard => spec.tiles = TileSet::Chinese,
                "any" if spec.solvable => spec.solvable = false,
                _ => match word.strip_prefix("tiles:") {
                    Some(set) if standard => spec.tiles = set.parse()?,
                    _ => return Err(repeated()),
                },
            }
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shisen::Matching;

    fn spec(text: &str) -> ShisenSpec {
        text.parse().unwrap()
    }

    #[test]
    fn specs_print_and_parse_back() {
        for text in [
            "18x8",
            "18x8-gravity",
            "18x8-chinese",
            "14x6-gravity-chinese-any",
            "8x4-tiles:8x4",
            "8x4-gravity-tiles:16x2-any",
        ] {
            assert_eq!(spec(text).to_string(), text);
        }
        assert_eq!(spec("18x8"), ShisenSpec::CLASSIC);
        // Words in any order; printed in one order.
        assert_eq!(
            spec("18x8-chinese-gravity").to_string(),
            "18x8-gravity-chinese"
        );
        for bad in [
            "",
            "18x8-",
            "18x8-gravity-gravity",
            "18x8-chinese-tiles:8x4",
            "18x8-fast",
            "99x8",
        ] {
            assert!(bad.parse::<ShisenSpec>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn variants_name_size_and_rules_only() {
        assert_eq!(spec("18x8-any").variant(), "18x8");
        assert_eq!(
            spec("18x8-gravity-chinese").variant(),
            "18x8-gravity-chinese"
        );
        let rules = spec("18x8-gravity-chinese").rules();
        assert_eq!(rules, Rules::new(Matching::Chinese, true));
        assert_eq!(
            spec("18x8-gravity-chinese").variant(),
            format!("18x8-{rules}")
        );
    }

    #[test]
    fn a_solvable_deal_is_the_engines_and_a_deadline_never_changes_it() {
        let spec = spec("8x4-gravity-tiles:8x4");
        for seed in 0..20 {
            let unbounded = Deal::solvable(
                seed,
                spec.size,
                spec.tiles,
                spec.rules(),
                &mut shisen::Nodes(u64::MAX),
            )
            .unwrap()
            .unwrap()
            .board;
            assert_eq!(spec.deal(seed, &mut Deadline::none()).unwrap(), unbounded);
            // A budget too small to decide anything gives up; it never deals
            // another board.
            let tight = spec.deal(seed, &mut Deadline::none().with_nodes(1));
            assert!(matches!(tight, Err(DealError::OutOfTime) | Ok(_)));
            if let Ok(board) = tight {
                assert_eq!(board, unbounded);
            }
        }
    }

    #[test]
    fn any_deals_are_plain_random_deals() {
        let spec = spec("6x4-tiles:6x4-any");
        let board = spec.deal(9, &mut Deadline::none()).unwrap();
        assert_eq!(board, Deal::random(9, spec.size, spec.tiles).unwrap());
        let odd = ShisenSpec {
            size: Size::new(3, 3).unwrap(),
            ..spec
        };
        assert!(matches!(
            odd.deal(1, &mut Deadline::none()),
            Err(DealError::Tiles(_))
        ));
    }
}
