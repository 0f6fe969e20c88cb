//! `tessera serve`: both games in the browser.
//!
//! An axum server over `play` and the engines. The client asks the server
//! for puzzles, paths, hints and solutions; the server stores every puzzle
//! it issues and replays every submitted game before it becomes a record,
//! timing it with its own clock. All state lives in the database
//! ([`store`]), so a restart loses nothing and any number of
//! instances can serve one database behind a load balancer; `ops` holds
//! what an operator needs around that. The one exception is a live race's
//! room (`race`), held by the instance its players are connected to.

mod account;
mod answers;
mod arenas;
mod assets;
mod budget;
mod clock;
mod connections;
mod daily;
mod edge;
mod error;
mod fmc;
#[doc(hidden)]
pub mod fuzzing;
mod games;
mod openapi;
mod ops;
mod paging;
mod player;
mod profile;
mod quick_match;
mod race;
mod rankings;
mod ratings;
mod records;
mod replays;
mod settings;
mod shisen_api;
mod slide_api;
mod time_attack;

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;

use budget::Budget;
pub use clock::Clock;
pub use connections::Limits;
use error::ApiError;
pub use ops::LogFormat;
use store::{Database, Store};

/// How long one engine call may take.
const ENGINE_BUDGET: Duration = Duration::from_secs(10);

/// How the server runs: everything `tessera serve` takes as flags or
/// environment variables.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The records' database.
    pub database: Database,
    /// Most database connections at once.
    pub connections: u32,
    /// The longest a request waits for a database connection before it
    /// is answered 503 (and SQLite's wait for its write lock).
    pub db_timeout: Duration,
    /// Caps and time limits on client connections.
    pub limits: Limits,
    /// Log lines as text or JSON.
    pub log_format: LogFormat,
    /// Solver requests (solve, hint, check) a second per client.
    pub solver_rate: u32,
    /// Race rooms a client may open a minute.
    pub race_rate: u32,
    /// How often race sockets are pinged: one silent for three of these is
    /// dropped.
    pub race_ping: Duration,
    /// Whether clients are told apart by the headers a load balancer sets
    /// rather than by the peer address.
    pub trust_proxy: bool,
    /// Whether the session cookie is always `Secure` (the site is served
    /// over TLS).
    pub secure_cookies: bool,
    /// The longest a request may take.
    pub request_timeout: Duration,
    /// How long in-flight requests may finish after SIGTERM or SIGINT.
    pub shutdown_grace: Duration,
    /// The rankings' tier tables, if not the built-in ones.
    pub tiers: Option<std::sync::Arc<play::power::Tables>>,
    /// The clock the handlers read where the day matters: the system's.
    pub clock: Clock,
    /// The live-play bus (`redis://…`) race rooms are shared over, if any.
    pub bus: Option<String>,
}

/// What every handler shares: the database and the engine budget.
#[derive(Clone)]
pub struct App {
    store: Store,
    budget: Budget,
    accounts: account::Settings,
    races: race::Rooms,
    clock: Clock,
}

/// The application's routes, with their layers.
pub fn router(store: Store, config: &Config) -> Router {
    let races = race::rooms(&store, config);
    routes(store, config, races)
}

