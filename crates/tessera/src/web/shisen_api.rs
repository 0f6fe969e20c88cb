//! The Shisen-Sho API: deals, paths (with the board after the removal, so
//! the client needs no gravity rules of its own), hints, shuffles, pauses,
//! and replay of submitted games into results. The rules of a session —
//! which board a seed deals, how a shuffle is seeded, what a hint is — are
//! `play::shisen_game`'s.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use play::limits::{SUBMITTED_TURNS, WEB_SHISEN_HEIGHT, WEB_SHISEN_WIDTH};
use play::seed::random_id;
use play::shisen_game::{
    analyse, shuffle_seed, DealError, Session, ShisenSpec, Turn, ANALYSIS_TIME,
};
use serde::Deserialize;
use serde_json::{json, Value};
use shisen::{parse_board, Board, Game, Matching, Point, Rules, Size, TileSet, Verdict};

use super::clock::now_millis;
use super::error::{ApiError, Body};
use super::player::Player;
use super::{issue_seed, App};
use crate::store::{GameRow, IssuedGame, NewResult};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    /// A kshisen size name (`18x8`, …); the default when neither this nor
    /// `size` is given.
    #[serde(default)]
    preset: Option<String>,
    /// A custom size `WxH`.
    #[serde(default)]
    size: Option<String>,
    #[serde(default)]
    gravity: bool,
    #[serde(default)]
    chinese: bool,
    #[serde(default)]
    solvable: Option<bool>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    daily: bool,
}

fn check_size(size: Size) -> Result<Size, ApiError> {
    if size.width() > WEB_SHISEN_WIDTH || size.height() > WEB_SHISEN_HEIGHT {
        return Err(ApiError::bad(format!(
            "board {size} is too large: at most {WEB_SHISEN_WIDTH}x{WEB_SHISEN_HEIGHT}"
        )));
    }
    if size.cells() % 2 == 1 {
        return Err(ApiError::bad(format!(
            "board {size} has an odd number of cells: tiles go in pairs"
        )));
    }
    Ok(size)
}

/// The rules a client names with its two flags.
fn rules(gravity: bool, chinese: bool) -> Rules {
    Rules::new(Matching::from_chinese(chinese), gravity)
}

/// The deal a request asks for.
fn spec(request: &NewRequest) -> Result<ShisenSpec, ApiError> {
    let size = match (&request.preset, &request.size) {
        (Some(_), Some(_)) => return Err(ApiError::bad("give a preset or a size, not both")),
        (Some(name), None) => {
            Size::preset(name).map_err(|e| ApiError::bad(format!("bad preset: {e}")))?
        }
        (None, Some(text)) => text
            .parse::<Size>()
            .map_err(|e| ApiError::bad(format!("bad size: {e}")))?,
        (None, None) => Size::DEFAULT,
    };
    Ok(ShisenSpec {
        size: check_size(size)?,
        tiles: if request.chinese {
            TileSet::Chinese
        } else {
            TileSet::Standard
        },
        gravity: request.gravity,
        solvable: request.solvable.unwrap_or(true),
    })
}

fn deal_error(error: DealError) -> ApiError {
    match error {
        DealError::Tiles(e) => ApiError::bad(format!("bad deal: {e}")),
        DealError::OutOfTime => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the solver ran out of time finding a solvable deal: try again, a smaller board, or solvable: false",
        ),
        e @ DealError::NoneSolvable(_) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e),
    }
}

pub async fn new(
    State(app): State<App>,
    player: Player,
    Body(request): Body<NewRequest>,
) -> Result<Json<Value>, ApiError> {
    let spec = spec(&request)?;
    let now = now_millis();
    let seed = issue_seed(request.daily, request.seed, now)?;
    let board = app
        .budget
        .run(move |mut deadline| spec.deal(seed, &mut deadline))
        .await?
        .map_err(deal_error)?;
    let game = IssuedGame {
        id: random_id(),
        player_id: player.0,
        game: "shisen".into(),
        variant: spec.variant(),
        seed,
        setup: board.to_string(),
        goal: String::new(),
        rules: spec.rules().to_string(),
        issued_at: now,
    };
    app.store.issue(&game).await?;
    Ok(Json(json!({
        "game": game.id,
        "seed": seed,
        "board": game.setup,
        "size": spec.size.to_string(),
        "gravity": spec.gravity,
        "chinese": request.chinese,
        "solvable": spec.solvable,
        "variant": game.variant,
        "daily": request.daily,
    })))
}

