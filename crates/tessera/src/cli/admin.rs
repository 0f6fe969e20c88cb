//! `tessera admin`: what an operator runs beside the server.

use std::path::PathBuf;

use accounts::{self as account, Handle};
use clap::{Args, Subcommand};

use crate::failure::Failure;
use store::{Account, Database, DatabaseError, FillError, PasswordKind, Store};

#[derive(Subcommand)]
pub enum AdminCommand {
    /// A consistent copy of a live SQLite database, taken while the server
    /// writes to it (PostgreSQL: pg_dump, see docs/operations.md). FILE is
    /// replaced only by a complete, checked copy; restore by stopping the
    /// server and putting the copy in the database's place.
    #[command(after_help = examples!(
        "tessera admin backup --db records.db backup.db",
        "tessera admin backup --db records.db \"records-$(date +%F).db\"",
    ))]
    Backup {
        /// The database to copy: a SQLite file (or sqlite:PATH).
        #[arg(long, env = "DATABASE_URL", default_value = "tessera.db", value_parser = super::parse_database)]
        db: Database,
        /// Where to write the copy.
        file: PathBuf,
    },
    /// Accounts: make one, list them, disable or enable one, reset a
    /// password.
    #[command(subcommand)]
    Users(UsersCommand),
    /// Fills an empty database with synthetic results, to measure the
    /// records page at scale (scripts/bench-records): one account per 200
    /// results, one guest per 100, mostly 4×4 single solves. Refuses a
    /// database that holds any result.
    #[command(
        hide = true,
        after_help = examples!(
            "tessera admin fill --db /tmp/load.db --results 1000000",
            "tessera admin fill --db postgres://tessera@localhost/load --results 10000 --seed 2",
        )
    )]
    Fill {
        #[command(flatten)]
        db: Db,
        /// How many results.
        #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        results: u64,
        /// The same seed fills the same database.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The database the server uses.
#[derive(Args)]
pub struct Db {
    /// The records' database, as `serve` takes it: a SQLite file (or
    /// sqlite:PATH) or a PostgreSQL URL postgres://user:pass@host:port/db.
    #[arg(long, env = "DATABASE_URL", default_value = "tessera.db", value_parser = super::parse_database)]
    db: Database,
}

#[derive(Subcommand)]
pub enum UsersCommand {
    /// Makes an account with a one-time password, printed once: signing in
    /// with it, the owner must choose a password of their own before
    /// anything else.
    #[command(after_help = examples!("tessera admin users create Ada_L --db records.db"))]
    Create {
        /// The handle: 3–20 characters of A–Z a–z 0–9 _ -, unique
        /// regardless of case.
        #[arg(value_parser = parse_handle)]
        handle: Handle,
        #[command(flatten)]
        db: Db,
    },
    /// Every account: handle, the day it was made (UTC), enabled or
    /// disabled.
    #[command(after_help = examples!(
        "tessera admin users list --db records.db",
        "tessera admin users list --db records.db | head -20",
    ))]
    List {
        #[command(flatten)]
        db: Db,
    },
    /// Disables an account: it cannot sign in, its sessions end at once,
    /// and its results leave the records (they return if it is enabled).
    #[command(after_help = examples!("tessera admin users disable Ada_L --db records.db"))]
    Disable {
        /// The account's handle, in any case.
        #[arg(value_parser = parse_handle)]
        handle: Handle,
        #[command(flatten)]
        db: Db,
    },
    /// Enables a disabled account again.
    #[command(after_help = examples!("tessera admin users enable ada_l --db records.db"))]
    Enable {
        /// The account's handle, in any case.
        #[arg(value_parser = parse_handle)]
        handle: Handle,
        #[command(flatten)]
        db: Db,
    },
    /// Replaces an account's password with a one-time password, printed
    /// once (there is no mail server: hand it to the owner, who must
    /// replace it when signing in with it, before anything else), and ends
    /// every session of the account.
    #[command(after_help = examples!("tessera admin users reset-password Ada_L --db records.db"))]
    ResetPassword {
        /// The account's handle, in any case.
        #[arg(value_parser = parse_handle)]
        handle: Handle,
        #[command(flatten)]
        db: Db,
    },
}

fn parse_handle(text: &str) -> Result<Handle, String> {
    Handle::parse(text).map_err(|e| e.to_string())
}

pub fn run(command: AdminCommand) -> Result<(), Failure> {
    match command {
        AdminCommand::Backup { db, file } => backup(&db, &file),
        AdminCommand::Users(command) => users(command),
        AdminCommand::Fill { db, results, seed } => fill(&db.db, results, seed),
    }
}

