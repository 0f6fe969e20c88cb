//! A sequence of moves, written as letters `U D L R` (the direction each
//! tile moves). Also reads the compact notation `R3D2` = `RRRDD`.

use crate::Direction;
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
/// A sequence of single-tile moves, written in the compact notation (`R3U2`).
pub struct Moves(pub Vec<Direction>);

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why move text does not parse.
#[allow(missing_docs)] // each variant's message names its fields
pub enum MovesError {
    #[error("character {found:?} at position {at} is not a move (use U, D, L, R, optionally followed by a count)")]
    BadChar { at: usize, found: char },
    #[error("count at position {at} has no move before it")]
    CountWithoutMove { at: usize },
    #[error("count at position {at} is too large")]
    CountTooLarge { at: usize },
    #[error("the moves up to position {at} are more than {most}, the most a move list may hold")]
    TooMany { at: usize, most: usize },
}

/// Longest run a single count may ask for; stops `U999999999999` from
/// allocating without bound.
const MAX_COUNT: usize = 1 << 24;

/// The most moves a text may expand to (256 MiB of moves): short text with
/// many large counts must not allocate without bound either. Solutions the
/// engine itself writes can be longer; only text read back is limited.
pub const MAX_MOVES: usize = 1 << 28;

impl Moves {
    /// No moves.
    pub fn new() -> Moves {
        Moves(Vec::new())
    }

    /// The number of single-tile moves (STM).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The moves, first to last.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Direction> + '_ {
        self.0.iter().copied()
    }

    /// The moves that undo these: reversed, each inverted.
    pub fn inverse(&self) -> Moves {
        Moves(self.0.iter().rev().map(|d| d.inverse()).collect())
    }

    /// The same walk without its back-and-forths: every move that undoes
    /// the one before it cancels with it, again and again (`RRL` → `R`,
    /// `URDLLRUD` → `URDL` … down to nothing left to cancel). It visits
    /// only positions the original visited, so it is legal wherever the
    /// original is, and ends on the same position.
    pub fn simplified(&self) -> Moves {
        let mut kept: Vec<Direction> = Vec::with_capacity(self.0.len());
        for &d in &self.0 {
            if kept.last() == Some(&d.inverse()) {
                kept.pop();
            } else {
                kept.push(d);
            }
        }
        Moves(kept)
    }

    /// The length in the multi-tile metric (MTM): a run of moves in one
    /// direction slides the tiles of one row or column in one motion, so
    /// it counts once (`RRRDDL` is 6 single-tile moves, 3 in MTM).
    pub fn mtm_len(&self) -> usize {
        let runs = self.0.windows(2).filter(|w| w[0] != w[1]).count();
        if self.0.is_empty() {
            0
        } else {
            runs + 1
        }
    }

    /// The length in `metric`.
    pub fn length(&self, metric: crate::Metric) -> usize {
        match metric {
            crate::Metric::Stm => self.len(),
            crate::Metric::Mtm => self.mtm_len(),
        }
    }

    /// The leading run of moves in one direction (`RRRDDL` → `RRR`): the
    /// first MTM move. A shortest MTM solution never moves along one line
    /// twice in a row, so its first run is its first move.
    pub fn first_run(&self) -> Moves {
        let first = self.0.first();
        Moves(
            self.0
                .iter()
                .take_while(|&d| Some(d) == first)
                .copied()
                .collect(),
        )
    }

    /// Run-length form: `RRRDDL` → `R3D2L`.
    pub fn compact(&self) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < self.0.len() {
            let run = self.0[i..].iter().take_while(|&&d| d == self.0[i]).count();
            out.push(self.0[i].letter());
            if run > 1 {
                out.push_str(&run.to_string());
            }
            i += run;
        }
        out
    }
}

impl FromIterator<Direction> for Moves {
    fn from_iter<I: IntoIterator<Item = Direction>>(iter: I) -> Moves {
        Moves(iter.into_iter().collect())
    }
}

impl fmt::Display for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = self.0.iter().map(|d| d.letter()).collect();
        f.write_str(&text)
    }
}

impl FromStr for Moves {
    type Err = MovesError;

