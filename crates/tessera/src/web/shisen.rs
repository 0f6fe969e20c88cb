//! The Shisen-Sho API: deals, paths (with the board after the removal, so
//! the client needs no gravity rules of its own), hints, shuffles, pauses,
//! and replay of submitted games into results.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use shisen::{parse_board, Board, Deal, Game, Matching, Point, Rules, Size, TileSet};

use super::clock::{daily_seed, now_millis};
use super::error::{ApiError, Body};
use super::player::{new_id, Player};
use super::solvers::{shisen_solvable_deal, shisen_verdict, SolveError};
use super::{random_seed, App};
use crate::store::{GameRow, IssuedGame, NewResult};

/// The largest board the web app deals or reads.
const MAX_WIDTH: usize = 40;
const MAX_HEIGHT: usize = 24;
/// The longest history accepted in a submission (removals and shuffles).
const MAX_ACTIONS: usize = 2_000;

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
    if size.width() > MAX_WIDTH || size.height() > MAX_HEIGHT {
        return Err(ApiError::bad(format!(
            "board {size} is too large: at most {MAX_WIDTH}x{MAX_HEIGHT}"
        )));
    }
    if size.cells() % 2 == 1 {
        return Err(ApiError::bad(format!(
            "board {size} has an odd number of cells: tiles go in pairs"
        )));
    }
    Ok(size)
}

fn rules_text(rules: Rules) -> String {
    format!(
        "gravity={},chinese={}",
        u8::from(rules.gravity),
        u8::from(rules.matching == Matching::Chinese)
    )
}

fn parse_rules(text: &str) -> Rules {
    Rules {
        gravity: text.contains("gravity=1"),
        matching: if text.contains("chinese=1") {
            Matching::Chinese
        } else {
            Matching::Standard
        },
    }
}

fn rules(gravity: bool, chinese: bool) -> Rules {
    Rules {
        gravity,
        matching: if chinese {
            Matching::Chinese
        } else {
            Matching::Standard
        },
    }
}

/// Records group games by size and rules: `18x8`, `18x8-gravity-chinese`, …
fn variant(size: Size, rules: Rules) -> String {
    let mut name = size.to_string();
    if rules.gravity {
        name.push_str("-gravity");
    }
    if rules.matching == Matching::Chinese {
        name.push_str("-chinese");
    }
    name
}

pub async fn new(
    State(app): State<App>,
    player: Player,
    Body(request): Body<NewRequest>,
) -> Result<Json<Value>, ApiError> {
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
    let size = check_size(size)?;
    let now = now_millis();
    let seed = match (request.daily, request.seed) {
        (true, Some(_)) => return Err(ApiError::bad("a daily deal takes no seed")),
        (true, None) => daily_seed(now),
        (false, seed) => seed.unwrap_or_else(random_seed),
    };
    let set = if request.chinese {
        TileSet::Chinese
    } else {
        TileSet::Standard
    };
    let rules = rules(request.gravity, request.chinese);
    let solvable = request.solvable.unwrap_or(true);
    let board = if solvable {
        app.budget
            .run(move |deadline| shisen_solvable_deal(seed, size, set, rules, deadline))
            .await?
            .map_err(solver_error)?
    } else {
        Deal::random(seed, size, set)
    }
    .map_err(|e| ApiError::bad(format!("bad deal: {e}")))?;
    let game = IssuedGame {
        id: new_id(),
        player_id: player.0,
        game: "shisen".into(),
        variant: variant(size, rules),
        seed,
        setup: board.to_string(),
        goal: String::new(),
        rules: rules_text(rules),
        issued_at: now,
    };
    app.store.issue(&game).await?;
    Ok(Json(json!({
        "game": game.id,
        "seed": seed,
        "board": game.setup,
        "size": size.to_string(),
        "gravity": rules.gravity,
        "chinese": request.chinese,
        "solvable": solvable,
        "variant": game.variant,
        "daily": request.daily,
    })))
}

