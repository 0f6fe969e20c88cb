//! Embeds the database migrations (`migrations/sqlite`,
//! `migrations/postgres`) in the crate, as a table generated into
//! `OUT_DIR`, `(file name, SQL)`, read by `migrations`: a file added to
//! either directory is never left out by a hand-kept list.
//!
//! sqlx's `migrate!` macro embeds them too, but it brings sqlx's macro crate
//! and with it a second build of sqlx's drivers for the compiler's host
//! (SQLite's C source included) into every build and every clippy run. Listing
//! the files here costs nothing.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let target = Path::new(&out_dir).join("migrations.rs");
    fs::write(&target, migrations(&manifest))
        .unwrap_or_else(|e| panic!("writing {}: {e}", target.display()));
}

/// The migrations of both databases, in version order.
fn migrations(manifest: &str) -> String {
    let mut out = String::new();
    for (name, dir) in [("SQLITE", "sqlite"), ("POSTGRES", "postgres")] {
        let dir = Path::new(manifest).join("migrations").join(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files: Vec<_> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|entry| entry.expect("a readable directory entry").path())
            .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == "sql"))
            .collect();
        files.sort();
        writeln!(out, "pub(super) const {name}: &[(&str, &str)] = &[").unwrap();
        for path in files {
            let file = path.file_name().unwrap().to_string_lossy();
            writeln!(
                out,
                "    ({file:?}, include_str!({:?})),",
                path.display().to_string()
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    out
}