/// The routes, with the race rooms they serve (which the server closes
/// when it stops).
fn routes(store: Store, config: &Config, races: race::Rooms) -> Router {
    // The recorder must be in place before the first request is counted.
    ops::metrics();
    let app = App {
        store,
        budget: Budget::new(ENGINE_BUDGET),
        accounts: account::Settings::new(config.secure_cookies, config.trust_proxy),
        races,
        clock: config.clock,
    };
    // The endpoints that keep a core busy get a per-client limit.
    let solvers = Router::new()
        .route("/api/slide/solve", post(slide_api::solve))
        .route("/api/slide/hint", post(slide_api::hint))
        .route("/api/shisen/hint", post(shisen_api::hint))
        .route("/api/shisen/check", post(shisen_api::check))
        .route("/api/shisen/analysis", post(replays::shisen_analysis))
        // Analysis searches like a solve the first time it is asked.
        .route("/api/replays/{game}/analysis", get(replays::analysis));
    let solvers = ops::limited(
        solvers,
        ops::Rate::per_second(config.solver_rate, "solver requests"),
        config.trust_proxy,
    );
    // Each room is memory and a timer on every instance that serves it.
    let openers = Router::new().route("/api/races", post(race::new));
    let openers = ops::limited(
        openers,
        ops::Rate::per_minute(config.race_rate, "races opened"),
        config.trust_proxy,
    );
    // A format's submission holds up to 100 puzzles' moves and times: that
    // route alone takes more than the usual body limit.
    let big_body = DefaultBodyLimit::max(play::limits::SUBMIT_BYTES);
    let mut router: Router<App> = Router::new()
        .route("/", get(assets::index))
        .route("/static/{name}", get(assets::asset))
        .route("/healthz", get(healthz))
        .route("/api/openapi.json", get(openapi::openapi_json))
        .route("/readyz", get(ops::readyz))
        .route("/metrics", get(ops::metrics_page))
        .route("/api/slide/new", post(slide_api::new))
        .route("/api/slide/submit", post(slide_api::submit).layer(big_body))
        .route("/api/slide/colours", post(slide_api::colours))
        .route("/api/shisen/new", post(shisen_api::new))
        .route("/api/shisen/path", post(shisen_api::path))
        .route("/api/shisen/shuffle", post(shisen_api::shuffle))
        .route("/api/shisen/pause", post(shisen_api::pause))
        .route("/api/shisen/resume", post(shisen_api::resume))
        .route("/api/shisen/submit", post(shisen_api::submit))
        .route("/api/races", get(race::lobby))
        .route("/api/races/{room}/ws", get(race::socket))
        .route("/api/replays/{game}", get(replays::replay))
        .route("/replay/{game}", get(assets::replay_page))
        .route("/u/{handle}", get(assets::profile_page))
        .route("/race/{room}", get(assets::race_page))
        .route("/api/records", get(records::records))
        .route("/api/records/variants", get(records::variants))
        .route("/api/records/history", get(records::history))
        .route("/api/rankings", get(rankings::rankings))
        .route("/rankings", get(assets::rankings_page))
        .route("/api/daily", get(daily::board))
        .route("/api/fmc/{day}", get(fmc::day))
        .route("/api/fmc/{day}/{size}", post(fmc::submit))
        .route("/fmc", get(assets::fmc_page))
        .route("/api/time-attack", post(time_attack::start))
        .route("/api/time-attack", get(time_attack::board))
        .route("/api/time-attack/{run}", post(time_attack::submit))
        .route("/time-attack", get(time_attack::page))
        .route("/api/me", get(records::me))
        .route("/api/me/name", post(records::set_name))
        .route("/api/me/stats", get(records::stats))
        .route("/api/me/export.csv", get(records::export))
        .route("/api/account", get(account::me))
        .route("/api/session", get(account::session))
        .route("/api/account", delete(settings::delete))
        .route("/api/account/password", post(settings::change_password))
        .route("/api/account/export", get(settings::export))
        .route("/api/account/country", post(settings::set_country))
        .route("/api/users/{handle}", get(profile::profile))
        .route("/api/ratings/{pool}", get(ratings::leaderboard))
        .route("/api/seeks", post(quick_match::seek))
        .route("/api/arenas", post(arenas::new))
        .route("/api/arenas", get(arenas::list))
        .route("/api/arenas/{arena}", get(arenas::view))
        .route("/api/arenas/{arena}/join", post(arenas::join))
        .route("/api/arenas/{arena}/pause", post(arenas::pause))
        .route("/arena/{arena}", get(assets::arena_page))
        .route("/arenas", get(assets::arenas_page))
        .route("/api/seeks", get(quick_match::state))
        .route("/api/seeks", delete(quick_match::cancel))
        .route("/api/account/signup", post(account::signup))
        .route("/api/account/login", post(account::login))
        .route("/api/account/logout", post(account::logout))
        .route("/api/account/logout-all", post(account::logout_all))
        .merge(solvers)
        .merge(openers)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(player::identify))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            account::guard,
        ))
        .layer(DefaultBodyLimit::max(play::limits::REQUEST_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            config.request_timeout,
            ops::time_out,
        ));
    if config.trust_proxy {
        // Every connection is the balancer's: each client's requests in
        // flight are capped instead of its connections.
        let slots = connections::Slots::new(usize::MAX, config.limits.max_per_client, None);
        router = router.layer(axum::middleware::from_fn_with_state(
            slots,
            connections::per_client_requests,
        ));
    }
    for (name, value) in ops::security_headers() {
        router = router.layer(SetResponseHeaderLayer::if_not_present(name, value));
    }
    router
        .layer(axum::middleware::from_fn(ops::observe))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .with_state(app)
}

