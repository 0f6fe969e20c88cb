//! Time attack (`play::time_attack`): a run started (its fifty puzzles
//! dealt from a fresh seed, its start on the server's clock), submitted
//! once with every puzzle played, replayed, scored and judged; each
//! player's daily and all-time best, and the leaderboards of ranked runs.

// utoipa's `params(…)` expands to paths the lint calls redundant.
#![allow(unused_qualifications)]

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use play::daily::Day;
use play::slide_game::Solver;
use play::time_attack::{self, Played, Refusal, Run, MOST_MOVES, PUZZLES, RUN_MILLIS};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::account::{Call, Visitor};
use super::answers::{answered_before, kept as kept_answer, Reply, Signed};
use super::edge::GameId;
use super::error::{Always, ApiError, Body, BodyErrors, ErrorBody};
use super::player::Player;
use super::slide_api::parse_moves;
use super::App;
use store::{Answered, TimeAttackBest, TimeAttackRun};

/// Places shown on each leaderboard.
const LEADERBOARD: i64 = 20;

/// One puzzle of a run.
#[derive(Serialize, ToSchema)]
#[schema(as = TimeAttackPuzzle)]
pub struct PuzzleView {
    /// The position, rows separated by `/`, 0 the blank.
    #[schema(example = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15")]
    position: String,
    /// The goal: the row-major 4×4.
    #[schema(example = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0")]
    goal: String,
    /// Its optimal length in single-tile moves: a solve in at most 1.5
    /// times it adds time.
    #[schema(example = 5)]
    optimal: u32,
    /// The most single-tile moves that solve it efficiently (1.5 times the
    /// optimum, rounded down): a solve within them adds time.
    #[schema(example = 7)]
    efficient_within: usize,
}

/// A run just started.
#[derive(Serialize, ToSchema)]
#[schema(as = TimeAttackStarted)]
pub struct Started {
    /// The run's id, for its submission.
    #[schema(example = "0123456789abcdef0123456789abcdef")]
    run: String,
    /// The seed its puzzles come from.
    #[schema(example = 20261127)]
    seed: u64,
    /// Every puzzle of the run, in order: their optimal lengths never
    /// decrease.
    puzzles: Vec<PuzzleView>,
    /// The time a run lasts before any bonus, in milliseconds (180000).
    #[schema(example = 180000)]
    clock_millis: i64,
    /// The time the n-th efficient solve in a row adds, in milliseconds,
    /// the last entry for every one after it.
    #[schema(example = json!([3000, 3000, 5000]))]
    bonus_millis: Vec<i64>,
    /// When the run started, Unix milliseconds on the server's clock:
    /// move times count from when the page received this answer.
    #[schema(example = 1764201600000_i64)]
    started_at: i64,
}

fn view(run: &Run) -> Vec<PuzzleView> {
    run.puzzles
        .iter()
        .map(|p| PuzzleView {
            position: p.start.to_string(),
            goal: p.goal.to_string(),
            optimal: p.optimal,
            efficient_within: time_attack::efficient_within(p.optimal),
        })
        .collect()
}

/// The run of `seed`, dealt within the engine's budget.
async fn deal(app: &App, seed: u64) -> Result<Run, ApiError> {
    app.budget
        .run(move |deadline| time_attack::deal(seed, Solver::global(), &deadline))
        .await?
        .map_err(|e| ApiError::unavailable(e, 1))
}

/// A run to start: nothing to choose (every run is 4×4, dealt from a
/// fresh seed), so an empty object.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TimeAttackStartRequest, example = json!({}))]
pub struct StartRequest {}

