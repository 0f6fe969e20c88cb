//! The rankings: players by power over the core categories
//! (`play::power`), each with their tier and how far the next one is.
//! `GET /api/rankings`; the page at `/rankings` shows it.

// utoipa's `params(…)` expands to paths the lint calls redundant.
#![allow(unused_qualifications)]

use axum::Json;
use play::power::Tables;
use serde::Serialize;
use utoipa::ToSchema;

use super::account::Call;
use super::error::{Always, ApiError, Params, QueryErrors};
use super::paging::PageQuery;
use store::Ranked;

/// A power tier.
#[derive(Serialize, ToSchema)]
pub struct TierRow {
    /// As players call it: `Gold II`.
    name: String,
    /// The power a result in this tier brings in its category.
    power: u64,
    /// The power a player needs to be in it.
    limit: u64,
}

/// The next tier up and what it takes.
#[derive(Serialize, ToSchema)]
pub struct NextTier {
    name: String,
    /// For a player: the power still missing. For a category: the time
    /// (ms) a best needs.
    needs: u64,
}

/// A player's best in one core category.
#[derive(Serialize, ToSchema)]
pub struct CategoryStanding {
    /// As Open Slidysim names it: `4x4 ao12`.
    category: String,
    /// Milliseconds; null where the player has no result.
    millis: Option<u64>,
    /// The tier the best reaches; null without a result.
    tier: Option<String>,
    /// The next tier up in this category (null at the top).
    next: Option<NextTier>,
}

/// Where a player stands.
#[derive(Serialize, ToSchema)]
pub struct Standing {
    /// 1 for the strongest.
    rank: i64,
    handle: String,
    /// ISO 3166-1 alpha-2, if the player gave one.
    country: Option<String>,
    /// The sum of the powers of their tiers in the core categories.
    power: u64,
    /// Their power tier.
    tier: String,
    /// The next power tier up (null at the top). Reaching it also takes a
    /// result in that tier or above.
    next: Option<NextTier>,
    /// Their best and its tier in each core category, in the tables'
    /// order.
    categories: Vec<CategoryStanding>,
}

/// The rankings page's data.
#[derive(Serialize, ToSchema)]
pub struct Rankings {
    /// Where the tier tables come from.
    source: String,
    /// The power tiers, lowest first.
    tiers: Vec<TierRow>,
    /// From `offset`: by power tier, then power, then who reached it
    /// first.
    players: Vec<Standing>,
    /// The asking player's own standing: null for a guest or an account
    /// with no result in a core category.
    me: Option<Standing>,
}

/// Players ranked by power over the 30 core categories.
#[utoipa::path(get, path = "/api/rankings", tag = "records", params(PageQuery),
    responses((status = 200, body = Rankings), QueryErrors, Always))]
pub async fn rankings(call: Call<Params<PageQuery>>) -> Result<Json<Rankings>, ApiError> {
    let Call(app, _, visitor, Params(query)) = call;
    let offset = query.offset.map_or(0, |o| o.0);
    let limit = query.limit.map_or(50, |l| l.0);
    let store = &app.store;
    let tables = store.tiers();
    let players = store.rankings(i64::from(offset), i64::from(limit)).await?;
    let me = match visitor.account() {
        Some(account) => store.ranking_of(&account.id).await?,
        None => None,
    };
    Ok(Json(Rankings {
        source: tables.source().to_string(),
        tiers: tables
            .power_tiers()
            .iter()
            .map(|t| TierRow {
                name: t.name.clone(),
                power: t.power,
                limit: t.limit,
            })
            .collect(),
        players: players.iter().map(|p| standing(tables, p)).collect(),
        me: me.as_ref().map(|p| standing(tables, p)),
    }))
}

/// A ranked player's standing under `tables`: the rankings' and a
/// profile's.
pub(crate) fn standing(tables: &Tables, ranked: &Ranked) -> Standing {
    let tiers = tables.power_tiers();
    let next = tiers.get(ranked.tier + 1).map(|up| NextTier {
        name: up.name.clone(),
        needs: up.limit.saturating_sub(ranked.power),
    });
    let categories = tables
        .categories()
        .iter()
        .zip(&ranked.bests)
        .enumerate()
        .map(|(index, (category, best))| {
            let tier = best.map(|ms| tables.tier_of(index, ms));
            let up = tier.map_or(1, |t| t + 1);
            CategoryStanding {
                category: category.to_string(),
                millis: *best,
                tier: tier.map(|t| tiers[t].name.clone()),
                next: tiers.get(up).map(|t| NextTier {
                    name: t.name.clone(),
                    needs: t.time_ms(index),
                }),
            }
        })
        .collect();
    Standing {
        rank: ranked.rank,
        handle: ranked.handle.clone(),
        country: ranked.country.clone(),
        power: ranked.power,
        tier: tiers[ranked.tier].name.clone(),
        next,
        categories,
    }
}
