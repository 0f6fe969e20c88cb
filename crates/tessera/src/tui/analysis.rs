//! Whether a Shisen-Sho board can still be cleared, asked of the engine's
//! exact solver on a background thread (it may take a while on a full
//! board), so play goes on while it thinks.

use shisen::{Budget, Game, Verdict};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the solver may search one board before answering "unknown".
pub const THINKING_TIME: Duration = Duration::from_secs(3);

/// A search that stops at a deadline, or when its answer is no longer
/// wanted.
struct Deadline {
    until: Instant,
    cancelled: Arc<AtomicBool>,
}

impl Budget for Deadline {
    fn allows(&mut self, _nodes: u64) -> bool {
        !self.cancelled.load(Ordering::Relaxed) && Instant::now() < self.until
    }
}

/// A solver at work on one board. Dropping it stops the search.
pub struct Analysis {
    cancelled: Arc<AtomicBool>,
    answer: Receiver<Verdict>,
}

impl Analysis {
    /// Starts the solver on `game`'s current board.
    pub fn start(game: &Game, time: Duration) -> Analysis {
        let cancelled = Arc::new(AtomicBool::new(false));
        let mut budget = Deadline {
            until: Instant::now() + time,
            cancelled: Arc::clone(&cancelled),
        };
        let (send, answer) = mpsc::channel();
        let game = game.clone();
        std::thread::spawn(move || {
            // The receiver may be gone: the answer is simply not needed.
            let _ = send.send(game.still_solvable(&mut budget));
        });
        Analysis { cancelled, answer }
    }

    /// The verdict, once there is one.
    pub fn poll(&self) -> Option<Verdict> {
        match self.answer.try_recv() {
            Ok(verdict) => Some(verdict),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Verdict::Unknown),
        }
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }
}
