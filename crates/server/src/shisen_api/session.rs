//! A game in progress: its stored deal and rules, pauses, resumes and
//! shuffles.

use axum::Json;
use play::limits::SUBMITTED_TURNS;
use play::shisen_game::{shuffle_seed, Replay, Session, Turn};
use play::GameKind;
use serde::{Deserialize, Serialize};
use shisen::{Board, Game, Matching, Rules};

use crate::account::Call;
use crate::clock::now_millis;
use crate::edge::GameId;
use crate::error::{Always, ApiError, Body, BodyErrors, GameErrors};
use crate::games::{open_game, timed, unreadable};
use store::{Dealt, GameRow, IssuedGame};
use utoipa::ToSchema;

use super::tools::read_board;
use super::turns::{illegal_turn, read_turns, TurnJson};

/// A game, by id.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    game: GameId,
}

/// A stored game's deal, a Shisen-Sho one's: its board and rules.
fn stored_deal(game: &IssuedGame) -> Result<(&Board, Rules), ApiError> {
    match &game.dealt {
        Dealt::Shisen { board, rules } => Ok((board, *rules)),
        Dealt::Slide { .. } => Err(unreadable(
            game,
            "a sliding puzzle where a Shisen-Sho deal was asked",
        )),
    }
}

/// The deal of a stored game, as a session at its start.
pub(crate) fn stored_session(game: &IssuedGame) -> Result<Session, ApiError> {
    let (board, rules) = stored_deal(game)?;
    Ok(Session::new(board.clone(), rules, game.seed))
}

/// A finished game's turns (as stored, text) played again: every step
/// with its board and path, for the replay page.
pub fn stored_replay(game: &IssuedGame, turns: &str) -> Result<(Board, Replay), ApiError> {
    let (session, turns) = stored_turns(game, turns)?;
    let deal = session.game().board().clone();
    let replay = session.replay(&turns).map_err(|e| unreadable(game, e))?;
    Ok((deal, replay))
}

/// A finished game's deal and its turns (as stored, text), read.
pub fn stored_turns(game: &IssuedGame, turns: &str) -> Result<(Session, Vec<Turn>), ApiError> {
    let turns: Vec<Turn> = turns
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|e| unreadable(game, e))?;
    Ok((stored_session(game)?, turns))
}

/// Plays `turns` on a stored game's deal.
fn replay(row: &GameRow, turns: &[TurnJson]) -> Result<(Board, Replay), ApiError> {
    let session = stored_session(&row.issued)?;
    let deal = session.game().board().clone();
    let turns = read_turns(turns, deal.size())?;
    let replay = session.replay(&turns).map_err(illegal_turn)?;
    Ok((deal, replay))
}

/// A game to pause, with its progress.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PauseRequest {
    game: GameId,
    /// The turns so far, and their times: the server keeps them while the
    /// client drops its board, and gives the board back on resume.
    #[serde(default)]
    #[schema(max_items = 5000)]
    turns: Vec<TurnJson>,
    #[serde(default)]
    times: Vec<i64>,
}

/// A paused game's turns and times, as stored.
#[derive(serde::Serialize, Deserialize)]
struct Progress {
    turns: Vec<TurnJson>,
    times: Vec<i64>,
}

/// Whether the game is paused.
#[derive(Serialize, ToSchema)]
pub struct Paused {
    paused: bool,
}

/// Stops the game's clock; the server keeps the progress.
#[utoipa::path(post, path = "/api/shisen/pause", operation_id = "shisen_pause", tag = "shisen", request_body = PauseRequest,
    responses((status = 200, body = Paused), BodyErrors, GameErrors, Always))]
pub async fn pause(call: Call<Body<PauseRequest>>) -> Result<Json<Paused>, ApiError> {
    let Call(app, player, _, Body(request)) = call;
    let row = open_game(&app, request.game.as_str(), &player, GameKind::Shisen).await?;
    timed(&request.times, request.turns.len())?;
    replay(&row, &request.turns)?;
    let progress = Progress {
        turns: request.turns,
        times: request.times,
    };
    let text = serde_json::to_string(&progress).map_err(|e| unreadable(&row.issued, e))?;
    app.store
        .pause(request.game.as_str(), &player.0, now_millis(), Some(&text))
        .await?;
    Ok(Json(Paused { paused: true }))
}

/// A resumed game's history.
#[derive(Serialize, ToSchema)]
pub struct Resumed {
    /// Always false.
    paused: bool,
    /// Every board of the game so far, the deal first.
    boards: Vec<String>,
    /// The index in `boards` of the board in play (undo steps back).
    at: usize,
    turns: Vec<TurnJson>,
    times: Vec<i64>,
}

/// Restarts the clock and hands back the board: every board of the game's
/// history (for undo and redo) and the step it is at.
#[utoipa::path(post, path = "/api/shisen/resume", operation_id = "shisen_resume", tag = "shisen", request_body = GameRequest,
    responses((status = 200, body = Resumed), BodyErrors, GameErrors, Always))]
pub async fn resume(call: Call<Body<GameRequest>>) -> Result<Json<Resumed>, ApiError> {
    let Call(app, player, _, Body(request)) = call;
    let row = open_game(&app, request.game.as_str(), &player, GameKind::Shisen).await?;
    app.store
        .resume(request.game.as_str(), &player.0, now_millis())
        .await?;
    let progress: Progress = match &row.progress {
        Some(text) => serde_json::from_str(text).map_err(|e| unreadable(&row.issued, e))?,
        None => Progress {
            turns: Vec::new(),
            times: Vec::new(),
        },
    };
    let (_, replayed) = replay(&row, &progress.turns)?;
    let game = replayed.session.game();
    let boards: Vec<String> = game.boards().iter().map(Board::to_string).collect();
    Ok(Json(Resumed {
        paused: false,
        boards,
        at: game.step(),
        turns: progress.turns,
        times: progress.times,
    }))
}

/// A board to shuffle, in a game.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShuffleRequest {
    game: GameId,
    board: String,
    /// The number of turns (removals and shuffles) that led to this board.
    #[schema(maximum = 5000)]
    step: usize,
}

/// A shuffled board.
#[derive(Serialize, ToSchema)]
pub struct Shuffled {
    board: String,
    /// Even after the shuffle, no removal is left.
    stuck: bool,
}

/// Shuffles the tiles left, seeded by the game and the step, so a replay
/// shuffles the same way.
#[utoipa::path(post, path = "/api/shisen/shuffle", operation_id = "shisen_shuffle", tag = "shisen", request_body = ShuffleRequest,
    responses((status = 200, body = Shuffled), BodyErrors, GameErrors, Always))]
pub async fn shuffle(call: Call<Body<ShuffleRequest>>) -> Result<Json<Shuffled>, ApiError> {
    let Call(app, player, _, Body(request)) = call;
    let row = open_game(&app, request.game.as_str(), &player, GameKind::Shisen).await?;
    let (_, rules) = stored_deal(&row.issued)?;
    let board = read_board(&request.board, rules.matching == Matching::Chinese)
        .map_err(|e| e.at("/board"))?;
    if request.step > SUBMITTED_TURNS {
        return Err(ApiError::bad(format!(
            "step {} is past the {SUBMITTED_TURNS} turns a game may take",
            request.step
        )));
    }
    let mut game = Game::new(board, rules);
    game.shuffle(shuffle_seed(row.issued.seed, request.step));
    Ok(Json(Shuffled {
        board: game.board().to_string(),
        stuck: game.is_stuck(),
    }))
}
