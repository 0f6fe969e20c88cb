//! Goals: the arrangement a puzzle is solved into.

use crate::{ParseError, Position, Size};
use std::fmt;
use std::str::FromStr;

/// A target arrangement, by name or given in full.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Tiles 1..n−1 left to right, top to bottom, blank last: the classic.
    RowMajor,
    /// Blank first, then 1..n−1 (Korf's research instances).
    BlankFirst,
    /// Row 0 left→right, row 1 right→left, …; the blank at the path's end.
    Snake,
    /// Clockwise from the top-left corner inward; the blank at the centre end.
    Spiral,
    /// "Missing number": labels 1..n in row-major order with label `k`
    /// left out; the blank sits in `k`'s cell.
    Missing(u32),
    /// Any arrangement (including missing-number layouts).
    Custom(Position),
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why a goal cannot be used.
#[allow(missing_docs)] // each variant's message names its fields
pub enum GoalError {
    #[error("goal {goal} is for a {goal_size} board, not {size}")]
    /// A goal position of another size than the puzzle.
    SizeMismatch {
        /// The goal as given.
        goal: String,
        /// The goal's size.
        goal_size: Size,
        /// The puzzle's size.
        size: Size,
    },
    #[error("missing number {label} is out of range: a {size} board has labels 1 to {}", .size.cells())]
    MissingOutOfRange { label: u32, size: Size },
    #[error("unknown goal {0:?}: use row-major, blank-first, snake, spiral, missing:K, or a position such as \"1 2 3/4 5 6/7 8 0\"")]
    /// A name that is no goal.
    Unknown(String),
    #[error("goal: {0}")]
    /// A goal position that does not parse.
    Position(#[from] ParseError),
}

impl Goal {
    /// The goal laid out on a board of `size`.
    pub fn position(&self, size: Size) -> Result<Position, GoalError> {
        let order = match self {
            Goal::RowMajor => (0..size.cells()).collect(),
            Goal::BlankFirst => return Ok(blank_first(size)),
            Goal::Snake => snake_order(size),
            Goal::Spiral => spiral_order(size),
            Goal::Missing(label) => return missing(size, *label),
            Goal::Custom(position) if position.size() == size => return Ok(position.clone()),
            Goal::Custom(position) => {
                return Err(GoalError::SizeMismatch {
                    goal: position.to_string(),
                    goal_size: position.size(),
                    size,
                })
            }
        };
        Ok(along(size, &order))
    }

    /// The size a custom goal fixes, if any.
    pub fn size(&self) -> Option<Size> {
        match self {
            Goal::Custom(position) => Some(position.size()),
            _ => None,
        }
    }
}

/// Tiles 1..n−1 placed along `order` (a list of cells), blank on the last.
fn along(size: Size, order: &[usize]) -> Position {
    let mut tiles = vec![0; size.cells()];
    for (label, &cell) in order.iter().enumerate().take(order.len() - 1) {
        tiles[cell] = label as u32 + 1;
    }
    Position::from_valid(size, tiles)
}

fn blank_first(size: Size) -> Position {
    Position::from_valid(size, (0..size.cells() as u32).collect())
}

fn missing(size: Size, label: u32) -> Result<Position, GoalError> {
    let n = size.cells() as u32;
    if label == 0 || label > n {
        return Err(GoalError::MissingOutOfRange { label, size });
    }
    let tiles = (1..=n).map(|l| if l == label { 0 } else { l }).collect();
    Ok(Position::from_valid(size, tiles))
}

fn snake_order(size: Size) -> Vec<usize> {
    let (w, h) = (size.width(), size.height());
    (0..h)
        .flat_map(|y| {
            (0..w)
                .map(move |i| if y % 2 == 0 { i } else { w - 1 - i })
                .map(move |x| size.cell(x, y))
        })
        .collect()
}

fn spiral_order(size: Size) -> Vec<usize> {
    let (mut left, mut top) = (0isize, 0isize);
    let (mut right, mut bottom) = (size.width() as isize - 1, size.height() as isize - 1);
    let mut order = Vec::with_capacity(size.cells());
    let mut push = |x: isize, y: isize| order.push(size.cell(x as usize, y as usize));
    while left <= right && top <= bottom {
        (left..=right).for_each(|x| push(x, top));
        (top + 1..=bottom).for_each(|y| push(right, y));
        if top < bottom {
            (left..right).rev().for_each(|x| push(x, bottom));
        }
        if left < right {
            (top + 1..bottom).rev().for_each(|y| push(left, y));
        }
        (left, top, right, bottom) = (left + 1, top + 1, right - 1, bottom - 1);
    }
    order
}

impl FromStr for Goal {
    type Err = GoalError;

