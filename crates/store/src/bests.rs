//! Personal bests, their history, and the world records among them.
//!
//! Each account's best single in a category (game, variant, format,
//! display, and a control or every control: '') is kept in
//! `personal_bests` as results arrive, like the best averages
//! (`store::averages`), so a leaderboard of one row per player reads ten
//! rows of an index. Every improvement of a best, single or average, is a
//! row of `pb_history`; a row is a world record when it is better than
//! every best set before it in its category, whoever set it (the record it
//! beat kept beside it). The history of a category's record is then the
//! rows flagged so, read through an index.
//!
//! A change to the past (a guest's results moved into an account) makes
//! the account's history new: it is computed again from its results, and
//! the world records of its categories are marked again from the whole
//! history of each, oldest first.

use std::collections::{BTreeMap, HashMap};

use sqlx::any::AnyRow;
use sqlx::{Any, Transaction};

use super::columns::{control_key, unkept, Kept};
use super::kept::{self, HistoryRow, SingleRow, Written as _};
use super::Key;
use super::{column, count, read_rows, Category, Error, Shown, Store, Viewer};
use play::display::Display;
use play::format::{Control, Format};
use play::result::Finished;
use play::GameKind;

/// What one improvement of a best was.
pub(super) struct Improvement<'a> {
    /// 1 for a single, else the number of results averaged.
    pub n: usize,
    pub millis: f64,
    /// A single's moves (STM) and multi-tile moves.
    pub moves: Option<(i64, i64)>,
    /// The results it is of, newest first, space-separated.
    pub game_ids: &'a str,
    /// When it was set: when its newest result finished.
    pub at: i64,
}

/// Notes a counted result of `account` among its best singles, for the
/// result's control and for every control; each improvement joins the
/// history.
pub(super) async fn note_result(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    finished: &super::IssuedGame,
    result: &Finished,
    display: Display,
    control: Option<Control>,
    at: i64,
) -> Result<(), sqlx::Error> {
    let (game, format) = (finished.game().kept(), finished.format.kept());
    let (display, control) = (display.kept(), control.as_ref().map(Kept::kept));
    let (moves, mtm) = (count(result.stm), count(result.mtm));
    for control in std::iter::once("").chain(control.as_deref()) {
        let key = Key {
            game: &game,
            variant: &finished.variant,
            format: &format,
            display: &display,
            control,
        };
        let single = SingleRow {
            key,
            millis: result.millis,
            moves,
            mtm,
            game_id: &finished.id,
            at,
        };
        // Kept unless the best kept is as fast.
        if kept::write(tx, account, &[single]).await? == 1 {
            let improvement = Improvement {
                n: 1,
                millis: result.millis as f64,
                moves: Some((moves, mtm)),
                game_ids: &finished.id,
                at,
            };
            note_improvement(tx, account, key, &improvement).await?;
        }
    }
    Ok(())
}

/// Adds an improvement of `account`'s best in `key` to the history: a
/// world record when it beats every best set before it in the category.
pub(super) async fn note_improvement(
    tx: &mut Transaction<'static, Any>,
    account: &str,
    key: Key<'_>,
    best: &Improvement<'_>,
) -> Result<(), sqlx::Error> {
    let row = key
        .bind(sqlx::query(
            "SELECT MIN(millis) AS record FROM pb_history WHERE game = $1 AND variant = $2 \
         AND format = $3 AND display = $4 AND control = $5 AND n = $6",
        ))
        .bind(count(best.n))
        .fetch_one(&mut **tx)
        .await?;
    let record: Option<f64> = column(&row, "record")?;
    let world_record = record.is_none_or(|r| best.millis < r);
    let beat = if world_record { record } else { None };
    let sql = format!(
        "INSERT INTO {} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
         CASE WHEN $15 = 1 THEN $14 END) {}",
        HistoryRow::INTO,
        HistoryRow::ON_CONFLICT
    );
    key.bind(sqlx::query(&sql).bind(account))
        .bind(count(best.n))
        .bind(best.millis)
        .bind(best.moves.map(|m| m.0))
        .bind(best.moves.map(|m| m.1))
        .bind(best.game_ids)
        .bind(best.at)
        .bind(i64::from(world_record))
        // A null DOUBLE PRECISION does not bind through `Any` on PostgreSQL:
        // a number and whether it is there.
        .bind(beat.unwrap_or(0.0))
        .bind(i64::from(beat.is_some()))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Computes `account`'s best singles and their history again from its
