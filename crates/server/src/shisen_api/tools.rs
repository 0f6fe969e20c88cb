//! The board tools that need no game: the path between two tiles (with
//! the board after the removal, so the client needs no gravity rules of
//! its own), hints and the solver's verdict.

use axum::extract::State;
use axum::Json;
use play::limits::{WEB_SHISEN_HEIGHT, WEB_SHISEN_WIDTH};
use play::shisen_game::{analyse, Session, ANALYSIS_TIME};
use play::GameKind;
use serde::{Deserialize, Serialize};
use shisen::{parse_board, Board, Game, Matching, Point, Verdict};

use crate::account::Call;
use crate::clock::now_millis;
use crate::edge::GameId;
use crate::error::{Always, ApiError, Body, BodyErrors, Limited};
use crate::App;
use utoipa::ToSchema;

use super::deal::{check_size, rules};

/// Reads a board sent by a client: rows separated by newlines, or by `/`
/// when there is no newline.
pub(super) fn read_board(text: &str, chinese: bool) -> Result<Board, ApiError> {
    if text.len() > (WEB_SHISEN_WIDTH * 2 + 2) * WEB_SHISEN_HEIGHT {
        return Err(ApiError::bad(format!(
            "board too large: at most {WEB_SHISEN_WIDTH}x{WEB_SHISEN_HEIGHT}"
        )));
    }
    let text = if text.contains('\n') {
        text.to_string()
    } else {
        text.replace('/', "\n")
    };
    let board = parse_board(&text, Matching::from_chinese(chinese))
        .map_err(|e| ApiError::bad(format!("bad board: {e}")))?;
    check_size(board.size())?;
    Ok(board)
}

fn point(p: [i64; 2], board: &Board) -> Result<Point, ApiError> {
    let inside =
        (0..board.width() as i64).contains(&p[0]) && (0..board.height() as i64).contains(&p[1]);
    if !inside {
        return Err(ApiError::bad(format!(
            "point [{}, {}] is off the {} board",
            p[0],
            p[1],
            board.size()
        )));
    }
    Ok(Point::new(p[0] as i32, p[1] as i32))
}

/// A pair of tiles to connect on a board.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PathRequest {
    /// Rows split by newlines (or `/`), one character per cell.
    board: String,
    /// `[x, y]`, 0-based on the board's interior.
    from: [i64; 2],
    to: [i64; 2],
    #[serde(default)]
    gravity: bool,
    #[serde(default)]
    chinese: bool,
}

/// A removal, or why there is none.
#[derive(Serialize, ToSchema)]
pub struct Removal {
    /// The shortest path's corners, `[x, y]` from tile to tile (the ring
    /// around the board is -1 and W or H); null when the tiles cannot be
    /// removed.
    path: Option<Vec<[i32; 2]>>,
    /// The board after the removal (gravity applied).
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    won: Option<bool>,
    /// No removal is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    stuck: Option<bool>,
    /// Why the tiles cannot be removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// The path between two tiles and the board after their removal.
#[utoipa::path(post, path = "/api/shisen/path", operation_id = "shisen_path", tag = "shisen", request_body = PathRequest,
    responses((status = 200, body = Removal), BodyErrors, Always))]
pub async fn path(Body(request): Body<PathRequest>) -> Result<Json<Removal>, ApiError> {
    let board = read_board(&request.board, request.chinese).map_err(|e| e.at("/board"))?;
    let from = point(request.from, &board).map_err(|e| e.at("/from"))?;
    let to = point(request.to, &board).map_err(|e| e.at("/to"))?;
    let mut game = Game::new(board, rules(request.gravity, request.chinese));
    let removal = match game.remove(from, to) {
        Ok(path) => Removal {
            path: Some(path.points().iter().map(|p| [p.x, p.y]).collect()),
            board: Some(game.board().to_string()),
            won: Some(game.is_won()),
            stuck: Some(game.is_stuck()),
            reason: None,
        },
        Err(reason) => Removal {
            path: None,
            board: None,
            won: None,
            stuck: None,
            reason: Some(reason.to_string()),
        },
    };
    Ok(Json(removal))
}

