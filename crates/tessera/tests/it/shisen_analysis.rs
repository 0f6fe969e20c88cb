//! Where a Shisen-Sho game was lost, as the web API tells it: a recorded
//! game (`GET /api/replays/{game}/analysis`) and a game in progress
//! (`POST /api/shisen/analysis`). Checked against a brute-force search of
//! every removal order on each position of the game, on games played here
//! with the engine and submitted like a browser would.

use crate::common;

use std::collections::HashSet;

use common::server::{Client, Server};
use serde_json::{json, Value};
use shisen::{parse_board, Game, Matching, Move, Rules};

/// Whether some order of removals clears `game`'s board: every order
/// tried, boards that failed once remembered. Independent of the solver.
fn clearable(game: &Game, failed: &mut HashSet<String>) -> bool {
    if game.is_won() {
        return true;
    }
    let key = game.board().to_string();
    if failed.contains(&key) {
        return false;
    }
    for m in game.board().moves() {
        let mut next = game.clone();
        next.remove(m.a, m.b).unwrap();
        if clearable(&next, failed) {
            return true;
        }
    }
    failed.insert(key);
    false
}

/// A removal order that clears `game`'s board, by brute force.
fn clearing(game: &Game) -> Option<Vec<Move>> {
    if game.is_won() {
        return Some(Vec::new());
    }
    for m in game.board().moves() {
        let mut next = game.clone();
        next.remove(m.a, m.b).unwrap();
        if clearable(&next, &mut HashSet::new()) {
            let mut rest = clearing(&next).unwrap();
            rest.insert(0, m);
            return Some(rest);
        }
    }
    None
}

/// A turn as the page submits it.
fn removal(m: Move) -> Value {
    json!([m.a.x, m.a.y, m.b.x, m.b.y])
}

/// A dealt game: its JSON and its board as the engine's game.
fn deal(c: &mut Client, size: &str, gravity: bool, seed: u64) -> (Value, Game) {
    let issued = c.ok(
        "/api/shisen/new",
        json!({"size": size, "gravity": gravity, "seed": seed}),
    );
    let rules = Rules {
        gravity,
        ..Rules::STANDARD
    };
    let board = parse_board(issued["board"].as_str().unwrap(), Matching::Standard).unwrap();
    (issued, Game::new(board, rules))
}

/// The game after every turn: the deal, then one board per turn.
fn positions(start: &Game, turns: &[Value]) -> Vec<Game> {
    let mut game = start.clone();
    let mut out = vec![game.clone()];
    for turn in turns {
        match turn.as_str() {
            Some("undo") => assert!(game.undo()),
            Some(other) => panic!("unexpected turn {other}"),
            None => {
                let n: Vec<i32> = turn
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap() as i32)
                    .collect();
                let (p, q) = (
                    shisen::Point::new(n[0], n[1]),
                    shisen::Point::new(n[2], n[3]),
                );
                game.remove(p, q).unwrap();
            }
        }
        out.push(game.clone());
    }
    out
}

fn submit(c: &mut Client, issued: &Value, turns: &[Value]) {
    let times: Vec<i64> = (0..turns.len() as i64).map(|i| 300 + i * 1000).collect();
    let done = c.ok(
        "/api/shisen/submit",
        json!({"game": issued["game"], "turns": turns, "times": times}),
    );
    assert_eq!(done["solved"], true, "{done}");
}

/// A game that goes wrong and is put right: two removals from a winning
/// line, a removal after which the board cannot be cleared, one more
/// removal, two undos back to before the mistake, and a winning line to
/// the end. Searches the seeds for a deal where such a mistake exists.
fn a_game_lost_at_turn_three(c: &mut Client, gravity: bool) -> (Value, Game, Vec<Value>) {
    for seed in 1.. {
        let (issued, start) = deal(c, "6x4", gravity, seed);
        let Some(line) = clearing(&start) else {
            continue;
        };
        let mut game = start.clone();
        for m in &line[..2] {
            game.remove(m.a, m.b).unwrap();
        }
        let mistake = game.board().moves().into_iter().find(|m| {
            let mut next = game.clone();
            next.remove(m.a, m.b).unwrap();
            !clearable(&next, &mut HashSet::new()) && !next.board().moves().is_empty()
        });
        let Some(mistake) = mistake else {
            continue;
        };
        let mut lost = game.clone();
        lost.remove(mistake.a, mistake.b).unwrap();
        let after = lost.board().moves()[0];
        let mut turns: Vec<Value> = line[..2].iter().copied().map(removal).collect();
        turns.extend([
            removal(mistake),
            removal(after),
            json!("undo"),
            json!("undo"),
        ]);
        turns.extend(clearing(&game).unwrap().into_iter().map(removal));
        return (issued, start, turns);
    }
    unreachable!()
}

