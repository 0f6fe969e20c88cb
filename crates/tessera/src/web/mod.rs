//! `tessera serve`: both games in the browser.
//!
//! An axum server over the engines. The client asks the server for
//! puzzles, paths, hints and solutions; the server stores every puzzle it
//! issues and replays every submitted game before it becomes a record, timing
//! it with its own clock. All state lives in the database ([`crate::store`]),
//! so a restart loses nothing.

mod assets;
mod budget;
mod clock;
mod error;
mod player;
mod records;
mod shisen;
mod slide;
mod solvers;

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::store::Store;
use budget::Budget;
use error::ApiError;

/// The largest request body accepted.
const BODY_LIMIT: usize = 256 * 1024;
/// How long one engine call may take.
const ENGINE_BUDGET: Duration = Duration::from_secs(10);

/// What every handler shares: the database and the engine budget.
#[derive(Clone)]
pub struct App {
    store: Store,
    budget: Budget,
}

/// The application's routes.
pub fn router(store: Store) -> Router {
    let app = App {
        store,
        budget: Budget::new(ENGINE_BUDGET),
    };
    Router::new()
        .route("/", get(assets::index))
        .route("/static/{name}", get(assets::asset))
        .route("/healthz", get(healthz))
        .route("/api/info", get(info))
        .route("/api/slide/new", post(slide::new))
        .route("/api/slide/solve", post(slide::solve))
        .route("/api/slide/hint", post(slide::hint))
        .route("/api/slide/submit", post(slide::submit))
        .route("/api/shisen/new", post(shisen::new))
        .route("/api/shisen/path", post(shisen::path))
        .route("/api/shisen/hint", post(shisen::hint))
        .route("/api/shisen/check", post(shisen::check))
        .route("/api/shisen/shuffle", post(shisen::shuffle))
        .route("/api/shisen/pause", post(shisen::pause))
        .route("/api/shisen/resume", post(shisen::resume))
        .route("/api/shisen/submit", post(shisen::submit))
        .route("/api/records", get(records::records))
        .route("/api/records/variants", get(records::variants))
        .route("/api/me", get(records::me))
        .route("/api/me/name", post(records::set_name))
        .route("/api/me/stats", get(records::stats))
        .route("/api/me/export.csv", get(records::export))
        .fallback(not_found)
        .layer(axum::middleware::from_fn(player::identify))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

async fn healthz() -> Json<Value> {
    Json(json!({ "ok": true }))
}

/// What this build's engines can do, for the client to enable its buttons.
async fn info() -> Json<Value> {
    Json(json!({ "shisen_solver": true, "slide_solver": true }))
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page or endpoint")
}

/// A random seed a JavaScript number holds exactly (below 2⁵³), so share
/// links round-trip.
fn random_seed() -> u64 {
    let id = player::new_id();
    u64::from_str_radix(&id[..16], 16).unwrap_or(0) & ((1 << 53) - 1)
}

/// Opens the database, binds `addr`, prints the URL and serves until
/// interrupted.
pub fn serve(addr: SocketAddr, db: &Path) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let store = Store::open(db)
            .await
            .map_err(|e| anyhow::anyhow!("cannot open database {}: {e}", db.display()))?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr()?;
        println!(
            "tessera: playing at http://{local}/ (records in {})",
            db.display()
        );
        use std::io::Write;
        std::io::stdout().flush()?;
        axum::serve(listener, router(store))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}