    /// Letters in either case; spaces and commas are ignored; a number
    /// after a letter repeats it.
    fn from_str(s: &str) -> Result<Moves, MovesError> {
        Moves::parse_at_most(s, MAX_MOVES)
    }
}

impl Moves {
    /// Reads `text` as [`Moves::from_str`] does, refusing it once it would
    /// expand to more than `most` moves (`most` at most [`MAX_MOVES`]):
    /// before anything past `most` is allocated.
    pub fn parse_at_most(s: &str, most: usize) -> Result<Moves, MovesError> {
        let most = most.min(MAX_MOVES);
        let mut moves = Vec::new();
        let mut chars = s.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            if c.is_whitespace() || c == ',' {
                continue;
            }
            if c.is_ascii_digit() {
                return Err(MovesError::CountWithoutMove { at });
            }
            let direction =
                Direction::from_letter(c).ok_or(MovesError::BadChar { at, found: c })?;
            let mut count: Option<usize> = None;
            while let Some(&(digit_at, d)) = chars.peek() {
                let Some(value) = d.to_digit(10) else { break };
                let next = count.unwrap_or(0) * 10 + value as usize;
                if next > MAX_COUNT {
                    return Err(MovesError::CountTooLarge { at: digit_at });
                }
                count = Some(next);
                chars.next();
            }
            let count = count.unwrap_or(1);
            if moves.len() + count > most {
                return Err(MovesError::TooMany { at, most });
            }
            moves.extend(std::iter::repeat_n(direction, count));
        }
        Ok(Moves(moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by reading the fuzz target's growth: each count is bounded,
    /// but many counts together asked for gigabytes (a few kilobytes of
    /// `R16777216` is 450 × 16 M moves).
    #[test]
    fn many_large_counts_are_refused_not_allocated() {
        let text = "R16777216".repeat(450);
        let error = text.parse::<Moves>().unwrap_err();
        assert!(matches!(error, MovesError::TooMany { .. }), "{error}");
        assert!(error.to_string().contains("268435456"), "{error}");
        // Up to the limit is fine, and the error points at the count past it.
        let text = "R16777216U".repeat(4);
        assert_eq!(text.parse::<Moves>().unwrap().len(), 4 * (16_777_216 + 1));
    }

    #[test]
    fn a_smaller_limit_refuses_before_expanding() {
        assert_eq!(Moves::parse_at_most("R3 U2", 5).unwrap().len(), 5);
        let error = Moves::parse_at_most("R3 U2 L", 5).unwrap_err();
        assert_eq!(error, MovesError::TooMany { at: 6, most: 5 });
        let error = Moves::parse_at_most("R16777216", 100).unwrap_err();
        assert_eq!(error, MovesError::TooMany { at: 0, most: 100 });
    }

    #[test]
    fn reads_plain_and_compact_notation() {
        let m: Moves = "R3 d2,L".parse().unwrap();
        assert_eq!(m.to_string(), "RRRDDL");
        assert_eq!(m.compact(), "R3D2L");
        assert_eq!(m.first_run().to_string(), "RRR");
        assert!(Moves::new().first_run().is_empty());
        assert_eq!(m.inverse().to_string(), "RUULLL");
    }

    #[test]
    fn multi_tile_length_counts_runs() {
        let len = |s: &str| s.parse::<Moves>().unwrap().mtm_len();
        assert_eq!(len(""), 0);
        assert_eq!(len("R"), 1);
        assert_eq!(len("R3D2L"), 3);
        assert_eq!(len("RLRL"), 4);
        // An independent count: the compact notation has one letter per run.
        let m: Moves = "UUDLLLRRUD".parse().unwrap();
        let letters = m
            .compact()
            .chars()
            .filter(char::is_ascii_alphabetic)
            .count();
        assert_eq!(m.mtm_len(), letters);
    }

    #[test]
    fn rejects_what_is_not_a_move() {
        assert_eq!(
            "RX".parse::<Moves>(),
            Err(MovesError::BadChar { at: 1, found: 'X' })
        );
        assert_eq!(
            "3R".parse::<Moves>(),
            Err(MovesError::CountWithoutMove { at: 0 })
        );
        assert!(matches!(
            "U99999999999".parse::<Moves>(),
            Err(MovesError::CountTooLarge { .. })
        ));
    }
}
