//! Ratings as players read them: each pool's rating on a profile
//! (`GET /api/users/{handle}`, with its history for the plot), and a
//! pool's leaderboard of settled ratings, `GET /api/ratings/{pool}`
//! (`docs/ratings.md`).

// utoipa's `params(…)` expands to paths the lint calls redundant.
#![allow(unused_qualifications)]

use axum::extract::{Path, State};
use axum::Json;
use play::rating::Pool;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{Always, ApiError, ErrorBody, Params};
use super::paging::PageQuery;
use super::App;
use store::Store;

/// A rating pool, as named in paths: the races rated together.
#[derive(Clone, Copy, Deserialize, ToSchema)]
pub enum PoolName {
    /// The 3×3 sliding puzzle to row-major order.
    #[serde(rename = "slide-3x3")]
    Slide3x3,
    /// The 4×4 sliding puzzle to row-major order.
    #[serde(rename = "slide-4x4")]
    Slide4x4,
    /// The 5×5 sliding puzzle to row-major order.
    #[serde(rename = "slide-5x5")]
    Slide5x5,
    /// Classic Shisen-Sho, 18×8.
    #[serde(rename = "shisen-18x8")]
    Shisen18x8,
}

/// A player's rating in one pool.
#[derive(Serialize, ToSchema)]
pub struct PoolRating {
    /// `slide-3x3`, `slide-4x4`, `slide-5x5` or `shisen-18x8`.
    #[schema(example = "slide-3x3")]
    pool: &'static str,
    /// The Glicko-2 rating (1500 to start).
    #[schema(example = 1662.31)]
    rating: f64,
    /// Its deviation: the rating is within about twice this of the
    /// player's strength (500 to start).
    #[schema(example = 290.32)]
    rd: f64,
    /// Still provisional (RD 110 or more): shown with a `?` and left off
    /// the leaderboard.
    provisional: bool,
    /// Rated races played in the pool.
    games: i64,
    /// The rating after each rated race, oldest first: what the profile
    /// plots.
    history: Vec<RatingPoint>,
}

/// The rating after one rated race.
#[derive(Serialize, ToSchema)]
pub struct RatingPoint {
    /// When the race was settled, milliseconds since the Unix epoch.
    at: i64,
    rating: f64,
    rd: f64,
    /// The rating before the race.
    before: f64,
}

/// The account's rating in every pool it has raced in, as of `now`, with
/// its history.
pub(super) async fn of_account(
    store: &Store,
    account: &str,
    now: i64,
) -> Result<Vec<PoolRating>, ApiError> {
    let mut ratings = Vec::new();
    for rated in store.ratings_of(account, now).await? {
        let history = store.rating_history(account, rated.pool).await?;
        ratings.push(PoolRating {
            pool: rated.pool.name(),
            rating: rated.rating.rating,
            rd: rated.rating.rd,
            provisional: rated.provisional,
            games: rated.games,
            history: history
                .into_iter()
                .map(|p| RatingPoint {
                    at: p.at,
                    rating: p.rating,
                    rd: p.rd,
                    before: p.before,
                })
                .collect(),
        });
    }
    Ok(ratings)
}

/// A line of a leaderboard.
#[derive(Serialize, ToSchema)]
pub struct RatedPlayer {
    /// 1 for the highest.
    rank: i64,
    #[schema(example = "Ada_L")]
    handle: String,
    #[schema(example = 2104.7)]
    rating: f64,
    #[schema(example = 61.2)]
    rd: f64,
    /// Rated races played in the pool.
    games: i64,
}

/// A pool's leaderboard.
#[derive(Serialize, ToSchema)]
pub struct Leaderboard {
    #[schema(example = "slide-4x4")]
    pool: &'static str,
    /// From `offset`, highest rating first; provisional ratings are not
    /// listed.
    players: Vec<RatedPlayer>,
}

/// The highest ratings of a pool that are no longer provisional (RD below
/// 110).
#[utoipa::path(get, path = "/api/ratings/{pool}", operation_id = "rating_leaderboard", tag = "records",
    params(("pool" = inline(PoolName), Path, description = "The rating pool"), PageQuery),
    responses((status = 200, body = Leaderboard),
        (status = 400, description = "Not a rating pool, or a bad offset or limit", body = ErrorBody),
        Always))]
pub async fn leaderboard(
    State(app): State<App>,
    Path(pool): Path<String>,
    Params(query): Params<PageQuery>,
) -> Result<Json<Leaderboard>, ApiError> {
    let pool: Pool = pool.parse().map_err(ApiError::bad)?;
    let offset = query.offset.map_or(0, |o| o.0);
    let limit = query.limit.map_or(50, |l| l.0);
    let players = app
        .store
        .top_ratings(
            pool,
            i64::from(offset),
            i64::from(limit),
            app.clock.now_millis(),
        )
        .await?;
    Ok(Json(Leaderboard {
        pool: pool.name(),
        players: players
            .into_iter()
            .map(|p| RatedPlayer {
                rank: p.rank,
                handle: p.handle,
                rating: p.rating.rating,
                rd: p.rating.rd,
                games: p.games,
            })
            .collect(),
    }))
}
