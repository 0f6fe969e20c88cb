//! Move directions and move sequences in `U D L R` notation.

use std::fmt;

/// The direction a TILE moves (the blank moves the opposite way): `U` means
/// the tile below the blank slides up into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// The tile below the blank moves up.
    Up,
    /// The tile above the blank moves down.
    Down,
    /// The tile right of the blank moves left.
    Left,
    /// The tile left of the blank moves right.
    Right,
}

impl Direction {
    /// Every direction, in the order `U D L R`.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The direction that undoes this one.
    pub fn inverse(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// The letter of the move notation: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
            Direction::Right => 'R',
        }
    }

    /// The direction of a letter of the move notation (upper or lower case).
    pub fn from_letter(c: char) -> Option<Direction> {
        match c.to_ascii_uppercase() {
            'U' => Some(Direction::Up),
            'D' => Some(Direction::Down),
            'L' => Some(Direction::Left),
            'R' => Some(Direction::Right),
            _ => None,
        }
    }

    /// How the blank's column and row change when a tile moves this way.
    pub fn blank_step(self) -> (isize, isize) {
        match self {
            Direction::Up => (0, 1),
            Direction::Down => (0, -1),
            Direction::Left => (1, 0),
            Direction::Right => (-1, 0),
        }
    }

    /// The same move on the transposed board (rows become columns).
    pub fn transposed(self) -> Direction {
        match self {
            Direction::Up => Direction::Left,
            Direction::Down => Direction::Right,
            Direction::Left => Direction::Up,
            Direction::Right => Direction::Down,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