    fn from_str(s: &str) -> Result<Goal, GoalError> {
        let name = s.trim().to_ascii_lowercase();
        match name.as_str() {
            "row-major" | "rowmajor" | "classic" | "standard" => return Ok(Goal::RowMajor),
            "blank-first" | "blankfirst" | "korf" => return Ok(Goal::BlankFirst),
            "snake" | "boustrophedon" => return Ok(Goal::Snake),
            "spiral" => return Ok(Goal::Spiral),
            _ => {}
        }
        if let Some(label) = name.strip_prefix("missing:") {
            let label = label
                .trim()
                .parse()
                .map_err(|_| GoalError::Unknown(s.to_string()))?;
            return Ok(Goal::Missing(label));
        }
        if s.chars().any(|c| c.is_ascii_digit())
            && s.chars()
                .all(|c| c.is_ascii_digit() || " ,/\n\t\r".contains(c))
        {
            return Ok(Goal::Custom(s.parse()?));
        }
        Err(GoalError::Unknown(s.to_string()))
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Goal::RowMajor => f.write_str("row-major"),
            Goal::BlankFirst => f.write_str("blank-first"),
            Goal::Snake => f.write_str("snake"),
            Goal::Spiral => f.write_str("spiral"),
            Goal::Missing(label) => write!(f, "missing:{label}"),
            Goal::Custom(position) => write!(f, "{position}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(goal: &str, size: &str) -> String {
        let goal: Goal = goal.parse().unwrap();
        goal.position(size.parse().unwrap()).unwrap().to_string()
    }

    #[test]
    fn built_in_layouts() {
        assert_eq!(layout("row-major", "3x3"), "1 2 3/4 5 6/7 8 0");
        assert_eq!(layout("blank-first", "3x3"), "0 1 2/3 4 5/6 7 8");
        assert_eq!(
            layout("snake", "4x4"),
            "1 2 3 4/8 7 6 5/9 10 11 12/0 15 14 13"
        );
        assert_eq!(
            layout("spiral", "4x4"),
            "1 2 3 4/12 13 14 5/11 0 15 6/10 9 8 7"
        );
        assert_eq!(layout("spiral", "3x3"), "1 2 3/8 0 4/7 6 5");
        assert_eq!(layout("spiral", "4x2"), "1 2 3 4/0 7 6 5");
        assert_eq!(layout("spiral", "2x4"), "1 2/0 3/7 4/6 5");
        assert_eq!(layout("missing:5", "3x3"), "1 2 3/4 0 6/7 8 9");
        assert_eq!(layout("missing:9", "3x3"), layout("row-major", "3x3"));
    }

    #[test]
    fn spiral_is_a_permutation_on_every_shape() {
        for w in 2..9 {
            for h in 2..9 {
                let size = Size::new(w, h).unwrap();
                let mut order = spiral_order(size);
                order.sort_unstable();
                assert_eq!(order, (0..w * h).collect::<Vec<_>>(), "{size}");
            }
        }
    }

    #[test]
    fn custom_goals_and_errors() {
        let goal: Goal = "2 1/3 0".parse().unwrap();
        assert_eq!(
            goal.position("2x2".parse().unwrap()).unwrap().to_string(),
            "2 1/3 0"
        );
        assert!(matches!(
            goal.position("3x3".parse().unwrap()),
            Err(GoalError::SizeMismatch { .. })
        ));
        assert!(matches!(
            "diagonal".parse::<Goal>(),
            Err(GoalError::Unknown(_))
        ));
        assert!(matches!(
            "1 1/2 0".parse::<Goal>(),
            Err(GoalError::Position(_))
        ));
        assert!(matches!(
            Goal::Missing(10).position("3x3".parse().unwrap()),
            Err(GoalError::MissingOutOfRange { .. })
        ));
    }
}
