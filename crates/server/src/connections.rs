//! Connections: the accept loop in front of the router, so that no client
//! can hold the server's connections or file descriptors.
//!
//! hyper reads each request's headers within a time limit, and the same
//! timer runs while a kept-alive connection waits for its next request, so
//! a slow or idle client is cut off. Open connections are capped per
//! instance and per client address; beyond a cap a new connection gets a
//! 503 at once and is closed, while established clients keep being served.
//! Behind a trusted load balancer every connection comes from the balancer,
//! so the per-client cap counts each client's requests in flight instead.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tower::Service;
use tower_governor::key_extractor::{KeyExtractor, SmartIpKeyExtractor};

use super::error::ApiError;

/// Limits on connections, from the serve flags.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The time a client has to send a request's headers, and the longest
    /// a kept-alive connection may wait idle for its next request.
    pub header_timeout: Duration,
    /// Most connections open at once on this instance.
    pub max_connections: usize,
    /// Most connections (or, behind a trusted proxy, requests in flight)
    /// of one client address.
    pub max_per_client: usize,
}

/// Which cap refused a connection or a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    Instance,
    Client,
}

impl Refusal {
    fn label(self) -> &'static str {
        match self {
            Refusal::Instance => "instance",
            Refusal::Client => "client",
        }
    }

    fn message(self) -> &'static str {
        match self {
            Refusal::Instance => "the server has too many connections open: try again",
            Refusal::Client => "too many connections from your address: try again",
        }
    }
}

/// Counts of what is open, in all and per client address, within caps.
#[derive(Clone)]
pub struct Slots {
    counts: Arc<Mutex<Counts>>,
    total_cap: usize,
    client_cap: usize,
    /// The gauge kept equal to the total, if any.
    gauge: Option<&'static str>,
}

#[derive(Default)]
struct Counts {
    total: usize,
    per_client: HashMap<IpAddr, usize>,
}

/// One connection or request counted in [`Slots`]; uncounted on drop.
pub struct Slot {
    slots: Slots,
    client: IpAddr,
}

impl Slots {
    pub fn new(total_cap: usize, client_cap: usize, gauge: Option<&'static str>) -> Slots {
        Slots {
            counts: Arc::new(Mutex::new(Counts::default())),
            total_cap,
            client_cap,
            gauge,
        }
    }

    /// Counts one more for `client`, unless a cap is reached.
    pub fn take(&self, client: IpAddr) -> Result<Slot, Refusal> {
        let mut counts = self
            .counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if counts.total >= self.total_cap {
            return Err(Refusal::Instance);
        }
        let mine = counts.per_client.entry(client).or_insert(0);
        if *mine >= self.client_cap {
            return Err(Refusal::Client);
        }
        *mine += 1;
        counts.total += 1;
        self.show(counts.total);
        Ok(Slot {
            slots: self.clone(),
            client,
        })
    }

    fn show(&self, total: usize) {
        if let Some(gauge) = self.gauge {
            metrics::gauge!(gauge).set(total as f64);
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let slots = &self.slots;
        let mut counts = slots
            .counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        counts.total -= 1;
        if let Some(mine) = counts.per_client.get_mut(&self.client) {
            *mine -= 1;
            if *mine == 0 {
                counts.per_client.remove(&self.client);
            }
        }
        slots.show(counts.total);
    }
}

/// Accepts connections on `listener` and serves `app` on each, within
/// `limits`, until `stop` resolves; then stops listening (new connections
/// are refused by the system) and returns the connections still open, for
/// the caller to let finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    per_client_connections: bool,
    stop: impl Future<Output = ()>,
) -> GracefulShutdown {
    let client_cap = if per_client_connections {
        limits.max_per_client
    } else {
        usize::MAX
    };
    let slots = Slots::new(
        limits.max_connections,
        client_cap,
        Some("tessera_connections_open"),
    );
    let graceful = GracefulShutdown::new();
    // HTTP/1.1 only, through the builder whose connections can be upgraded
    // (a race's WebSocket) and still be watched for a graceful shutdown.
    let mut http = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new()).http1_only();
    http.http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let mut make = app.into_make_service_with_connect_info::<SocketAddr>();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(&e).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let slot = match slots.take(peer.ip()) {
            Ok(slot) => slot,
            Err(refusal) => {
                refuse(&stream, refusal);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Ok(router) = make.call(peer).await;
        let service = TowerToHyperService::new(router);
        let connection = http
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                closed_with(&*e);
            }
            drop(slot);
        });
    }
    graceful
}