/// Starts a run of time attack: 3 minutes of 4×4 puzzles, each at least
/// as far from solved as the one before (their optimal lengths never
/// decrease). A puzzle solved in at most 1.5 times its optimal length adds
/// 3 s, and from the third such solve in a row 5 s; a longer solve adds
/// nothing and ends the streak. The score is the puzzles solved before the
/// time runs out. The page plays the puzzles itself and submits them all
/// at the end (`POST /api/time-attack/{run}`).
#[utoipa::path(post, path = "/api/time-attack", tag = "time-attack", operation_id = "time_attack_start",
    request_body = StartRequest,
    responses((status = 201, body = Started, description = "The run: its puzzles and clock", links(
        ("submit" = (operation_id = "time_attack_submit", description = "Submit the run's puzzles as played",
            parameters(("run" = "$response.body#/run")))),
    )), BodyErrors, Always))]
pub async fn start(
    call: Call<Body<StartRequest>>,
) -> Result<(StatusCode, Json<Started>), ApiError> {
    let Call(app, Player(player), visitor, Body(StartRequest {})) = call;
    let seed = play::seed::random_seed();
    let run = deal(&app, seed).await?;
    let now = app.clock.now_millis();
    let kept = TimeAttackRun {
        id: play::seed::random_id(),
        player_id: player,
        account_id: visitor.account().map(|a| a.id.clone()),
        seed,
        day: Day::of(now).to_string(),
        started_at: now,
        submitted_at: None,
        score: None,
        ranked: None,
    };
    app.store.start_time_attack(&kept).await?;
    Ok((
        StatusCode::CREATED,
        Json(Started {
            run: kept.id,
            seed,
            puzzles: view(&run),
            clock_millis: RUN_MILLIS,
            bonus_millis: time_attack::BONUSES_MILLIS.to_vec(),
            started_at: now,
        }),
    ))
}

/// A run as submitted: every puzzle played, in order.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TimeAttackSubmission)]
pub struct Submission {
    /// The puzzles played, in the order shown; every one solved but the
    /// last, which may be left unsolved when the time ran out (an empty
    /// list: nothing solved).
    #[schema(max_items = 50)]
    puzzles: Vec<PlayedPuzzle>,
}

/// One puzzle as played.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TimeAttackPlayed)]
pub struct PlayedPuzzle {
    /// The moves as letters (`RRRU`) or in the compact notation (`R3U`):
    /// at most 1000 single-tile moves.
    #[schema(
        pattern = "^([UDLR]([1-9][0-9]{0,4})?)*$",
        max_length = 4000,
        example = "LLUR"
    )]
    moves: String,
    /// Milliseconds since the run started (one clock for the whole run),
    /// one per single-tile move, never decreasing.
    #[schema(example = json!([900, 1100, 1350, 1500]))]
    times: Vec<i64>,
}

/// Bests: the highest score of the player's submitted runs, ranked or not
/// (an account's when signed in, else this browser's).
#[derive(Serialize, ToSchema)]
#[schema(as = TimeAttackBests)]
pub struct Bests {
    /// Today's (UTC); null before a run today.
    #[schema(example = 14)]
    today: Option<i64>,
    /// Ever; null before any run.
    #[schema(example = 21)]
    all_time: Option<i64>,
}

async fn bests(
    app: &App,
    player: &str,
    account: Option<&str>,
    day: &str,
) -> Result<Bests, ApiError> {
    Ok(Bests {
        today: app
            .store
            .time_attack_best(player, account, Some(day))
            .await?,
        all_time: app.store.time_attack_best(player, account, None).await?,
    })
}

/// A run scored.
#[derive(Serialize, ToSchema)]
#[schema(as = TimeAttackResult)]
pub struct Scored {
    /// Puzzles solved before the time ran out.
    #[schema(example = 14)]
    score: usize,
    /// Whether it counts on the leaderboards.
    ranked: bool,
    /// Why not, when not (a guest's run, or play faster than a person's:
    /// the reason names the puzzle).
    #[schema(example = json!(null))]
    unranked: Option<String>,
    /// The time the efficient solves added, in milliseconds.
    #[schema(example = 21000)]
    bonus_millis: i64,
    /// When the clock ran out, in milliseconds since the run started.
    #[schema(example = 201000)]
    ended_at: i64,
    /// The player's bests, this run included.
    best: Bests,
}

