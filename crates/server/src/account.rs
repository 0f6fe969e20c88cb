//! Accounts over HTTP: sign-up, sign-in, sign-out, and who is signed in.
//!
//! The rules (handles, passwords, hashes, tokens, the throttle) are
//! the `accounts` crate's; this translates them. A session is a random token in
//! the `tessera_session` cookie (`HttpOnly`, `SameSite=Lax`, `Secure` over
//! TLS); the database keeps only its SHA-256. The [`guard`] middleware
//! reads the cookie on every request, refuses cross-site requests that
//! carry it, and renews the session as it is used.
//! Handlers take who asks, with the app and their input, as one [`Call`].
//!
//! An account signed in with an operator's one-time password (`tessera
//! admin users create` or `reset-password`) is *pending* until its owner
//! chooses a password: the sign-in answer and `GET /api/account` say
//! `must_change_password`, and until the change
//! - the password change (`POST /api/account/password`, with the one-time
//!   password as the current one), `GET /api/account` and signing out
//!   (here or everywhere) work;
//! - every other account action (the export, deleting the account)
//!   answers 403 asking for the change first;
//! - the browser plays as a guest: its results are stored as this
//!   browser's guest results (unranked, reason `guest`) and races are run
//!   as a guest's, never under the account. The change completes the
//!   sign-in: those results move to the account then, as a sign-in moves
//!   them, ranked if they qualify.
//!
//! So a one-time password seen on its way to the owner (a chat message,
//! a ticket) proves nothing in the records, and is good for one thing:
//! replacing it.

mod call;

use std::sync::Arc;

use accounts::{self as account, Handle, SessionToken, RENEW_AFTER_MILLIS, SESSION_MILLIS};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::{COOKIE, HOST, ORIGIN, REFERER, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;
use tower_governor::key_extractor::{KeyExtractor, PeerIpKeyExtractor, SmartIpKeyExtractor};
use utoipa::{IntoResponses, ToSchema};

pub use call::Call;

use super::clock::now_millis;
use super::error::{Always, ApiError, Body, BodyErrors, ErrorBody};
use super::player::Player;
use super::App;
use store::{Account, PasswordKind};

const COOKIE_NAME: &str = "tessera_session";

/// How the server treats accounts, from its configuration.
#[derive(Clone)]
pub struct Settings {
    /// The session cookie is always `Secure`.
    secure_cookies: bool,
    /// Client addresses and the scheme come from the balancer's headers.
    pub(super) trust_proxy: bool,
    /// Hashes running at once: one per core, so a storm of sign-ins
    /// queues here instead of taking every blocking thread (and 19 MiB
    /// each).
    hashing: Arc<Semaphore>,
}

impl Settings {
    pub fn new(secure_cookies: bool, trust_proxy: bool) -> Settings {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Settings {
            secure_cookies,
            trust_proxy,
            hashing: Arc::new(Semaphore::new(cores)),
        }
    }

    /// Whether the cookie must be `Secure` for this request: always with
    /// `--secure-cookies`, and behind a trusted balancer that says the
    /// client came over HTTPS.
    fn secure(&self, headers: &HeaderMap) -> bool {
        self.secure_cookies
            || (self.trust_proxy
                && headers
                    .get("x-forwarded-proto")
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("https")))
    }
}

/// Who is asking: the signed-in account, if any, and what the account
/// endpoints need of the request.
#[derive(Clone, Debug)]
pub struct Visitor {
    /// Signed in or not, and how far.
    who: Who,
    /// The session token the request carried (valid or not).
    pub(super) token: Option<SessionToken>,
    /// The client's address, as the solver limit tells clients apart.
    client: String,
    /// Whether a cookie set now must be `Secure`.
    secure: bool,
}

/// How far a visitor is signed in: one of three, never two at once.
#[derive(Clone, Debug)]
enum Who {
    /// No valid session.
    Guest,
    /// A signed-in account: only this one acts and owns results.
    SignedIn(Account),
    /// An account signed in with a one-time password not yet replaced.
    Pending(Account),
}

