//! Formats through the web API: a marathon dealt from one seed, played on
//! one clock, judged puzzle by puzzle and ranked apart from single solves.

use crate::common;

use std::time::{Duration, Instant};

use common::cli::stdout as cli;
use common::server::{Client, Server};
use serde_json::{json, Value};
use slide::{Position, SolveOptions};

/// A new game of `format` on 3×3 from `seed`.
pub(crate) fn deal(client: &mut Client, format: &str, seed: u64) -> Value {
    client.ok(
        "/api/slide/new",
        json!({"size": "3x3", "seed": seed, "format": format}),
    )
}

/// A shortest solution of every puzzle of a dealt game.
pub(crate) fn solutions(game: &Value) -> Vec<slide::Moves> {
    game["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let start = Position::parse(p["position"].as_str().unwrap(), None).unwrap();
            let goal = Position::parse(p["goal_position"].as_str().unwrap(), None).unwrap();
            slide::solve_optimal(&start, &goal, &SolveOptions::default())
                .unwrap()
                .moves
        })
        .collect()
}

/// Times on one clock for each puzzle: `look` ms to take in a puzzle,
/// then a move every `gap` ms.
pub(crate) fn one_clock(solutions: &[slide::Moves], look: i64, gap: i64) -> Vec<Vec<i64>> {
    let mut end = 0;
    solutions
        .iter()
        .map(|moves| {
            let times: Vec<i64> = (0..moves.len() as i64)
                .map(|i| end + look + i * gap)
                .collect();
            end = *times.last().unwrap_or(&end);
            times
        })
        .collect()
}

/// The submission of `game` with these moves and times, every move made
/// by keyboard.
pub(crate) fn submission(game: &Value, solutions: &[slide::Moves], times: &[Vec<i64>]) -> Value {
    let puzzles: Vec<Value> = solutions
        .iter()
        .zip(times)
        .map(|(moves, times)| {
            json!({"moves": moves.to_string(), "times": times, "inputs": "k".repeat(moves.len())})
        })
        .collect();
    json!({"game": game["game"], "puzzles": puzzles})
}

/// Sleeps until `at` ms could have passed since `dealt`.
pub(crate) fn wait_until(dealt: Instant, at: i64) {
    let at = Duration::from_millis(at as u64 + 50);
    if let Some(left) = at.checked_sub(dealt.elapsed()) {
        std::thread::sleep(left);
    }
}