/// The errors of a submission besides its body's shape.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // Documentation only: `ApiError` builds the responses.
pub enum SubmitErrors {
    /// No run with this id was started by this player.
    #[response(status = 404)]
    NoSuchRun(ErrorBody),
    /// The run was submitted already: once only.
    #[response(status = 409)]
    Submitted(ErrorBody),
}

/// Submits a run, once: every puzzle played with the time of each move.
/// Each is replayed: an illegal move is refused naming the puzzle and the
/// move (422, `pointer` at the puzzle's moves), as is a puzzle left
/// unsolved before the last or times that go back. Only puzzles solved
/// before the clock ran out score; times later than the server's own clock
/// allows, or faster than a person plays, leave the run unranked, as does
/// a guest's run.
#[utoipa::path(post, path = "/api/time-attack/{run}", tag = "time-attack", operation_id = "time_attack_submit",
    request_body = Submission,
    params(("run" = inline(GameId), Path, description = "The id `POST /api/time-attack` gave")),
    responses((status = 201, body = Scored, description = "Scored and kept"),
        BodyErrors, SubmitErrors, Always))]
pub async fn submit(
    State(app): State<App>,
    Player(player): Player,
    Path(id): Path<String>,
    Signed(submission, digest): Signed<Submission>,
) -> Result<(StatusCode, Reply<Scored>), ApiError> {
    let id = GameId::try_from(id).map_err(|e| ApiError::bad(format!("run: {e}")))?;
    let mut played = Vec::with_capacity(submission.puzzles.len());
    if submission.puzzles.len() > PUZZLES {
        return Err(ApiError::bad(format!(
            "puzzles: {} sent, but a run has {PUZZLES}",
            submission.puzzles.len()
        ))
        .at("/puzzles"));
    }
    for (i, puzzle) in submission.puzzles.into_iter().enumerate() {
        let at = |field| format!("/puzzles/{i}/{field}");
        let moves = parse_moves(&puzzle.moves).map_err(|mut e| {
            e.message = format!("puzzle {}: {}", i + 1, e.message);
            e.at(at("moves"))
        })?;
        if moves.len() > MOST_MOVES {
            return Err(ApiError::bad(format!(
                "puzzle {}: {} moves; a puzzle takes at most {MOST_MOVES}",
                i + 1,
                moves.len()
            ))
            .at(at("moves")));
        }
        played.push(Played {
            moves,
            times: puzzle.times,
        });
    }
    let no_run = || ApiError::not_found(format!("no time-attack run {:?}", id.as_str()));
    let kept = app
        .store
        .time_attack_run(id.as_str())
        .await?
        .filter(|run| run.player_id == player)
        .ok_or_else(no_run)?;
    let submitted =
        || ApiError::conflict("this run was submitted already: a run is submitted once");
    if kept.submitted_at.is_some() {
        let before = answered_before(&app, Answered::TimeAttack, id.as_str(), &digest, submitted);
        return Ok((StatusCode::CREATED, Reply::Before(before.await?)));
    }
    // The time the server saw, as the submission arrived (before the
    // deal's own time).
    let now = app.clock.now_millis();
    let run = deal(&app, kept.seed).await?;
    let outcome = time_attack::replay(
        &run,
        &played,
        now - kept.started_at,
        kept.account_id.is_some(),
    )
    .map_err(refused)?;
    let ranked = outcome.judged.map_err(|why| why.to_string());
    let score = outcome.score as i64;
    let account = kept.account_id.as_deref();
    let best = bests(&app, &kept.player_id, account, &Day::of(now).to_string()).await?;
    let scored = Scored {
        score: outcome.score,
        ranked: ranked.is_ok(),
        unranked: ranked.clone().err(),
        bonus_millis: outcome.clock.bonus_millis,
        ended_at: outcome.clock.ends_at,
        // This run included.
        best: Bests {
            today: best.today.max(Some(score)),
            all_time: best.all_time.max(Some(score)),
        },
    };
    let answer = kept_answer(&scored, &digest)?;
    let store = app
        .store
        .submit_time_attack(id.as_str(), score, ranked, now, &answer);
    if !store.await? {
        // The same submission, sent again before the first was answered.
        let before = answered_before(&app, Answered::TimeAttack, id.as_str(), &digest, submitted);
        return Ok((StatusCode::CREATED, Reply::Before(before.await?)));
    }
    Ok((StatusCode::CREATED, Reply::Now(scored)))
}

