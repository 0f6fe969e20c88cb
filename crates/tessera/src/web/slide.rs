//! The sliding-puzzle API: issue puzzles, answer solve and hint requests,
//! and replay submitted move lists into results.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use slide::{Goal, Moves, Position, Scramble, Size};

use super::clock::{daily_seed, now_millis};
use super::error::{ApiError, Body};
use super::player::{new_id, Player};
use super::solvers::{solve_slide, SolveError};
use super::{random_seed, App};
use crate::store::{IssuedGame, NewResult};

/// Sides the web app plays: 3 to 10 cells.
const MIN_SIDE: usize = 3;
const MAX_SIDE: usize = 10;
/// The longest move list accepted in a submission.
const MAX_MOVES: usize = 100_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    size: String,
    #[serde(default)]
    goal: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    /// The daily puzzle: the seed comes from today's UTC date.
    #[serde(default)]
    daily: bool,
}

/// A board size the web app plays.
fn parse_size(text: &str) -> Result<Size, ApiError> {
    let size: Size = text
        .parse()
        .map_err(|e| ApiError::bad(format!("bad size {text:?}: {e}")))?;
    let ok = |n| (MIN_SIDE..=MAX_SIDE).contains(&n);
    if !ok(size.width()) || !ok(size.height()) {
        return Err(ApiError::bad(format!(
            "bad size {text:?}: sides from {MIN_SIDE} to {MAX_SIDE} cells, e.g. 4x4"
        )));
    }
    Ok(size)
}

/// A goal of the web app, by name; `missing` picks the left-out number from
/// the seed. Returns the goal and the name records are grouped under.
fn parse_goal(text: &str, size: Size, seed: u64) -> Result<(Goal, &'static str), ApiError> {
    let goal = match text {
        "row-major" | "classic" => (Goal::RowMajor, "row-major"),
        "blank-first" => (Goal::BlankFirst, "blank-first"),
        "snake" => (Goal::Snake, "snake"),
        "spiral" => (Goal::Spiral, "spiral"),
        "missing" => {
            let label = slide::Rng::new(seed ^ 0x6d69_7373).below(size.cells() as u64) + 1;
            (Goal::Missing(label as u32), "missing")
        }
        _ => match text.strip_prefix("missing:").map(str::parse::<u32>) {
            Some(Ok(label)) => (Goal::Missing(label), "missing"),
            _ => {
                return Err(ApiError::bad(format!(
                    "unknown goal {text:?}: use row-major, snake, spiral, missing or missing:K"
                )))
            }
        },
    };
    goal.0
        .position(size)
        .map_err(|e| ApiError::bad(format!("bad goal: {e}")))?;
    Ok(goal)
}

