//! The `tessera` command: everything is in the library (`lib.rs`).

fn main() -> std::process::ExitCode {
    tessera::run()
}
