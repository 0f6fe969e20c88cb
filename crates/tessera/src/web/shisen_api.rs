//! The Shisen-Sho API: deals, paths (with the board after the removal, so
//! the client needs no gravity rules of its own), hints, shuffles, pauses,
//! and replay of submitted games into results. The rules of a session —
//! which board a seed deals, how a shuffle is seeded, what a hint is — are
//! `play::shisen_game`'s.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use play::judge::check_times;
use play::limits::{SUBMITTED_TURNS, WEB_SHISEN_HEIGHT, WEB_SHISEN_WIDTH};
use play::result::{self, Ending};
use play::seed::random_id;
use play::shisen_game::{
    analyse, shuffle_seed, DealError, Replay, Session, ShisenSpec, Turn, ANALYSIS_TIME,
};
use serde::{Deserialize, Serialize};
use shisen::{parse_board, Board, Game, Matching, Point, Rules, Size, TileSet, Verdict};

use super::clock::now_millis;
use super::edge::{excludes, GameId, Preset, Seed, ShisenSize};
use super::error::{Always, ApiError, Body, BodyErrors, GameErrors, Limited};
use super::games::{facts, finish, open_game, unreadable, Finished};
use super::player::Player;
use super::{issue_seed, App};
use crate::store::{GameRow, IssuedGame};
use utoipa::ToSchema;

/// A deal to issue.
#[derive(Deserialize, ToSchema)]
#[schema(as = ShisenNewRequest)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    /// A kshisen size; 18x8 when neither this nor `size` is given, and
    /// not both.
    #[serde(default)]
    preset: Option<Preset>,
    #[serde(default)]
    size: Option<ShisenSize>,
    /// Tiles fall down when the tiles below them go.
    #[serde(default)]
    gravity: bool,
    /// Chinese tiles: flowers and seasons match within their group.
    #[serde(default)]
    chinese: bool,
    /// Deal only boards that can be cleared (the default).
    #[serde(default)]
    solvable: Option<bool>,
    /// Random when absent; none with `daily`.
    #[serde(default)]
    seed: Option<Seed>,
    /// The daily deal: the seed comes from today's UTC date.
    #[serde(default)]
    daily: bool,
}

impl NewRequest {
    /// The bodies refused whatever their fields hold: a daily deal takes
    /// no seed, and a preset no size.
    pub fn excluded() -> Vec<serde_json::Value> {
        let given = serde_json::json!({ "not": { "type": "null" } });
        vec![
            excludes("daily", serde_json::json!({ "const": true }), "seed"),
            excludes("preset", given, "size"),
        ]
    }
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
    deal_spec(
        request.preset,
        request.size,
        request.gravity,
        request.chinese,
        request.solvable,
    )
}

/// The deal a preset or a size, the two rule flags and solvability name
/// (a single game's or a race's).
pub(super) fn deal_spec(
    preset: Option<Preset>,
    size: Option<ShisenSize>,
    gravity: bool,
    chinese: bool,
    solvable: Option<bool>,
) -> Result<ShisenSpec, ApiError> {
    let size = match (preset, size) {
        (Some(_), Some(_)) => return Err(ApiError::bad("give a preset or a size, not both")),
        (Some(preset), None) => preset.size(),
        (None, Some(size)) => size.0,
        (None, None) => Size::DEFAULT,
    };
    Ok(ShisenSpec {
        size: check_size(size)?,
        tiles: if chinese {
            TileSet::Chinese
        } else {
            TileSet::Standard
        },
        gravity,
        solvable: solvable.unwrap_or(true),
    })
}

pub(super) fn deal_error(error: DealError) -> ApiError {
    match error {
        DealError::Tiles(e) => ApiError::bad(format!("bad deal: {e}")),
        DealError::OutOfTime => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the solver ran out of time finding a solvable deal: try again, a smaller board, or solvable: false",
        ),
        e @ DealError::NoneSolvable(_) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e),
    }
}

