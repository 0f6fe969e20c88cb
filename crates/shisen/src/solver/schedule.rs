//! Metering the budget, and the restart schedule of the attempts.

use super::*;

/// Work between two budget checks inside nodes, in tiles looked at: a
/// relaxation or a mobility count over `t` tiles spends `t`. On an 18 × 8
/// board that is a check every few hundred relaxations, a few
/// milliseconds; on 64 × 64 every sixteen.
pub(super) const CHECK_WORK: u64 = 1 << 16;

/// Counts a search's work and asks the budget whenever [`CHECK_WORK`] has
/// been spent since the last time.
pub(super) struct Meter<'b, B: Budget> {
    pub(super) budget: &'b mut B,
    pub(super) work: u64,
    pub(super) next_check: u64,
}

impl<B: Budget> Meter<'_, B> {
    /// Spends `units` of work, in a search at `nodes` nodes.
    pub(super) fn spend(&mut self, units: u64, nodes: u64) -> Result<(), Stop> {
        self.work += units;
        if self.work < self.next_check {
            return Ok(());
        }
        self.next_check = self.work + CHECK_WORK;
        if self.budget.allows(nodes) {
            Ok(())
        } else {
            Err(Stop::Budget)
        }
    }
}

/// Under gravity attempts follow the Luby sequence (1, 1, 2, 1, 1, 2, 4, …)
/// in units of this many nodes: many short attempts, now and then a long one.
pub(super) const GRAVITY_UNIT: u64 = 2_000;

/// The `i`-th term (from 1) of the Luby sequence.
pub(super) fn luby(i: u32) -> u64 {
    let mut i = u64::from(i);
    loop {
        // The smallest k with i ≤ 2^k − 1.
        let k = 64 - i.leading_zeros();
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// Without gravity: nodes of the first attempt, which does not probe.
pub(super) const FIRST_ATTEMPT: u64 = 500;

/// Without gravity: nodes of the first two probing attempts (one choosing
/// branches by mobility, one in plain order); each later pair doubles.
pub(super) const PROBING_UNIT: u64 = 25;
