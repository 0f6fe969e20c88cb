//! Every subcommand composes in a pipe: when the reader closes at once
//! (`tessera … | head -c 0`), the command ends quietly with success, never
//! a panic.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `tessera ARGS` with `input` on stdin and a stdout whose reader
/// has already gone; checks that it exits 0 (or 141, SIGPIPE's code) with
/// nothing on stderr.
fn closed_pipe(args: &[&str], input: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes before the first byte is written.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // The command may end before reading it all: that is its right.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let code = output.status.code();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        matches!(code, Some(0) | Some(141)),
        "{args:?} exited {code:?}: {stderr}"
    );
    assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
}

#[test]
fn every_subcommand_ends_quietly_when_its_reader_goes() {
    let positions = "8 6 7/2 5 4/3 0 1\n".repeat(50);
    let boards = "AB\nBA\n\nAB\nBA\n".repeat(20);
    let cases: [(&[&str], &str); 15] = [
        (&["demo"], ""),
        (
            &[
                "slide", "new", "--size", "4x4", "--seed", "1", "--count", "200",
            ],
            "",
        ),
        (&["slide", "check", "-"], &positions),
        (&["slide", "solve", "-"], &positions),
        (&["slide", "hint", "-"], &positions),
        (&["slide", "apply", "8 6 7/2 5 4/3 0 1", "D"], ""),
        (&["slide", "render", "8 6 7/2 5 4/3 0 1", "-o", "-"], ""),
        (&["slide", "tables", "status"], ""),
        (&["shisen", "new", "--seed", "1", "--count", "20"], ""),
        (&["shisen", "moves", "-"], &boards),
        (&["shisen", "solve", "-"], &boards),
        (&["shisen", "hint", "-"], &boards),
        (&["shisen", "render", "AB/BA", "-o", "-"], ""),
        (&["shisen", "replay", "--seed", "1"], ""),
        (&["--help"], ""),
    ];
    for (args, input) in cases {
        closed_pipe(args, input);
    }
}