/// An issued deal.
#[derive(Serialize, ToSchema)]
#[schema(as = ShisenIssued)]
pub struct Issued {
    /// The game's id, for pausing, shuffling, submitting and its replay.
    #[schema(value_type = GameId)]
    game: String,
    seed: u64,
    /// One character per cell, rows split by newlines, `.` empty.
    board: String,
    size: String,
    gravity: bool,
    chinese: bool,
    solvable: bool,
    /// The records table this game counts for.
    variant: String,
    daily: bool,
}

/// Deals a Shisen-Sho board.
#[utoipa::path(post, path = "/api/shisen/new", operation_id = "shisen_new", tag = "shisen", request_body = NewRequest,
    responses((status = 200, body = Issued, links(
        ("submit" = (operation_id = "shisen_submit", description = "Submit the game's turns",
            request_body = json!({"game": "$response.body#/game"}))),
        ("hint" = (operation_id = "shisen_hint", description = "A hint on the deal",
            request_body = json!({"game": "$response.body#/game", "board": "$response.body#/board",
                "gravity": "$response.body#/gravity", "chinese": "$response.body#/chinese"}))),
        ("pause" = (operation_id = "shisen_pause", description = "Stop the game's clock",
            request_body = json!({"game": "$response.body#/game"}))),
        ("resume" = (operation_id = "shisen_resume", description = "Restart the game's clock",
            request_body = json!({"game": "$response.body#/game"}))),
        ("replay" = (operation_id = "replay", description = "The game's replay, once it is cleared",
            parameters(("game" = "$response.body#/game")))),
    )), BodyErrors, (status = 422, description = "No solvable deal of this kind exists", body = super::error::ErrorBody), Always))]
pub async fn new(
    State(app): State<App>,
    player: Player,
    visitor: super::account::Visitor,
    Body(request): Body<NewRequest>,
) -> Result<Json<Issued>, ApiError> {
    let spec = spec(&request)?;
    let now = now_millis();
    let seed = issue_seed(request.daily, request.seed.map(|s| s.0), now)?;
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
        format: play::format::Format::Single,
        issued_at: now,
    };
    let account = visitor.account().map(|a| a.id.as_str());
    app.store.issue_to(&game, account).await?;
    super::daily::dealt(&app, &game, request.daily, &visitor, now).await?;
    Ok(Json(Issued {
        game: game.id,
        seed,
        board: game.setup,
        size: spec.size.to_string(),
        gravity: spec.gravity,
        chinese: request.chinese,
        solvable: spec.solvable,
        variant: game.variant,
        daily: request.daily,
    }))
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
pub async fn hint(
    State(app): State<App>,
    player: Player,
    Body(request): Body<HintRequest>,
) -> Result<Json<Hint>, ApiError> {
    let board = read_board(&request.board, request.chinese).map_err(|e| e.at("/board"))?;
    app.store
        .record_help(&player.0, "shisen", &board.to_string(), now_millis())
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

/// A game, by id.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    game: GameId,
}

/// The rules a stored game was dealt under.
fn stored_rules(game: &IssuedGame) -> Result<Rules, ApiError> {
    game.rules
        .parse()
        .map_err(|e: shisen::RulesError| unreadable(game, e))
}

