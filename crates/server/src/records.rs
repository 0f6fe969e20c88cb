//! Records, personal statistics, display names and CSV export.

// utoipa's `params(…)` expands to paths the lint calls redundant.
#![allow(unused_qualifications)]

use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::account::{Call, Visitor};
use super::clock::now_millis;
use super::edge::{ControlName, DisplayName, DisplayType, FormatName, GameName, RankBy, Variant};
use super::error::{Always, ApiError, Body, BodyErrors, Params, QueryErrors};
use super::player::Player;
use super::App;
use play::average::average_of;
use play::display::Display;
use play::format::{Control, Format};
use play::power::{percent_of_record, Tables as TierTables};
use play::GameKind;
use store::{BestAverage, Category, PlayerBest, Ranking, Record, RecordFall, Viewer};

/// How many records a table shows.
const TABLE: i64 = 10;

/// A records table: a game and one of its variants.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct Which {
    #[param(inline)]
    game: GameName,
    #[param(inline)]
    variant: Variant,
}

/// A records table: a game, one of its variants, a format and, if any, a
/// control.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RecordsQuery {
    #[param(inline)]
    game: GameName,
    #[param(inline)]
    variant: Variant,
    /// `single` when absent: results of other formats rank apart.
    #[param(inline)]
    #[serde(default)]
    format: Option<FormatName>,
    /// Every control when absent.
    #[param(inline)]
    #[serde(default)]
    control: Option<ControlName>,
    /// `standard` when absent: results of other display types rank apart.
    #[param(inline)]
    #[serde(default)]
    display: Option<DisplayType>,
    /// `ao5`, `ao12`, `ao50` or `ao100` adds the table of best averages
    /// (`by_average`);
    /// the tables by time and moves are always there.
    #[param(inline)]
    #[serde(default)]
    by: Option<RankBy>,
}

/// A game.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct GameOnly {
    #[param(inline)]
    game: GameName,
}

/// The variants of a game that have records.
#[derive(Serialize, ToSchema)]
pub struct Variants {
    game: GameName,
    variants: Vec<String>,
}

/// The variants that have records, for the records page's menu.
#[utoipa::path(get, path = "/api/records/variants", tag = "records", params(GameOnly),
    responses((status = 200, body = Variants), QueryErrors, Always))]
pub async fn variants(
    State(app): State<App>,
    Params(query): Params<GameOnly>,
) -> Result<Json<Variants>, ApiError> {
    let game = query.game;
    let variants = app.store.variants(game.0).await?;
    Ok(Json(Variants { game, variants }))
}

/// The game and the variant a query names.
fn which(query: &Which) -> (GameKind, &str) {
    (query.game.0, query.variant.as_str())
}

/// The best results of a variant, by each ranking the game has.
#[derive(Serialize, ToSchema)]
pub struct Tables {
    game: GameName,
    variant: String,
    /// The format ranked: `single`, `marathon-10`, ….
    format: String,
    /// The control ranked; null for every control.
    control: Option<ControlName>,
    /// The display type ranked: `standard`, `manhattan`, ….
    display: String,
    /// Fastest first.
    by_time: Vec<Record>,
    /// Each account's best single, fastest first: one row per player.
    by_player: Vec<PlayerRecord>,
    /// Fewest single-tile moves first (sliding puzzle).
    #[serde(skip_serializing_if = "Option::is_none")]
    by_moves: Option<Vec<Record>>,
    /// Fewest multi-tile moves first (sliding puzzle).
    #[serde(skip_serializing_if = "Option::is_none")]
    by_mtm: Option<Vec<Record>>,
    /// Highest score first (Shisen-Sho).
    #[serde(skip_serializing_if = "Option::is_none")]
    by_score: Option<Vec<Record>>,
    /// With `by=ao5`, `ao12`, `ao50` or `ao100`: each account's best
    /// average of that many consecutive results, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    by_average: Option<Vec<AverageRecord>>,
}

