//! Each account's power over the core categories ([`play::power`]), kept
//! as its bests change.
//!
//! Power sums the tiers of an account's bests in thirty categories, so
//! ranking every account by it on each visit would read thirty bests per
//! account. Instead a result that changes a best in a core category
//! computes that account's standing again (thirty rows, read by the
//! account's key) and keeps it in `powers`, whose index is the rankings'
//! order. The bests come from where records keep them: singles, marathons
//! and relays from `personal_bests`, averages from `best_averages`, both
//! for every control and the standard display, as Open Slidysim ranks.

use std::collections::HashMap;

use play::display::Display;
use play::format::Format;
use play::power::Tables;
use play::GameKind;
use sqlx::{Any, Transaction};

use super::columns::{control_key, kept_at, Kept};
use super::{column, Error, Store};

/// An account's place in the rankings.
#[derive(Clone, Debug)]
pub struct Ranked {
    /// 1 for the strongest.
    pub rank: i64,
    /// The account's handle.
    pub handle: String,
    /// The account's country (ISO 3166-1 alpha-2), if given.
    pub country: Option<String>,
    /// Its power over the core categories.
    pub power: u64,
    /// An index into the tables' power tiers.
    pub tier: usize,
    /// The best time (ms) in each core category, in the tables' order.
    pub bests: Vec<Option<u64>>,
}

/// Whether a result in `variant` and `format` (shown in `display`) can
/// change a standing.
pub(super) fn counts(
    tables: &Tables,
    game: GameKind,
    variant: &str,
    format: Format,
    display: Display,
) -> bool {
    game == GameKind::Slide
        && display == Display::Standard
        && tables
            .categories()
            .iter()
            .any(|c| c.variant() == variant && c.format() == format)
}

/// An account's core bests as they are stored: singles (and marathons
/// and relays) by variant and format, averages by variant and length.
struct Stored {
    singles: HashMap<(String, Format), (u64, i64)>,
    averages: HashMap<(String, i64), (u64, i64)>,
}

/// The account's bests for every control in the standard display: a
/// single's, a marathon's or a relay's time, or an average's rounded up
/// (a tier is never credited for less than its time).
async fn stored(tx: &mut Transaction<'static, Any>, account: &str) -> Result<Stored, sqlx::Error> {
    let (slide, standard) = (GameKind::Slide.kept(), Display::Standard.kept());
    let singles = sqlx::query(
        "SELECT variant, format, millis, finished_at FROM personal_bests WHERE account_id = $1 \
         AND game = $2 AND display = $3 AND control = $4",
    )
    .bind(account)
    .bind(&slide)
    .bind(&standard)
    .bind(control_key(None))
    .fetch_all(&mut **tx)
    .await?;
    let averages = sqlx::query(
        "SELECT variant, n, millis, finished_at FROM best_averages WHERE account_id = $1 \
         AND game = $2 AND format = $3 AND display = $4 AND control = $5",
    )
    .bind(account)
    .bind(&slide)
    .bind(Format::Single.kept())
    .bind(&standard)
    .bind(control_key(None))
    .fetch_all(&mut **tx)
    .await?;
    let mut stored = Stored {
        singles: HashMap::new(),
        averages: HashMap::new(),
    };
    for row in &singles {
        let millis: i64 = column(row, "millis")?;
        let key = (column(row, "variant")?, kept_at(row, "format")?);
        let at: i64 = column(row, "finished_at")?;
        stored.singles.insert(key, (millis.max(0) as u64, at));
    }
    for row in &averages {
        let millis: f64 = column(row, "millis")?;
        let key = (column(row, "variant")?, column(row, "n")?);
        let at: i64 = column(row, "finished_at")?;
        stored
            .averages
            .insert(key, (millis.max(0.0).ceil() as u64, at));
    }
    Ok(stored)
}

/// The best in each core category, in the tables' order, with when it
/// was set.
fn core_bests(tables: &Tables, stored: &Stored) -> Vec<Option<(u64, i64)>> {
    tables
        .categories()
        .iter()
        .map(|c| match c.average() {
            Some(n) => stored.averages.get(&(c.variant(), n as i64)).copied(),
            None => stored.singles.get(&(c.variant(), c.format())).copied(),
        })
        .collect()
}

/// `bests` as `powers` keeps them.
fn bests_text(bests: &[Option<u64>]) -> String {
    bests
        .iter()
        .map(|b| b.map_or_else(|| "-".to_string(), |ms| ms.to_string()))
        .collect::<Vec<_>>()
        .join(",")
}

/// `bests` from `powers`; a damaged entry is an error naming the column.
fn parse_bests(text: &str, categories: usize) -> Result<Vec<Option<u64>>, sqlx::Error> {
    let bests: Result<Vec<Option<u64>>, _> = text
        .split(',')
        .map(|b| {
            if b == "-" {
                Ok(None)
            } else {
                b.parse().map(Some)
            }
        })
        .collect();
    match bests {
        Ok(bests) if bests.len() == categories => Ok(bests),
        _ => Err(super::bad_column(
            "bests",
            format!("{text:?} is not a best per category"),
        )),
    }
}

