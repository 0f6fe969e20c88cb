//! When engine work must give up: one type for both engines and every
//! front end. A deadline is a moment on a clock (the wall clock, or the
//! solving thread's CPU time for benchmarks on a shared machine), an
//! optional node allowance per search, and an optional cancel flag (the
//! terminal game drops a search whose answer is no longer wanted).
//!
//! The Shisen-Sho solver takes it as its [`shisen::Budget`]; the sliding
//! puzzle's optimal solver takes [`Deadline::passed`] as its stop test and
//! [`Deadline::node_limit`] as its node limit.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A budget for engine work. The default has no limit at all.
#[derive(Clone, Debug, Default)]
pub struct Deadline {
    clock: Option<Clock>,
    nodes: Option<u64>,
    cancel: Option<Arc<AtomicBool>>,
    /// Set once a search was told to stop, so a caller can tell "no
    /// answer within the budget" from "no answer".
    stopped: bool,
}

#[derive(Clone, Copy, Debug)]
enum Clock {
    Wall(Instant),
    /// The thread CPU time at which to stop, and the wall-clock moment
    /// used where that clock cannot be read.
    Cpu(Duration, Instant),
}

/// Stops the searches whose deadline was made by [`Deadline::cancellable`]
/// when dropped or told to.
#[derive(Debug)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Stops the searches at their next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Drop for Cancel {
    fn drop(&mut self) {
        self.cancel();
    }
}

impl Deadline {
    /// No limit: searches run until they have an answer.
    pub fn none() -> Deadline {
        Deadline::default()
    }

    /// Gives up `after` from now, by the wall clock.
    pub fn after(after: Duration) -> Deadline {
        Deadline::at(Instant::now() + after)
    }

    /// Gives up at `moment`.
    pub fn at(moment: Instant) -> Deadline {
        Deadline {
            clock: Some(Clock::Wall(moment)),
            ..Deadline::default()
        }
    }

    /// Gives up after `after` of the calling thread's CPU time: on a shared
    /// machine this, unlike the wall clock, excludes time spent waiting
    /// for other processes. Falls back to the wall clock where the CPU
    /// clock cannot be read. Only the thread that made it should check it.
    pub fn cpu(after: Duration) -> Deadline {
        let clock = match thread_cpu_time() {
            Some(now) => Clock::Cpu(now + after, Instant::now() + after),
            None => Clock::Wall(Instant::now() + after),
        };
        Deadline {
            clock: Some(clock),
            ..Deadline::default()
        }
    }

    /// The same deadline, with at most `nodes` nodes per search as well.
    pub fn with_nodes(mut self, nodes: u64) -> Deadline {
        self.nodes = Some(nodes);
        self
    }

    /// The same deadline, but no later than `after` from now.
    pub fn within(mut self, after: Duration) -> Deadline {
        let soon = Instant::now() + after;
        self.clock = Some(match self.clock {
            Some(Clock::Wall(at)) => Clock::Wall(at.min(soon)),
            Some(Clock::Cpu(cpu, wall)) => Clock::Cpu(cpu, wall.min(soon)),
            None => Clock::Wall(soon),
        });
        self
    }

    /// The same deadline, also stopped when the returned [`Cancel`] is
    /// dropped or cancelled.
    pub fn cancellable(mut self) -> (Deadline, Cancel) {
        let flag = Arc::new(AtomicBool::new(false));
        self.cancel = Some(Arc::clone(&flag));
        (self, Cancel(flag))
    }

    /// Whether the time is up (or the work was cancelled).
    pub fn passed(&self) -> bool {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return true;
        }
        match self.clock {
            None => false,
            Some(Clock::Wall(at)) => Instant::now() >= at,
            Some(Clock::Cpu(at, wall)) => match thread_cpu_time() {
                Some(now) => now >= at,
                None => Instant::now() >= wall,
            },
        }
    }

    /// The wall-clock time left, if there is a wall-clock limit.
    pub fn remaining(&self) -> Option<Duration> {
        match self.clock {
            Some(Clock::Wall(at)) | Some(Clock::Cpu(_, at)) => {
                Some(at.saturating_duration_since(Instant::now()))
            }
            None => None,
        }
    }

    /// The node allowance per search, if any.
    pub fn node_limit(&self) -> Option<u64> {
        self.nodes
    }

    /// Whether a search under this deadline was told to stop.
    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

impl shisen::Budget for Deadline {
    fn allows(&mut self, nodes: u64) -> bool {
        let allowed = self.nodes.is_none_or(|limit| nodes < limit) && !self.passed();
        self.stopped |= !allowed;
        allowed
    }
}

/// The time this thread has spent on a CPU, from Linux's
/// `/proc/thread-self/schedstat` (nanoseconds); `None` elsewhere.
pub fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shisen::Budget;

    #[test]
    fn none_never_passes_and_after_does() {
        let mut none = Deadline::none();
        assert!(!none.passed());
        assert!(none.allows(u64::MAX - 1));
        assert!(!none.stopped());
        let mut soon = Deadline::after(Duration::ZERO);
        assert!(soon.passed());
        assert!(!soon.allows(0));
        assert!(soon.stopped(), "a refusal is remembered");
    }

    #[test]
    fn nodes_limit_each_search() {
        let mut d = Deadline::none().with_nodes(10);
        assert!(d.allows(9));
        assert!(!d.allows(10));
        assert_eq!(d.node_limit(), Some(10));
    }

    #[test]
    fn within_only_brings_a_deadline_forward() {
        let far = Deadline::after(Duration::from_secs(3600)).within(Duration::ZERO);
        assert!(far.passed());
        let near = Deadline::after(Duration::ZERO).within(Duration::from_secs(3600));
        assert!(near.passed());
        assert!(Deadline::none()
            .within(Duration::from_secs(60))
            .remaining()
            .is_some());
    }

    #[test]
    fn cancelling_stops_clones_too() {
        let (deadline, cancel) = Deadline::none().cancellable();
        let copy = deadline.clone();
        assert!(!copy.passed());
        drop(cancel);
        assert!(deadline.passed() && copy.passed());
    }

    #[test]
    fn the_cpu_clock_runs_with_work_not_with_sleep() {
        let d = Deadline::cpu(Duration::from_millis(30));
        std::thread::sleep(Duration::from_millis(60));
        if thread_cpu_time().is_some() {
            assert!(!d.passed(), "sleeping spends no CPU time");
        }
        let start = Instant::now();
        while !d.passed() {
            assert!(start.elapsed() < Duration::from_secs(20), "CPU clock stuck");
        }
    }
}
