//! The web API against a real server: the `tessera` binary serving on an
//! ephemeral port with a fresh SQLite file, driven over HTTP.

use crate::common;

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::time::Instant;

use common::cli::stdout;
use common::person::{paced, solve_like_a_person, wait_for};
use common::server::{Client, Server};
use serde_json::{json, Value};

// ---------------------------------------------------------------- helpers

fn parse_position(text: &str) -> (usize, Vec<u32>) {
    let rows: Vec<Vec<u32>> = text
        .split('/')
        .map(|r| r.split_whitespace().map(|c| c.parse().unwrap()).collect())
        .collect();
    (rows[0].len(), rows.concat())
}

/// Slides the tile that moves in direction `letter` into the blank.
fn step(tiles: &[u32], w: usize, letter: char) -> Option<Vec<u32>> {
    let h = tiles.len() / w;
    let b = tiles.iter().position(|&t| t == 0).unwrap();
    let (bx, by) = ((b % w) as i64, (b / w) as i64);
    let (x, y) = match letter {
        'U' => (bx, by + 1),
        'D' => (bx, by - 1),
        'L' => (bx + 1, by),
        'R' => (bx - 1, by),
        _ => unreachable!(),
    };
    if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
        return None;
    }
    let mut next = tiles.to_vec();
    next.swap(b, (y as usize) * w + x as usize);
    Some(next)
}

/// A shortest solution by breadth-first search (small boards only): the
/// test's own reference, independent of the server.
fn bfs(start: &[u32], goal: &[u32], w: usize) -> String {
    let mut seen: HashMap<Vec<u32>, Option<(Vec<u32>, char)>> = HashMap::new();
    seen.insert(start.to_vec(), None);
    let mut queue = VecDeque::from([start.to_vec()]);
    while let Some(t) = queue.pop_front() {
        if t == goal {
            let mut moves = Vec::new();
            let mut at = t;
            while let Some(Some((from, m))) = seen.get(&at).cloned() {
                moves.push(m);
                at = from;
            }
            return moves.iter().rev().collect();
        }
        for m in ['U', 'D', 'L', 'R'] {
            if let Some(n) = step(&t, w, m) {
                if !seen.contains_key(&n) {
                    seen.insert(n.clone(), Some((t.clone(), m)));
                    queue.push_back(n);
                }
            }
        }
    }
    panic!("unsolvable")
}

/// A new 3×3 game and a shortest solution for it.
fn solved_3x3(client: &mut Client, seed: u64) -> (Value, String) {
    let game = client.ok(
        "/api/slide/new",
        json!({"size": "3x3", "goal": "row-major", "seed": seed}),
    );
    let (w, start) = parse_position(game["position"].as_str().unwrap());
    let (_, goal) = parse_position(game["goal_position"].as_str().unwrap());
    let moves = bfs(&start, &goal, w);
    (game, moves)
}

/// A slide submission with person-paced times (100 ms a move), sent at
/// once: the times may run past what the server saw.
fn slide_submission(game: &Value, moves: &str) -> Value {
    json!({"game": game["game"], "moves": moves, "times": paced(moves.len(), 300, 100)})
}

// ------------------------------------------------------------------ tests

#[test]
fn health_page_and_assets_are_served() {
    let server = Server::start();
    let mut client = server.client();
    let health = client.get("/healthz");
    assert_eq!(health.status, 200);
    assert_eq!(health.json(), json!({"ok": true}));
    let page = client.get("/");
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.text.contains("Shisen-Sho") && page.text.contains("/static/app.js"));
    for (asset, kind) in [
        ("app.js", "text/javascript"),
        ("slide.js", "text/javascript"),
        ("shisen.js", "text/javascript"),
        ("app.css", "text/css"),
        ("faces.js", "text/javascript"),
    ] {
        let reply = client.get(&format!("/static/{asset}"));
        assert_eq!(reply.status, 200, "{asset}");
        assert!(reply.content_type.starts_with(kind), "{asset}");
    }
    // The tile faces come from the renderer's code, one per symbol.
    let faces = client.get("/static/faces.js").text;
    assert!(faces.contains("export const FACES") && faces.contains("\"H\":\"<svg"));
    assert_eq!(client.get("/static/nope.js").status, 404);
    assert!(client.get("/no/such/page").error().contains("no such"));
    // The first reply set the player cookie.
    assert!(client
        .cookie
        .as_deref()
        .unwrap()
        .starts_with("tessera_player="));
}

