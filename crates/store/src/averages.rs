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
//! An attempt is a counted result, at the time it finished, or a DNF: a
//! game the account was dealt and left unfinished while it finished a
//! game of the same game, variant and format dealt after it, at the time
//! it was dealt. (A game finished after a later one was counted as a DNF
//! changes the past: the account's bests are computed again.) A DNF has no
//! control, so it counts in every control's category. A window that ends
//! at a DNF is never better than the window before it (it swaps that
//! window's oldest result for the worst attempt there is), so averages
//! are only taken when a result arrives.
//!
//! A change to the past (a guest's results moved into an account, which
//! interleaves them with the account's own) makes the account's windows
//! new: its bests are computed again from its whole history.

use std::collections::BTreeMap;

use play::display::Display;
use play::format::Control;
use play::GameKind;
use sqlx::any::AnyRow;
use sqlx::{Any, Transaction};

use super::columns::{control_key, Kept};

use super::bests::{self, Improvement};
use super::kept::{self, AverageRow, HistoryRow};
use super::Key;
use super::{column, read_rows, Error, Store, Viewer};
use play::average::{average_by, improvements_by, Attempt, Average, DnfRule, AVERAGES};
use play::format::Format;

/// The most results any average is taken over.
const LONGEST: i64 = 100;

/// An account's best average in a category.
#[derive(Clone, Debug)]
pub struct BestAverage {
    /// The account's handle.
    pub handle: String,
    /// How many results are averaged.
    pub n: usize,
    /// The mean, in milliseconds.
    pub millis: f64,
    /// The results averaged, newest first.
    pub game_ids: Vec<String>,
    /// When the newest of them finished.
    pub finished_at: i64,
    /// Whether it is the asking account's own.
    pub mine: bool,
}

/// What a DNF does to the averages of the format named `format` (a name
/// no longer read counts DNFs as the worst, as every format but
/// blindfold does).
fn dnf_rule(format: &str) -> DnfRule {
    format
        .parse::<Format>()
        .map_or(DnfRule::Worst, Format::dnf_rule)
}

/// An attempt as averages see it: the game, a time or DNF, and when.
struct Solve {
    game_id: String,
    attempt: Attempt,
    at: i64,
}

/// A counted result from `game_id, millis, finished_at`.
fn solve(row: &AnyRow) -> Result<Solve, sqlx::Error> {
    Ok(Solve {
        game_id: column(row, "game_id")?,
        attempt: Attempt::Finished(column(row, "millis")?),
        at: column(row, "finished_at")?,
    })
}

/// A DNF from `id, issued_at`.
fn dnf(row: &AnyRow) -> Result<Solve, sqlx::Error> {
    Ok(Solve {
        game_id: column(row, "id")?,
        attempt: Attempt::Dnf,
        at: column(row, "issued_at")?,
    })
}

/// Results and DNFs, each newest first, as one list newest first.
fn merged(results: Vec<Solve>, dnfs: &[Solve]) -> Vec<Solve> {
    let mut all = results;
    all.extend(dnfs.iter().map(|d| Solve {
        game_id: d.game_id.clone(),
        attempt: d.attempt,
        at: d.at,
    }));
    all.sort_by(|a, b| (b.at, &b.game_id).cmp(&(a.at, &a.game_id)));
    all
}

/// Keeps `window` (newest first) as the account's best average of
/// `window.len()` in `key` unless the best kept is as good, and notes it
/// in the history of its personal bests when kept.
async fn keep(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    key: Key<'_>,
    window: &[Solve],
    millis: f64,
) -> Result<(), sqlx::Error> {
    let ids: Vec<&str> = window.iter().map(|s| s.game_id.as_str()).collect();
    let average = AverageRow {
        key,
        n: window.len() as i64,
        millis,
        game_ids: ids.join(" "),
        at: window[0].at,
    };
    if kept::write(tx, account, &[average]).await? == 1 {
        let improvement = Improvement {
            n: window.len(),
            millis,
            moves: None,
            game_ids: &ids.join(" "),
            at: window[0].at,
        };
        bests::note_improvement(tx, account, key, &improvement).await?;
    }
    Ok(())
}

/// The new windows a counted result of `account` makes, in the category
/// of its display and control and in its display's of every control;
/// `game_id`, dealt at `issued_at`, is the game it finished.
pub(super) async fn note_result(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    finished: &super::IssuedGame,
    display: Display,
    control: Option<Control>,
) -> Result<(), sqlx::Error> {
    let (game, format) = (finished.game().kept(), finished.format.kept());
    let (game, variant, format) = (&*game, &*finished.variant, &*format);
    let (display, control) = (&*display.kept(), control.as_ref().map(Kept::kept));
    if was_a_dnf(tx, account, finished).await? {
        recompute(tx, account).await?;
        return bests::mark_records(tx, account).await;
    }
    let dnfs = latest_dnfs(tx, account, game, variant, format).await?;
    for control in std::iter::once("").chain(control.as_deref()) {
        let key = Key {
            game,
            variant,
            format,
            display,
            control,
        };
        let results = latest(tx, account, key).await?;
        let mut latest = merged(results, &dnfs);
        latest.truncate(LONGEST as usize);
        let attempts: Vec<Attempt> = latest.iter().map(|s| s.attempt).collect();
        for n in AVERAGES {
            if let Some(Average::Mean(mean)) = average_by(&attempts, n, finished.format.dnf_rule())
            {
                keep(tx, account, key, &latest[..n], mean).await?;
            }
        }
    }
    Ok(())
}