/// whole history (its averages' are `averages::recompute`'s), then marks
/// the world records of its categories again.
pub(super) async fn recompute(
    tx: &mut Transaction<'static, Any>,
    account: &str,
) -> Result<(), sqlx::Error> {
    rebuild(tx, account).await?;
    mark_records(tx, account).await
}

/// What [`rebuild`] clears: the account's best singles and their history.
const CLEARED: [&str; 2] = [
    "DELETE FROM personal_bests WHERE account_id = $1",
    "DELETE FROM pb_history WHERE account_id = $1 AND n = 1",
];

/// What [`rebuild`] reads: the account's counted results, oldest first.
const COUNTED: &str =
    "SELECT game, variant, format, display, COALESCE(control, '') AS control, millis, stm, mtm, \
     game_id, finished_at FROM results WHERE account_id = $1 AND counted = 1 \
     ORDER BY finished_at, game_id";

/// Computes `account`'s best singles and their history again from its
/// whole history, leaving the world records to be marked.
pub(super) async fn rebuild(
    tx: &mut Transaction<'static, Any>,
    account: &str,
) -> Result<(), sqlx::Error> {
    let rows = kept::start_over(tx, account, CLEARED, COUNTED).await?;
    /// A result's category and single, owned.
    type Solved = ([String; 5], i64, i64, i64, String, i64);
    let solved = |r: &AnyRow| -> Result<Solved, sqlx::Error> {
        let text = |name: &str| column::<String>(r, name);
        let key = [
            text("game")?,
            text("variant")?,
            text("format")?,
            text("display")?,
            text("control")?,
        ];
        let (millis, moves, mtm) = (column(r, "millis")?, column(r, "stm")?, column(r, "mtm")?);
        Ok((
            key,
            millis,
            moves,
            mtm,
            text("game_id")?,
            column(r, "finished_at")?,
        ))
    };
    let results = rows.iter().map(solved).collect::<Result<Vec<_>, _>>()?;
    // Each best as it improves, oldest first: in the result's control
    // and in every control.
    let mut bests: HashMap<Key<'_>, SingleRow<'_>> = HashMap::new();
    let mut history = Vec::new();
    for ([game, variant, format, display, control], millis, moves, mtm, game_id, at) in &results {
        for control in std::iter::once("").chain((!control.is_empty()).then_some(&**control)) {
            let key = Key::of([game, variant, format, display, control]);
            if bests.get(&key).is_some_and(|best| best.millis <= *millis) {
                continue;
            }
            let single = SingleRow {
                key,
                millis: *millis,
                moves: *moves,
                mtm: *mtm,
                game_id,
                at: *at,
            };
            bests.insert(key, single);
            history.push(HistoryRow {
                key,
                n: 1,
                millis: *millis as f64,
                moves: Some((*moves, *mtm)),
                game_ids: game_id.clone(),
                at: *at,
            });
        }
    }
    let bests: Vec<SingleRow<'_>> = bests.into_values().collect();
    kept::write_again(tx, account, &bests, history).await
}

/// A category of the history: the key and `n`, owned.
type Owned = (String, String, String, String, String, i64);

