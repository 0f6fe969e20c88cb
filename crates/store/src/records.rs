//! Results read back: the records of a category, the variants played,
//! and a player's own results.

use play::display::Display;
use play::format::{Control, Format};
use play::GameKind;
use sqlx::any::AnyRow;

use super::columns::{control_key, kept_at, Kept};
use super::{column, flag_at, read_rows, Error, Store};

/// A result with its owner's name.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Record {
    /// The game's id.
    pub game_id: String,
    /// The account's handle, or for a guest the display name they chose.
    pub name: Option<String>,
    /// The handle of the account it belongs to; null for a guest's.
    pub handle: Option<String>,
    /// The variant, e.g. `4x4-row-major`.
    pub variant: String,
    /// Its moves, time, score and hints.
    #[serde(flatten)]
    pub figures: Figures,
    /// Whether it counts for the records.
    pub ranked: bool,
    /// Why it is not ranked.
    pub reason: Option<String>,
    /// When it finished (Unix milliseconds).
    pub finished_at: i64,
    /// Whether this is the asking player's own result.
    pub mine: bool,
}

/// A result's figures, the same wherever a result is shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Figures {
    /// Single-tile moves (sliding puzzle) or removals (Shisen-Sho).
    pub moves: i64,
    /// Single-tile moves; 0 for Shisen-Sho.
    pub stm: i64,
    /// Multi-tile moves; 0 for Shisen-Sho.
    pub mtm: i64,
    /// The time in milliseconds: a sliding solve's from its first move
    /// to its last (`play::stopwatch`), a Shisen-Sho game's by the
    /// server's clock from the deal, pauses left out.
    pub millis: i64,
    /// A sliding solve's reading time before the first move, not timed;
    /// null for Shisen-Sho.
    pub reading_ms: Option<i64>,
    /// Shisen-Sho's score; 0 for the sliding puzzle.
    pub score: i64,
    /// Hints given.
    pub hints: i64,
}

/// How records are ranked.
#[derive(Clone, Copy, Debug)]
pub enum Ranking {
    /// Fastest first.
    Time,
    /// Fewest single-tile moves.
    Moves,
    /// Fewest multi-tile moves.
    Mtm,
    /// Highest score first.
    Score,
}

impl Ranking {
    pub(super) fn order_by(self) -> &'static str {
        match self {
            Ranking::Time => "r.millis ASC, r.moves ASC, r.finished_at DESC",
            Ranking::Moves => "r.moves ASC, r.millis ASC, r.finished_at DESC",
            Ranking::Mtm => "r.mtm ASC, r.millis ASC, r.finished_at DESC",
            Ranking::Score => "r.score DESC, r.millis ASC, r.finished_at DESC",
        }
    }
}

/// Who is looking at results: their own are marked.
#[derive(Clone, Copy, Debug)]
pub struct Viewer<'a> {
    /// The browser's player id.
    pub player: &'a str,
    /// The signed-in account's id.
    pub account: Option<&'a str>,
}

/// A records category besides the game and variant: the format
/// (`single`, `marathon-10`, …), the display and, if any, the control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Category {
    /// The format, e.g. `single` or `marathon-10`.
    pub format: Format,
    /// `None` for every control.
    pub control: Option<Control>,
    /// What the tiles showed: `standard` unless asked.
    pub display: Display,
}

impl Category {
    /// Single solves of any control, standard display: the records there
    /// always were.
    pub const SINGLE: Category = Category {
        format: Format::Single,
        control: None,
        display: Display::Standard,
    };
}

/// What a profile shows of an account: results and bests of one control
/// and one display, or of every one (`None`). Every control's bests are
/// those kept over every control (`control` '' in `personal_bests` and
/// `pb_history`); one control's are those kept for it alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct Shown {
    /// `None` for every control.
    pub control: Option<Control>,
    /// `None` for every display.
    pub display: Option<Display>,
}

impl Shown {
    /// The control asked as its column's text: `''` for every control.
    pub(super) fn control_bind(self) -> String {
        control_key(self.control)
    }

    /// The display asked as its column's text: `''` for every display.
    pub(super) fn display_bind(self) -> String {
        self.display.as_ref().map_or_else(String::new, Kept::kept)
    }
}

/// A category as the kept bests key it (`best_averages`,
/// `personal_bests`, `pb_history`): `control` is '' for every control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Key<'a> {
    pub game: &'a str,
    pub variant: &'a str,
    pub format: &'a str,
    pub display: &'a str,
    pub control: &'a str,
}

