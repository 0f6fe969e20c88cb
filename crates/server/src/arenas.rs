//! Arenas: `POST /api/arenas` makes one (a pool, a start, 10 to 60
//! minutes), `GET /api/arenas` lists those to come and running (the
//! server schedules one every hour itself), `GET /api/arenas/{arena}` is
//! its standings and races, `POST /api/arenas/{arena}/join` and `/pause`.
//! The rules are `play::arena`'s; the entrants and races are the store's,
//! so instances pair one arena together.
//!
//! An entrant's page says it is there by joining again every few seconds;
//! one not seen for [`PAUSED_AFTER_MS`] is paused, not removed. A pairing
//! is a race room with its racers seated, which starts on its own once
//! they are connected; one aborted because a racer made no first move in
//! time frees its racers at once, worth no points. The arena
//! is paired whenever someone reads it (the pages read it every second). A race that has not been
//! settled [`VOID_AFTER_MS`] after it was paired (a racer never came) is
//! void, and its racers free again.

// utoipa's `params(…)` expands to paths the lint calls redundant.
#![allow(unused_qualifications)]

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use play::arena::{Arena, ArenaError, Entry, Presence};
use play::rating::Pool;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::account::{signed_in, Call, SignedInErrors};
use super::error::{Always, ApiError, Body, BodyErrors, ErrorBody};
use super::ratings::PoolName;
use super::App;
use store::{ArenaRace, ArenaRow, EntrantRow};

/// An entrant whose page has not asked for this long is paused.
pub const PAUSED_AFTER_MS: i64 = 10_000;
/// A paired race not settled after this long is void.
pub const VOID_AFTER_MS: i64 = 5 * 60_000;
/// How far ahead an arena may be made.
const FURTHEST_AHEAD_MS: i64 = 7 * 24 * 3_600_000;
/// The server's own arenas: one on each hour, this long.
const HOURLY_MS: i64 = 30 * 60_000;
const HOUR_MS: i64 = 3_600_000;

/// An arena to make.
#[derive(Deserialize, ToSchema)]
#[schema(as = ArenaNewRequest)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    /// The pool raced: what is raced and which ratings move.
    pool: PoolName,
    /// How long it runs: 10 to 60 minutes.
    #[schema(minimum = 10, maximum = 60)]
    minutes: i64,
    /// When it starts, milliseconds since the Unix epoch; now when absent.
    /// Not in the past, and at most a week ahead.
    #[serde(default)]
    starts: Option<i64>,
}

/// An arena, in a list.
#[derive(Serialize, ToSchema)]
pub struct ArenaSummary {
    id: String,
    pool: &'static str,
    starts: i64,
    ends: i64,
    /// The page to follow it on.
    url: String,
}

/// The arenas to come and running.
#[derive(Serialize, ToSchema)]
pub struct ArenaList {
    arenas: Vec<ArenaSummary>,
}

/// One entrant's line in the standings.
#[derive(Serialize, ToSchema)]
pub struct StandingLine {
    rank: usize,
    handle: String,
    points: u32,
    races: u32,
    wins: u32,
    /// Their next win counts double.
    on_fire: bool,
    /// `free`, `racing` or `paused`.
    presence: &'static str,
}

/// A race the arena paired.
#[derive(Serialize, ToSchema)]
pub struct RaceLine {
    /// The race's page.
    url: String,
    /// The racers' handles, in seat order.
    racers: Vec<String>,
    paired_at: i64,
    /// The racers' points from it, once it was settled.
    points: Option<Vec<u32>>,
    /// Aborted (a racer made no first move in time): worth no points.
    aborted: bool,
}

/// An arena's standings and races, and where the asking entrant is.
#[derive(Serialize, ToSchema)]
pub struct ArenaView {
    #[serde(flatten)]
    arena: ArenaSummary,
    /// `upcoming`, `running` or `finished`.
    state: &'static str,
    standings: Vec<StandingLine>,
    races: Vec<RaceLine>,
    /// The asking account's race now, if it is in one.
    my_race: Option<String>,
    /// Whether the asking account has entered.
    entered: bool,
}

fn summary(arena: &ArenaRow) -> ArenaSummary {
    ArenaSummary {
        id: arena.id.clone(),
        pool: arena.pool.name(),
        starts: arena.starts,
        ends: arena.ends,
        url: format!("/arena/{}", arena.id),
    }
}

/// Makes an arena, to start now or later.
#[utoipa::path(post, path = "/api/arenas", operation_id = "arena_new", tag = "races", request_body = NewRequest,
    responses((status = 201, body = ArenaSummary), BodyErrors, SignedInErrors, Always))]
