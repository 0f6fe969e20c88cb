//! Tiers and power: where a speedsolver stands against the record and
//! against the field, as Open Slidysim ranks its players.
//!
//! Both measures come from tables that players know and argue about, so
//! they are data, not code: `data/power-tiers.json`, whose `source` names
//! where they come from. An operator loads newer ones without a release
//! ([`Tables::parse`]; `tessera serve --tiers FILE`), or Open Slidysim's
//! classic ones, Beginner to Gamma over its classic categories, which
//! tessera ships too (`data/power-tiers-gamma.json`; [`Tables::named`],
//! `--tiers gamma`).
//!
//! - A result's **percentage tier** ([`Tables::percent_tier`]): the
//!   record over the result, as a percentage ([`percent_of_record`]),
//!   named by the first threshold it reaches (alpha from 90 % … kappa
//!   from 0 %).
//! - A player's **power** ([`Tables::standing`]): in each of the core
//!   categories ([`CoreCategory`]), the highest tier whose time the
//!   player's best reaches gives that tier's power, and the powers add
//!   up. The player's **power tier** is the highest tier whose limit the
//!   sum reaches, but never above the best tier of any one of their
//!   results: power gathered from many middling results does not make a
//!   Master of a player with no Master result.

mod category;
mod tables;
#[cfg(test)]
mod tests;

pub use category::{CategoryError, CategoryKind, CoreCategory};
pub use tables::{PercentTier, PowerTier, Tables, TablesError, BUILT_IN_TABLES};

/// Where a player stands by power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The sum of the powers of the player's tier in each core category.
    pub power: u64,
    /// The player's power tier, an index into [`Tables::power_tiers`]
    /// (0, the lowest, when they have no results).
    pub tier: usize,
    /// The tier of the player's best in each core category, in the order
    /// of [`Tables::categories`]; `None` where they have no result.
    pub by_category: Vec<Option<usize>>,
}

/// The record as a percentage of a result: 100 for the record itself,
/// 50 for a result twice as slow. Times are in milliseconds; a time of
/// (near) zero is the record by definition, as Open Slidysim counts it.
pub fn percent_of_record(record: f64, result: f64) -> f64 {
    if result < 0.001 {
        100.0
    } else {
        record / result * 100.0
    }
}
