//! A player's public profile: `GET /api/users/{handle}`, the data the
//! `/u/{handle}` page shows. Averages and bests count ranked results only,
//! so a bot's or an assisted solve never makes a personal best.

// utoipa's `params(…)` expands to paths the lint calls redundant.
#![allow(unused_qualifications)]

use std::collections::BTreeMap;

use accounts::Handle;
use axum::extract::{Path, State};
use axum::Json;
use play::average::average_of;
use play::format::Control;
use play::GameKind;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::edge::{ControlName, DisplayType, GameName};
use super::error::{Always, ApiError, ErrorBody, Params, QueryErrors};
use super::App;
use store::{AccountResult, BestHistory, Shown};

/// What a profile shows: one control and one display, or every one.
/// Both are read as the records' query reads them.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ProfileQuery {
    /// Every control when absent: the results of all, and the bests kept
    /// over every control; else that control's results and bests alone.
    #[param(inline)]
    #[serde(default)]
    control: Option<ControlName>,
    /// Every display type when absent; else that display's results and
    /// bests alone.
    #[param(inline)]
    #[serde(default)]
    display: Option<DisplayType>,
}

/// How many of the latest results a profile lists.
const RECENT: usize = 20;

/// A player's results in one variant.
#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct VariantProfile {
    game: GameName,
    variant: String,
    /// Every solve in the variant, ranked or not.
    solves: usize,
    /// The ranked ones among them.
    ranked: usize,
    /// The fastest ranked solve, in milliseconds.
    best_millis: Option<i64>,
    /// The fewest moves of a ranked solve.
    best_moves: Option<i64>,
    /// Averages of the latest 5, 12 and 100 ranked times, in milliseconds:
    /// the best and worst 5% dropped (rounded up, at least one each).
    ao5: Option<f64>,
    ao12: Option<f64>,
    ao100: Option<f64>,
    /// The times of the latest 100 solves, ranked or not, oldest first:
    /// what the profile page plots.
    latest: Vec<LatestTime>,
}

/// One solve's time, for the plot.
#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct LatestTime {
    millis: i64,
    ranked: bool,
}

/// How many solves a variant's plot shows.
const PLOTTED: usize = 100;

/// One of the latest results, with the game to replay it.
#[derive(Serialize, ToSchema)]
pub struct RecentResult {
    /// Its replay is `/replay/{game_id}` (`/api/replays/{game_id}`).
    game_id: String,
    game: GameName,
    variant: String,
    millis: i64,
    moves: i64,
    ranked: bool,
    /// Why it is not ranked.
    reason: Option<String>,
    finished_at: i64,
}

/// A player's personal best in one category, with its history.
#[derive(Serialize, ToSchema)]
pub struct CategoryBest {
    game: GameName,
    variant: String,
    /// `single`, `marathon-10`, ….
    format: String,
    /// `standard`, `manhattan`, ….
    display: String,
    /// The control; null for every control.
    control: Option<String>,
    /// 1 for a single, else the number of results averaged (5, 12, 50,
    /// 100).
    of: usize,
    /// The best: a single's time or an average's mean, in milliseconds.
    millis: f64,
    /// A single's moves (STM); null for an average.
    moves: Option<i64>,
    /// A single's multi-tile moves; null for an average.
    mtm: Option<i64>,
    /// The results it is of, newest first (`/replay/{game_id}`).
    game_ids: Vec<String>,
    /// When it was set, milliseconds since the Unix epoch.
    finished_at: i64,
    /// Each improvement of the best, oldest first; the last is the best.
    history: Vec<BestPoint>,
}

/// One improvement of a personal best.
#[derive(Serialize, ToSchema)]
pub struct BestPoint {
    /// When, milliseconds since the Unix epoch.
    finished_at: i64,
    millis: f64,
    /// Whether it was also the world record then.
    world_record: bool,
}

