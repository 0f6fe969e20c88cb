//! Engine calls off the async threads, with a time budget and a cap on how
//! many run at once, so that no request can pin the machine.
//!
//! Work runs in `spawn_blocking`; at most one call per core runs at a time
//! (others wait for a permit, within the same deadline). Work receives a
//! [`Deadline`] it must respect, so a late answer frees its core instead of
//! running on after the client was told it took too long.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use play::Deadline;
use tokio::sync::Semaphore;

use super::error::ApiError;

/// Permits for engine calls, shared by the server.
#[derive(Clone)]
pub struct Budget {
    permits: Arc<Semaphore>,
    limit: Duration,
}

impl Budget {
    /// One permit per core; `limit` per call, waiting included.
    pub fn new(limit: Duration) -> Budget {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Budget {
            permits: Arc::new(Semaphore::new(cores)),
            limit,
        }
    }

    /// Runs `work` on a blocking thread within the budget. `work` gets the
    /// deadline and should stop (returning an error of its own) once it has
    /// passed; the caller is answered 503 at the deadline in any case. The
    /// deadline is also cancelled when the budget ends or the request is
    /// dropped (its client went away), so no engine work outlives the
    /// request it serves.
    pub async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(Deadline) -> T + Send + 'static,
    {
        let (deadline, cancel) = Deadline::after(self.limit).cancellable();
        let mut job = Job {
            cancel,
            outcome: None,
        };
        let busy = || {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the engine did not answer within its budget of {} ms",
                    self.limit.as_millis()
                ),
            )
        };
        let permit = tokio::time::timeout(self.limit, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| {
                job.outcome = Some("no_core");
                busy()
            })?
            .map_err(|_| busy())?;
        let remaining = deadline.remaining().unwrap_or_default();
        let task = tokio::task::spawn_blocking(move || {
            let _running = Running::start();
            let start = std::time::Instant::now();
            let result = work(deadline);
            drop(permit);
            metrics::histogram!("tessera_engine_seconds").record(start.elapsed().as_secs_f64());
            result
        });
        let (outcome, answer) = match tokio::time::timeout(remaining, task).await {
            Ok(Ok(value)) => ("answered", Ok(value)),
            Ok(Err(join)) => {
                tracing::error!(error = %join, "engine task failed");
                let failure = ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "engine failure");
                ("failed", Err(failure))
            }
            Err(_) => {
                job.cancel.cancel();
                metrics::counter!("tessera_engine_jobs_cancelled_total", "reason" => "over_budget")
                    .increment(1);
                ("over_budget", Err(busy()))
            }
        };
        job.outcome = Some(outcome);
        answer
    }
}

/// One engine call as its request sees it. Dropped before it has an
/// outcome, the request was dropped (its client went away): the work is
/// cancelled and counted. Dropped after, the cancel only stops work that
/// already ended or was told to.
struct Job {
    cancel: play::Cancel,
    outcome: Option<&'static str>,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.cancel.cancel();
        let outcome = self.outcome.unwrap_or_else(|| {
            metrics::counter!("tessera_engine_jobs_cancelled_total", "reason" => "client_gone")
                .increment(1);
            "client_gone"
        });
        metrics::counter!("tessera_engine_calls_total", "outcome" => outcome).increment(1);
    }
}

/// Engine jobs running on blocking threads, as the
/// `tessera_engine_jobs_running` gauge: while it counts one, a core is busy.
struct Running;

impl Running {
    fn start() -> Running {
        metrics::gauge!("tessera_engine_jobs_running").increment(1.0);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        metrics::gauge!("tessera_engine_jobs_running").decrement(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_past_its_deadline_is_answered_503_and_stops() {
        let budget = Budget::new(Duration::from_millis(50));
        let stopped = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stopped.clone();
        let answer = budget
            .run(move |deadline| {
                // An engine that honours its deadline, but only just late.
                while !deadline.passed() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                std::thread::sleep(Duration::from_millis(20));
                flag.store(true, std::sync::atomic::Ordering::SeqCst);
            })
            .await;
        let error = answer.unwrap_err();
        assert_eq!(error.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(error.message.contains("budget"));
        // The work itself ended on its own, freeing its permit.
        for _ in 0..500 {
            if stopped.load(std::sync::atomic::Ordering::SeqCst) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(stopped.load(std::sync::atomic::Ordering::SeqCst));
        assert_eq!(budget.run(|_| 7).await.unwrap(), 7);
    }
}
