//! The sliding-puzzle API: issue puzzles, answer solve and hint requests,
//! and replay submitted move lists into results.

use axum::http::StatusCode;
use axum::Json;
use play::display::Display;
use play::format::{Control, DealError, Format, Played};
use play::limits::{
    format_moves, submitted_moves, FORMAT_MOVES, MOST_SUBMITTED_MOVES, WEB_SLIDE_SIDES,
};
use play::result::{self, Ending};
use play::seed::random_id;
use play::slide_game::{GoalChoice, Outcome, PlanError, Puzzle, SlideSpec, Solver};
use play::GameKind;
use serde::{Deserialize, Serialize};
use slide::{Direction, Goal, Metric, Moves, Position};
use utoipa::ToSchema;

use super::account::Call;
use super::answers::{Digest, Reply, Signed};
use super::clock::now_millis;
use super::edge::{
    excludes, DisplayType, FormatName, GameId, GoalName, Inputs, MetricName, SchemeName, Seed,
    SlideSize,
};
use super::error::{Always, ApiError, Body, BodyErrors, GameErrors, Limited, Refused};
use super::games::{facts, finish, submitted_game, timed, unreadable};
use super::player::Player;
use super::{issue_seed, App};
use store::{Account, Dealt, GameRow, IssuedGame};

/// A sliding puzzle to issue.
#[derive(Deserialize, ToSchema)]
#[schema(as = SlideNewRequest)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    size: SlideSize,
    /// `row-major` when absent.
    #[serde(default)]
    goal: Option<GoalName>,
    /// Random when absent; none with `daily`.
    #[serde(default)]
    seed: Option<Seed>,
    /// The daily puzzle: the seed comes from today's UTC date.
    #[serde(default)]
    daily: bool,
    /// `single` when absent. A relay plays every square size from 3x3
    /// up with the goal, whatever the size.
    #[serde(default)]
    format: Option<FormatName>,
}

impl NewRequest {
    /// The bodies refused whatever their fields hold: a daily puzzle takes
    /// no seed.
    pub fn excluded() -> Vec<serde_json::Value> {
        vec![excludes(
            "daily",
            serde_json::json!({ "const": true }),
            "seed",
        )]
    }
}

/// An issued puzzle: the game to submit against, and where it starts.
#[derive(Serialize, ToSchema)]
#[schema(as = SlideIssued)]
pub struct Issued {
    /// The game's id, for submitting and for its replay.
    #[schema(value_type = GameId)]
    game: String,
    seed: u64,
    size: String,
    /// The starting position, rows split by `/`.
    position: String,
    /// The goal's name (`row-major`, `missing:7`, …).
    goal: String,
    /// The goal written out as a position.
    goal_position: String,
    /// The records table this game counts for.
    variant: String,
    daily: bool,
    /// The format: `single`, `marathon-10`, ….
    format: String,
    /// Every puzzle of the format in order, on one clock: the next appears
    /// the moment the last is solved. For `single` and `bld` one puzzle,
    /// the one `position` and `goal` name.
    puzzles: Vec<DealtPuzzle>,
}

/// One puzzle of a format.
#[derive(Serialize, ToSchema)]
pub struct DealtPuzzle {
    /// The starting position, rows split by `/`.
    position: String,
    /// The goal's name (`row-major`, `missing:7`, …).
    goal: String,
    /// The goal written out as a position.
    goal_position: String,
    size: String,
}

impl DealtPuzzle {
    fn of(puzzle: &Puzzle) -> DealtPuzzle {
        DealtPuzzle {
            position: puzzle.start.to_string(),
            goal: puzzle.goal.to_string(),
            goal_position: puzzle.goal_position.to_string(),
            size: puzzle.start.size().to_string(),
        }
    }
}

