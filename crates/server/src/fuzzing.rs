//! The HTTP API in-process, for the fuzz targets in `fuzz/`: the real
//! [`web::router`] over a real SQLite store in a temporary directory,
//! called without a socket. Not a stable interface.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request};
pub use axum::http::{Method, StatusCode};
use axum::Router;
use tower::ServiceExt;

use crate::{self as web, Config, LogFormat};
use store::{Database, Store};

/// A server without a socket.
pub struct Api {
    runtime: tokio::runtime::Runtime,
    router: Router,
    dir: PathBuf,
}

/// A reply: its status and body.
pub struct Reply {
    /// The HTTP status.
    pub status: StatusCode,
    /// The body's bytes.
    pub body: Vec<u8>,
}

impl Api {
    /// A fresh store in a new directory under `std::env::temp_dir()`, and
    /// the router over it with the server's default limits (the solver
    /// rate limit lifted: the fuzzer is one very fast client).
    pub fn new() -> Api {
        let dir = std::env::temp_dir().join(format!("tessera-fuzz-{}", play::seed::random_id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let database = Database::Sqlite(dir.join("records.db"));
        let store = runtime
            .block_on(Store::open(&database, 4))
            .expect("a SQLite store");
        let config = Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            database,
            connections: 4,
            db_timeout: store::DEFAULT_TIMEOUT,
            limits: web::Limits {
                header_timeout: Duration::from_secs(10),
                max_connections: 4096,
                max_per_client: 128,
            },
            log_format: LogFormat::Text,
            solver_rate: 1_000_000,
            race_rate: 1_000_000,
            race_ping: Duration::from_secs(15),
            trust_proxy: false,
            secure_cookies: false,
            request_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(1),
            tiers: None,
            clock: web::Clock::system(),
            bus: None,
        };
        let router = web::router(store, &config);
        Api {
            runtime,
            router,
            dir,
        }
    }

    /// Sends one request with a JSON body (or none for `GET`) as the player
    /// whose id is `player` (32 hex digits), and waits for the reply.
    pub fn call(&self, method: Method, path: &str, body: &[u8], player: &str) -> Reply {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::COOKIE, format!("tessera_player={player}"))
            .body(Body::from(body.to_vec()))
            .expect("a request");
        // What `into_make_service_with_connect_info` adds for a real peer.
        let peer = SocketAddr::from(([127, 0, 0, 1], 40_000));
        request.extensions_mut().insert(ConnectInfo(peer));
        self.runtime.block_on(async {
            let response = self
                .router
                .clone()
                .oneshot(request)
                .await
                .expect("the router is infallible");
            let status = response.status();
            let body = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .expect("a body");
            Reply {
                status,
                body: body.to_vec(),
            }
        })
    }
}

impl Default for Api {
    fn default() -> Api {
        Api::new()
    }
}

impl Drop for Api {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