/// The analysis, checked against brute force on every position: the
/// verdicts, the losing turn, and that the continuation clears the board
/// from where it starts.
fn check_analysis(c: &mut Client, issued: &Value, start: &Game, turns: &[Value]) -> Value {
    let url = format!("/api/replays/{}/analysis", issued["game"].as_str().unwrap());
    let reply = c.get(&url);
    assert_eq!(reply.status, 200, "{}", reply.text);
    let analysis = reply.json();
    check_report(&analysis, start, turns);
    // Complete, so kept: the second answer is the first.
    assert_eq!(c.get(&url).json(), analysis);
    analysis
}

/// A loss report checked against brute force on every position.
fn check_report(analysis: &Value, start: &Game, turns: &[Value]) {
    let games = positions(start, turns);
    let expected: Vec<Value> = games
        .iter()
        .map(|g| json!(clearable(g, &mut HashSet::new())))
        .collect();
    assert_eq!(analysis["solvable"], json!(expected), "{analysis}");
    let lost_at = expected.iter().position(|v| v == &json!(false));
    assert_eq!(analysis["lost_at"], json!(lost_at));
    assert_eq!(
        (&analysis["undecided"], &analysis["complete"]),
        (&json!(false), &json!(true))
    );
    let line = &analysis["continuation"];
    let after = line["after"].as_u64().unwrap() as usize;
    // From the last winnable position before the loss (or the end).
    assert_eq!(after, lost_at.map_or(turns.len(), |at| at - 1));
    let mut game = games[after].clone();
    for step in line["steps"].as_array().unwrap() {
        let turn = step["turn"].as_str().unwrap();
        let (a, b) = turn.split_once('-').unwrap();
        let point = |s: &str| {
            let (x, y) = s.split_once(',').unwrap();
            shisen::Point::new(x.parse().unwrap(), y.parse().unwrap())
        };
        game.remove(point(a), point(b)).unwrap();
        // Each step carries the board it leaves, as the engine has it.
        assert_eq!(step["board"].as_str().unwrap(), game.board().to_string());
        assert!(step["path"].as_array().unwrap().len() >= 2);
    }
    assert!(game.is_won(), "the continuation does not clear the board");
}

/// The analysis of the game in progress after `turns`.
fn analyse_in_progress(c: &mut Client, issued: &Value, turns: &[Value]) -> Value {
    c.ok(
        "/api/shisen/analysis",
        json!({"game": issued["game"], "turns": turns}),
    )
}

#[test]
fn a_game_put_right_after_a_mistake_is_lost_at_the_mistake() {
    let server = Server::start();
    let mut c = server.client();
    for gravity in [false, true] {
        let (issued, start, turns) = a_game_lost_at_turn_three(&mut c, gravity);
        submit(&mut c, &issued, &turns);
        let analysis = check_analysis(&mut c, &issued, &start, &turns);
        // Winnable, winnable, lost, lost, lost (one undo is still after
        // the mistake), winnable again to the end.
        let solvable = analysis["solvable"].as_array().unwrap();
        assert_eq!(analysis["lost_at"], 3, "{analysis}");
        assert_eq!(
            Value::Array(solvable[..6].to_vec()),
            json!([true, true, true, false, false, false])
        );
        assert!(solvable[6..].iter().all(|v| v == true));
        assert_eq!(analysis["continuation"]["after"], 2);
    }
}

#[test]
fn a_game_won_without_a_mistake_was_never_lost() {
    let server = Server::start();
    let mut c = server.client();
    let (issued, start) = deal(&mut c, "8x4", true, 5);
    let turns: Vec<Value> = clearing(&start)
        .expect("a solvable deal")
        .into_iter()
        .map(removal)
        .collect();
    submit(&mut c, &issued, &turns);
    let analysis = check_analysis(&mut c, &issued, &start, &turns);
    assert!(analysis["solvable"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v == true));
    assert_eq!(analysis["lost_at"], Value::Null);
    // Nothing lost: the line starts from the cleared board and is empty.
    assert_eq!(analysis["continuation"]["after"], turns.len());
    assert_eq!(analysis["continuation"]["steps"], json!([]));
}

#[test]
fn what_cannot_be_analysed_says_why() {
    let server = Server::start();
    let mut c = server.client();
    let missing = c.get(&format!("/api/replays/{}/analysis", "0".repeat(32)));
    assert_eq!(missing.status, 404, "{}", missing.text);
    assert!(missing.error().contains("no finished game"));
    assert_eq!(c.get("/api/replays/nope/analysis").status, 400);
    let (issued, start) = deal(&mut c, "4x2", false, 3);
    let turns: Vec<Value> = clearing(&start).unwrap().into_iter().map(removal).collect();
    submit(&mut c, &issued, &turns);
    // A metric belongs to sliding-puzzle solves.
    let url = format!("/api/replays/{}/analysis", issued["game"].as_str().unwrap());
    let metric = c.get(&format!("{url}?metric=stm"));
    assert_eq!(metric.status, 400);
    assert!(metric.error().contains("metric"), "{}", metric.text);
}