/// Issues a sliding puzzle, uniformly drawn from the positions that reach
/// the goal.
#[utoipa::path(post, path = "/api/slide/new", operation_id = "slide_new", tag = "slide", request_body = NewRequest,
    responses((status = 200, body = Issued, links(
        ("submit" = (operation_id = "slide_submit", description = "Submit the game's moves",
            request_body = json!({"game": "$response.body#/game"}))),
        ("hint" = (operation_id = "slide_hint", description = "A hint from the starting position",
            request_body = json!({"game": "$response.body#/game", "position": "$response.body#/position",
                "goal": "$response.body#/goal_position"}))),
        ("replay" = (operation_id = "replay", description = "The game's replay, once it is solved",
            parameters(("game" = "$response.body#/game")))),
    )), BodyErrors, Always))]
pub async fn new(call: Call<Body<NewRequest>>) -> Result<Json<Issued>, ApiError> {
    let Call(app, player, visitor, Body(request)) = call;
    let size = request.size.0;
    let goal = request
        .goal
        .map_or(GoalChoice::Goal(Goal::RowMajor), |name| name.0);
    let spec = SlideSpec::new(size, goal)
        .map_err(|e| ApiError::bad(format!("bad goal: {e}")).at("/goal"))?;
    let now = now_millis();
    let seed = issue_seed(request.daily, request.seed.map(|s| s.0), now)?;
    let format = request.format.map_or(Format::Single, |f| f.0);
    let puzzles = format.deal(&spec, seed).map_err(deal_error)?;
    let mut goals: Vec<&Position> = puzzles.iter().map(|p| &p.goal_position).collect();
    goals.dedup();
    goals
        .into_iter()
        .for_each(|goal| Solver::global().warm_up(goal));
    let puzzle = &puzzles[0];
    let variant = format.variant(&spec).map_err(deal_error)?;
    let game = IssuedGame {
        id: random_id(),
        player_id: player.0,
        variant: variant.clone(),
        seed,
        dealt: Dealt::Slide {
            start: puzzle.start.clone(),
            goal: puzzle.goal_position.clone(),
            // A format of several puzzles is dealt again from the goal as
            // chosen; one puzzle keeps its goal as drawn, as it always has.
            chosen: match format.is_one_puzzle() {
                true => GoalChoice::Goal(puzzle.goal.clone()),
                false => spec.goal.clone(),
            },
        },
        format,
        issued_at: now,
    };
    let account = visitor.account().map(|a| a.id.as_str());
    app.store.issue_to(&game, account).await?;
    super::daily::dealt(&app, &game, request.daily, &visitor, now).await?;
    Ok(Json(Issued {
        game: game.id,
        seed,
        size: size.to_string(),
        position: puzzle.start.to_string(),
        goal: puzzle.goal.to_string(),
        goal_position: puzzle.goal_position.to_string(),
        variant,
        daily: request.daily,
        format: game.format.to_string(),
        puzzles: puzzles.iter().map(DealtPuzzle::of).collect(),
    }))
}

/// Why a format cannot be dealt, pointing at the field to change: the goal
/// when it does not fit a puzzle's size, else the format, which cannot
/// start at the size or be dealt that long.
fn deal_error(error: DealError) -> ApiError {
    match error {
        DealError::Goal { .. } => ApiError::bad(format!("bad goal: {error}")).at("/goal"),
        DealError::TooLarge { .. } | DealError::CannotStart { .. } | DealError::TooLong { .. } => {
            ApiError::bad(format!("bad format: {error}")).at("/format")
        }
    }
}

/// A position to solve or hint at.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// Rows split by `/`, cells by spaces, `0` the blank; up to 10x10.
    #[schema(example = "1 2 3/4 5 6/7 0 8")]
    position: String,
    /// A goal's name or a position; `row-major` when absent.
    #[serde(default)]
    goal: Option<String>,
    /// The game this help is for: a game solved with help earns no record.
    #[serde(default)]
    game: Option<GameId>,
    /// The metric the solution is shortest in; `stm` when absent.
    #[serde(default)]
    metric: Option<MetricName>,
}

/// The request's metric, `stm` when it names none.
fn metric(request: &SolveRequest) -> Metric {
    request.metric.unwrap_or_default().into()
}

