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
mod games;
mod player;
mod records;
mod replays;
mod shisen_api;
mod slide_api;

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
        .route("/api/slide/new", post(slide_api::new))
        .route("/api/slide/solve", post(slide_api::solve))
        .route("/api/slide/hint", post(slide_api::hint))
        .route("/api/slide/submit", post(slide_api::submit))
        .route("/api/shisen/new", post(shisen_api::new))
        .route("/api/shisen/path", post(shisen_api::path))
        .route("/api/shisen/hint", post(shisen_api::hint))
        .route("/api/shisen/check", post(shisen_api::check))
        .route("/api/shisen/shuffle", post(shisen_api::shuffle))
        .route("/api/shisen/pause", post(shisen_api::pause))
        .route("/api/shisen/resume", post(shisen_api::resume))
        .route("/api/shisen/submit", post(shisen_api::submit))
        .route("/api/replays/{game}", get(replays::replay))
        .route("/replay/{game}", get(assets::replay_page))
        .route("/api/records", get(records::records))
        .route("/api/records/variants", get(records::variants))
        .route("/api/me", get(records::me))
        .route("/api/me/name", post(records::set_name))
        .route("/api/me/stats", get(records::stats))
        .route("/api/me/export.csv", get(records::export))
        .fallback(not_found)
        .layer(axum::middleware::from_fn(player::identify))
        .layer(DefaultBodyLimit::max(play::limits::REQUEST_BYTES))
        .with_state(app)
}

async fn healthz() -> Json<Value> {
    Json(json!({ "ok": true }))
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page or endpoint")
}

/// The seed of a puzzle or deal being issued: today's for the daily one,
/// the one asked for, or a fresh random one.
fn issue_seed(daily: bool, seed: Option<u64>, now: i64) -> Result<u64, ApiError> {
    match (daily, seed) {
        (true, Some(_)) => Err(ApiError::bad("a daily puzzle takes no seed")),
        (true, None) => Ok(play::seed::daily_seed(now)),
        (false, Some(seed)) => Ok(seed),
        (false, None) => Ok(play::seed::random_seed()),
    }
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
