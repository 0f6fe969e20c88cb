//! The core categories power is summed over, named as Open Slidysim
//! names them: `3x3 ao12`, `4x4 x10`, `6x6 relay`, `20x20 single`.

use std::fmt;
use std::str::FromStr;

use slide::Size;

use crate::average::AVERAGES;
use crate::format::{Descent, Format, FormatError, MarathonLength};

/// What is timed in a core category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CategoryKind {
    /// One solve (`single`).
    Single,
    /// The best average of this many consecutive single solves (`ao12`).
    Average(usize),
    /// A marathon of this many puzzles (`x42`).
    Marathon(MarathonLength),
    /// slidysim's relay from N×N down to 2×2 (`relay`).
    Relay,
}

/// A core category: a size and what is timed on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreCategory {
    /// The board, and for a relay the size it starts from.
    pub size: Size,
    /// What is timed on it.
    pub kind: CategoryKind,
}

/// Why a text is not a core category.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CategoryError {
    /// Not a size, a space and a known kind.
    #[error("{0:?} is not a category: expected a size and one of single, aoN (N = 5, 12, 50, 100), xN (a marathon) or relay, e.g. \"4x4 ao12\"")]
    Syntax(String),
    /// A marathon of a length no marathon has.
    #[error("{0:?}: {1}")]
    Format(String, FormatError),
}

impl CoreCategory {
    /// The variant its results are recorded under (solved to the usual
    /// goal, row by row with the blank last, as slidysim deals them).
    pub fn variant(&self) -> String {
        format!("{}-row-major", self.size)
    }

    /// The format its results are recorded under: an average is of
    /// single solves.
    pub fn format(&self) -> Format {
        match self.kind {
            CategoryKind::Single | CategoryKind::Average(_) => Format::Single,
            CategoryKind::Marathon(length) => Format::Marathon(length),
            CategoryKind::Relay => Format::Down(Descent::Square),
        }
    }

    /// How many consecutive results its time averages; `None` for a
    /// single result.
    pub fn average(&self) -> Option<usize> {
        match self.kind {
            CategoryKind::Average(n) => Some(n),
            _ => None,
        }
    }
}

impl FromStr for CoreCategory {
    type Err = CategoryError;

    fn from_str(text: &str) -> Result<CoreCategory, CategoryError> {
        let syntax = || CategoryError::Syntax(text.to_string());
        let (size, kind) = text.split_once(' ').ok_or_else(syntax)?;
        let size: Size = size.parse().map_err(|_| syntax())?;
        let kind = if kind == "single" {
            CategoryKind::Single
        } else if kind == "relay" {
            CategoryKind::Relay
        } else if let Some(n) = kind.strip_prefix("ao") {
            let n = n.parse().map_err(|_| syntax())?;
            if !AVERAGES.contains(&n) {
                return Err(syntax());
            }
            CategoryKind::Average(n)
        } else if let Some(n) = kind.strip_prefix('x') {
            let n = n.parse().map_err(|_| syntax())?;
            let length =
                MarathonLength::new(n).map_err(|e| CategoryError::Format(text.to_string(), e))?;
            CategoryKind::Marathon(length)
        } else {
            return Err(syntax());
        };
        let category = CoreCategory { size, kind };
        if let CategoryKind::Relay = kind {
            // The relay must start where it deals two puzzles at least.
            if Descent::Square.check(size).is_err() {
                return Err(syntax());
            }
        }
        Ok(category)
    }
}

impl fmt::Display for CoreCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            CategoryKind::Single => write!(f, "{} single", self.size),
            CategoryKind::Average(n) => write!(f, "{} ao{n}", self.size),
            CategoryKind::Marathon(length) => write!(f, "{} x{}", self.size, length.get()),
            CategoryKind::Relay => write!(f, "{} relay", self.size),
        }
    }
}