/// Parses a position and its goal (a name or a position) and checks that
/// the goal can be reached.
fn puzzle(request: &SolveRequest) -> Result<(Position, Position), ApiError> {
    let start = Position::parse(&request.position, None)
        .map_err(|e| ApiError::bad(format!("bad position: {e}")).at("/position"))?;
    let size = start.size();
    let most = *WEB_SLIDE_SIDES.end();
    if size.width() > most || size.height() > most {
        return Err(ApiError::bad(format!(
            "bad position: {size} is larger than the {most}x{most} the web app plays"
        ))
        .at("/position"));
    }
    let bad_goal = |e: &dyn std::fmt::Display| ApiError::bad(format!("bad goal: {e}")).at("/goal");
    let goal: Goal = request
        .goal
        .as_deref()
        .unwrap_or("row-major")
        .parse()
        .map_err(|e| bad_goal(&e))?;
    let goal = goal.position(size).map_err(|e| bad_goal(&e))?;
    match start.is_solvable(&goal) {
        Ok(true) => Ok((start, goal)),
        Ok(false) => Err(ApiError::bad("this position cannot reach the goal")),
        Err(e) => Err(bad_goal(&e)),
    }
}

/// A solution for the position and goal of a solve or hint request. The
/// position is remembered as help asked by `player`: a game of theirs
/// that passes through it is assisted, named in the request or not.
async fn solution(
    app: &App,
    player: &Player,
    request: &SolveRequest,
) -> Result<(Moves, bool), ApiError> {
    let (start, goal) = puzzle(request)?;
    let metric = metric(request);
    app.store
        .record_help(&player.0, GameKind::Slide, &start.to_string(), now_millis())
        .await?;
    if start == goal {
        return Ok((Moves::new(), true));
    }
    let answer = app
        .budget
        .run(move |deadline| Solver::global().plan(&start, &goal, metric, &deadline))
        .await?;
    match answer {
        Ok(plan) => Ok((plan.moves, plan.optimal)),
        Err(e @ PlanError::Refused(_)) => Err(ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e)),
        Err(e @ PlanError::OutOfTime) => Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e)),
    }
}

/// A solution.
#[derive(Serialize, ToSchema)]
pub struct Solution {
    /// The moves, `U D L R` for the direction a tile moves.
    #[schema(example = "RD")]
    moves: String,
    /// Single-tile moves.
    length: usize,
    /// Multi-tile moves.
    mtm: usize,
    /// Whether no shorter solution exists (in the metric asked for).
    optimal: bool,
}

/// Solves a position: optimally on boards the optimal solver handles
/// within the budget, with the fast solver otherwise.
#[utoipa::path(post, path = "/api/slide/solve", operation_id = "slide_solve", tag = "slide", request_body = SolveRequest,
    responses((status = 200, body = Solution), BodyErrors, Refused, Limited, Always))]
pub async fn solve(call: Call<Body<SolveRequest>>) -> Result<Json<Solution>, ApiError> {
    let (moves, optimal) = helped(&call, 0).await?;
    Ok(Json(Solution {
        moves: moves.to_string(),
        length: moves.len(),
        mtm: moves.mtm_len(),
        optimal,
    }))
}

/// The next move of a solution.
#[derive(Serialize, ToSchema)]
#[schema(as = SlideHint)]
pub struct Hint {
    /// `U`, `D`, `L` or `R`; null when the position is already solved.
    #[serde(rename = "move")]
    next: Option<String>,
    /// The first move in the metric asked for: the same as `move` in STM,
    /// the whole first run in MTM (`L2`); null when solved.
    run: Option<String>,
    /// The solution's length from here, in the metric asked for.
    remaining: usize,
    /// Whether that solution is optimal.
    optimal: bool,
}

/// The first move of a solution. A game that asks is not ranked.
#[utoipa::path(post, path = "/api/slide/hint", operation_id = "slide_hint", tag = "slide", request_body = SolveRequest,
    responses((status = 200, body = Hint), BodyErrors, Refused, Limited, Always))]
pub async fn hint(call: Call<Body<SolveRequest>>) -> Result<Json<Hint>, ApiError> {
    let Call(.., Body(request)) = &call;
    let metric = metric(request);
    let (moves, optimal) = helped(&call, 1).await?;
    let first = moves.iter().next();
    let next = first.map(|d| d.letter().to_string());
    let run = first.map(|d| match metric {
        Metric::Stm => d.letter().to_string(),
        Metric::Mtm => moves.first_run().compact(),
    });
    Ok(Json(Hint {
        next,
        run,
        remaining: moves.length(metric),
        optimal,
    }))
}