/// An account's best average of consecutive results in a category.
#[derive(Serialize, ToSchema)]
pub struct AverageRecord {
    /// The account's handle.
    handle: String,
    name: Option<String>,
    /// How many results the average is of.
    of: usize,
    /// The trimmed mean of their times, in milliseconds.
    millis: f64,
    /// The results averaged, newest first.
    game_ids: Vec<String>,
    /// When the newest of them finished, milliseconds since the Unix epoch.
    finished_at: i64,
    /// Whether this is the asking player's own.
    mine: bool,
    /// The record (the first row's mean) over this mean, times 100: 100
    /// for the record holder.
    percent: f64,
    /// The tier that percentage reaches (`alpha` from 90 %, … `kappa`),
    /// as Open Slidysim names them.
    tier: String,
}

/// An account's best single in a category.
#[derive(Serialize, ToSchema)]
pub struct PlayerRecord {
    /// The account's handle.
    handle: String,
    /// Its ISO 3166-1 alpha-2 country code, if given.
    country: Option<String>,
    millis: i64,
    /// Single-tile moves (STM).
    moves: i64,
    /// Multi-tile moves.
    mtm: i64,
    /// Moves (STM) per second.
    tps: f64,
    /// Its replay is `/replay/{game_id}`.
    game_id: String,
    /// When it finished, milliseconds since the Unix epoch.
    finished_at: i64,
    /// Whether this is the asking player's own.
    mine: bool,
    /// The record (the first row's time) over this time, times 100: 100
    /// for the record holder.
    percent: f64,
    /// The tier that percentage reaches (`alpha` from 90 %, … `kappa`),
    /// as Open Slidysim names them.
    tier: String,
}

/// Moves per second of `moves` in `millis`.
fn tps(moves: i64, millis: i64) -> f64 {
    if millis > 0 {
        moves as f64 * 1000.0 / millis as f64
    } else {
        0.0
    }
}

/// The rows of a best-per-player table, each with its percentage of the
/// first (the record).
fn player_records(tiers: &TierTables, bests: Vec<PlayerBest>) -> Vec<PlayerRecord> {
    let record = bests.first().map_or(0.0, |b| b.millis as f64);
    bests
        .into_iter()
        .map(|b| {
            let percent = percent_of_record(record, b.millis as f64);
            PlayerRecord {
                tier: tiers.percent_tier(percent).name.clone(),
                percent,
                tps: tps(b.moves, b.millis),
                handle: b.handle,
                country: b.country,
                millis: b.millis,
                moves: b.moves,
                mtm: b.mtm,
                game_id: b.game_id,
                finished_at: b.finished_at,
                mine: b.mine,
            }
        })
        .collect()
}

/// The rows of a best-average table, each with its percentage of the
/// first (the record).
fn average_records(tiers: &TierTables, bests: Vec<BestAverage>) -> Vec<AverageRecord> {
    let record = bests.first().map_or(0.0, |b| b.millis);
    bests
        .into_iter()
        .map(|b| {
            let percent = percent_of_record(record, b.millis);
            AverageRecord {
                tier: tiers.percent_tier(percent).name.clone(),
                percent,
                name: Some(b.handle.clone()),
                handle: b.handle,
                of: b.n,
                millis: b.millis,
                game_ids: b.game_ids,
                finished_at: b.finished_at,
                mine: b.mine,
            }
        })
        .collect()
}

/// The records of a variant: ranked results only, the asking player's own
/// marked.
#[utoipa::path(get, path = "/api/records", tag = "records", params(RecordsQuery),
    responses((status = 200, body = Tables), QueryErrors, Always))]
pub async fn records(call: Call<Params<RecordsQuery>>) -> Result<Json<Tables>, ApiError> {
    let Call(app, player, visitor, Params(query)) = call;
    let (game, variant) = (query.game.0, query.variant.as_str());
    let category = query.category();
    let (format, display) = (category.format, category.display);
    let store = &app.store;
    let me = Some(viewer(&player, &visitor));
    let by_time = store
        .records(game, variant, category, Ranking::Time, TABLE, me)
        .await?;
    let mut tables = Tables {
        game: query.game,
        variant: variant.to_string(),
        format: format.to_string(),
        control: query.control,
        display: display.to_string(),
        by_time,
        by_player: player_records(
            app.store.tiers(),
            store
                .personal_bests(game, variant, category, TABLE, me)
                .await?,
        ),
        by_moves: None,
        by_mtm: None,
        by_score: None,
        by_average: None,
    };
    if let Some(n) = query.by.and_then(RankBy::window) {
        let best = store.best_averages(game, variant, category, n, TABLE, me);
        tables.by_average = Some(average_records(app.store.tiers(), best.await?));
    }
    match game {
        GameKind::Slide => {
            let by_moves = store.records(game, variant, category, Ranking::Moves, TABLE, me);
            tables.by_moves = Some(by_moves.await?);
            let by_mtm = store.records(game, variant, category, Ranking::Mtm, TABLE, me);
            tables.by_mtm = Some(by_mtm.await?);
        }
        GameKind::Shisen => {
            let by_score = store.records(game, variant, category, Ranking::Score, TABLE, me);
            tables.by_score = Some(by_score.await?);
        }
    }
    Ok(Json(tables))
}

