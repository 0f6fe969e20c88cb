//! Whether a Shisen-Sho board can still be cleared, asked of the engine's
//! exact solver on a background thread (it may take a while on a full
//! board), so play goes on while it thinks.

use play::shisen_game::{analyse, ANALYSIS_TIME};
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