/// The positions `player` asked the solver about since `since`: a game
/// whose moves pass through one of them was assisted, whether the request
/// named the game or not.
pub(super) async fn helped_positions(
    app: &App,
    player: &str,
    since: i64,
) -> Result<Vec<Position>, ApiError> {
    Ok(app
        .store
        .help_since(player, GameKind::Slide, since)
        .await?
        .iter()
        .filter_map(|(state, _)| Position::parse(state, None).ok())
        .collect())
}

/// The solution, counted against the request's game (if it names one) as
/// `hints` hints and as assistance: a game shown the way is not ranked.
async fn helped(call: &Call<Body<SolveRequest>>, hints: i64) -> Result<(Moves, bool), ApiError> {
    let Call(app, player, _, Body(request)) = call;
    let answer = solution(app, player, request).await?;
    if let Some(game) = &request.game {
        app.store
            .count_help(game.as_str(), &player.0, hints, true)
            .await?;
    }
    Ok(answer)
}

/// A played game, for the server to replay and judge.
#[derive(Deserialize, ToSchema)]
#[schema(as = SlideSubmitRequest)]
#[serde(deny_unknown_fields)]
pub struct SubmitRequest {
    /// The id `new` gave.
    game: GameId,
    /// A one-puzzle game (`single`, `bld`): the moves as letters (`RRRU`)
    /// or in the compact notation replays use (`R3U`): at most 20 000
    /// single-tile moves.
    #[schema(
        pattern = "^([UDLR]([1-9][0-9]{0,4})?)*$",
        max_length = 20000,
        example = "R2DL"
    )]
    #[serde(default)]
    moves: Option<String>,
    /// With `moves`: milliseconds since the puzzle was shown, one per
    /// single-tile move.
    #[serde(default)]
    times: Option<Vec<i64>>,
    /// With `moves`: how each move was made.
    #[serde(default)]
    inputs: Option<Inputs>,
    /// Instead of `moves` and `times`, for any format (and the only way
    /// for a marathon or a relay): every puzzle in the order dealt.
    #[schema(max_items = 100)]
    #[serde(default)]
    puzzles: Option<Vec<PlayedPuzzle>>,
    /// What the tiles showed: `standard` when absent; the result is
    /// ranked among results of its display only.
    #[serde(default)]
    display: Option<DisplayType>,
}

/// One puzzle of a format as played.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayedPuzzle {
    /// The moves, as for a single game: at most 20 000 single-tile moves.
    #[schema(
        pattern = "^([UDLR]([1-9][0-9]{0,4})?)*$",
        max_length = 20000,
        example = "R2DL"
    )]
    moves: String,
    /// Milliseconds since the *format* started (not the puzzle), one per
    /// single-tile move: one clock runs over all the puzzles.
    times: Vec<i64>,
    /// How each move was made.
    #[serde(default)]
    inputs: Option<Inputs>,
}

/// A submitted move list, in either notation: letters (`RRRU`) or the
/// compact one replays use (`R3U`, a count after a letter). The counts are
/// summed before anything is expanded, so the work stays bounded by
/// [`MOST_SUBMITTED_MOVES`] single-tile moves whatever the text says (the
/// limit of the game's size is checked once the game is known,
/// [`fits_size`]).
pub(super) fn parse_moves(text: &str) -> Result<Moves, ApiError> {
    let too_long = || {
        ApiError::bad(format!(
            "move list too long: at most {MOST_SUBMITTED_MOVES} single-tile moves"
        ))
    };
    if text.len() > MOST_SUBMITTED_MOVES {
        return Err(too_long());
    }
    let mut moves = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        // Upper case only, as the schema says.
        let letter = matches!(c, 'U' | 'D' | 'L' | 'R').then_some(c);
        let direction = letter.and_then(Direction::from_letter).ok_or_else(|| {
            ApiError::bad(format!(
                "bad move list: character {c:?} at position {at} is not one of U, D, L, R (each may be followed by a count, as in R3)"
            ))
        })?;
        let mut count = 0usize;
        let mut digits = 0;
        while let Some(&(_, d)) = chars.peek() {
            let Some(value) = d.to_digit(10) else { break };
            chars.next();
            digits += 1;
            count = count.saturating_mul(10).saturating_add(value as usize);
        }
        if digits > 0 && text[at + 1..].starts_with('0') {
            return Err(ApiError::bad(format!(
                "bad move list: the count after {c} at position {at} starts with 0"
            )));
        }
        let count = if digits == 0 { 1 } else { count };
        if moves.len() + count > MOST_SUBMITTED_MOVES {
            return Err(too_long());
        }
        moves.extend(std::iter::repeat_n(direction, count));
    }
    Ok(Moves(moves))
}

