//! `tessera slide analyze`, `simplify` and `invert`, run as a user would,
//! checked against a breadth-first search written here.

use std::collections::{HashMap, VecDeque};

use assert_cmd::Command;
use serde_json::Value;
use slide::{Direction, Goal, Moves, Position, Rng, Scramble};

fn tessera() -> Command {
    Command::cargo_bin("tessera").unwrap()
}

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = tessera().args(args).write_stdin(stdin).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Single-tile distances from the 3 × 3 goal to every position.
fn bfs(goal: &Position) -> HashMap<Position, u64> {
    let mut distance = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(p) = queue.pop_front() {
        let d = distance[&p];
        for direction in Direction::ALL {
            let mut next = p.clone();
            if next.apply(direction).is_ok() && !distance.contains_key(&next) {
                distance.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    distance
}

#[test]
fn analyze_gives_the_breadth_first_distance_after_every_move() {
    let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
    let reference = bfs(&goal);
    let mut rng = Rng::new(39);
    let mut lines = String::new();
    let mut cases = Vec::new();
    for seed in 0..20 {
        let start = Scramble::Uniform.generate(&goal, seed);
        // A walk that need not solve: any legal moves.
        let mut at = start.clone();
        let mut moves = Vec::new();
        while moves.len() < 25 {
            let d = Direction::ALL[rng.below(4) as usize];
            if at.apply(d).is_ok() {
                moves.push(d);
            }
        }
        let moves: Moves = moves.into_iter().collect();
        lines += &format!("{start}\t{}\n", moves.compact());
        cases.push((start, moves));
    }
    let (code, out, err) = run(&["slide", "analyze", "--json", "-"], &lines);
    assert_eq!(code, 0, "{err}");
    let reports: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reports.len(), cases.len());
    for ((start, moves), report) in cases.iter().zip(&reports) {
        let mut at = start.clone();
        let mut expected = vec![reference[&at]];
        for d in moves.iter() {
            at.apply(d).unwrap();
            expected.push(reference[&at]);
        }
        let got: Vec<u64> = report["distances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap())
            .collect();
        assert_eq!(got, expected, "{start} {moves}");
        assert_eq!(report["exact"], true);
        assert_eq!(report["optimal"], expected[0]);
        let lost = 25 + expected[25] - expected[0];
        assert_eq!(report["lost"], lost);
        let away = report["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["progress"] == 1)
            .count() as u64;
        // Every move away costs two: the move and the one to come back.
        assert_eq!(lost, 2 * away, "{report}");
        // The optimal solution given is as long as the distance, and solves.
        let best: Moves = report["optimal_solution"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let mut p = start.clone();
        p.apply_all(&best).unwrap();
        assert_eq!((best.len() as u64, p), (expected[0], goal.clone()));
    }
}

#[test]
fn analyze_reports_in_words_and_in_the_multi_tile_metric() {
    let (code, out, _) = run(&["slide", "analyze", "1 2 3/4 5 6/7 0 8", "LRRL"], "");
    assert_eq!(code, 0);
    assert!(out.contains("optimal: 1 moves\n"), "{out}");
    assert!(out.contains("lost: 4 moves\n"), "{out}");
    assert!(out.contains("detour: moves 2-4 (R R L) lost 4\n"), "{out}");
    assert!(out.contains("   2 R    1  away\n"), "{out}");
    let (code, out, _) = run(
        &[
            "slide",
            "analyze",
            "--metric",
            "mtm",
            "--json",
            "1 2 3/4 5 6/0 7 8",
            "L2",
        ],
        "",
    );
    assert_eq!(code, 0);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["distances"], serde_json::json!([1, 0]));
    assert_eq!(report["steps"][0]["move"], "L2");
    assert_eq!(report["lost"], 0);
}

#[test]
fn analyze_under_a_budget_marks_bounds() {
    // A 4 × 4 with Manhattan distance only and 1 ms: the start's distance
    // is not proven, so nothing after it is either.
    let (_, start, _) = run(&["slide", "new", "--size", "4x4", "--seed", "3"], "");
    let start = start.trim();
    let blank = start.split(['/', ' ']).position(|t| t == "0").unwrap();
    // Two moves that are legal wherever the blank is: one tile in and out.
    let moves = if blank % 4 == 3 { "RL" } else { "LR" };
    let (code, out, err) = run(
        &[
            "slide",
            "analyze",
            "--json",
            "--heuristic",
            "manhattan",
            "--time-limit",
            "1ms",
            start,
            moves,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["distances"].as_array().unwrap().len(), 3);
    assert_eq!(report["exact"], false, "{report}");
    assert_eq!(report["lost"], Value::Null);
}

#[test]
fn analyze_beyond_five_by_five_gives_bounds_and_the_fast_solution() {
    // It once asked for pattern databases no 7 x 7 board can have, and
    // panicked.
    let (_, start, _) = run(&["slide", "new", "--size", "7x7", "--seed", "4"], "");
    let start = start.trim();
    let (code, moves, err) = run(&["slide", "solve", "--fast", start], "");
    assert_eq!(code, 0, "{err}");
    let moves = moves.trim();
    let goal = Goal::RowMajor.position("7x7".parse().unwrap()).unwrap();
    let first: Position = start.parse().unwrap();
    for metric in ["stm", "mtm"] {
        let line = format!("{start}\t{moves}\n");
        let (code, out, err) = run(
            &["slide", "analyze", "--json", "--metric", metric, "-"],
            &line,
        );
        assert_eq!(code, 0, "{err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["exact"], false, "{report}");
        assert_eq!(report["lost"], Value::Null);
        let distances = report["distances"].as_array().unwrap();
        let bound = slide::LowerBound::new(&first, &goal).unwrap();
        let expected = if metric == "stm" {
            bound.value()
        } else {
            bound.mtm_value()
        };
        assert_eq!(distances[0].as_u64(), Some(expected), "{report}");
        assert_eq!(distances.last().unwrap().as_u64(), Some(0));
        assert_eq!(report["optimal"].as_u64(), Some(expected));
        // The best solution is the fast solver's: never called optimal, and
        // it reaches the goal.
        assert_eq!(report["solution_optimal"], false, "{report}");
        let best: Moves = report["optimal_solution"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let mut end = first.clone();
        end.apply_all(&best).unwrap();
        assert_eq!(end, goal);
    }
    let (code, out, _) = run(&["slide", "analyze", start, moves], "");
    assert_eq!(code, 0);
    assert!(out.contains("at least"), "{out}");
}

#[test]
fn bad_input_to_analyze_exits_2_with_the_reason() {
    for (args, stdin, message) in [
        (
            vec!["slide", "analyze", "-"],
            "1 2 3/4 5 6/7 8 0 LL\n",
            "expected `position<TAB>moves`",
        ),
        (
            vec!["slide", "analyze", "-"],
            "1 2 3/4 5 6/7 0 8\tL\n1 2 3/4 5 6/7 8 0\tRRLLL\n",
            "line 2: move 5 (L) is not possible there",
        ),
        (
            vec!["slide", "analyze", "1 2 3/4 5 6/8 7 0", "R"],
            "",
            "cannot reach the goal",
        ),
        (
            vec!["slide", "analyze", "1 2 3/4 5 6/7 8 0", "RX"],
            "",
            "moves:",
        ),
        (
            vec!["slide", "analyze", "1 2 3/4 5 6/7 8 0"],
            "",
            "give the moves",
        ),
    ] {
        let (code, _, err) = run(&args, stdin);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn simplify_cancels_back_and_forths_and_invert_undoes() {
    let (code, out, _) = run(&["slide", "simplify", "RRLUUD"], "");
    assert_eq!((code, out.as_str()), (0, "RU\n"));
    let (_, out, _) = run(&["slide", "simplify", "--letters", "R2R"], "");
    assert_eq!(out, "RRR\n");
    let (_, out, _) = run(&["slide", "simplify", "--json", "-"], "RLRL\nR2R\n");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines[0],
        serde_json::json!({"moves": "", "stm": 0, "mtm": 0, "removed": 4})
    );
    assert_eq!(
        lines[1],
        serde_json::json!({"moves": "R3", "stm": 3, "mtm": 1, "removed": 0})
    );
    let (_, out, _) = run(&["slide", "invert", "RRDL"], "");
    assert_eq!(out, "RUL2\n");
    let (_, twice, _) = run(&["slide", "invert", "-"], &out);
    assert_eq!(twice, "R2DL\n");
    let (code, _, err) = run(&["slide", "invert", "RQ"], "");
    assert_eq!(code, 2);
    assert!(err.contains("moves:"), "{err}");
}

/// The moves home from `p` along decreasing breadth-first distances.
fn home(mut p: Position, reference: &HashMap<Position, u64>) -> Vec<Direction> {
    let mut path = Vec::new();
    while reference[&p] > 0 {
        let d = Direction::ALL
            .into_iter()
            .find(|&d| {
                let mut n = p.clone();
                n.apply(d).is_ok() && reference[&n] < reference[&p]
            })
            .unwrap();
        p.apply(d).unwrap();
        path.push(d);
    }
    path
}

#[test]
fn optimize_is_never_longer_always_solves_and_is_optimal_on_three_by_three() {
    let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
    let reference = bfs(&goal);
    let mut rng = Rng::new(30);
    let mut lines = String::new();
    let mut cases = Vec::new();
    while cases.len() < 40 {
        // A start a dozen moves out, then a wander and the way home: at
        // most 30 moves in all.
        let mut start = goal.clone();
        let mut wander = Vec::new();
        for k in 0..20 {
            let d = Direction::ALL[rng.below(4) as usize];
            let mut next = start.clone();
            if next.apply(d).is_ok() {
                if k < 12 {
                    start = next;
                } else {
                    wander.push(d);
                }
            }
        }
        let mut at = start.clone();
        let wander: Vec<Direction> = wander
            .into_iter()
            .filter(|&d| at.apply(d).is_ok())
            .collect();
        let mut moves = wander;
        moves.extend(home(at, &reference));
        if moves.len() > 30 || moves.is_empty() {
            continue;
        }
        let moves: Moves = moves.into_iter().collect();
        lines += &format!("{start}\t{moves}\n");
        cases.push((start, moves));
    }
    let (code, out, err) = run(&["slide", "optimize", "--json", "-"], &lines);
    assert_eq!(code, 0, "{err}");
    for ((start, moves), line) in cases.iter().zip(out.lines()) {
        let answer: Value = serde_json::from_str(line).unwrap();
        let found: Moves = answer["moves"].as_str().unwrap().parse().unwrap();
        assert!(found.len() <= moves.len());
        let mut p = start.clone();
        p.apply_all(&found).unwrap();
        assert_eq!(p, goal);
        assert_eq!(found.len() as u64, reference[start], "{start} {moves}");
        assert_eq!(answer["optimal"], true);
    }
    let (code, _, err) = run(&["slide", "optimize", "1 2 3/4 5 6/7 0 8", "R"], "");
    assert_eq!(code, 2);
    assert!(err.contains("do not reach the goal"), "{err}");
}