impl RecordsQuery {
    /// The category asked.
    fn category(&self) -> Category {
        Category {
            format: self.format.map_or(Format::Single, |f| f.0),
            control: self.control.map(Control::from),
            display: self.display.map_or(Display::Standard, |d| d.0),
        }
    }
}

/// Each fall of a category's world record, oldest first.
#[derive(Serialize, ToSchema)]
pub struct History {
    game: GameName,
    variant: String,
    format: String,
    /// The control; null for every control.
    control: Option<ControlName>,
    display: String,
    /// 1 for singles, else the number of results averaged (`by=ao5`, …).
    of: usize,
    records: Vec<RecordRow>,
}

/// A world record when it was set.
#[derive(Serialize, ToSchema)]
pub struct RecordRow {
    /// The account's handle.
    handle: String,
    /// Its ISO 3166-1 alpha-2 country code, if given.
    country: Option<String>,
    /// When it was set (its newest result finished), milliseconds since
    /// the Unix epoch.
    finished_at: i64,
    /// The time of a single, the mean of an average, in milliseconds.
    millis: f64,
    /// A single's moves (STM); null for an average.
    moves: Option<i64>,
    /// A single's multi-tile moves; null for an average.
    mtm: Option<i64>,
    /// By how many milliseconds it beat the record before it; null for
    /// the first.
    improvement: Option<f64>,
    /// The results it is of, newest first: each replays at
    /// `/replay/{game_id}`.
    game_ids: Vec<String>,
}

impl From<RecordFall> for RecordRow {
    fn from(fall: RecordFall) -> RecordRow {
        RecordRow {
            improvement: fall.beat.map(|beat| beat - fall.millis),
            handle: fall.handle,
            country: fall.country,
            finished_at: fall.finished_at,
            millis: fall.millis,
            moves: fall.moves,
            mtm: fall.mtm,
            game_ids: fall.game_ids,
        }
    }
}

/// Every time a category's world record fell, oldest first: who, when,
/// the time, by how much it beat the record before it, and the replays.
/// Singles, or with `by=ao5` (…) averages; `by=time`, `stm` and `mtm` are
/// the singles' history (records fall by time).
#[utoipa::path(get, path = "/api/records/history", tag = "records", params(RecordsQuery),
    responses((status = 200, body = History), QueryErrors, Always))]
pub async fn history(
    State(app): State<App>,
    Params(query): Params<RecordsQuery>,
) -> Result<Json<History>, ApiError> {
    let (game, variant) = (query.game.0, query.variant.as_str());
    let category = query.category();
    let of = query.by.and_then(RankBy::window).unwrap_or(1);
    let falls = app
        .store
        .record_history(game, variant, category, of)
        .await?;
    Ok(Json(History {
        game: query.game,
        variant: variant.to_string(),
        format: category.format.to_string(),
        control: query.control,
        display: category.display.to_string(),
        of,
        records: falls.into_iter().map(RecordRow::from).collect(),
    }))
}

/// The asking browser and its signed-in account, whose results are "mine".
pub(super) fn viewer<'a>(player: &'a Player, visitor: &'a Visitor) -> Viewer<'a> {
    Viewer {
        player: &player.0,
        account: visitor.account().map(|a| a.id.as_str()),
    }
}

