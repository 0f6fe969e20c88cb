//! The grammar of board sizes, one for both games: `WxH` (also `W×H`,
//! `WXH` or `W*H`, spaces allowed around the numbers) or a single `N` for
//! N × N. Each engine's `Size` reads this and then applies its own limits.

use std::str::FromStr;

/// Width and height as written, not yet checked against any game's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dimensions {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// The text is not a size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a size: expected WxH (or N for NxN), e.g. 4x4 or 18x8")]
pub struct DimensionsError(pub String);

impl FromStr for Dimensions {
    type Err = DimensionsError;

    fn from_str(s: &str) -> Result<Dimensions, DimensionsError> {
        let trimmed = s.trim();
        let syntax = || DimensionsError(trimmed.to_string());
        // Digits only: `parse::<usize>` alone would take a leading `+`.
        let number = |t: &str| {
            let t = t.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            t.parse::<usize>().map_err(|_| syntax())
        };
        match trimmed.split_once(['x', 'X', '×', '*']) {
            Some((w, h)) => Ok(Dimensions {
                width: number(w)?,
                height: number(h)?,
            }),
            None => {
                let n = number(trimmed)?;
                Ok(Dimensions {
                    width: n,
                    height: n,
                })
            }
        }
    }
}

/// Gives a game's `Size` type its text forms: `Display` as `WxH`, and
/// `FromStr` by the shared grammar ([`Dimensions`]) followed by the type's
/// own `Size::new(width, height)` check. The error type must convert from
/// [`DimensionsError`].
#[macro_export]
macro_rules! size_text {
    ($size:ty, $error:ty) => {
        impl ::std::fmt::Display for $size {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "{}x{}", self.width(), self.height())
            }
        }

        impl ::std::str::FromStr for $size {
            type Err = $error;

            /// `WxH` (also `W×H` or `W*H`), or a single `N` for N × N.
            fn from_str(s: &str) -> Result<$size, $error> {
                let d: $crate::Dimensions = s.parse()?;
                <$size>::new(d.width, d.height)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(s: &str) -> Result<(usize, usize), DimensionsError> {
        s.parse::<Dimensions>().map(|d| (d.width, d.height))
    }

    #[test]
    fn every_spelling_of_a_size() {
        for text in ["4x3", "4X3", "4×3", "4*3", " 4 x 3 "] {
            assert_eq!(dims(text), Ok((4, 3)), "{text}");
        }
        assert_eq!(dims("5"), Ok((5, 5)));
        assert_eq!(dims("0x0"), Ok((0, 0)), "limits are the game's to check");
    }

    #[test]
    fn what_is_not_a_size() {
        for text in [
            "", "x", "4x", "x4", "4by4", "-3x4", "+3x4", "4x3x2", "4.5", "18*8*",
        ] {
            assert!(dims(text).is_err(), "{text:?}");
        }
        let e = dims("4by4").unwrap_err().to_string();
        assert!(e.contains("WxH"), "{e}");
    }

    #[test]
    fn numbers_too_large_for_memory_are_syntax_not_panics() {
        assert!(dims("99999999999999999999999x2").is_err());
    }
}