/// Reads a board sent by a client: rows separated by newlines, or by `/`
/// when there is no newline.
fn read_board(text: &str, chinese: bool) -> Result<Board, ApiError> {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathRequest {
    board: String,
    from: [i64; 2],
    to: [i64; 2],
    #[serde(default)]
    gravity: bool,
    #[serde(default)]
    chinese: bool,
}

pub async fn path(Body(request): Body<PathRequest>) -> Result<Json<Value>, ApiError> {
    let board = read_board(&request.board, request.chinese)?;
    let (from, to) = (point(request.from, &board)?, point(request.to, &board)?);
    let mut game = Game::new(board, rules(request.gravity, request.chinese));
    match game.remove(from, to) {
        Ok(path) => {
            let points: Vec<[i32; 2]> = path.points().iter().map(|p| [p.x, p.y]).collect();
            Ok(Json(json!({
                "path": points,
                "board": game.board().to_string(),
                "won": game.is_won(),
                "stuck": game.is_stuck(),
            })))
        }
        Err(reason) => Ok(Json(json!({ "path": null, "reason": reason.to_string() }))),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    board: String,
    #[serde(default)]
    gravity: bool,
    #[serde(default)]
    chinese: bool,
    #[serde(default)]
    game: Option<String>,
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

pub async fn hint(
    State(app): State<App>,
    player: Player,
    Body(request): Body<HintRequest>,
) -> Result<Json<Value>, ApiError> {
    let board = read_board(&request.board, request.chinese)?;
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
        app.store.add_hint(game, &player.0).await?;
    }
    Ok(Json(json!({
        "move": hint.map(|h| [h.pair.a.x, h.pair.a.y, h.pair.b.x, h.pair.b.y]),
        "safe": hint.is_some_and(|h| h.safe),
        "solvable": verdict,
        "stuck": hint.is_none(),
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    board: String,
    #[serde(default)]
    gravity: bool,
    #[serde(default)]
    chinese: bool,
}

/// Whether the board can still be cleared: `true`, `false`, or `null` when
/// the solver could not decide within its time.
pub async fn check(
    State(app): State<App>,
    Body(request): Body<CheckRequest>,
) -> Result<Json<Value>, ApiError> {
    let board = read_board(&request.board, request.chinese)?;
    let game = Game::new(board, rules(request.gravity, request.chinese));
    let verdict = app
        .budget
        .run(move |deadline| solvable(&analyse(&game, &mut deadline.within(ANALYSIS_TIME))))
        .await?;
    Ok(Json(json!({ "solvable": verdict })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    game: String,
}

async fn open_game(app: &App, id: &str, player: &Player) -> Result<GameRow, ApiError> {
    let row = app
        .store
        .game(id, &player.0, "shisen")
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no shisen game {id:?} for you")))?;
    if row.finished_at.is_some() {
        return Err(ApiError::conflict("this game was already submitted"));
    }
    Ok(row)
}

/// The rules a stored game was dealt under.
fn stored_rules(row: &GameRow) -> Result<Rules, ApiError> {
    row.issued.rules.parse().map_err(|e| {
        eprintln!("stored game {} unreadable: {e}", row.issued.id);
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "stored game unreadable")
    })
}

pub async fn pause(
    State(app): State<App>,
    player: Player,
    Body(request): Body<GameRequest>,
) -> Result<Json<Value>, ApiError> {
    set_paused(&app, &player, &request.game, true).await
}

pub async fn resume(
    State(app): State<App>,
    player: Player,
    Body(request): Body<GameRequest>,
) -> Result<Json<Value>, ApiError> {
    set_paused(&app, &player, &request.game, false).await
}

/// Stops or restarts the clock of an open game.
async fn set_paused(
    app: &App,
    player: &Player,
    game: &str,
    paused: bool,
) -> Result<Json<Value>, ApiError> {
    open_game(app, game, player).await?;
    let now = now_millis();
    if paused {
        app.store.pause(game, &player.0, now).await?;
    } else {
        app.store.resume(game, &player.0, now).await?;
    }
    Ok(Json(json!({ "paused": paused })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShuffleRequest {
    game: String,
    board: String,
    /// The number of turns (removals and shuffles) that led to this board.
    step: usize,
}

pub async fn shuffle(
    State(app): State<App>,
    player: Player,
    Body(request): Body<ShuffleRequest>,
) -> Result<Json<Value>, ApiError> {
    let row = open_game(&app, &request.game, &player).await?;
    let rules = stored_rules(&row)?;
    let board = read_board(&request.board, rules.matching == Matching::Chinese)?;
    if request.step > SUBMITTED_TURNS {
        return Err(ApiError::bad(format!(
            "step {} is past the {SUBMITTED_TURNS} turns a game may take",
            request.step
        )));
    }
    let mut game = Game::new(board, rules);
    game.shuffle(shuffle_seed(row.issued.seed, request.step));
    Ok(Json(json!({
        "board": game.board().to_string(),
        "stuck": game.is_stuck(),
    })))
}

/// One turn of a submitted game.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum Action {
    Remove([i64; 4]),
    Shuffle(ShuffleWord),
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShuffleWord {
    Shuffle,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitRequest {
    game: String,
    moves: Vec<Action>,
}

/// The submitted actions as turns, each point checked against the deal's
/// board size.
fn turns(actions: &[Action], size: Size) -> Result<Vec<Turn>, ApiError> {
    let inside = |i: usize, x: i64, y: i64| {
        let ok = (0..size.width() as i64).contains(&x) && (0..size.height() as i64).contains(&y);
        ok.then(|| Point::new(x as i32, y as i32)).ok_or_else(|| {
            ApiError::bad(format!(
                "move {}: point [{x}, {y}] is off the {size} board",
                i + 1
            ))
        })
    };
    actions
        .iter()
        .enumerate()
        .map(|(i, action)| match *action {
            Action::Remove([x1, y1, x2, y2]) => {
                Ok(Turn::Remove(inside(i, x1, y1)?, inside(i, x2, y2)?))
            }
            Action::Shuffle(ShuffleWord::Shuffle) => Ok(Turn::Shuffle),
        })
        .collect()
}

pub async fn submit(
    State(app): State<App>,
    player: Player,
    Body(request): Body<SubmitRequest>,
) -> Result<Json<Value>, ApiError> {
    if request.moves.len() > SUBMITTED_TURNS {
        return Err(ApiError::bad(format!(
            "move list too long: at most {SUBMITTED_TURNS} turns"
        )));
    }
    let row = open_game(&app, &request.game, &player).await?;
    let rules = stored_rules(&row)?;
    let deal = parse_board(&row.issued.setup, rules.matching).map_err(|e| {
        eprintln!("stored game {} unreadable: {e}", row.issued.id);
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "stored game unreadable")
    })?;
    let turns = turns(&request.moves, deal.size())?;
    let mut session = Session::new(deal, rules, row.issued.seed);
    // The hints the server gave are charged as the engine charges its own.
    session.charge_hints(row.hints as u32);
    let replay = session
        .replay(&turns)
        .map_err(|e| ApiError::bad(format!("illegal move {}: {}", e.turn, e.reason)))?;
    let game = replay.session.game();
    let removals = replay.removals as i64;
    let now = now_millis();
    let millis = row.played_millis(now);
    let score = game.score((millis / 1000) as u64);
    if !game.is_won() {
        return Ok(Json(json!({
            "solved": false,
            "moves": removals,
            "millis": millis,
            "tiles_left": game.board().tiles_left(),
            "board": game.board().to_string(),
        })));
    }
    let result = NewResult {
        moves: removals,
        millis,
        score: score as i64,
        hints: row.hints,
        counted: !row.assisted,
        finished_at: now,
    };
    app.store.finish(&row.issued, &result).await?;
    Ok(Json(json!({
        "solved": true,
        "moves": removals,
        "millis": millis,
        "score": score,
        "hints": row.hints,
        "record": result.counted,
        "variant": row.issued.variant,
    })))
}
