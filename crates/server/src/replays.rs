//! Replays: every finished game, public like the records that link to it.
//! `GET /api/replays/{game}` gives the moves and the time of each; the page
//! `/replay/{game}` plays them back.

use axum::extract::{Path, State};
use axum::Json;
use play::format::Format;
use play::GameKind;
use serde::{Deserialize, Serialize};
use slide::{Moves, Position};
use utoipa::ToSchema;

use super::account::Call;
use super::edge::{GameId, GameName};
use super::error::{Always, ApiError, Body};
use super::games::unreadable;
use super::{shisen_api, slide_api, App};
use store::{Dealt, Figures, IssuedGame, ReplayRow};

/// What every replay carries.
#[derive(Serialize, ToSchema)]
pub struct Common {
    #[schema(value_type = GameId)]
    game: String,
    kind: GameName,
    variant: String,
    seed: u64,
    /// The issued position or deal.
    position: String,
    /// Milliseconds since the start, one per move or turn.
    times: Vec<i64>,
    /// The result's time: a sliding solve's from its first move to its
    /// last (a blindfold solve's from the puzzle appearing), a Shisen-Sho
    /// game's from the deal.
    millis: i64,
    /// A sliding solve's reading time before its first move (a blindfold
    /// solve's memorising); null for Shisen-Sho and results stored before
    /// it was kept.
    reading_ms: Option<i64>,
    /// The account's handle, or a guest's display name.
    name: Option<String>,
    /// The handle of the account the result belongs to; null for a guest's.
    handle: Option<String>,
    ranked: bool,
    reason: Option<String>,
    /// Milliseconds since the Unix epoch.
    finished_at: i64,
}

/// A sliding-puzzle replay.
#[derive(Serialize, ToSchema)]
pub struct SlideReplay {
    #[serde(flatten)]
    common: Common,
    /// The goal as a position.
    goal: String,
    goal_name: String,
    /// Every single-tile move; for a marathon or relay each puzzle's,
    /// split by commas.
    moves: String,
    /// The same moves in compact notation (`R3U2`).
    compact: String,
    stm: i64,
    mtm: i64,
    /// Single-tile moves a second.
    tps: f64,
    /// Multi-tile moves a second.
    tps_mtm: f64,
    /// `single`, `marathon-10`, `relay-5`, `bld`, ….
    format: String,
    /// Every puzzle of the format in the order played, on one clock (a
    /// single solve is one puzzle).
    puzzles: Vec<PuzzleReplay>,
}

/// One puzzle of a format's replay.
#[derive(Serialize, ToSchema)]
pub struct PuzzleReplay {
    /// The puzzle's starting position.
    position: String,
    /// Its goal as a position.
    goal: String,
    size: String,
    /// Its single-tile moves.
    moves: String,
    /// The same moves in compact notation.
    compact: String,
    /// Milliseconds since the *format* started, one per move.
    times: Vec<i64>,
    /// When the puzzle's time starts: when the one before it ended, in
    /// milliseconds since the format started (the first puzzle's at the
    /// format's first move, when its clock starts: `play::stopwatch`).
    shown: i64,
    /// The split: when the puzzle was solved, in milliseconds since the
    /// format started.
    split: i64,
    /// Milliseconds the puzzle took (`split - shown`).
    millis: i64,
    stm: usize,
    mtm: usize,
}

/// One turn of a Shisen-Sho replay.
#[derive(Serialize, ToSchema)]
pub struct Step {
    /// `x1,y1-x2,y2`, `shuffle`, `undo` or `redo`.
    turn: String,
    /// The board after the turn.
    board: String,
    /// The removal's path corners; null for other turns.
    path: Option<Vec<[i32; 2]>>,
}

/// A Shisen-Sho replay.
#[derive(Serialize, ToSchema)]
pub struct ShisenReplay {
    #[serde(flatten)]
    common: Common,
    /// Always null (the goal is an empty board).
    goal: Option<String>,
    rules: String,
    /// The turns as stored.
    moves: String,
    /// Always null: Shisen-Sho counts removals.
    stm: Option<i64>,
    /// Always null.
    mtm: Option<i64>,
    turns: usize,
    removals: usize,
    score: i64,
    hints: i64,
    steps: Vec<Step>,
}

/// A finished game, move by move.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum Replay {
    Slide(SlideReplay),
    Shisen(ShisenReplay),
}

