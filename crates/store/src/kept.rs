//! An account's kept bests as rows, and the one way they are written:
//! a row as a result arrives (`averages::note_result`,
//! `bests::note_result`), or many rows to a statement when they are
//! computed again from the account's whole history.
//!
//! `averages::recompute` and `bests::rebuild` clear an account's rows
//! and read its results ([`start_over`]), work out in memory every
//! improvement of its bests, then hand the rows here ([`write_again`]):
//! a row a statement would be a round trip each, and
//! the chore that takes in every account's history (a migration's, or
//! `admin fill`'s million results) would spend minutes on PostgreSQL
//! waiting for them. Both take each table's one conflict rule (a better
//! row wins: [`Written`]), so two instances doing the chore at once still
//! agree. History rows go in unmarked: the caller marks the
//! world records of their categories again (`bests::mark_records`,
//! `bests::mark_all`), as it did before. A chore over every account works
//! on a few at once on PostgreSQL ([`Store::each_account`]).

use std::future::Future;

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, Transaction};

use super::{column, Key, Store};

/// How many accounts a chore works on at once on PostgreSQL (no more than
/// the pool has connections), each in its own transaction, so that one
/// account's round trips overlap another's work. SQLite has one writer:
/// one at a time there.
pub const AT_ONCE: usize = 4;

impl Store {
    /// Does `work` for every account the rows name (column
    /// `account_id`), each alone (its own transaction): the accounts' rows
    /// are apart, so the order does not matter.
    pub(super) async fn each_account<W, F>(
        &self,
        rows: &[AnyRow],
        work: W,
    ) -> Result<(), sqlx::Error>
    where
        W: Fn(Store, String) -> F + Clone + Send + 'static,
        F: Future<Output = Result<(), sqlx::Error>> + Send,
    {
        let accounts = rows
            .iter()
            .map(|r| column::<String>(r, "account_id"))
            .collect::<Result<Vec<_>, _>>()?;
        let pool = self.pool.options().get_max_connections() as usize;
        let at_once = if self.backend.is_sqlite() {
            1
        } else {
            AT_ONCE.min(pool)
        };
        let mut workers = tokio::task::JoinSet::new();
        for first in 0..at_once {
            let share: Vec<String> = accounts
                .iter()
                .skip(first)
                .step_by(at_once)
                .cloned()
                .collect();
            let (store, work) = (self.clone(), work.clone());
            workers.spawn(async move {
                for account in share {
                    work(store.clone(), account).await?;
                }
                Ok::<(), sqlx::Error>(())
            });
        }
        while let Some(done) = workers.join_next().await {
            done.map_err(|e| sqlx::Error::Protocol(format!("a chore's worker failed: {e}")))??;
        }
        Ok(())
    }
}

/// Rows a statement: PostgreSQL takes 65,535 parameters, SQLite 32,766;
/// the widest row here has 12.
const ROWS: usize = 1_000;

/// A best average as `best_averages` keeps it.
pub(super) struct AverageRow<'a> {
    pub key: Key<'a>,
    pub n: i64,
    pub millis: f64,
    /// Newest first, space-separated.
    pub game_ids: String,
    pub at: i64,
}

/// A best single as `personal_bests` keeps it.
pub(super) struct SingleRow<'a> {
    pub key: Key<'a>,
    pub millis: i64,
    pub moves: i64,
    pub mtm: i64,
    pub game_id: &'a str,
    pub at: i64,
}

/// An improvement of a best, as `pb_history` keeps it.
pub(super) struct HistoryRow<'a> {
    pub key: Key<'a>,
    pub n: i64,
    pub millis: f64,
    /// A single's moves (STM) and multi-tile moves.
    pub moves: Option<(i64, i64)>,
    pub game_ids: String,
    pub at: i64,
}