impl Visitor {
    /// The signed-in account, unless its one-time password is still to
    /// be replaced: the one that acts and owns results.
    pub fn account(&self) -> Option<&Account> {
        match &self.who {
            Who::SignedIn(account) => Some(account),
            Who::Guest | Who::Pending(_) => None,
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Visitor {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Visitor>()
            .cloned()
            .ok_or_else(|| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "no visitor"))
    }
}

/// Middleware: refuses cross-site requests that carry the session cookie,
/// finds the signed-in account, and renews its session when a day of it
/// has been used.
pub async fn guard(State(app): State<App>, mut request: Request, next: Next) -> Response {
    let settings = &app.accounts;
    let cookie = cookie_value(request.headers(), COOKIE_NAME);
    if cookie.is_some()
        && changes_state(request.method())
        && !same_origin(request.headers(), settings.trust_proxy)
    {
        metrics::counter!("tessera_cross_site_refused_total").increment(1);
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "cross-site request refused: a request that changes state with a session cookie \
             must come from this site (its Origin or Referer)",
        )
        .into_response();
    }
    let token = cookie.as_deref().and_then(SessionToken::parse);
    let secure = settings.secure(request.headers());
    let now = now_millis();
    let (signed_in, renew) = match &token {
        Some(token) => match app.store.session_account(&token.digest(), now).await {
            Ok(Some((account, expires_at))) => {
                let renew = expires_at - now < SESSION_MILLIS - RENEW_AFTER_MILLIS;
                (Some(account), renew)
            }
            Ok(None) => (None, false),
            Err(e) => return ApiError::from(e).into_response(),
        },
        None => (None, false),
    };
    if let (true, Some(token)) = (renew, &token) {
        if let Err(e) = app.store.renew_session(&token.digest(), now).await {
            return ApiError::from(e).into_response();
        }
    }
    let client = client_address(&request, settings.trust_proxy);
    // A one-time password still to be replaced signs in only as far as
    // replacing it.
    let who = match signed_in {
        Some(a) if a.must_change_password => Who::Pending(a),
        Some(a) => Who::SignedIn(a),
        None => Who::Guest,
    };
    request.extensions_mut().insert(Visitor {
        who,
        token: token.clone(),
        client,
        secure,
    });
    let mut response = next.run(request).await;
    if let (true, Some(token)) = (renew, token) {
        if !sets_session(&response) {
            response
                .headers_mut()
                .append(SET_COOKIE, session_cookie(Some(&token), secure));
        }
    }
    response
}

fn changes_state(method: &Method) -> bool {
    !matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    )
}

/// Whether the request's `Origin` (or, lacking it, `Referer`) names the
/// host the request was sent to (`X-Forwarded-Host` behind a trusted
/// balancer). Neither header, or an opaque `null` origin, is not the
/// site's own.
pub(super) fn same_origin(headers: &HeaderMap, trust_proxy: bool) -> bool {
    let header = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let forwarded = trust_proxy.then(|| header("x-forwarded-host")).flatten();
    let Some(host) = forwarded.or_else(|| header(HOST.as_str())) else {
        return false;
    };
    let Some(source) = header(ORIGIN.as_str()).or_else(|| header(REFERER.as_str())) else {
        return false;
    };
    let Some((_, rest)) = source.split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    authority.eq_ignore_ascii_case(host.trim())
}

/// The client's address as the solver limit tells clients apart: the
/// peer, or behind a trusted balancer the address it forwards.
fn client_address(request: &Request, trust_proxy: bool) -> String {
    let ip = if trust_proxy {
        SmartIpKeyExtractor.extract(request)
    } else {
        PeerIpKeyExtractor.extract(request)
    };
    ip.map_or_else(|_| "unknown".to_string(), |ip| ip.to_string())
}

/// The value of cookie `name` in the request's `Cookie` headers.
fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|header| header.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.to_string())
}

fn sets_session(response: &Response) -> bool {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .any(|v| v.as_bytes().starts_with(COOKIE_NAME.as_bytes()))
}

/// The session cookie carrying `token`, or clearing it when `None`.
fn session_cookie(token: Option<&SessionToken>, secure: bool) -> HeaderValue {
    let (value, age) = match token {
        Some(token) => (token.as_str(), SESSION_MILLIS / 1000),
        None => ("", 0),
    };
    let secure = if secure { "; Secure" } else { "" };
    let cookie =
        format!("{COOKIE_NAME}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&cookie).expect("a token is hex digits")
}

/// Runs slow work (hashing) on the blocking pool, at most one per core at
/// a time, so that the async workers keep answering other requests.
pub(super) async fn off_the_workers<T: Send + 'static>(
    app: &App,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let internal = || ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "hashing failed");
    let _permit = app
        .accounts
        .hashing
        .acquire()
        .await
        .map_err(|_| internal())?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| internal())
}

/// A handle and a password.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3–20 characters: letters A–Z and a–z, digits, `_` and `-`; unique
    /// without regard to case.
    #[schema(example = "Ada_L", pattern = "^[A-Za-z0-9_-]{3,20}$")]
    handle: String,
    /// 10–128 characters, hard to guess (a sign-up refuses a weak one and
    /// says why).
    #[schema(
        example = "correct horse battery staple",
        min_length = 10,
        max_length = 128
    )]
    password: String,
}

