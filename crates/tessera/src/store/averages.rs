//! Each account's best averages, kept as results arrive.
//!
//! A best average of `n` is a window of `n` consecutive counted results of
//! one account in one category (game, variant, format, and a control or
//! every control). Finding it by reading every result of a category grows
//! with the category; with a million results the records page would wait
//! seconds. Instead the best is kept in `best_averages`: a new result adds
//! one window (the latest `n`), read through `results_by_account_format`,
//! and replaces the kept best only when strictly better — the same window
//! [`play::average::best_window`] picks from the whole history. The records
//! page then reads ten rows of an index.
//!
//! A change to the past (a guest's results moved into an account, which
//! interleaves them with the account's own) makes the account's windows
//! new: its bests are computed again from its whole history.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{Store, Viewer};
use play::average::{average_of, best_window, AVERAGES};

/// The most results any average is taken over.
const LONGEST: i64 = 100;

/// An account's best average in a category.
#[derive(Clone, Debug)]
pub struct BestAverage {
    pub handle: String,
    pub n: usize,
    pub millis: f64,
    /// The results averaged, newest first.
    pub game_ids: Vec<String>,
    /// When the newest of them finished.
    pub finished_at: i64,
    pub mine: bool,
}

/// A category as `best_averages` keys it: `control` is '' for every
/// control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key<'a> {
    game: &'a str,
    variant: &'a str,
    format: &'a str,
    control: &'a str,
}

/// A counted result as averages see it.
struct Solve {
    game_id: String,
    millis: i64,
    finished_at: i64,
}

fn solve(row: &AnyRow) -> Solve {
    Solve {
        game_id: row.get(0),
        millis: row.get(1),
        finished_at: row.get(2),
    }
}

/// Keeps `window` (newest first) as the account's best average of
/// `window.len()` in `key` unless the best kept is as good.
async fn keep(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    key: Key<'_>,
    window: &[Solve],
    millis: f64,
) -> Result<(), sqlx::Error> {
    let ids: Vec<&str> = window.iter().map(|s| s.game_id.as_str()).collect();
    sqlx::query(
        "INSERT INTO best_averages \
         (account_id, game, variant, format, control, n, millis, game_ids, finished_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
         ON CONFLICT (account_id, game, variant, format, control, n) DO UPDATE SET \
         millis = excluded.millis, game_ids = excluded.game_ids, \
         finished_at = excluded.finished_at WHERE excluded.millis < best_averages.millis",
    )
    .bind(account)
    .bind(key.game)
    .bind(key.variant)
    .bind(key.format)
    .bind(key.control)
    .bind(window.len() as i64)
    .bind(millis)
    .bind(ids.join(" "))
    .bind(window[0].finished_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The new windows a counted result of `account` makes, in the category
/// of its control and in every control's.
pub(super) async fn note_result(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    game: &str,
    variant: &str,
    format: &str,
    control: Option<&str>,
) -> Result<(), sqlx::Error> {
    for control in std::iter::once("").chain(control) {
        let key = Key {
            game,
            variant,
            format,
            control,
        };
        let latest = latest(tx, account, key).await?;
        let millis: Vec<i64> = latest.iter().map(|s| s.millis).collect();
        for n in AVERAGES {
            if let Some(mean) = average_of(&millis, n) {
                keep(tx, account, key, &latest[..n], mean).await?;
            }
        }
    }
    Ok(())
}

/// The account's latest counted results in `key`, newest first, as many
/// as the longest average.
async fn latest(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    key: Key<'_>,
) -> Result<Vec<Solve>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT game_id, millis, finished_at FROM results \
         WHERE account_id = $1 AND game = $2 AND variant = $3 AND format = $4 \
         AND counted = 1 AND ($5 = '' OR control = $5) \
         ORDER BY finished_at DESC, game_id DESC LIMIT $6",
    )
    .bind(account)
    .bind(key.game)
    .bind(key.variant)
    .bind(key.format)
    .bind(key.control)
    .bind(LONGEST)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.iter().map(solve).collect())
}