impl<'a> Key<'a> {
    /// The category of `[game, variant, format, display, control]`, the
    /// order of the kept bests' columns.
    pub(super) fn of(columns: [&'a str; 5]) -> Key<'a> {
        let [game, variant, format, display, control] = columns;
        Key {
            game,
            variant,
            format,
            display,
            control,
        }
    }

    /// Binds the category to the next five parameters, in the order the
    /// kept bests' tables name their columns: game, variant, format,
    /// display, control.
    pub(super) fn bind<'q>(self, query: super::kept::Bound<'q>) -> super::kept::Bound<'q>
    where
        'a: 'q,
    {
        query
            .bind(self.game)
            .bind(self.variant)
            .bind(self.format)
            .bind(self.display)
            .bind(self.control)
    }
}

/// The tables [`RECORD_COLUMNS`] come from.
pub(super) const RECORD_FROM: &str = "results r JOIN players p ON p.id = r.player_id \
     LEFT JOIN accounts a ON a.id = r.account_id";

/// The columns [`record`] reads, by name.
pub(super) const RECORD_COLUMNS: &str =
    "r.game_id, COALESCE(a.handle, p.name) AS name, r.variant, r.moves, \
     r.millis, r.reading_ms, r.score, r.hints, r.counted, r.finished_at, r.player_id, r.stm, \
     r.mtm, r.reason, a.handle AS handle, r.account_id";

pub(super) fn record(r: &AnyRow, viewer: Option<Viewer<'_>>) -> Result<Record, sqlx::Error> {
    let account: Option<String> = column(r, "account_id")?;
    let player: String = column(r, "player_id")?;
    let mine = viewer.is_some_and(|v| match (&account, v.account) {
        (Some(owner), Some(me)) => owner == me,
        (Some(_), None) => false,
        (None, _) => player == v.player,
    });
    Ok(Record {
        game_id: column(r, "game_id")?,
        name: column(r, "name")?,
        handle: column(r, "handle")?,
        variant: column(r, "variant")?,
        figures: Figures {
            moves: column(r, "moves")?,
            stm: column(r, "stm")?,
            mtm: column(r, "mtm")?,
            millis: column(r, "millis")?,
            reading_ms: column(r, "reading_ms")?,
            score: column(r, "score")?,
            hints: column(r, "hints")?,
        },
        ranked: flag_at(r, "counted")?,
        finished_at: column(r, "finished_at")?,
        mine,
        reason: column(r, "reason")?,
    })
}

impl Store {
    /// The best counted results of a variant in a category.
    pub async fn records(
        &self,
        game: GameKind,
        variant: &str,
        category: Category,
        ranking: Ranking,
        limit: i64,
        viewer: Option<Viewer<'_>>,
    ) -> Result<Vec<Record>, Error> {
        let sql = format!(
            "SELECT {RECORD_COLUMNS} FROM {RECORD_FROM} \
             WHERE r.game = $1 AND r.variant = $2 AND r.counted = 1 \
             AND r.format = $4 AND ($5 = '' OR r.control = $5) AND r.display = $6 \
             AND (a.disabled IS NULL OR a.disabled = 0) ORDER BY {} LIMIT $3",
            ranking.order_by()
        );
        let rows = sqlx::query(&sql)
            .bind(game.kept())
            .bind(variant)
            .bind(limit)
            .bind(category.format.kept())
            .bind(control_key(category.control))
            .bind(category.display.kept())
            .fetch_all(&self.pool)
            .await?;
        read_rows(&rows, |r| record(r, viewer))
    }

    /// The variants of `game` that have ranked results, by name.
    pub async fn variants(&self, game: GameKind) -> Result<Vec<String>, Error> {
        // Each variant found by one probe of `results_by_time` (the next
        // variant after the last one found) rather than by reading every
        // result: a loose index scan, which neither database does for
        // DISTINCT by itself.
        let rows = sqlx::query(
            "WITH RECURSIVE found (variant, k) AS ( \
               SELECT MIN(variant), 1 FROM results WHERE game = $1 AND counted = 1 \
               UNION ALL \
               SELECT (SELECT MIN(r.variant) FROM results r \
                       WHERE r.game = $1 AND r.variant > found.variant AND r.counted = 1), \
                      k + 1 \
               FROM found WHERE found.variant IS NOT NULL AND k < 1000) \
             SELECT variant FROM found WHERE variant IS NOT NULL ORDER BY variant",
        )
        .bind(game.kept())
        .fetch_all(&self.pool)
        .await?;
        read_rows(&rows, |r| column(r, "variant"))
    }

    /// A player's results, newest first; all games and variants when
    /// `filter` is `None`; single solves only, the averages kept of them.
    /// A signed-in player's are the account's, from
    /// any browser, and this browser's guest results not yet moved to an
    /// account; a guest's are this browser's guest results.
    pub async fn player_results(
        &self,
        viewer: Viewer<'_>,
        filter: Option<(GameKind, &str)>,
    ) -> Result<Vec<(GameKind, Record)>, Error> {
        let game = filter.map_or_else(String::new, |(game, _)| game.kept());
        let variant = filter.map_or("", |(_, variant)| variant);
        let rows = sqlx::query(&format!(
            "SELECT {RECORD_COLUMNS}, r.game FROM {RECORD_FROM} \
                 WHERE ((r.player_id = $1 AND r.account_id IS NULL) OR r.account_id = $4) \
                 AND ($2 = '' OR (r.game = $2 AND r.variant = $3)) AND r.format = $5 \
                 ORDER BY r.finished_at DESC LIMIT 10000"
        ))
        .bind(viewer.player)
        .bind(&game)
        .bind(variant)
        .bind(viewer.account.unwrap_or(""))
        .bind(Format::Single.kept())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((kept_at(r, "game")?, record(r, Some(viewer))?)))
            .collect()
    }
}
