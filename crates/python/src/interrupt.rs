//! Long engine calls that Ctrl-C can stop.
//!
//! Python delivers Ctrl-C as a flag only the thread holding the GIL can
//! check (`check_signals`), while the engines stop at their budget checks
//! when a cancel flag is set. So the work runs on a thread of its own
//! without the GIL, and the calling thread waits for it in slices of
//! [`POLL`], taking the GIL back between slices to check for signals: on
//! KeyboardInterrupt it sets the cancel flag, waits for the search to give
//! up at its next check (milliseconds), and raises.

use play::Cancel;
use pyo3::prelude::*;
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// How often a waiting call checks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` without the GIL, stopping it through `cancel` (which the
/// work's budget watches) when a signal handler raises.
pub fn run<T: Send>(
    py: Python<'_>,
    cancel: &Cancel,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (done, result) = mpsc::channel();
        // Waiting happens without the GIL, on whichever thread Python
        // lends: the receiver goes behind a lock to be shareable.
        let result = Mutex::new(result);
        let receive = |wait: Option<Duration>| {
            let result = result
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match wait {
                Some(wait) => result.recv_timeout(wait),
                None => result
                    .recv()
                    .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            }
        };
        scope.spawn(move || {
            // The receiver is gone only after an interrupt: nothing to tell.
            let _ = done.send(work());
        });
        loop {
            match py.detach(|| receive(Some(POLL))) {
                Ok(value) => return Ok(value),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(interrupted) = py.check_signals() {
                        cancel.cancel();
                        // The scope joins the worker, which stops at its
                        // next budget check; wait for it without the GIL.
                        let _ = py.detach(|| receive(None));
                        return Err(interrupted);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "the engine's thread stopped without an answer",
                    ))
                }
            }
        }
    })
}
