//! Online backups of a SQLite database: a consistent copy taken while the
//! server writes to it. `VACUUM INTO` reads the database in one read
//! transaction (writers go on, in write-ahead logging) and writes a
//! compact copy; the copy is written next to its destination and renamed
//! over it only once checked, so the destination is always a whole
//! database.

use std::path::{Path, PathBuf};

use sqlx::{Connection, SqliteConnection};

use super::{Database, DatabaseError};

/// What a backup copied.
#[derive(Debug)]
pub struct Backup {
    /// Results in the copy.
    pub results: i64,
    /// Size of the copy in bytes.
    pub bytes: u64,
}

/// Copies the live SQLite `database` to `file`, replacing it.
pub async fn backup(database: &Database, file: &Path) -> Result<Backup, DatabaseError> {
    let Database::Sqlite(source) = database else {
        return Err(DatabaseError::Address(
            "backups of PostgreSQL are pg_dump's: pg_dump --format=custom --file=FILE URL \
             (restore: pg_restore --clean --if-exists --dbname=URL FILE)"
                .into(),
        ));
    };
    if !source.is_file() {
        return Err(DatabaseError::Address(format!(
            "no SQLite database at {}",
            source.display()
        )));
    }
    let partial = partial_name(file);
    let _ = std::fs::remove_file(&partial);
    let copied = copy(source, &partial).await;
    let checked = match copied {
        Ok(()) => check(&partial).await,
        Err(e) => Err(e),
    };
    let backup = match checked {
        Ok(backup) => backup,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, file)
        .map_err(|e| DatabaseError::Address(format!("cannot write {}: {e}", file.display())))?;
    Ok(backup)
}

/// `FILE.partial`, in the destination's directory so the rename is atomic.
fn partial_name(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    file.with_file_name(name)
}

/// `VACUUM INTO` over a read-only connection: the backup never writes to
/// the live database.
async fn copy(source: &Path, destination: &Path) -> Result<(), DatabaseError> {
    let url = format!(
        "sqlite://{}?mode=ro",
        std::path::absolute(source)
            .map_err(|e| DatabaseError::Address(format!("{}: {e}", source.display())))?
            .display()
    );
    let mut connection = SqliteConnection::connect(&url).await?;
    // Waits for a writer's checkpoint rather than failing at once.
    sqlx::query("PRAGMA busy_timeout = 10000")
        .execute(&mut connection)
        .await?;
    let target = destination.to_string_lossy().into_owned();
    sqlx::query("VACUUM INTO $1")
        .bind(target)
        .execute(&mut connection)
        .await?;
    connection.close().await?;
    Ok(())
}

/// Checks the copy (`PRAGMA integrity_check`) and counts its results.
async fn check(copy: &Path) -> Result<Backup, DatabaseError> {
    let url = format!("sqlite://{}?mode=ro", copy.display());
    let mut connection = SqliteConnection::connect(&url).await?;
    let (integrity,): (String,) = sqlx::query_as("PRAGMA integrity_check")
        .fetch_one(&mut connection)
        .await?;
    if integrity != "ok" {
        return Err(DatabaseError::Address(format!(
            "the copy fails its integrity check: {integrity}"
        )));
    }
    let (results,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM results")
        .fetch_one(&mut connection)
        .await?;
    connection.close().await?;
    let bytes = std::fs::metadata(copy).map_or(0, |m| m.len());
    Ok(Backup { results, bytes })
}