/// The signed-in account.
#[derive(Serialize, ToSchema)]
pub struct AccountView {
    /// As its owner typed it.
    handle: String,
    /// When the account was made, in milliseconds since the Unix epoch.
    created_at: i64,
    /// Signed in with an operator's one-time password: until it is
    /// replaced (`POST /api/account/password`, with it as the current
    /// one) other account actions answer 403 and results are a guest's.
    must_change_password: bool,
}

impl AccountView {
    fn of(account: &Account) -> AccountView {
        AccountView {
            handle: account.handle.clone(),
            created_at: account.created_at,
            must_change_password: account.must_change_password,
        }
    }
}

/// The errors of a sign-up besides a bad body.
#[derive(IntoResponses)]
#[allow(dead_code)] // Documentation only: `ApiError` builds the responses.
pub enum SignupErrors {
    /// A request carrying a session cookie from another site.
    #[response(status = 403)]
    CrossSite(ErrorBody),
    /// The handle is taken (in any case).
    #[response(status = 409)]
    Taken(ErrorBody),
}

/// The errors of a sign-in besides a bad body.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum LoginErrors {
    /// Wrong handle or password (the same answer for both).
    #[response(status = 401)]
    Wrong(ErrorBody),
    /// The account is disabled, or a cross-site request.
    #[response(status = 403)]
    Refused(ErrorBody),
    /// Too many failed sign-ins for this handle or from this client:
    /// `Retry-After` says when to try again, even with the right password.
    #[response(status = 429)]
    Throttled(ErrorBody),
}

/// The errors of a request that needs a signed-in account.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum SignedInErrors {
    /// Not signed in (or the session ended).
    #[response(status = 401)]
    NotSignedIn(ErrorBody),
    /// A request carrying a session cookie from another site, or (except
    /// for the password change, `GET /api/account` and signing out) an
    /// account whose one-time password is not yet changed.
    #[response(status = 403)]
    Refused(ErrorBody),
}

/// A request from another site carrying the session cookie.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum CrossSite {
    /// A request carrying a session cookie from another site.
    #[response(status = 403)]
    CrossSite(ErrorBody),
}

/// The signed-in account: 401 when not signed in, 403 while its one-time
/// password is not yet changed.
pub(super) fn signed_in(visitor: &Visitor) -> Result<&Account, ApiError> {
    match &visitor.who {
        Who::SignedIn(account) => Ok(account),
        Who::Pending(_) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "change your one-time password first: POST /api/account/password \
             with it as the current password and a new one of your own",
        )),
        Who::Guest => Err(ApiError::new(StatusCode::UNAUTHORIZED, "not signed in")),
    }
}

/// The signed-in account, pending or not: for what a pending account may
/// do (see the module's documentation).
pub(super) fn signed_in_or_pending(visitor: &Visitor) -> Result<&Account, ApiError> {
    match &visitor.who {
        Who::SignedIn(account) | Who::Pending(account) => Ok(account),
        Who::Guest => Err(ApiError::new(StatusCode::UNAUTHORIZED, "not signed in")),
    }
}

/// Makes an account and signs in to it; the guest results of this
/// browser move to it.
#[utoipa::path(post, path = "/api/account/signup", operation_id = "account_signup", tag = "account", request_body = Credentials,
    responses((status = 201, body = AccountView), BodyErrors, SignupErrors, Always))]
pub async fn signup(call: Call<Body<Credentials>>) -> Result<Response, ApiError> {
    let Call(app, player, visitor, Body(request)) = call;
    let handle = Handle::parse(&request.handle).map_err(|e| ApiError::bad(e).at("/handle"))?;
    let password = request.password;
    let checked = handle.clone();
    let hash = off_the_workers(&app, move || {
        account::check_password(&password, &checked).map(|()| account::hash_password(&password))
    })
    .await?
    .map_err(|e| ApiError::bad(e).at("/password"))?;
    let created = app
        .store
        .create_account(&handle, &hash, PasswordKind::Own, now_millis())
        .await?;
    let account = created
        .ok_or_else(|| ApiError::conflict(format!("the handle {handle} is taken")).at("/handle"))?;
    tracing::info!(handle = %handle, "account created");
    start_session(&app, &visitor, &player, &account, StatusCode::CREATED).await
}

/// What a failed sign-in answers, whether the handle exists or not.
fn wrong_credentials() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "wrong handle or password")
}

