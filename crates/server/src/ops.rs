//! What an operator needs around the game: logs, metrics, health and
//! readiness, per-client limits on the solvers, request time-outs,
//! security headers, and a clean shutdown.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::key_extractor::{PeerIpKeyExtractor, SmartIpKeyExtractor};
use tower_governor::{GovernorError, GovernorLayer};

use super::error::ApiError;
use super::App;

/// How logs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One readable line per event.
    Text,
    /// One JSON object per event, for log collectors.
    Json,
}

/// Starts logging to stderr: `RUST_LOG` picks the levels (default
/// `info`), `format` the shape. Once per process.
pub fn init_logs(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colour only for a person at a terminal: escape codes in a log file
    // or a collector are noise.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// The process's metrics registry (installed on first use).
pub fn metrics() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        // Latencies from a millisecond to ten seconds.
        let buckets = [
            0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
        ];
        let builder = PrometheusBuilder::new()
            .set_buckets(&buckets)
            .expect("the buckets are not empty");
        // Another recorder may be installed already (several routers in
        // one test process): then a private one still renders.
        match builder.install_recorder() {
            Ok(handle) => handle,
            Err(_) => PrometheusBuilder::new().build_recorder().handle(),
        }
    })
}

/// `GET /metrics`: the Prometheus text format. Pool gauges are read now.
#[utoipa::path(get, path = "/metrics", tag = "ops",
    responses((status = 200, description = "Counters, gauges and histograms", content_type = "text/plain", body = String)))]
pub async fn metrics_page(State(app): State<App>) -> Response {
    let (size, idle) = app.store.pool_use();
    metrics::gauge!("tessera_db_connections").set(size as f64);
    metrics::gauge!("tessera_db_connections_idle").set(idle as f64);
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        metrics().render(),
    )
        .into_response()
}

/// Whether the instance can serve.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Ready {
    /// Always true (not ready is a 503).
    ready: bool,
}

/// `GET /readyz`: ready when the database answers and takes writes; 503
/// otherwise, so a load balancer sends no players to an instance that
/// cannot record them. While writes fail (a full disk) each check tries a
/// small write, so readiness returns with the first that succeeds.
#[utoipa::path(get, path = "/readyz", tag = "ops",
    responses((status = 200, body = Ready), super::error::Always))]
pub async fn readyz(State(app): State<App>) -> Result<Json<Ready>, ApiError> {
    if let Err(e) = app.store.ping().await {
        tracing::warn!(error = %e, "readiness check: the database does not answer");
        return Err(ApiError::unavailable("the database does not answer", 2));
    }
    if app.store.writes_failing() {
        if let Err(fault) = app.store.probe_write(super::clock::now_millis()).await {
            tracing::warn!(kind = fault.label(), "readiness check: writes fail");
            let message = format!("writes fail ({}): nothing can be recorded", fault.label());
            return Err(ApiError::unavailable(message, 5));
        }
    }
    Ok(Json(Ready { ready: true }))
}

/// Middleware: logs and counts every request by route and status, with
/// its duration, under the request's id.
pub async fn observe(request: Request, next: Next) -> Response {
    let start = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched".to_string(), |p| p.as_str().to_string());
    let method = request.method().to_string();
    let id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let response = next.run(request).await;
    let elapsed = start.elapsed();
    let status = response.status().as_u16().to_string();
    let labels = [
        ("route", route.clone()),
        ("method", method.clone()),
        ("status", status.clone()),
    ];
    metrics::counter!("tessera_http_requests_total", &labels).increment(1);
    metrics::histogram!("tessera_http_request_duration_seconds", &labels[..2])
        .record(elapsed.as_secs_f64());
    tracing::info!(
        request_id = %id,
        method = %method,
        route = %route,
        status = %status,
        millis = elapsed.as_secs_f64() * 1000.0,
        "request"
    );
    response
}

/// Middleware: answers 503 with a message when a request takes longer than
/// `limit` (the engines stop themselves well before, see `budget`).
pub async fn time_out(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the request took longer than {} s", limit.as_secs()),
        )
        .into_response(),
    }
}

/// Headers every response carries: the page runs only its own scripts and
/// styles and cannot be framed; no content type is guessed.
pub fn security_headers() -> [(HeaderName, HeaderValue); 4] {
    [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
                 connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                 frame-ancestors 'none'",
            ),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ),
    ]
}

/// `routes` with a per-client limit: `per_second` requests a second
/// sustained, twice that in a burst. Clients are told apart by the peer's
/// address (the server is served with connection info), or, behind a
/// trusted load balancer, by the `X-Forwarded-For`/`X-Real-IP` it sets.
/// Over the limit: 429 with `Retry-After`.
pub fn limited(routes: Router<App>, rate: Rate, trust_proxy: bool) -> Router<App> {
    let mut config = GovernorConfigBuilder::default();
    config.period(rate.period).burst_size(rate.burst);
    let what = rate.what;
    let refuse = move |error| too_many(error, what);
    if trust_proxy {
        let config = config.key_extractor(SmartIpKeyExtractor).finish();
        let config = config.expect("a positive period and burst");
        routes.layer(GovernorLayer::new(Arc::new(config)).error_handler(refuse))
    } else {
        let config = config.key_extractor(PeerIpKeyExtractor).finish();
        let config = config.expect("a positive period and burst");
        routes.layer(GovernorLayer::new(Arc::new(config)).error_handler(refuse))
    }
}

/// A per-client rate: one request each `period`, after a `burst`.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    period: Duration,
    burst: u32,
    /// What is limited, for the 429's message.
    what: &'static str,
}

impl Rate {
    /// `n` a second, and a burst of twice that.
    pub fn per_second(n: u32, what: &'static str) -> Rate {
        let n = n.max(1);
        Rate {
            period: Duration::from_secs(1) / n,
            burst: n * 2,
            what,
        }
    }

    /// `n` a minute, all of them at once if need be.
    pub fn per_minute(n: u32, what: &'static str) -> Rate {
        let n = n.max(1);
        Rate {
            period: Duration::from_secs(60) / n,
            burst: n,
            what,
        }
    }
}

/// The 429 (or the 500 for an unknown client) as the API's JSON error.
fn too_many(error: GovernorError, what: &str) -> Response {
    metrics::counter!("tessera_rate_limited_total").increment(1);
    match error {
        GovernorError::TooManyRequests { wait_time, headers } => {
            // The same wait as Retry-After: "0 s" read as "now".
            let wait_time = wait_time.max(1);
            let mut response = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many {what}: try again in {wait_time} s"),
            )
            .into_response();
            if let Some(headers) = headers {
                response.headers_mut().extend(headers);
            }
            let wait = HeaderValue::from(wait_time);
            response.headers_mut().insert(header::RETRY_AFTER, wait);
            response
        }
        other => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, other.to_string()).into_response()
        }
    }
}

/// A future that resolves once SIGINT or SIGTERM arrives. The handlers are
/// installed when this is called, not when the future is first polled, so
/// a signal sent as soon as the server answers is never the default
/// (fatal) one.
pub fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}
