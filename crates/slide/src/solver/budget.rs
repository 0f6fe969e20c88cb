//! How far a search may go, for every search of the solver: the IDA* of
//! single-tile moves, the one of multi-tile moves and the colouring search.

use super::SolveOptions;

/// When to give up: a node budget and a cancellation test (the engine has
/// no clock; a front end may pass one).
#[derive(Clone, Copy, Default)]
pub(crate) struct Limits<'a> {
    pub nodes: Option<u64>,
    pub stop: Option<&'a (dyn Fn() -> bool + Sync)>,
}

impl<'a> Limits<'a> {
    /// The limits a caller's options set.
    pub fn of(options: &SolveOptions<'a>) -> Self {
        Limits {
            nodes: options.node_limit,
            stop: options.stop,
        }
    }

    /// What is left of these limits once `spent` nodes are spent.
    pub fn after(&self, spent: u64) -> Self {
        Limits {
            nodes: self.nodes.map(|n| n.saturating_sub(spent)),
            ..*self
        }
    }

    /// Whether a search that has visited `nodes` nodes must stop now.
    pub fn reached(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n) || self.stop.is_some_and(|stop| stop())
    }
}

/// The limits as a search in progress asks them: the cancellation test may
/// take a lock or read a clock, so it is asked only every
/// [`CHECK_EVERY`] nodes, and once spent the budget stays spent.
pub(crate) struct Budget<'a> {
    limits: Limits<'a>,
    next_check: u64,
    spent: bool,
}

/// Nodes between two asks of the limits.
const CHECK_EVERY: u64 = 1 << 14;

impl<'a> Budget<'a> {
    pub fn new(limits: Limits<'a>) -> Self {
        Budget {
            limits,
            next_check: CHECK_EVERY,
            spent: false,
        }
    }

    /// Whether the budget is spent once `nodes` nodes have been visited.
    #[inline]
    pub fn spent_at(&mut self, nodes: u64) -> bool {
        if nodes >= self.next_check {
            self.next_check = nodes + CHECK_EVERY;
            self.spent = self.limits.reached(nodes);
        }
        self.spent
    }

    /// Whether the budget was found spent at the last ask.
    #[inline]
    pub fn is_spent(&self) -> bool {
        self.spent
    }
}