/// A refused connection: a 503 if the socket takes it at once, then
/// closed. Nothing waits on the client.
fn refuse(stream: &TcpStream, refusal: Refusal) {
    metrics::counter!("tessera_connections_refused_total", "limit" => refusal.label()).increment(1);
    let body = format!(r#"{{"error":"{}"}}"#, refusal.message());
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(response.as_bytes());
}

/// Counts a connection that hyper closed on an error: a client too slow
/// with its headers (or idle too long) is a time-out.
fn closed_with(error: &(dyn std::error::Error + 'static)) {
    let hyper_error = error.downcast_ref::<hyper::Error>();
    if hyper_error.is_some_and(hyper::Error::is_timeout) {
        metrics::counter!("tessera_connections_timed_out_total").increment(1);
    } else {
        tracing::debug!(error = %error, "connection closed on an error");
    }
}

/// An accept error: out of file descriptors, most likely, while the caps
/// are above what the system allows. The pending connections wait in the
/// backlog a moment rather than the loop spinning.
async fn accept_failed(error: &std::io::Error) {
    metrics::counter!("tessera_connections_refused_total", "limit" => "accept_error").increment(1);
    tracing::error!(error = %error, "accept error");
    tokio::time::sleep(Duration::from_millis(50)).await;
}

/// Middleware behind a trusted proxy: a cap on each client's requests in
/// flight (the client as the proxy's headers name it), answered 503 at
/// once beyond it.
pub async fn per_client_requests(
    State(slots): State<Slots>,
    request: Request,
    next: Next,
) -> Response {
    let Ok(client) = SmartIpKeyExtractor.extract(&request) else {
        return next.run(request).await;
    };
    match slots.take(client) {
        Ok(slot) => {
            let response = next.run(request).await;
            drop(slot);
            response
        }
        Err(refusal) => {
            metrics::counter!("tessera_connections_refused_total", "limit" => refusal.label())
                .increment(1);
            let message = "too many requests in flight from your address: try again";
            ApiError::unavailable(message, 1).into_response()
        }
    }
}

/// Raises the soft limit of open files to the hard one, so the caps
/// rather than the system decide when connections are refused. Returns
/// the soft limit now in force, if known.
pub fn raise_open_files() -> Option<u64> {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        let raised = Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if let Err(e) = setrlimit(Resource::Nofile, raised) {
            tracing::warn!(error = %e, "cannot raise the open files limit");
        }
    }
    getrlimit(Resource::Nofile).current
}

/// The connection cap that fits in `open_files` descriptors, keeping room
/// for the database's (`db_connections`, each a few files with SQLite's
/// log and index) and the server's own files.
pub fn fitting_cap(wanted: usize, open_files: Option<u64>, db_connections: u32) -> usize {
    let Some(files) = open_files else {
        return wanted;
    };
    let reserve = 64 + 4 * u64::from(db_connections);
    let room = usize::try_from(files.saturating_sub(reserve)).unwrap_or(usize::MAX);
    wanted.min(room.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_cap_in_all_and_per_client_and_free_on_drop() {
        let slots = Slots::new(3, 2, None);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = slots.take(a).unwrap();
        let _a2 = slots.take(a).unwrap();
        assert_eq!(slots.take(a).err(), Some(Refusal::Client));
        let _b1 = slots.take(b).unwrap();
        assert_eq!(slots.take(b).err(), Some(Refusal::Instance));
        drop(a1);
        assert!(slots.take(b).is_ok());
    }

    #[test]
    fn the_cap_leaves_room_for_the_database() {
        assert_eq!(fitting_cap(4096, Some(1024), 8), 1024 - 96);
        assert_eq!(fitting_cap(100, Some(1024), 8), 100);
        assert_eq!(fitting_cap(100, None, 8), 100);
        assert_eq!(fitting_cap(100, Some(10), 8), 1);
    }
}