/// A category of the history from its columns `game`, `variant`,
/// `format`, `display`, `control` and `n`.
fn owned(r: &AnyRow) -> Result<Owned, sqlx::Error> {
    let text = |name: &str| column::<String>(r, name);
    Ok((
        text("game")?,
        text("variant")?,
        text("format")?,
        text("display")?,
        text("control")?,
        column(r, "n")?,
    ))
}

/// The categories where `account` has a history.
async fn categories_of(
    tx: &mut Transaction<'static, Any>,
    account: &str,
) -> Result<Vec<Owned>, sqlx::Error> {
    let categories = sqlx::query(
        "SELECT DISTINCT game, variant, format, display, control, n FROM pb_history \
         WHERE account_id = $1",
    )
    .bind(account)
    .fetch_all(&mut **tx)
    .await?;
    categories.iter().map(owned).collect()
}

/// Forgets an account's bests and their history (the account is being
/// deleted): the records its bests held pass to the others' bests, marked
/// again.
pub(super) async fn forget(
    tx: &mut Transaction<'static, Any>,
    account: &str,
) -> Result<(), sqlx::Error> {
    let categories = categories_of(tx, account).await?;
    for table in [
        "DELETE FROM personal_bests WHERE account_id = $1",
        "DELETE FROM pb_history WHERE account_id = $1",
    ] {
        sqlx::query(table).bind(account).execute(&mut **tx).await?;
    }
    mark_categories(tx, &categories).await
}

/// Marks the world records of every category again (once every history
/// is in, after the chore that takes in results stored before bests were
/// kept).
pub(super) async fn mark_all(tx: &mut Transaction<'static, Any>) -> Result<(), sqlx::Error> {
    let categories =
        sqlx::query("SELECT DISTINCT game, variant, format, display, control, n FROM pb_history")
            .fetch_all(&mut **tx)
            .await?;
    let categories = categories
        .iter()
        .map(owned)
        .collect::<Result<Vec<_>, _>>()?;
    mark_categories(tx, &categories).await
}

/// Marks the world records again in every category where `account` has a
/// history.
pub(super) async fn mark_records(
    tx: &mut Transaction<'static, Any>,
    account: &str,
) -> Result<(), sqlx::Error> {
    let categories = categories_of(tx, account).await?;
    mark_categories(tx, &categories).await
}

/// Marks the world records of `categories` again, oldest first: each row
/// better than every row before it.
async fn mark_categories(
    tx: &mut Transaction<'static, Any>,
    categories: &[Owned],
) -> Result<(), sqlx::Error> {
    for category in categories {
        let (game, variant, format, display, control, n) = category;
        let key = Key::of([game, variant, format, display, control]);
        let rows = key
            .bind(sqlx::query(
                "SELECT account_id, finished_at, millis, world_record, beat FROM pb_history \
                 WHERE game = $1 AND variant = $2 AND format = $3 AND display = $4 \
                 AND control = $5 AND n = $6 ORDER BY finished_at, account_id",
            ))
            .bind(n)
            .fetch_all(&mut **tx)
            .await?;
        let mut record: Option<f64> = None;
        for row in &rows {
            let millis: f64 = column(row, "millis")?;
            let world_record = record.is_none_or(|r| millis < r);
            let beat = if world_record { record } else { None };
            let was: (i64, Option<f64>) = (column(row, "world_record")?, column(row, "beat")?);
            if was != (i64::from(world_record), beat) {
                let mark = sqlx::query(
                    "UPDATE pb_history SET world_record = $1, beat = CASE WHEN $11 = 1 THEN $2 END \
                     WHERE account_id = $3 \
                     AND game = $4 AND variant = $5 AND format = $6 AND display = $7 \
                     AND control = $8 AND n = $9 AND finished_at = $10",
                )
                .bind(i64::from(world_record))
                .bind(beat.unwrap_or(0.0))
                .bind(column::<String>(row, "account_id")?);
                key.bind(mark)
                    .bind(n)
                    .bind(column::<i64>(row, "finished_at")?)
                    .bind(i64::from(beat.is_some()))
                    .execute(&mut **tx)
                    .await?;
            }
            if world_record {
                record = Some(millis);
            }
        }
    }
    Ok(())
}