/// Whether the process is alive.
#[derive(serde::Serialize, utoipa::ToSchema)]
struct Alive {
    /// Always true.
    ok: bool,
}

/// Alive: the process answers (readiness is `/readyz`).
#[utoipa::path(get, path = "/healthz", tag = "ops", responses((status = 200, body = Alive)))]
async fn healthz() -> Json<Alive> {
    Json(Alive { ok: true })
}

/// A known path asked with the wrong method: the API's JSON error, not
/// an empty body.
async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {}", uri.path()),
    )
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

/// Opens the database, binds the address, prints the URL and serves until
/// SIGINT or SIGTERM; then lets in-flight requests finish (up to the grace
/// period), closes the database and returns.
pub fn serve(config: Config) -> anyhow::Result<()> {
    ops::init_logs(config.log_format);
    let config = fit_open_files(config);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let database = &config.database;
        let store = Store::open_within(database, config.connections, config.db_timeout)
            .await
            .map_err(|e| anyhow::anyhow!("cannot open database {database}: {e}"))?;
        let store = match &config.tiers {
            Some(tables) => store.with_tiers(tables.as_ref().clone()).await?,
            None => store,
        };
        // A bus named must answer before anything is served.
        let races = race::rooms_serving(&store, &config).await?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.addr))?;
        let local = listener.local_addr()?;
        // Installed before anyone can know the address.
        let stop = ops::stop_signal()?;
        println!("tessera: playing at http://{local}/ (records in {database})");
        use std::io::Write;
        std::io::stdout().flush()?;
        tracing::info!(addr = %local, database = %database, "serving");
        let app = routes(store.clone(), &config, races.clone());
        // The tables of the default game start building (or loading) now,
        // so that its first players get optimal hints (after the router:
        // its metrics recorder counts them ready).
        if let Ok(goal) = slide::Goal::RowMajor.position(slide::Size::square(4)?) {
            play::slide_game::Solver::global().warm_up(&goal);
        }
        let per_client = !config.trust_proxy;
        let open = connections::serve(listener, app, config.limits, per_client, stop).await;
        let grace = config.shutdown_grace;
        tracing::info!(grace_secs = grace.as_secs(), "stopping: finishing requests");
        let finished = async {
            // Race sockets are no longer HTTP connections: told apart.
            tokio::join!(open.shutdown(), races.close_all());
        };
        if tokio::time::timeout(grace, finished).await.is_err() {
            tracing::warn!("requests still running at the end of the grace period");
        }
        store.close().await;
        tracing::info!("stopped");
        Ok(())
    })
}

/// Raises the open files limit as far as allowed and lowers the connection
/// cap to what fits in it, so the server refuses connections rather than
/// running out of descriptors.
fn fit_open_files(mut config: Config) -> Config {
    let files = connections::raise_open_files();
    let wanted = config.limits.max_connections;
    let cap = connections::fitting_cap(wanted, files, config.connections);
    tracing::info!(open_files = ?files, max_connections = cap, "open files limit");
    if cap < wanted {
        tracing::warn!(
            wanted,
            max_connections = cap,
            "the open files limit is too low for --max-connections: lowered"
        );
    }
    config.limits.max_connections = cap;
    config
}