impl From<BestHistory> for CategoryBest {
    fn from(best: BestHistory) -> CategoryBest {
        let last = best.improvements.last().cloned();
        CategoryBest {
            game: GameName(best.game),
            variant: best.variant,
            format: best.format.to_string(),
            display: best.display.to_string(),
            control: best.control.map(|c| c.to_string()),
            of: best.n,
            millis: last.as_ref().map_or(0.0, |l| l.millis),
            moves: last.as_ref().and_then(|l| l.moves),
            mtm: last.as_ref().and_then(|l| l.mtm),
            finished_at: last.as_ref().map_or(0, |l| l.finished_at),
            game_ids: last.map(|l| l.game_ids).unwrap_or_default(),
            history: best
                .improvements
                .into_iter()
                .map(|i| BestPoint {
                    finished_at: i.finished_at,
                    millis: i.millis,
                    world_record: i.world_record,
                })
                .collect(),
        }
    }
}

/// A player's public profile.
#[derive(Serialize, ToSchema)]
pub struct Profile {
    handle: String,
    /// The control shown; null for every control.
    control: Option<ControlName>,
    /// The display type shown; null for every display.
    display: Option<String>,
    /// The ISO 3166-1 alpha-2 code of the player's country, if given.
    country: Option<String>,
    /// When the account was made, in milliseconds since the Unix epoch.
    created_at: i64,
    /// Every solve, in all games and variants.
    solves: usize,
    /// By game, then variant.
    variants: Vec<VariantProfile>,
    /// The latest 20 results, newest first.
    recent: Vec<RecentResult>,
    /// The personal best in every category played (singles and each
    /// average kept), by game, variant, format, display, control and
    /// average.
    bests: Vec<CategoryBest>,
    /// The rating in each pool raced in rated races, with its history.
    ratings: Vec<super::ratings::PoolRating>,
    /// Where the player stands in the rankings: their power, power tier,
    /// rank and each core category's tier; null without a result in a
    /// core category.
    standing: Option<super::rankings::Standing>,
}

/// The statistics of one variant from its results, newest first.
fn variant_profile(game: GameKind, variant: &str, results: &[&AccountResult]) -> VariantProfile {
    let ranked: Vec<&AccountResult> = results
        .iter()
        .copied()
        .filter(|r| r.record.ranked)
        .collect();
    let times: Vec<i64> = ranked.iter().map(|r| r.record.figures.millis).collect();
    VariantProfile {
        game: GameName(game),
        variant: variant.to_string(),
        solves: results.len(),
        ranked: ranked.len(),
        best_millis: times.iter().min().copied(),
        best_moves: ranked.iter().map(|r| r.record.figures.moves).min(),
        ao5: average_of(&times, 5),
        ao12: average_of(&times, 12),
        ao100: average_of(&times, 100),
        latest: results
            .iter()
            .take(PLOTTED)
            .rev()
            .map(|r| LatestTime {
                millis: r.record.figures.millis,
                ranked: r.record.ranked,
            })
            .collect(),
    }
}

fn profile_of(handle: String, created_at: i64, results: &[AccountResult]) -> Profile {
    // By the game's name, then the variant's: `shisen` before `slide`.
    let mut by_variant: BTreeMap<(&str, &str), Vec<&AccountResult>> = BTreeMap::new();
    for r in results {
        by_variant
            .entry((r.game.name(), r.record.variant.as_str()))
            .or_default()
            .push(r);
    }
    let variants = by_variant
        .values()
        .map(|rs| variant_profile(rs[0].game, &rs[0].record.variant, rs))
        .collect();
    let recent = results
        .iter()
        .take(RECENT)
        .map(|r| RecentResult {
            game_id: r.record.game_id.clone(),
            game: GameName(r.game),
            variant: r.record.variant.clone(),
            millis: r.record.figures.millis,
            moves: r.record.figures.moves,
            ranked: r.record.ranked,
            reason: r.record.reason.clone(),
            finished_at: r.record.finished_at,
        })
        .collect();
    Profile {
        handle,
        control: None,
        display: None,
        country: None,
        bests: Vec::new(),
        ratings: Vec::new(),
        standing: None,
        created_at,
        solves: results.len(),
        variants,
        recent,
    }
}

