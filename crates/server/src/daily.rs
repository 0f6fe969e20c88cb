//! The daily challenge: a daily deal is marked with its day and claims the
//! player's first attempt at that day's puzzle; a solved daily game is
//! ranked only if it is that first attempt (`play::daily`); and each day
//! keeps a board of its first attempts, today's and every past day's.

// utoipa's `params(…)` expands to paths the lint calls redundant.
#![allow(unused_qualifications)]

use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::account::{Call, Visitor};
use super::clock::now_millis;
use super::edge::{DailyDate, FormatName, GameName, Variant};
use super::error::{Always, ApiError, Params, QueryErrors};
use super::records::viewer;
use super::App;
use play::daily::{attempt_holders, Day};
use play::format::Format;
use play::GameKind;
use store::{Account, DailyPuzzle, GameRow, IssuedGame, Ranking, Record};

/// How many results a day's board shows in each ranking.
const BOARD: i64 = 50;

/// Called when a game is dealt at `now`: a daily deal is marked as the
/// day's puzzle and claims the first attempt of this browser and account.
/// A game dealt from today's seed without `daily` (to look at the puzzle
/// first) claims it too, so the daily deal after it is a second attempt.
pub async fn dealt(
    app: &App,
    game: &IssuedGame,
    daily: bool,
    visitor: &Visitor,
    now: i64,
) -> Result<(), ApiError> {
    let today = Day::of(now);
    if !daily && game.seed != today.seed() {
        return Ok(());
    }
    let puzzle = DailyPuzzle {
        day: today.to_string(),
        game: game.game(),
        variant: game.variant.clone(),
        format: game.format,
    };
    let holders = holders(&game.player_id, visitor.account());
    if daily {
        app.store.issue_daily(&game.id, &puzzle, &holders).await?;
    } else {
        app.store
            .claim_daily_attempts(&game.id, &puzzle, &holders)
            .await?;
    }
    Ok(())
}

fn holders(player: &str, account: Option<&Account>) -> Vec<String> {
    attempt_holders(player, account.map(|a| a.id.as_str()))
}

/// Whether a solved game may be ranked as far as the daily challenge goes:
/// any game that is not a daily one, or the first attempt at its day's
/// puzzle of its browser and its owner.
pub async fn first_attempt(
    app: &App,
    row: &GameRow,
    account: Option<&Account>,
) -> Result<bool, ApiError> {
    let Some(puzzle) = app.store.daily_puzzle(&row.issued.id).await? else {
        return Ok(true);
    };
    let holders = holders(&row.issued.player_id, account);
    Ok(app
        .store
        .first_daily_attempt(&row.issued.id, &puzzle, &holders)
        .await?)
}

/// A day's board: a game, one of its variants, a format and a day.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    #[param(inline)]
    game: GameName,
    #[param(inline)]
    variant: Variant,
    /// `single` when absent.
    #[param(inline)]
    #[serde(default)]
    format: Option<FormatName>,
    /// Today (UTC) when absent.
    #[param(inline)]
    #[serde(default)]
    date: Option<DailyDate>,
}

/// A day's puzzle and its board: each player's first attempt, ranked.
#[derive(Serialize, ToSchema)]
pub struct DailyBoard {
    /// The day, `YYYY-MM-DD` (UTC).
    date: String,
    game: GameName,
    variant: String,
    format: String,
    /// The day's seed (the date as the number `YYYYMMDD`): the day's
    /// puzzle is dealt from it, so a past day can be played again with
    /// it (as an ordinary game; the board is closed to it).
    seed: u64,
    /// Whether the day is today: its board still fills.
    today: bool,
    /// The day before; null on the first day.
    previous: Option<String>,
    /// The day after; null for today.
    next: Option<String>,
    /// Fastest first.
    by_time: Vec<Record>,
    /// Fewest single-tile moves first (sliding puzzle).
    #[serde(skip_serializing_if = "Option::is_none")]
    by_moves: Option<Vec<Record>>,
    /// Highest score first (Shisen-Sho).
    #[serde(skip_serializing_if = "Option::is_none")]
    by_score: Option<Vec<Record>>,
}

/// A day's daily challenge: its seed and the board of first attempts
/// (a second attempt is stored but not ranked). Past days stay browsable;
/// a day still to come is refused.
#[utoipa::path(get, path = "/api/daily", tag = "records", params(BoardQuery),
    responses((status = 200, body = DailyBoard), QueryErrors, Always))]
pub async fn board(call: Call<Params<BoardQuery>>) -> Result<Json<DailyBoard>, ApiError> {
    let Call(app, player, visitor, Params(query)) = call;
    let today = Day::of(now_millis());
    let day = query.date.map_or(today, |d| d.0);
    if day > today {
        return Err(ApiError::bad(format!(
            "bad date {day}: that day's puzzle is not out yet (today is {today}, UTC)"
        )));
    }
    let puzzle = DailyPuzzle {
        day: day.to_string(),
        game: query.game.0,
        variant: query.variant.as_str().to_string(),
        format: query.format.map_or(Format::Single, |f| f.0),
    };
    let me = Some(viewer(&player, &visitor));
    let ranked = |ranking| app.store.daily_board(&puzzle, ranking, BOARD, me);
    let by_time = ranked(Ranking::Time).await?;
    let (by_moves, by_score) = match puzzle.game {
        GameKind::Slide => (Some(ranked(Ranking::Moves).await?), None),
        GameKind::Shisen => (None, Some(ranked(Ranking::Score).await?)),
    };
    Ok(Json(DailyBoard {
        date: puzzle.day.clone(),
        game: query.game,
        variant: puzzle.variant.clone(),
        format: puzzle.format.to_string(),
        seed: day.seed(),
        today: day == today,
        previous: (day > play::daily::FIRST_DAY).then(|| day.previous().to_string()),
        next: (day < today).then(|| day.next().to_string()),
        by_time,
        by_moves,
        by_score,
    }))
}