/// A finished game's moves with the time of each, public like the records
/// that link to it.
#[utoipa::path(get, path = "/api/replays/{game}", tag = "records",
    params(("game" = GameId, Path, description = "The game's id: 32 lowercase hex digits")),
    responses((status = 200, body = Replay),
        (status = 400, description = "Not a game id", body = super::error::ErrorBody),
        (status = 404, description = "No finished game with this id", body = super::error::ErrorBody),
        Always))]
pub async fn replay(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<Replay>, ApiError> {
    let id = GameId::try_from(id).map_err(ApiError::bad)?;
    let id = id.as_str();
    let row = app
        .store
        .replay(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no finished game {id:?}")))?;
    if row.replay.is_empty() && row.result.figures.moves > 0 {
        return Err(ApiError::not_found(
            "this game finished before replays were kept",
        ));
    }
    let common = Common {
        game: row.issued.id.clone(),
        kind: GameName(row.issued.game()),
        variant: row.issued.variant.clone(),
        seed: row.issued.seed,
        position: row.issued.dealt.setup(),
        times: row.times.clone(),
        millis: row.result.figures.millis,
        reading_ms: row.result.figures.reading_ms,
        name: row.name.clone(),
        handle: row.result.handle.clone(),
        ranked: row.result.ranked,
        reason: row.result.reason.clone(),
        finished_at: row.result.finished_at,
    };
    let replay = match row.issued.dealt {
        Dealt::Slide { .. } => Replay::Slide(slide(&row, common)?),
        Dealt::Shisen { .. } => Replay::Shisen(shisen(&row, common)?),
    };
    Ok(Json(replay))
}

/// Moves a second over `millis`.
fn rate(moves: i64, millis: i64) -> f64 {
    moves as f64 * 1000.0 / millis.max(1) as f64
}

fn slide(row: &ReplayRow, common: Common) -> Result<SlideReplay, ApiError> {
    // A format's puzzles are stored one after another, split by commas.
    let compact = row
        .replay
        .split(',')
        .map(|part| part.parse::<Moves>().map(|moves| moves.compact()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| unreadable(&row.issued, e))?
        .join(",");
    let Figures {
        stm, mtm, millis, ..
    } = row.result.figures;
    let format = row.issued.format;
    let puzzles = puzzles(row, format)?;
    let (_, goal, chosen) = slide_api::slide_deal(&row.issued)?;
    Ok(SlideReplay {
        common,
        goal: goal.to_string(),
        goal_name: chosen.to_string(),
        moves: row.replay.clone(),
        compact,
        stm,
        mtm,
        tps: rate(stm, millis),
        tps_mtm: rate(mtm, millis),
        format: format.to_string(),
        puzzles,
    })
}

/// Each puzzle's position and goal: as stored for a game of one puzzle
/// (whatever dealt it), dealt again from the seed for a format of many.
fn dealt(issued: &IssuedGame, format: Format) -> Result<Vec<(String, String)>, ApiError> {
    if format.is_one_puzzle() {
        let (start, goal, _) = slide_api::slide_deal(issued)?;
        return Ok(vec![(start.to_string(), goal.to_string())]);
    }
    Ok(slide_api::stored_puzzles(issued, format)?
        .iter()
        .map(|p| (p.start.to_string(), p.goal_position.to_string()))
        .collect())
}

/// The puzzles of a slide result: dealt again from the game's seed, each
/// with its share of the stored moves and times and its split.
fn puzzles(row: &ReplayRow, format: Format) -> Result<Vec<PuzzleReplay>, ApiError> {
    let dealt = dealt(&row.issued, format)?;
    let parts: Vec<&str> = row.replay.split(',').collect();
    if parts.len() != dealt.len() {
        return Err(unreadable(
            &row.issued,
            format!("{} puzzles stored for a {format}", parts.len()),
        ));
    }
    let mut times = row.times.iter().copied();
    // The first puzzle's time runs from when the format's clock started.
    let mut shown = play::stopwatch::started(format, &row.times);
    parts
        .iter()
        .zip(&dealt)
        .map(|(part, (position, goal))| {
            let moves: Moves = part.parse().map_err(|e| unreadable(&row.issued, e))?;
            let size = Position::parse(position, None)
                .map_err(|e| unreadable(&row.issued, e))?
                .size();
            let times: Vec<i64> = times.by_ref().take(moves.len()).collect();
            // A puzzle solved without a move ends when it appeared.
            let split = times.last().copied().unwrap_or(shown);
            let replay = PuzzleReplay {
                size: size.to_string(),
                position: position.clone(),
                goal: goal.clone(),
                compact: moves.compact(),
                stm: moves.len(),
                mtm: moves.mtm_len(),
                moves: moves.to_string(),
                times,
                shown,
                split,
                millis: split - shown,
            };
            shown = split;
            Ok(replay)
        })
        .collect()
}

/// One turn as the page plays it.
fn step(step: &play::shisen_game::Step) -> Step {
    Step {
        turn: step.turn.to_string(),
        board: step.board.to_string(),
        path: step
            .path
            .as_ref()
            .map(|p| p.points().iter().map(|q| [q.x, q.y]).collect()),
    }
}

fn shisen(row: &ReplayRow, common: Common) -> Result<ShisenReplay, ApiError> {
    let (_, replay) = shisen_api::stored_replay(&row.issued, &row.replay)?;
    let steps = replay.steps.iter().map(step).collect();
    Ok(ShisenReplay {
        common,
        goal: None,
        rules: row.issued.dealt.rules(),
        moves: row.replay.clone(),
        stm: None,
        mtm: None,
        turns: replay.steps.len(),
        removals: replay.removals,
        score: row.result.figures.score,
        hints: row.result.figures.hints,
        steps,
    })
}

/// Which metric to analyse a replay in.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AnalysisQuery {
    /// `stm` (the default) or `mtm`: in MTM a move is a run.
    #[param(inline)]
    #[serde(default)]
    metric: Option<super::edge::MetricName>,
    /// For a marathon or relay, which of its puzzles (0-based, in the
    /// order played; 0 by default): each is analysed on its own.
    #[param(minimum = 0, maximum = 999)]
    #[serde(default)]
    puzzle: Option<usize>,
}

/// One move of a solve and what it did to the distance to the goal.
#[derive(Serialize, ToSchema)]
pub struct AnalysedMove {
    /// The move: one letter in STM, a run (`R3`) in MTM.
    #[serde(rename = "move")]
    step: String,
    /// −1 towards the goal, 0 level (MTM only), +1 away; null when a
    /// distance on either side is only a bound.
    progress: Option<i32>,
}

/// A stretch of moves that lost moves.
#[derive(Serialize, ToSchema)]
pub struct LosingStretch {
    /// Its first move, 0-based.
    from: usize,
    /// The move after its last.
    to: usize,
    /// Moves made beyond the distance covered.
    lost: u32,
}

/// Where a solve lost moves.
#[derive(Serialize, ToSchema)]
pub struct SolveAnalysis {
    /// `stm` or `mtm`.
    metric: String,
    /// The distance to the goal before the first move and after each: one
    /// more than the moves.
    distances: Vec<u32>,
    /// Which distances are proven (the others are lower bounds).
    exact_distances: Vec<bool>,
    /// Every distance is proven.
    exact: bool,
    /// The optimal length from the start (a lower bound unless exact).
    optimal: u32,
    /// A shortest solution from the start (the best found, unless exact).
    optimal_solution: String,
    /// Whether `optimal_solution` is proven shortest (beyond 5x5 it is the
    /// fast solver's).
    solution_optimal: bool,
    /// The puzzle of a marathon or relay analysed (0 for a single solve).
    puzzle: usize,
    /// The solution's length less the optimal one; null unless proven.
    lost: Option<u32>,
    steps: Vec<AnalysedMove>,
    /// The three stretches that lost the most, the costliest first.
    detours: Vec<LosingStretch>,
    /// The player's solution with each losing stretch replaced by a
    /// shortest path between the same positions (single-tile letters).
    shortened: String,
}

/// The analysis of a finished game: a sliding-puzzle solve's distances, or
/// where a Shisen-Sho game was lost.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum ReplayAnalysis {
    Slide(SolveAnalysis),
    Shisen(LossReport),
}

/// Where a Shisen-Sho game was lost: a finished game's, or one in
/// progress (`POST /api/shisen/analysis`).
#[derive(Serialize, ToSchema)]
pub struct LossReport {
    /// One verdict per position, the deal first and then the board after
    /// each turn (n + 1 for n turns): true while it could still be
    /// cleared, false once it could not, null where the solver could not
    /// decide within its budget (never guessed).
    solvable: Vec<Option<bool>>,
    /// The first turn after which the board could not be cleared (0: the
    /// deal itself could not), named only when every position before it
    /// is proven solvable; null when nothing was lost or it is undecided.
    lost_at: Option<usize>,
    /// A position before the first unsolvable one was not decided, so the
    /// losing turn cannot be named.
    undecided: bool,
    /// Every position was decided (the analysis is then kept).
    complete: bool,
    /// A winning line from the last position proven solvable before the
    /// loss (or from the last proven solvable one when nothing was lost).
    continuation: Option<WinningLine>,
}

/// Removals that clear the board from a position of the game.
#[derive(Serialize, ToSchema)]
pub struct WinningLine {
    /// The position it starts from: after this many turns (0: the deal).
    after: usize,
    /// Each removal with the board it leaves and its path, as the
    /// replay's own steps.
    steps: Vec<Step>,
}

/// How long one analysis may search: a 150-move 4x4 takes well under a
/// second with the large tables (BENCHMARKS.md).
const ANALYSIS_TIME: std::time::Duration = std::time::Duration::from_secs(4);

/// How long a whole Shisen-Sho game may search, below the engine budget so
/// that the positions left undecided are answered as unknown rather than
/// the request failing; each position gets at most the games' own budget.
const SHISEN_ANALYSIS_TIME: std::time::Duration = std::time::Duration::from_secs(8);

/// The `analyses` key of a Shisen-Sho game's analysis.
const SHISEN_ANALYSIS: &str = "solvable";

/// What a finished game could have been. A sliding-puzzle solve: the
/// optimal distance after every move, the moves lost, the costliest
/// stretches, an optimal solution and the player's own shortened. A
/// Shisen-Sho game: after each turn whether the board could still be
/// cleared, the losing turn, and a winning continuation. Computed when
/// first asked and kept when complete.
#[utoipa::path(get, path = "/api/replays/{game}/analysis", operation_id = "replay_analysis", tag = "records",
    params(("game" = GameId, Path, description = "The game's id: 32 lowercase hex digits"), AnalysisQuery),
    responses((status = 200, body = ReplayAnalysis),
        (status = 400, description = "Not a game id, a metric or a puzzle for a Shisen-Sho game, or a puzzle the format does not have", body = super::error::ErrorBody),
        (status = 404, description = "No finished game with this id", body = super::error::ErrorBody),
        super::error::Limited, Always))]
