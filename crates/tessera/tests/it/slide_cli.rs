//! The `tessera slide` commands, run as a user would.

use crate::common;

use assert_cmd::Command;
use common::cli::answers;
use predicates::prelude::*;

fn tessera() -> Command {
    Command::cargo_bin("tessera").unwrap()
}

#[test]
fn new_is_reproducible_from_its_seed() {
    let first = tessera()
        .args(["slide", "new", "--seed", "9", "--count", "3"])
        .output()
        .unwrap();
    let again = tessera()
        .args(["slide", "new", "--seed", "9", "--count", "3"])
        .output()
        .unwrap();
    assert!(first.status.success());
    assert_eq!(first.stdout, again.stdout);
    assert_eq!(String::from_utf8(first.stdout).unwrap().lines().count(), 3);
}

#[test]
fn new_without_a_seed_prints_the_seed_used() {
    let output = tessera()
        .args(["slide", "new", "--size", "3x3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let seed = stderr
        .trim()
        .strip_prefix("seed: ")
        .expect("seed on stderr");
    let again = tessera()
        .args(["slide", "new", "--size", "3x3", "--seed", seed])
        .output()
        .unwrap();
    assert_eq!(output.stdout, again.stdout);
}

#[test]
fn generated_puzzles_check_solvable_for_every_goal() {
    for goal in ["row-major", "blank-first", "snake", "spiral", "missing:7"] {
        let puzzles = tessera()
            .args([
                "slide", "new", "--size", "5x3", "--goal", goal, "--seed", "1", "--count", "50",
            ])
            .output()
            .unwrap();
        assert!(puzzles.status.success(), "{goal}");
        tessera()
            .args(["slide", "check", "--goal", goal, "-"])
            .write_stdin(puzzles.stdout)
            .assert()
            .success()
            .stdout("solvable\n".repeat(50));
    }
}

#[test]
fn walk_scrambles_use_the_requested_length() {
    tessera()
        .args([
            "slide",
            "new",
            "--size",
            "3x3",
            "--scramble",
            "walk:0",
            "--seed",
            "4",
        ])
        .assert()
        .success()
        .stdout("1 2 3/4 5 6/7 8 0\n");
}

#[test]
fn check_explains_with_json() {
    tessera()
        .args(["slide", "check", "--json", "1 2 3/4 5 6/8 7 0"])
        .assert()
        .success()
        .stdout("{\"solvable\":false,\"permutation_parity\":\"odd\",\"blank_distance\":0}\n");
}

#[test]
fn check_reads_flat_lines_with_a_size() {
    tessera()
        .args(["slide", "check", "--size", "3x2", "-"])
        .write_stdin("1 2 3 4 0 5\n\n2 1 3 4 0 5\n")
        .assert()
        .success()
        .stdout("solvable\nunsolvable\n");
}

#[test]
fn check_names_the_bad_line() {
    tessera()
        .args(["slide", "check", "-"])
        .write_stdin("1 2 3/4 5 6/7 8 0\n1 2 3/4 5 6/7 8\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 2").and(predicate::str::contains("ragged")));
}

#[test]
fn apply_reports_the_result_and_whether_it_is_solved() {
    tessera()
        .args(["slide", "apply", "1 2 3/4 5 6/0 7 8", "LL"])
        .assert()
        .success()
        .stdout("1 2 3/4 5 6/7 8 0\nsolved\nmoves: 2 STM, 1 MTM\n");
    tessera()
        .args([
            "slide",
            "apply",
            "--goal",
            "snake",
            "1 2 3/6 5 4/7 0 8",
            "L",
            "--json",
        ])
        .assert()
        .success()
        .stdout("{\"position\":\"1 2 3/6 5 4/7 8 0\",\"solved\":true,\"moves\":1,\"stm\":1,\"mtm\":1}\n");
}

#[test]
fn apply_names_the_first_illegal_move() {
    tessera()
        .args(["slide", "apply", "1 2 3/4 5 6/7 8 0", "DDD"])
        .assert()
        .code(2)
        .stderr("tessera: move 3 (D) is illegal: no tile can slide down\n");
}

#[test]
fn bad_input_exits_with_code_2_and_one_line() {
    let cases: &[&[&str]] = &[
        &["slide", "check", "1 2/3 3"],
        &["slide", "check", "a b/c 0"],
        &["slide", "check", "1 2 3 0 5"],
        &["slide", "check", "--goal", "diagonal", "1 2/3 0"],
        &["slide", "check", "--goal", "1 2 3/4 5 6/7 8 0", "1 2/3 0"],
        &["slide", "check", "--goal", "missing:3", "1 2/3 0"],
        &["slide", "new", "--size", "1x9"],
        &["slide", "new", "--size", "9000x9000"],
        &["slide", "new", "--scramble", "shake"],
        &["slide", "apply", "1 2/3 0", "X"],
    ];
    for args in cases {
        let output = tessera().args(*args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn serve_starts_and_answers_healthz() {
    serves_healthz(&["serve"]);
}

#[test]
fn no_subcommand_serves_and_takes_the_serve_options() {
    serves_healthz(&[]);
}

/// Starts `tessera ARGS --addr 127.0.0.1:0 --db DIR/records.db` and asks it
/// for /healthz.
fn serves_healthz(args: &[&str]) {
    let dir = common::server::temp_dir();
    let db = dir.join("records.db").to_string_lossy().into_owned();
    let mut args = args.to_vec();
    args.extend(["--db", &db]);
    let server = common::server::Server::start_args(&args, dir);
    let reply = server.client().get("/healthz");
    assert!(
        server.dir().join("records.db").exists(),
        "the database is created on first run"
    );
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.text, r#"{"ok":true}"#);
}

#[test]
fn demo_prints_help_and_a_puzzle() {
    tessera()
        .arg("demo")
        .assert()
        .success()
        .stdout(predicate::str::contains("Usage").and(predicate::str::contains("solvable")));
}

/// Swaps the first two tiles of a position line (neither the blank): the
/// other permutation parity, so exactly one of the two is solvable.
fn swap_first_tiles(line: &str) -> String {
    let mut rows: Vec<Vec<&str>> = line.split('/').map(|r| r.split(' ').collect()).collect();
    let width = rows[0].len();
    let tiles: Vec<(usize, usize)> = (0..rows.len() * width)
        .map(|i| (i / width, i % width))
        .filter(|&(y, x)| rows[y][x] != "0")
        .take(2)
        .collect();
    let [(y0, x0), (y1, x1)] = [tiles[0], tiles[1]];
    let first = rows[y0][x0];
    rows[y0][x0] = rows[y1][x1];
    rows[y1][x1] = first;
    rows.iter()
        .map(|r| r.join(" "))
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn check_in_parallel_answers_in_input_order() {
    let new = tessera()
        .args([
            "slide", "new", "--size", "4x4", "--seed", "5", "--count", "5000",
        ])
        .output()
        .unwrap();
    let solvable = String::from_utf8(new.stdout).unwrap();
    // Every third line made unsolvable: the answers must come back in the
    // same places.
    let input: Vec<String> = solvable
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i % 3 == 0 {
                swap_first_tiles(l)
            } else {
                l.to_string()
            }
        })
        .collect();
    let input = input.join("\n") + "\n";
    let expected: Vec<&str> = (0..5000)
        .map(|i| if i % 3 == 0 { "unsolvable" } else { "solvable" })
        .collect();
    for jobs in ["1", "2", "7"] {
        let answers = answers(&["slide", "check", "--jobs", jobs, "-"], &input);
        assert_eq!(answers, expected, "--jobs {jobs}");
    }
}

#[test]
fn a_bad_line_in_a_parallel_check_stops_after_the_answers_before_it() {
    let mut lines = vec!["1 2 3/4 5 6/7 8 0"; 9000];
    lines[6000] = "1 2 3/4 5 6/7 8 8";
    let output = tessera()
        .args(["slide", "check", "--jobs", "2", "-"])
        .write_stdin(lines.join("\n"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap().lines().count(),
        6000
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("line 6001"), "{stderr}");
}

/// Feeds `first` then a line of a gigabyte of digits (streamed, never held
/// in memory here) to `tessera ARGS`: its exit code, stdout and stderr.
fn feed_a_gigabyte_line(args: &[&str], first: &str) -> (Option<i32>, String, String) {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let first = first.to_string();
    let writer = std::thread::spawn(move || {
        stdin.write_all(first.as_bytes()).unwrap();
        let chunk = vec![b'7'; 1 << 20];
        let mut written = 0u64;
        // The reader gives up long before the end: the pipe then closes.
        for _ in 0..1024 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
            written += chunk.len() as u64;
        }
        written
    });
    let output = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    assert!(
        written < 1 << 30,
        "the reader stopped early, after {written} bytes"
    );
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn a_gigabyte_line_on_stdin_is_a_clear_error_after_the_lines_before_it() {
    let (code, stdout, stderr) =
        feed_a_gigabyte_line(&["slide", "check", "-"], "1 2 3/4 5 6/7 8 0\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "solvable\n", "the line before is answered");
    assert!(
        stderr.contains("line 2") && stderr.contains("64 MiB"),
        "{stderr}"
    );
    let (code, _, stderr) = feed_a_gigabyte_line(&["shisen", "moves", "-"], "AA\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("line 2") && stderr.contains("64 MiB"),
        "{stderr}"
    );
}

#[test]
fn a_drawn_missing_number_is_told_so_the_pipe_can_go_on() {
    let new = tessera()
        .args([
            "slide", "new", "--size", "3x3", "--goal", "missing", "--seed", "3",
        ])
        .output()
        .unwrap();
    assert!(new.status.success());
    let told = String::from_utf8(new.stderr).unwrap();
    let goal = told
        .lines()
        .find_map(|line| line.strip_prefix("goal: "))
        .unwrap_or_else(|| panic!("no goal line in {told:?}"))
        .to_string();
    // The same goal as --json names.
    let json = tessera()
        .args([
            "slide", "new", "--size", "3x3", "--goal", "missing", "--seed", "3", "--json",
        ])
        .output()
        .unwrap();
    let line: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(line["goal"], goal.as_str());
    // With it, the next command solves the position.
    tessera()
        .args(["slide", "solve", "--goal", &goal, "-"])
        .write_stdin(new.stdout.clone())
        .assert()
        .success();
    // Without it, the message says where to find it.
    tessera()
        .args(["slide", "solve", "--goal", "missing", "-"])
        .write_stdin(new.stdout)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("goal: missing:K"));
}

#[test]
fn a_format_is_dealt_from_one_seed_one_position_a_line() {
    let deal = || {
        tessera()
            .args([
                "slide",
                "new",
                "--size",
                "3x3",
                "--format",
                "marathon-10",
                "--seed",
                "5",
            ])
            .output()
            .unwrap()
    };
    let first = deal();
    assert!(first.status.success());
    assert_eq!(first.stdout, deal().stdout);
    assert_eq!(
        String::from_utf8(first.stderr).unwrap(),
        "format: marathon-10 (10 puzzles)\n"
    );
    let text = String::from_utf8(first.stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10);
    let distinct: std::collections::HashSet<_> = lines.iter().collect();
    assert_eq!(distinct.len(), 10, "ten different puzzles");
    tessera()
        .args(["slide", "check", "-"])
        .write_stdin(first.stdout)
        .assert()
        .success()
        .stdout("solvable\n".repeat(10));
    // Another seed, another marathon.
    let other = tessera()
        .args([
            "slide",
            "new",
            "--size",
            "3x3",
            "--format",
            "marathon-10",
            "--seed",
            "6",
        ])
        .output()
        .unwrap();
    assert_ne!(other.stdout, text.as_bytes());
}

#[test]
fn a_single_or_blindfold_format_deals_the_puzzle_of_the_seed() {
    let plain = tessera()
        .args(["slide", "new", "--seed", "7"])
        .output()
        .unwrap();
    for format in ["single", "bld"] {
        let dealt = tessera()
            .args(["slide", "new", "--seed", "7", "--format", format])
            .output()
            .unwrap();
        assert!(dealt.status.success(), "{format}");
        assert_eq!(dealt.stdout, plain.stdout, "{format}");
    }
}

#[test]
fn a_relay_as_json_names_the_format_seed_and_each_puzzle() {
    let output = tessera()
        .args([
            "slide", "new", "--format", "relay-5", "--goal", "snake", "--json", "--seed", "5",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one object");
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["format"], "relay-5");
    assert_eq!(value["seed"], 5);
    let puzzles = value["puzzles"].as_array().unwrap();
    let sizes: Vec<&str> = puzzles
        .iter()
        .map(|p| p["size"].as_str().unwrap())
        .collect();
    assert_eq!(sizes, ["3x3", "4x4", "5x5"]);
    for puzzle in puzzles {
        assert_eq!(puzzle["goal"], "snake");
        tessera()
            .args(["slide", "check", "--goal", "snake"])
            .arg(puzzle["position"].as_str().unwrap())
            .assert()
            .success()
            .stdout("solvable\n");
    }
}

#[test]
fn a_bad_format_exits_2_saying_what_is_wrong() {
    for (format, says) in [
        ("marathon-1001", "a marathon is 2 to 1000 puzzles"),
        ("marathon-1", "a marathon is 2 to 1000 puzzles"),
        ("relay-11", "N from 4 to 10"),
        ("relay-3", "N from 4 to 10"),
        ("sprint", "is not a format"),
        ("marathon-ten", "is not a number"),
    ] {
        tessera()
            .args(["slide", "new", "--seed", "1", "--format", format])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(says));
    }
    // A goal that fits only one size cannot be relayed.
    tessera()
        .args([
            "slide",
            "new",
            "--seed",
            "1",
            "--format",
            "relay-4",
            "--goal",
            "missing:16",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("puzzle 1 of relay-4 is 3x3"));
    // A format is one deal: --count is refused.
    tessera()
        .args(["slide", "new", "--format", "marathon-10", "--count", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

#[test]
fn a_marathon_from_the_command_line_is_the_one_play_deals() {
    let output = tessera()
        .args([
            "slide",
            "new",
            "--size",
            "4x4",
            "--goal",
            "missing",
            "--format",
            "marathon-42",
        ])
        .args(["--json", "--seed", "31"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let spec: play::slide_game::SlideSpec = "4x4-missing".parse().unwrap();
    let dealt = "marathon-42"
        .parse::<play::format::Format>()
        .unwrap()
        .deal(&spec, 31)
        .unwrap();
    let printed = value["puzzles"].as_array().unwrap();
    assert_eq!(printed.len(), 42);
    for (puzzle, printed) in dealt.iter().zip(printed) {
        assert_eq!(printed["position"], puzzle.start.to_string());
        assert_eq!(printed["goal"], puzzle.goal.to_string());
        assert_eq!(printed["size"], "4x4");
    }
    // The first ten are the marathon-10 of the same seed.
    let ten = tessera()
        .args([
            "slide",
            "new",
            "--size",
            "4x4",
            "--goal",
            "missing",
            "--format",
            "marathon-10",
        ])
        .args(["--json", "--seed", "31"])
        .output()
        .unwrap();
    let ten: serde_json::Value = serde_json::from_slice(&ten.stdout).unwrap();
    assert_eq!(ten["puzzles"].as_array().unwrap()[..], printed[..10]);
}

/// `solve --all`: the hardest 3 × 3 positions have 40 optimal STM
/// solutions and 2 optimal MTM ones (counted by the engine against a
/// breadth-first search in crates/slide/tests/count.rs); each listed one
/// replays, in a batch from stdin, and --limit needs --all.
#[test]
fn solve_all_counts_and_lists_every_optimal_solution() {
    let output = tessera()
        .args(["slide", "solve", "--all", "--limit", "5", "--json", "-"])
        .write_stdin("8 6 7/2 5 4/3 0 1\n1 2 3/4 5 6/7 0 8\n")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        (lines[0]["length"].as_u64(), lines[0]["count"].as_u64()),
        (Some(31), Some(40))
    );
    assert_eq!(lines[0]["solutions"].as_array().unwrap().len(), 5);
    assert_eq!(
        (lines[1]["length"].as_u64(), lines[1]["count"].as_u64()),
        (Some(1), Some(1))
    );
    for solution in lines[0]["solutions"].as_array().unwrap() {
        tessera()
            .args([
                "slide",
                "apply",
                "8 6 7/2 5 4/3 0 1",
                solution.as_str().unwrap(),
            ])
            .assert()
            .success()
            .stdout(predicate::str::contains("1 2 3/4 5 6/7 8 0"));
    }
    tessera()
        .args([
            "slide",
            "solve",
            "--all",
            "--metric",
            "mtm",
            "--limit",
            "0",
            "8 6 7/2 5 4/3 0 1",
        ])
        .assert()
        .success()
        .stdout("2 optimal solutions of 20 MTM moves\n");
    tessera()
        .args(["slide", "solve", "--limit", "3", "1 2 3/4 5 6/7 0 8"])
        .assert()
        .code(2);
}
