//! The daily fewest-moves challenge through the web API: the day's
//! scrambles are the command line's for the seed shown; an entry is
//! replayed (illegal or unsolved: 422 naming the move), kept once (409),
//! taken for today only (400) from a signed-in player (401), hidden from
//! the others until the day is over, and then shown ranked beside the
//! proven 4×4 optimum, which this test computes itself.
//!
//! The server's clock is moved (`Server::start_shifted`) to a day the test
//! picks, then a day later: the day closes.

use crate::common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::server::{temp_dir, Client, Reply, Server};
use play::daily::Day;
use play::fmc::{self, FmcSize};
use serde_json::{json, Value};

const DAY_MILLIS: i64 = 86_400_000;

fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A 4×4 position as its tiles, row-major (0 the blank).
fn tiles(text: &str) -> [u8; 16] {
    let numbers: Vec<u8> = text
        .split(['/', ' '])
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    numbers.try_into().unwrap()
}

/// Tile `t`'s taxicab distance from its home at cell `c`.
fn distance(t: u8, c: usize) -> u32 {
    let home = usize::from(t) - 1;
    ((c % 4).abs_diff(home % 4) + (c / 4).abs_diff(home / 4)) as u32
}

fn manhattan(board: &[u8; 16]) -> u32 {
    (0..16)
        .filter(|&c| board[c] != 0)
        .map(|c| distance(board[c], c))
        .sum()
}

/// The test's own shortest 4×4 solution: IDA* over the Manhattan
/// distance (admissible, so the first solution within the smallest bound
/// that has one is shortest). Letters name the way a tile slides: `U`,
/// the tile below the blank moves up.
fn shortest(start: &[u8; 16]) -> String {
    // (letter, the blank's step, whether the blank may take it from c)
    const STEPS: [(char, isize); 4] = [('U', 4), ('D', -4), ('L', 1), ('R', -1)];
    fn legal(blank: usize, step: isize) -> bool {
        match step {
            4 => blank < 12,
            -4 => blank >= 4,
            1 => blank % 4 < 3,
            _ => !blank.is_multiple_of(4),
        }
    }
    fn search(
        board: &mut [u8; 16],
        blank: usize,
        g: u32,
        h: u32,
        bound: u32,
        path: &mut Vec<char>,
        last: isize,
    ) -> Option<u32> {
        if g + h > bound {
            return Some(g + h);
        }
        if h == 0 {
            return None;
        }
        let mut least = u32::MAX;
        for (letter, step) in STEPS {
            if step == -last || !legal(blank, step) {
                continue;
            }
            let from = (blank as isize + step) as usize;
            let tile = board[from];
            let h = h - distance(tile, from) + distance(tile, blank);
            board[blank] = tile;
            board[from] = 0;
            path.push(letter);
            match search(board, from, g + 1, h, bound, path, step) {
                None => return None,
                Some(next) => least = least.min(next),
            }
            path.pop();
            board[from] = tile;
            board[blank] = 0;
        }
        Some(least)
    }
    let mut board = *start;
    let blank = board.iter().position(|&t| t == 0).unwrap();
    let h = manhattan(&board);
    let mut bound = h;
    let mut path = Vec::new();
    while let Some(next) = search(&mut board, blank, 0, h, bound, &mut path, 0) {
        bound = next;
    }
    path.into_iter().collect()
}

/// The day (as days since 1970) among 4,000 from 2000-01-01 whose 4×4
/// scramble is nearest its goal: one the test's plain search solves at
/// once.
fn easy_day() -> i64 {
    (10_957..14_957)
        .min_by_key(|&days| {
            let day = Day::of(days * DAY_MILLIS);
            manhattan(&tiles(&fmc::scramble(day, FmcSize::Four).start.to_string()))
        })
        .unwrap()
}

fn board<'a>(day: &'a Value, size: &str) -> &'a Value {
    day["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["size"] == size)
        .unwrap_or_else(|| panic!("no {size} board in {day}"))
}

fn refused(reply: &Reply, status: u16, words: &[&str]) {
    assert_eq!(reply.status, status, "{}", reply.text);
    let error = reply.error();
    for word in words {
        assert!(error.contains(word), "{word:?} not in {error:?}");
    }
}

fn enter(client: &mut Client, day: &str, size: &str, moves: &str) -> Reply {
    client.post(&format!("/api/fmc/{day}/{size}"), json!({ "moves": moves }))
}

