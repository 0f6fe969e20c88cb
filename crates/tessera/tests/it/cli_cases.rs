//! The command line as a user sees it: every case under `tests/cmd` runs
//! `tessera` with its arguments (and stdin) and compares the exit code,
//! stdout and stderr with what the case says, one file per example
//! (`*.toml` with `*.stdout`/`*.stderr` beside it, or `*.md` sessions).
//! The examples of the command-line chapter (`docs/command-line.md`) are
//! checked the same way, so the documentation cannot drift from the
//! binary.
//!
//! After a deliberate change of output, `TRYCMD=overwrite cargo test -p
//! tessera --test it cli_cases` rewrites the expected files; review the
//! diff.

#[test]
fn cli_cases() {
    // Tables a case builds go to a cache of the tests', not the user's.
    let cache = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-cases-cache");
    trycmd::TestCases::new()
        .register_bin(
            "tessera",
            std::path::Path::new(env!("CARGO_BIN_EXE_tessera")),
        )
        .env("TESSERA_TABLES", "small")
        .env("XDG_CACHE_HOME", cache.display().to_string())
        .case("tests/cmd/*.toml")
        .case("tests/cmd/*.md")
        .case("../../docs/command-line.md");
}