/// Drops a deleted account's standing.
pub(crate) async fn forget(
    tx: &mut Transaction<'static, Any>,
    account: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM powers WHERE account_id = $1")
        .bind(account)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Computes the account's standing again and keeps it. A new power is
/// reached when the latest of the bests behind it was set.
pub(super) async fn note(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    tables: &Tables,
) -> Result<(), sqlx::Error> {
    let timed = core_bests(tables, &stored(tx, account).await?);
    let reached_at = timed.iter().flatten().map(|&(_, at)| at).max().unwrap_or(0);
    let bests: Vec<Option<u64>> = timed.iter().map(|b| b.map(|(ms, _)| ms)).collect();
    if bests.iter().all(Option::is_none) {
        sqlx::query("DELETE FROM powers WHERE account_id = $1")
            .bind(account)
            .execute(&mut **tx)
            .await?;
        return Ok(());
    }
    let standing = tables.standing(&bests);
    sqlx::query(
        "INSERT INTO powers (account_id, power, tier, bests, tables, reached_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account_id) DO UPDATE SET \
         reached_at = CASE WHEN powers.power = excluded.power AND powers.tier = excluded.tier \
                      THEN powers.reached_at ELSE excluded.reached_at END, \
         power = excluded.power, tier = excluded.tier, bests = excluded.bests, \
         tables = excluded.tables",
    )
    .bind(account)
    .bind(standing.power as i64)
    .bind(standing.tier as i64)
    .bind(bests_text(&bests))
    .bind(tables.digest())
    .bind(reached_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// The rankings from `offset`, at most `limit` accounts: by power
    /// tier, then power, then who reached it first.
    pub async fn rankings(&self, offset: i64, limit: i64) -> Result<Vec<Ranked>, Error> {
        let rows = sqlx::query(
            "SELECT a.handle, a.country, p.power, p.tier, p.bests FROM powers p \
             JOIN accounts a ON a.id = p.account_id WHERE a.disabled = 0 \
             ORDER BY p.tier DESC, p.power DESC, p.reached_at, a.handle LIMIT $1 OFFSET $2",
        )
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .zip(offset + 1..)
            .map(|(row, rank)| self.ranked(row, rank))
            .collect::<Result<_, _>>()?)
    }

    /// The account's place in the rankings, if it has a power.
    pub async fn ranking_of(&self, account: &str) -> Result<Option<Ranked>, Error> {
        let row = sqlx::query(
            "SELECT a.handle, a.country, p.power, p.tier, p.bests, p.reached_at, \
             (SELECT COUNT(*) FROM powers q JOIN accounts b ON b.id = q.account_id \
              WHERE b.disabled = 0 AND (q.tier > p.tier OR (q.tier = p.tier AND \
              (q.power > p.power OR (q.power = p.power AND (q.reached_at < p.reached_at \
              OR (q.reached_at = p.reached_at AND b.handle < a.handle))))))) AS above \
             FROM powers p JOIN accounts a ON a.id = p.account_id \
             WHERE p.account_id = $1 AND a.disabled = 0",
        )
        .bind(account)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            let above: i64 = column(&row, "above")?;
            Ok(self.ranked(&row, above + 1)?)
        })
        .transpose()
    }

    fn ranked(&self, row: &sqlx::any::AnyRow, rank: i64) -> Result<Ranked, sqlx::Error> {
        let power: i64 = column(row, "power")?;
        let tier: i64 = column(row, "tier")?;
        let bests: String = column(row, "bests")?;
        Ok(Ranked {
            rank,
            handle: column(row, "handle")?,
            country: column(row, "country")?,
            power: power.max(0) as u64,
            tier: (tier.max(0) as usize).min(self.tiers.power_tiers().len() - 1),
            bests: parse_bests(&bests, self.tiers.categories().len())?,
        })
    }

    /// The tier tables standings are computed with.
    pub fn tiers(&self) -> &Tables {
        &self.tiers
    }

    /// The store, computing standings with `tables` from now on: every
    /// standing kept from other tables is computed again now.
    pub async fn with_tiers(mut self, tables: Tables) -> Result<Store, Error> {
        self.tiers = std::sync::Arc::new(tables);
        self.compute_powers(false).await?;
        Ok(self)
    }

    /// The chore a migration left (every account's standing computed from
    /// its bests), else any standing kept from other tables than these.
    pub(super) async fn powers_chore(&self) -> Result<(), sqlx::Error> {
        let pending = sqlx::query("SELECT name FROM store_chores WHERE name = 'powers'")
            .fetch_optional(&self.pool)
            .await?;
        self.compute_powers(pending.is_some()).await?;
        if pending.is_some() {
            sqlx::query("DELETE FROM store_chores WHERE name = 'powers'")
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Computes standings again: every account's with core bests when
    /// `all` (a migration's chore), else those kept from other tables.
    /// Each account in its own transaction; instances that start together
    /// may both do it, with the same result.
    pub(super) async fn compute_powers(&self, all: bool) -> Result<(), sqlx::Error> {
        let accounts = if all {
            sqlx::query(
                "SELECT account_id FROM personal_bests WHERE game = $1 \
                 UNION SELECT account_id FROM best_averages WHERE game = $1",
            )
            .bind(GameKind::Slide.kept())
            .fetch_all(&self.pool)
            .await?
        } else {
            sqlx::query("SELECT account_id FROM powers WHERE tables <> $1")
                .bind(self.tiers.digest())
                .fetch_all(&self.pool)
                .await?
        };
        self.each_account(&accounts, |store, account| async move {
            let mut tx = store.begin().await?;
            note(&mut tx, &account, &store.tiers).await?;
            tx.commit().await
        })
        .await
    }
}

#[cfg(test)]
mod tests;
