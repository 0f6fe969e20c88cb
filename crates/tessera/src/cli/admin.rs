//! `tessera admin`: what an operator runs beside the server.

use std::path::PathBuf;

use clap::Subcommand;

use crate::failure::Failure;
use crate::store::{Database, DatabaseError};

#[derive(Subcommand)]
pub enum AdminCommand {
    /// A consistent copy of a live SQLite database, taken while the server
    /// writes to it (PostgreSQL: pg_dump, see the README). FILE is
    /// replaced only by a complete, checked copy; restore by stopping the
    /// server and putting the copy in the database's place.
    Backup {
        /// The database to copy: a SQLite file (or sqlite:PATH).
        #[arg(long, env = "DATABASE_URL", default_value = "tessera.db", value_parser = super::parse_database)]
        db: Database,
        /// Where to write the copy.
        file: PathBuf,
    },
}

pub fn run(command: AdminCommand) -> Result<(), Failure> {
    match command {
        AdminCommand::Backup { db, file } => backup(&db, &file),
    }
}

fn backup(db: &Database, file: &std::path::Path) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Failure::io)?;
    match runtime.block_on(crate::store::backup(db, file)) {
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