/// Computes every best average of `account` again from its whole history.
pub(super) async fn recompute(
    tx: &mut Transaction<'static, Any>,
    account: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM best_averages WHERE account_id = $1")
        .bind(account)
        .execute(&mut **tx)
        .await?;
    let rows = sqlx::query(
        "SELECT game_id, millis, finished_at, game, variant, format, COALESCE(control, '') \
         FROM results WHERE account_id = $1 AND counted = 1 \
         ORDER BY game, variant, format, finished_at DESC, game_id DESC",
    )
    .bind(account)
    .fetch_all(&mut **tx)
    .await?;
    let category = |r: &AnyRow| -> (String, String, String) { (r.get(3), r.get(4), r.get(5)) };
    for run in rows.chunk_by(|a, b| category(a) == category(b)) {
        let (game, variant, format) = category(&run[0]);
        let mut by_control: std::collections::BTreeMap<String, Vec<Solve>> = Default::default();
        for row in run {
            let control: String = row.get(6);
            by_control
                .entry(String::new())
                .or_default()
                .push(solve(row));
            if !control.is_empty() {
                by_control.entry(control).or_default().push(solve(row));
            }
        }
        for (control, solves) in &by_control {
            let key = Key {
                game: &game,
                variant: &variant,
                format: &format,
                control,
            };
            keep_best_windows(tx, account, key, solves).await?;
        }
    }
    Ok(())
}

/// Keeps the best window of every average of `solves` (newest first).
async fn keep_best_windows(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    key: Key<'_>,
    solves: &[Solve],
) -> Result<(), sqlx::Error> {
    let millis: Vec<i64> = solves.iter().map(|s| s.millis).collect();
    for n in AVERAGES {
        if let Some((at, mean)) = best_window(&millis, n) {
            keep(tx, account, key, &solves[at..at + n], mean).await?;
        }
    }
    Ok(())
}

impl Store {
    /// The best averages of `n` in a category, best first: enabled
    /// accounts only.
    pub async fn best_averages(
        &self,
        game: &str,
        variant: &str,
        category: super::Category<'_>,
        n: usize,
        limit: i64,
        viewer: Option<Viewer<'_>>,
    ) -> Result<Vec<BestAverage>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT a.handle, b.n, b.millis, b.game_ids, b.finished_at, b.account_id \
             FROM best_averages b JOIN accounts a ON a.id = b.account_id \
             WHERE b.game = $1 AND b.variant = $2 AND b.format = $3 AND b.control = $4 \
             AND b.n = $5 AND a.disabled = 0 ORDER BY b.millis, b.finished_at LIMIT $6",
        )
        .bind(game)
        .bind(variant)
        .bind(category.format)
        .bind(category.control.unwrap_or(""))
        .bind(n as i64)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let me = viewer.and_then(|v| v.account);
        Ok(rows
            .iter()
            .map(|r| {
                let account: String = r.get(5);
                let ids: String = r.get(3);
                BestAverage {
                    handle: r.get(0),
                    n: r.get::<i64, _>(1) as usize,
                    millis: r.get(2),
                    game_ids: ids.split_whitespace().map(str::to_string).collect(),
                    finished_at: r.get(4),
                    mine: me == Some(account.as_str()),
                }
            })
            .collect())
    }

    /// Chores a migration left for the next start: the best averages of
    /// results stored before they were kept. Every account's are computed,
    /// each in its own transaction; then the chore is done. Instances that
    /// start together may both do it: each account's result is the same.
    pub(super) async fn do_chores(&self) -> Result<(), sqlx::Error> {
        let pending = sqlx::query("SELECT name FROM store_chores WHERE name = 'best_averages'")
            .fetch_optional(&self.pool)
            .await?;
        if pending.is_none() {
            return Ok(());
        }
        let accounts = sqlx::query(
            "SELECT DISTINCT account_id FROM results WHERE account_id IS NOT NULL AND counted = 1",
        )
        .fetch_all(&self.pool)
        .await?;
        for row in &accounts {
            let mut tx = self.begin().await?;
            recompute(&mut tx, &row.get::<String, _>(0)).await?;
            tx.commit().await?;
        }
        sqlx::query("DELETE FROM store_chores WHERE name = 'best_averages'")
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