pub async fn new(
    call: Call<Body<NewRequest>>,
) -> Result<(StatusCode, Json<ArenaSummary>), ApiError> {
    let Call(app, _, visitor, Body(request)) = call;
    let account = signed_in(&visitor)?;
    let now = app.clock.now_millis();
    let refused = |message: String, pointer: &str| {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message).at(pointer)
    };
    let starts = request.starts.unwrap_or(now);
    if starts < now - 60_000 || starts > now + FURTHEST_AHEAD_MS {
        return Err(refused(
            format!("starts: from now ({now}) to a week ahead, not {starts}"),
            "/starts",
        ));
    }
    let duration = request.minutes.saturating_mul(60_000);
    let arena = Arena::new(Pool::from(request.pool), starts, duration)
        .map_err(|e| refused(e.to_string(), "/minutes"))?;
    let row = ArenaRow {
        id: play::seed::random_id(),
        pool: arena.pool,
        starts: arena.starts,
        ends: arena.ends,
        created_by: Some(account.id.clone()),
    };
    app.store.create_arena(&row, now).await?;
    Ok((StatusCode::CREATED, Json(summary(&row))))
}

/// The arenas to come and running, with the next hourly ones.
#[utoipa::path(get, path = "/api/arenas", operation_id = "arena_list", tag = "races",
    responses((status = 200, body = ArenaList), Always))]
pub async fn list(State(app): State<App>) -> Result<Json<ArenaList>, ApiError> {
    let now = app.clock.now_millis();
    schedule(&app, now).await?;
    let arenas = app.store.arenas(now, 50).await?;
    Ok(Json(ArenaList {
        arenas: arenas.iter().map(summary).collect(),
    }))
}

/// The server's own arenas: one on the next two hours, each of a pool in
/// turn. Their ids name the hour, so instances make each once.
async fn schedule(app: &App, now: i64) -> Result<(), ApiError> {
    for hour in [now / HOUR_MS, now / HOUR_MS + 1] {
        let pool = Pool::ALL[usize::try_from(hour).unwrap_or(0) % Pool::ALL.len()];
        let row = ArenaRow {
            id: format!("hourly-{hour}"),
            pool,
            starts: hour * HOUR_MS,
            ends: hour * HOUR_MS + HOURLY_MS,
            created_by: None,
        };
        app.store.create_arena(&row, now).await?;
    }
    Ok(())
}

/// An arena's standings and races; reading it also pairs its free
/// entrants.
#[utoipa::path(get, path = "/api/arenas/{arena}", operation_id = "arena", tag = "races",
    params(("arena" = String, Path, description = "The arena's id")),
    responses((status = 200, body = ArenaView),
        (status = 404, description = "No such arena", body = ErrorBody), Always))]
pub async fn view(call: Call<Path<String>>) -> Result<Json<ArenaView>, ApiError> {
    let Call(app, _, visitor, Path(id)) = call;
    let arena = find(&app, &id).await?;
    let now = app.clock.now_millis();
    let me = visitor.account().map(|a| a.id.clone());
    let mut entrants = app.store.arena_entrants(&arena.id).await?;
    let mut races = app.store.arena_races(&arena.id).await?;
    free_the_finished(&app, &arena, &mut entrants, &races, now).await?;
    let mut rules = restore(&arena, &entrants, &races, now)?;
    if pair(&app, &arena, &entrants, &mut rules, now).await? {
        // The pairings went through the store, which may have refused
        // some (another instance paired them first): read it again.
        entrants = app.store.arena_entrants(&arena.id).await?;
        races = app.store.arena_races(&arena.id).await?;
        rules = restore(&arena, &entrants, &races, now)?;
    }
    Ok(Json(render(
        &arena,
        &rules,
        &entrants,
        &races,
        me.as_deref(),
        now,
    )))
}

