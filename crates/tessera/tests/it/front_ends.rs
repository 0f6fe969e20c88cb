//! One game, three front ends: for the same seeds and rules, the command
//! line, the web API and the terminal game deal the same puzzles, shuffle
//! the same way after the same moves and give the same hints — because
//! all three ask `play` rather than carry rules of their own.

use crate::common;

use common::cli::stdout as cli;
use common::server::{Client, Server};
use common::tmux::{press, slide_tiles, Pane};
use serde_json::{json, Value};
use shisen::Matching;

/// The two-letter name the terminal game draws with `--ascii` for a
/// board symbol, as the README lists them: rank and suit for the suits
/// (circles `1`–`9` are 1p–9p, bamboo `a`–`i` 1s–9s, characters `j`–`r`
/// 1m–9m), initials for winds and dragons, F1–F4 and S1–S4 for flowers
/// (`s`–`v`) and seasons (`w`–`z`).
fn ascii(symbol: char) -> String {
    let suits = [('1', 'p'), ('a', 's'), ('j', 'm'), ('s', 'F'), ('w', 'S')];
    for (first, letter) in suits {
        let rank = symbol as i32 - first as i32 + 1;
        let ranks = if letter.is_ascii_uppercase() {
            1..=4
        } else {
            1..=9
        };
        if ranks.contains(&rank) {
            return if letter.is_ascii_uppercase() {
                format!("{letter}{rank}")
            } else {
                format!("{rank}{letter}")
            };
        }
    }
    let honours = [
        ("E", "Ea"),
        ("S", "So"),
        ("W", "We"),
        ("N", "No"),
        ("R", "Rd"),
        ("G", "Gd"),
        ("H", "Wd"),
    ];
    honours
        .iter()
        .find(|(s, _)| s.starts_with(symbol))
        .map_or(symbol.to_string(), |(_, name)| name.to_string())
}

/// A board's tiles row by row as the terminal names them (empty cells
/// left out).
fn ascii_rows(board_text: &str, matching: Matching) -> Vec<Vec<String>> {
    let board = shisen::parse_board(board_text, matching).unwrap();
    (0..board.height() as i32)
        .map(|y| {
            (0..board.width() as i32)
                .filter_map(|x| board.get(shisen::Point::new(x, y)))
                .map(|kind| ascii(kind.symbol()))
                .collect()
        })
        .filter(|row: &Vec<String>| !row.is_empty())
        .collect()
}

/// The tile rows of a terminal screen: the lines between the title and the
/// status line that hold tile names (the cursor's brackets dropped).
fn screen_rows(screen: &str) -> Vec<Vec<String>> {
    screen
        .lines()
        .skip(1)
        .take_while(|line| !line.contains("Tiles "))
        .map(|line| {
            line.replace(['[', ']'], " ")
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect()
}

/// Waits until the terminal's screen holds every one of `marks`, then
/// checks that it draws the tiles of `board`.
fn shows(pane: &Pane, marks: &[&str], board: &str, matching: Matching, what: &str) {
    let screen = pane.wait_for(what, |s| marks.iter().all(|m| s.contains(m)));
    assert_eq!(
        screen_rows(&screen),
        ascii_rows(board, matching),
        "{what} in the terminal:\n{screen}"
    );
}

/// The text of a board the web or the command line gave.
fn web_board(reply: &Value) -> String {
    reply["board"].as_str().unwrap().to_string()
}

/// `x,y` of a `[x1,y1,x2,y2]` move's two tiles.
fn pair(m: &Value) -> (String, String) {
    let v: Vec<i64> = m
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap())
        .collect();
    (format!("{},{}", v[0], v[1]), format!("{},{}", v[2], v[3]))
}

/// The cursor keys from `from` to `to`.
fn walk(from: (i32, i32), to: (i32, i32)) -> Vec<&'static str> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let mut keys = vec![if dx < 0 { "Left" } else { "Right" }; dx.unsigned_abs() as usize];
    keys.extend(vec![
        if dy < 0 { "Up" } else { "Down" };
        dy.unsigned_abs() as usize
    ]);
    keys
}

