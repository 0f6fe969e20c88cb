//! Embeds in the binary what the server serves and the store applies, as
//! tables generated into `OUT_DIR`, so that a file added to either
//! directory is never left out by a hand-kept list:
//!
//! - `static/`: the page's files, `(name, content type, text)`, read by
//!   `web::assets`;
//! - the database migrations (`migrations/sqlite`, `migrations/postgres`),
//!   `(file name, SQL)`, read by `store::migrations`.
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
    write(&out_dir, "migrations.rs", &migrations(&manifest));
    write(&out_dir, "static_files.rs", &static_files(&manifest));
}

/// The files of `dir`, sorted by name.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

fn write(out_dir: &str, name: &str, text: &str) {
    let target = Path::new(out_dir).join(name);
    fs::write(&target, text).unwrap_or_else(|e| panic!("writing {}: {e}", target.display()));
}

/// The page's files with the content type each is served as.
fn static_files(manifest: &str) -> String {
    let mut out = String::from("const FILES: &[(&str, &str, &str)] = &[\n");
    for path in files(&Path::new(manifest).join("static")) {
        let name = path.file_name().unwrap().to_string_lossy();
        let kind = content_type(&path);
        let text = path.display().to_string();
        writeln!(out, "    ({name:?}, {kind:?}, include_str!({text:?})),").unwrap();
    }
    out.push_str("];\n");
    out
}

/// A file of a kind the server does not know fails the build rather than
/// go unserved.
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("webmanifest") => "application/manifest+json",
        _ => panic!("{}: no content type for this kind of file", path.display()),
    }
}

/// The migrations of both databases, in version order.
fn migrations(manifest: &str) -> String {
    let mut out = String::new();
    for (name, dir) in [("SQLITE", "sqlite"), ("POSTGRES", "postgres")] {
        let dir = Path::new(manifest).join("migrations").join(dir);
        writeln!(out, "pub(super) const {name}: &[(&str, &str)] = &[").unwrap();
        for path in files(&dir) {
            if path.extension().is_none_or(|e| e != "sql") {
                continue;
            }
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