/// The deal of a stored game, as a session at its start.
pub(super) fn stored_session(game: &IssuedGame) -> Result<Session, ApiError> {
    let rules = stored_rules(game)?;
    let deal = parse_board(&game.setup, rules.matching).map_err(|e| unreadable(game, e))?;
    Ok(Session::new(deal, rules, game.seed))
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

/// The turns of a request, each point checked against the board's size.
pub(super) fn read_turns(turns: &[TurnJson], size: Size) -> Result<Vec<Turn>, ApiError> {
    if turns.len() > SUBMITTED_TURNS {
        return Err(ApiError::bad(format!(
            "too many turns: at most {SUBMITTED_TURNS}"
        )));
    }
    let inside = |i: usize, x: i64, y: i64| {
        let ok = (0..size.width() as i64).contains(&x) && (0..size.height() as i64).contains(&y);
        ok.then(|| Point::new(x as i32, y as i32)).ok_or_else(|| {
            ApiError::bad(format!(
                "turn {}: point [{x}, {y}] is off the {size} board",
                i + 1
            ))
            .at(format!("/turns/{i}"))
        })
    };
    turns
        .iter()
        .enumerate()
        .map(|(i, turn)| match *turn {
            TurnJson::Remove([x1, y1, x2, y2]) => {
                Ok(Turn::Remove(inside(i, x1, y1)?, inside(i, x2, y2)?))
            }
            TurnJson::Word(Word::Shuffle) => Ok(Turn::Shuffle),
            TurnJson::Word(Word::Undo) => Ok(Turn::Undo),
            TurnJson::Word(Word::Redo) => Ok(Turn::Redo),
        })
        .collect()
}

/// Plays `turns` on a stored game's deal.
fn replay(row: &GameRow, turns: &[TurnJson]) -> Result<(Board, Replay), ApiError> {
    let session = stored_session(&row.issued)?;
    let deal = session.game().board().clone();
    let turns = read_turns(turns, deal.size())?;
    let replay = session.replay(&turns).map_err(illegal_turn)?;
    Ok((deal, replay))
}

/// A turn of the request that cannot be played: 400, pointing at it.
pub(super) fn illegal_turn(e: play::shisen_game::ReplayError) -> ApiError {
    ApiError::bad(format!("illegal turn {}: {}", e.turn, e.reason))
        .at(format!("/turns/{}", e.turn.saturating_sub(1)))
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
pub async fn pause(
    State(app): State<App>,
    player: Player,
    Body(request): Body<PauseRequest>,
) -> Result<Json<Paused>, ApiError> {
    let row = open_game(&app, request.game.as_str(), &player, "shisen").await?;
    check_times(&request.times, request.turns.len())
        .map_err(|e| ApiError::bad(format!("bad times: {e}")).at("/times"))?;
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
pub async fn resume(
    State(app): State<App>,
    player: Player,
    Body(request): Body<GameRequest>,
) -> Result<Json<Resumed>, ApiError> {
    let row = open_game(&app, request.game.as_str(), &player, "shisen").await?;
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
pub async fn shuffle(
    State(app): State<App>,
    player: Player,
    Body(request): Body<ShuffleRequest>,
) -> Result<Json<Shuffled>, ApiError> {
    let row = open_game(&app, request.game.as_str(), &player, "shisen").await?;
    let rules = stored_rules(&row.issued)?;
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

/// One turn as the client sends it: a removal `[x1, y1, x2, y2]`, or a
/// word.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(untagged)]
pub enum TurnJson {
    Remove([i64; 4]),
    Word(Word),
}

/// Written by hand: a removal is exactly four coordinates, each on the
/// largest board the web deals, which the derived schema does not say.
impl utoipa::PartialSchema for TurnJson {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
        use utoipa::openapi::{KnownFormat, SchemaFormat};
        let coordinate = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(0))
            .maximum(Some(WEB_SHISEN_WIDTH.max(WEB_SHISEN_HEIGHT) - 1));
        let removal = ArrayBuilder::new()
            .items(coordinate)
            .min_items(Some(4))
            .max_items(Some(4))
            .description(Some("A removal: the two tiles' points, x1, y1, x2, y2."));
        OneOfBuilder::new()
            .item(removal)
            .item(utoipa::openapi::Ref::from_schema_name("Word"))
            .description(Some(
                "One turn as the client sends it: a removal `[x1, y1, x2, y2]`, or a word.",
            ))
            .into()
    }
}

impl ToSchema for TurnJson {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        schemas.push((
            Word::name().into(),
            <Word as utoipa::PartialSchema>::schema(),
        ));
        <Word as ToSchema>::schemas(schemas);
    }
}

/// Read by hand: serde's untagged enums refuse a bad turn with
/// "data did not match any variant of untagged enum TurnJson", which
/// names an internal type and not what a turn may be.
impl<'de> Deserialize<'de> for TurnJson {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TurnVisitor)
    }
}

struct TurnVisitor;

const TURN_FORMS: &str = r#"a turn is [x1, y1, x2, y2], "shuffle", "undo" or "redo""#;

