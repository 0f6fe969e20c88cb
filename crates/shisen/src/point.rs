//! Coordinates: `x,y`, 0-based over the interior of the board; the ring
//! around the board lies at x = −1 and x = W, y = −1 and y = H.

use std::fmt;
use std::str::FromStr;

/// A cell of the board or of the ring around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0-based on the interior; −1 and the width are the ring.
    pub x: i32,
    /// Row, 0-based on the interior; −1 and the height are the ring.
    pub y: i32,
}

impl Point {
    /// The point at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Point {
        Point { x, y }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Why a text is not an `x,y` point.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a point: expected x,y with integer x and y")]
pub struct PointError {
    /// The text that is not a point.
    pub text: String,
}

impl FromStr for Point {
    type Err = PointError;

    fn from_str(s: &str) -> Result<Point, PointError> {
        let err = || PointError {
            text: s.to_string(),
        };
        let (x, y) = s.split_once(',').ok_or_else(err)?;
        let x = x.trim().parse().map_err(|_| err())?;
        let y = y.trim().parse().map_err(|_| err())?;
        Ok(Point { x, y })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let p: Point = "3,-1".parse().unwrap();
        assert_eq!(p, Point::new(3, -1));
        assert_eq!(p.to_string(), "3,-1");
        assert!("3".parse::<Point>().is_err());
        assert!("a,1".parse::<Point>().is_err());
        assert!("1,2,3".parse::<Point>().is_err());
    }
}