pub async fn analysis(
    State(app): State<App>,
    Path(id): Path<String>,
    super::error::Params(query): super::error::Params<AnalysisQuery>,
) -> Result<axum::response::Response, ApiError> {
    let id = GameId::try_from(id).map_err(ApiError::bad)?;
    let row = app
        .store
        .replay(id.as_str())
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no finished game {:?}", id.as_str())))?;
    match row.issued.dealt {
        Dealt::Slide { .. } => {
            let metric = query.metric.unwrap_or_default().into();
            solve_analysis(&app, row, metric, query.puzzle.unwrap_or(0)).await
        }
        _ if query.metric.is_some() || query.puzzle.is_some() => Err(ApiError::bad(
            "a metric and a puzzle apply to sliding-puzzle solves, not to a Shisen-Sho game",
        )),
        _ => loss_analysis(&app, row).await,
    }
}

/// A kept or freshly computed analysis, as JSON.
fn json_body(body: String) -> axum::response::Response {
    use axum::response::IntoResponse;
    let json = [(axum::http::header::CONTENT_TYPE, "application/json")];
    (json, body).into_response()
}

async fn solve_analysis(
    app: &App,
    row: ReplayRow,
    metric: slide::Metric,
    puzzle: usize,
) -> Result<axum::response::Response, ApiError> {
    let id = row.issued.id.clone();
    let format = row.issued.format;
    let mut dealt = dealt(&row.issued, format)?;
    let count = dealt.len();
    if puzzle >= count {
        return Err(ApiError::bad(format!(
            "this {format} has {count} puzzle{}: puzzle is 0 to {}",
            if count == 1 { "" } else { "s" },
            count - 1
        )));
    }
    // A single solve keeps its analysis under the metric's name, as before
    // formats; each puzzle of a format under its own.
    let name = match format.is_one_puzzle() {
        true => metric.to_string(),
        false => format!("{metric}/{puzzle}"),
    };
    // An analysis kept before it said which puzzle it is of is made again.
    if let Some(body) = app.store.analysis(&id, &name).await? {
        if body.contains("\"solution_optimal\"") {
            return Ok(json_body(body));
        }
    }
    let (setup, goal) = dealt.swap_remove(puzzle);
    let part = row.replay.split(',').nth(puzzle).unwrap_or_default();
    let start = Position::parse(&setup, None).map_err(|e| unreadable(&row.issued, e))?;
    let goal = Position::parse(&goal, None).map_err(|e| unreadable(&row.issued, e))?;
    let moves: Moves = part.parse().map_err(|e| unreadable(&row.issued, e))?;
    let cells = start.size().cells();
    let (analysis, shortened) = app
        .budget
        .run(move |deadline| {
            let deadline = deadline.within(ANALYSIS_TIME);
            play::slide_game::Solver::global().analyze(&start, &goal, &moves, metric, &deadline)
        })
        .await?
        .map_err(|e| unreadable(&row.issued, e))?;
    let body = serde_json::to_string(&ReplayAnalysis::Slide(report(
        &analysis, &shortened, puzzle,
    )))
    .expect("plain data");
    // Beyond 4x4 the figures are bounds whatever the budget: kept too.
    if analysis.exact() || cells > slide::solver::OPTIMAL_MAX_CELLS {
        app.store.keep_analysis(&id, &name, &body).await?;
    }
    Ok(json_body(body))
}