impl<'de> serde::de::Visitor<'de> for TurnVisitor {
    type Value = TurnJson;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(TURN_FORMS)
    }

    fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<TurnJson, E> {
        match word {
            "shuffle" => Ok(TurnJson::Word(Word::Shuffle)),
            "undo" => Ok(TurnJson::Word(Word::Undo)),
            "redo" => Ok(TurnJson::Word(Word::Redo)),
            _ => Err(E::custom(format!("unknown turn {word:?}: {TURN_FORMS}"))),
        }
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<TurnJson, A::Error> {
        use serde::de::Error;
        let mut cells = [0i64; 4];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = seq
                .next_element()?
                .ok_or_else(|| A::Error::invalid_length(i, &self))?;
        }
        if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::invalid_length(5, &self));
        }
        Ok(TurnJson::Remove(cells))
    }
}

/// A turn that removes nothing.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Word {
    Shuffle,
    Undo,
    Redo,
}

/// A played game, for the server to replay and judge.
#[derive(Deserialize, ToSchema)]
#[schema(as = ShisenSubmitRequest)]
#[serde(deny_unknown_fields)]
pub struct SubmitRequest {
    game: GameId,
    /// Every turn from the deal: removals, shuffles, undos and redos.
    #[serde(alias = "moves")]
    #[schema(max_items = 5000)]
    turns: Vec<TurnJson>,
    /// Milliseconds since the deal was shown (pauses included), one per
    /// turn.
    times: Vec<i64>,
}

/// The boards `player` asked for hints about since `game` was dealt,
/// with how often each was asked: `play` charges those the game showed.
pub(super) async fn asked_boards(
    app: &App,
    player: &str,
    game: &IssuedGame,
    matching: Matching,
) -> Result<Vec<(Board, i64)>, ApiError> {
    let asked = app
        .store
        .help_since(player, "shisen", game.issued_at)
        .await?;
    Ok(asked
        .iter()
        .filter_map(|(state, count)| Some((parse_board(state, matching).ok()?, *count)))
        .collect())
}

/// A submitted game that does not clear the board: where it ended.
#[derive(Serialize, ToSchema)]
#[schema(as = ShisenUnsolved)]
pub struct Unsolved {
    /// Always false.
    solved: bool,
    /// Removals.
    moves: usize,
    millis: i64,
    tiles_left: usize,
    board: String,
}

/// What a submission comes to.
#[derive(Serialize, ToSchema)]
#[schema(as = ShisenSubmitted)]
#[serde(untagged)]
pub enum Submitted {
    Solved(Finished),
    Unsolved(Unsolved),
}

/// Replays a game's turns from its deal; a cleared board becomes a
/// result, ranked unless the judge finds a reason not to.
#[utoipa::path(post, path = "/api/shisen/submit", operation_id = "shisen_submit", tag = "shisen", request_body = SubmitRequest,
    responses((status = 200, body = Submitted), BodyErrors, GameErrors, Always))]
pub async fn submit(
    State(app): State<App>,
    player: Player,
    visitor: super::account::Visitor,
    Body(request): Body<SubmitRequest>,
) -> Result<Json<Submitted>, ApiError> {
    check_times(&request.times, request.turns.len())
        .map_err(|e| ApiError::bad(format!("bad times: {e}")).at("/times"))?;
    let row = open_game(&app, request.game.as_str(), &player, "shisen").await?;
    let session = stored_session(&row.issued)?;
    let board = session.game().board();
    let turns = read_turns(&request.turns, board.size())?;
    let asked = asked_boards(&app, &player.0, &row.issued, board.matching()).await?;
    let now = now_millis();
    let pauses = app.store.pauses(&row.issued, now).await?;
    let facts = facts(&row, now, &pauses);
    let ending =
        result::shisen(session, turns, request.times, &facts, &asked).map_err(illegal_turn)?;
    match ending {
        Ending::Unsolved(stuck) => Ok(Json(Submitted::Unsolved(Unsolved {
            solved: false,
            moves: stuck.removals,
            millis: facts.played_millis,
            tiles_left: stuck.board.tiles_left(),
            board: stuck.board.to_string(),
        }))),
        Ending::Solved(result) => {
            let finished = finish(&app, &row, result, visitor.account(), now).await?;
            Ok(Json(Submitted::Solved(finished)))
        }
    }
}