/// A player's profile: personal bests and averages per variant, the
/// number of solves, and the latest results with their replays; of one
/// control and one display type when asked, as the records filter them.
/// 404 for a handle no enabled account has.
#[utoipa::path(get, path = "/api/users/{handle}", operation_id = "user_profile", tag = "records",
    params(("handle" = String, Path, description = "The account's handle, in any case"), ProfileQuery),
    responses((status = 200, body = Profile),
        (status = 404, description = "No account has this handle", body = ErrorBody), QueryErrors, Always))]
pub async fn profile(
    State(app): State<App>,
    Path(handle): Path<String>,
    Params(query): Params<ProfileQuery>,
) -> Result<Json<Profile>, ApiError> {
    let unknown = || ApiError::not_found("no player has this handle");
    let handle = Handle::parse(&handle).map_err(|_| unknown())?;
    let account = app
        .store
        .account_by_handle(&handle)
        .await?
        .filter(|a| !a.disabled)
        .ok_or_else(unknown)?;
    let shown = Shown {
        control: query.control.map(Control::from),
        display: query.display.map(|d| d.0),
    };
    let results = app.store.account_results(&account.id, shown).await?;
    let bests = app.store.account_bests(&account.id, shown).await?;
    let mut profile = profile_of(account.handle, account.created_at, &results);
    profile.country = account.country;
    profile.control = query.control;
    profile.display = shown.display.map(|d| d.to_string());
    profile.bests = bests.into_iter().map(CategoryBest::from).collect();
    profile.ratings =
        super::ratings::of_account(&app.store, &account.id, app.clock.now_millis()).await?;
    profile.standing = app
        .store
        .ranking_of(&account.id)
        .await?
        .map(|ranked| super::rankings::standing(app.store.tiers(), &ranked));
    Ok(Json(profile))
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::{Figures, Record};

    fn result(game_id: &str, millis: i64, moves: i64, ranked: bool) -> AccountResult {
        AccountResult {
            game: GameKind::Slide,
            record: Record {
                game_id: game_id.into(),
                name: None,
                handle: None,
                variant: "3x3-row-major".into(),
                figures: Figures {
                    moves,
                    stm: moves,
                    mtm: moves,
                    millis,
                    reading_ms: Some(0),
                    score: 0,
                    hints: 0,
                },
                ranked,
                reason: (!ranked).then(|| "too fast".into()),
                finished_at: 0,
                mine: false,
            },
            replay: String::new(),
            times: vec![],
        }
    }

    #[test]
    fn bests_and_averages_count_ranked_results_only() {
        // Newest first: a bot's 1 ms, 8 moves solve is not a best.
        let results = vec![
            result("g0", 1, 8, false),
            result("g1", 5000, 30, true),
            result("g2", 1000, 24, true),
            result("g3", 9000, 22, true),
            result("g4", 3000, 26, true),
            result("g5", 4000, 28, true),
            result("g6", 2000, 40, true),
        ];
        let profile = profile_of("Ada".into(), 0, &results);
        assert_eq!(profile.solves, 7);
        let v = &profile.variants[0];
        assert_eq!((v.solves, v.ranked), (7, 6));
        assert_eq!((v.best_millis, v.best_moves), (Some(1000), Some(22)));
        // The plot: every solve, oldest first.
        let plotted: Vec<(i64, bool)> = v.latest.iter().map(|t| (t.millis, t.ranked)).collect();
        assert_eq!(plotted[0], (2000, true));
        assert_eq!(plotted[6], (1, false));
        assert_eq!(plotted.len(), 7);
        // Latest five ranked: 5000 1000 9000 3000 4000; drop 1000 and 9000.
        assert_eq!(v.ao5, Some(4000.0));
        assert_eq!((v.ao12, v.ao100), (None, None));
        assert_eq!(profile.recent.len(), 7);
        assert_eq!(profile.recent[0].game_id, "g0");
    }
}
