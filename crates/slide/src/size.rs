//! Board dimensions.

/// The largest side accepted; larger boards are refused at parse time.
pub const MAX_SIDE: usize = 4096;
/// The most cells a board may have (2048 × 2048), so that every label fits
/// comfortably in a `u32` and a position stays within a few tens of MiB.
pub const MAX_CELLS: usize = 1 << 22;

/// Width × height of a sliding puzzle, both at least 2.
///
/// A 1 × n "board" is refused: its tiles can only shift along one line, so
/// it is not a puzzle in any useful sense (and the solvability rule below
/// does not hold for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Size {
    width: usize,
    height: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why a size cannot be used.
#[allow(missing_docs)] // each variant's message names its fields
pub enum SizeError {
    #[error("a sliding puzzle needs at least 2 columns and 2 rows, got {width}x{height}")]
    TooSmall { width: usize, height: usize },
    #[error("{width}x{height} is too large (at most {MAX_SIDE} per side and {MAX_CELLS} cells)")]
    TooLarge { width: usize, height: usize },
    #[error(transparent)]
    /// The text is not `WxH`, `W×H` or `N`.
    Syntax(#[from] common::DimensionsError),
}

impl Size {
    /// A board of `width` × `height` cells, within the supported range.
    pub fn new(width: usize, height: usize) -> Result<Size, SizeError> {
        if width < 2 || height < 2 {
            return Err(SizeError::TooSmall { width, height });
        }
        if width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_CELLS {
            return Err(SizeError::TooLarge { width, height });
        }
        Ok(Size { width, height })
    }

    /// The n × n board.
    pub fn square(n: usize) -> Result<Size, SizeError> {
        Size::new(n, n)
    }

    /// Columns.
    pub fn width(self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(self) -> usize {
        self.height
    }

    /// Cells, width × height.
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// Column and row of a cell index.
    pub fn coords(self, cell: usize) -> (usize, usize) {
        (cell % self.width, cell / self.width)
    }

    /// The row-major index of column `x`, row `y`.
    pub fn cell(self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// Taxicab distance between two cells.
    pub fn distance(self, a: usize, b: usize) -> usize {
        let (ax, ay) = self.coords(a);
        let (bx, by) = self.coords(b);
        ax.abs_diff(bx) + ay.abs_diff(by)
    }

    /// The same board turned on its side (width and height swapped).
    pub fn transposed(self) -> Size {
        Size {
            width: self.height,
            height: self.width,
        }
    }
}

common::size_text!(Size, SizeError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        assert_eq!("4x3".parse::<Size>().unwrap().to_string(), "4x3");
        assert_eq!("5".parse::<Size>().unwrap(), Size::new(5, 5).unwrap());
        assert_eq!("1000x1000".parse::<Size>().unwrap().cells(), 1_000_000);
    }

    #[test]
    fn refuses_degenerate_and_huge_boards() {
        assert!(matches!(
            "1x5".parse::<Size>(),
            Err(SizeError::TooSmall { .. })
        ));
        assert!(matches!(
            "5x1".parse::<Size>(),
            Err(SizeError::TooSmall { .. })
        ));
        assert!(matches!(
            "5000x2".parse::<Size>(),
            Err(SizeError::TooLarge { .. })
        ));
        assert!(matches!("4by4".parse::<Size>(), Err(SizeError::Syntax(_))));
        assert!(matches!("-3x4".parse::<Size>(), Err(SizeError::Syntax(_))));
    }
}
