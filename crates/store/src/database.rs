//! Which database the store opens: `--db` (or `DATABASE_URL`) read at the
//! edge. A `postgres://` or `postgresql://` URL is PostgreSQL; a `sqlite:`
//! URL or a plain path is a SQLite file.

use std::fmt;
use std::path::PathBuf;

use sqlx::migrate::MigrateDatabase;

/// A database to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, created with its tables on first use.
    Sqlite(PathBuf),
    /// A PostgreSQL database URL (`postgres://user:pass@host:port/db`).
    Postgres(String),
}

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// The `--db` text names no database.
    #[error("{0}")]
    Address(String),
    #[error(transparent)]
    /// The database refused or could not be reached.
    Sql(#[from] crate::Error),
    #[error(transparent)]
    /// A migration failed.
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl From<sqlx::Error> for DatabaseError {
    fn from(error: sqlx::Error) -> DatabaseError {
        DatabaseError::Sql(error.into())
    }
}

impl std::str::FromStr for Database {
    type Err = String;

    fn from_str(text: &str) -> Result<Database, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("the database is empty: give a file path or a postgres:// URL".into());
        }
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(Database::Postgres(text.to_string()));
        }
        if let Some(rest) = text.strip_prefix("sqlite:") {
            let path = rest.trim_start_matches("//");
            if path.is_empty() || path == ":memory:" {
                return Err(
                    "a SQLite database needs a file: sqlite:PATH (records must survive a restart)"
                        .into(),
                );
            }
            return Ok(Database::Sqlite(PathBuf::from(path)));
        }
        if text.contains("://") {
            return Err(format!(
                "unknown database {text:?}: use a SQLite file path (or sqlite:PATH) or a postgres:// URL"
            ));
        }
        Ok(Database::Sqlite(PathBuf::from(text)))
    }
}

impl fmt::Display for Database {
    /// The database as logs show it: a PostgreSQL URL without its password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => {
                let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
                match rest.rsplit_once('@') {
                    Some((credentials, host)) => {
                        let user = credentials.split_once(':').map_or(credentials, |(u, _)| u);
                        write!(f, "postgres://{user}@{host}")
                    }
                    None => write!(f, "postgres://{rest}"),
                }
            }
        }
    }
}

impl Database {
    /// The URL sqlx connects to. A SQLite file is named by its absolute
    /// path, created if missing (`mode=rwc`).
    pub fn url(&self) -> Result<String, DatabaseError> {
        match self {
            Database::Postgres(url) => Ok(url.clone()),
            Database::Sqlite(path) => {
                let absolute = std::path::absolute(path).map_err(|e| {
                    DatabaseError::Address(format!("cannot resolve {}: {e}", path.display()))
                })?;
                let text = absolute.to_string_lossy();
                if text.contains(['?', '#']) {
                    return Err(DatabaseError::Address(format!(
                        "{text}: a SQLite path may not contain '?' or '#'"
                    )));
                }
                Ok(format!("sqlite://{text}?mode=rwc"))
            }
        }
    }

    /// Creates a PostgreSQL database that does not exist yet (the user
    /// must be allowed to); a SQLite file is created on connect.
    pub(crate) async fn create_if_missing(&self, url: &str) -> Result<(), DatabaseError> {
        if let Database::Postgres(_) = self {
            if !sqlx::Any::database_exists(url).await? {
                // Instances starting together race to create it: losing
                // that race is fine.
                if let Err(e) = sqlx::Any::create_database(url).await {
                    if !sqlx::Any::database_exists(url).await? {
                        return Err(e.into());
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_urls_name_their_database() {
        let db = |t: &str| t.parse::<Database>();
        assert_eq!(db("tessera.db"), Ok(Database::Sqlite("tessera.db".into())));
        assert_eq!(
            db("sqlite:data/t.db"),
            Ok(Database::Sqlite("data/t.db".into()))
        );
        assert_eq!(
            db("sqlite:///var/t.db"),
            Ok(Database::Sqlite("/var/t.db".into()))
        );
        assert!(matches!(
            db("postgres://u:p@h:5432/d"),
            Ok(Database::Postgres(_))
        ));
        assert!(matches!(db("postgresql://h/d"), Ok(Database::Postgres(_))));
        for bad in ["", "mysql://h/d", "sqlite::memory:", "sqlite:"] {
            assert!(db(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn logs_never_show_a_password() {
        let db: Database = "postgres://tessera:s3cret@db.local:5432/records"
            .parse()
            .unwrap();
        let shown = db.to_string();
        assert!(!shown.contains("s3cret"), "{shown}");
        assert_eq!(shown, "postgres://tessera@db.local:5432/records");
        let no_password: Database = "postgresql://tessera@127.0.0.1:5432/t".parse().unwrap();
        assert_eq!(
            no_password.to_string(),
            "postgres://tessera@127.0.0.1:5432/t"
        );
        let no_user: Database = "postgres://localhost/t".parse().unwrap();
        assert_eq!(no_user.to_string(), "postgres://localhost/t");
    }
}