/// Improvements of bests, each best's oldest first: at most one per best
/// and finish (`finished_at`, a key of `pb_history`), the later and
/// better, as when rows were written one at a time and the better
/// replaced the one before it. Each best's rows end up together.
pub(super) fn one_per_finish<'a>(history: &mut Vec<HistoryRow<'a>>) {
    fn best<'a>(r: &HistoryRow<'a>) -> (&'a str, &'a str, &'a str, &'a str, &'a str, i64) {
        let k = r.key;
        (k.game, k.variant, k.format, k.display, k.control, r.n)
    }
    // Stable: each best's improvements stay in the order they came.
    history.sort_by(|a, b| best(a).cmp(&best(b)));
    let mut kept: Vec<HistoryRow<'a>> = Vec::with_capacity(history.len());
    for row in history.drain(..) {
        match kept.last_mut() {
            Some(last) if best(last) == best(&row) && last.at == row.at => *last = row,
            _ => kept.push(row),
        }
    }
    *history = kept;
}

/// Arguments of a statement being built.
pub(super) type Bound<'q> = Query<'q, Any, AnyArguments<'q>>;

/// A row to write: its table, its parameters in the order of the table's
/// columns, and the conflict rule of the row at a time writes (a better
/// row wins).
pub(super) trait Written {
    /// `table (columns…)`.
    const INTO: &'static str;
    /// What an existing row with the same key becomes.
    const ON_CONFLICT: &'static str;
    /// How many parameters it binds, and what follows them (literals).
    const WIDTH: (usize, &'static str);
    fn bind<'q>(&'q self, account: &'q str, query: Bound<'q>) -> Bound<'q>;
}

impl Written for AverageRow<'_> {
    const INTO: &'static str = "best_averages (account_id, game, variant, format, display, \
         control, n, millis, game_ids, finished_at)";
    const ON_CONFLICT: &'static str =
        "ON CONFLICT (account_id, game, variant, format, display, control, n) DO UPDATE SET \
         millis = excluded.millis, game_ids = excluded.game_ids, \
         finished_at = excluded.finished_at WHERE excluded.millis < best_averages.millis";
    const WIDTH: (usize, &'static str) = (10, "");
    fn bind<'q>(&'q self, account: &'q str, query: Bound<'q>) -> Bound<'q> {
        self.key
            .bind(query.bind(account))
            .bind(self.n)
            .bind(self.millis)
            .bind(self.game_ids.as_str())
            .bind(self.at)
    }
}

impl Written for SingleRow<'_> {
    const INTO: &'static str = "personal_bests (account_id, game, variant, format, display, \
         control, millis, moves, mtm, game_id, finished_at)";
    const ON_CONFLICT: &'static str =
        "ON CONFLICT (account_id, game, variant, format, display, control) DO UPDATE SET \
         millis = excluded.millis, moves = excluded.moves, mtm = excluded.mtm, \
         game_id = excluded.game_id, finished_at = excluded.finished_at \
         WHERE excluded.millis < personal_bests.millis";
    const WIDTH: (usize, &'static str) = (11, "");
    fn bind<'q>(&'q self, account: &'q str, query: Bound<'q>) -> Bound<'q> {
        self.key
            .bind(query.bind(account))
            .bind(self.millis)
            .bind(self.moves)
            .bind(self.mtm)
            .bind(self.game_id)
            .bind(self.at)
    }
}

/// Improvements are written not yet marked as world records, at most one
/// per best and finish ([`one_per_finish`]).
impl Written for HistoryRow<'_> {
    const INTO: &'static str = "pb_history (account_id, game, variant, format, display, \
         control, n, millis, moves, mtm, game_ids, finished_at, world_record, beat)";
    const ON_CONFLICT: &'static str =
        "ON CONFLICT (account_id, game, variant, format, display, control, n, finished_at) \
         DO UPDATE SET millis = excluded.millis, moves = excluded.moves, mtm = excluded.mtm, \
         game_ids = excluded.game_ids, world_record = excluded.world_record, \
         beat = excluded.beat WHERE excluded.millis < pb_history.millis";
    /// Unmarked: not a world record, beating none.
    const WIDTH: (usize, &'static str) = (12, ", 0, NULL");
    fn bind<'q>(&'q self, account: &'q str, query: Bound<'q>) -> Bound<'q> {
        self.key
            .bind(query.bind(account))
            .bind(self.n)
            .bind(self.millis)
            .bind(self.moves.map(|m| m.0))
            .bind(self.moves.map(|m| m.1))
            .bind(self.game_ids.as_str())
            .bind(self.at)
    }
}

