//! Decoding a placement index into the pattern's cells, and the bit tricks
//! that rank free cells.

/// See [`super::Builder::reciprocals`].
pub(super) fn reciprocals(n: usize, k: usize) -> Vec<u128> {
    (0..k)
        .map(|j| (1u128 << 64).div_ceil((n - j) as u128))
        .collect()
}

/// The cells of placement `p` of `cells.len()` tiles on `n` cells (the
/// inverse of [`index`], without dividing); returns the occupied cells.
#[inline]
pub(super) fn decode(mut p: usize, n: usize, reciprocals: &[u128], cells: &mut [u8]) -> u32 {
    for j in (0..cells.len()).rev() {
        let quotient = ((p as u128 * reciprocals[j]) >> 64) as usize;
        cells[j] = (p - quotient * (n - j)) as u8;
        p = quotient;
    }
    let mut used = 0u32;
    for c in cells.iter_mut() {
        let cell = nth_free(*c as u32, used);
        *c = cell as u8;
        used |= 1 << cell;
    }
    used
}

/// The `digit`-th cell (from 0) not in `used`: the fixed point of
/// c = digit + (used cells up to c), reached in a step or two.
#[inline]
pub(super) fn nth_free(digit: u32, used: u32) -> u32 {
    let mut cell = digit;
    loop {
        let next = digit + (used & (u32::MAX >> (31 - cell))).count_ones();
        if next == cell {
            return cell;
        }
        cell = next;
    }
}

/// The cells of `free` whose ordinals (rank among the free cells) are set.
pub(super) fn deposit(ordinals: u32, free: u32) -> u32 {
    let (mut cells, mut rest, mut o) = (0u32, free, 0);
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        if ordinals >> o & 1 != 0 {
            cells |= cell;
        }
        rest ^= cell;
        o += 1;
    }
    cells
}

/// The ordinals among `free` of the cells in `cells` (inverse of [`deposit`]).
pub(super) fn ordinals_of(cells: u32, free: u32) -> u32 {
    let mut ordinals = 0u32;
    let mut rest = cells;
    while rest != 0 {
        let c = rest.trailing_zeros();
        rest &= rest - 1;
        ordinals |= 1 << (free & ((1u32 << c) - 1)).count_ones();
    }
    ordinals
}
