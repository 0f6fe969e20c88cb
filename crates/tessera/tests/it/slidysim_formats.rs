//! slidysim's solve types (2-N, height, width and everything-up-to relays,
//! marathons of 2 to 1,000, blindfold): dealt alike by the command line
//! and the web API, in the sizes slidysim's manual lists, played at a
//! person's pace, replayed and ranked puzzle by puzzle, and refused with
//! the field at fault when they cannot be dealt.

use crate::common;
use crate::formats::{deal, listed, one_clock, submission, wait_until};

use std::time::Instant;

use common::cli::stdout as cli;
use common::server::{Client, Server};
use serde_json::{json, Value};
use slide::Position;

/// Each solve type, the size it is asked for, and the sizes it deals, as
/// slidysim's manual ("Solve types") lists them: 5x5 → 4x4 → 3x3 → 2x2
/// for a 2-N relay, 5x5 → 5x4 → 5x3 → 5x2 for a height relay, 5x5 → 4x5 →
/// 3x5 → 2x5 for a width relay, 4x4 → 3x4 → 2x4 → 4x3 → 3x3 → 2x3 → 4x2 →
/// 3x2 → 2x2 for an everything-up-to relay.
fn solve_types() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    vec![
        ("2-n-relay", "5x5", vec!["5x5", "4x4", "3x3", "2x2"]),
        ("height-relay", "5x5", vec!["5x5", "5x4", "5x3", "5x2"]),
        ("width-relay", "5x5", vec!["5x5", "4x5", "3x5", "2x5"]),
        (
            "everything-relay",
            "4x4",
            vec![
                "4x4", "3x4", "2x4", "4x3", "3x3", "2x3", "4x2", "3x2", "2x2",
            ],
        ),
        ("height-relay", "4x3", vec!["4x3", "4x2"]),
        ("width-relay", "3x6", vec!["3x6", "2x6"]),
        ("marathon-2", "4x4", vec!["4x4"; 2]),
        ("marathon-1000", "3x3", vec!["3x3"; 1000]),
        ("bld", "4x4", vec!["4x4"]),
    ]
}

#[test]
fn the_cli_and_the_web_deal_every_solve_type_alike_in_slidysims_sizes() {
    let server = Server::start();
    let mut client = server.client();
    for (format, size, sizes) in solve_types() {
        for seed in 1..=30u64 {
            let web = client.ok(
                "/api/slide/new",
                json!({"size": size, "seed": seed, "format": format}),
            );
            let seed_text = seed.to_string();
            let printed: Value = serde_json::from_str(&cli(&[
                "slide", "new", "--size", size, "--format", format, "--json", "--seed", &seed_text,
            ]))
            .unwrap();
            assert_eq!(web["format"], format);
            assert_eq!(printed["format"], format);
            let web = web["puzzles"].as_array().unwrap();
            let line = printed["puzzles"].as_array().unwrap();
            let dealt: Vec<&str> = web.iter().map(|p| p["size"].as_str().unwrap()).collect();
            assert_eq!(dealt, sizes, "{format} from {size}, seed {seed}");
            assert_eq!(web.len(), line.len(), "{format} seed {seed}");
            for (i, (web, line)) in web.iter().zip(line).enumerate() {
                for field in ["position", "goal", "size"] {
                    assert_eq!(web[field], line[field], "{format} seed {seed} puzzle {i}");
                }
            }
        }
    }
}

/// A fast solution of every puzzle of a dealt game.
fn fast_solutions(game: &Value) -> Vec<slide::Moves> {
    game["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let start = Position::parse(p["position"].as_str().unwrap(), None).unwrap();
            let goal = Position::parse(p["goal_position"].as_str().unwrap(), None).unwrap();
            slide::solve_fast(&start, &goal).unwrap()
        })
        .collect()
}