async fn find(app: &App, id: &str) -> Result<ArenaRow, ApiError> {
    app.store
        .arena(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no arena {id:?}")))
}

/// Frees the entrants whose race was settled, or is void.
async fn free_the_finished(
    app: &App,
    arena: &ArenaRow,
    entrants: &mut [EntrantRow],
    races: &[ArenaRace],
    now: i64,
) -> Result<(), ApiError> {
    for entrant in entrants.iter_mut() {
        let Some(room) = entrant.room.clone() else {
            continue;
        };
        let race = races.iter().find(|r| r.room == room);
        let over = race.is_none_or(|r| {
            r.settled.is_some() || r.aborted.is_some() || now - r.paired_at >= VOID_AFTER_MS
        });
        if over {
            app.store
                .free_in_arena(&arena.id, &entrant.account_id, &room, now)
                .await?;
            entrant.room = None;
            entrant.free_since = now;
        }
    }
    Ok(())
}

fn presence(entrant: &EntrantRow, now: i64) -> Presence {
    if entrant.room.is_some() {
        Presence::Racing
    } else if now - entrant.seen > PAUSED_AFTER_MS {
        Presence::Paused
    } else {
        Presence::Free
    }
}

/// The arena as `play::arena` sees it: its entrants and settled races, in
/// the order they were settled.
fn restore(
    arena: &ArenaRow,
    entrants: &[EntrantRow],
    races: &[ArenaRace],
    now: i64,
) -> Result<Arena, ApiError> {
    let entries: Vec<Entry> = entrants
        .iter()
        .map(|e| Entry {
            who: e.account_id.clone(),
            presence: presence(e, now),
            free_since: e.free_since,
        })
        .collect();
    let mut settled: Vec<_> = races.iter().filter_map(|r| r.settled.as_ref()).collect();
    settled.sort_by_key(|(at, _)| *at);
    let played: Vec<_> = settled.into_iter().map(|(_, p)| p.clone()).collect();
    let rules = Arena::new(arena.pool, arena.starts, arena.ends - arena.starts).map_err(|e| {
        let message = format!("stored arena {}: {e}", arena.id);
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    })?;
    Ok(rules.restore(&entries, &played))
}

/// Opens a rated room for each pairing the rules make now, its racers
/// seated in it; true if any.
async fn pair(
    app: &App,
    arena: &ArenaRow,
    entrants: &[EntrantRow],
    rules: &mut Arena,
    now: i64,
) -> Result<bool, ApiError> {
    let mut n = 0;
    let pairings = rules.pairings(now, || {
        n += 1;
        n.to_string()
    });
    for (_, racers) in &pairings {
        let accounts: Vec<(String, String)> = racers
            .iter()
            .filter_map(|who| {
                let entrant = entrants.iter().find(|e| &e.account_id == who)?;
                Some((who.clone(), entrant.handle.clone()))
            })
            .collect();
        if accounts.len() < racers.len() {
            continue;
        }
        let room = super::race::open_rated(app, arena.pool, &accounts).await?;
        app.store
            .pair_in_arena(&arena.id, racers, &room, now)
            .await?;
    }
    Ok(!pairings.is_empty())
}

fn render(
    arena: &ArenaRow,
    rules: &Arena,
    entrants: &[EntrantRow],
    races: &[ArenaRace],
    me: Option<&str>,
    now: i64,
) -> ArenaView {
    let handle_of = |who: &str| {
        entrants
            .iter()
            .find(|e| e.account_id == who)
            .map_or_else(|| "(deleted)".to_string(), |e| e.handle.clone())
    };
    let standings = rules
        .standings()
        .into_iter()
        .enumerate()
        .map(|(i, (who, s))| StandingLine {
            rank: i + 1,
            handle: handle_of(&who),
            points: s.points,
            races: s.races,
            wins: s.wins,
            on_fire: s.on_fire(),
            presence: match rules.presence(&who) {
                Some(Presence::Racing) => "racing",
                Some(Presence::Paused) | None => "paused",
                Some(Presence::Free) => "free",
            },
        })
        .collect();
    let races = races
        .iter()
        .rev()
        .map(|r| RaceLine {
            url: format!("/race/{}", r.room),
            racers: r.racers.iter().map(|w| handle_of(w)).collect(),
            paired_at: r.paired_at,
            aborted: r.aborted.is_some(),
            points: r.settled.as_ref().map(|(_, played)| {
                (0..played.racers.len())
                    .map(|i| play::arena::race_points(&played.outcomes, i).0)
                    .collect()
            }),
        })
        .collect();
    let mine = me.and_then(|me| entrants.iter().find(|e| e.account_id == me));
    ArenaView {
        state: if now < arena.starts {
            "upcoming"
        } else if now < arena.ends {
            "running"
        } else {
            "finished"
        },
        arena: summary(arena),
        standings,
        races,
        my_race: mine.and_then(|e| e.room.as_ref().map(|room| format!("/race/{room}"))),
        entered: mine.is_some(),
    }
}

/// Enters the arena, or says the entrant is still there (their page
/// repeats it every few seconds); after a pause, comes back.
#[utoipa::path(post, path = "/api/arenas/{arena}/join", operation_id = "arena_join", tag = "races",
    params(("arena" = String, Path, description = "The arena's id")),
    responses((status = 204, description = "Entered: free to be paired"),
        (status = 404, description = "No such arena", body = ErrorBody),
        (status = 409, description = "The arena has ended", body = ErrorBody),
        SignedInErrors, Always))]
pub async fn join(call: Call<Path<String>>) -> Result<StatusCode, ApiError> {
    let Call(app, _, visitor, Path(id)) = call;
    let account = signed_in(&visitor)?;
    let arena = find(&app, &id).await?;
    let now = app.clock.now_millis();
    if now >= arena.ends {
        return Err(ApiError::conflict(ArenaError::Ended));
    }
    app.store.enter_arena(&arena.id, &account.id, now).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Pauses the entrant: kept in the standings, not paired until they join
/// again.
#[utoipa::path(post, path = "/api/arenas/{arena}/pause", operation_id = "arena_pause", tag = "races",
    params(("arena" = String, Path, description = "The arena's id")),
    responses((status = 204, description = "Paused"),
        (status = 404, description = "No such arena, or not entered", body = ErrorBody),
        SignedInErrors, Always))]
pub async fn pause(call: Call<Path<String>>) -> Result<StatusCode, ApiError> {
    let Call(app, _, visitor, Path(id)) = call;
    let account = signed_in(&visitor)?;
    let arena = find(&app, &id).await?;
    if app.store.pause_in_arena(&arena.id, &account.id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("not entered in this arena"))
    }
}