#[test]
fn a_solved_slide_game_becomes_a_record_once() {
    let server = Server::start();
    let mut client = server.client();
    // Ranked records need an account: they show its handle.
    let (handle, _) = client.sign_up("ada");
    let dealt = Instant::now();
    let (game, moves) = solved_3x3(&mut client, 42);
    assert_eq!(game["variant"], "3x3-row-major");
    assert_eq!(game["seed"], 42);
    // A partial list is legal but does not solve: no record yet.
    let partial = client.ok(
        "/api/slide/submit",
        slide_submission(&game, &moves[..moves.len() - 1]),
    );
    assert_eq!(partial["solved"], false);
    let times = paced(moves.len(), 300, 100);
    wait_for(dealt, &times);
    let done = client.ok(
        "/api/slide/submit",
        json!({"game": game["game"], "moves": moves, "times": times}),
    );
    assert_eq!(done["solved"], true);
    assert_eq!(done["moves"], moves.len());
    assert_eq!(done["ranked"], true, "{done}");
    assert!(done["millis"].as_i64().unwrap() >= 0);
    // A game counts once: the same submission again is answered the
    // same (resubmissions.rs), another one refused.
    let again = client.post("/api/slide/submit", slide_submission(&game, &moves[..2]));
    assert_eq!(again.status, 409);
    assert!(again.error().contains("already"));

    let records = client.get("/api/records?game=slide&variant=3x3-row-major");
    assert_eq!(records.status, 200);
    let records = records.json();
    let best = &records["by_time"][0];
    assert_eq!(best["name"], handle.as_str());
    assert_eq!(best["handle"], handle.as_str());
    assert_eq!(best["moves"], moves.len());
    assert_eq!(best["mine"], true);
    assert_eq!(records["by_moves"][0]["moves"], moves.len());

    let stats = client
        .get("/api/me/stats?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(stats["count"], 1);
    assert_eq!(stats["best_moves"], moves.len());
    assert_eq!(stats["ao5"], Value::Null);

    let csv = client.get("/api/me/export.csv");
    assert!(csv.content_type.starts_with("text/csv"));
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[1].starts_with("slide,3x3-row-major,"));

    // Another player sees the record but not as theirs, and cannot submit
    // the first player's game.
    let mut other = server.client();
    let seen = other
        .get("/api/records?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(seen["by_time"][0]["mine"], false);
    let (theirs, their_moves) = solved_3x3(&mut client, 43);
    let stolen = other.post("/api/slide/submit", slide_submission(&theirs, &their_moves));
    assert_eq!(stolen.status, 404);
}

#[test]
fn averages_of_five_come_from_the_latest_five() {
    let server = Server::start();
    let mut client = server.client();
    for seed in 0..5 {
        let (game, moves) = solved_3x3(&mut client, 100 + seed);
        client.ok("/api/slide/submit", slide_submission(&game, &moves));
    }
    let stats = client
        .get("/api/me/stats?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(stats["count"], 5);
    assert!(stats["ao5"].as_f64().unwrap() >= 0.0);
    assert_eq!(stats["ao12"], Value::Null);
}

#[test]
fn seeds_goals_and_daily_puzzles_reproduce() {
    let server = Server::start();
    let mut a = server.client();
    let mut b = server.client();
    let one = a.ok(
        "/api/slide/new",
        json!({"size": "5x4", "goal": "spiral", "seed": 9}),
    );
    let two = b.ok(
        "/api/slide/new",
        json!({"size": "5x4", "goal": "spiral", "seed": 9}),
    );
    assert_eq!(one["position"], two["position"]);
    assert_ne!(one["game"], two["game"]);
    assert_eq!(one["variant"], "5x4-spiral");
    let missing = a.ok(
        "/api/slide/new",
        json!({"size": "4x4", "goal": "missing", "seed": 3}),
    );
    assert_eq!(missing["variant"], "4x4-missing");
    assert!(missing["goal"].as_str().unwrap().starts_with("missing:"));
    let daily_a = a.ok("/api/slide/new", json!({"size": "4x4", "daily": true}));
    let daily_b = b.ok("/api/slide/new", json!({"size": "4x4", "daily": true}));
    assert_eq!(daily_a["position"], daily_b["position"]);
    let seed = daily_a["seed"].as_u64().unwrap();
    assert!(
        (20_000_101..=21_001_231).contains(&seed),
        "YYYYMMDD: {seed}"
    );
    let random = a.ok("/api/slide/new", json!({"size": "3x5"}));
    assert!(random["seed"].as_u64().unwrap() < 1 << 53);
    assert_eq!(random["goal"], "row-major");
}

/// `R3U` for `RRRU`: the notation replays give back.
fn compact(moves: &str) -> String {
    let mut out = String::new();
    let letters: Vec<char> = moves.chars().collect();
    let mut i = 0;
    while i < letters.len() {
        let run = letters[i..]
            .iter()
            .take_while(|&&c| c == letters[i])
            .count();
        out.push(letters[i]);
        if run > 1 {
            out.push_str(&run.to_string());
        }
        i += run;
    }
    out
}

#[test]
fn submit_takes_the_compact_notation_too() {
    let server = Server::start();
    let mut c = server.client();
    // A 3x3 solved with a repeated move, written compactly.
    let mut solved = None;
    for seed in 1..200 {
        let (game, moves) = solved_3x3(&mut c, seed);
        if compact(&moves) != moves {
            solved = Some((game, moves));
            break;
        }
    }
    let (game, moves) = solved.expect("a solution with a run");
    let body = json!({"game": game["game"], "moves": compact(&moves), "times": paced(moves.len(), 300, 100)});
    let done = c.ok("/api/slide/submit", body);
    assert_eq!(done["solved"], true, "{done}");
    assert_eq!(done["stm"].as_u64().unwrap() as usize, moves.len());
    // Counts that start with 0, lower case and runaway counts are refused.
    let (game, _) = solved_3x3(&mut c, 500);
    for bad in ["R0", "R01", "r", "3R", "R99999"] {
        let body = json!({"game": game["game"], "moves": bad, "times": [300]});
        let reply = c.post("/api/slide/submit", body);
        assert!((400..500).contains(&reply.status), "{bad}: {}", reply.text);
        assert!(reply.error().contains("move"), "{bad}: {}", reply.text);
    }
}

#[test]
fn a_wrong_method_or_path_is_a_json_error() {
    let server = Server::start();
    let mut c = server.client();
    let wrong = c.get("/api/slide/submit");
    assert_eq!(wrong.status, 405);
    assert!(
        wrong.json()["error"].as_str().unwrap().contains("GET"),
        "{}",
        wrong.text
    );
    let nowhere = c.get("/api/nowhere");
    assert_eq!(nowhere.status, 404);
    assert!(nowhere.json()["error"].is_string(), "{}", nowhere.text);
}

#[test]
fn bad_slide_input_is_a_4xx_with_a_message() {
    let server = Server::start();
    let mut c = server.client();
    let malformed = c.post_raw("/api/slide/new", "application/json", "{\"size\": ");
    assert_eq!(malformed.status, 400);
    assert!(malformed.error().contains("malformed JSON"));
    let not_json = c.post_raw("/api/slide/new", "text/plain", "{\"size\":\"4x4\"}");
    assert_eq!(not_json.status, 415);
    assert!(!not_json.error().is_empty());
    let unknown_field = c.post("/api/slide/new", json!({"size": "4x4", "colour": "red"}));
    assert!(unknown_field.error().contains("colour"));
    let missing = c.post("/api/slide/new", json!({"goal": "snake"}));
    assert!(missing.error().contains("size"));
    for size in ["33x33", "1x1", "4x", "axb", "10x1", "", "2x40"] {
        let reply = c.post("/api/slide/new", json!({"size": size}));
        assert!(reply.error().contains("bad size"), "{size}");
    }
    let goal = c.post("/api/slide/new", json!({"size": "4x4", "goal": "diagonal"}));
    assert!(goal.error().contains("unknown goal"));
    let goal = c.post(
        "/api/slide/new",
        json!({"size": "4x4", "goal": "missing:99"}),
    );
    assert!(goal.error().contains("out of range"));
    let daily = c.post(
        "/api/slide/new",
        json!({"size": "4x4", "daily": true, "seed": 1}),
    );
    assert!(daily.error().contains("daily"));
    let seed = c.post("/api/slide/new", json!({"size": "4x4", "seed": -1}));
    assert!(seed.error().contains("invalid"));

    let (game, moves) = solved_3x3(&mut c, 7);
    let id = game["game"].clone();
    let bad = c.post(
        "/api/slide/submit",
        json!({"game": id, "moves": "UDX", "times": [1, 2, 3]}),
    );
    assert!(bad.error().contains("'X'"));
    // `R3` is three moves (the compact notation): one time each.
    let counted = c.post(
        "/api/slide/submit",
        json!({"game": id, "moves": "R3", "times": [1]}),
    );
    assert!(counted.error().contains("time"), "{}", counted.text);
    // A move list that runs into the wall.
    let blank = game["position"]
        .as_str()
        .unwrap()
        .split(['/', ' '])
        .position(|t| t == "0")
        .unwrap();
    let wall = match blank % 3 {
        0 => "R",
        _ => "RRR",
    };
    let illegal = c.post("/api/slide/submit", slide_submission(&game, wall));
    assert!(illegal.error().contains("illegal move list"));
    let long = c.post(
        "/api/slide/submit",
        // One more than `play::limits::SUBMITTED_MOVES`.
        slide_submission(&game, &"UD".repeat(10_001)),
    );
    assert!(long.error().contains("too long"));
    let nobody = c.post(
        "/api/slide/submit",
        json!({"game": "0123456789abcdef0123456789abcdef", "moves": "U", "times": [400]}),
    );
    assert_eq!(nobody.status, 404);
    // Not an id at all: the value is refused where it is read.
    let not_an_id = c.post(
        "/api/slide/submit",
        json!({"game": "nope", "moves": "U", "times": [400]}),
    );
    assert_eq!(not_an_id.status, 422);
    assert_eq!(not_an_id.json()["pointer"], "/game");
    // The game is still open and can be solved after all these.
    let done = c.ok("/api/slide/submit", slide_submission(&game, &moves));
    assert_eq!(done["solved"], true);

    let huge = format!("{{\"size\":\"4x4\",\"goal\":\"{}\"}}", "x".repeat(300_000));
    let too_large = c.post_raw("/api/slide/new", "application/json", &huge);
    assert_eq!(too_large.status, 413);
}

#[test]
fn solve_and_hint_validate_their_input() {
    let server = Server::start();
    let mut c = server.client();
    let bad = c.post("/api/slide/solve", json!({"position": "1 2 3/4 5"}));
    assert!(bad.error().contains("bad position"));
    let unsolvable = c.post(
        "/api/slide/hint",
        json!({"position": "1 2 3/4 5 6/8 7 0", "goal": "row-major"}),
    );
    assert!(unsolvable.error().contains("cannot reach"));
    // One side past the largest board the page plays (32).
    let big: Vec<String> = (1..33 * 33).chain([0]).map(|n| n.to_string()).collect();
    let big = big
        .chunks(33)
        .map(|r| r.join(" "))
        .collect::<Vec<_>>()
        .join("/");
    let large = c.post("/api/slide/solve", json!({"position": big}));
    assert!(large.error().contains("larger than"));
    let goal = c.post(
        "/api/slide/solve",
        json!({"position": "1 2 3/4 5 6/7 0 8", "goal": "1 2/3 0"}),
    );
    assert!(goal.error().contains("bad goal"));
    // A solved position needs no solver.
    let solved = c.ok(
        "/api/slide/solve",
        json!({"position": "1 2 3/4 5 6/7 8 0", "goal": "row-major"}),
    );
    assert_eq!(solved["moves"], "");
}

/// Applies a move string to a position's tiles.
fn replay(tiles: &[u32], w: usize, moves: &str) -> Vec<u32> {
    moves
        .chars()
        .fold(tiles.to_vec(), |t, m| step(&t, w, m).expect("legal move"))
}

#[test]
fn solve_is_optimal_on_small_boards_and_fast_on_large_ones() {
    let server = Server::start();
    let mut c = server.client();
    // 3×3: the optimal solver's length equals breadth-first search's.
    for seed in [1, 2, 3] {
        let game = c.ok(
            "/api/slide/new",
            json!({"size": "3x3", "goal": "snake", "seed": seed}),
        );
        let (w, start) = parse_position(game["position"].as_str().unwrap());
        let (_, goal) = parse_position(game["goal_position"].as_str().unwrap());
        let shortest = bfs(&start, &goal, w).len();
        let body = json!({"position": game["position"], "goal": game["goal_position"]});
        let solution = c.ok("/api/slide/solve", body.clone());
        let moves = solution["moves"].as_str().unwrap();
        assert_eq!(solution["optimal"], true);
        assert_eq!(moves.len(), shortest);
        assert_eq!(replay(&start, w, moves), goal);
        // A hint is a first step of a shortest solution.
        let hint = c.ok("/api/slide/hint", body);
        let letter = hint["move"].as_str().unwrap();
        let next = replay(&start, w, letter);
        assert_eq!(bfs(&next, &goal, w).len(), shortest - 1);
    }
    // Larger boards: the fast solver, replayed to the goal.
    for size in ["4x4", "7x5", "10x10"] {
        let game = c.ok(
            "/api/slide/new",
            json!({"size": size, "goal": "spiral", "seed": 5}),
        );
        let (w, start) = parse_position(game["position"].as_str().unwrap());
        let (_, goal) = parse_position(game["goal_position"].as_str().unwrap());
        let solution = c.ok(
            "/api/slide/solve",
            json!({"position": game["position"], "goal": game["goal_position"], "game": game["game"]}),
        );
        let moves = solution["moves"].as_str().unwrap();
        assert_eq!(replay(&start, w, moves), goal, "{size}");
        // A game finished with the solver is stored but not ranked.
        let done = c.ok("/api/slide/submit", slide_submission(&game, moves));
        assert_eq!(done["solved"], true);
        assert_eq!(done["ranked"], false);
        assert!(done["reason"].as_str().unwrap().starts_with("assisted"));
        let variant = format!("{size}-spiral");
        let records = c
            .get(&format!("/api/records?game=slide&variant={variant}"))
            .json();
        assert_eq!(records["by_time"], json!([]));
    }
}

/// A Shisen-Sho submission with turns a second apart, sent at once.
pub(crate) fn shisen_submission(game: &Value, turns: &[Value]) -> Value {
    json!({"game": game["game"], "turns": turns, "times": paced(turns.len(), 300, 1000)})
}

/// Plays a Shisen-Sho game through the API by hints, shuffling when stuck;
/// returns the action list.
pub(crate) fn play_shisen(c: &mut Client, game: &Value) -> Vec<Value> {
    let gravity = game["variant"].as_str().unwrap().contains("gravity");
    let mut board = game["board"].as_str().unwrap().to_string();
    let mut actions = Vec::new();
    for _ in 0..200 {
        if board.chars().all(|ch| ch == '.' || ch == '\n') {
            return actions;
        }
        let hint = c.ok(
            "/api/shisen/hint",
            json!({"board": board, "game": game["game"], "gravity": gravity}),
        );
        if hint["move"].is_null() {
            let shuffled = c.ok(
                "/api/shisen/shuffle",
                json!({"game": game["game"], "board": board, "step": actions.len()}),
            );
            board = shuffled["board"].as_str().unwrap().to_string();
            actions.push(json!("shuffle"));
            continue;
        }
        let m = &hint["move"];
        let from_to =
            json!({"board": board, "from": [m[0], m[1]], "to": [m[2], m[3]], "gravity": gravity});
        let path = c.ok("/api/shisen/path", from_to);
        assert!(path["path"].is_array());
        board = path["board"].as_str().unwrap().to_string();
        actions.push(m.clone());
    }
    panic!("game did not end")
}

#[test]
fn a_shisen_game_played_by_hints_is_stored_but_not_ranked() {
    let server = Server::start();
    let mut c = server.client();
    let game = c.ok(
        "/api/shisen/new",
        json!({"size": "6x4", "gravity": false, "chinese": false, "seed": 1}),
    );
    assert_eq!(game["variant"], "6x4");
    assert_eq!(game["board"].as_str().unwrap().lines().count(), 4);
    let actions = play_shisen(&mut c, &game);
    // A wrong pair is refused with the move's number.
    let mut wrong = actions.clone();
    wrong.insert(0, json!([0, 0, 0, 0]));
    let refused = c.post("/api/shisen/submit", shisen_submission(&game, &wrong));
    assert!(refused.error().contains("illegal turn 1"));
    let done = c.ok("/api/shisen/submit", shisen_submission(&game, &actions));
    assert_eq!(done["solved"], true, "{done}");
    assert_eq!(done["moves"], 12);
    assert!(done["hints"].as_i64().unwrap() >= 12);
    assert_eq!(done["ranked"], false);
    assert!(done["reason"].as_str().unwrap().starts_with("assisted"));
    let records = c.get("/api/records?game=shisen&variant=6x4").json();
    assert_eq!(records["by_time"], json!([]));
    let stats = c.get("/api/me/stats?game=shisen&variant=6x4").json();
    assert_eq!(stats["recent"][0]["ranked"], false);
}

#[test]
fn solvable_deals_reproduce_and_hints_keep_them_solvable() {
    let server = Server::start();
    let mut c = server.client();
    let one = c.ok("/api/shisen/new", json!({"preset": "14x6", "seed": 21}));
    let two = c.ok(
        "/api/shisen/new",
        json!({"preset": "14x6", "seed": 21, "solvable": true}),
    );
    assert_eq!(one["board"], two["board"]);
    assert_eq!(one["solvable"], true);
    let any = c.ok(
        "/api/shisen/new",
        json!({"preset": "14x6", "seed": 21, "solvable": false}),
    );
    assert_eq!(any["solvable"], false);
    // Following the safe hints clears the board without a shuffle.
    let game = c.ok("/api/shisen/new", json!({"size": "8x4", "seed": 4}));
    let actions = play_shisen(&mut c, &game);
    assert!(actions.iter().all(Value::is_array), "{actions:?}");
    let done = c.ok("/api/shisen/submit", shisen_submission(&game, &actions));
    assert_eq!(done["solved"], true);
    // The solver's verdicts: no pair of "12/21" can ever connect.
    let stuck = c.ok("/api/shisen/check", json!({"board": "12/21"}));
    assert_eq!(stuck["solvable"], false);
    assert_eq!(stuck["pairs"], json!([]));
    let easy = c.ok(
        "/api/shisen/check",
        json!({"board": "11/22", "gravity": true}),
    );
    assert_eq!(easy["solvable"], true);
    // The pairs that connect now, in reading order: each row's pair, and
    // not "1" with "2".
    assert_eq!(easy["pairs"], json!([[0, 0, 1, 0], [0, 1, 1, 1]]));
    let apart = c.ok("/api/shisen/check", json!({"board": "1..1/2..2"}));
    assert_eq!(apart["pairs"], json!([[0, 0, 3, 0], [0, 1, 3, 1]]));
    let hint = c.ok("/api/shisen/hint", json!({"board": "12/21"}));
    assert_eq!(hint["move"], Value::Null);
    assert_eq!(hint["solvable"], false);
    let bad = c.post("/api/shisen/check", json!({"board": "1/2"}));
    assert!(bad.error().contains("odd number"));
}

#[test]
fn gravity_games_replay_with_gravity() {
    let server = Server::start();
    let mut c = server.client();
    let game = c.ok(
        "/api/shisen/new",
        json!({"size": "4x4", "gravity": true, "seed": 3}),
    );
    assert_eq!(game["variant"], "4x4-gravity");
    // Hints and paths follow gravity: the tiles fall after each removal.
    let actions = play_shisen(&mut c, &game);
    let done = c.ok("/api/shisen/submit", shisen_submission(&game, &actions));
    assert_eq!(done["solved"], true, "{done}");
}

#[test]
fn bad_shisen_input_is_a_4xx_with_a_message() {
    let server = Server::start();
    let mut c = server.client();
    let preset = c.post("/api/shisen/new", json!({"preset": "20x10"}));
    assert!(preset.error().contains("unknown variant `20x10`"));
    assert_eq!(preset.json()["pointer"], "/preset");
    let both = c.post("/api/shisen/new", json!({"preset": "18x8", "size": "4x4"}));
    assert!(both.error().contains("not both"));
    let odd = c.post("/api/shisen/new", json!({"size": "3x3"}));
    assert!(odd.error().contains("odd"));
    let large = c.post("/api/shisen/new", json!({"size": "64x64"}));
    assert!(large.error().contains("too large"));
    let syntax = c.post("/api/shisen/new", json!({"size": "big"}));
    assert!(syntax.error().contains("bad size"));
    let gravity = c.post("/api/shisen/new", json!({"gravity": "yes"}));
    assert!(gravity.error().contains("invalid"));
    let malformed = c.post_raw("/api/shisen/path", "application/json", "{\"board\" 1}");
    assert!(malformed.error().contains("malformed JSON"));

    let board = "1122\n3344\n";
    let off = c.post(
        "/api/shisen/path",
        json!({"board": board, "from": [0, 0], "to": [9, 0]}),
    );
    assert!(off.error().contains("off the"));
    let negative = c.post(
        "/api/shisen/path",
        json!({"board": board, "from": [-1, 0], "to": [1, 0]}),
    );
    assert!(negative.error().contains("off the"));
    let ragged = c.post(
        "/api/shisen/path",
        json!({"board": "112\n3344", "from": [0, 0], "to": [1, 0]}),
    );
    assert!(ragged.error().contains("bad board"));
    let odd_kind = c.post(
        "/api/shisen/path",
        json!({"board": "1123/3344", "from": [0, 0], "to": [1, 0]}),
    );
    assert!(odd_kind.error().contains("odd number"));
    let wide = "11".repeat(25);
    let too_wide = c.post(
        "/api/shisen/path",
        json!({"board": wide, "from": [0, 0], "to": [1, 0]}),
    );
    assert!(too_wide.error().contains("too large"));

    // Good boards: a connection, and a refusal that says why.
    let path = c.ok(
        "/api/shisen/path",
        json!({"board": "1221/3443", "from": [0, 0], "to": [3, 0]}),
    );
    assert_eq!(path["path"], json!([[0, 0], [0, -1], [3, -1], [3, 0]]));
    assert_eq!(path["board"], ".22.\n3443\n");
    let mismatch = c.ok(
        "/api/shisen/path",
        json!({"board": "1221/3443", "from": [0, 0], "to": [1, 0]}),
    );
    assert_eq!(mismatch["path"], Value::Null);
    assert!(mismatch["reason"]
        .as_str()
        .unwrap()
        .contains("do not match"));

    let game = c.ok("/api/shisen/new", json!({"size": "4x2", "seed": 5}));
    let word = c.post(
        "/api/shisen/submit",
        json!({"game": game["game"], "turns": ["jump"], "times": [500]}),
    );
    // The message says what a turn may be, never an internal type name.
    let error = word.error();
    assert!(error.contains(r#"unknown turn "jump""#), "{error}");
    assert!(
        error.contains(r#"[x1, y1, x2, y2], "shuffle", "undo" or "redo""#),
        "{error}"
    );
    assert!(!error.contains("TurnJson"), "{error}");
    let short = c.post(
        "/api/shisen/submit",
        json!({"game": game["game"], "turns": [[0, 0, 1]], "times": [500]}),
    );
    let error = short.error();
    assert!(error.contains("invalid length 3"), "{error}");
    assert!(error.contains("[x1, y1, x2, y2]"), "{error}");
    let number = c.post(
        "/api/shisen/submit",
        json!({"game": game["game"], "turns": [7], "times": [500]}),
    );
    let error = number.error();
    assert!(
        error.contains("[x1, y1, x2, y2]") && !error.contains("TurnJson"),
        "{error}"
    );
    // One more turn than `play::limits::SUBMITTED_TURNS` allows.
    let many = vec![json!("shuffle"); 5_001];
    let long = c.post("/api/shisen/submit", shisen_submission(&game, &many));
    assert!(long.error().contains("too many turns"));
    let unsolved = c.ok("/api/shisen/submit", shisen_submission(&game, &[]));
    assert_eq!(unsolved["solved"], false);
    assert_eq!(unsolved["tiles_left"], 8);
    let nobody = c.post(
        "/api/shisen/pause",
        json!({"game": "0123456789abcdef0123456789abcdef"}),
    );
    assert_eq!(nobody.status, 404);
    let slide_id = c.ok("/api/slide/new", json!({"size": "3x3"}))["game"].clone();
    let wrong_game = c.post(
        "/api/shisen/submit",
        json!({"game": slide_id, "turns": [], "times": []}),
    );
    assert_eq!(wrong_game.status, 404);
}

#[test]
fn records_and_names_validate_their_input() {
    let server = Server::start();
    let mut c = server.client();
    let game = c.get("/api/records?game=chess&variant=4x4");
    assert_eq!(game.status, 400);
    assert!(game.error().contains("unknown variant `chess`"));
    let variant = c.get("/api/records?game=slide&variant=%3Cscript%3E");
    assert!(variant.error().contains("bad variant"));
    let missing = c.get("/api/records?game=slide");
    assert!(missing.error().contains("variant"));
    let empty = c
        .get("/api/records?game=slide&variant=4x4-row-major")
        .json();
    assert_eq!(empty["by_time"], json!([]));
    let long = c.post("/api/me/name", json!({"name": "x".repeat(25)}));
    assert!(long.error().contains("too long"));
    let control = c.post("/api/me/name", json!({"name": "a\u{7}b"}));
    assert!(control.error().contains("control"));
    let named = c.ok("/api/me/name", json!({"name": "  Grace  "}));
    assert_eq!(named["name"], "Grace");
    assert_eq!(c.get("/api/me").json()["name"], "Grace");
    let cleared = c.ok("/api/me/name", json!({"name": ""}));
    assert_eq!(cleared["name"], Value::Null);
}

#[test]
fn pauses_are_recorded_and_games_survive_a_restart() {
    let server = Server::start();
    let mut c = server.client();
    let game = c.ok("/api/shisen/new", json!({"size": "4x2", "seed": 8}));
    c.ok("/api/shisen/pause", json!({"game": game["game"]}));
    c.ok("/api/shisen/pause", json!({"game": game["game"]}));
    c.ok("/api/shisen/resume", json!({"game": game["game"]}));
    let (slide, moves) = solved_3x3(&mut c, 11);
    let cookie = c.cookie.clone();
    let dir = server.stop();

    // Same database, new process: the issued games are still there.
    let server = Server::start_in(dir);
    let mut c = server.client();
    c.cookie = cookie;
    let done = c.ok("/api/slide/submit", slide_submission(&slide, &moves));
    assert_eq!(done["solved"], true);
    let actions = play_shisen(&mut c, &game);
    let done = c.ok("/api/shisen/submit", shisen_submission(&game, &actions));
    assert_eq!(done["solved"], true);
}

#[test]
fn concurrent_players_do_not_disturb_each_other() {
    let server = Server::start();
    let url = server.url.clone();
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let url = url.clone();
            std::thread::spawn(move || {
                let mut c = Client::new(&url);
                c.sign_up("conc");
                for seed in 0..3 {
                    let (_, _, done) = solve_like_a_person(&mut c, 1000 * i + seed);
                    assert_eq!(done["solved"], true);
                    assert_eq!(done["ranked"], true, "{done}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let mut c = server.client();
    let records = c
        .get("/api/records?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(records["by_time"].as_array().unwrap().len(), 10);
    let _ = Path::new(&url);
}

#[test]
fn colours_and_pictures_for_the_page_looks() {
    let server = Server::start();
    let mut c = server.client();
    // Rows on a 3x3 row-major goal: one colour per goal row, the same as
    // `slide render --scheme rows` draws.
    let colours = c.ok(
        "/api/slide/colours",
        json!({"goal": "1 2 3/4 5 6/7 8 0", "scheme": "rows"}),
    );
    let fills: Vec<String> = serde_json::from_value(colours["fills"].clone()).unwrap();
    let texts: Vec<String> = serde_json::from_value(colours["texts"].clone()).unwrap();
    assert_eq!((fills.len(), texts.len()), (10, 10));
    assert_eq!(fills[1], fills[3]);
    assert_ne!(fills[3], fills[4]);
    let svg = stdout(&[
        "slide",
        "render",
        "1 2 3/4 5 6/7 8 0",
        "--scheme",
        "rows",
        "-o",
        "-",
    ]);
    for fill in &fills[1..9] {
        assert!(svg.contains(&format!("fill=\"{fill}\"")), "{fill}");
    }
    // Grids on 8x8, default and explicit: the same colours as `slide
    // render` draws, two 8x4 halves of 4x4 blocks (eight fills: four
    // blocks, each full and pale).
    let goal8: Vec<String> = (0..8)
        .map(|r| {
            (0..8)
                .map(|c| ((r * 8 + c + 1) % 64).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let goal8 = goal8.join("/");
    let grids = c.ok(
        "/api/slide/colours",
        json!({"goal": goal8, "scheme": "grids"}),
    );
    let explicit = c.ok(
        "/api/slide/colours",
        json!({"goal": goal8, "scheme": "grids:8x4,4x4"}),
    );
    assert_eq!(grids["fills"], explicit["fills"]);
    let fills: Vec<String> = serde_json::from_value(grids["fills"].clone()).unwrap();
    let distinct: std::collections::BTreeSet<&String> = fills[1..64].iter().collect();
    assert_eq!(distinct.len(), 8, "{fills:?}");
    let svg = stdout(&["slide", "render", &goal8, "--scheme", "grids", "-o", "-"]);
    for fill in &fills[1..64] {
        assert!(svg.contains(&format!("fill=\"{fill}\"")), "{fill}");
    }
    // Bad goals and schemes point at their field.
    for (body, status, pointer, says) in [
        (
            json!({"goal": "1 2/3", "scheme": "rows"}),
            400,
            "/goal",
            "bad goal",
        ),
        (
            json!({"goal": "1 2 3/4 5 6/7 8 0", "scheme": "plaid"}),
            422,
            "/scheme",
            "unknown colour scheme \"plaid\"",
        ),
        (
            json!({"goal": "1 2 3/4 5 6/7 8 0", "scheme": "grids:20x10,7x10"}),
            422,
            "/scheme",
            "grids layer 2 (7x10) does not nest in layer 1 (20x10)",
        ),
        (
            json!({"goal": "1 2 3/4 5 6/7 8 0", "scheme": "grids:20x10, 10x10"}),
            422,
            "/scheme",
            "write it as \"grids:20x10,10x10\"",
        ),
    ] {
        let reply = c.post("/api/slide/colours", body);
        assert_eq!(reply.status, status, "{}", reply.text);
        assert_eq!(reply.json()["pointer"], pointer);
        assert!(reply.error().contains(says), "{}", reply.text);
    }
    // One side past the largest board the page plays (32).
    let big: Vec<String> = (0..33)
        .map(|r| {
            (0..33)
                .map(|c| (r * 33 + c).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let reply = c.post(
        "/api/slide/colours",
        json!({"goal": big.join("/"), "scheme": "rows"}),
    );
    assert!(reply.error().contains("larger than"), "{}", reply.text);
    // The built-in pictures are listed and served as SVG.
    let list = c.get("/static/pictures.js").text;
    for name in ["sunset", "waves", "mosaic"] {
        assert!(list.contains(&format!("\"name\":\"{name}\"")), "{list}");
        let picture = c.get(&format!("/static/picture-{name}.svg"));
        assert_eq!(picture.status, 200);
        assert!(picture.content_type.starts_with("image/svg+xml"));
        assert!(picture.text.starts_with("<svg"));
    }
    assert_eq!(c.get("/static/picture-nope.svg").status, 404);
}

#[test]
fn hints_and_solutions_follow_the_metric_asked_for() {
    let server = Server::start();
    let mut c = server.client();
    // Two tiles slid left in one motion: one MTM move, two STM moves.
    let position = "1 2 3/4 5 6/0 7 8";
    let mtm = c.ok(
        "/api/slide/hint",
        json!({"position": position, "metric": "mtm"}),
    );
    assert_eq!(
        (mtm["move"].as_str(), mtm["run"].as_str()),
        (Some("L"), Some("L2"))
    );
    assert_eq!(mtm["remaining"], 1);
    let stm = c.ok("/api/slide/hint", json!({"position": position}));
    assert_eq!(
        (stm["move"].as_str(), stm["run"].as_str()),
        (Some("L"), Some("L"))
    );
    assert_eq!(stm["remaining"], 2);
    // The hardest 3x3: 31 STM moves, fewer in MTM, and each solution is
    // shortest in its own metric.
    let hard = "8 6 7/2 5 4/3 0 1";
    let by_mtm = c.ok(
        "/api/slide/solve",
        json!({"position": hard, "metric": "mtm"}),
    );
    let by_stm = c.ok("/api/slide/solve", json!({"position": hard}));
    assert_eq!(by_stm["length"], 31);
    assert!(by_mtm["mtm"].as_u64() < by_stm["mtm"].as_u64());
    assert!(by_mtm["length"].as_u64() >= by_stm["length"].as_u64());
    assert_eq!(
        (by_mtm["optimal"].as_bool(), by_stm["optimal"].as_bool()),
        (Some(true), Some(true))
    );
    let bad = c.post(
        "/api/slide/hint",
        json!({"position": position, "metric": "qtm"}),
    );
    assert_eq!(bad.status, 422);
    assert_eq!(bad.json()["pointer"], "/metric");
}

#[test]
fn a_replay_is_analysed_move_by_move_and_the_analysis_is_kept() {
    let server = Server::start();
    let mut c = server.client();
    let dealt = Instant::now();
    let (game, best) = solved_3x3(&mut c, 77);
    // A back-and-forth first: two moves lost.
    let first = &best[..1];
    let back = match first {
        "U" => "D",
        "D" => "U",
        "L" => "R",
        _ => "L",
    };
    let moves = format!("{first}{back}{best}");
    let times = paced(moves.len(), 300, 100);
    wait_for(dealt, &times);
    let done = c.ok(
        "/api/slide/submit",
        json!({"game": game["game"], "moves": moves, "times": times}),
    );
    assert_eq!(done["solved"], true);
    let id = game["game"].as_str().unwrap();
    let url = format!("/api/replays/{id}/analysis");
    let a = c.get(&url);
    assert_eq!(a.status, 200, "{}", a.text);
    let a = a.json();
    let d = best.len() as u64;
    let distances: Vec<u64> = a["distances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let mut expected = vec![d, d - 1, d];
    expected.extend((0..d).rev());
    assert_eq!(distances, expected, "{a}");
    assert_eq!(
        (a["exact"].clone(), a["lost"].clone()),
        (json!(true), json!(2))
    );
    assert_eq!(a["optimal"], d);
    assert_eq!(a["detours"], json!([{"from": 1, "to": 3, "lost": 2}]));
    assert_eq!(a["steps"][1]["progress"], 1);
    assert_eq!(a["shortened"], best.as_str());
    // Kept: the second answer is the first.
    assert_eq!(c.get(&url).json(), a);
    // In MTM one distance a run.
    let mtm = c.get(&format!("{url}?metric=mtm")).json();
    let runs = done["mtm"].as_u64().unwrap() as usize;
    assert_eq!(
        mtm["distances"].as_array().unwrap().len(),
        runs + 1,
        "{mtm}"
    );
    // What cannot be analysed says why.
    assert_eq!(c.get(&format!("{url}?metric=xtm")).status, 400);
    let large = c.ok("/api/slide/new", json!({"size": "6x6", "seed": 1}));
    let (w, tiles) = parse_position(large["position"].as_str().unwrap());
    let blank = tiles.iter().position(|&t| t == 0).unwrap();
    // One tile in and out, legal wherever the blank is: then the way home
    // is the fast solver's, submitted as a person would never manage, so
    // the result is stored (unranked) and has a replay.
    let there_and_back = if blank % w == w - 1 { "RL" } else { "LR" };
    let fast = {
        let start: slide::Position = large["position"].as_str().unwrap().parse().unwrap();
        let goal: slide::Position = large["goal_position"].as_str().unwrap().parse().unwrap();
        let mut from = start.clone();
        from.apply_all(&there_and_back.parse().unwrap()).unwrap();
        slide::solve_fast(&from, &goal).unwrap().to_string()
    };
    let moves = format!("{there_and_back}{fast}");
    let done = c.ok("/api/slide/submit", slide_submission(&large, &moves));
    assert_eq!(done["solved"], true);
    let refused = c.get(&format!(
        "/api/replays/{}/analysis",
        large["game"].as_str().unwrap()
    ));
    // Beyond 5x5: every distance is the Manhattan-and-linear-conflicts
    // bound, marked so, and the best solution shown is the fast solver's.
    assert_eq!(refused.status, 200, "{}", refused.text);
    let bounded = refused.json();
    let start: slide::Position = large["position"].as_str().unwrap().parse().unwrap();
    let goal: slide::Position = large["goal_position"].as_str().unwrap().parse().unwrap();
    let bound = slide::LowerBound::new(&start, &goal).unwrap().value();
    assert_eq!(bounded["distances"][0], bound, "{bounded}");
    assert_eq!(bounded["optimal"], bound);
    assert_eq!(
        (
            bounded["exact"].clone(),
            bounded["lost"].clone(),
            bounded["solution_optimal"].clone()
        ),
        (json!(false), Value::Null, json!(false))
    );
    let distances = bounded["distances"].as_array().unwrap();
    assert_eq!(distances.len(), moves.len() + 1);
    assert_eq!(distances.last().unwrap(), &json!(0));
    let best: slide::Moves = bounded["optimal_solution"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let mut end = start.clone();
    end.apply_all(&best).unwrap();
    assert_eq!(end, goal);
    let single = c.get(&format!("{url}?puzzle=1"));
    assert_eq!(single.status, 400);
    assert!(
        single.error().contains("puzzle is 0 to 0"),
        "{}",
        single.text
    );
    assert_eq!(
        c.get(&format!("/api/replays/{}/analysis", "0".repeat(32)))
            .status,
        404
    );
    let shisen = c.ok("/api/shisen/new", json!({"size": "4x2", "seed": 3}));
    let actions = play_shisen(&mut c, &shisen);
    c.ok("/api/shisen/submit", shisen_submission(&shisen, &actions));
    // A Shisen-Sho game is analysed turn by turn (tests/it/shisen_analysis.rs).
    let turns = c.get(&format!(
        "/api/replays/{}/analysis",
        shisen["game"].as_str().unwrap()
    ));
    assert_eq!(turns.status, 200, "{}", turns.text);
    assert_eq!(
        turns.json()["solvable"].as_array().map(Vec::len),
        Some(actions.len() + 1)
    );
    let puzzle = c.get(&format!(
        "/api/replays/{}/analysis?puzzle=0",
        shisen["game"].as_str().unwrap()
    ));
    assert_eq!(puzzle.status, 400, "{}", puzzle.text);
}