/// Plays `format` from `size` at a person's pace, signed in, and checks
/// that it is ranked under the size it starts at, and replayed and
/// analysed puzzle by puzzle in the sizes `sizes`.
fn played_ranked_and_replayed(format: &str, size: &str, seed: u64, sizes: &[&str]) {
    let server = Server::start();
    let mut client = server.client();
    client.sign_up("relayer");
    let dealt = Instant::now();
    let game = client.ok(
        "/api/slide/new",
        json!({"size": size, "seed": seed, "format": format}),
    );
    let variant = format!("{size}-row-major");
    assert_eq!(game["variant"], variant.as_str());
    let moves = fast_solutions(&game);
    let times = one_clock(&moves, 400, 90);
    wait_until(dealt, *times.last().unwrap().last().unwrap());
    let done = client.ok("/api/slide/submit", submission(&game, &moves, &times));
    assert_eq!(done["solved"], true, "{done}");
    assert_eq!(done["ranked"], true, "{done}");
    let stm: usize = moves.iter().map(slide::Moves::len).sum();
    assert_eq!(done["stm"], stm);

    let id = game["game"].as_str().unwrap();
    let listed = |client: &mut Client, format: &str| {
        listed(client, &format!("variant={variant}&format={format}"), id)
    };
    assert!(listed(&mut client, format), "ranked under {format}");
    assert!(!listed(&mut client, "single"), "no single solve record");

    let replay = client.get(&format!("/api/replays/{id}")).json();
    assert_eq!(replay["format"], format);
    let puzzles = replay["puzzles"].as_array().unwrap();
    let replayed: Vec<&str> = puzzles
        .iter()
        .map(|p| p["size"].as_str().unwrap())
        .collect();
    assert_eq!(replayed, sizes);
    // The format's clock starts at its first move.
    let mut shown = times[0][0];
    for (i, puzzle) in puzzles.iter().enumerate() {
        assert_eq!(puzzle["position"], game["puzzles"][i]["position"], "{i}");
        assert_eq!(puzzle["moves"], moves[i].to_string(), "puzzle {i}");
        assert_eq!(puzzle["times"], json!(times[i]), "puzzle {i}");
        let split = *times[i].last().unwrap();
        assert_eq!(puzzle["split"], split, "puzzle {i}");
        assert_eq!(puzzle["shown"], shown, "puzzle {i}");
        shown = split;
        // Each puzzle is analysed from its own start to its own goal.
        let a = client.get(&format!("/api/replays/{id}/analysis?puzzle={i}"));
        assert_eq!(a.status, 200, "{}", a.text);
        let a = a.json();
        assert_eq!(a["puzzle"], i);
        assert_eq!(a["steps"].as_array().unwrap().len(), moves[i].len());
        assert_eq!(a["distances"].as_array().unwrap().last(), Some(&json!(0)));
    }
    let count = sizes.len();
    let past = client.get(&format!("/api/replays/{id}/analysis?puzzle={count}"));
    assert_eq!(past.status, 400, "{}", past.text);
}

#[test]
fn a_height_relay_at_a_persons_pace_is_ranked_and_replayed_puzzle_by_puzzle() {
    played_ranked_and_replayed("height-relay", "3x4", 21, &["3x4", "3x3", "3x2"]);
}

#[test]
fn an_everything_up_to_relay_at_a_persons_pace_is_ranked_and_replayed_puzzle_by_puzzle() {
    played_ranked_and_replayed("everything-relay", "3x3", 22, &["3x3", "2x3", "3x2", "2x2"]);
}

#[test]
fn a_solve_type_that_cannot_be_dealt_is_refused_naming_the_field() {
    let server = Server::start();
    let mut client = server.client();
    client.sign_up("refused");
    // A format that does not parse breaks the request's schema (422, as
    // every such value); one that parses but cannot be dealt at the size
    // asked is a bad request (400).
    for (size, format, status, says) in [
        ("2x5", "width-relay", 400, "width of 3 or more"),
        ("5x2", "height-relay", 400, "height of 3 or more"),
        ("5x4", "2-n-relay", 400, "square NxN"),
        ("2x2", "everything-relay", 400, "3x2, 2x3 or larger"),
        ("12x12", "height-relay", 400, "boards up to 10x10"),
        (
            "10x10",
            "marathon-1000",
            400,
            "fewer puzzles or a smaller board",
        ),
        ("3x3", "marathon-1001", 422, "2 to 1000"),
        ("3x3", "marathon-1", 422, "2 to 1000"),
    ] {
        let reply = client.post(
            "/api/slide/new",
            json!({"size": size, "seed": 1, "format": format}),
        );
        assert_eq!(reply.status, status, "{format} {size}: {}", reply.text);
        assert!(
            reply.error().contains(says),
            "{format} {size}: {}",
            reply.text
        );
        assert_eq!(reply.json()["pointer"], "/format", "{}", reply.text);
        assert!(reply.json().get("game").is_none());
        // Nothing was dealt, so nothing is recorded.
        let records = client.get(&format!(
            "/api/records?game=slide&variant={size}-row-major&format=single"
        ));
        assert_eq!(records.json()["by_time"], json!([]), "{}", records.text);
        // The command line refuses the same, with exit status 2.
        let output = assert_cmd::Command::cargo_bin("tessera")
            .unwrap()
            .args([
                "slide", "new", "--size", size, "--format", format, "--seed", "1",
            ])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{format} {size}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{format} {size}: {stderr}");
    }
}

