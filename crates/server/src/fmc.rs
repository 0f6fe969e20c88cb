//! The daily fewest-moves challenge (`play::fmc`): a day's two scrambles,
//! one entry per signed-in account, day and board, replayed before it is
//! kept; entries shown to their owner alone until the day is over, then to
//! everyone beside the day's optimum, found once and kept in the store.

// utoipa's `params(…)` expands to paths the lint calls redundant.
#![allow(unused_qualifications)]

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use play::daily::{Day, FIRST_DAY};
use play::fmc::{self, Entry, FmcSize, Optimum, Refusal, Scramble};
use play::slide_game::Solver;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::account::{signed_in, Call, Visitor};
use super::edge::DailyDate;
use super::error::{Always, ApiError, Body, BodyErrors, ErrorBody};
use super::App;
use store::{Account, FmcEntry};

/// A day from the path: `YYYY-MM-DD`, else 400 naming the field.
fn read_day(text: String) -> Result<Day, ApiError> {
    DailyDate::try_from(text)
        .map(|d| d.0)
        .map_err(|e| ApiError::bad(format!("day: {e}")))
}

/// A board from the path: `4x4` or `5x5`, else 400 naming the field.
fn read_size(text: &str) -> Result<FmcSize, ApiError> {
    text.parse()
        .map_err(|e: fmc::SizeError| ApiError::bad(format!("size: {e}")))
}

/// An entry: the moves that solve the day's scramble.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = FmcEntryRequest)]
pub struct EntryRequest {
    /// The moves, in the command line's `--moves` notation (slidy's
    /// compact one): `U D L R` for the way a tile slides, in either case,
    /// each optionally followed by a count (`R2 D L3`); spaces and commas
    /// are ignored. At most 2000 single-tile moves.
    #[schema(min_length = 1, max_length = 4096, example = "R2 D L3")]
    moves: String,
}

/// An entry as shown: to its owner on the day, to everyone after it.
#[derive(Serialize, ToSchema)]
#[schema(as = FmcEntryView)]
pub struct EntryView {
    /// The account's handle.
    handle: String,
    /// Single-tile moves: what ranks the entries.
    stm: i64,
    /// Multi-tile moves (a run of tiles slid along a line is one), shown
    /// beside.
    mtm: i64,
    /// The moves, in the compact notation (`R2DL3`).
    moves: String,
    /// Unix milliseconds when it was sent.
    submitted_at: i64,
    /// Whether it is the asking account's.
    mine: bool,
    /// Its place by single-tile moves, then multi-tile ones (1 is the
    /// best; the earlier of a tie first); null until the day is over.
    rank: Option<usize>,
    /// Single-tile moves lost against the day's optimum; null until the
    /// day is over.
    lost: Option<usize>,
}

/// A closed day's optimum on one board.
#[derive(Serialize, ToSchema)]
#[schema(as = FmcOptimum)]
pub struct OptimumView {
    /// A solution of that length, in the compact notation.
    moves: String,
    stm: usize,
    mtm: usize,
    /// True: proven shortest by the optimal solver (4×4). False: the best
    /// known, the shorter of the solver's best within its time and the
    /// best entry (5×5).
    proven: bool,
}

/// A day's scramble on one board, and its entries as far as the asker may
/// see them.
#[derive(Serialize, ToSchema)]
#[schema(as = FmcBoard)]
pub struct Board {
    /// `4x4` or `5x5`.
    size: String,
    /// The seed it is dealt from: `tessera slide new --size 4x4 --seed
    /// SEED` shows the same position.
    seed: u64,
    /// The position to solve, rows separated by `/`, 0 the blank.
    position: String,
    /// The goal (row-major).
    goal: String,
    /// How many entries the day has on this board.
    entries: i64,
    /// The asking account's entry; null if none or not signed in.
    mine: Option<EntryView>,
    /// Every entry, ranked; null until the day is over.
    results: Option<Vec<EntryView>>,
    /// The optimum; null until the day is over, and for a day without
    /// entries on this board (it is looked for only to rank entries).
    optimum: Option<OptimumView>,
}

/// A day of the fewest-moves challenge.
#[derive(Serialize, ToSchema)]
#[schema(as = FmcDay)]
pub struct DayView {
    /// The day, `YYYY-MM-DD` (UTC).
    day: String,
    /// The server's today (UTC): the only day that takes entries.
    today: String,
    /// Whether the day is over: entries and optimum shown.
    closed: bool,
    /// The day before; null on the first day.
    previous: Option<String>,
    /// The day after; null for today.
    next: Option<String>,
    /// The 4×4, then the 5×5.
    boards: Vec<Board>,
}

