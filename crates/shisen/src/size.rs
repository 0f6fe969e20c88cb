//! Board dimensions and kshisen's named sizes.

/// The widest board supported: a row and its ring fit in a `u128`.
pub const MAX_WIDTH: usize = 64;
/// The tallest board supported.
pub const MAX_HEIGHT: usize = 64;

/// The interior dimensions of a board, 1 ≤ width ≤ [`MAX_WIDTH`],
/// 1 ≤ height ≤ [`MAX_HEIGHT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    width: u8,
    height: u8,
}

/// Why dimensions or a size name are not a board size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs)] // each variant's message names its fields
pub enum SizeError {
    #[error(
        "size {width}x{height} is out of range: width 1..={MAX_WIDTH}, height 1..={MAX_HEIGHT}"
    )]
    OutOfRange { width: usize, height: usize },
    #[error(transparent)]
    /// The text is not `WxH` (or a preset's name).
    Syntax(#[from] common::DimensionsError),
    #[error("unknown preset {0:?}: expected one of 14x6, 16x9, 18x8, 24x12, 26x14, 30x16")]
    /// A preset name that does not exist.
    UnknownPreset(String),
}

/// kshisen's board sizes.
pub const PRESETS: [(usize, usize); 6] = [(14, 6), (16, 9), (18, 8), (24, 12), (26, 14), (30, 16)];

impl Size {
    /// The classic 18 × 8 board.
    pub const DEFAULT: Size = Size {
        width: 18,
        height: 8,
    };

    /// A size of `width` × `height` interior cells, within the supported range.
    pub fn new(width: usize, height: usize) -> Result<Size, SizeError> {
        if (1..=MAX_WIDTH).contains(&width) && (1..=MAX_HEIGHT).contains(&height) {
            Ok(Size {
                width: width as u8,
                height: height as u8,
            })
        } else {
            Err(SizeError::OutOfRange { width, height })
        }
    }

    /// One of kshisen's sizes, named `WxH` (e.g. `18x8`); also accepted:
    /// `small` (14x6), `medium` (18x8), `large` (24x12).
    pub fn preset(name: &str) -> Result<Size, SizeError> {
        let unknown = || SizeError::UnknownPreset(name.to_string());
        let (w, h) = match name {
            "small" => (14, 6),
            "medium" | "default" => (18, 8),
            "large" => (24, 12),
            _ => {
                let size: Size = name.parse().map_err(|_| unknown())?;
                (size.width(), size.height())
            }
        };
        if PRESETS.contains(&(w, h)) {
            Size::new(w, h)
        } else {
            Err(unknown())
        }
    }

    #[inline]
    /// Columns of the interior.
    pub fn width(self) -> usize {
        usize::from(self.width)
    }

    #[inline]
    /// Rows of the interior.
    pub fn height(self) -> usize {
        usize::from(self.height)
    }

    #[inline]
    /// Interior cells, width × height.
    pub fn cells(self) -> usize {
        self.width() * self.height()
    }
}

impl Default for Size {
    fn default() -> Size {
        Size::DEFAULT
    }
}

common::size_text!(Size, SizeError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes_and_presets() {
        assert_eq!("18x8".parse::<Size>().unwrap(), Size::DEFAULT);
        assert_eq!("64x32".parse::<Size>().unwrap().cells(), 2048);
        assert!(matches!(
            "65x8".parse::<Size>(),
            Err(SizeError::OutOfRange { .. })
        ));
        assert!(matches!(
            "0x8".parse::<Size>(),
            Err(SizeError::OutOfRange { .. })
        ));
        assert!(matches!("18by8".parse::<Size>(), Err(SizeError::Syntax(_))));
        // The grammar both games share: `×`, `*` and a lone N for N × N.
        assert_eq!("18×8".parse::<Size>().unwrap(), Size::DEFAULT);
        assert_eq!("18*8".parse::<Size>().unwrap(), Size::DEFAULT);
        assert_eq!("8".parse::<Size>().unwrap(), Size::new(8, 8).unwrap());
        assert_eq!(Size::preset("30x16").unwrap().cells(), 480);
        assert_eq!(Size::preset("small").unwrap(), Size::new(14, 6).unwrap());
        assert!(matches!(
            Size::preset("20x10"),
            Err(SizeError::UnknownPreset(_))
        ));
    }
}
