//! `tessera slide solve / hint / new --optimal-length` end to end: every
//! answer is replayed with the engine.

use crate::common;

use assert_cmd::Command;
use slide::{Goal, Moves, Position};

fn tessera() -> Command {
    Command::cargo_bin("tessera").unwrap()
}

fn replays(position: &str, moves: &str, goal: &Goal) -> bool {
    let mut p: Position = position.parse().unwrap();
    let goal = goal.position(p.size()).unwrap();
    let moves: Moves = moves.parse().unwrap();
    p.apply_all(&moves).is_ok() && p == goal
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn solves_a_batch_in_input_order_with_jobs() {
    let positions = [
        "8 6 7/2 5 4/3 0 1",
        "1 2 3/4 5 6/8 7 0",
        "1 2 3/4 5 6/7 0 8",
        "0 1 2/3 4 5/6 7 8",
    ];
    let input = positions.join("\n") + "\n";
    let one = stdout(
        tessera()
            .args(["slide", "solve", "-"])
            .write_stdin(input.clone()),
    );
    let two = stdout(
        tessera()
            .args(["slide", "solve", "--jobs", "2", "-"])
            .write_stdin(input),
    );
    assert_eq!(one, two);
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0].len(), 31);
    assert!(replays(positions[0], lines[0], &Goal::RowMajor));
    assert_eq!(lines[1], "unsolvable");
    assert_eq!(lines[2], "L");
    assert!(replays(positions[3], lines[3], &Goal::RowMajor));
}

#[test]
fn json_lines_carry_length_and_optimality() {
    let out = stdout(tessera().args([
        "slide",
        "solve",
        "--json",
        "--goal",
        "spiral",
        "1 2 3/8 4 0/7 6 5",
    ]));
    let value: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(value["moves"], "R");
    assert_eq!(value["length"], 1);
    assert_eq!(value["optimal"], true);
    assert!(value["nodes"].is_u64() && value["millis"].is_u64());
}