/// A refusal as the client sees it: 422, pointing at the puzzle's field.
fn refused(refusal: Refusal) -> ApiError {
    let pointer = match &refusal {
        Refusal::TooMany { .. } => "/puzzles".to_string(),
        Refusal::Times { puzzle, .. } | Refusal::BeforeShown { puzzle, .. } => {
            format!("/puzzles/{}/times", puzzle - 1)
        }
        Refusal::Illegal { puzzle, .. } | Refusal::Unsolved { puzzle } => {
            format!("/puzzles/{}/moves", puzzle - 1)
        }
    };
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, refusal).at(pointer)
}

/// A place on a leaderboard.
#[derive(Serialize, ToSchema)]
#[schema(as = TimeAttackPlace)]
pub struct Place {
    /// 1 for the best; the earlier of a tie first.
    #[schema(example = 1)]
    rank: usize,
    #[schema(example = "ann")]
    handle: String,
    /// The account's best ranked score.
    #[schema(example = 21)]
    score: i64,
    /// When it first reached it, Unix milliseconds.
    #[schema(example = 1764201780000_i64)]
    submitted_at: i64,
}

fn places(rows: Vec<TimeAttackBest>) -> Vec<Place> {
    rows.into_iter()
        .enumerate()
        .map(|(i, r)| Place {
            rank: i + 1,
            handle: r.handle,
            score: r.score,
            submitted_at: r.submitted_at,
        })
        .collect()
}

/// The asking player's bests and the leaderboards.
#[derive(Serialize, ToSchema)]
#[schema(as = TimeAttackBoard)]
pub struct Board {
    /// The server's today, `YYYY-MM-DD` (UTC).
    #[schema(example = "2026-11-27")]
    today: String,
    /// The asking player's bests.
    best: Bests,
    /// Today's best ranked score of each account, the top 20.
    leaders_today: Vec<Place>,
    /// The best ranked score of each account ever, the top 20.
    leaders_all_time: Vec<Place>,
}

/// The asking player's daily and all-time best (an account's when signed
/// in, else this browser's), and the leaderboards of ranked runs, today's
/// and of all time: each account's best once.
#[utoipa::path(get, path = "/api/time-attack", tag = "time-attack", operation_id = "time_attack_board",
    responses((status = 200, body = Board), Always))]
pub async fn board(
    State(app): State<App>,
    visitor: Visitor,
    Player(player): Player,
) -> Result<Json<Board>, ApiError> {
    let today = Day::of(app.clock.now_millis()).to_string();
    let account = visitor.account().map(|a| a.id.as_str());
    Ok(Json(Board {
        best: bests(&app, &player, account, &today).await?,
        leaders_today: places(
            app.store
                .time_attack_leaderboard(Some(&today), LEADERBOARD)
                .await?,
        ),
        leaders_all_time: places(app.store.time_attack_leaderboard(None, LEADERBOARD).await?),
        today,
    }))
}

super::assets::pages! {
    /// The time attack's page: a run's puzzles one after another on the
    /// clock, the score, the bests and the leaderboards.
    page: "/time-attack" => "time-attack.html", "Time attack";
}