/// A submitted game that does not reach the goal: where it ended.
#[derive(Serialize, ToSchema)]
#[schema(as = SlideUnsolved)]
pub struct Unsolved {
    /// Always false.
    solved: bool,
    moves: usize,
    stm: usize,
    mtm: usize,
    millis: i64,
    /// The position the moves lead to.
    position: String,
}

/// What a submission comes to.
pub type Submitted = super::games::Submitted<Unsolved>;

/// Replays a game's moves from its issued position; a solved game becomes
/// a result, ranked unless the judge finds a reason not to.
#[utoipa::path(post, path = "/api/slide/submit", operation_id = "slide_submit", tag = "slide", request_body = SubmitRequest,
    responses((status = 200, body = inline(Submitted)), BodyErrors, GameErrors, Always))]
pub async fn submit(call: Call<Signed<SubmitRequest>>) -> Result<Reply<Submitted>, ApiError> {
    let Call(app, player, visitor, Signed(request, digest)) = call;
    if let Some(puzzles) = request.puzzles {
        if request.moves.is_some() || request.times.is_some() || request.inputs.is_some() {
            return Err(ApiError::bad(
                "send either puzzles or moves and times, not both",
            ));
        }
        let game = request.game.as_str();
        let display = request.display;
        return submit_format(&app, &player, &visitor, game, &puzzles, display, &digest).await;
    }
    let (Some(moves), Some(times)) = (&request.moves, &request.times) else {
        return Err(ApiError::bad(
            "send moves and times (or, for a format, puzzles)",
        ));
    };
    let moves = parse_moves(moves).map_err(|e| e.at("/moves"))?;
    timed(times, moves.len())?;
    let control = control(&[(request.inputs.as_ref(), moves.len())])
        .map_err(|e| ApiError::bad(e).at("/inputs"))?;
    let row = match submitted_game(
        &app,
        request.game.as_str(),
        &player,
        GameKind::Slide,
        &digest,
    )
    .await?
    {
        Reply::Now(row) => row,
        Reply::Before(answer) => return Ok(Reply::Before(answer)),
    };
    let format = row.issued.format;
    if !format.is_one_puzzle() {
        return Err(ApiError::bad(format!(
            "this game is a {format}: send its puzzles as puzzles: [{{moves, times}}, …]"
        ))
        .at("/puzzles"));
    }
    let display = display_for(request.display, &format)?;
    let now = now_millis();
    let (start, goal, _) = slide_deal(&row.issued)?;
    fits_size(&moves, start.size()).map_err(|e| e.at("/moves"))?;
    // Help is tied to the game's positions, whether it named the game or not.
    let asked = helped_positions(&app, &player.0, row.issued.issued_at).await?;
    let played = Played {
        moves,
        times: times.clone(),
    };
    let facts = facts(&row, now, &[]);
    let ending = result::slide_single(start, goal, format, played, control, &facts, &asked)
        .map_err(|e| ApiError::bad(format!("illegal move list: {e}")).at("/moves"))?;
    submitted(&app, &row, ending, display, visitor.account(), now, &digest).await
}

