//! Positions and moves too large for a command line come from stdin (`-`)
//! or a file (`@FILE`): a fast solution of a large board is checked with
//! `slide apply`, and a large board drawn with `slide render`.

use crate::common;

use assert_cmd::Command;
use common::server::temp_dir;

fn tessera() -> Command {
    Command::cargo_bin("tessera").unwrap()
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_fast_solution_too_long_for_a_command_line_is_applied_from_files() {
    let dir = temp_dir();
    let position = dir.join("position.txt");
    let moves = dir.join("moves.txt");
    let text = stdout(tessera().args(["slide", "new", "--size", "120x120", "--seed", "3"]));
    std::fs::write(&position, &text).unwrap();
    let at_position = format!("@{}", position.display());
    let solution = stdout(tessera().args(["slide", "solve", "--fast", &at_position]));
    // Millions of moves: far beyond what a shell passes as an argument.
    assert!(solution.trim().len() > 2_000_000, "{}", solution.len());
    std::fs::write(&moves, &solution).unwrap();
    let at_moves = format!("@{}", moves.display());
    let applied = stdout(tessera().args(["slide", "apply", "--json", &at_position, &at_moves]));
    let line: serde_json::Value = serde_json::from_str(&applied).unwrap();
    assert_eq!(
        line["solved"],
        true,
        "{}",
        &applied[..200.min(applied.len())]
    );
    assert_eq!(
        line["stm"].as_u64().unwrap() as usize,
        solution.trim().len()
    );
    // The same through stdin, the position from the file.
    let piped = stdout(
        tessera()
            .args(["slide", "apply", "--json", &at_position, "-"])
            .write_stdin(solution.clone()),
    );
    assert_eq!(piped, applied);
    // One move short is not solved.
    let short = &solution.trim()[..solution.trim().len() - 1];
    let piped = stdout(
        tessera()
            .args(["slide", "apply", "--json", &at_position, "-"])
            .write_stdin(short.to_string()),
    );
    assert!(piped.contains("\"solved\":false"), "{piped}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_large_board_is_drawn_from_stdin() {
    let text = stdout(tessera().args(["slide", "new", "--size", "200x200", "--seed", "1"]));
    let svg = stdout(
        tessera()
            .args(["slide", "render", "-", "-o", "-"])
            .write_stdin(text),
    );
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..100]
    );
    // Every tile is drawn: its number appears as a text element.
    assert!(svg.contains(">39999<"), "tile 39999 missing");
}

#[test]
fn missing_files_empty_stdin_and_two_stdins_are_input_errors() {
    let err = |args: &[&str], input: &str| {
        let out = tessera()
            .args(args)
            .write_stdin(input.to_string())
            .assert()
            .code(2);
        String::from_utf8(out.get_output().stderr.clone()).unwrap()
    };
    let e = err(&["slide", "apply", "@/nonexistent/p.txt", "L"], "");
    assert!(e.contains("cannot read /nonexistent/p.txt"), "{e}");
    let e = err(&["slide", "apply", "-", "-"], "1 2 3/4 5 6/7 0 8");
    assert!(e.contains("cannot both come from stdin"), "{e}");
    let e = err(&["slide", "render", "-", "-o", "-"], "  \n");
    assert!(e.contains("empty"), "{e}");
    let e = err(&["slide", "solve", "@/nonexistent/p.txt"], "");
    assert!(e.contains("cannot read"), "{e}");
}

#[test]
fn shisen_boards_come_from_a_file_and_slide_checks_default_to_stdin() {
    let dir = temp_dir();
    let boards = dir.join("boards.txt");
    let dealt = stdout(tessera().args(["shisen", "new", "--seed", "1", "--count", "2"]));
    std::fs::write(&boards, &dealt).unwrap();
    let from_file = stdout(tessera().args([
        "shisen",
        "moves",
        "--count",
        &format!("@{}", boards.display()),
    ]));
    let from_stdin = stdout(
        tessera()
            .args(["shisen", "moves", "--count"])
            .write_stdin(dealt),
    );
    assert_eq!(from_file, from_stdin);
    assert_eq!(from_file.lines().count(), 2);
    // `@` is a tile too: without such a file, `@@` is a board.
    let at = stdout(tessera().args(["shisen", "moves", "--count", "@@"]));
    assert_eq!(at.trim(), "1");
    // check and hint read stdin when no position is given, as solve does.
    let checked = stdout(
        tessera()
            .args(["slide", "check"])
            .write_stdin("1 2 3/4 5 6/8 7 0\n"),
    );
    assert_eq!(checked.trim(), "unsolvable");
    let hinted = stdout(
        tessera()
            .args(["slide", "hint"])
            .write_stdin("1 2 3/4 5 6/7 0 8\n"),
    );
    assert_eq!(hinted.trim(), "L");
    std::fs::remove_dir_all(dir).unwrap();
}