#[test]
fn refuses_what_it_cannot_serve() {
    tessera()
        .args(["slide", "solve", "--optimal", "--size", "6x6", "-"])
        .write_stdin("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35\n")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--fast"));
    tessera()
        .args(["slide", "solve", "--optimal", "--size", "6x5", "-"])
        .write_stdin(
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 0\n",
        )
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--fast"));
    tessera()
        .args(["slide", "solve", "1 2 3/4 5 6/7 7 0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("twice"));
}

#[test]
fn hints_and_puzzles_of_a_chosen_length() {
    let out = stdout(tessera().args(["slide", "hint", "1 2 3/4 5 6/7 0 8"]));
    assert_eq!(out.trim(), "L");
    let out = stdout(tessera().args(["slide", "hint", "1 2 3/4 5 6/7 8 0"]));
    assert_eq!(out.trim(), "solved");

    let out = stdout(tessera().args([
        "slide",
        "new",
        "--size",
        "3x3",
        "--optimal-length",
        "24..25",
        "--seed",
        "4",
        "--count",
        "3",
    ]));
    for position in out.lines() {
        let moves = stdout(tessera().args(["slide", "solve", position]));
        assert!(
            (24..=25).contains(&moves.trim().len()),
            "{position}: {moves}"
        );
    }
    tessera()
        .args("slide new --size 3x3 --optimal-length 40..50".split(' '))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("31"));
    tessera()
        .args(["slide", "new", "--optimal-length", "9..1"])
        .assert()
        .code(2);
}

#[test]
fn cached_tables_are_checked_and_rebuilt_when_damaged() {
    let dir = std::env::temp_dir().join(format!("tessera-cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let position = "1 2 3 4/5 6 7 8/0 9 10 11";
    let args = [
        "slide",
        "solve",
        "--size",
        "4x3",
        "--heuristic",
        "small",
        "--cache-dir",
        dir.to_str().unwrap(),
        position,
    ];
    let first = stdout(tessera().args(args));
    assert!(replays(position, first.trim(), &Goal::RowMajor));
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!files.is_empty());
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&files[0], bytes).unwrap();
    let out = tessera().args(args).assert().success().get_output().clone();
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bounded_mode_on_five_by_five() {
    let out = stdout(tessera().args([
        "slide",
        "solve",
        "--json",
        "--heuristic",
        "manhattan",
        "--node-limit",
        "100000",
        "--goal",
        "blank-first",
        "5 1 2 3 4/0 6 7 8 9/10 11 12 13 14/15 16 17 18 19/20 21 22 23 24",
    ]));
    let value: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(value["moves"], "D");
    assert_eq!(value["optimal"], true);
}

#[test]
fn tables_are_built_listed_and_cleared_on_request() {
    let run = common::cli::stdout;
    let dir = std::env::temp_dir().join(format!("tessera-tables-cmd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = dir.to_str().unwrap();
    let build = [
        "slide",
        "tables",
        "build",
        "--size",
        "4x3",
        "--heuristic",
        "small",
        "--cache-dir",
        cache,
    ];
    let built = run(&build);
    assert!(built.contains("4x3 row-major tables: built in"), "{built}");
    let files = pdb_files(&dir);
    assert!(!files.is_empty());
    let status = run(&["slide", "tables", "status", "--cache-dir", cache]);
    for file in &files {
        assert!(
            status.contains(file.as_str()),
            "{file} missing from\n{status}"
        );
    }
    assert!(
        status.contains(&format!("{} tables", files.len())),
        "{status}"
    );
    let again = run(&build);
    assert!(
        again.contains("built in 0.0 s"),
        "a second build loads the cache: {again}"
    );
    let cleared = run(&["slide", "tables", "clear", "--cache-dir", cache]);
    assert!(
        cleared.starts_with(&format!("removed {} tables", files.len())),
        "{cleared}"
    );
    let status = run(&["slide", "tables", "status", "--cache-dir", cache]);
    assert!(status.starts_with("0 tables"), "{status}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_multi_tile_metric_solves_prints_compactly_and_hints_a_run() {
    // A 3x3 batch and a 3x4: compact moves that replay to the goal, with
    // both lengths; MTM never longer than the STM optimum's MTM length.
    let positions = [
        "8 6 7/2 5 4/3 0 1",
        "1 2 3/4 5 6/0 7 8",
        "1 2 3 4/5 6 7 8/0 9 10 11",
    ];
    for position in positions {
        let mtm: serde_json::Value = serde_json::from_str(&stdout(tessera().args([
            "slide",
            "solve",
            "--metric",
            "mtm",
            "--heuristic",
            "small",
            "--json",
            position,
        ])))
        .unwrap();
        let stm: serde_json::Value = serde_json::from_str(&stdout(tessera().args([
            "slide",
            "solve",
            "--heuristic",
            "small",
            "--json",
            position,
        ])))
        .unwrap();
        let moves = mtm["moves"].as_str().unwrap();
        assert!(
            replays(position, moves, &Goal::RowMajor),
            "{position}: {moves}"
        );
        let parsed: Moves = moves.parse().unwrap();
        assert_eq!(mtm["mtm"], parsed.mtm_len(), "{position}");
        assert_eq!(mtm["stm"], parsed.len(), "{position}");
        assert_eq!(mtm["length"], mtm["mtm"]);
        assert_eq!(mtm["metric"], "mtm");
        assert_eq!(mtm["optimal"], true);
        // Compact: one letter per MTM move.
        let letters = moves.chars().filter(char::is_ascii_alphabetic).count();
        assert_eq!(letters, parsed.mtm_len(), "{moves}");
        assert!(mtm["mtm"].as_u64() <= stm["mtm"].as_u64(), "{position}");
        assert!(stm["stm"].as_u64() <= mtm["stm"].as_u64(), "{position}");
    }
    // The two-row slide: one MTM move, hinted as a whole run.
    let hint = stdout(tessera().args(["slide", "hint", "--metric", "mtm", "1 2 3/4 5 6/0 7 8"]));
    assert_eq!(hint.trim(), "L2");
    let solved = stdout(tessera().args(["slide", "solve", "--metric", "mtm", "1 2 3/4 5 6/0 7 8"]));
    assert_eq!(solved.trim(), "L2");
    // Bad metrics are refused.
    tessera()
        .args(["slide", "solve", "--metric", "qtm", "1 2 3/4 5 6/0 7 8"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("stm or mtm"));
}

/// `--heuristic auto` (the default) never waits minutes for the 4x4 7-8
/// set or the 5x5 6-6-6-6 set: from an empty cache a 4x4 solve builds only
/// the small set, and a 5x5 bounded solve its small set (5-5-5-5-4), which
/// builds in seconds.
#[test]
fn auto_tables_take_the_small_set_unless_the_large_one_is_quick_or_cached() {
    let run = common::cli::stdout;
    let dir = std::env::temp_dir().join(format!("tessera-auto-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = dir.to_str().unwrap();
    let files = || pdb_files(&dir);
    // Korf's instance 9 (46 moves), row-major form.
    let position = "0 1 15 6/9 10 4 3/14 8 12 11/5 7 2 13";
    let solved = run(&[
        "slide",
        "solve",
        "--optimal",
        "--count-only",
        "--cache-dir",
        cache,
        position,
    ]);
    let length: usize = solved.trim().parse().expect(&solved);
    let small = run(&[
        "slide",
        "solve",
        "--optimal",
        "--count-only",
        "--heuristic",
        "small",
        "--cache-dir",
        cache,
        position,
    ]);
    assert_eq!(small.trim(), solved.trim());
    assert_eq!(length, 46, "{solved}");
    // Only the small set (a 6-tile table and a 3-tile one) was built.
    assert_eq!(files(), ["4x4-0.1.2.4.5.6.pdb", "4x4-0.1.2.pdb"]);
    let status = run(&["slide", "tables", "status", "--cache-dir", cache]);
    assert!(
        status.contains("4x4 small (6-6-3) set, blank in a corner: complete"),
        "{status}"
    );
    assert!(
        status.contains("4x4 large (7-8) set, blank in a corner: not built"),
        "{status}"
    );
    let position = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 0 23 24";
    let output = tessera()
        .args([
            "slide",
            "solve",
            "--optimal",
            "--time-limit",
            "5",
            "--count-only",
            "--cache-dir",
            cache,
            position,
        ])
        .output()
        .unwrap();
    let (solved, told) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{told}");
    assert_eq!(solved.trim(), "2");
    // The bounded solve says, even with stderr no terminal, that its
    // answers would be shorter with the large set and how to build it.
    assert!(
        told.contains("answers are longer")
            && told.contains(
                "`tessera slide tables build --size 5x5` builds them once (under a minute)"
            ),
        "{told}"
    );
    // Asked for the small set by name, it keeps quiet.
    let asked = tessera()
        .args([
            "slide",
            "solve",
            "--optimal",
            "--node-limit",
            "1000",
            "--heuristic",
            "small",
            "--count-only",
            "--cache-dir",
            cache,
            position,
        ])
        .output()
        .unwrap();
    assert!(asked.status.success());
    assert!(
        !String::from_utf8_lossy(&asked.stderr).contains("tables build"),
        "{}",
        String::from_utf8_lossy(&asked.stderr)
    );
    // The 5x5 small set: tables of five tiles (and one of four), none of
    // six.
    assert!(
        files()
            .iter()
            .any(|f| f.starts_with("5x5-") && f.matches('.').count() == 5),
        "{:?}",
        files()
    );
    assert!(!files()
        .iter()
        .any(|f| f.starts_with("5x5-") && f.matches('.').count() == 6));
    let status = run(&["slide", "tables", "status", "--cache-dir", cache]);
    assert!(
        status.contains("5x5 small (5-5-5-5-4) set, blank in a corner: complete"),
        "{status}"
    );
    assert!(
        status.contains("5x5 large (6-6-6-6) set, blank in a corner: not built"),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The names of the table files in a cache directory, sorted.
fn pdb_files(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdb"))
        .collect();
    names.sort();
    names
}

/// `--lookups dual` prepares the sets around every blank cell, finds the
/// same optimal length as the regular lookups, and a wrong name is a usage
/// error.
#[test]
fn dual_lookups_build_their_sets_and_solve_optimally() {
    let dir = std::env::temp_dir().join(format!("tessera-dual-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = dir.to_str().unwrap();
    let build = |lookups: &str| {
        let args = [
            "slide",
            "tables",
            "build",
            "--size",
            "4x3",
            "--heuristic",
            "small",
            "--lookups",
            lookups,
            "--cache-dir",
            cache,
        ];
        stdout(tessera().args(args));
        pdb_files(&dir).len()
    };
    let regular = build("regular");
    let dual = build("dual");
    assert!(dual > regular, "{dual} tables against {regular}");
    let position = "3 11 8 7/10 4 2 0/1 6 9 5";
    let solve = |lookups: &str| {
        let args = [
            "slide",
            "solve",
            "--json",
            "--size",
            "4x3",
            "--heuristic",
            "small",
            "--lookups",
            lookups,
            "--cache-dir",
            cache,
            position,
        ];
        let out = stdout(tessera().args(args));
        let value: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(value["optimal"], true);
        let moves = value["moves"].as_str().unwrap().to_string();
        assert!(replays(position, &moves, &Goal::RowMajor));
        value["length"].as_u64().unwrap()
    };
    assert_eq!(solve("dual"), solve("regular"));
    tessera()
        .args(["slide", "solve", "--lookups", "sideways", position])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("regular or dual"));
    let _ = std::fs::remove_dir_all(&dir);
}