fn fill(db: &Database, results: u64, seed: u64) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Failure::io)?;
    runtime.block_on(async {
        // A connection for each account the chores work on at once.
        let store = Store::open(db, store::CHORES_AT_ONCE as u32)
            .await
            .map_err(|e| Failure::Other(format!("cannot open {db}: {e}")))?;
        let filled = store.fill(results, seed).await.map_err(|e| match e {
            FillError::NotEmpty(_) => Failure::input(e.to_string()),
            FillError::Db(e) => failed(e),
        })?;
        outln!(
            "filled {db}: {} results, {} accounts, {} guests; rows {:.1} s, bests {:.1} s",
            filled.results,
            filled.accounts,
            filled.guests,
            filled.rows.as_secs_f64(),
            filled.averages.as_secs_f64()
        );
        Ok(())
    })
}

fn users(command: UsersCommand) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Failure::io)?;
    runtime.block_on(async {
        match command {
            UsersCommand::Create { handle, db } => create(&open(&db.db).await?, &handle).await,
            UsersCommand::List { db } => list(&open(&db.db).await?).await,
            UsersCommand::Disable { handle, db } => {
                set_disabled(&open(&db.db).await?, &handle, true).await
            }
            UsersCommand::Enable { handle, db } => {
                set_disabled(&open(&db.db).await?, &handle, false).await
            }
            UsersCommand::ResetPassword { handle, db } => {
                reset_password(&open(&db.db).await?, &handle).await
            }
        }
    })
}

/// The server's database; a SQLite file that is not there is an error,
/// not a new empty database (a mistyped path).
async fn open(db: &Database) -> Result<Store, Failure> {
    if let Database::Sqlite(path) = db {
        if !path.exists() {
            return Err(Failure::input(format!("no database at {}", path.display())));
        }
    }
    Store::open(db, 1)
        .await
        .map_err(|e| Failure::Other(format!("cannot open {db}: {e}")))
}

fn failed(e: store::Error) -> Failure {
    Failure::Other(format!("the database failed: {e}"))
}

async fn find(store: &Store, handle: &Handle) -> Result<Account, Failure> {
    store
        .account_by_handle(handle)
        .await
        .map_err(failed)?
        .ok_or_else(|| Failure::input(format!("no account has the handle {handle}")))
}

async fn create(store: &Store, handle: &Handle) -> Result<(), Failure> {
    let password = account::one_time_password();
    let hash = account::hash_password(&password);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    match store
        .create_account(handle, &hash, PasswordKind::OneTime, now)
        .await
        .map_err(failed)?
    {
        Some(_) => {
            outln!("created {handle}; one-time password: {password}");
            Ok(())
        }
        None => Err(Failure::input(format!("the handle {handle} is taken"))),
    }
}

async fn list(store: &Store) -> Result<(), Failure> {
    for a in store.accounts().await.map_err(failed)? {
        let status = if a.disabled { "disabled" } else { "enabled" };
        outln!("{:<20}  {}  {status}", a.handle, day(a.created_at));
    }
    Ok(())
}

async fn set_disabled(store: &Store, handle: &Handle, disabled: bool) -> Result<(), Failure> {
    let account = find(store, handle).await?;
    store
        .set_disabled(&account.id, disabled)
        .await
        .map_err(failed)?;
    if disabled {
        outln!(
            "disabled {}: its sessions ended, its results left the records",
            account.handle
        );
    } else {
        outln!("enabled {}", account.handle);
    }
    Ok(())
}

async fn reset_password(store: &Store, handle: &Handle) -> Result<(), Failure> {
    let account = find(store, handle).await?;
    let password = account::one_time_password();
    let hash = account::hash_password(&password);
    store
        .set_password(&account.id, &hash, PasswordKind::OneTime)
        .await
        .map_err(failed)?;
    let ended = store
        .end_sessions(&account.id, None)
        .await
        .map_err(failed)?;
    outln!(
        "{}: one-time password {password} ({ended} sessions ended)",
        account.handle
    );
    Ok(())
}

/// The UTC day of a time in milliseconds since the epoch, as YYYY-MM-DD
/// (Howard Hinnant's civil-from-days).
fn day(millis: i64) -> String {
    let z = millis.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

fn backup(db: &Database, file: &std::path::Path) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Failure::io)?;
    match runtime.block_on(store::backup(db, file)) {
        Ok(done) => {
            outln!(
                "backed up {db} to {} ({} results, {} bytes)",
                file.display(),
                done.results,
                done.bytes
            );
            Ok(())
        }
        Err(DatabaseError::Address(message)) => Err(Failure::input(message)),
        Err(e) => Err(Failure::Other(format!("backup of {db} failed: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::day;

    #[test]
    fn days_are_utc_calendar_days() {
        assert_eq!(day(0), "1970-01-01");
        assert_eq!(day(951_782_400_000), "2000-02-29");
        assert_eq!(day(1_795_599_235_682), "2026-11-25");
        assert_eq!(day(-1), "1969-12-31");
    }
}