/// What the submission with `digest` comes to, recorded if solved, as
/// the client sees it.
async fn submitted(
    app: &App,
    row: &GameRow,
    ending: Ending<Outcome>,
    display: Display,
    account: Option<&Account>,
    now: i64,
    digest: &Digest,
) -> Result<Reply<Submitted>, ApiError> {
    match ending {
        Ending::Unsolved(outcome) => Ok(Reply::Now(Submitted::Unsolved(Unsolved {
            solved: false,
            moves: outcome.stm,
            stm: outcome.stm,
            mtm: outcome.mtm,
            millis: row.played_millis(now),
            position: outcome.position.to_string(),
        }))),
        Ending::Solved(result) => {
            let result = result.shown_as(display);
            let finished = finish(app, row, result, account, now, Some(digest)).await?;
            Ok(finished.map(Submitted::Solved))
        }
    }
}

/// The display a result was played with (`standard` when not said),
/// refused with a format that takes none.
fn display_for(display: Option<DisplayType>, format: &Format) -> Result<Display, ApiError> {
    let display = display.map_or(Display::Standard, |d| d.0);
    if !display.allowed_with(format) {
        return Err(ApiError::bad(format!(
            "bad display: a {format} solve is played with the standard display, not {display}"
        ))
        .at("/display"));
    }
    Ok(display)
}

/// Whether a puzzle's moves are within what a submission of its size may
/// hold ([`submitted_moves`]).
fn fits_size(moves: &Moves, size: slide::Size) -> Result<(), ApiError> {
    let most = submitted_moves(size);
    if moves.len() > most {
        return Err(ApiError::bad(format!(
            "move list too long: at most {most} single-tile moves on a {size}"
        )));
    }
    Ok(())
}

/// The control of a result from each puzzle's inputs (if sent) and its
/// move count: `None` when no puzzle said how its moves were made.
fn control(inputs: &[(Option<&Inputs>, usize)]) -> Result<Option<Control>, String> {
    let mut all = Vec::new();
    for &(kinds, moves) in inputs {
        let Some(kinds) = kinds else { continue };
        if kinds.0.len() != moves {
            return Err(format!(
                "{} inputs for {moves} moves: send one per single-tile move",
                kinds.0.len()
            ));
        }
        all.extend_from_slice(&kinds.0);
    }
    let told = inputs.iter().any(|(kinds, _)| kinds.is_some());
    Ok(told.then(|| Control::of(&all)))
}

/// A stored game's deal, a sliding puzzle's: its (first) start, its goal
/// and the goal as chosen.
pub(super) fn slide_deal(
    issued: &IssuedGame,
) -> Result<(&Position, &Position, &GoalChoice), ApiError> {
    match &issued.dealt {
        Dealt::Slide {
            start,
            goal,
            chosen,
        } => Ok((start, goal, chosen)),
        Dealt::Shisen { .. } => Err(unreadable(
            issued,
            "a Shisen-Sho deal where a sliding puzzle was asked",
        )),
    }
}

/// The puzzles of a stored game, dealt again from its seed: the size of
/// its first puzzle and the goal as chosen.
pub(super) fn stored_puzzles(issued: &IssuedGame, format: Format) -> Result<Vec<Puzzle>, ApiError> {
    let (start, _, chosen) = slide_deal(issued)?;
    let spec = SlideSpec::new(start.size(), chosen.clone()).map_err(|e| unreadable(issued, e))?;
    format
        .deal(&spec, issued.seed)
        .map_err(|e| unreadable(issued, e))
}

/// A format's puzzles as sent, parsed, and the result's control.
fn played(puzzles: &[PlayedPuzzle]) -> Result<(Vec<Played>, Option<Control>), ApiError> {
    let mut played = Vec::with_capacity(puzzles.len());
    let mut total = 0;
    for (i, puzzle) in puzzles.iter().enumerate() {
        let moves = parse_moves(&puzzle.moves).map_err(|e| e.at(format!("/puzzles/{i}/moves")))?;
        total += moves.len();
        if total > FORMAT_MOVES {
            return Err(ApiError::bad(format!(
                "too many moves: at most {FORMAT_MOVES} single-tile moves over the puzzles"
            ))
            .at(format!("/puzzles/{i}/moves")));
        }
        played.push(Played {
            moves,
            times: puzzle.times.clone(),
        });
    }
    let inputs: Vec<_> = puzzles
        .iter()
        .zip(&played)
        .map(|(p, q)| (p.inputs.as_ref(), q.moves.len()))
        .collect();
    let control =
        control(&inputs).map_err(|e| ApiError::bad(format!("bad inputs: {e}")).at("/puzzles"))?;
    Ok((played, control))
}