/// A board to hint at.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    board: String,
    #[serde(default)]
    gravity: bool,
    #[serde(default)]
    chinese: bool,
    #[serde(default)]
    game: Option<GameId>,
}

/// Whether a board can be cleared: `Some(true)`, `Some(false)`, or `None`
/// when the solver could not decide in time.
fn solvable(verdict: &Verdict) -> Option<bool> {
    match verdict {
        Verdict::Solvable(_) => Some(true),
        Verdict::Unsolvable => Some(false),
        Verdict::Unknown => None,
    }
}

/// A hint: a removal, safe when it keeps the board solvable.
#[derive(Serialize, ToSchema)]
#[schema(as = ShisenHint)]
pub struct Hint {
    /// `[x1, y1, x2, y2]`; null when no removal is left.
    #[serde(rename = "move")]
    pair: Option<[i32; 4]>,
    /// The removal keeps the board solvable (the solver proved it).
    safe: bool,
    /// Whether the board can be cleared; null when the solver could not
    /// decide in time.
    solvable: Option<bool>,
    stuck: bool,
}

/// A removal that never leads into a dead end when the board can still be
/// cleared. A game that asks is not ranked.
#[utoipa::path(post, path = "/api/shisen/hint", operation_id = "shisen_hint", tag = "shisen", request_body = HintRequest,
    responses((status = 200, body = Hint), BodyErrors, Limited, Always))]
pub async fn hint(call: Call<Body<HintRequest>>) -> Result<Json<Hint>, ApiError> {
    let Call(app, player, _, Body(request)) = call;
    let board = read_board(&request.board, request.chinese).map_err(|e| e.at("/board"))?;
    app.store
        .record_help(
            &player.0,
            GameKind::Shisen,
            &board.to_string(),
            now_millis(),
        )
        .await?;
    let rules = rules(request.gravity, request.chinese);
    let (hint, verdict) = app
        .budget
        .run(move |deadline| {
            // The hint's seed plays no part: only shuffles draw from it.
            let mut session = Session::new(board, rules, 0);
            let verdict = analyse(session.game(), &mut deadline.within(ANALYSIS_TIME));
            (session.hint(&verdict), solvable(&verdict))
        })
        .await?;
    if let (Some(game), Some(_)) = (&request.game, hint) {
        app.store
            .count_help(game.as_str(), &player.0, 1, false)
            .await?;
    }
    Ok(Json(Hint {
        pair: hint.map(|h| [h.pair.a.x, h.pair.a.y, h.pair.b.x, h.pair.b.y]),
        safe: hint.is_some_and(|h| h.safe),
        solvable: verdict,
        stuck: hint.is_none(),
    }))
}

/// A board to decide.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    board: String,
    #[serde(default)]
    gravity: bool,
    #[serde(default)]
    chinese: bool,
}

/// Whether a board can be cleared, and the pairs that connect now.
#[derive(Serialize, ToSchema)]
pub struct Decided {
    /// `true`, `false`, or null when the solver could not decide in time.
    solvable: Option<bool>,
    /// Every pair of matching tiles that connects now, `[x1, y1, x2, y2]`
    /// in reading order: what a player who cannot see the board asks the
    /// page to read out. It says nothing about which pairs are safe.
    pairs: Vec<[i32; 4]>,
}

/// Whether the board can still be cleared.
#[utoipa::path(post, path = "/api/shisen/check", operation_id = "shisen_check", tag = "shisen", request_body = CheckRequest,
    responses((status = 200, body = Decided), BodyErrors, Limited, Always))]
pub async fn check(
    State(app): State<App>,
    Body(request): Body<CheckRequest>,
) -> Result<Json<Decided>, ApiError> {
    let board = read_board(&request.board, request.chinese).map_err(|e| e.at("/board"))?;
    let pairs = board
        .moves()
        .iter()
        .map(|m| [m.a.x, m.a.y, m.b.x, m.b.y])
        .collect();
    let game = Game::new(board, rules(request.gravity, request.chinese));
    let verdict = app
        .budget
        .run(move |deadline| solvable(&analyse(&game, &mut deadline.within(ANALYSIS_TIME))))
        .await?;
    Ok(Json(Decided {
        solvable: verdict,
        pairs,
    }))
}