/// Signs in (a new session token each time); the guest results of this
/// browser move to the account.
#[utoipa::path(post, path = "/api/account/login", operation_id = "account_login", tag = "account", request_body = Credentials,
    responses((status = 200, body = AccountView), BodyErrors, LoginErrors, Always))]
pub async fn login(call: Call<Body<Credentials>>) -> Result<Response, ApiError> {
    let Call(app, player, visitor, Body(request)) = call;
    // A text that is no handle has no account: it is answered as any
    // unknown handle is, and throttled by client only.
    let handle = Handle::parse(&request.handle).ok();
    let mut subjects = vec![format!("client:{}", visitor.client)];
    if let Some(handle) = &handle {
        subjects.push(format!("handle:{}", handle.key()));
    }
    throttle(&app, &subjects).await?;
    let found = match &handle {
        Some(handle) => app.store.credentials(handle).await?,
        None => None,
    };
    let password = request.password;
    let stored = found.as_ref().map(|(_, hash)| hash.clone());
    let verified = off_the_workers(&app, move || match stored {
        Some(hash) => account::verify_password(&password, &hash),
        None => account::verify_unknown(&password),
    })
    .await?;
    let account = match found {
        Some((account, _)) if verified => account,
        _ => {
            metrics::counter!("tessera_login_failures_total").increment(1);
            let subjects: Vec<&str> = subjects.iter().map(String::as_str).collect();
            app.store
                .note_login_failure(&subjects, now_millis())
                .await?;
            return Err(wrong_credentials());
        }
    };
    if account.disabled {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this account is disabled: ask the site's operator",
        ));
    }
    if let Some(handle_subject) = subjects.get(1) {
        app.store.clear_login_failures(handle_subject).await?;
    }
    start_session(&app, &visitor, &player, &account, StatusCode::OK).await
}

/// Checks that `password` is `account`'s, as a sign-in does: throttled
/// per handle and per client alike, and counted as a failed sign-in when
/// wrong (403, since the request is signed in).
pub(super) async fn confirm_password(
    app: &App,
    visitor: &Visitor,
    account: &Account,
    password: String,
) -> Result<(), ApiError> {
    let handle = Handle::parse(&account.handle).map_err(ApiError::bad)?;
    let subjects = [
        format!("client:{}", visitor.client),
        format!("handle:{}", handle.key()),
    ];
    throttle(app, &subjects).await?;
    let stored = app.store.credentials(&handle).await?.map(|(_, hash)| hash);
    let verified = off_the_workers(app, move || match stored {
        Some(hash) => account::verify_password(&password, &hash),
        None => account::verify_unknown(&password),
    })
    .await?;
    if verified {
        return Ok(());
    }
    metrics::counter!("tessera_login_failures_total").increment(1);
    let subjects: Vec<&str> = subjects.iter().map(String::as_str).collect();
    app.store
        .note_login_failure(&subjects, now_millis())
        .await?;
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "the password is wrong",
    ))
}

/// 429 with `Retry-After` while any of `subjects` has too many recent
/// failures.
async fn throttle(app: &App, subjects: &[String]) -> Result<(), ApiError> {
    let now = now_millis();
    let mut wait = None;
    for subject in subjects {
        let failures = app.store.login_failures(subject, now).await?;
        wait = wait.max(account::throttle_wait(&failures, now));
    }
    match wait {
        None => Ok(()),
        Some(millis) => {
            metrics::counter!("tessera_login_throttled_total").increment(1);
            let seconds = (millis as u64).div_ceil(1000);
            let mut error = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many failed sign-ins: try again in {seconds} s"),
            );
            error.retry_after = Some(seconds);
            Err(error)
        }
    }
}

/// Ends the session the request carried (the token changes at every
/// sign-in), starts a new one, moves this browser's guest results to the
/// account (unless its one-time password must be changed first: the
/// change moves them), and answers with the account and its cookie.
async fn start_session(
    app: &App,
    visitor: &Visitor,
    player: &Player,
    account: &Account,
    status: StatusCode,
) -> Result<Response, ApiError> {
    if let Some(old) = &visitor.token {
        app.store.end_session(&old.digest()).await?;
    }
    let token = SessionToken::generate();
    let now = now_millis();
    app.store
        .start_session(&token.digest(), &account.id, now)
        .await?;
    if !account.must_change_password {
        claim_guest_results(app, player, account).await?;
    }
    let mut response = (status, Json(AccountView::of(account))).into_response();
    response
        .headers_mut()
        .append(SET_COOKIE, session_cookie(Some(&token), visitor.secure));
    Ok(response)
}

