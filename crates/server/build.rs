//! Embeds in the binary what the server serves: the page's files
//! (`static/`), `(name, content type, text)`, as a table generated into
//! `OUT_DIR` and read by `web::assets`, so that a file added to the
//! directory is never left out by a hand-kept list. (The store embeds its
//! migrations the same way, in its own crate.)

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
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
