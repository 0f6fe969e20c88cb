//! Division by a divisor fixed for the whole solve (the board width).
//!
//! Routing asks for coordinates of cells on every decision; a hardware
//! division costs tens of cycles, a multiply-and-shift a few.

/// Exact division by a fixed divisor for dividends below 2²³: multiply by
/// ⌈2^k / d⌉ and shift by k, with k large enough that the rounding error
/// never reaches the next integer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divider {
    multiplier: u64,
    shift: u32,
}

impl Divider {
    pub fn new(divisor: u64) -> Divider {
        let shift = 23 + (64 - divisor.leading_zeros());
        Divider {
            multiplier: (1u64 << shift).div_ceil(divisor),
            shift,
        }
    }

    #[inline]
    pub fn quotient(self, dividend: u64) -> u64 {
        debug_assert!(dividend < 1 << 23);
        (dividend * self.multiplier) >> self.shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_divider_is_exact_over_the_whole_range() {
        for divisor in [2u64, 3, 7, 10, 999, 1000, 1024, 4095, 4096] {
            let divide = Divider::new(divisor);
            for dividend in (0..1 << 23).step_by(97).chain([(1 << 23) - 1]) {
                assert_eq!(
                    divide.quotient(dividend),
                    dividend / divisor,
                    "{dividend}/{divisor}"
                );
            }
        }
    }
}