#[test]
fn the_same_seed_gives_the_same_marathon_from_the_cli_and_the_web_api() {
    let server = Server::start();
    let mut client = server.client();
    let game = deal(&mut client, "marathon-10", 77);
    assert_eq!(game["format"], "marathon-10");
    let printed: Value = serde_json::from_str(&cli(&[
        "slide",
        "new",
        "--size",
        "3x3",
        "--format",
        "marathon-10",
        "--json",
        "--seed",
        "77",
    ]))
    .unwrap();
    let web = game["puzzles"].as_array().unwrap();
    let line = printed["puzzles"].as_array().unwrap();
    assert_eq!(web.len(), 10);
    for (web, line) in web.iter().zip(line) {
        for field in ["position", "goal", "size"] {
            assert_eq!(web[field], line[field], "{field}");
        }
    }
    // The first puzzle is the game's position, as for a single game.
    assert_eq!(game["position"], web[0]["position"]);
    // A single game is one puzzle, today's fields unchanged.
    let single = client.ok("/api/slide/new", json!({"size": "3x3", "seed": 77}));
    assert_eq!(single["format"], "single");
    let puzzles = single["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 1);
    assert_eq!(puzzles[0]["position"], single["position"]);
    assert_eq!(
        single["position"].as_str().unwrap(),
        cli(&["slide", "new", "--size", "3x3", "--seed", "77"]).trim()
    );
    // A relay grows from 3x3 with the goal, and counts under its last size.
    let relay = client.ok(
        "/api/slide/new",
        json!({"size": "3x3", "seed": 77, "format": "relay-4", "goal": "snake"}),
    );
    let sizes: Vec<&Value> = relay["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["size"])
        .collect();
    assert_eq!(sizes, [&json!("3x3"), &json!("4x4")]);
    assert_eq!(relay["variant"], "4x4-snake");
    assert_eq!(relay["puzzles"][1]["goal"], "snake");
    // A bad format is refused at the edge.
    let reply = client.post(
        "/api/slide/new",
        json!({"size": "3x3", "format": "marathon-1001"}),
    );
    assert!(reply.error().contains("2 to 1000"), "{}", reply.text);
}

#[test]
fn a_marathon_at_a_persons_pace_is_ranked_under_its_format_and_control() {
    let server = Server::start();
    let mut client = server.client();
    client.sign_up("runner");
    let dealt = Instant::now();
    let game = deal(&mut client, "marathon-10", 5);
    let moves = solutions(&game);
    let times = one_clock(&moves, 300, 60);
    wait_until(dealt, *times[9].last().unwrap());
    let done = client.ok("/api/slide/submit", submission(&game, &moves, &times));
    assert_eq!(done["ranked"], true, "{done}");
    let stm: usize = moves.iter().map(slide::Moves::len).sum();
    assert_eq!(done["stm"], stm);

    let id = game["game"].as_str().unwrap();
    let listed = |client: &mut Client, query: &str| {
        listed(client, &format!("variant=3x3-row-major{query}"), id)
    };
    assert!(listed(&mut client, "&format=marathon-10"));
    assert!(listed(&mut client, "&format=marathon-10&control=keyboard"));
    assert!(!listed(&mut client, "&format=marathon-10&control=mouse"));
    assert!(
        !listed(&mut client, ""),
        "a marathon is no single solve record"
    );
    // The replay keeps every puzzle's moves, in order.
    let replay = client.get(&format!("/api/replays/{id}")).json();
    assert_eq!(replay["moves"].as_str().unwrap().split(',').count(), 10);
    assert_eq!(replay["format"], "marathon-10");
    let puzzles = replay["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 10);
    // The format's clock starts at its first move.
    let mut shown = times[0][0];
    for (i, puzzle) in puzzles.iter().enumerate() {
        let dealt = &game["puzzles"][i];
        assert_eq!(puzzle["position"], dealt["position"], "puzzle {i}");
        assert_eq!(puzzle["goal"], dealt["goal_position"], "puzzle {i}");
        assert_eq!(puzzle["size"], "3x3");
        assert_eq!(puzzle["moves"], moves[i].to_string(), "puzzle {i}");
        assert_eq!(puzzle["times"], json!(times[i]), "puzzle {i}");
        // Each split is the puzzle's last move; it appeared at the last split.
        let split = *times[i].last().unwrap();
        assert_eq!(puzzle["split"], split, "puzzle {i}");
        assert_eq!(puzzle["shown"], shown, "puzzle {i}");
        assert_eq!(puzzle["millis"], split - shown, "puzzle {i}");
        assert_eq!(puzzle["stm"], moves[i].len());
        shown = split;
    }
    // Each puzzle is analysed on its own: these solutions are optimal, so
    // every move went towards the goal and none was lost.
    for i in [0, 9] {
        let url = format!("/api/replays/{id}/analysis?puzzle={i}");
        let a = client.get(&url);
        assert_eq!(a.status, 200, "{}", a.text);
        let a = a.json();
        let n = moves[i].len() as u64;
        let expected: Vec<u64> = (0..=n).rev().collect();
        assert_eq!(a["distances"], json!(expected), "puzzle {i}: {a}");
        assert_eq!(
            (a["puzzle"].clone(), a["lost"].clone()),
            (json!(i), json!(0))
        );
        assert_eq!(client.get(&url).json(), a, "kept");
    }
    let wrong = client.get(&format!("/api/replays/{id}/analysis?puzzle=10"));
    assert_eq!(wrong.status, 400);
    assert!(wrong.error().contains("puzzle is 0 to 9"), "{}", wrong.text);
}

#[test]
fn a_relay_replays_its_sizes_one_after_another() {
    let server = Server::start();
    let mut client = server.client();
    let dealt = Instant::now();
    let game = client.ok(
        "/api/slide/new",
        json!({"size": "3x3", "seed": 12, "format": "relay-4"}),
    );
    let moves: Vec<slide::Moves> = game["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let start = p["position"].as_str().unwrap();
            let goal = p["goal_position"].as_str().unwrap();
            cli(&["slide", "solve", "--fast", start, "--goal", goal])
                .trim()
                .parse()
                .unwrap()
        })
        .collect();
    let times = one_clock(&moves, 300, 60);
    wait_until(dealt, *times[1].last().unwrap());
    let done = client.ok("/api/slide/submit", submission(&game, &moves, &times));
    assert_eq!(done["solved"], true, "{done}");
    let id = game["game"].as_str().unwrap();
    let replay = client.get(&format!("/api/replays/{id}")).json();
    let sizes: Vec<&Value> = replay["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["size"])
        .collect();
    assert_eq!(sizes, [&json!("3x3"), &json!("4x4")]);
    assert_eq!(
        replay["puzzles"][1]["position"],
        game["puzzles"][1]["position"]
    );
    assert_eq!(replay["puzzles"][1]["shown"], *times[0].last().unwrap());
    assert_eq!(replay["puzzles"][1]["split"], *times[1].last().unwrap());
    // The relay's sizes are analysed one by one, each from its own start
    // and in both metrics; the fast solver's 4x4 moves end on the goal.
    for (i, metric) in [(0, "stm"), (1, "stm"), (1, "mtm")] {
        let a = client.get(&format!(
            "/api/replays/{id}/analysis?puzzle={i}&metric={metric}"
        ));
        assert_eq!(a.status, 200, "{}", a.text);
        let a = a.json();
        let steps = a["steps"].as_array().unwrap().len();
        let distances = a["distances"].as_array().unwrap();
        assert_eq!(distances.len(), steps + 1);
        assert_eq!(distances.last().unwrap(), &json!(0), "{a}");
        if metric == "stm" {
            assert_eq!(steps, moves[i].len());
        } else {
            assert_eq!(steps, moves[i].mtm_len());
        }
    }
    // A single solve is one puzzle, from its stored position.
    let single = deal(&mut client, "single", 3);
    let solution = &solutions(&single)[0];
    let times = one_clock(std::slice::from_ref(solution), 300, 60);
    let dealt = Instant::now();
    wait_until(dealt, *times[0].last().unwrap());
    client.ok(
        "/api/slide/submit",
        json!({"game": single["game"], "moves": solution.to_string(), "times": times[0]}),
    );
    let replay = client
        .get(&format!(
            "/api/replays/{}",
            single["game"].as_str().unwrap()
        ))
        .json();
    assert_eq!(replay["format"], "single");
    assert_eq!(replay["puzzles"][0]["position"], single["position"]);
    assert_eq!(replay["puzzles"][0]["split"], *times[0].last().unwrap());
}

#[test]
fn one_puzzle_solved_too_fast_unranks_the_marathon_naming_it() {
    let server = Server::start();
    let mut client = server.client();
    client.sign_up("script");
    let dealt = Instant::now();
    let game = deal(&mut client, "marathon-10", 6);
    let moves = solutions(&game);
    let mut times = one_clock(&moves, 300, 100);
    // Puzzle 2 answered 20 ms after it appeared, a move every 5 ms.
    let shown = *times[0].last().unwrap();
    times[1] = (0..moves[1].len() as i64)
        .map(|i| shown + 20 + 5 * i)
        .collect();
    wait_until(dealt, *times[1].last().unwrap());
    let done = client.ok("/api/slide/submit", submission(&game, &moves, &times));
    assert_eq!(done["ranked"], false, "{done}");
    let reason = done["reason"].as_str().unwrap();
    assert!(reason.starts_with("puzzle 2: too fast"), "{reason}");
}

#[test]
fn a_hint_on_one_puzzle_unranks_the_marathon_naming_it() {
    let server = Server::start();
    let mut client = server.client();
    client.sign_up("helped");
    let dealt = Instant::now();
    let game = deal(&mut client, "marathon-10", 8);
    let third = &game["puzzles"][2];
    client.ok(
        "/api/slide/hint",
        json!({"game": game["game"], "position": third["position"], "goal": "row-major"}),
    );
    let moves = solutions(&game);
    let times = one_clock(&moves, 300, 100);
    wait_until(dealt, *times[1].last().unwrap());
    let done = client.ok("/api/slide/submit", submission(&game, &moves, &times));
    assert_eq!(done["ranked"], false, "{done}");
    let reason = done["reason"].as_str().unwrap();
    assert!(reason.starts_with("puzzle 3: assisted"), "{reason}");
}

#[test]
fn a_submission_missing_a_puzzle_or_out_of_order_is_refused() {
    let server = Server::start();
    let mut client = server.client();
    let game = deal(&mut client, "marathon-10", 9);
    let moves = solutions(&game);
    let times = one_clock(&moves, 300, 100);

    let mut short = submission(&game, &moves, &times);
    short["puzzles"].as_array_mut().unwrap().pop();
    let reply = client.post("/api/slide/submit", short);
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(
        reply
            .error()
            .contains("marathon-10 deals 10 puzzles but 9 were sent"),
        "{}",
        reply.text
    );

    // Puzzles 4 and 5 swapped, their times kept in order on the clock.
    let mut swapped = moves.clone();
    swapped.swap(3, 4);
    let reply = client.post(
        "/api/slide/submit",
        submission(&game, &swapped, &one_clock(&swapped, 300, 100)),
    );
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(
        reply
            .error()
            .contains("the moves sent as puzzle 4 solve puzzle 5"),
        "{}",
        reply.text
    );

    // A marathon is not one move list.
    let reply = client.post(
        "/api/slide/submit",
        json!({"game": game["game"], "moves": moves[0].to_string(), "times": times[0]}),
    );
    assert!(reply.error().contains("marathon-10"), "{}", reply.text);

    // None of these finished the game: it can still be submitted.
    let done = client.ok("/api/slide/submit", submission(&game, &moves, &times));
    assert_eq!(done["solved"], true, "{done}");
}

/// Solves `count` single 3×3 games at `gap` ms a move; gives the time the
/// server gave each, newest first.
fn solve_singles(client: &mut Client, seed: u64, count: u64, gap: i64) -> Vec<i64> {
    let mut millis: Vec<i64> = (seed..seed + count)
        .map(|seed| {
            let dealt = Instant::now();
            let game = deal(client, "single", seed);
            let moves = solutions(&game);
            let times = one_clock(&moves, 300, gap);
            wait_until(dealt, *times[0].last().unwrap());
            let done = client.ok("/api/slide/submit", submission(&game, &moves, &times));
            assert_eq!(done["ranked"], true, "{done}");
            done["millis"].as_i64().unwrap()
        })
        .collect();
    millis.reverse();
    millis
}

/// The mean of five times without the best and the worst, by hand.
fn middle_three(five: &[i64]) -> f64 {
    let mut sorted = five.to_vec();
    sorted.sort_unstable();
    sorted[1..4].iter().sum::<i64>() as f64 / 3.0
}

#[test]
fn records_rank_each_players_best_average_of_five() {
    let server = Server::start();
    let mut quick = server.client();
    let (quick_handle, _) = quick.sign_up("quick");
    let mut steady = server.client();
    let (steady_handle, _) = steady.sign_up("steady");
    let fast = solve_singles(&mut quick, 100, 6, 60);
    let slow = solve_singles(&mut steady, 200, 5, 150);
    // Six results hold two windows of five: the better one counts.
    let best_quick = middle_three(&fast[..5]).min(middle_three(&fast[1..]));

    let tables = quick
        .get("/api/records?game=slide&variant=3x3-row-major&by=ao5")
        .json();
    let averages = tables["by_average"].as_array().unwrap();
    let handles: Vec<&Value> = averages.iter().map(|a| &a["handle"]).collect();
    assert_eq!(handles, [&json!(quick_handle), &json!(steady_handle)]);
    assert!((averages[0]["millis"].as_f64().unwrap() - best_quick).abs() < 1e-6);
    assert!((averages[1]["millis"].as_f64().unwrap() - middle_three(&slow)).abs() < 1e-6);
    assert_eq!(averages[0]["of"], 5);
    assert_eq!(averages[0]["mine"], true);
    assert_eq!(averages[1]["game_ids"].as_array().unwrap().len(), 5);
    // Nobody has twelve results; without `by` there is no averages table.
    let tables = quick
        .get("/api/records?game=slide&variant=3x3-row-major&by=ao12")
        .json();
    assert_eq!(tables["by_average"], json!([]));
    let tables = quick
        .get("/api/records?game=slide&variant=3x3-row-major")
        .json();
    assert!(tables.get("by_average").is_none());
    let reply = quick.get("/api/records?game=slide&variant=3x3-row-major&by=ao7");
    assert_eq!(reply.status, 400, "{}", reply.text);
}

/// Plays `attempts` single 3×3 games from `seed` on: `true` solves one
/// at `gap` ms a move, `false` leaves it for the next. The times of the
/// solved ones, newest first.
fn attempt(client: &mut Client, seed: u64, attempts: &[bool], gap: i64) -> Vec<i64> {
    let mut millis = Vec::new();
    for (seed, &solve) in (seed..).zip(attempts) {
        let dealt = Instant::now();
        let game = deal(client, "single", seed);
        if !solve {
            continue;
        }
        let moves = solutions(&game);
        let times = one_clock(&moves, 300, gap);
        wait_until(dealt, *times[0].last().unwrap());
        let done = client.ok("/api/slide/submit", submission(&game, &moves, &times));
        assert_eq!(done["ranked"], true, "{done}");
        millis.insert(0, done["millis"].as_i64().unwrap());
    }
    millis
}

#[test]
fn a_game_left_for_the_next_is_a_dnf_in_the_average_of_five() {
    let server = Server::start();
    let mut player = server.client();
    let (handle, _) = player.sign_up("leaver");
    // Solved, solved, left, solved, solved: the DNF is the worst of the
    // five and dropped with the best; the mean of the other three counts.
    let solved = attempt(&mut player, 300, &[true, true, false, true, true], 60);
    let mut sorted = solved.clone();
    sorted.sort_unstable();
    let expected = (sorted[1] + sorted[2] + sorted[3]) as f64 / 3.0;
    // Two left in five: the average is DNF, so there is none to rank.
    let mut careless = server.client();
    careless.sign_up("careless");
    attempt(&mut careless, 400, &[true, false, true, false, true], 60);

    let tables = player
        .get("/api/records?game=slide&variant=3x3-row-major&by=ao5")
        .json();
    let averages = tables["by_average"].as_array().unwrap();
    assert_eq!(averages.len(), 1, "{averages:?}");
    assert_eq!(averages[0]["handle"], json!(handle));
    let got = averages[0]["millis"].as_f64().unwrap();
    assert!((got - expected).abs() < 1e-6, "{got} != {expected}");
    // Five games, four results: the DNF is among the five averaged.
    assert_eq!(averages[0]["game_ids"].as_array().unwrap().len(), 5);
}

/// Deals `count` single 3×3 games from `seed` on, to be solved later.
fn deal_many(client: &mut Client, seed: u64, count: u64) -> Vec<(Instant, Value)> {
    (seed..seed + count)
        .map(|seed| (Instant::now(), deal(client, "single", seed)))
        .collect()
}

/// Solves dealt games in order at `gap` ms a move, once each could have
/// been played; gives the time the server gave each.
fn solve_dealt(client: &mut Client, dealt: &[(Instant, Value)], gap: i64) -> Vec<i64> {
    dealt
        .iter()
        .map(|(at, game)| {
            let moves = solutions(game);
            let times = one_clock(&moves, 300, gap);
            wait_until(*at, *times[0].last().unwrap());
            let done = client.ok("/api/slide/submit", submission(game, &moves, &times));
            assert_eq!(done["ranked"], true, "{done}");
            done["millis"].as_i64().unwrap()
        })
        .collect()
}

/// The mean of `times` without its `drop` best and `drop` worst, by hand.
fn trimmed_mean(times: &[i64], drop: usize) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let kept = &sorted[drop..sorted.len() - drop];
    kept.iter().sum::<i64>() as f64 / kept.len() as f64
}

#[test]
fn records_rank_the_best_average_of_fifty_without_the_best_and_worst_five_percent() {
    let server = Server::start();
    let mut player = server.client();
    let (handle, _) = player.sign_up("fifty");
    // Four games solved at a slower pace are four slow results: an
    // average of 50 drops three of them (5 % of 50, rounded up), so the
    // fourth counts; a plain mean or a mean without one each side would
    // differ.
    let dealt = deal_many(&mut player, 1000, 50);
    let mut millis = solve_dealt(&mut player, &dealt[..4], 300);
    millis.extend(solve_dealt(&mut player, &dealt[4..], 60));
    let mut sorted = millis.clone();
    sorted.sort_unstable();
    assert!(
        sorted[46] > sorted[45] + 1000,
        "four slow results: {sorted:?}"
    );
    // Another account with 49 results has no average of 50.
    let mut short = server.client();
    short.sign_up("short");
    let dealt = deal_many(&mut short, 2000, 49);
    solve_dealt(&mut short, &dealt, 60);

    let tables = player
        .get("/api/records?game=slide&variant=3x3-row-major&by=ao50")
        .json();
    let averages = tables["by_average"].as_array().unwrap();
    assert_eq!(averages.len(), 1, "{averages:?}");
    assert_eq!(averages[0]["handle"], json!(handle));
    assert_eq!(averages[0]["of"], 50);
    assert_eq!(averages[0]["game_ids"].as_array().unwrap().len(), 50);
    let expected = trimmed_mean(&millis, 3);
    let got = averages[0]["millis"].as_f64().unwrap();
    assert!((got - expected).abs() < 1e-6, "{got} != {expected}");
    assert!((got - trimmed_mean(&millis, 1)).abs() > 1.0);
    assert!((got - trimmed_mean(&millis, 5)).abs() > 1.0);
    // Nobody has a hundred results yet.
    let tables = player
        .get("/api/records?game=slide&variant=3x3-row-major&by=ao100")
        .json();
    assert_eq!(tables["by_average"], json!([]));
}

#[test]
fn a_marathon_of_a_hundred_10x10_puzzles_submits_and_a_larger_body_is_413() {
    use play::limits::{REQUEST_BYTES, SUBMIT_BYTES};
    let server = Server::start();
    let mut client = server.client();
    let game = client.ok(
        "/api/slide/new",
        json!({"size": "10x10", "seed": 5, "format": "marathon-100"}),
    );
    let moves: Vec<slide::Moves> = game["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let start = Position::parse(p["position"].as_str().unwrap(), None).unwrap();
            let goal = Position::parse(p["goal_position"].as_str().unwrap(), None).unwrap();
            slide::solve_fast(&start, &goal).unwrap()
        })
        .collect();
    assert_eq!(moves.len(), 100);
    let total: usize = moves.iter().map(slide::Moves::len).sum();
    // A person's pace: the times run to about an hour on one clock.
    let times = one_clock(&moves, 2000, 40);
    let body = submission(&game, &moves, &times).to_string();
    assert!(body.len() > REQUEST_BYTES, "{} bytes", body.len());
    assert!(body.len() < SUBMIT_BYTES, "{} bytes", body.len());
    let reply = client.post_raw("/api/slide/submit", "application/json", &body);
    assert_eq!(reply.status, 200, "{}", reply.text);
    let done = reply.json();
    assert_eq!(done["solved"], true, "{done}");
    assert_eq!(done["stm"], total);
    // Played in no time by the server's clock: not ranked, but taken.
    assert_eq!(done["ranked"], false);
    assert!(done["reason"].as_str().unwrap().contains("times"), "{done}");

    // More moves over the puzzles than any marathon needs: refused, the
    // pointer at the puzzle that goes over, before any is replayed.
    let each = play::limits::SUBMITTED_MOVES;
    let count = play::limits::FORMAT_MOVES / each + 1;
    let long = json!({"moves": format!("U{}D{}", each / 2, each / 2), "times": []});
    let reply = client.post(
        "/api/slide/submit",
        json!({"game": game["game"], "puzzles": vec![long; count]}),
    );
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(reply.error().contains("too many moves"), "{}", reply.text);
    assert_eq!(
        reply.json()["pointer"],
        format!("/puzzles/{}/moves", count - 1)
    );

    // One byte beyond the bound is refused before it is read, as JSON.
    let prefix = format!("{{\"game\":{},\"pad\":\"", game["game"]);
    let pad = "x".repeat(SUBMIT_BYTES + 1 - prefix.len() - 2);
    let huge = format!("{prefix}{pad}\"}}");
    assert_eq!(huge.len(), SUBMIT_BYTES + 1);
    let reply = client.post_raw("/api/slide/submit", "application/json", &huge);
    assert_eq!(reply.status, 413, "{}", reply.text);
    assert!(!reply.error().is_empty());
    // Every other route keeps the usual limit.
    let over = format!(
        "{{\"size\":\"4x4\",\"goal\":\"{}\"}}",
        "x".repeat(REQUEST_BYTES)
    );
    let reply = client.post_raw("/api/slide/new", "application/json", &over);
    assert_eq!(reply.status, 413, "{}", reply.text);
    assert!(!reply.error().is_empty());
}

#[test]
fn a_hover_solve_is_judged_and_ranked_under_hover() {
    let server = Server::start();
    let mut client = server.client();
    client.sign_up("hoverer");
    // A 3x3 at 45 moves a second after a 300 ms look: a hover player's
    // pace, beyond any keyboard player's.
    let play = |client: &mut Client, seed: u64, input: &str| -> (Value, Value) {
        let dealt = Instant::now();
        let game = deal(client, "single", seed);
        let moves = &solutions(&game)[0];
        assert!(moves.len() >= 12, "a long enough solve: {moves}");
        let times: Vec<i64> = (0..moves.len() as i64).map(|i| 300 + i * 22).collect();
        wait_until(dealt, *times.last().unwrap());
        let body = json!({"game": game["game"], "moves": moves.to_string(), "times": times,
            "inputs": input.repeat(moves.len())});
        (game, body)
    };
    let (game, body) = play(&mut client, 8, "h");
    let done = client.ok("/api/slide/submit", body);
    assert_eq!(done["ranked"], true, "{done}");
    let (_, body) = play(&mut client, 9, "k");
    let done = client.ok("/api/slide/submit", body);
    assert_eq!(done["ranked"], false, "{done}");
    assert!(
        done["reason"].as_str().unwrap().starts_with("too fast"),
        "{done}"
    );

    let id = game["game"].as_str().unwrap();
    let mut listed = |control: &str| -> bool {
        let reply = client.get(&format!(
            "/api/records?game=slide&variant=3x3-row-major&control={control}"
        ));
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.json()["by_time"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["game_id"] == id)
    };
    assert!(listed("hover"));
    assert!(!listed("keyboard"));
    assert!(!listed("click"), "click is the mouse's name on the page");

    // A letter that names no input is refused, naming the field and what
    // it takes; nothing is recorded.
    let (game, mut body) = play(&mut client, 10, "h");
    body["inputs"] = json!(format!("x{}", &body["inputs"].as_str().unwrap()[1..]));
    let reply = client.post("/api/slide/submit", body.clone());
    let error = reply.error();
    assert!(
        error.contains("inputs") && error.contains("h (hover)"),
        "{error}"
    );
    assert_eq!(reply.json()["pointer"], "/inputs", "{}", reply.text);
    // The game is still open: the same moves with good inputs are taken.
    body["inputs"] = json!("h".repeat(body["times"].as_array().unwrap().len()));
    let done = client.ok("/api/slide/submit", body);
    assert_eq!(done["game"], game["game"], "{done}");
}

#[test]
fn a_result_is_ranked_and_averaged_under_its_display_only() {
    let server = Server::start();
    let mut client = server.client();
    let (handle, _) = client.sign_up("displayer");
    let body = |client: &mut Client, format: &str, seed: u64, display: &str| -> (Value, Value) {
        let dealt = Instant::now();
        let game = deal(client, format, seed);
        let moves = &solutions(&game)[0];
        let times: Vec<i64> = (0..moves.len() as i64).map(|i| 300 + i * 60).collect();
        wait_until(dealt, *times.last().unwrap());
        let body = json!({"game": game["game"], "moves": moves.to_string(), "times": times,
            "display": display});
        (game, body)
    };
    let mut ids = Vec::new();
    for seed in 20..25 {
        let (game, body) = body(&mut client, "single", seed, "manhattan");
        let done = client.ok("/api/slide/submit", body);
        assert_eq!(done["ranked"], true, "{done}");
        ids.push(game["game"].clone());
    }
    let mut tables = |query: &str| -> Value {
        let reply = client.get(&format!(
            "/api/records?game=slide&variant=3x3-row-major&by=ao5{query}"
        ));
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.json()
    };
    let ids_in = |tables: &Value| -> Vec<Value> {
        let rows = tables["by_time"].as_array().unwrap();
        rows.iter().map(|r| r["game_id"].clone()).collect()
    };
    let manhattan = tables("&display=manhattan");
    assert_eq!(manhattan["display"], "manhattan");
    assert!(
        ids.iter().all(|id| ids_in(&manhattan).contains(id)),
        "{manhattan}"
    );
    let averages = manhattan["by_average"].as_array().unwrap();
    assert_eq!(averages.len(), 1, "{manhattan}");
    assert_eq!(averages[0]["handle"], handle.as_str());
    let standard = tables("");
    assert_eq!(standard["display"], "standard");
    assert!(ids_in(&standard).is_empty(), "{standard}");
    assert_eq!(standard["by_average"], json!([]));
    assert!(ids_in(&tables("&display=vectors")).is_empty());

    // A display that is none is refused, naming the field and what it
    // takes, and nothing is recorded: the game is still open.
    let (game, mut sent) = body(&mut client, "single", 30, "Manhattan");
    let reply = client.post("/api/slide/submit", sent.clone());
    assert!((400..500).contains(&reply.status), "{}", reply.text);
    assert_eq!(reply.json()["pointer"], "/display", "{}", reply.text);
    assert!(
        reply.error().contains("\"Manhattan\"") && reply.error().contains("rows-and-columns"),
        "{}",
        reply.text
    );
    sent["display"] = json!("standard");
    assert_eq!(client.ok("/api/slide/submit", sent)["game"], game["game"]);

    // A blindfold solve is played with the standard display only.
    let (_, sent) = body(&mut client, "bld", 31, "rgb");
    let reply = client.post("/api/slide/submit", sent);
    assert!((400..500).contains(&reply.status), "{}", reply.text);
    assert_eq!(reply.json()["pointer"], "/display", "{}", reply.text);
    assert!(reply.error().contains("standard display"), "{}", reply.text);
}

/// Whether game `id` is among the sliding-puzzle records that `query`
/// (after `game=slide&`) lists by time.
pub(crate) fn listed(client: &mut Client, query: &str, id: &str) -> bool {
    let reply = client.get(&format!("/api/records?game=slide&{query}"));
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json()["by_time"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["game_id"] == id)
}
