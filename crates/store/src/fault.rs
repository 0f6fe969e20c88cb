//! What went wrong with the database, as an operator and a client need to
//! know it: a full disk, a database that cannot be reached, one busy with
//! another writer, or a fault in the query itself. And whether writes are
//! failing now, for the readiness check.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

/// A database error, as the store returns it: what failed (its message),
/// and what kind of fault it is ([`Error::fault`]).
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Error(#[from] sqlx::Error);

impl Error {
    /// The kind of fault: what an operator and a client need to know.
    pub fn fault(&self) -> Fault {
        Fault::of(&self.0)
    }

    /// sqlx's error, for the tests that look into it.
    #[cfg(test)]
    pub(crate) fn into_sqlx(self) -> sqlx::Error {
        self.0
    }
}

/// The kind of a database error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No space left for the database (SQLite `SQLITE_FULL`, an I/O error
    /// writing, PostgreSQL class 53100 `disk_full`).
    DiskFull,
    /// The database cannot be reached: no connection in time, the
    /// connection lost, the server shutting down or out of resources.
    Unavailable,
    /// The file system fails the database's writes or files (an I/O
    /// error, a read-only file system).
    Storage,
    /// Another writer holds the lock longer than a request may wait.
    Busy,
    /// Anything else: a fault of the query or the data.
    Query,
}

impl Fault {
    /// Classifies an error of either database.
    pub(crate) fn of(error: &sqlx::Error) -> Fault {
        match error {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => Fault::Unavailable,
            sqlx::Error::Io(e) if is_no_space(e) => Fault::DiskFull,
            sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::WorkerCrashed => {
                Fault::Unavailable
            }
            sqlx::Error::Database(e) => match e.code() {
                Some(code) => Fault::of_code(&code),
                None => Fault::Query,
            },
            _ => Fault::Query,
        }
    }

    /// A SQLite extended result code (digits) or a PostgreSQL SQLSTATE
    /// (five characters).
    fn of_code(code: &str) -> Fault {
        if code.len() == 5 {
            return match code {
                "53100" => Fault::DiskFull,
                "55P03" | "40P01" => Fault::Busy,
                _ if code.starts_with("08") || code.starts_with("53") => Fault::Unavailable,
                _ if code.starts_with("57P") || code.starts_with("58") => Fault::Unavailable,
                _ => Fault::Query,
            };
        }
        // The primary SQLite code is the low byte of the extended one.
        match code.parse::<i32>().map(|c| c & 0xff) {
            Ok(13) => Fault::DiskFull,
            Ok(5 | 6) => Fault::Busy,
            // SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN.
            Ok(8 | 10 | 14) => Fault::Storage,
            _ => Fault::Query,
        }
    }

    /// The label of the metrics and logs.
    pub fn label(self) -> &'static str {
        match self {
            Fault::DiskFull => "disk_full",
            Fault::Unavailable => "unavailable",
            Fault::Storage => "storage",
            Fault::Busy => "busy",
            Fault::Query => "query",
        }
    }

    /// Whether writes fail for it whatever they write.
    fn fails_writes(self) -> bool {
        matches!(self, Fault::DiskFull | Fault::Storage)
    }
}

fn is_no_space(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
    )
}

/// Whether the last write failed for want of space or storage, shared by the pool's
/// users: set by a failed write, cleared by a successful one.
#[derive(Clone, Default)]
pub struct WriteHealth(Arc<AtomicU8>);

impl WriteHealth {
    /// Notes how a write went: a failure for want of space or storage
    /// marks writes failing until [`WriteHealth::clear`] (a write can
    /// succeed on a full disk now and then, in log space already held, so
    /// one success does not say the disk has room).
    pub fn note<T>(&self, result: &Result<T, Fault>) {
        if matches!(result, Err(fault) if fault.fails_writes()) {
            self.set(true);
        }
    }

    /// Writes succeed again (the readiness check found room).
    pub fn clear(&self) {
        self.set(false);
    }

    fn set(&self, failing: bool) {
        let before = self.0.swap(u8::from(failing), Ordering::Relaxed) == 1;
        if before != failing {
            metrics::gauge!("tessera_db_writes_failing").set(f64::from(u8::from(failing)));
            if failing {
                tracing::error!("writes fail: the database's disk is full or failing");
            } else {
                tracing::info!("writes succeed again");
            }
        }
    }

    /// Whether the last write failed for want of space or storage.
    pub fn failing(&self) -> bool {
        self.0.load(Ordering::Relaxed) == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_of_both_databases_are_told_apart() {
        assert_eq!(Fault::of_code("13"), Fault::DiskFull);
        assert_eq!(Fault::of_code("778"), Fault::Storage); // SQLITE_IOERR_WRITE
        assert_eq!(Fault::of_code("5"), Fault::Busy);
        assert_eq!(Fault::of_code("517"), Fault::Busy); // SQLITE_BUSY_SNAPSHOT
        assert_eq!(Fault::of_code("2067"), Fault::Query); // SQLITE_CONSTRAINT_UNIQUE
        assert_eq!(Fault::of_code("53100"), Fault::DiskFull);
        assert_eq!(Fault::of_code("57P01"), Fault::Unavailable);
        assert_eq!(Fault::of_code("08006"), Fault::Unavailable);
        assert_eq!(Fault::of_code("23505"), Fault::Query);
        assert_eq!(Fault::of(&sqlx::Error::PoolTimedOut), Fault::Unavailable);
        let full = std::io::Error::from(std::io::ErrorKind::StorageFull);
        assert_eq!(Fault::of(&sqlx::Error::Io(full)), Fault::DiskFull);
    }

    #[test]
    fn the_stores_error_says_what_sqlx_said_and_classes_it_alike() {
        let full = || sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::StorageFull));
        let error = Error::from(full());
        assert_eq!(error.to_string(), full().to_string());
        assert_eq!(error.fault(), Fault::DiskFull);
        let error = Error::from(sqlx::Error::PoolTimedOut);
        assert_eq!(error.fault(), Fault::Unavailable);
        assert!(matches!(error.into_sqlx(), sqlx::Error::PoolTimedOut));
    }
}