/// An account's best single in a category, for a leaderboard.
#[derive(Clone, Debug)]
pub struct PlayerBest {
    /// The account's handle.
    pub handle: String,
    /// The account's country (ISO 3166-1 alpha-2), if given.
    pub country: Option<String>,
    /// The time, in milliseconds.
    pub millis: i64,
    /// Single-tile moves (STM).
    pub moves: i64,
    /// Multi-tile moves (MTM).
    pub mtm: i64,
    /// The result's game.
    pub game_id: String,
    /// When it finished (Unix milliseconds).
    pub finished_at: i64,
    /// Whether it is the asking account's own.
    pub mine: bool,
}

/// One fall of a category's world record.
#[derive(Clone, Debug)]
pub struct RecordFall {
    /// The holder's handle.
    pub handle: String,
    /// The holder's country (ISO 3166-1 alpha-2), if given.
    pub country: Option<String>,
    /// The time (a single's) or the mean (an average's).
    pub millis: f64,
    /// A single's moves (STM) and multi-tile moves.
    pub moves: Option<i64>,
    /// A single's multi-tile moves.
    pub mtm: Option<i64>,
    /// The results it is of, newest first.
    pub game_ids: Vec<String>,
    /// When the record was set (Unix milliseconds).
    pub finished_at: i64,
    /// The record it broke; `None` for the first.
    pub beat: Option<f64>,
}

/// An account's best in one category (single or an average) with each
/// improvement that led to it, oldest first: the best is the last.
#[derive(Clone, Debug)]
pub struct BestHistory {
    /// The game.
    pub game: GameKind,
    /// The variant, e.g. `4x4-row-major`.
    pub variant: String,
    /// The format, e.g. `single` or `marathon-10`.
    pub format: Format,
    /// What the tiles showed, e.g. `standard`.
    pub display: Display,
    /// `None` for every control.
    pub control: Option<Control>,
    /// 1 for a single, else the number of results averaged.
    pub n: usize,
    /// Each improvement, oldest first.
    pub improvements: Vec<Improved>,
}

/// One improvement of a best.
#[derive(Clone, Debug)]
pub struct Improved {
    pub millis: f64,
    pub moves: Option<i64>,
    pub mtm: Option<i64>,
    pub game_ids: Vec<String>,
    pub finished_at: i64,
    /// Whether it was also the world record.
    pub world_record: bool,
}