async fn loss_analysis(app: &App, row: ReplayRow) -> Result<axum::response::Response, ApiError> {
    let id = row.issued.id.clone();
    if let Some(body) = app.store.analysis(&id, SHISEN_ANALYSIS).await? {
        return Ok(json_body(body));
    }
    let (start, turns) = shisen_api::stored_turns(&row.issued, &row.replay)?;
    let issued = row.issued.clone();
    let report = find_loss(app, start, turns)
        .await?
        .map_err(|e| unreadable(&issued, e))?;
    let complete = report.complete;
    let body = serde_json::to_string(&ReplayAnalysis::Shisen(report)).expect("plain data");
    if complete {
        app.store.keep_analysis(&id, SHISEN_ANALYSIS, &body).await?;
    }
    Ok(json_body(body))
}

/// Where the game that plays `turns` from `start` was lost, a finished
/// game's or one in progress: each position gets at most the games' own
/// budget and the whole game [`SHISEN_ANALYSIS_TIME`]. The inner error
/// names a turn that cannot be played.
pub(super) async fn find_loss(
    app: &App,
    start: play::shisen_game::Session,
    turns: Vec<play::shisen_game::Turn>,
) -> Result<Result<LossReport, play::shisen_game::ReplayError>, ApiError> {
    app.budget
        .run(move |deadline| {
            let overall = deadline.within(SHISEN_ANALYSIS_TIME);
            let per_position = play::shisen_game::ANALYSIS_TIME;
            let analysis =
                play::shisen_game::where_lost(start.clone(), &turns, per_position, &overall)?;
            loss_report(&analysis, start, &turns)
        })
        .await
}