#[test]
fn a_format_is_held_to_the_moves_its_sizes_allow() {
    let server = Server::start();
    let mut client = server.client();
    // Two 3x3 puzzles may take 2 × (4·9·3 + 64) = 344 moves together
    // (play::limits::format_moves): 400 on the first is refused before any
    // is replayed, the pointer at the puzzles.
    let game = deal(&mut client, "marathon-2", 3);
    let most = play::limits::format_moves(&[slide::Size::square(3).unwrap(); 2]);
    assert_eq!(most, 344);
    let reply = client.post(
        "/api/slide/submit",
        json!({"game": game["game"], "puzzles": [
            {"moves": "UD".repeat(200), "times": []},
            {"moves": "", "times": []},
        ]}),
    );
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(
        reply.error().contains("at most 344 single-tile moves"),
        "{}",
        reply.text
    );
    assert_eq!(reply.json()["pointer"], "/puzzles");
}

/// Plays `attempts` blindfold 3×3 games from `seed` on: `true` solves
/// one at a person's pace, `false` leaves it for the next (a DNF). The
/// ids of the games, oldest first.
fn blindfold(client: &mut Client, seed: u64, attempts: &[bool]) -> Vec<String> {
    let mut ids = Vec::new();
    for (seed, &solve) in (seed..).zip(attempts) {
        let dealt = Instant::now();
        let game = deal(client, "bld", seed);
        ids.push(game["game"].as_str().unwrap().to_string());
        if !solve {
            continue;
        }
        let moves = fast_solutions(&game);
        let times = one_clock(&moves, 300, 60);
        wait_until(dealt, *times[0].last().unwrap());
        let done = client.ok("/api/slide/submit", submission(&game, &moves, &times));
        assert_eq!(done["ranked"], true, "{done}");
    }
    ids
}

/// The asking player's best averages of five in a format on 3×3.
fn averages_of_five(client: &mut Client, format: &str) -> Vec<Value> {
    let tables = client
        .get(&format!(
            "/api/records?game=slide&variant=3x3-row-major&format={format}&by=ao5"
        ))
        .json();
    tables["by_average"].as_array().unwrap().clone()
}

#[test]
fn a_blindfold_dnf_ends_the_averages_running_through_it() {
    let server = Server::start();
    let mut player = server.client();
    player.sign_up("blind");
    // Solved, left, then four solved: both windows of five hold the DNF.
    // Counted as the worst it would be dropped and each window averaged;
    // in blindfold it resets the session, so there is no average yet.
    let mut ids = blindfold(&mut player, 500, &[true, false, true, true, true, true]);
    assert_eq!(averages_of_five(&mut player, "bld"), Vec::<Value>::new());
    // A fifth solve after the DNF: five in a row finished, one average.
    ids.extend(blindfold(&mut player, 506, &[true]));
    let averages = averages_of_five(&mut player, "bld");
    assert_eq!(averages.len(), 1, "{averages:?}");
    let mut averaged: Vec<String> = averages[0]["game_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap().to_string())
        .collect();
    averaged.sort();
    let mut after_the_dnf = ids[2..].to_vec();
    after_the_dnf.sort();
    assert_eq!(averaged, after_the_dnf);
}
