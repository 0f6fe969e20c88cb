//! `tessera shisen …`: outputs and exit codes.

use crate::common;

use assert_cmd::Command;
use common::cli::answers;
use predicates::prelude::*;

fn tessera() -> Command {
    Command::cargo_bin("tessera").unwrap()
}

#[test]
fn new_deals_reproducible_full_boards() {
    let out = tessera()
        .args(["shisen", "new", "--seed", "7"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 8);
    assert!(rows
        .iter()
        .all(|r| r.chars().count() == 18 && !r.contains('.')));
    let again = tessera()
        .args(["shisen", "new", "--seed", "7"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

#[test]
fn new_counts_presets_tiles_and_json() {
    let out = tessera()
        .args([
            "shisen", "new", "--preset", "14x6", "--tiles", "chinese", "--seed", "1", "--count",
            "3",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.split("\n\n").count(), 3);
    assert!(text.split("\n\n").all(|b| b.lines().count() == 6));
    tessera()
        .args([
            "shisen", "new", "--size", "6x4", "--tiles", "6x4", "--seed", "2", "--json",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::starts_with(r#"{"seed":2,"size":"6x4","tiles":"6x4","board":["#)
                .and(predicate::str::contains(r#""seed":2"#)),
        );
}

#[test]
fn new_rejects_bad_options_with_exit_2() {
    for args in [
        &["shisen", "new", "--size", "3x3"][..],
        &["shisen", "new", "--size", "65x2"],
        &["shisen", "new", "--preset", "20x10"],
        &["shisen", "new", "--tiles", "5x3"],
        &["shisen", "new", "--seed", "x"],
    ] {
        tessera()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::is_empty().not());
    }
}

#[test]
fn path_prints_corners_or_none() {
    // The same path as corner points, then as JSON.
    let path = [
        "shisen",
        "path",
        "1.2.1/2....",
        "--from",
        "0,0",
        "--to",
        "4,0",
    ];
    tessera()
        .args(path)
        .assert()
        .success()
        .stdout("0,0 0,-1 4,-1 4,0\n");
    tessera()
        .args(path)
        .arg("--json")
        .assert()
        .success()
        .stdout("{\"path\":[[0,0],[0,-1],[4,-1],[4,0]],\"length\":6,\"turns\":2}\n");
    // Mismatched kinds never connect.
    tessera()
        .args(["shisen", "path", "12/21", "--from", "0,0", "--to", "1,0"])
        .assert()
        .success()
        .stdout("none\n");
    // Diagonal pairs of a full 2 × 2 are blocked.
    tessera()
        .args([
            "shisen", "path", "12/21", "--from", "0,0", "--to", "1,1", "--json",
        ])
        .assert()
        .success()
        .stdout("{\"path\":null}\n");
}

#[test]
fn path_reads_many_boards_from_stdin() {
    tessera()
        .args(["shisen", "path", "-", "--from", "0,0", "--to", "1,0"])
        .write_stdin("11\n22\n\n12\n21\n")
        .assert()
        .success()
        .stdout("0,0 1,0\nnone\n");
}

#[test]
fn path_rejects_bad_input_with_exit_2() {
    let bad: [(&str, &str, &str); 4] = [
        ("11/22", "5,0", "off the 2x2 board"),
        ("1.1", "1,0", "no tile at 1,0"),
        ("11/2", "0,0", "line 2"),
        ("11/22", "x", "not a point"),
    ];
    for (board, from, message) in bad {
        tessera()
            .args(["shisen", "path", board, "--from", from, "--to", "0,0"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn moves_lists_pairs_per_board() {
    tessera()
        .args(["shisen", "moves", "-"])
        .write_stdin("1.2\n.12\n\n12\n21\n")
        .assert()
        .success()
        .stdout("0,0 1,1\n2,0 2,1\n\n");
    tessera()
        .args(["shisen", "moves", "--count", "-"])
        .write_stdin("1.2\n.12\n\n12\n21\n")
        .assert()
        .success()
        .stdout("2\n0\n");
    tessera()
        .args(["shisen", "moves", "--json", "1.2/.12"])
        .assert()
        .success()
        .stdout("{\"moves\":[[0,0,1,1],[2,0,2,1]]}\n");
    tessera()
        .args(["shisen", "moves", "--count", "--json", "1.2/.12"])
        .assert()
        .success()
        .stdout("{\"count\":2}\n");
}

#[test]
fn moves_uses_chinese_matching_on_request() {
    tessera()
        .args(["shisen", "moves", "--count", "st"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("kind 's'"));
    tessera()
        .args(["shisen", "moves", "--count", "--chinese", "st"])
        .assert()
        .success()
        .stdout("1\n");
}

#[test]
fn moves_handles_thousands_of_boards() {
    let boards = tessera()
        .args(["shisen", "new", "--seed", "1", "--count", "2000"])
        .output()
        .unwrap();
    let out = tessera()
        .args(["shisen", "moves", "--count", "-"])
        .write_stdin(boards.stdout)
        .output()
        .unwrap();
    assert!(out.status.success());
    let counts = String::from_utf8(out.stdout).unwrap();
    assert_eq!(counts.lines().count(), 2000);
    assert!(counts.lines().all(|l| l.parse::<usize>().is_ok()));
}

/// Runs of boards answered side by side give the one-job output, in
/// input order, and stop at a malformed board with its line in the whole
/// input.
#[test]
fn moves_with_jobs_answers_in_input_order() {
    let boards = tessera()
        .args(["shisen", "new", "--seed", "3", "--count", "300"])
        .output()
        .unwrap()
        .stdout;
    for mode in [&["--count"][..], &["--json"], &[]] {
        let run = |jobs: &str, input: &[u8]| {
            tessera()
                .args(["shisen", "moves", "--jobs", jobs])
                .args(mode)
                .arg("-")
                .write_stdin(input.to_vec())
                .output()
                .unwrap()
        };
        let one = run("1", &boards);
        assert!(one.status.success());
        for jobs in ["2", "5"] {
            assert_eq!(
                run(jobs, &boards).stdout,
                one.stdout,
                "{mode:?} --jobs {jobs}"
            );
        }
        // A malformed board after the 200th (9 lines, 153 bytes a board).
        let mut bad = boards[..200 * 153].to_vec();
        bad.extend_from_slice(b"ab\nbX\n\n");
        bad.extend_from_slice(&boards[200 * 153..]);
        let one = run("1", &bad);
        assert_eq!(one.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&one.stderr).contains("line 1802, column 2"));
        for jobs in ["2", "5"] {
            let many = run(jobs, &bad);
            assert_eq!(many.status.code(), Some(2));
            assert_eq!((&many.stdout, &many.stderr), (&one.stdout, &one.stderr));
        }
    }
}

#[test]
fn moves_rejects_malformed_boards_with_exit_2() {
    tessera()
        .args(["shisen", "moves", "-"])
        .write_stdin("11\n22\n\n1\t1\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 4, column 2"));
    tessera()
        .args(["shisen", "moves", "-"])
        .write_stdin("\n\n")
        .assert()
        .code(2);
}

#[test]
fn solve_decides_boards() {
    tessera()
        .args(["shisen", "solve", "-"])
        .write_stdin("1.2\n.12\n\n12\n21\n")
        .assert()
        .success()
        .stdout("solvable\nunsolvable\n");
    let out = tessera()
        .args(["shisen", "solve", "--json", "1.2/.12"])
        .output()
        .unwrap();
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["result"], "solvable");
    assert_eq!(line["moves"].as_array().unwrap().len(), 2);
    assert!(line["nodes"].as_u64().unwrap() >= 1);
    assert!(line["millis"].is_u64());
}

#[test]
fn solve_under_gravity_names_tiles_where_they_stand() {
    // Removals drop the tiles above; the solver must still clear it.
    let out = tessera()
        .args(["shisen", "solve", "--gravity", "--json", "1./2./12/22"])
        .output()
        .unwrap();
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["result"], "solvable", "{line}");
    assert_eq!(line["moves"].as_array().unwrap().len(), 3);
}

#[test]
fn solve_rejects_bad_input_with_exit_2() {
    tessera()
        .args(["shisen", "solve", "1.2/.1"])
        .assert()
        .code(2);
    tessera()
        .args(["shisen", "solve", "--time-limit", "x", "11"])
        .assert()
        .code(2);
}

#[test]
fn new_solvable_deals_solvable_boards() {
    let boards = tessera()
        .args([
            "shisen",
            "new",
            "--solvable",
            "--seed",
            "3",
            "--count",
            "3",
            "--size",
            "8x4",
            "--tiles",
            "8x4",
        ])
        .output()
        .unwrap();
    assert!(boards.status.success());
    tessera()
        .args(["shisen", "solve", "-"])
        .write_stdin(boards.stdout)
        .assert()
        .success()
        .stdout("solvable\nsolvable\nsolvable\n");
}

#[test]
fn bench_reports_the_decided_share() {
    tessera()
        .args([
            "shisen", "bench", "--deals", "5", "--size", "6x4", "--tiles", "6x4",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("decided 5/5").and(predicate::str::contains("median")));
    tessera()
        .args(["shisen", "bench", "--deals", "0"])
        .assert()
        .code(2);
}

#[test]
fn solve_in_parallel_answers_in_input_order_and_stops_at_a_bad_board() {
    // Solvable and unsolvable boards alternating, so order shows.
    let boards: Vec<&str> = (0..60)
        .map(|i| if i % 2 == 0 { "1.2\n.12" } else { "12\n21" })
        .collect();
    let input = boards.join("\n\n") + "\n";
    let expected: Vec<&str> = (0..60)
        .map(|i| if i % 2 == 0 { "solvable" } else { "unsolvable" })
        .collect();
    for jobs in ["1", "3"] {
        let answers = answers(&["shisen", "solve", "--jobs", jobs, "-"], &input);
        assert_eq!(answers, expected, "--jobs {jobs}");
    }
    let mut with_bad = boards.clone();
    with_bad[25] = "1.2\n.1";
    let out = tessera()
        .args(["shisen", "solve", "--jobs", "3", "-"])
        .write_stdin(with_bad.join("\n\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().count(),
        25,
        "the boards before the bad one are answered"
    );
    assert!(String::from_utf8(out.stderr).unwrap().contains("line 77"));
}

/// A replay as the replay page downloads it.
fn replay_text(rows: &[&str], turns: &str) -> String {
    let deal: Vec<String> = rows.iter().map(|row| format!("# {row}")).collect();
    format!(
        "# tessera replay 0123: 4x2, seed 1, by ann\n# 0:05.0, score 10; ranked\n# deal (standard):\n{}\n{turns}\n# times (ms since the puzzle was shown, one per turn):\n500\n",
        deal.join("\n")
    )
}

#[test]
fn analyze_names_each_position_and_a_continuation_that_clears() {
    let deal = ["--deal", "6x4-tiles:6x4", "--seed", "1"];
    let out = tessera()
        .args(["shisen", "analyze", "--json"])
        .args(deal)
        .args(["1,0-3,0", "0,0-4,0"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["positions"],
        serde_json::json!(["solvable", "solvable", "solvable"])
    );
    assert_eq!(json["lost_at"], serde_json::Value::Null);
    assert_eq!(json["continuation"]["after"], 2);
    // The continuation, played after the two turns, clears the board.
    let line: Vec<String> = json["continuation"]["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    tessera()
        .args(["shisen", "replay"])
        .args(deal)
        .args(["1,0-3,0", "0,0-4,0"])
        .args(&line)
        .assert()
        .success()
        .stdout(predicate::str::contains("cleared: 12 removals"));
}

#[test]
fn analyze_reads_a_downloaded_replay_and_finds_the_loss() {
    // The Cs and Ds cross: once A and B are gone nothing clears them.
    let text = replay_text(&["ABCD", "ABDC"], "0,0-0,1 1,0-1,1");
    tessera()
        .args(["shisen", "analyze", "--replay", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "deal: unsolvable\nturn 1 0,0-0,1: unsolvable\nturn 2 1,0-1,1: unsolvable\nlost at the deal",
        ));
    let text = replay_text(&["ABCD", "ABCD"], "0,0-0,1");
    tessera()
        .args(["shisen", "analyze", "--replay", "-", "--json"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            r#"{"positions":["solvable","solvable"],"lost_at":null,"undecided":false,"continuation":{"after":1,"#,
        ));
}

#[test]
fn analyze_rejects_bad_input_with_exit_2() {
    for (text, message) in [
        ("hello\n".to_string(), "line 1: expected \"# tessera replay"),
        (
            "# tessera replay 1: 4x2, seed x, by ann\n".to_string(),
            "line 1: \"x\" is not a seed",
        ),
        (
            "# tessera replay 1: 4x2, seed 1, by ann\n0,0-0,1\n".to_string(),
            "not a Shisen-Sho replay",
        ),
        (
            replay_text(&["ABCD", "ABCD"], "0,0-1,1"),
            "turn 1: tiles 'A' and 'B' do not match",
        ),
        (
            replay_text(&["ABCD", "ABCD"], "0,0-0,1 jump"),
            "line 6: \"jump\" is not a turn",
        ),
    ] {
        tessera()
            .args(["shisen", "analyze", "--replay", "-"])
            .write_stdin(text)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    tessera()
        .args(["shisen", "analyze", "--seed", "1", "--time-limit", "soon"])
        .assert()
        .code(2);
}

#[test]
fn analyze_names_the_losing_turn_and_a_line_from_just_before_it() {
    let deal = ["--deal", "8x4-gravity-tiles:8x4", "--seed", "31"];
    let played = "0,3-3,3 4,3-7,3 4,3-5,3 5,2-5,3 6,2-5,3 7,2-7,3 2,3-4,3 1,0-7,3";
    let out = tessera()
        .args(["shisen", "analyze", "--json"])
        .args(deal)
        .arg(played)
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut expected = vec!["solvable"; 7];
    expected.extend(["unsolvable"; 2]);
    assert_eq!(json["positions"], serde_json::json!(expected));
    assert_eq!(json["lost_at"], 7);
    assert_eq!(json["continuation"]["after"], 6);
    // The six turns before the loss, then the line, clear the board.
    let before: Vec<&str> = played.split(' ').take(6).collect();
    let line: Vec<&str> = json["continuation"]["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    tessera()
        .args(["shisen", "replay"])
        .args(deal)
        .args(&before)
        .args(&line)
        .assert()
        .success()
        .stdout(predicate::str::contains("cleared: 16 removals"));
    tessera()
        .args(["shisen", "analyze"])
        .args(deal)
        .arg(played)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "turn 7 2,3-4,3: unsolvable\nturn 8 1,0-7,3: unsolvable\nlost at turn 7 (2,3-4,3)\nwinning continuation after turn 6: ",
        ));
}