#[test]
fn a_game_in_progress_is_analysed_as_far_as_it_went() {
    let server = Server::start();
    let mut c = server.client();
    for gravity in [false, true] {
        let (issued, start, turns) = a_game_lost_at_turn_three(&mut c, gravity);
        // Before any turn: the deal is winnable, and the line clears it.
        let dealt = analyse_in_progress(&mut c, &issued, &[]);
        check_report(&dealt, &start, &[]);
        assert_eq!(dealt["solvable"], json!([true]));
        // Just after the mistake and one more removal: lost at turn 3, no
        // longer winnable, and the line starts after turn 2.
        let lost = analyse_in_progress(&mut c, &issued, &turns[..4]);
        check_report(&lost, &start, &turns[..4]);
        assert_eq!(lost["lost_at"], 3, "{lost}");
        assert_eq!(lost["solvable"][4], false);
        assert_eq!(lost["continuation"]["after"], 2);
        // Put right by the two undos: winnable again from here.
        let mended = analyse_in_progress(&mut c, &issued, &turns[..6]);
        check_report(&mended, &start, &turns[..6]);
        assert_eq!(mended["solvable"][6], true, "{mended}");
        // Asking is help: the cleared game is recorded, not ranked.
        submit(&mut c, &issued, &turns);
        let replay = c.get(&format!(
            "/api/replays/{}",
            issued["game"].as_str().unwrap()
        ));
        assert_eq!(replay.json()["ranked"], false, "{}", replay.text);
        let reason = replay.json()["reason"].as_str().unwrap().to_string();
        assert!(reason.starts_with("assisted"), "{reason}");
        // Submitted, the game is no longer in progress.
        let done = c.post(
            "/api/shisen/analysis",
            json!({"game": issued["game"], "turns": turns}),
        );
        assert_eq!(done.status, 409, "{}", done.text);
    }
}

#[test]
fn a_game_in_progress_that_cannot_be_analysed_says_why() {
    let server = Server::start();
    let mut c = server.client();
    let (issued, start) = deal(&mut c, "4x2", false, 3);
    let game = issued["game"].clone();
    let line: Vec<Value> = clearing(&start).unwrap().into_iter().map(removal).collect();
    let ask = |c: &mut Client, body: Value| c.post("/api/shisen/analysis", body);
    // Not a game id; no such game; another player's game.
    let reply = ask(&mut c, json!({"game": "nope"}));
    assert_eq!(reply.status, 422, "{}", reply.text);
    assert_eq!(reply.json()["pointer"], "/game");
    let reply = ask(&mut c, json!({"game": "0".repeat(32)}));
    assert_eq!(reply.status, 404, "{}", reply.text);
    let mut other = server.client();
    let reply = ask(&mut other, json!({"game": game, "turns": []}));
    assert_eq!(reply.status, 404, "{}", reply.text);
    // A point off the board, a turn that is not one, an illegal turn.
    let reply = ask(
        &mut c,
        json!({"game": game, "turns": [line[0], [0, 0, 9, 0]]}),
    );
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert_eq!(reply.json()["pointer"], "/turns/1");
    assert!(
        reply.error().contains("off the 4x2 board"),
        "{}",
        reply.text
    );
    let reply = ask(&mut c, json!({"game": game, "turns": ["jump"]}));
    assert_eq!(reply.status, 422, "{}", reply.text);
    assert!(reply.error().contains("a turn is"), "{}", reply.text);
    let reply = ask(&mut c, json!({"game": game, "turns": [line[0], line[0]]}));
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert_eq!(reply.json()["pointer"], "/turns/1");
    assert!(reply.error().contains("illegal turn 2"), "{}", reply.text);
    let reply = ask(&mut c, json!({"game": game, "turns": ["undo"]}));
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(reply.error().contains("nothing to undo"), "{}", reply.text);
    // Too many turns, an unknown field.
    let many = vec![json!("undo"); 5001];
    let reply = ask(&mut c, json!({"game": game, "turns": many}));
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(reply.error().contains("too many turns"), "{}", reply.text);
    let reply = ask(&mut c, json!({"game": game, "turns": [], "board": "AB"}));
    assert_eq!(reply.status, 422, "{}", reply.text);
    assert!(reply.error().contains("board"), "{}", reply.text);
    // Refused requests are no help: whatever else the judge finds (these
    // turns come at a program's pace), the game was not assisted.
    submit(&mut c, &issued, &line);
    let replay = c
        .get(&format!("/api/replays/{}", game.as_str().unwrap()))
        .json();
    let reason = replay["reason"].as_str().unwrap_or_default();
    assert!(!reason.starts_with("assisted"), "{replay}");
}