/// A player's results in a variant.
#[derive(Serialize, ToSchema)]
pub struct Stats {
    game: GameName,
    variant: String,
    count: usize,
    best_millis: Option<i64>,
    best_moves: Option<i64>,
    /// The mean of the middle three of the latest five times.
    ao5: Option<f64>,
    /// The mean of the middle ten of the latest twelve times.
    ao12: Option<f64>,
    mean_millis: Option<f64>,
    /// The latest twelve, newest first.
    recent: Vec<Record>,
}

/// The asking player's statistics in a variant, as speedsolvers keep them.
#[utoipa::path(get, path = "/api/me/stats", tag = "player", params(Which),
    responses((status = 200, body = Stats), QueryErrors, Always))]
pub async fn stats(call: Call<Params<Which>>) -> Result<Json<Stats>, ApiError> {
    let Call(app, player, visitor, Params(query)) = call;
    let (game, variant) = which(&query);
    let results = app
        .store
        .player_results(viewer(&player, &visitor), Some((game, variant)))
        .await?;
    let times: Vec<i64> = results.iter().map(|(_, r)| r.figures.millis).collect();
    let moves: Vec<i64> = results.iter().map(|(_, r)| r.figures.moves).collect();
    let recent: Vec<Record> = results.iter().take(12).map(|(_, r)| r.clone()).collect();
    Ok(Json(Stats {
        game: query.game,
        variant: variant.to_string(),
        count: results.len(),
        best_millis: times.iter().min().copied(),
        best_moves: moves.iter().min().copied(),
        ao5: average_of(&times, 5),
        ao12: average_of(&times, 12),
        mean_millis: (!times.is_empty())
            .then(|| times.iter().sum::<i64>() as f64 / times.len() as f64),
        recent,
    }))
}

/// The name a player shows in the records.
#[derive(Serialize, ToSchema)]
pub struct Name {
    /// Null for an anonymous player.
    name: Option<String>,
}

/// The asking player's display name.
#[utoipa::path(get, path = "/api/me", tag = "player",
    responses((status = 200, body = Name), Always))]
pub async fn me(State(app): State<App>, player: Player) -> Result<Json<Name>, ApiError> {
    let name = app.store.player_name(&player.0).await?;
    Ok(Json(Name { name }))
}

/// A new display name.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NameRequest {
    name: DisplayName,
}

/// Sets the asking player's display name.
#[utoipa::path(post, path = "/api/me/name", tag = "player", request_body = NameRequest,
    responses((status = 200, body = Name), BodyErrors, Always))]
pub async fn set_name(call: Call<Body<NameRequest>>) -> Result<Json<Name>, ApiError> {
    let Call(app, player, _, Body(request)) = call;
    let name = request.name.shown();
    app.store.set_name(&player.0, name, now_millis()).await?;
    Ok(Json(Name {
        name: name.map(str::to_string),
    }))
}

/// A CSV field, quoted when needed; fields starting with a formula character
/// get a leading apostrophe so spreadsheets do not evaluate them.
fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// Every result of the asking player as CSV, with links to the replays.
#[utoipa::path(get, path = "/api/me/export.csv", tag = "player",
    responses((status = 200, description = "One line per result", content_type = "text/csv", body = String), Always))]
pub async fn export(
    State(app): State<App>,
    player: Player,
    visitor: Visitor,
) -> Result<impl IntoResponse, ApiError> {
    let results = app
        .store
        .player_results(viewer(&player, &visitor), None)
        .await?;
    let mut csv = String::from(
        "game,variant,finished_at_ms,millis,moves,stm,mtm,score,hints,ranked,reason,replay\n",
    );
    for (game, r) in results {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},/replay/{}\n",
            csv_field(game.name()),
            csv_field(&r.variant),
            r.finished_at,
            r.figures.millis,
            r.figures.moves,
            r.figures.stm,
            r.figures.mtm,
            r.figures.score,
            r.figures.hints,
            r.ranked,
            csv_field(r.reason.as_deref().unwrap_or("")),
            r.game_id,
        ));
    }
    Ok((
        [
            (CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                CONTENT_DISPOSITION,
                "attachment; filename=\"tessera-results.csv\"",
            ),
        ],
        csv,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_and_defused() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
        assert_eq!(csv_field("4x4-row-major"), "4x4-row-major");
    }
}
