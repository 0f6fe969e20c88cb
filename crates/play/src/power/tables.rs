//! The tier tables: read from JSON, checked once, then only looked up.

use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::category::{CategoryError, CoreCategory};
use super::Standing;

/// The tables tessera ships: Open Slidysim's (the file's `source`).
const BUILT_IN: &str = include_str!("../../data/power-tiers.json");

/// Open Slidysim's classic tables, Beginner to Gamma, over its classic
/// core categories (the file's `source`).
const GAMMA: &str = include_str!("../../data/power-tiers-gamma.json");

/// The tables tessera ships, by the name an operator chooses them by:
/// Open Slidysim's current ones (the default) and its classic ones.
pub const BUILT_IN_TABLES: [(&str, &str); 2] = [("current", BUILT_IN), ("gamma", GAMMA)];

/// A power tier: its name, the power a result in it brings, the power a
/// player needs to reach it, and the time (ms) a result needs in each core
/// category.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowerTier {
    /// As players call it: `Gold II`.
    pub name: String,
    /// The power a result in this tier brings.
    pub power: u64,
    /// The power a player needs for this tier.
    pub limit: u64,
    times_ms: Vec<u64>,
}

impl PowerTier {
    /// The slowest time (ms) that reaches this tier in core category
    /// `index`.
    pub fn time_ms(&self, index: usize) -> u64 {
        self.times_ms[index]
    }
}

/// A percentage tier: its name and the least percentage of the record a
/// result needs for it.
#[derive(Clone, Debug, PartialEq)]
pub struct PercentTier {
    /// As players call it: `alpha`.
    pub name: String,
    /// The least percentage of the record it takes.
    pub at_least: f64,
}

/// The tier tables, checked: every table the same width as the list of
/// categories, tiers in rising order.
#[derive(Clone, Debug)]
pub struct Tables {
    source: String,
    categories: Vec<CoreCategory>,
    power_tiers: Vec<PowerTier>,
    percent_tiers: Vec<PercentTier>,
    digest: String,
}

