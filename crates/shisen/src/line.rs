//! Occupancy lines: a row or a column as a machine word, bit `i + 1` for
//! cell `i`, the ring at bit 0 and bit `len + 1`. Boards up to 62 cells a
//! side use `u64` words (one register per line); larger ones `u128`. The
//! path search is written once over this trait.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

/// The widest line a `u64` holds together with its ring.
pub(crate) const NARROW_MAX: usize = 62;

pub(crate) trait Line:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + From<bool>
{
    const ZERO: Self;
    const ONE: Self;
    const MAX: Self;

    /// The low bits of a stored `u128` line.
    fn narrow(wide: u128) -> Self;
    /// The line as a stored `u128`.
    fn widen(self) -> u128;
    fn trailing_zeros(self) -> u32;
    fn leading_zeros(self) -> u32;
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    fn checked_shr(self, by: u32) -> Option<Self>;

    /// Bit `i` alone.
    #[inline]
    fn bit(i: usize) -> Self {
        Self::ONE << i as u32
    }

    /// Bits `0..i`.
    #[inline]
    fn below(i: usize) -> Self {
        Self::bit(i).wrapping_sub(Self::ONE)
    }

    #[inline]
    fn has(self, i: usize) -> bool {
        self & Self::bit(i) != Self::ZERO
    }
}

macro_rules! line {
    ($t:ty) => {
        impl Line for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const MAX: $t = <$t>::MAX;

            #[inline]
            fn narrow(wide: u128) -> $t {
                wide as $t
            }
            #[inline]
            fn widen(self) -> u128 {
                self as u128
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline]
            fn wrapping_add(self, other: $t) -> $t {
                <$t>::wrapping_add(self, other)
            }
            #[inline]
            fn wrapping_sub(self, other: $t) -> $t {
                <$t>::wrapping_sub(self, other)
            }
            #[inline]
            fn checked_shr(self, by: u32) -> Option<$t> {
                <$t>::checked_shr(self, by)
            }
        }
    };
}

line!(u64);
line!(u128);

/// The bits a ray from bit `at` reaches through clear bits of `line`, both
/// ways, `at` itself excluded. Walls (set bits past the ring) or the top of
/// the word stop it.
#[inline]
pub(crate) fn reach<L: Line>(line: L, at: usize) -> L {
    let p = L::bit(at);
    // Upwards: adding `p` to the free bits carries through the run above
    // `at` and stops at the first occupied bit.
    let free = !line | p;
    let up = (free.wrapping_add(p) ^ free) & free & !p;
    // Downwards: everything above the highest occupied bit below `at`.
    let low = L::below(at);
    let blocked = line & low;
    // A shift by the whole width (nothing blocked) keeps all of `low`;
    // a select rather than a branch, as a played board is random here.
    let stop = L::MAX
        .checked_shr(blocked.leading_zeros())
        .unwrap_or(L::ZERO);
    up | (low & !stop)
}

/// Bits strictly between `lo` and `hi` (`lo < hi`).
#[inline]
pub(crate) fn between<L: Line>(lo: usize, hi: usize) -> L {
    L::below(hi) & !L::below(lo + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(len: usize) -> u128 {
        !0u128 << (len + 2)
    }

    #[test]
    fn reach_stops_at_tiles_and_walls() {
        // Interior of 5: cells 0..5 at bits 1..=5, ring at 0 and 6, wall above.
        let line = wall(5) | 1 << 2 | 1 << 5; // tiles at x = 1 and 4
        for (at, expected) in [
            (3, 1 << 4),
            (5, 1 << 6 | 1 << 4 | 1 << 3),
            (2, 1 << 0 | 1 << 1 | 1 << 3 | 1 << 4),
        ] {
            assert_eq!(reach(line, at), expected);
            assert_eq!(reach(u64::narrow(line), at), expected as u64);
        }
    }

    #[test]
    fn reach_runs_to_the_ring_of_the_widest_narrow_line() {
        // 62 cells: the ring at bit 63 is the word's top bit.
        let line = wall(NARROW_MAX) | 1 << 62;
        assert_eq!(reach(u64::narrow(line), 62), 1 << 63 | u64::MAX >> 2);
        assert_eq!(reach(line, 62), 1 << 63 | (u128::from(u64::MAX) >> 2));
    }

    #[test]
    fn between_is_exclusive() {
        assert_eq!(between::<u64>(2, 3), 0);
        assert_eq!(between::<u128>(2, 5), 0b11000);
    }
}