/// Whether the account finished a later game of the category before this
/// one: then this one counted as a DNF until now.
async fn was_a_dnf(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    finished: &super::IssuedGame,
) -> Result<bool, sqlx::Error> {
    let later = sqlx::query(
        "SELECT id FROM games WHERE account_id = $1 AND game = $2 AND variant = $3 \
         AND format = $4 AND issued_at > $5 AND finished_at IS NOT NULL AND id <> $6 LIMIT 1",
    )
    .bind(account)
    .bind(finished.game().kept())
    .bind(&finished.variant)
    .bind(finished.format.kept())
    .bind(finished.issued_at)
    .bind(&finished.id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(later.is_some())
}

/// The account's latest counted results in `key`, newest first, as many
/// as the longest average.
async fn latest(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    key: Key<'_>,
) -> Result<Vec<Solve>, sqlx::Error> {
    let rows = key
        .bind(
            sqlx::query(
                "SELECT game_id, millis, finished_at FROM results \
         WHERE account_id = $1 AND game = $2 AND variant = $3 AND format = $4 \
         AND counted = 1 AND display = $5 AND ($6 = '' OR control = $6) \
         ORDER BY finished_at DESC, game_id DESC LIMIT $7",
            )
            .bind(account),
        )
        .bind(LONGEST)
        .fetch_all(&mut **tx)
        .await?;
    rows.iter().map(solve).collect()
}

/// The account's latest DNFs in a category, newest first, as many as the
/// longest average: the games it was dealt there and left unfinished
/// while it finished one dealt later.
async fn latest_dnfs(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    game: &str,
    variant: &str,
    format: &str,
) -> Result<Vec<Solve>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, issued_at FROM games \
         WHERE account_id = $1 AND game = $2 AND variant = $3 AND format = $4 \
         AND finished_at IS NULL AND issued_at < (SELECT MAX(issued_at) FROM games \
           WHERE account_id = $1 AND game = $2 AND variant = $3 AND format = $4 \
           AND finished_at IS NOT NULL) \
         ORDER BY issued_at DESC, id DESC LIMIT $5",
    )
    .bind(account)
    .bind(game)
    .bind(variant)
    .bind(format)
    .bind(LONGEST)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(dnf).collect()
}

/// What [`recompute`] clears: the account's best averages and their
/// history.
const CLEARED: [&str; 2] = [
    "DELETE FROM best_averages WHERE account_id = $1",
    "DELETE FROM pb_history WHERE account_id = $1 AND n > 1",
];

/// What [`recompute`] reads: the account's counted results, each
/// category's newest first.
const COUNTED: &str = "SELECT game_id, millis, finished_at, game, variant, format, \
     COALESCE(control, '') AS control, display \
     FROM results WHERE account_id = $1 AND counted = 1 \
     ORDER BY game, variant, format, finished_at DESC, game_id DESC";

/// Computes every best average of `account` again from its whole history,
/// and their history; the world records among them are the caller's to
/// mark again (`bests::mark_records`).
pub(super) async fn recompute(
    tx: &mut Transaction<'static, Any>,
    account: &str,
) -> Result<(), sqlx::Error> {
    let rows = kept::start_over(tx, account, CLEARED, COUNTED).await?;
    let dnf_rows = sqlx::query(
        "SELECT g.id, g.issued_at, g.game, g.variant, g.format FROM games g \
         WHERE g.account_id = $1 AND g.finished_at IS NULL AND g.issued_at < \
           (SELECT MAX(h.issued_at) FROM games h WHERE h.account_id = g.account_id \
            AND h.game = g.game AND h.variant = g.variant AND h.format = g.format \
            AND h.finished_at IS NOT NULL)",
    )
    .bind(account)
    .fetch_all(&mut **tx)
    .await?;
    type Category = (String, String, String);
    let category = |r: &AnyRow| -> Result<Category, sqlx::Error> {
        Ok((
            column(r, "game")?,
            column(r, "variant")?,
            column(r, "format")?,
        ))
    };
    let mut dnfs: BTreeMap<Category, Vec<Solve>> = BTreeMap::new();
    for row in &dnf_rows {
        dnfs.entry(category(row)?).or_default().push(dnf(row)?);
    }
    // Every control's results of every category and display; DNFs join
    // each (a game left unfinished has no display yet).
    let mut results: BTreeMap<(Category, String, String), Vec<Solve>> = BTreeMap::new();
    for row in &rows {
        let (control, display): (String, String) =
            (column(row, "control")?, column(row, "display")?);
        let of = category(row)?;
        results
            .entry((of.clone(), display.clone(), String::new()))
            .or_default()
            .push(solve(row)?);
        if !control.is_empty() {
            results
                .entry((of, display, control))
                .or_default()
                .push(solve(row)?);
        }
    }
    let merged_all: Vec<((Category, String, String), Vec<Solve>)> = results
        .into_iter()
        .map(|(category, solves)| {
            let attempts = merged(solves, dnfs.get(&category.0).map_or(&[], Vec::as_slice));
            (category, attempts)
        })
        .collect();
    let (mut kept, mut history) = (Vec::new(), Vec::new());
    for ((of, display, control), attempts) in &merged_all {
        let key = Key {
            game: &of.0,
            variant: &of.1,
            format: &of.2,
            display,
            control,
        };
        best_windows(key, attempts, &mut kept, &mut history);
    }
    kept::write_again(tx, account, &kept, history).await
}