pub async fn new(
    State(app): State<App>,
    player: Player,
    Body(request): Body<NewRequest>,
) -> Result<Json<Value>, ApiError> {
    let size = parse_size(&request.size)?;
    let now = now_millis();
    let seed = match (request.daily, request.seed) {
        (true, Some(_)) => return Err(ApiError::bad("a daily puzzle takes no seed")),
        (true, None) => daily_seed(now),
        (false, seed) => seed.unwrap_or_else(random_seed),
    };
    let goal_text = request.goal.as_deref().unwrap_or("row-major");
    let (goal, goal_name) = parse_goal(goal_text, size, seed)?;
    let goal_position = goal.position(size).map_err(ApiError::bad)?;
    let position = Scramble::Uniform.generate(&goal_position, seed);
    super::solvers::prepare(&goal_position);
    let variant = format!("{size}-{goal_name}");
    let game = IssuedGame {
        id: new_id(),
        player_id: player.0,
        game: "slide".into(),
        variant: variant.clone(),
        seed,
        setup: position.to_string(),
        goal: goal_position.to_string(),
        rules: goal.to_string(),
        issued_at: now,
    };
    app.store.issue(&game).await?;
    Ok(Json(json!({
        "game": game.id,
        "seed": seed,
        "size": size.to_string(),
        "position": game.setup,
        "goal": goal.to_string(),
        "goal_position": game.goal,
        "variant": variant,
        "daily": request.daily,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    position: String,
    #[serde(default)]
    goal: Option<String>,
    /// The game this help is for: a game solved with help earns no record.
    #[serde(default)]
    game: Option<String>,
}

/// Parses a position and its goal (a name or a position) and checks that
/// the goal can be reached.
fn puzzle(request: &SolveRequest) -> Result<(Position, Position), ApiError> {
    let start = Position::parse(&request.position, None)
        .map_err(|e| ApiError::bad(format!("bad position: {e}")))?;
    let size = start.size();
    if size.width() > MAX_SIDE || size.height() > MAX_SIDE {
        return Err(ApiError::bad(format!(
            "bad position: {size} is larger than the {MAX_SIDE}x{MAX_SIDE} the web app plays"
        )));
    }
    let goal: Goal = request
        .goal
        .as_deref()
        .unwrap_or("row-major")
        .parse()
        .map_err(|e| ApiError::bad(format!("bad goal: {e}")))?;
    let goal = goal
        .position(size)
        .map_err(|e| ApiError::bad(format!("bad goal: {e}")))?;
    match start.is_solvable(&goal) {
        Ok(true) => Ok((start, goal)),
        Ok(false) => Err(ApiError::bad("this position cannot reach the goal")),
        Err(e) => Err(ApiError::bad(format!("bad goal: {e}"))),
    }
}

async fn solution(app: &App, start: Position, goal: Position) -> Result<(Moves, bool), ApiError> {
    if start == goal {
        return Ok((Moves::new(), true));
    }
    let answer = app
        .budget
        .run(move |deadline| solve_slide(&start, &goal, deadline))
        .await?;
    match answer {
        Ok(solution) => Ok((solution.moves, solution.optimal)),
        Err(SolveError::Unavailable(message)) => {
            Err(ApiError::new(StatusCode::NOT_IMPLEMENTED, message))
        }
        Err(SolveError::OutOfTime) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the solver ran out of time on this position",
        )),
    }
}

pub async fn solve(
    State(app): State<App>,
    player: Player,
    Body(request): Body<SolveRequest>,
) -> Result<Json<Value>, ApiError> {
    let (start, goal) = puzzle(&request)?;
    let (moves, optimal) = solution(&app, start, goal).await?;
    if let Some(game) = &request.game {
        app.store.mark_assisted(game, &player.0).await?;
    }
    Ok(Json(json!({
        "moves": moves.to_string(),
        "length": moves.len(),
        "optimal": optimal,
    })))
}

pub async fn hint(
    State(app): State<App>,
    player: Player,
    Body(request): Body<SolveRequest>,
) -> Result<Json<Value>, ApiError> {
    let (start, goal) = puzzle(&request)?;
    let (moves, optimal) = solution(&app, start, goal).await?;
    if let Some(game) = &request.game {
        app.store.add_hint(game, &player.0).await?;
    }
    let first = moves.iter().next().map(|d| d.letter().to_string());
    Ok(Json(json!({
        "move": first,
        "remaining": moves.len(),
        "optimal": optimal,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitRequest {
    game: String,
    moves: String,
}

/// A submitted move list: letters only (no counts, so the text's length
/// bounds the work).
fn parse_moves(text: &str) -> Result<Moves, ApiError> {
    if text.len() > MAX_MOVES {
        return Err(ApiError::bad(format!(
            "move list too long: at most {MAX_MOVES} moves"
        )));
    }
    if let Some((at, c)) = text
        .char_indices()
        .find(|(_, c)| !matches!(c, 'U' | 'D' | 'L' | 'R'))
    {
        return Err(ApiError::bad(format!(
            "bad move list: character {c:?} at position {at} is not one of U, D, L, R"
        )));
    }
    text.parse()
        .map_err(|e| ApiError::bad(format!("bad move list: {e}")))
}

pub async fn submit(
    State(app): State<App>,
    player: Player,
    Body(request): Body<SubmitRequest>,
) -> Result<Json<Value>, ApiError> {
    let moves = parse_moves(&request.moves)?;
    let row = app
        .store
        .game(&request.game, &player.0, "slide")
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no slide game {:?} for you", request.game)))?;
    if row.finished_at.is_some() {
        return Err(ApiError::conflict("this game was already submitted"));
    }
    let now = now_millis();
    let corrupt = |e: slide::ParseError| {
        eprintln!("stored game {} unreadable: {e}", row.issued.id);
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "stored game unreadable")
    };
    let mut position = Position::parse(&row.issued.setup, None).map_err(corrupt)?;
    let goal = Position::parse(&row.issued.goal, None).map_err(corrupt)?;
    position
        .apply_all(&moves)
        .map_err(|e| ApiError::bad(format!("illegal move list: {e}")))?;
    let millis = row.played_millis(now);
    if position != goal {
        return Ok(Json(json!({
            "solved": false,
            "moves": moves.len(),
            "millis": millis,
            "position": position.to_string(),
        })));
    }
    let result = NewResult {
        moves: moves.len() as i64,
        millis,
        score: 0,
        hints: row.hints,
        counted: !row.assisted,
        finished_at: now,
    };
    app.store.finish(&row.issued, &result).await?;
    Ok(Json(json!({
        "solved": true,
        "moves": moves.len(),
        "millis": millis,
        "hints": row.hints,
        "record": result.counted,
        "variant": row.issued.variant,
    })))
}