fn loss_report(
    analysis: &play::shisen_game::LossAnalysis,
    start: play::shisen_game::Session,
    turns: &[play::shisen_game::Turn],
) -> Result<LossReport, play::shisen_game::ReplayError> {
    use play::shisen_game::{Loss, Solvability, Turn};
    let solvable: Vec<Option<bool>> = analysis
        .positions
        .iter()
        .map(|s| match s {
            Solvability::Solvable => Some(true),
            Solvability::Unsolvable => Some(false),
            Solvability::Unknown => None,
        })
        .collect();
    let continuation = match &analysis.continuation {
        Some(line) => {
            // The line is played from where it starts, so that the page
            // shows the engine's boards and paths rather than guessing
            // where gravity drops the tiles.
            let there = start.replay(&turns[..line.after])?.session;
            let removals: Vec<Turn> = line
                .removals
                .iter()
                .map(|m| Turn::Remove(m.a, m.b))
                .collect();
            let played = there.replay(&removals)?;
            Some(WinningLine {
                after: line.after,
                steps: played.steps.iter().map(step).collect(),
            })
        }
        None => None,
    };
    Ok(LossReport {
        complete: solvable.iter().all(Option::is_some),
        solvable,
        lost_at: match analysis.loss {
            Loss::At(at) => Some(at),
            Loss::Never | Loss::Undecided => None,
        },
        undecided: analysis.loss == Loss::Undecided,
        continuation,
    })
}