#[test]
fn entries_are_hidden_until_the_day_closes_then_ranked_beside_the_proven_optimum() {
    let days = easy_day();
    let day = Day::of(days * DAY_MILLIS).to_string();
    // The server's clock at noon of that day, then of the day after.
    let shift = days * DAY_MILLIS + DAY_MILLIS / 2 - now_millis();
    let server = Server::start_shifted(temp_dir(), shift);

    let mut guest = server.client();
    let open = guest.get(&format!("/api/fmc/{day}")).json();
    assert_eq!(
        (open["today"].as_str(), open["closed"].as_bool()),
        (Some(day.as_str()), Some(false))
    );
    let four = board(&open, "4x4");
    let position = four["position"].as_str().unwrap().to_string();
    let start = tiles(&position);
    let optimal = shortest(&start);
    let length = optimal.len();

    // The same scramble from the seed shown, on the command line.
    for size in ["4x4", "5x5"] {
        let shown = board(&open, size);
        let seed = shown["seed"].as_u64().unwrap().to_string();
        let printed = common::cli::stdout(&["slide", "new", "--size", size, "--seed", &seed]);
        assert_eq!(printed.trim(), shown["position"], "{size}");
    }
    // Not the timed daily puzzle of the day (dealt from the day's seed).
    let daily_seed = Day::of(days * DAY_MILLIS).seed().to_string();
    let daily = common::cli::stdout(&["slide", "new", "--size", "4x4", "--seed", &daily_seed]);
    assert_ne!(daily.trim(), position);

    // Not signed in.
    refused(
        &enter(&mut guest, &day, "4x4", &optimal),
        401,
        &["signed in"],
    );

    let mut alice = server.client();
    let (alice_handle, _) = alice.sign_up("alice");
    let mut bob = server.client();
    let (bob_handle, _) = bob.sign_up("bob");

    // Another day, a future one, no date, another board: 400 naming it.
    let tomorrow = Day::of((days + 1) * DAY_MILLIS).to_string();
    let yesterday = Day::of((days - 1) * DAY_MILLIS).to_string();
    for other in [&tomorrow, &yesterday] {
        refused(
            &enter(&mut alice, other, "4x4", &optimal),
            400,
            &["day", "today only"],
        );
    }
    refused(
        &enter(&mut alice, "2026-1-01", "4x4", &optimal),
        400,
        &["day", "YYYY-MM-DD"],
    );
    refused(
        &enter(&mut alice, "2026-02-30", "4x4", &optimal),
        400,
        &["day", "no such day"],
    );
    for size in ["3x3", "4X4", "6x6"] {
        refused(
            &enter(&mut alice, &day, size, &optimal),
            400,
            &["size", "4x4 and 5x5"],
        );
    }
    refused(
        &alice.get(&format!("/api/fmc/{tomorrow}")),
        400,
        &["day", "still to come"],
    );

    // An illegal move, named by its number and letter: four slides up,
    // one more than the blank's row leaves room for.
    let blank_row = start.iter().position(|&t| t == 0).unwrap() / 4;
    let illegal = format!("move {} (U) is illegal", 4 - blank_row);
    refused(&enter(&mut alice, &day, "4x4", "U4"), 422, &[&illegal]);
    // Every move legal, but short of the goal.
    let unsolved = &optimal[..length - 1];
    refused(
        &enter(&mut alice, &day, "4x4", unsolved),
        422,
        &["unsolved", &format!("{}", length - 1)],
    );
    refused(&enter(&mut alice, &day, "4x4", "R X"), 422, &["not a move"]);

    // Alice's shortest solution, typed in the compact notation with spaces.
    let typed = play_compact(&optimal);
    let reply = enter(&mut alice, &day, "4x4", &typed);
    assert_eq!(reply.status, 201, "{}", reply.text);
    let kept = reply.json();
    assert_eq!(kept["stm"], length);
    // Once a day and board: the same entry sent again (its answer lost,
    // in whichever notation) is answered as it was kept, another refused.
    let again = enter(&mut alice, &day, "4x4", &optimal);
    assert_eq!(again.status, 201, "{}", again.text);
    assert_eq!(again.json(), kept);
    let detour = first_legal(&start);
    let other = format!("{}{}{}", detour.0, detour.1, optimal);
    refused(&enter(&mut alice, &day, "4x4", &other), 409, &["already"]);
    // Bob's: the same with a detour of two moves (a slide and back).
    let bob_moves = format!("{}{}{}", detour.0, detour.1, optimal);
    let reply = enter(&mut bob, &day, "4x4", &bob_moves);
    assert_eq!(reply.status, 201, "{}", reply.text);
    // Alice's 5x5 entry: the fast solver's.
    let five = board(&open, "5x5");
    let five_start: slide::Position = five["position"].as_str().unwrap().parse().unwrap();
    let five_goal: slide::Position = five["goal"].as_str().unwrap().parse().unwrap();
    let fast = slide::solve_fast(&five_start, &five_goal).unwrap();
    let reply = enter(&mut alice, &day, "5x5", &fast.compact());
    assert_eq!(reply.status, 201, "{}", reply.text);

    // Before the day closes: counts and one's own entry only.
    let seen = bob.get(&format!("/api/fmc/{day}"));
    let seen_json = seen.json();
    let four = board(&seen_json, "4x4");
    assert_eq!(four["entries"], 2);
    assert_eq!(four["mine"]["stm"], length + 2);
    assert_eq!(four["mine"]["handle"], json!(bob_handle));
    assert_eq!(
        (four["results"].clone(), four["optimum"].clone()),
        (Value::Null, Value::Null)
    );
    assert!(!seen.text.contains(&alice_handle), "{}", seen.text);
    let alice_moves = format!("\"{}\"", play_compact(&optimal).replace(' ', ""));
    assert!(!seen.text.contains(&alice_moves), "{}", seen.text);
    assert_eq!(board(&seen_json, "5x5")["entries"], 1);
    assert_eq!(board(&seen_json, "5x5")["mine"], Value::Null);
    let seen = guest.get(&format!("/api/fmc/{day}"));
    assert!(!seen.text.contains(&alice_handle) && !seen.text.contains(&bob_handle));

    // The day closes.
    let dir = server.stop();
    let server = Server::start_shifted(dir, shift + DAY_MILLIS);
    let cookie = bob.cookie.clone();
    let mut bob = server.client();
    bob.cookie = cookie;
    let closed = bob.get(&format!("/api/fmc/{day}")).json();
    assert_eq!(closed["closed"], true);
    assert_eq!(closed["today"], json!(tomorrow));
    let four = board(&closed, "4x4");
    assert_eq!(four["optimum"]["stm"], length, "{four}");
    assert_eq!(four["optimum"]["proven"], true);
    let ranked: Vec<(Value, Value, Value, Value)> = four["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["rank"].clone(),
                e["handle"].clone(),
                e["stm"].clone(),
                e["lost"].clone(),
            )
        })
        .collect();
    assert_eq!(
        ranked,
        [
            (json!(1), json!(alice_handle), json!(length), json!(0)),
            (json!(2), json!(bob_handle), json!(length + 2), json!(2)),
        ]
    );
    assert_eq!(
        four["results"][0]["moves"],
        json!(play_compact(&optimal).replace(' ', ""))
    );
    assert_eq!(four["mine"]["rank"], 2);
    // The 5x5: the best known, no longer than the entry, and a solution.
    let five = board(&closed, "5x5");
    let best = &five["optimum"];
    assert!(
        best["stm"].as_u64().unwrap() as usize <= fast.len(),
        "{five}"
    );
    let moves: slide::Moves = best["moves"].as_str().unwrap().parse().unwrap();
    let mut reached = five_start.clone();
    reached.apply_all(&moves).unwrap();
    assert_eq!(reached, five_goal);
    assert_eq!(five["results"][0]["lost"], fast.len() - moves.len());
    // Kept: asked again, the same optimum.
    let again = Client::new(&server.url)
        .get(&format!("/api/fmc/{day}"))
        .json();
    assert_eq!(board(&again, "5x5")["optimum"], five["optimum"]);
    assert_eq!(board(&again, "4x4")["optimum"], four["optimum"]);
    // A past day without entries: no search, no optimum.
    let empty = bob.get(&format!("/api/fmc/{yesterday}")).json();
    for size in ["4x4", "5x5"] {
        let b = board(&empty, size);
        assert_eq!(
            (
                b["entries"].clone(),
                b["results"].clone(),
                b["optimum"].clone()
            ),
            (json!(0), json!([]), Value::Null)
        );
    }
    // The day takes no more entries.
    refused(
        &enter(&mut bob, &day, "5x5", &fast.compact()),
        400,
        &["today only"],
    );
}

/// A move list in the compact notation with spaces: `R2 D L3`.
fn play_compact(letters: &str) -> String {
    let moves: slide::Moves = letters.parse().unwrap();
    let compact = moves.compact();
    let mut out = String::new();
    for c in compact.chars() {
        if c.is_ascii_alphabetic() && !out.is_empty() {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// A move legal from `start` and the move that takes it back.
fn first_legal(start: &[u8; 16]) -> (char, char) {
    let blank = start.iter().position(|&t| t == 0).unwrap();
    if blank < 12 {
        ('U', 'D')
    } else {
        ('D', 'U')
    }
}
