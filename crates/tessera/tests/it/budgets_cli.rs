//! Every engine command honours its time limit: stopped, it answers (or
//! says it ran out) within the limit plus a little, and the limit has one
//! grammar everywhere (`500ms`, `3s`, `2m`; zero refused with exit 2).

use assert_cmd::Command;
use std::time::{Duration, Instant};

/// How far past its limit a command may answer. Each search here would run
/// for minutes or more unbounded, so stopping within this shows the limit
/// stopped it; the slack is for a machine busy with other tests, where the
/// process's start, its input and its answer around the search can take
/// seconds (a one-second slack failed there).
const SLACK: Duration = Duration::from_secs(10);

fn tessera() -> Command {
    Command::cargo_bin("tessera").unwrap()
}

/// The multi-tile metric's antipode on 4 × 4 (43 MTM moves).
const MTM_ANTIPODE: &str = "1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0";
/// A position 80 single-tile moves from the goal (the 15 puzzle's diameter).
const STM_80: &str = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1";

/// Runs `cmd`, returning its output and how long it took.
fn timed(cmd: &mut Command) -> (std::process::Output, Duration) {
    let began = Instant::now();
    let output = cmd.output().unwrap();
    (output, began.elapsed())
}

fn json(output: &std::process::Output) -> serde_json::Value {
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn an_mtm_solve_stops_at_its_limit_with_a_solution() {
    let (output, took) = timed(tessera().args([
        "slide",
        "solve",
        "--optimal",
        "--metric",
        "mtm",
        "--heuristic",
        "manhattan",
        "--time-limit",
        "3",
        "--json",
        MTM_ANTIPODE,
    ]));
    assert!(took < Duration::from_secs(3) + SLACK, "took {took:?}");
    let line = json(&output);
    assert_eq!(line["optimal"], false, "{line}");
    assert!(line["mtm"].as_u64().unwrap() >= 43, "{line}");
    assert!(line["lower_bound"].as_u64().unwrap() <= 43, "{line}");
}

#[test]
fn a_budgeted_mtm_solve_does_not_wait_for_the_colouring_table_to_be_built() {
    let cache = std::env::temp_dir().join(format!("tessera-mtm-budget-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let output = tessera()
        .args([
            "slide",
            "solve",
            "--optimal",
            "--metric",
            "mtm",
            "--time-limit",
            "2",
            "--json",
        ])
        .arg("--cache-dir")
        .arg(&cache)
        .arg(MTM_ANTIPODE)
        .output()
        .unwrap();
    let line = json(&output);
    assert!(line["mtm"].as_u64().unwrap() >= 43, "{line}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("tessera slide tables build --size 4x4 --metric mtm"),
        "{stderr}"
    );
    // The small pattern databases were made for the search; the colouring
    // table (half a minute) was not.
    let files: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(files.iter().any(|f| f.ends_with(".pdb")), "{files:?}");
    assert!(!files.iter().any(|f| f.ends_with(".mtm")), "{files:?}");
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn a_64x64_shisen_solve_stops_at_its_limit() {
    let board = tessera()
        .args(["shisen", "new", "--size", "64x64", "--seed", "1"])
        .output()
        .unwrap();
    assert!(board.status.success());
    let (output, took) = timed(
        tessera()
            .args(["shisen", "solve", "--json", "--time-limit", "4000", "-"])
            .write_stdin(board.stdout),
    );
    assert!(took < Duration::from_secs(4) + SLACK, "took {took:?}");
    let line = json(&output);
    assert!(
        ["unknown", "solvable"].contains(&line["result"].as_str().unwrap()),
        "{line}"
    );
}

#[test]
fn a_hint_takes_a_limit_and_says_whether_it_is_optimal() {
    let (output, took) = timed(tessera().args([
        "slide",
        "hint",
        "--heuristic",
        "manhattan",
        "--time-limit",
        "500ms",
        "--json",
        STM_80,
    ]));
    assert!(took < Duration::from_millis(500) + SLACK, "took {took:?}");
    let line = json(&output);
    assert_eq!(line["optimal"], false, "{line}");
    assert!(["U", "D", "L", "R"].contains(&line["hint"].as_str().unwrap()));
    assert!(line["remaining"].as_u64().unwrap() >= 80);
}

#[test]
fn a_chosen_length_search_gives_up_at_its_limit() {
    let (output, took) = timed(tessera().args([
        "slide",
        "new",
        "--size",
        "4x4",
        "--optimal-length",
        "70..80",
        "--heuristic",
        "manhattan",
        "--time-limit",
        "1s",
    ]));
    assert!(took < Duration::from_secs(1) + SLACK, "took {took:?}");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("within the time limit"), "{err}");
}

#[test]
fn a_solvable_deal_search_gives_up_at_its_limit() {
    let (output, took) = timed(tessera().args([
        "shisen",
        "new",
        "--size",
        "64x64",
        "--solvable",
        "--seed",
        "1",
        "--time-limit",
        "1s",
    ]));
    assert!(took < Duration::from_secs(1) + SLACK, "took {took:?}");
    if !output.status.success() {
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains("time limit"), "{err}");
    }
}

#[test]
fn one_grammar_and_one_rule_for_zero() {
    let refused = |args: &[&str]| {
        let output = tessera().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let err = refused(&["slide", "solve", "--time-limit", "0", "1 2 3/4 5 6/7 0 8"]);
    assert!(err.contains("more than zero"), "{err}");
    let err = refused(&["shisen", "solve", "--time-limit", "0ms", "AB/BA"]);
    assert!(err.contains("more than zero"), "{err}");
    refused(&["slide", "solve", "--time-limit", "3x", "1 2 3/4 5 6/7 0 8"]);
    refused(&["shisen", "solve", "--time-limit", "-5", "AB/BA"]);
    refused(&["slide", "hint", "--time-limit", "0s", "1 2 3/4 5 6/7 0 8"]);
    // The same units on both games.
    for limit in ["500ms", "3s", "2m"] {
        tessera()
            .args(["slide", "solve", "--time-limit", limit, "1 2 3/4 5 6/7 0 8"])
            .assert()
            .success();
        tessera()
            .args(["shisen", "solve", "--time-limit", limit, "AB/BA"])
            .assert()
            .success();
    }
}