/// Why a text is not a set of tier tables; each names the place.
#[derive(Debug, thiserror::Error)]
pub enum TablesError {
    /// Not JSON of the expected shape.
    #[error("not tier tables: {0}")]
    Json(#[from] serde_json::Error),
    /// A category that is not one.
    #[error("categories[{0}]: {1}")]
    Category(usize, CategoryError),
    /// A category listed twice.
    #[error("categories: {0} is listed twice")]
    Twice(String),
    /// No lowest tier, reached with no power.
    #[error("power_tiers: at least one tier is needed, the first with limit 0")]
    NoFloor,
    /// A tier without one time per category.
    #[error("power_tiers[{0}] ({1}): {2} times given, one per category ({3}) expected")]
    Width(usize, String, usize, usize),
    /// A tier asking less power or giving less than the one below.
    #[error("power_tiers[{0}] ({1}): power and limit must not fall below the tier before")]
    Falling(usize, String),
    /// A tier asking a slower time than the one below.
    #[error("power_tiers[{0}] ({1}): the time for {2} is slower than the tier below asks")]
    Slower(usize, String, String),
    /// Percentage thresholds out of order, or not ending at 0.
    #[error("percent_tiers: thresholds must fall from the first tier to the last, which is 0")]
    Percentages,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTables {
    source: String,
    categories: Vec<String>,
    power_tiers: Vec<RawPowerTier>,
    percent_tiers: Vec<RawPercentTier>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPowerTier {
    name: String,
    power: u64,
    limit: u64,
    times_ms: Vec<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPercentTier {
    name: String,
    at_least: f64,
}

impl Tables {
    /// The tables tessera ships with.
    pub fn built_in() -> Tables {
        Tables::parse(BUILT_IN).expect("the built-in tier tables are checked by a test")
    }

    /// The built-in tables called `name` ([`BUILT_IN_TABLES`]): `current`
    /// or `gamma`.
    pub fn named(name: &str) -> Option<Tables> {
        BUILT_IN_TABLES
            .iter()
            .find(|(called, _)| *called == name)
            .map(|(_, text)| {
                Tables::parse(text).expect("the built-in tier tables are checked by a test")
            })
    }

    /// Tables from JSON in the shape of `data/power-tiers.json`.
    pub fn parse(text: &str) -> Result<Tables, TablesError> {
        let raw: RawTables = serde_json::from_str(text)?;
        let categories = categories(&raw.categories)?;
        let power_tiers = power_tiers(raw.power_tiers, &categories)?;
        let percent_tiers = percent_tiers(raw.percent_tiers)?;
        Ok(Tables {
            source: raw.source,
            categories,
            power_tiers,
            percent_tiers,
            digest: hex(&Sha256::digest(text.as_bytes())),
        })
    }

    /// Where the tables come from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The core categories, in the tables' order.
    pub fn categories(&self) -> &[CoreCategory] {
        &self.categories
    }

    /// The power tiers, lowest first.
    pub fn power_tiers(&self) -> &[PowerTier] {
        &self.power_tiers
    }

    /// The percentage tiers, highest first.
    pub fn percent_tiers(&self) -> &[PercentTier] {
        &self.percent_tiers
    }

    /// A digest of the text the tables were read from: powers kept from
    /// other tables must be computed again.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// The tier of a result at `percent` of the record.
    pub fn percent_tier(&self, percent: f64) -> &PercentTier {
        self.percent_tiers
            .iter()
            .find(|tier| percent >= tier.at_least)
            .unwrap_or_else(|| self.percent_tiers.last().expect("checked non-empty"))
    }

    /// The power tier a time (ms) reaches in core category `index`.
    pub fn tier_of(&self, index: usize, time_ms: u64) -> usize {
        (0..self.power_tiers.len())
            .rev()
            .find(|&tier| time_ms <= self.power_tiers[tier].times_ms[index])
            .unwrap_or(0)
    }

    /// Where a player stands, from their best time (ms) in each core
    /// category (`None` where they have none), in the order of
    /// [`Tables::categories`].
    pub fn standing(&self, bests: &[Option<u64>]) -> Standing {
        assert_eq!(bests.len(), self.categories.len(), "one best per category");
        let by_category: Vec<Option<usize>> = bests
            .iter()
            .enumerate()
            .map(|(index, best)| best.map(|time| self.tier_of(index, time)))
            .collect();
        let power = by_category
            .iter()
            .flatten()
            .map(|&tier| self.power_tiers[tier].power)
            .sum();
        let by_power = (0..self.power_tiers.len())
            .rev()
            .find(|&tier| power >= self.power_tiers[tier].limit)
            .unwrap_or(0);
        // Never above the best single result's tier.
        let best_result = by_category.iter().flatten().copied().max().unwrap_or(0);
        Standing {
            power,
            tier: by_power.min(best_result),
            by_category,
        }
    }
}

fn categories(names: &[String]) -> Result<Vec<CoreCategory>, TablesError> {
    let mut categories: Vec<CoreCategory> = Vec::with_capacity(names.len());
    for (index, name) in names.iter().enumerate() {
        let category: CoreCategory = name.parse().map_err(|e| TablesError::Category(index, e))?;
        if categories.contains(&category) {
            return Err(TablesError::Twice(name.clone()));
        }
        categories.push(category);
    }
    Ok(categories)
}

fn power_tiers(
    raw: Vec<RawPowerTier>,
    categories: &[CoreCategory],
) -> Result<Vec<PowerTier>, TablesError> {
    if raw.first().is_none_or(|floor| floor.limit != 0) {
        return Err(TablesError::NoFloor);
    }
    let mut tiers: Vec<PowerTier> = Vec::with_capacity(raw.len());
    for (index, tier) in raw.into_iter().enumerate() {
        if tier.times_ms.len() != categories.len() {
            let given = tier.times_ms.len();
            return Err(TablesError::Width(
                index,
                tier.name,
                given,
                categories.len(),
            ));
        }
        if let Some(below) = tiers.last() {
            if tier.power < below.power || tier.limit < below.limit {
                return Err(TablesError::Falling(index, tier.name));
            }
            let slower = (0..categories.len()).find(|&c| tier.times_ms[c] > below.times_ms[c]);
            if let Some(c) = slower {
                return Err(TablesError::Slower(
                    index,
                    tier.name,
                    categories[c].to_string(),
                ));
            }
        }
        tiers.push(PowerTier {
            name: tier.name,
            power: tier.power,
            limit: tier.limit,
            times_ms: tier.times_ms,
        });
    }
    Ok(tiers)
}

fn percent_tiers(raw: Vec<RawPercentTier>) -> Result<Vec<PercentTier>, TablesError> {
    let falling = raw.windows(2).all(|w| w[0].at_least > w[1].at_least);
    if !falling || raw.last().is_none_or(|last| last.at_least != 0.0) {
        return Err(TablesError::Percentages);
    }
    Ok(raw
        .into_iter()
        .map(|tier| PercentTier {
            name: tier.name,
            at_least: tier.at_least,
        })
        .collect())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