/// The start of computing `account`'s kept rows again: its rows cleared
/// (each of `clear` deletes some, the account as `$1`), and its counted
/// results read (`results`, the account as `$1`), which the rows are
/// computed from.
pub(super) async fn start_over(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    clear: [&str; 2],
    results: &str,
) -> Result<Vec<AnyRow>, sqlx::Error> {
    for table in clear {
        sqlx::query(table).bind(account).execute(&mut **tx).await?;
    }
    sqlx::query(results)
        .bind(account)
        .fetch_all(&mut **tx)
        .await
}

/// The end of computing `account`'s kept rows again: its `bests` and
/// their `history` (at most one improvement per best and finish:
/// [`one_per_finish`]) written.
pub(super) async fn write_again<R: Written>(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    bests: &[R],
    mut history: Vec<HistoryRow<'_>>,
) -> Result<(), sqlx::Error> {
    one_per_finish(&mut history);
    write(tx, account, bests).await?;
    write(tx, account, &history).await?;
    Ok(())
}

/// Writes `rows` of `account` (its best averages, best singles or their
/// improvements): `INSERT INTO` the rows' table `VALUES` a `(…)` per row,
/// then the conflict rule, in statements of [`ROWS`]. How many rows were
/// kept: new, or better than the row they replace.
pub(super) async fn write<R: Written>(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    rows: &[R],
) -> Result<u64, sqlx::Error> {
    let mut kept = 0;
    let (head, tail) = (R::INTO, R::ON_CONFLICT);
    let (width, literals) = R::WIDTH;
    for chunk in rows.chunks(ROWS) {
        let values: Vec<String> = (0..chunk.len())
            .map(|r| {
                let params: Vec<String> =
                    (1..=width).map(|c| format!("${}", r * width + c)).collect();
                format!("({}{literals})", params.join(", "))
            })
            .collect();
        let sql = format!("INSERT INTO {head} VALUES {} {tail}", values.join(", "));
        let mut query = sqlx::query(&sql);
        for row in chunk {
            query = row.bind(account, query);
        }
        kept += query.execute(&mut **tx).await?.rows_affected();
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(control: &'static str, millis: f64, at: i64) -> HistoryRow<'static> {
        HistoryRow {
            key: Key {
                game: "slide",
                variant: "3x3-row-major",
                format: "single",
                display: "standard",
                control,
            },
            n: 1,
            millis,
            moves: None,
            game_ids: format!("g{millis}"),
            at,
        }
    }

    #[test]
    fn one_improvement_per_best_and_finish_the_later_kept() {
        // Two bests' improvements interleaved as results came; two of the
        // first's finished at the same time: the later, better one stays.
        let mut history = vec![
            row("", 900.0, 1),
            row("keyboard", 900.0, 1),
            row("", 800.0, 2),
            row("keyboard", 850.0, 3),
            row("", 700.0, 2),
            row("", 600.0, 4),
        ];
        one_per_finish(&mut history);
        let got: Vec<(&str, f64, i64)> = history
            .iter()
            .map(|r| (r.key.control, r.millis, r.at))
            .collect();
        assert_eq!(
            got,
            [
                ("", 900.0, 1),
                ("", 700.0, 2),
                ("", 600.0, 4),
                ("keyboard", 900.0, 1),
                ("keyboard", 850.0, 3)
            ]
        );
    }
}
