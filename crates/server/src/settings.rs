//! An account's settings: change the password, export every result, and
//! delete the account. Each asks for the account's password where a
//! stolen session must not be enough (changing it, deleting), checked as
//! a sign-in is: throttled per handle and per client.

use accounts::{self as account, Handle, SessionToken};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoResponses, ToSchema};

use super::account::{
    claim_guest_results, confirm_password, off_the_workers, signed_in, signed_in_or_pending,
    signed_out, Call, SignedInErrors, Visitor,
};
use super::clock::now_millis;
use super::edge::{Country, GameName};
use super::error::{Always, ApiError, Body, BodyErrors, ErrorBody};
use super::App;
use store::{Figures, PasswordKind, Shown};

/// The errors of a request that needs the signed-in account's password.
#[derive(IntoResponses)]
#[allow(dead_code)] // Documentation only: `ApiError` builds the responses.
pub enum ConfirmErrors {
    /// Not signed in (or the session ended).
    #[response(status = 401)]
    NotSignedIn(ErrorBody),
    /// The password is wrong, a cross-site request, or (except for the
    /// password change) an account whose one-time password is not yet
    /// changed.
    #[response(status = 403)]
    Refused(ErrorBody),
    /// Too many wrong passwords for this account or from this client:
    /// `Retry-After` says when to try again, even with the right one.
    #[response(status = 429)]
    Throttled(ErrorBody),
}

/// A new password, and the current one to prove it is the owner asking.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    #[schema(example = "correct horse battery staple")]
    current: String,
    /// 10–128 characters, hard to guess (a weak one is refused and the
    /// answer says why).
    #[schema(example = "violet tractor umbrella lagoon")]
    new: String,
}

/// Changes the password: the current one is checked (throttled like a
/// sign-in), the new one must pass the password policy, and every other
/// session of the account ends (this one stays). This replaces an
/// operator's one-time password too, which completes that sign-in: the
/// account acts again, and this browser's guest results move to it.
#[utoipa::path(post, path = "/api/account/password", operation_id = "account_password", tag = "account",
    request_body = PasswordChange,
    responses((status = 204, description = "Changed; every other session ended"), BodyErrors, ConfirmErrors, Always))]
pub async fn change_password(call: Call<Body<PasswordChange>>) -> Result<StatusCode, ApiError> {
    let Call(app, player, visitor, Body(request)) = call;
    let account = signed_in_or_pending(&visitor)?;
    confirm_password(&app, &visitor, account, request.current).await?;
    let handle = Handle::parse(&account.handle).map_err(ApiError::bad)?;
    let new = request.new;
    let hash = off_the_workers(&app, move || {
        account::check_password(&new, &handle).map(|()| account::hash_password(&new))
    })
    .await?
    .map_err(|e| ApiError::bad(e).at("/new"))?;
    app.store
        .set_password(&account.id, &hash, PasswordKind::Own)
        .await?;
    let keep = visitor.token.as_ref().map(SessionToken::digest);
    let ended = app.store.end_sessions(&account.id, keep.as_deref()).await?;
    tracing::info!(handle = %account.handle, sessions = ended, "password changed");
    if account.must_change_password {
        claim_guest_results(&app, &player, account).await?;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The country a player shows, or none.
#[derive(Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CountryChoice {
    /// An ISO 3166-1 alpha-2 code (`NL`); null for none.
    #[schema(value_type = Option<Country>)]
    country: Option<String>,
}

/// Sets the signed-in account's country, shown on its profile and beside
/// its records (as the code; the page shows the flag), or clears it with
/// null. A code that is not an assigned ISO 3166-1 alpha-2 code is a 400
/// naming `country`, and nothing is stored.
#[utoipa::path(post, path = "/api/account/country", operation_id = "account_country", tag = "account",
    request_body = CountryChoice,
    responses((status = 200, body = CountryChoice), BodyErrors, SignedInErrors, Always))]
pub async fn set_country(call: Call<Body<CountryChoice>>) -> Result<Json<CountryChoice>, ApiError> {
    let Call(app, _, visitor, Body(request)) = call;
    let account = signed_in(&visitor)?;
    let country = request
        .country
        .as_deref()
        .map(Country::parse)
        .transpose()
        .map_err(|e| ApiError::bad(e).at("/country"))?
        .map(Country::code);
    app.store.set_country(&account.id, country).await?;
    Ok(Json(CountryChoice {
        country: country.map(str::to_string),
    }))
}

/// One result with its moves.
#[derive(Serialize, ToSchema)]
pub struct ExportedResult {
    /// Its replay is `/replay/{game_id}`.
    game_id: String,
    game: GameName,
    variant: String,
    #[serde(flatten)]
    figures: Figures,
    ranked: bool,
    /// Why it is not ranked.
    reason: Option<String>,
    finished_at: i64,
    /// The moves (sliding) or turns (Shisen-Sho) as text.
    replay: String,
    /// Milliseconds since the puzzle was shown, one per move.
    times: Vec<i64>,
}

/// Everything the site keeps about an account but its password hash and
/// session digests.
#[derive(Serialize, ToSchema)]
pub struct Export {
    handle: String,
    /// When the account was made, in milliseconds since the Unix epoch.
    created_at: i64,
    /// Every result, newest first.
    results: Vec<ExportedResult>,
}

/// All the signed-in account's data as JSON.
#[utoipa::path(get, path = "/api/account/export", operation_id = "account_export", tag = "account",
    responses((status = 200, body = Export), (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 403, description = "The account's one-time password is not yet changed", body = ErrorBody), Always))]
pub async fn export(State(app): State<App>, visitor: Visitor) -> Result<Json<Export>, ApiError> {
    let account = signed_in(&visitor)?;
    let results = app
        .store
        .account_results(&account.id, Shown::default())
        .await?;
    let results = results
        .into_iter()
        .map(|r| ExportedResult {
            game_id: r.record.game_id,
            game: GameName(r.game),
            variant: r.record.variant,
            figures: r.record.figures,
            ranked: r.record.ranked,
            reason: r.record.reason,
            finished_at: r.record.finished_at,
            replay: r.replay,
            times: r.times,
        })
        .collect();
    Ok(Json(Export {
        handle: account.handle.clone(),
        created_at: account.created_at,
        results,
    }))
}

/// The account's password, to confirm a deletion.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Deletion {
    #[schema(example = "correct horse battery staple")]
    password: String,
}

/// Deletes the signed-in account and every session of it. Its results
/// stay as anonymous guests' results: unranked (reason `guest`), no
/// longer anyone's, their replays still served without the handle.
#[utoipa::path(delete, path = "/api/account", operation_id = "account_delete", tag = "account",
    request_body = Deletion,
    responses((status = 204, description = "Deleted; the cookie is cleared"), BodyErrors, ConfirmErrors, Always))]
pub async fn delete(call: Call<Body<Deletion>>) -> Result<Response, ApiError> {
    let Call(app, _, visitor, Body(request)) = call;
    let account = signed_in(&visitor)?;
    confirm_password(&app, &visitor, account, request.password).await?;
    app.store.delete_account(&account.id, now_millis()).await?;
    tracing::info!(handle = %account.handle, "account deleted");
    Ok(signed_out(&visitor))
}
