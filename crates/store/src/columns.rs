//! How the domain's types are kept in text columns. Each type's column
//! form is written here once, and read back strictly: text that does not
//! read as the type is an error naming the column, never a default. Past
//! this module the store takes and returns the types themselves; strings
//! exist only in the SQL binds.

use play::display::Display;
use play::format::{Control, Format};
use play::GameKind;
use sqlx::any::AnyRow;

use super::{bad_column, column};

/// A type kept as text in a column.
pub(crate) trait Kept: Sized {
    /// What the column holds, as errors name it.
    const WHAT: &'static str;

    /// The text the column keeps.
    fn kept(&self) -> String;

    /// The value kept as `text`, if it is one.
    fn read(text: &str) -> Option<Self>;
}

impl Kept for GameKind {
    const WHAT: &'static str = "game";

    fn kept(&self) -> String {
        self.name().to_string()
    }

    fn read(text: &str) -> Option<GameKind> {
        text.parse().ok()
    }
}

impl Kept for Format {
    const WHAT: &'static str = "format";

    fn kept(&self) -> String {
        self.to_string()
    }

    /// Only the format's own spelling: `Format` reads `Single` too, which
    /// the store never writes.
    fn read(text: &str) -> Option<Format> {
        text.parse::<Format>()
            .ok()
            .filter(|f| f.to_string() == text)
    }
}

impl Kept for Control {
    const WHAT: &'static str = "control";

    fn kept(&self) -> String {
        self.name().to_string()
    }

    fn read(text: &str) -> Option<Control> {
        text.parse::<Control>().ok().filter(|c| c.name() == text)
    }
}

impl Kept for Display {
    const WHAT: &'static str = "display";

    fn kept(&self) -> String {
        self.name().to_string()
    }

    fn read(text: &str) -> Option<Display> {
        text.parse().ok()
    }
}

/// The control a category of the kept bests is filed under: `''` for
/// every control, else the control's own column form.
pub(crate) fn control_key(control: Option<Control>) -> String {
    control.as_ref().map_or_else(String::new, Kept::kept)
}

/// The value kept in column `name`.
pub(crate) fn kept_at<T: Kept>(r: &AnyRow, name: &str) -> Result<T, sqlx::Error> {
    let text: String = column(r, name)?;
    unkept(name, &text)
}

/// `text`, read from column `name`, as a `T`.
pub(crate) fn unkept<T: Kept>(name: &str, text: &str) -> Result<T, sqlx::Error> {
    T::read(text).ok_or_else(|| bad_column(name, format!("no {} {text:?}", T::WHAT)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{fresh, runtime};
    use std::fmt::Debug;

    /// Every control there is.
    const CONTROLS: [Control; 5] = [
        Control::Keyboard,
        Control::Mouse,
        Control::Hover,
        Control::Touch,
        Control::Mixed,
    ];

    /// A format of every kind, at the ends of the counted ones.
    fn formats() -> Vec<Format> {
        [
            "single",
            "bld",
            "marathon-2",
            "marathon-1000",
            "relay-4",
            "relay-10",
            "2-n-relay",
            "height-relay",
            "width-relay",
            "everything-relay",
        ]
        .map(|f| f.parse().unwrap())
        .to_vec()
    }

    /// Writes `values` to a scratch table and reads each back.
    async fn round_trip<T: Kept + PartialEq + Debug>(store: &crate::Store, values: &[T]) {
        sqlx::query("DELETE FROM kept_probe")
            .execute(&store.pool)
            .await
            .unwrap();
        for (i, value) in values.iter().enumerate() {
            sqlx::query("INSERT INTO kept_probe (i, v) VALUES ($1, $2)")
                .bind(i as i64)
                .bind(value.kept())
                .execute(&store.pool)
                .await
                .unwrap();
        }
        let rows = sqlx::query("SELECT v FROM kept_probe ORDER BY i")
            .fetch_all(&store.pool)
            .await
            .unwrap();
        let read: Vec<T> = rows.iter().map(|r| kept_at(r, "v").unwrap()).collect();
        assert_eq!(read, values);
    }

    #[test]
    fn every_value_of_every_kept_type_reads_back_from_the_database() {
        runtime().block_on(async {
            let store = fresh().await;
            sqlx::query("CREATE TABLE kept_probe (i BIGINT NOT NULL, v TEXT NOT NULL)")
                .execute(&store.pool)
                .await
                .unwrap();
            round_trip(&store, &GameKind::ALL).await;
            round_trip(&store, &formats()).await;
            round_trip(&store, &CONTROLS).await;
            round_trip(&store, &Display::ALL).await;
        });
    }

    #[test]
    fn the_column_forms_are_those_the_stored_rows_hold() {
        // Rows written before these types existed hold these texts: a
        // change here would orphan them.
        let games = GameKind::ALL.map(|g| g.kept());
        assert_eq!(games, ["slide", "shisen"]);
        let controls = CONTROLS.map(|c| c.kept());
        assert_eq!(controls, ["keyboard", "mouse", "hover", "touch", "mixed"]);
        assert_eq!(Display::Standard.kept(), "standard");
        assert_eq!(Format::Single.kept(), "single");
        assert_eq!(control_key(None), "");
        // Nothing else reads: not another spelling, not every control.
        assert_eq!(Format::read("Single"), None);
        assert_eq!(Control::read("click"), None);
        assert_eq!(Control::read(""), None);
        assert_eq!(GameKind::read("Slide"), None);
    }
}