/// Moves this browser's guest results to the account.
pub(super) async fn claim_guest_results(
    app: &App,
    player: &Player,
    account: &Account,
) -> Result<(), ApiError> {
    let moved = app
        .store
        .claim_guest_results(&player.0, &account.id)
        .await?;
    if moved > 0 {
        tracing::info!(handle = %account.handle, results = moved, "guest results moved to the account");
    }
    Ok(())
}

/// The response that ends the session cookie.
pub(super) fn signed_out(visitor: &Visitor) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .append(SET_COOKIE, session_cookie(None, visitor.secure));
    response
}

/// Signs out here: this session ends (nothing to do when there is none).
#[utoipa::path(post, path = "/api/account/logout", operation_id = "account_logout", tag = "account",
    responses((status = 204, description = "Signed out; the cookie is cleared"), CrossSite, Always))]
pub async fn logout(State(app): State<App>, visitor: Visitor) -> Result<Response, ApiError> {
    if let Some(token) = &visitor.token {
        app.store.end_session(&token.digest()).await?;
    }
    Ok(signed_out(&visitor))
}

/// Signs out everywhere: every session of the account ends.
#[utoipa::path(post, path = "/api/account/logout-all", operation_id = "account_logout_all", tag = "account",
    responses((status = 204, description = "Every session ended; the cookie is cleared"), SignedInErrors, Always))]
pub async fn logout_all(State(app): State<App>, visitor: Visitor) -> Result<Response, ApiError> {
    let account = signed_in_or_pending(&visitor)?;
    let ended = app.store.end_sessions(&account.id, None).await?;
    tracing::info!(handle = %account.handle, sessions = ended, "signed out everywhere");
    Ok(signed_out(&visitor))
}

/// The signed-in account (`must_change_password` when its one-time
/// password is still to be replaced); 401 when not signed in.
#[utoipa::path(get, path = "/api/account", operation_id = "account_me", tag = "account",
    responses((status = 200, body = AccountView), (status = 401, description = "Not signed in", body = ErrorBody), Always))]
pub async fn me(visitor: Visitor) -> Result<Json<AccountView>, ApiError> {
    signed_in_or_pending(&visitor).map(|a| Json(AccountView::of(a)))
}

/// Who is asking: the signed-in account, or null for a guest.
#[derive(Serialize, ToSchema)]
pub struct Session {
    /// The account, pending or not; null when not signed in.
    account: Option<AccountView>,
}

/// Whether the asker is signed in, and as whom: always 200, so that a
/// page asks it for a guest without an error (`GET /api/account` answers
/// a guest 401).
#[utoipa::path(get, path = "/api/session", operation_id = "account_session", tag = "account",
    responses((status = 200, body = Session), Always))]
pub async fn session(visitor: Visitor) -> Json<Session> {
    Json(Session {
        account: signed_in_or_pending(&visitor).ok().map(AccountView::of),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn only_the_sites_own_origin_passes() {
        let own = headers(&[
            ("host", "play.example:8080"),
            ("origin", "https://play.example:8080"),
        ]);
        assert!(same_origin(&own, false));
        let other = headers(&[("host", "play.example"), ("origin", "https://evil.example")]);
        assert!(!same_origin(&other, false));
        let suffix = headers(&[
            ("host", "play.example"),
            ("origin", "https://play.example.evil"),
        ]);
        assert!(!same_origin(&suffix, false));
        let referer = headers(&[
            ("host", "play.example"),
            ("referer", "https://play.example/u/ada"),
        ]);
        assert!(same_origin(&referer, false));
        let opaque = headers(&[("host", "play.example"), ("origin", "null")]);
        assert!(!same_origin(&opaque, false));
        assert!(!same_origin(&headers(&[("host", "play.example")]), false));
        // Behind a trusted balancer the host it forwards counts.
        let forwarded = headers(&[
            ("host", "10.0.0.5:8080"),
            ("x-forwarded-host", "play.example"),
            ("origin", "https://play.example"),
        ]);
        assert!(same_origin(&forwarded, true));
        assert!(!same_origin(&forwarded, false));
    }

    #[test]
    fn the_cookie_carries_its_flags() {
        let token = SessionToken::generate();
        let plain = session_cookie(Some(&token), false);
        let text = plain.to_str().unwrap();
        assert!(text.starts_with(&format!("{COOKIE_NAME}={}", token.as_str())));
        assert!(
            text.contains("HttpOnly") && text.contains("SameSite=Lax") && text.contains("Path=/")
        );
        assert!(!text.contains("Secure"));
        assert!(session_cookie(Some(&token), true)
            .to_str()
            .unwrap()
            .ends_with("; Secure"));
        assert!(session_cookie(None, false)
            .to_str()
            .unwrap()
            .contains("Max-Age=0"));
    }
}
