//! A person at the sliding puzzle, for the tests that need a result the
//! server ranks: a 3×3 dealt by the server, solved without asking it
//! (breadth-first through the `slide` engine, so the test's moves are its
//! own reference), and submitted at a person's pace once the server has
//! seen that much time pass.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::server::Client;

/// A shortest solution of the game's position toward its goal, by
/// breadth-first search (small boards only).
pub fn shortest(game: &Value) -> String {
    let start: slide::Position = game["position"].as_str().unwrap().parse().unwrap();
    let goal: slide::Position = game["goal_position"].as_str().unwrap().parse().unwrap();
    let mut seen = HashMap::from([(start.clone(), String::new())]);
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        let path = seen[&p].clone();
        if p == goal {
            return path;
        }
        for d in slide::Direction::ALL {
            let mut next = p.clone();
            if next.apply(d).is_ok() && !seen.contains_key(&next) {
                seen.insert(next.clone(), format!("{path}{}", d.letter()));
                queue.push_back(next);
            }
        }
    }
    panic!("unsolvable")
}

/// A new 3×3 game of `seed` and a shortest solution for it.
pub fn deal_3x3(c: &mut Client, seed: u64) -> (Value, String) {
    let game = c.ok("/api/slide/new", json!({"size": "3x3", "seed": seed}));
    let moves = shortest(&game);
    (game, moves)
}

/// Times a person might take for `moves` moves: the first `first` ms after
/// the puzzle appeared, then one every `gap` ms.
pub fn paced(moves: usize, first: i64, gap: i64) -> Vec<i64> {
    (0..moves as i64).map(|i| first + i * gap).collect()
}

/// Sleeps until `times` could have been played since `dealt` (and 50 ms
/// more), so the server's clock agrees with them.
pub fn wait_for(dealt: Instant, times: &[i64]) {
    let last = Duration::from_millis(*times.last().unwrap_or(&0) as u64 + 50);
    if let Some(left) = last.checked_sub(dealt.elapsed()) {
        std::thread::sleep(left);
    }
}

/// A new 3×3 of `seed` solved at a person's pace (300 ms to the first
/// move, then one every 100 ms): the game, its moves and the server's
/// answer to the submission.
pub fn solve_like_a_person(c: &mut Client, seed: u64) -> (Value, String, Value) {
    let dealt = Instant::now();
    let (game, moves) = deal_3x3(c, seed);
    let times = paced(moves.len(), 300, 100);
    wait_for(dealt, &times);
    let done = c.ok(
        "/api/slide/submit",
        json!({"game": game["game"], "moves": moves, "times": times}),
    );
    (game, moves, done)
}