/// A day's two scrambles and its entries: until the day is over only the
/// count and the asker's own entry; after it, every entry ranked by
/// single-tile moves (multi-tile beside), each with the moves it lost
/// against the day's optimum (proven on 4×4, the best known on 5×5). The
/// optimum of a board with entries is found when first asked after the
/// day (a few seconds) and kept. A day still
/// to come is a bad date (400), as on the daily board: its scrambles are
/// not out yet.
#[utoipa::path(get, path = "/api/fmc/{day}", tag = "records", operation_id = "fmc_day",
    params(("day" = inline(DailyDate), Path, description = "The day, `YYYY-MM-DD` (UTC), today or before")),
    responses((status = 200, body = DayView),
        (status = 400, description = "Not a date, or a day still to come", body = ErrorBody),
        Always))]
pub async fn day(call: Call<Path<String>>) -> Result<Json<DayView>, ApiError> {
    let Call(app, _, visitor, Path(day)) = call;
    let day = read_day(day)?;
    let today = Day::of(app.clock.now_millis());
    if day > today {
        return Err(ApiError::bad(format!(
            "day: {day} is still to come; its scrambles are not out yet (today is {today}, UTC)"
        )));
    }
    let closed = fmc::closed(day, today);
    let me = visitor.account().map(|a| a.id.clone());
    let mut boards = Vec::new();
    for size in FmcSize::ALL {
        let scramble = fmc::scramble(day, size);
        boards.push(board(&app, &scramble, closed, me.as_deref()).await?);
    }
    Ok(Json(DayView {
        day: day.to_string(),
        today: today.to_string(),
        closed,
        previous: (day > FIRST_DAY).then(|| day.previous().to_string()),
        next: (day < today).then(|| day.next().to_string()),
        boards,
    }))
}

/// An entry as `me` (an account id) sees it.
fn view(e: &FmcEntry, me: Option<&str>, rank: Option<usize>, lost: Option<usize>) -> EntryView {
    EntryView {
        handle: e.handle.clone(),
        stm: e.stm,
        mtm: e.mtm,
        moves: e.moves.compact(),
        submitted_at: e.submitted_at,
        mine: me == Some(e.account_id.as_str()),
        rank,
        lost,
    }
}

async fn board(
    app: &App,
    scramble: &Scramble,
    closed: bool,
    me: Option<&str>,
) -> Result<Board, ApiError> {
    let (day, size) = (scramble.day.to_string(), scramble.size);
    let view = |e: &FmcEntry, rank, lost| view(e, me, rank, lost);
    let mut shown = Board {
        size: size.name().to_string(),
        seed: scramble.seed,
        position: scramble.start.to_string(),
        goal: scramble.goal.to_string(),
        entries: 0,
        mine: None,
        results: None,
        optimum: None,
    };
    if !closed {
        shown.entries = app.store.fmc_count(&day, size).await?;
        if let Some(me) = me {
            let mine = app.store.fmc_entry(&day, size, me).await?;
            shown.mine = mine.as_ref().map(|e| view(e, None, None));
        }
        return Ok(shown);
    }
    let mut entries = app.store.fmc_entries(&day, size).await?;
    // Stable: a tie keeps the order sent, the earlier first.
    entries.sort_by(|a, b| fmc::ranking((a.stm, a.mtm), (b.stm, b.mtm)));
    shown.results = Some(Vec::new());
    if entries.is_empty() {
        // Nothing to compare: no search (which any past day would
        // otherwise cost anyone who asks for it).
        return Ok(shown);
    }
    let optimum = optimum(app, scramble, &entries).await?;
    let results: Vec<EntryView> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let lost = fmc::moves_lost(e.stm as usize, &optimum);
            view(e, Some(i + 1), Some(lost))
        })
        .collect();
    shown.entries = results.len() as i64;
    shown.mine = results
        .iter()
        .position(|e| e.mine)
        .map(|i| view(&entries[i], Some(i + 1), results[i].lost));
    shown.results = Some(results);
    shown.optimum = Some(OptimumView {
        moves: optimum.moves.compact(),
        stm: optimum.stm,
        mtm: optimum.mtm,
        proven: optimum.proven,
    });
    Ok(shown)
}

