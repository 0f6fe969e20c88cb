//! Which tiles match, and whether tiles fall after a removal.

use std::fmt;
use std::str::FromStr;

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
    /// Chinese matching when `chinese`, else standard: how a front end's
    /// `chinese` flag reads.
    pub fn from_chinese(chinese: bool) -> Matching {
        if chinese {
            Matching::Chinese
        } else {
            Matching::Standard
        }
    }

    /// The representative of `kind`'s matching class: two tiles match when
    /// their classes are equal.
    pub fn class(self, kind: Kind) -> Kind {
        if self == Matching::Standard {
            // Every kind is its own class: no need to read its face.
            return kind;
        }
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
///
/// As text (`Display`/`FromStr`): `standard`, or the rules that differ
/// from it joined by `-` — `gravity`, `chinese`, `gravity-chinese` — the
/// same words that name a variant's records (`18x8-gravity-chinese`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Which kinds may be paired.
    pub matching: Matching,
    /// After a removal the tiles above each removed tile fall one cell down
    /// their column.
    pub gravity: bool,
}

impl Rules {
    /// The rules of the classic game: standard matching, no gravity.
    pub const STANDARD: Rules = Rules {
        matching: Matching::Standard,
        gravity: false,
    };

    /// The rules with `matching` and, if `gravity`, falling tiles.
    pub fn new(matching: Matching, gravity: bool) -> Rules {
        Rules { matching, gravity }
    }

    /// The words that differ from the standard rules, in order.
    fn words(self) -> impl Iterator<Item = &'static str> {
        let gravity = self.gravity.then_some("gravity");
        let chinese = (self.matching == Matching::Chinese).then_some("chinese");
        gravity.into_iter().chain(chinese)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<&str> = self.words().collect();
        if words.is_empty() {
            f.write_str("standard")
        } else {
            f.write_str(&words.join("-"))
        }
    }
}

/// Text that names no rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {0:?}: expected standard, or gravity and/or chinese joined by '-'")]
pub struct RulesError(pub String);

impl FromStr for Rules {
    type Err = RulesError;

    /// `standard`, or any of `gravity` and `chinese` joined by `-` (each
    /// at most once, in any order).
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let bad = || RulesError(s.to_string());
        if s == "standard" {
            return Ok(Rules::STANDARD);
        }
        let mut rules = Rules::STANDARD;
        for word in s.split('-') {
            match word {
                "gravity" if !rules.gravity => rules.gravity = true,
                "chinese" if rules.matching == Matching::Standard => {
                    rules.matching = Matching::Chinese;
                }
                _ => return Err(bad()),
            }
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_print_and_parse_back() {
        for matching in [Matching::Standard, Matching::Chinese] {
            for gravity in [false, true] {
                let rules = Rules::new(matching, gravity);
                assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
            }
        }
        assert_eq!(Rules::STANDARD.to_string(), "standard");
        assert_eq!(
            Rules::new(Matching::Chinese, true).to_string(),
            "gravity-chinese"
        );
        assert_eq!(
            "chinese-gravity".parse::<Rules>(),
            Ok(Rules::new(Matching::Chinese, true))
        );
        for bad in [
            "",
            "gravity-gravity",
            "standard-gravity",
            "Gravity",
            "gravity=",
        ] {
            assert!(bad.parse::<Rules>().is_err(), "{bad:?}");
        }
    }
}
