//! The schema's migrations, embedded in the binary by `build.rs` (which says
//! why not sqlx's `migrate!`), resolved the way sqlx resolves a directory:
//! `<version>_<description>.sql`, applied in version order.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{MigrateError, Migration, MigrationSource, MigrationType, Migrator};

include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// The migrations of one database: `(file name, SQL)` in version order.
#[derive(Debug)]
struct Embedded(&'static [(&'static str, &'static str)]);

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move {
            self.0
                .iter()
                .map(|&(file, sql)| migration(file, sql))
                .collect()
        })
    }
}

/// One migration as sqlx reads it from a file: the same version,
/// description and SQL, so the same checksum as databases already migrated
/// by earlier builds recorded.
fn migration(file: &str, sql: &'static str) -> Result<Migration, BoxDynError> {
    let (version, rest) = file
        .split_once('_')
        .ok_or_else(|| format!("migration {file:?}: expected <version>_<description>.sql"))?;
    let version: i64 = version
        .parse()
        .map_err(|_| format!("migration {file:?}: the version is not an integer"))?;
    let kind = MigrationType::from_filename(rest);
    let description = rest.trim_end_matches(kind.suffix()).replace('_', " ");
    let no_transaction = sql.starts_with("-- no-transaction");
    Ok(Migration::new(
        version,
        Cow::Owned(description),
        kind,
        Cow::Borrowed(sql),
        no_transaction,
    ))
}

/// The migrator of SQLite (`sqlite`) or PostgreSQL.
pub(super) async fn migrator(sqlite: bool) -> Result<Migrator, MigrateError> {
    Migrator::new(Embedded(if sqlite { SQLITE } else { POSTGRES })).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// What sqlx's own directory reader makes of the same files: the
    /// embedded tables must match it migration by migration.
    fn from_directory(dir: &str) -> Vec<Migration> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("migrations")
            .join(dir);
        sqlx::migrate::resolve_blocking(&path)
            .expect("the migrations directory reads")
            .into_iter()
            .map(|(migration, _)| migration)
            .collect()
    }

    #[test]
    fn embedded_migrations_equal_the_directories_sqlx_would_read() {
        for (dir, table) in [("sqlite", SQLITE), ("postgres", POSTGRES)] {
            let embedded: Vec<Migration> = table
                .iter()
                .map(|&(file, sql)| migration(file, sql).unwrap())
                .collect();
            let read = from_directory(dir);
            assert_eq!(embedded.len(), read.len(), "{dir}: every file is embedded");
            for (ours, theirs) in embedded.iter().zip(&read) {
                assert_eq!(ours.version, theirs.version, "{dir}");
                assert_eq!(ours.description, theirs.description, "{dir}");
                assert_eq!(ours.checksum, theirs.checksum, "{dir} {}", ours.version);
                assert_eq!(ours.no_tx, theirs.no_tx, "{dir} {}", ours.version);
            }
        }
    }

    #[test]
    fn a_misnamed_migration_is_an_error_naming_it() {
        let error = migration("init.sql", "").unwrap_err().to_string();
        assert!(error.contains("init.sql"), "{error}");
        let error = migration("one_init.sql", "").unwrap_err().to_string();
        assert!(error.contains("one_init.sql"), "{error}");
    }
}