/// Replays every puzzle of a format and judges each by the rules of a
/// single solve: one that would not be ranked unranks the whole result,
/// its reason naming the puzzle.
async fn submit_format(
    app: &App,
    player: &Player,
    visitor: &super::account::Visitor,
    game: &str,
    puzzles: &[PlayedPuzzle],
    display: Option<DisplayType>,
    digest: &Digest,
) -> Result<Reply<Submitted>, ApiError> {
    let (played, control) = played(puzzles)?;
    let row = match submitted_game(app, game, player, GameKind::Slide, digest).await? {
        Reply::Now(row) => row,
        Reply::Before(answer) => return Ok(Reply::Before(answer)),
    };
    let format = row.issued.format;
    let display = display_for(display, &format)?;
    let dealt = stored_puzzles(&row.issued, format)?;
    for (i, (puzzle, p)) in dealt.iter().zip(&played).enumerate() {
        fits_size(&p.moves, puzzle.start.size())
            .map_err(|e| e.at(format!("/puzzles/{i}/moves")))?;
    }
    let sizes: Vec<_> = dealt.iter().map(|p| p.start.size()).collect();
    let most = format_moves(&sizes);
    let sent: usize = played.iter().map(|p| p.moves.len()).sum();
    if sent > most {
        return Err(ApiError::bad(format!(
            "too many moves: {format} of {} allows at most {most} single-tile moves \
             over its puzzles, not {sent}",
            sizes[0]
        ))
        .at("/puzzles"));
    }
    let now = now_millis();
    let asked = helped_positions(app, &player.0, row.issued.issued_at).await?;
    let facts = facts(&row, now, &[]);
    let ending = result::slide_format(format, &dealt, played, control, &facts, &asked)
        .map_err(|e| ApiError::bad(format!("bad submission: {e}")).at("/puzzles"))?;
    submitted(app, &row, ending, display, visitor.account(), now, digest).await
}

/// A colour scheme to paint a goal's tiles with.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ColoursRequest {
    /// The goal written out as a position (an issued game's
    /// `goal_position`); up to 32x32.
    #[schema(example = "1 2 3/4 5 6/7 8 0")]
    goal: String,
    scheme: SchemeName,
}

/// Every tile's colours, indexed by its number (index 0 is the blank).
#[derive(Serialize, ToSchema)]
pub struct Colours {
    /// Tile fills, `#rrggbb`.
    fills: Vec<String>,
    /// The number's colour on each fill: black or white, whichever
    /// contrasts more (at least 4.5:1).
    texts: Vec<String>,
}

/// The colours of a scheme: every tile coloured by its goal cell, the
/// same as `tessera slide render --scheme` and the terminal game use.
#[utoipa::path(post, path = "/api/slide/colours", operation_id = "slide_colours", tag = "slide", request_body = ColoursRequest,
    responses((status = 200, body = Colours), BodyErrors, Always))]
pub async fn colours(Body(request): Body<ColoursRequest>) -> Result<Json<Colours>, ApiError> {
    let goal = Position::parse(&request.goal, None)
        .map_err(|e| ApiError::bad(format!("bad goal: {e}")).at("/goal"))?;
    let (size, most) = (goal.size(), *WEB_SLIDE_SIDES.end());
    if size.width() > most || size.height() > most {
        return Err(ApiError::bad(format!(
            "bad goal: {size} is larger than the {most}x{most} the web app plays"
        ))
        .at("/goal"));
    }
    let scheme = request.scheme.0;
    let fills = scheme.fills(&goal);
    Ok(Json(Colours {
        fills: fills.iter().map(ToString::to_string).collect(),
        texts: fills.iter().map(|f| f.text().to_string()).collect(),
    }))
}