/// The closed day's optimum: kept, or found now (within the engine's
/// budget) and kept; the first kept is every instance's answer.
async fn optimum(
    app: &App,
    scramble: &Scramble,
    entries: &[FmcEntry],
) -> Result<Optimum, ApiError> {
    let (day, size) = (scramble.day.to_string(), scramble.size);
    if let Some(kept) = app.store.fmc_optimum(&day, size).await? {
        return Ok(kept);
    }
    // The entries come ranked: the first is the shortest.
    let best = entries.first().map(|e| e.moves.clone());
    let owned = scramble.clone();
    let found = app
        .budget
        .run(move |deadline| fmc::find_optimum(Solver::global(), &owned, best, &deadline))
        .await?
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e))?;
    Ok(app.store.keep_fmc_optimum(&day, size, &found).await?)
}

/// The errors of an entry besides its body's shape.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // Documentation only: `ApiError` builds the responses.
pub enum EntryErrors {
    /// Not signed in.
    #[response(status = 401)]
    NotSignedIn(ErrorBody),
    /// The account has another entry for this day and board already.
    #[response(status = 409)]
    Repeat(ErrorBody),
}

/// Sends the signed-in account's one entry for today's scramble on a
/// board. The moves are replayed on the scramble: a move no tile can make
/// is refused naming it (its number, counted in single-tile moves from 1,
/// and its letter), and so are moves that end unsolved (422); nothing is
/// kept then. Taken for today (UTC) only, once per account and board
/// (409 after; the same entry sent again is answered as it was kept).
#[utoipa::path(post, path = "/api/fmc/{day}/{size}", tag = "records", operation_id = "fmc_submit", request_body = EntryRequest,
    params(("day" = inline(DailyDate), Path, description = "Today, `YYYY-MM-DD` (UTC): no other day takes entries"),
        ("size" = String, Path, description = "The board: `4x4` or `5x5`", pattern = "^(4x4|5x5)$")),
    responses((status = 201, body = EntryView, description = "Kept; shown to its owner until the day is over"),
        BodyErrors, EntryErrors, Always))]
pub async fn submit(
    State(app): State<App>,
    visitor: Visitor,
    Path((day, size)): Path<(String, String)>,
    Body(request): Body<EntryRequest>,
) -> Result<(StatusCode, Json<EntryView>), ApiError> {
    let day = read_day(day)?;
    let size = read_size(&size)?;
    let now = app.clock.now_millis();
    let today = Day::of(now);
    let account = signed_in(&visitor);
    let scramble = fmc::scramble(day, size);
    let entry = fmc::parse(&request.moves)
        .and_then(|moves| fmc::check(&scramble, moves))
        .map_err(|refusal| {
            let pointer = matches!(refusal, Refusal::Notation(_) | Refusal::Empty);
            let error = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, refusal);
            if pointer {
                error.at("/moves")
            } else {
                error
            }
        });
    let day_text = day.to_string();
    if !fmc::open(day, today) {
        // This very entry sent again after the day closed (its answer
        // lost on the way) is answered as it was kept.
        if let (Ok(account), Ok(entry)) = (&account, &entry) {
            if let Some(kept) = kept_entry(&app, &day_text, size, account, entry).await? {
                return Ok(kept);
            }
        }
        return Err(ApiError::bad(format!(
            "day: entries are taken for today only, {today} (UTC); {day} is not today"
        )));
    }
    let account = account?;
    let entry = entry?;
    if !app
        .store
        .enter_fmc(&day_text, size, &account.id, &entry, now)
        .await?
    {
        let kept = kept_entry(&app, &day_text, size, account, &entry).await?;
        return kept.ok_or_else(|| {
            ApiError::conflict(format!(
                "you have sent your {size} entry for {day} already: one a day and board"
            ))
        });
    }
    Ok((
        StatusCode::CREATED,
        Json(EntryView {
            handle: account.handle.clone(),
            stm: entry.stm as i64,
            mtm: entry.mtm as i64,
            moves: entry.moves.compact(),
            submitted_at: now,
            mine: true,
            rank: None,
            lost: None,
        }),
    ))
}

/// The answer to `account`'s entry for `day` on `size` when it is the one
/// kept: the same entry sent again (its answer lost on the way) is
/// answered as it was the first time.
async fn kept_entry(
    app: &App,
    day: &str,
    size: FmcSize,
    account: &Account,
    entry: &Entry,
) -> Result<Option<(StatusCode, Json<EntryView>)>, ApiError> {
    let kept = app.store.fmc_entry(day, size, &account.id).await?;
    let same = kept.filter(|e| e.moves.compact() == entry.moves.compact());
    let me = Some(account.id.as_str());
    Ok(same.map(|e| (StatusCode::CREATED, Json(view(&e, me, None, None)))))
}
