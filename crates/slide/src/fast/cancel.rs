//! Cancelling redundant move pairs on the way out.
//!
//! The router can send the blank somewhere and straight back (an `L`
//! followed by an `R`); such a pair changes nothing and is dropped. The
//! 1000 × 1000 solution has billions of moves, so the pending moves live in
//! a bounded window: the oldest are released to the sink once it fills.

use crate::Direction;

/// Moves held back for cancellation at most; older ones are final.
const WINDOW: usize = 1 << 12;

pub(crate) struct Canceller<'s> {
    /// Oldest first. A plain vector, not a ring: pushing is the hot path
    /// (once a move), and releasing half the window at once moves the other
    /// half down only once every `WINDOW / 2` moves.
    pending: Vec<Direction>,
    sink: &'s mut dyn FnMut(Direction),
    emitted: u64,
}

impl<'s> Canceller<'s> {
    pub fn new(sink: &'s mut dyn FnMut(Direction)) -> Canceller<'s> {
        Canceller {
            pending: Vec::with_capacity(WINDOW),
            sink,
            emitted: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, direction: Direction) {
        if self.pending.last() == Some(&direction.inverse()) {
            self.pending.pop();
            return;
        }
        if self.pending.len() == WINDOW {
            for oldest in self.pending.drain(..WINDOW / 2) {
                (self.sink)(oldest);
            }
            self.emitted += (WINDOW / 2) as u64;
        }
        self.pending.push(direction);
    }

    /// Releases everything held back; returns the number of moves emitted.
    pub fn finish(mut self) -> u64 {
        self.emitted += self.pending.len() as u64;
        for direction in self.pending.drain(..) {
            (self.sink)(direction);
        }
        self.emitted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::*;

    fn run(moves: &[Direction]) -> Vec<Direction> {
        let mut out = Vec::new();
        let mut sink = |d| out.push(d);
        let mut canceller = Canceller::new(&mut sink);
        moves.iter().for_each(|&d| canceller.push(d));
        let count = canceller.finish();
        assert_eq!(count as usize, out.len());
        out
    }

    #[test]
    fn inverse_pairs_vanish_even_when_nested() {
        assert_eq!(run(&[Left, Up, Down, Right, Up]), vec![Up]);
        assert_eq!(run(&[Left, Left, Up]), vec![Left, Left, Up]);
    }

    #[test]
    fn long_streams_pass_through_the_window_in_order() {
        let moves: Vec<Direction> = (0..3 * WINDOW).map(|i| [Left, Up][i % 2]).collect();
        assert_eq!(run(&moves), moves);
    }
}