fn ids(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

impl Store {
    /// Each account's best single in a category, fastest first: enabled
    /// accounts only.
    pub async fn personal_bests(
        &self,
        game: GameKind,
        variant: &str,
        category: Category,
        limit: i64,
        viewer: Option<Viewer<'_>>,
    ) -> Result<Vec<PlayerBest>, Error> {
        let rows = sqlx::query(
            "SELECT a.handle, a.country, b.millis, b.moves, b.mtm, b.game_id, b.finished_at, \
             b.account_id FROM personal_bests b JOIN accounts a ON a.id = b.account_id \
             WHERE b.game = $1 AND b.variant = $2 AND b.format = $3 AND b.display = $4 \
             AND b.control = $5 AND a.disabled = 0 ORDER BY b.millis, b.finished_at LIMIT $6",
        )
        .bind(game.kept())
        .bind(variant)
        .bind(category.format.kept())
        .bind(category.display.kept())
        .bind(control_key(category.control))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let me = viewer.and_then(|v| v.account);
        read_rows(&rows, |r| {
            Ok(PlayerBest {
                handle: column(r, "handle")?,
                country: column(r, "country")?,
                millis: column(r, "millis")?,
                moves: column(r, "moves")?,
                mtm: column(r, "mtm")?,
                game_id: column(r, "game_id")?,
                finished_at: column(r, "finished_at")?,
                mine: me == Some(column::<String>(r, "account_id")?.as_str()),
            })
        })
    }

    /// Every fall of a category's world record of `n` (1: singles),
    /// oldest first: enabled accounts only.
    pub async fn record_history(
        &self,
        game: GameKind,
        variant: &str,
        category: Category,
        n: usize,
    ) -> Result<Vec<RecordFall>, Error> {
        let rows = sqlx::query(
            "SELECT a.handle, a.country, h.millis, h.moves, h.mtm, h.game_ids, h.finished_at, \
             h.beat FROM pb_history h JOIN accounts a ON a.id = h.account_id \
             WHERE h.game = $1 AND h.variant = $2 AND h.format = $3 AND h.display = $4 \
             AND h.control = $5 AND h.n = $6 AND h.world_record = 1 AND a.disabled = 0 \
             ORDER BY h.finished_at, h.account_id LIMIT 10000",
        )
        .bind(game.kept())
        .bind(variant)
        .bind(category.format.kept())
        .bind(category.display.kept())
        .bind(control_key(category.control))
        .bind(count(n))
        .fetch_all(&self.pool)
        .await?;
        read_rows(&rows, |r| {
            Ok(RecordFall {
                handle: column(r, "handle")?,
                country: column(r, "country")?,
                millis: column(r, "millis")?,
                moves: column(r, "moves")?,
                mtm: column(r, "mtm")?,
                game_ids: ids(&column::<String>(r, "game_ids")?),
                finished_at: column(r, "finished_at")?,
                beat: column(r, "beat")?,
            })
        })
    }

    /// The bests of an account that `shown` asks (one display or every
    /// one; one control's or those over every control), each with its
    /// history.
    pub async fn account_bests(
        &self,
        account: &str,
        shown: Shown,
    ) -> Result<Vec<BestHistory>, Error> {
        let rows = sqlx::query(
            "SELECT game, variant, format, display, control, n, millis, moves, mtm, game_ids, \
             finished_at, world_record FROM pb_history WHERE account_id = $1 AND control = $2 \
             AND ($3 = '' OR display = $3) \
             ORDER BY game, variant, format, display, control, n, finished_at",
        )
        .bind(account)
        .bind(shown.control_bind())
        .bind(shown.display_bind())
        .fetch_all(&self.pool)
        .await?;
        let mut bests: BTreeMap<Owned, Vec<Improved>> = BTreeMap::new();
        for r in &rows {
            bests.entry(owned(r)?).or_default().push(Improved {
                millis: column(r, "millis")?,
                moves: column(r, "moves")?,
                mtm: column(r, "mtm")?,
                game_ids: ids(&column::<String>(r, "game_ids")?),
                finished_at: column(r, "finished_at")?,
                world_record: column::<i64>(r, "world_record")? == 1,
            });
        }
        let typed = |((game, variant, format, display, control, n), improvements): (Owned, _)| {
            Ok::<_, sqlx::Error>(BestHistory {
                game: unkept("game", &game)?,
                variant,
                format: unkept("format", &format)?,
                display: unkept("display", &display)?,
                control: match control.as_str() {
                    "" => None,
                    one => Some(unkept("control", one)?),
                },
                n: usize::try_from(n).unwrap_or(0),
                improvements,
            })
        };
        bests
            .into_iter()
            .map(|best| typed(best).map_err(Error::from))
            .collect()
    }

    /// Sets or clears an account's country (an ISO 3166-1 alpha-2 code,
    /// checked by the caller).
    pub async fn set_country(&self, account: &str, country: Option<&str>) -> Result<(), Error> {
        let written = sqlx::query("UPDATE accounts SET country = $1 WHERE id = $2")
            .bind(country)
            .bind(account)
            .execute(&self.pool)
            .await;
        self.noted(written).map(|_| ())
    }
}
