//! slidysim's relays: from the size the player chose down to the smallest
//! boards, each puzzle a size smaller than the last, all on one clock.
//! slidysim's manual (its "Solve types") gives the order of each:
//!
//! - `2-n-relay`: N×N, (N−1)×(N−1), … 2×2;
//! - `height-relay`: W×H, W×(H−1), … W×2;
//! - `width-relay`: W×H, (W−1)×H, … 2×H;
//! - `everything-relay`: every W'×H' with 2 ≤ W' ≤ W and 2 ≤ H' ≤ H, the
//!   height falling slowest and the width fastest: 4×4, 3×4, 2×4, 4×3,
//!   3×3, 2×3, 4×2, 3×2, 2×2 from 4×4.
//!
//! A relay of one puzzle is a single solve, so each starts where it deals
//! two puzzles at least.

use slide::Size;

/// The smallest side: 2×2 is the smallest board on which a tile moves.
const LAST_SIDE: usize = 2;

/// One of slidysim's relays, down from the chosen size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Descent {
    /// `2-n-relay`: square boards from N×N down to 2×2.
    Square,
    /// `height-relay`: the height falls to 2, the width kept.
    Height,
    /// `width-relay`: the width falls to 2, the height kept.
    Width,
    /// `everything-relay`: every size up to the chosen one.
    Everything,
}

impl Descent {
    /// Every relay down, in the order the page offers them.
    pub const ALL: [Descent; 4] = [
        Descent::Square,
        Descent::Height,
        Descent::Width,
        Descent::Everything,
    ];

    /// The format's name, as slidysim players write it.
    pub fn name(self) -> &'static str {
        match self {
            Descent::Square => "2-n-relay",
            Descent::Height => "height-relay",
            Descent::Width => "width-relay",
            Descent::Everything => "everything-relay",
        }
    }

    /// `Ok(())` if the relay can start at `size`, else the sizes it starts
    /// at.
    pub fn check(self, size: Size) -> Result<(), &'static str> {
        let (w, h) = (size.width(), size.height());
        let fits = match self {
            Descent::Square => w == h && w > LAST_SIDE,
            Descent::Height => h > LAST_SIDE,
            Descent::Width => w > LAST_SIDE,
            Descent::Everything => w > LAST_SIDE || h > LAST_SIDE,
        };
        fits.then_some(()).ok_or(match self {
            Descent::Square => "a 2-N relay starts at a square NxN, N at least 3",
            Descent::Height => "a height relay starts at a height of 3 or more (WxH, H >= 3)",
            Descent::Width => "a width relay starts at a width of 3 or more (WxH, W >= 3)",
            Descent::Everything => "an everything-up-to relay starts at 3x2, 2x3 or larger",
        })
    }

    /// The sizes the relay deals from `size`, in order (the sizes it
    /// would deal if it could start there: see [`Descent::check`]).
    pub fn sizes(self, size: Size) -> Vec<Size> {
        let (w, h) = (size.width(), size.height());
        let board = |w, h| Size::new(w, h).expect("a side from 2 up to a size's own");
        match self {
            Descent::Square => (LAST_SIDE..=w).rev().map(|n| board(n, n)).collect(),
            Descent::Height => (LAST_SIDE..=h).rev().map(|y| board(w, y)).collect(),
            Descent::Width => (LAST_SIDE..=w).rev().map(|x| board(x, h)).collect(),
            Descent::Everything => (LAST_SIDE..=h)
                .rev()
                .flat_map(|y| (LAST_SIDE..=w).rev().map(move |x| board(x, y)))
                .collect(),
        }
    }
}
