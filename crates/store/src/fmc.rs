//! The daily fewest-moves challenge (`play::fmc`): each account's entry
//! per day and board, and each closed day's optimum, kept once.

use play::fmc::{Entry, FmcSize, Optimum};
use slide::Moves;
use sqlx::any::AnyRow;

use super::{column, flag_at, parsed, read_rows, Error, Store};

/// An entry as kept, with its account's handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FmcEntry {
    /// The entrant's account.
    pub account_id: String,
    /// The account's handle.
    pub handle: String,
    /// The moves submitted.
    pub moves: Moves,
    /// Single-tile moves (STM).
    pub stm: i64,
    /// Multi-tile moves (MTM).
    pub mtm: i64,
    /// When it was submitted (Unix milliseconds).
    pub submitted_at: i64,
}

const ENTRY_COLUMNS: &str = "e.account_id, a.handle, e.moves, e.stm, e.mtm, e.submitted_at";

fn entry(r: &AnyRow) -> Result<FmcEntry, sqlx::Error> {
    Ok(FmcEntry {
        account_id: column(r, "account_id")?,
        handle: column(r, "handle")?,
        moves: parsed(r, "moves", "moves")?,
        stm: column(r, "stm")?,
        mtm: column(r, "mtm")?,
        submitted_at: column(r, "submitted_at")?,
    })
}

fn optimum(r: &AnyRow) -> Result<Optimum, sqlx::Error> {
    let stm: i64 = column(r, "stm")?;
    let mtm: i64 = column(r, "mtm")?;
    Ok(Optimum {
        moves: parsed(r, "moves", "moves")?,
        stm: stm as usize,
        mtm: mtm as usize,
        proven: flag_at(r, "proven")?,
    })
}

impl Store {
    /// Keeps `entry` as the account's entry for `day` on `size`; false
    /// (and nothing written) when it has one already, on any instance.
    pub async fn enter_fmc(
        &self,
        day: &str,
        size: FmcSize,
        account_id: &str,
        entry: &Entry,
        now: i64,
    ) -> Result<bool, Error> {
        let written = sqlx::query(
            "INSERT INTO fmc_entries (day, size, account_id, moves, stm, mtm, submitted_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (day, size, account_id) DO NOTHING",
        )
        .bind(day)
        .bind(size.name())
        .bind(account_id)
        .bind(entry.moves.compact())
        .bind(entry.stm as i64)
        .bind(entry.mtm as i64)
        .bind(now)
        .execute(&self.pool)
        .await;
        Ok(self.noted(written)?.rows_affected() == 1)
    }

    /// The entries for `day` on `size` of the accounts not disabled, in
    /// the order they were sent (the ranking is `play::fmc::ranking`'s).
    pub async fn fmc_entries(&self, day: &str, size: FmcSize) -> Result<Vec<FmcEntry>, Error> {
        let sql = format!(
            "SELECT {ENTRY_COLUMNS} FROM fmc_entries e JOIN accounts a ON a.id = e.account_id \
             WHERE e.day = $1 AND e.size = $2 AND a.disabled = 0 \
             ORDER BY e.submitted_at, e.account_id"
        );
        let rows = sqlx::query(&sql)
            .bind(day)
            .bind(size.name())
            .fetch_all(&self.pool)
            .await?;
        read_rows(&rows, entry)
    }

    /// The number of entries for `day` on `size` (of accounts not disabled).
    pub async fn fmc_count(&self, day: &str, size: FmcSize) -> Result<i64, Error> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM fmc_entries e JOIN accounts a ON a.id = e.account_id \
             WHERE e.day = $1 AND e.size = $2 AND a.disabled = 0",
        )
        .bind(day)
        .bind(size.name())
        .fetch_one(&self.pool)
        .await?)
    }

    /// The account's entry for `day` on `size`, if any.
    pub async fn fmc_entry(
        &self,
        day: &str,
        size: FmcSize,
        account_id: &str,
    ) -> Result<Option<FmcEntry>, Error> {
        let sql = format!(
            "SELECT {ENTRY_COLUMNS} FROM fmc_entries e JOIN accounts a ON a.id = e.account_id \
             WHERE e.day = $1 AND e.size = $2 AND e.account_id = $3"
        );
        let row = sqlx::query(&sql)
            .bind(day)
            .bind(size.name())
            .bind(account_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(entry).transpose()?)
    }

    /// The optimum kept for `day` on `size`, if it was found yet.
    pub async fn fmc_optimum(&self, day: &str, size: FmcSize) -> Result<Option<Optimum>, Error> {
        let row = sqlx::query(
            "SELECT moves, stm, mtm, proven FROM fmc_optima WHERE day = $1 AND size = $2",
        )
        .bind(day)
        .bind(size.name())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(optimum).transpose()?)
    }

    /// Keeps `found` as the optimum of `day` on `size` unless one is kept
    /// already, and returns the one kept: instances that found it at the
    /// same time all answer with the first written.
    pub async fn keep_fmc_optimum(
        &self,
        day: &str,
        size: FmcSize,
        found: &Optimum,
    ) -> Result<Optimum, Error> {
        let written = sqlx::query(
            "INSERT INTO fmc_optima (day, size, moves, stm, mtm, proven) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (day, size) DO NOTHING",
        )
        .bind(day)
        .bind(size.name())
        .bind(found.moves.compact())
        .bind(found.stm as i64)
        .bind(found.mtm as i64)
        .bind(i64::from(found.proven))
        .execute(&self.pool)
        .await;
        self.noted(written)?;
        self.fmc_optimum(day, size)
            .await?
            .ok_or_else(|| sqlx::Error::RowNotFound.into())
    }
}
