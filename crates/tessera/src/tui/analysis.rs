//! Whether a Shisen-Sho board can still be cleared, asked of the engine's
//! exact solver on a background thread (it may take a while on a full
//! board), so play goes on while it thinks; and, once a game is stuck,
//! where it was lost.

use play::shisen_game::{analyse, where_lost, LossAnalysis, Session, Turn, ANALYSIS_TIME};
use play::{Cancel, Deadline};
use shisen::{Game, Verdict};
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// A solver at work on one board. Dropping it stops the search.
pub struct Analysis {
    _cancel: Cancel,
    answer: Receiver<Verdict>,
}

impl Analysis {
    /// Starts the solver on `game`'s current board, for as long as the
    /// games let it think.
    pub fn start(game: &Game) -> Analysis {
        let (mut deadline, cancel) = Deadline::after(ANALYSIS_TIME).cancellable();
        let (send, answer) = mpsc::channel();
        let game = game.clone();
        std::thread::spawn(move || {
            // The receiver may be gone: the answer is simply not needed.
            let _ = send.send(analyse(&game, &mut deadline));
        });
        Analysis {
            _cancel: cancel,
            answer,
        }
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

/// Where a stuck game was lost, asked of `play::shisen_game::where_lost`
/// on a background thread: every position of the game goes through the
/// solver, which on a full board takes a moment. Dropping it stops the
/// search.
pub struct LossSearch {
    _cancel: Cancel,
    answer: Receiver<Option<LossAnalysis>>,
}

/// The longest the whole search may take; positions left are unknown.
const LOSS_TIME: std::time::Duration = std::time::Duration::from_secs(20);

impl LossSearch {
    /// Starts on the game that plays `turns` from `start`.
    pub fn start(start: &Session, turns: &[Turn]) -> LossSearch {
        let (deadline, cancel) = Deadline::after(LOSS_TIME).cancellable();
        let (send, answer) = mpsc::channel();
        let (start, turns) = (start.clone(), turns.to_vec());
        std::thread::spawn(move || {
            // The turns were played by this session, so they replay.
            let analysis = where_lost(start, &turns, ANALYSIS_TIME, &deadline).ok();
            let _ = send.send(analysis);
        });
        LossSearch {
            _cancel: cancel,
            answer,
        }
    }

    /// The analysis, once there is one: `Some(None)` when it failed.
    pub fn poll(&self) -> Option<Option<LossAnalysis>> {
        match self.answer.try_recv() {
            Ok(analysis) => Some(analysis),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(None),
        }
    }
}