/// The best window of every average of `solves` (newest first) into
/// `kept`, and each improvement on the way to it into `history`.
fn best_windows<'a>(
    key: Key<'a>,
    solves: &[Solve],
    kept: &mut Vec<AverageRow<'a>>,
    history: &mut Vec<HistoryRow<'a>>,
) {
    let attempts: Vec<Attempt> = solves.iter().map(|s| s.attempt).collect();
    let ids = |window: &[Solve]| -> String {
        let ids: Vec<&str> = window.iter().map(|s| s.game_id.as_str()).collect();
        ids.join(" ")
    };
    for n in AVERAGES {
        let improvements = improvements_by(&attempts, n, dnf_rule(key.format));
        for &(at, mean) in &improvements {
            let window = &solves[at..at + n];
            history.push(HistoryRow {
                key,
                n: n as i64,
                millis: mean,
                moves: None,
                game_ids: ids(window),
                at: window[0].at,
            });
        }
        if let Some(&(at, mean)) = improvements.last() {
            let window = &solves[at..at + n];
            kept.push(AverageRow {
                key,
                n: n as i64,
                millis: mean,
                game_ids: ids(window),
                at: window[0].at,
            });
        }
    }
}

impl Store {
    /// The best averages of `n` in a category, best first: enabled
    /// accounts only.
    pub async fn best_averages(
        &self,
        game: GameKind,
        variant: &str,
        category: super::Category,
        n: usize,
        limit: i64,
        viewer: Option<Viewer<'_>>,
    ) -> Result<Vec<BestAverage>, Error> {
        let rows = sqlx::query(
            "SELECT a.handle, b.n, b.millis, b.game_ids, b.finished_at, b.account_id \
             FROM best_averages b JOIN accounts a ON a.id = b.account_id \
             WHERE b.game = $1 AND b.variant = $2 AND b.format = $3 AND b.control = $4 \
             AND b.n = $5 AND b.display = $7 AND a.disabled = 0 \
             ORDER BY b.millis, b.finished_at LIMIT $6",
        )
        .bind(game.kept())
        .bind(variant)
        .bind(category.format.kept())
        .bind(control_key(category.control))
        .bind(n as i64)
        .bind(limit)
        .bind(category.display.kept())
        .fetch_all(&self.pool)
        .await?;
        let me = viewer.and_then(|v| v.account);
        read_rows(&rows, |r| {
            let account: String = column(r, "account_id")?;
            let ids: String = column(r, "game_ids")?;
            Ok(BestAverage {
                handle: column(r, "handle")?,
                n: column::<i64>(r, "n")? as usize,
                millis: column(r, "millis")?,
                game_ids: ids.split_whitespace().map(str::to_string).collect(),
                finished_at: column(r, "finished_at")?,
                mine: me == Some(account.as_str()),
            })
        })
    }

    /// Chores a migration left for the next start: the best averages,
    /// personal bests and their history of results stored before they
    /// were kept. Every account's are computed, each in its own
    /// transaction; then the chore is done. Instances that start together
    /// may both do it: each account's result is the same.
    pub(super) async fn do_chores(&self) -> Result<(), sqlx::Error> {
        let pending = sqlx::query(
            "SELECT name FROM store_chores WHERE name IN ('best_averages', 'personal_bests')",
        )
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
        self.each_account(&accounts, |store, account| async move {
            let mut tx = store.begin().await?;
            recompute(&mut tx, &account).await?;
            bests::rebuild(&mut tx, &account).await?;
            tx.commit().await
        })
        .await?;
        // The records, once every history is in: each category read once.
        let mut tx = self.begin().await?;
        bests::mark_all(&mut tx).await?;
        tx.commit().await?;
        sqlx::query("DELETE FROM store_chores WHERE name IN ('best_averages', 'personal_bests')")
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