/// Reads a board sent by a client: rows separated by newlines, or by `/`
/// when there is no newline.
fn read_board(text: &str, chinese: bool) -> Result<Board, ApiError> {
    if text.len() > (MAX_WIDTH * 2 + 2) * MAX_HEIGHT {
        return Err(ApiError::bad(format!(
            "board too large: at most {MAX_WIDTH}x{MAX_HEIGHT}"
        )));
    }
    let text = if text.contains('\n') {
        text.to_string()
    } else {
        text.replace('/', "\n")
    };
    let matching = if chinese {
        Matching::Chinese
    } else {
        Matching::Standard
    };
    let board =
        parse_board(&text, matching).map_err(|e| ApiError::bad(format!("bad board: {e}")))?;
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

pub async fn hint(
    State(app): State<App>,
    player: Player,
    Body(request): Body<HintRequest>,
) -> Result<Json<Value>, ApiError> {
    let board = read_board(&request.board, request.chinese)?;
    let rules = rules(request.gravity, request.chinese);
    let (found, verdict) = app
        .budget
        .run(move |deadline| {
            let verdict = verdict_name(shisen_verdict(&board, rules, deadline));
            let safe = match verdict.1 {
                Some(true) => verdict.0,
                _ => None,
            };
            (safe.or_else(|| board.moves().into_iter().next()), verdict.1)
        })
        .await?;
    let safe = verdict == Some(true);
    if let (Some(game), Some(_)) = (&request.game, found) {
        app.store.add_hint(game, &player.0).await?;
    }
    Ok(Json(json!({
        "move": found.map(|m| [m.a.x, m.a.y, m.b.x, m.b.y]),
        "safe": safe,
        "solvable": verdict,
        "stuck": found.is_none(),
    })))
}

/// The first removal of a solution and whether one exists (`None`:
/// undecided within the solver's budget).
fn verdict_name(
    verdict: Result<shisen::Verdict, SolveError>,
) -> (Option<shisen::Move>, Option<bool>) {
    match verdict {
        Ok(shisen::Verdict::Solvable(moves)) => (moves.first().copied(), Some(true)),
        Ok(shisen::Verdict::Unsolvable) => (None, Some(false)),
        Ok(shisen::Verdict::Unknown) | Err(_) => (None, None),
    }
}

fn solver_error(error: SolveError) -> ApiError {
    match error {
        SolveError::OutOfTime => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the solver ran out of time: try a smaller board or solvable: false",
        ),
        SolveError::Unavailable(message) => {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
        }
    }
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
/// the solver could not decide within its budget.
pub async fn check(
    State(app): State<App>,
    Body(request): Body<CheckRequest>,
) -> Result<Json<Value>, ApiError> {
    let board = read_board(&request.board, request.chinese)?;
    let rules = rules(request.gravity, request.chinese);
    let verdict = app
        .budget
        .run(move |deadline| verdict_name(shisen_verdict(&board, rules, deadline)).1)
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

pub async fn pause(
    State(app): State<App>,
    player: Player,
    Body(request): Body<GameRequest>,
) -> Result<Json<Value>, ApiError> {
    open_game(&app, &request.game, &player).await?;
    app.store
        .pause(&request.game, &player.0, now_millis())
        .await?;
    Ok(Json(json!({ "paused": true })))
}

pub async fn resume(
    State(app): State<App>,
    player: Player,
    Body(request): Body<GameRequest>,
) -> Result<Json<Value>, ApiError> {
    open_game(&app, &request.game, &player).await?;
    app.store
        .resume(&request.game, &player.0, now_millis())
        .await?;
    Ok(Json(json!({ "paused": false })))
}

/// The seed of the shuffle taken as action `step` of a game: fixed by the
/// deal's seed, so the server's replay shuffles exactly as the client saw.
fn shuffle_seed(seed: u64, step: usize) -> u64 {
    seed.wrapping_add((step as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShuffleRequest {
    game: String,
    board: String,
    /// The number of actions (removals and shuffles) taken before this one.
    step: usize,
}

pub async fn shuffle(
    State(app): State<App>,
    player: Player,
    Body(request): Body<ShuffleRequest>,
) -> Result<Json<Value>, ApiError> {
    let row = open_game(&app, &request.game, &player).await?;
    let rules = parse_rules(&row.issued.rules);
    let board = read_board(&request.board, rules.matching == Matching::Chinese)?;
    if request.step > MAX_ACTIONS {
        return Err(ApiError::bad(format!(
            "step {} is past the {MAX_ACTIONS} actions a game may take",
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

/// One action of a submitted game.
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

pub async fn submit(
    State(app): State<App>,
    player: Player,
    Body(request): Body<SubmitRequest>,
) -> Result<Json<Value>, ApiError> {
    if request.moves.len() > MAX_ACTIONS {
        return Err(ApiError::bad(format!(
            "move list too long: at most {MAX_ACTIONS} actions"
        )));
    }
    let row = open_game(&app, &request.game, &player).await?;
    let rules = parse_rules(&row.issued.rules);
    let deal = parse_board(&row.issued.setup, rules.matching).map_err(|e| {
        eprintln!("stored game {} unreadable: {e}", row.issued.id);
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "stored game unreadable")
    })?;
    let mut game = Game::new(deal.clone(), rules);
    // The hints the server gave are charged as the engine charges its own.
    for _ in 0..row.hints {
        game.hint();
    }
    let mut removals = 0;
    for (step, action) in request.moves.iter().enumerate() {
        match action {
            Action::Remove([x1, y1, x2, y2]) => {
                let board = game.board();
                let (p, q) = (point([*x1, *y1], board), point([*x2, *y2], board));
                let (p, q) = (
                    p.map_err(|e| ApiError::bad(format!("move {}: {}", step + 1, e.message)))?,
                    q.map_err(|e| ApiError::bad(format!("move {}: {}", step + 1, e.message)))?,
                );
                game.remove(p, q)
                    .map_err(|e| ApiError::bad(format!("illegal move {}: {e}", step + 1)))?;
                removals += 1;
            }
            Action::Shuffle(ShuffleWord::Shuffle) => {
                game.shuffle(shuffle_seed(row.issued.seed, step))
            }
        }
    }
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