fn point(text: &str) -> (i32, i32) {
    let (x, y) = text.split_once(',').unwrap();
    (x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn shisen_deals_shuffles_and_hints_agree_everywhere() {
    let server = Server::start();
    let mut web = server.client();
    let cases = [
        ("14x6", false, false, 3),
        ("14x6", true, false, 8),
        ("14x6", false, true, 21),
        ("14x6", true, true, 34),
    ];
    for (preset, gravity, chinese, seed) in cases {
        let mut words = vec![preset.to_string()];
        words.extend(gravity.then(|| "gravity".to_string()));
        words.extend(chinese.then(|| "chinese".to_string()));
        let deal = words.join("-");
        let matching = Matching::from_chinese(chinese);
        let seed_text = seed.to_string();
        let mut flags = vec!["--solvable", "--seed", &seed_text, "--preset", preset];
        flags.extend(gravity.then_some("--gravity"));
        flags.extend(chinese.then_some("--chinese"));

        // The deal.
        let mut new = vec!["shisen", "new"];
        new.extend(&flags);
        let from_cli = cli(&new);
        let issued = web.ok(
            "/api/shisen/new",
            json!({"preset": preset, "gravity": gravity, "chinese": chinese, "solvable": true, "seed": seed}),
        );
        assert_eq!(
            web_board(&issued),
            from_cli,
            "{deal} seed {seed}: web and command line"
        );
        let mut play = vec!["play", "shisen", "--ascii"];
        play.extend(&flags);
        let pane = Pane::start(&format!("front-{seed}"), &play.join(" "));
        shows(
            &pane,
            &["Tiles 84", "solvable"],
            &from_cli,
            matching,
            "the deal",
        );

        // The hint on the deal.
        let mut hint = vec!["shisen", "hint"];
        hint.extend(gravity.then_some("--gravity"));
        hint.extend(chinese.then_some("--chinese"));
        hint.push(&from_cli);
        let cli_hint = cli(&hint);
        let web_hint = web.ok(
            "/api/shisen/hint",
            json!({"board": from_cli, "gravity": gravity, "chinese": chinese}),
        );
        let (a, b) = pair(&web_hint["move"]);
        assert_eq!(web_hint["safe"], true, "a solvable deal's hint is safe");
        assert_eq!(
            cli_hint.trim(),
            format!("{a} {b} safe"),
            "{deal}: command-line hint"
        );
        pane.keys(&["?"]);
        let screen = pane.wait_for("the hint", |s| s.contains("hint: "));
        assert!(
            screen.contains(&format!("hint: {a} with {b} (safe)")),
            "{deal}: terminal hint\n{screen}"
        );

        // Take the hinted pair, then shuffle.
        let replay = cli(&[
            "shisen",
            "replay",
            "--deal",
            &deal,
            "--seed",
            &seed_text,
            &format!("{a}-{b}"),
            "shuffle",
        ]);
        let after_cli: String = replay
            .lines()
            .take_while(|l| !l.contains("removals"))
            .map(|l| format!("{l}\n"))
            .collect();
        let path = web.ok(
            "/api/shisen/path",
            json!({"board": from_cli, "from": point(&a), "to": point(&b), "gravity": gravity, "chinese": chinese}),
        );
        let shuffled = web.ok(
            "/api/shisen/shuffle",
            json!({"game": issued["game"], "board": path["board"], "step": 1}),
        );
        assert_eq!(web_board(&shuffled), after_cli, "{deal}: web shuffle");
        let mut keys = vec!["Enter"];
        keys.extend(walk(point(&a), point(&b)));
        keys.extend(["Enter", "x"]);
        pane.keys(&keys);
        shows(
            &pane,
            &["Tiles 82", "shuffled"],
            &after_cli,
            matching,
            "the shuffle",
        );
    }
}

/// The tiles of a position, blank left out.
fn tiles(position: &str) -> Vec<u32> {
    position
        .split(['/', ' '])
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .filter(|&t| t != 0)
        .collect()
}

/// The direction name the terminal's hint message uses for a move letter.
fn direction_name(letter: &str) -> &'static str {
    match letter {
        "U" => "up",
        "D" => "down",
        "L" => "left",
        "R" => "right",
        other => panic!("not a move: {other}"),
    }
}

#[test]
fn sliding_puzzles_and_hints_agree_everywhere_the_daily_one_too() {
    let server = Server::start();
    let mut web = server.client();
    let cases: [(&str, &str, Option<u64>); 4] = [
        ("3x3", "row-major", Some(11)),
        ("3x3", "spiral", Some(12)),
        ("4x3", "missing", Some(13)),
        ("3x3", "snake", None),
    ];
    for (size, goal, seed) in cases {
        let seed_flag = seed.map_or("--daily".to_string(), |s| format!("--seed {s}"));
        let line = cli(&[
            &["slide", "new", "--json", "--size", size, "--goal", goal][..],
            &seed_flag.split(' ').collect::<Vec<_>>(),
        ]
        .concat());
        let from_cli: Value = serde_json::from_str(line.trim()).unwrap();
        let body = match seed {
            Some(s) => json!({"size": size, "goal": goal, "seed": s}),
            None => json!({"size": size, "goal": goal, "daily": true}),
        };
        let issued = web.ok("/api/slide/new", body);
        assert_eq!(
            issued["position"], from_cli["position"],
            "{size} {goal} {seed_flag}: web"
        );
        assert_eq!(
            issued["goal"], from_cli["goal"],
            "{size} {goal}: the drawn goal"
        );
        assert_eq!(issued["seed"], from_cli["seed"]);

        let pane = Pane::start(
            &format!("front-slide-{}", seed.unwrap_or(0)),
            &format!("play slide --size {size} --goal {goal} {seed_flag}"),
        );
        let screen = pane.wait_for("the puzzle", |s| s.contains("Moves 0"));
        let position = issued["position"].as_str().unwrap();
        assert_eq!(
            slide_tiles(&screen),
            tiles(position),
            "{size} {goal}: terminal\n{screen}"
        );

        // The hint: every front end asks the same solver.
        let goal_name = issued["goal"].as_str().unwrap();
        let cli_hint = cli(&["slide", "hint", "--goal", goal_name, position]);
        let web_hint = web.ok(
            "/api/slide/hint",
            json!({"position": position, "goal": goal_name}),
        );
        assert_eq!(
            web_hint["move"].as_str().unwrap(),
            cli_hint.trim(),
            "{size} {goal}: hints"
        );
        pane.keys(&["?"]);
        let screen = pane.wait_for("the hint", |s| s.contains("hint: move"));
        let expected = format!(" {}", direction_name(cli_hint.trim()));
        let message = screen.lines().find(|l| l.contains("hint: move")).unwrap();
        assert!(
            message.trim_end().ends_with(&expected),
            "{size} {goal}: terminal hint {message:?}, expected …{expected}"
        );
    }
}

#[test]
fn a_seed_is_one_deal_for_every_client() {
    // The web's solvable deal is the engine's: another client asking the
    // same seed gets the same board, and so does the command line.
    let server = Server::start();
    let (mut a, mut b) = (server.client(), Client::new(&server.url));
    for seed in [1, 2, 3] {
        let ask = json!({"size": "8x4", "gravity": true, "seed": seed});
        let (x, y) = (
            a.ok("/api/shisen/new", ask.clone()),
            b.ok("/api/shisen/new", ask),
        );
        assert_eq!(x["board"], y["board"]);
        let from_cli = cli(&[
            "shisen",
            "new",
            "--size",
            "8x4",
            "--solvable",
            "--gravity",
            "--seed",
            &seed.to_string(),
        ]);
        assert_eq!(web_board(&x), from_cli);
    }
}

#[test]
fn a_marathon_is_the_same_ten_puzzles_everywhere() {
    let server = Server::start();
    let mut web = server.client();
    let seed = "2026";
    let dealt = web.ok(
        "/api/slide/new",
        json!({"size": "3x3", "seed": 2026, "format": "marathon-10"}),
    );
    let printed: Value = serde_json::from_str(&cli(&[
        "slide",
        "new",
        "--size",
        "3x3",
        "--format",
        "marathon-10",
        "--json",
        "--seed",
        seed,
    ]))
    .unwrap();
    let web_puzzles = dealt["puzzles"].as_array().unwrap();
    let cli_puzzles = printed["puzzles"].as_array().unwrap();
    assert_eq!(web_puzzles.len(), 10);
    for (web, line) in web_puzzles.iter().zip(cli_puzzles) {
        for field in ["position", "goal", "size"] {
            assert_eq!(web[field], line[field], "web and command line: {field}");
        }
    }

    // The terminal game deals the same ten: each appears once the one
    // before it is solved.
    let pane = Pane::start(
        "front-marathon",
        "play slide --size 3x3 --seed 2026 --format marathon-10",
    );
    let mut moves_so_far = 0;
    for (index, puzzle) in web_puzzles.iter().enumerate() {
        let header = format!("marathon-10 {}/10", index + 1);
        let counter = format!("Moves {moves_so_far} ");
        let screen = pane.wait_for(&header, |s| s.contains(&header) && s.contains(&counter));
        let position: slide::Position = puzzle["position"].as_str().unwrap().parse().unwrap();
        let goal: slide::Goal = puzzle["goal"].as_str().unwrap().parse().unwrap();
        let goal = goal.position(position.size()).unwrap();
        assert_eq!(
            slide_tiles(&screen),
            tiles(puzzle["position"].as_str().unwrap()),
            "puzzle {}: terminal\n{screen}",
            index + 1
        );
        let solution = slide::solve_optimal(&position, &goal, &slide::SolveOptions::default())
            .unwrap()
            .moves;
        press(&pane, &solution);
        moves_so_far += solution.len();
    }
    let screen = pane.wait_for("the win", |s| s.contains("marathon-10 solved!"));
    assert!(
        screen.contains(&format!("{moves_so_far} moves")),
        "{screen}"
    );
}
