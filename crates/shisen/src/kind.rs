//! Tile kinds: the text symbol of a tile and the mahjong face it stands for.
//!
//! A kind is identified by the one character that spells it in the text
//! format. The 42 mahjong faces have fixed symbols:
//!
//! | face                                   | symbols       |
//! |----------------------------------------|---------------|
//! | circles (dots) 1–9                     | `1` … `9`     |
//! | bamboo 1–9                             | `a` … `i`     |
//! | characters 1–9                         | `j` … `r`     |
//! | winds east, south, west, north         | `E` `S` `W` `N` |
//! | dragons red, green, white              | `R` `G` `H`   |
//! | flowers plum, orchid, chrysanthemum, bamboo | `s` `t` `u` `v` |
//! | seasons spring, summer, autumn, winter | `w` `x` `y` `z` |
//!
//! Any other printable character is a plain kind without mahjong identity
//! (custom tile sets use them beyond the 42 faces).

use std::fmt;

/// The suit of a numbered tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Circles (dots), `1`–`9`.
    Circles,
    /// Bamboo, `a`–`i`.
    Bamboo,
    /// Characters, `j`–`r`.
    Characters,
}

/// The four winds, in seat order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wind {
    /// East wind, `E`.
    East,
    /// South wind, `S`.
    South,
    /// West wind, `W`.
    West,
    /// North wind, `N`.
    North,
}

/// The three dragons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dragon {
    /// Red dragon, `R`.
    Red,
    /// Green dragon, `G`.
    Green,
    /// White dragon, `H`.
    White,
}

/// The mahjong identity of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    /// A numbered tile, rank 1–9.
    Suited {
        /// Its suit.
        suit: Suit,
        /// Its rank, 1–9.
        rank: u8,
    },
    /// A wind.
    Wind(Wind),
    /// A dragon.
    Dragon(Dragon),
    /// Flower 1–4: plum, orchid, chrysanthemum, bamboo.
    Flower(u8),
    /// Season 1–4: spring, summer, autumn, winter.
    Season(u8),
    /// A kind without mahjong identity.
    Plain,
}

/// A tile kind, spelled by one printable character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(char);

/// Why a character cannot be a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KindError {
    #[error("'.' marks an empty cell, not a kind")]
    /// The character is `.`, an empty cell, not a kind.
    Empty,
    #[error("{0:?} is not a printable character")]
    /// The character cannot be printed (a control character or a space).
    NotPrintable(char),
}

const WINDS: [char; 4] = ['E', 'S', 'W', 'N'];
const DRAGONS: [char; 3] = ['R', 'G', 'H'];

/// The symbols of the 42 mahjong faces in tile-set order: the 34 classic
/// kinds, then the flowers, then the seasons.
const FACE_SYMBOLS: [char; 42] = [
    '1', '2', '3', '4', '5', '6', '7', '8', '9', // circles
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', // bamboo
    'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', // characters
    'E', 'S', 'W', 'N', // winds
    'R', 'G', 'H', // dragons
    's', 't', 'u', 'v', // flowers
    'w', 'x', 'y', 'z', // seasons
];

/// Index of the first flower (plum) in [`Kind::nth`] order.
pub(crate) const FIRST_FLOWER: usize = 34;
/// Index of the first season (spring) in [`Kind::nth`] order.
pub(crate) const FIRST_SEASON: usize = 38;

/// Plain symbols handed out after the 42 faces: the unused ASCII letters,
/// then CJK ideographs (U+4E00 on), which are all printable.
const PLAIN_ASCII: [char; 19] = [
    'A', 'B', 'C', 'D', 'F', 'I', 'J', 'K', 'L', 'M', 'O', 'P', 'Q', 'T', 'U', 'V', 'X', 'Y', 'Z',
];

impl Kind {
    /// The number of distinct kinds [`Kind::nth`] can produce.
    pub const COUNT: usize = FACE_SYMBOLS.len() + PLAIN_ASCII.len() + 0x5000;

    /// The kind spelled by `symbol`.
    pub fn new(symbol: char) -> Result<Kind, KindError> {
        if symbol == '.' {
            Err(KindError::Empty)
        } else if symbol.is_control() || symbol.is_whitespace() {
            Err(KindError::NotPrintable(symbol))
        } else {
            Ok(Kind(symbol))
        }
    }

    /// Some kind, for computations whose result is thrown away.
    pub(crate) const PLACEHOLDER: Kind = Kind('1');

    /// The kind spelled by a graphic ASCII byte other than `.`: the
    /// parser's fast path, which has checked the byte already. (It also
    /// takes `.` and throws that result away, rather than branch.)
    #[inline]
    pub(crate) fn from_graphic_ascii(byte: u8) -> Kind {
        debug_assert!(byte.is_ascii_graphic());
        Kind(char::from(byte))
    }