fn report(a: &slide::Analysis, shortened: &Moves, puzzle: usize) -> SolveAnalysis {
    let text = |m: &Moves| match a.metric {
        slide::Metric::Stm => m.to_string(),
        slide::Metric::Mtm => m.compact(),
    };
    SolveAnalysis {
        metric: a.metric.to_string(),
        distances: a.distances.iter().map(|d| d.moves).collect(),
        exact_distances: a.distances.iter().map(|d| d.exact).collect(),
        exact: a.exact(),
        optimal: a.distances[0].moves,
        optimal_solution: a.best.moves.to_string(),
        solution_optimal: a.best.optimal,
        puzzle,
        lost: a.lost(),
        steps: a
            .moves
            .iter()
            .zip(a.progress())
            .map(|(m, p)| AnalysedMove {
                step: text(m),
                progress: p.delta(),
            })
            .collect(),
        detours: a
            .detours(3)
            .iter()
            .map(|d| LosingStretch {
                from: d.from,
                to: d.to,
                lost: d.lost,
            })
            .collect(),
        shortened: shortened.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use play::shisen_game::{where_lost, Session};
    use play::Deadline;
    use serde_json::json;
    use shisen::{Matching, Rules, Size, TileSet};
    use std::time::Duration;

    #[test]
    fn a_position_not_decided_in_time_is_null_and_the_analysis_is_not_complete() {
        // A full 18x8 board under gravity takes the solver past its first
        // budget check, and the budget is spent before it starts.
        let board = shisen::Deal::random(3, Size::new(18, 8).unwrap(), TileSet::Standard).unwrap();
        let start = Session::new(board, Rules::new(Matching::Standard, true), 3);
        let spent = Deadline::after(Duration::ZERO);
        let analysis = where_lost(start.clone(), &[], Duration::from_secs(1), &spent).unwrap();
        let report = loss_report(&analysis, start, &[]).unwrap();
        assert!(!report.complete, "not kept");
        let body = serde_json::to_value(ReplayAnalysis::Shisen(report)).unwrap();
        assert_eq!(
            body,
            json!({"solvable": [null], "lost_at": null, "undecided": false,
                "complete": false, "continuation": null})
        );
    }
}

/// A game in progress to analyse: its turns so far, as they will be
/// submitted.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    game: GameId,
    /// The turns played so far, from the deal.
    #[serde(default)]
    #[schema(max_items = 5000)]
    turns: Vec<shisen_api::TurnJson>,
}

/// Where the game in progress was lost so far: after each turn whether the
/// board could still be cleared (the last verdict says whether it still
/// can), the first turn after which it could not, and a winning line from
/// the last position before the loss that could. The same answer as a
/// finished game's replay analysis; a position the solver does not decide
/// within its budget is null, never guessed. A game that asks is not
/// ranked, as after a hint.
#[utoipa::path(post, path = "/api/shisen/analysis", operation_id = "shisen_analysis", tag = "shisen", request_body = AnalysisRequest,
    responses((status = 200, body = LossReport), super::error::BodyErrors, super::error::GameErrors, super::error::Limited, Always))]
pub async fn shisen_analysis(
    call: Call<Body<AnalysisRequest>>,
) -> Result<Json<LossReport>, ApiError> {
    let Call(app, player, _, Body(request)) = call;
    let row =
        super::games::open_game(&app, request.game.as_str(), &player, GameKind::Shisen).await?;
    let start = shisen_api::stored_session(&row.issued)?;
    let turns = shisen_api::read_turns(&request.turns, start.game().board().size())?;
    // The turns are checked before the engine is asked, with the same
    // message and pointer as a submission.
    start
        .clone()
        .replay(&turns)
        .map_err(shisen_api::illegal_turn)?;
    app.store
        .count_help(request.game.as_str(), &player.0, 0, true)
        .await?;
    let report = find_loss(&app, start, turns)
        .await?
        .map_err(shisen_api::illegal_turn)?;
    Ok(Json(report))
}
