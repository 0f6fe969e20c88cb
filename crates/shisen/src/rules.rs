//! Which tiles match, and whether tiles fall after a removal.

use crate::kind::{Face, Kind};

/// Which kinds may be paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Matching {
    /// A tile matches only tiles of its own kind.
    #[default]
    Standard,
    /// As standard, but any flower matches any flower and any season any
    /// season (the Chinese set has one tile of each flower and season).
    Chinese,
}

impl Matching {
    /// The representative of `kind`'s matching class: two tiles match when
    /// their classes are equal.
    pub fn class(self, kind: Kind) -> Kind {
        match (self, kind.face()) {
            (Matching::Chinese, Face::Flower(_)) => {
                Kind::nth(crate::kind::FIRST_FLOWER).unwrap_or(kind)
            }
            (Matching::Chinese, Face::Season(_)) => {
                Kind::nth(crate::kind::FIRST_SEASON).unwrap_or(kind)
            }
            _ => kind,
        }
    }

    /// Whether tiles of kinds `a` and `b` may be removed together.
    pub fn matches(self, a: Kind, b: Kind) -> bool {
        self.class(a) == self.class(b)
    }
}

/// The rules of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    pub matching: Matching,
    /// After a removal the tiles above each removed tile fall one cell down
    /// their column.
    pub gravity: bool,
}