    /// The `n`-th kind of the canonical order used by tile sets: the 42
    /// mahjong faces, then plain kinds. `None` past [`Kind::COUNT`].
    pub fn nth(n: usize) -> Option<Kind> {
        let faces = FACE_SYMBOLS.len();
        let ascii = faces + PLAIN_ASCII.len();
        if n < faces {
            Some(Kind(FACE_SYMBOLS[n]))
        } else if n < ascii {
            Some(Kind(PLAIN_ASCII[n - faces]))
        } else if n < Self::COUNT {
            char::from_u32(0x4E00 + (n - ascii) as u32).map(Kind)
        } else {
            None
        }
    }

    /// The character that spells this kind in the text format.
    pub fn symbol(self) -> char {
        self.0
    }

    /// The mahjong identity of this kind.
    pub fn face(self) -> Face {
        let c = self.0;
        let rank = |base: char| (c as u8 - base as u8) + 1;
        match c {
            '1'..='9' => Face::Suited {
                suit: Suit::Circles,
                rank: rank('1'),
            },
            'a'..='i' => Face::Suited {
                suit: Suit::Bamboo,
                rank: rank('a'),
            },
            'j'..='r' => Face::Suited {
                suit: Suit::Characters,
                rank: rank('j'),
            },
            's'..='v' => Face::Flower(rank('s')),
            'w'..='z' => Face::Season(rank('w')),
            _ => {
                if let Some(i) = WINDS.iter().position(|&w| w == c) {
                    Face::Wind([Wind::East, Wind::South, Wind::West, Wind::North][i])
                } else if let Some(i) = DRAGONS.iter().position(|&d| d == c) {
                    Face::Dragon([Dragon::Red, Dragon::Green, Dragon::White][i])
                } else {
                    Face::Plain
                }
            }
        }
    }

    /// The Unicode mahjong tile (U+1F000 block) of this kind, or its symbol
    /// for plain kinds.
    pub fn glyph(self) -> char {
        let offset = match self.face() {
            Face::Wind(w) => w as u32,
            Face::Dragon(d) => 4 + d as u32,
            Face::Suited { suit, rank } => {
                let base = match suit {
                    Suit::Characters => 0x07,
                    Suit::Bamboo => 0x10,
                    Suit::Circles => 0x19,
                };
                base + u32::from(rank) - 1
            }
            Face::Flower(n) => 0x22 + u32::from(n) - 1,
            Face::Season(n) => 0x26 + u32::from(n) - 1,
            Face::Plain => return self.0,
        };
        char::from_u32(0x1F000 + offset).unwrap_or(self.0)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_have_distinct_symbols_and_glyphs() {
        let kinds: Vec<Kind> = (0..42).map(|n| Kind::nth(n).unwrap()).collect();
        let mut glyphs: Vec<char> = kinds.iter().map(|k| k.glyph()).collect();
        glyphs.sort_unstable();
        glyphs.dedup();
        assert_eq!(glyphs.len(), 42);
        assert!(kinds.iter().all(|k| k.face() != Face::Plain));
        assert!(glyphs
            .iter()
            .all(|&g| ('\u{1F000}'..='\u{1F029}').contains(&g)));
    }

    #[test]
    fn symbols_map_to_faces() {
        let k = |c| Kind::new(c).unwrap().face();
        assert_eq!(
            k('5'),
            Face::Suited {
                suit: Suit::Circles,
                rank: 5
            }
        );
        assert_eq!(
            k('i'),
            Face::Suited {
                suit: Suit::Bamboo,
                rank: 9
            }
        );
        assert_eq!(
            k('j'),
            Face::Suited {
                suit: Suit::Characters,
                rank: 1
            }
        );
        assert_eq!(k('N'), Face::Wind(Wind::North));
        assert_eq!(k('H'), Face::Dragon(Dragon::White));
        assert_eq!(k('v'), Face::Flower(4));
        assert_eq!(k('w'), Face::Season(1));
        assert_eq!(k('#'), Face::Plain);
        assert_eq!(Kind::new('E').unwrap().glyph(), '\u{1F000}');
        assert_eq!(Kind::new('j').unwrap().glyph(), '\u{1F007}');
    }

    #[test]
    fn rejects_non_kinds() {
        assert_eq!(Kind::new('.'), Err(KindError::Empty));
        assert_eq!(Kind::new(' '), Err(KindError::NotPrintable(' ')));
        assert_eq!(Kind::new('\t'), Err(KindError::NotPrintable('\t')));
    }

    #[test]
    fn nth_kinds_are_distinct_and_valid() {
        let mut all: Vec<Kind> = (0..Kind::COUNT).map(|n| Kind::nth(n).unwrap()).collect();
        assert!(all.iter().all(|k| Kind::new(k.symbol()) == Ok(*k)));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), Kind::COUNT);
        assert_eq!(Kind::nth(Kind::COUNT), None);
    }
}
