//! The rules the browser applies itself (`static/rules.js`: slide moves,
//! the tiles a click slides, the multi-tile count, the Shisen-Sho score,
//! matching classes) give the engines' answers. Cases come from the
//! engines; Node runs the page's functions on them. Node is needed (the
//! end-to-end tests need it too); without it this test fails rather than
//! skips.

use std::process::Command;

use serde_json::{json, Value};
use shisen::{Deal, Game, Kind, Matching, Rules, Size as BoardSize, TileSet};
use slide::{Direction, Goal, Moves, Rng, Scramble, Size};

fn slide_cases(rng: &mut Rng) -> (Vec<Value>, Vec<Value>) {
    let (mut moves, mut slides) = (Vec::new(), Vec::new());
    for seed in 0..200u64 {
        let (w, h) = (2 + rng.below(5) as usize, 2 + rng.below(5) as usize);
        let size = Size::new(w, h).unwrap();
        let goal = Goal::RowMajor.position(size).unwrap();
        let position = Scramble::Uniform.generate(&goal, seed);
        for direction in Direction::ALL {
            let mut after = position.clone();
            let legal = after.apply(direction).is_ok();
            moves.push(json!({
                "tiles": position.tiles(), "w": w, "h": h,
                "letter": direction.letter().to_string(),
                "after": legal.then(|| after.tiles().to_vec()),
            }));
        }
        let cell = rng.below(size.cells() as u64) as usize;
        let expected = position.clone().slide_to(cell).unwrap_or_default();
        slides.push(
            json!({"tiles": position.tiles(), "w": w, "cell": cell, "moves": expected.to_string()}),
        );
    }
    (moves, slides)
}

fn mtm_cases(rng: &mut Rng) -> Vec<Value> {
    (0..300)
        .map(|_| {
            let length = rng.below(40) as usize;
            let moves: Moves = (0..length)
                .map(|_| Direction::ALL[rng.below(4) as usize])
                .collect();
            json!({"moves": moves.to_string(), "mtm": moves.mtm_len()})
        })
        .collect()
}

/// Scores of games played part-way with random removals, undos, hints and
/// shuffles, at random elapsed times.
fn score_cases(rng: &mut Rng) -> Vec<Value> {
    let mut cases = Vec::new();
    for seed in 0..100u64 {
        let gravity = seed % 2 == 1;
        let board = Deal::random(seed, BoardSize::new(8, 4).unwrap(), TileSet::Standard).unwrap();
        let start = board.tiles_left();
        let mut game = Game::new(board, Rules::new(Matching::Standard, gravity));
        for _ in 0..rng.below(14) {
            match rng.below(6) {
                0 => {
                    game.undo();
                }
                1 => {
                    game.hint();
                }
                2 => game.shuffle(rng.next_u64()),
                _ => {
                    if let Some(m) = game.board().moves().first().copied() {
                        game.remove(m.a, m.b).unwrap();
                    }
                }
            }
        }
        let stats = game.stats();
        let secs = rng.below(2000);
        cases.push(json!({
            "start": start, "left": game.board().tiles_left(), "secs": secs,
            "help": stats.undos + stats.hints + stats.shuffles, "gravity": gravity,
            "score": game.score(secs),
        }));
    }
    cases
}

fn class_cases() -> Vec<Value> {
    let mut cases = Vec::new();
    // Every face and a run of plain kinds after them.
    for n in 0..Kind::COUNT.min(200) {
        let kind = Kind::nth(n).unwrap();
        for matching in [Matching::Standard, Matching::Chinese] {
            cases.push(json!({
                "kind": kind.symbol().to_string(),
                "chinese": matching == Matching::Chinese,
                "class": matching.class(kind).symbol().to_string(),
            }));
        }
    }
    cases
}

#[test]
fn the_pages_rules_give_the_engines_answers() {
    let mut rng = Rng::new(2026);
    let (moves, slides) = slide_cases(&mut rng);
    let cases = json!({
        "moves": moves,
        "slides": slides,
        "mtm": mtm_cases(&mut rng),
        "scores": score_cases(&mut rng),
        "classes": class_cases(),
    });
    let file =
        std::env::temp_dir().join(format!("tessera-client-rules-{}.json", std::process::id()));
    std::fs::write(&file, cases.to_string()).unwrap();
    let checker = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/client_rules.mjs");
    let out = Command::new("node")
        .arg(checker)
        .arg(&file)
        .output()
        .expect("node must be installed to check the page's rules (scripts/test installs it with the e2e tools)");
    let _ = std::fs::remove_file(&file);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the page and the engines disagree:\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("agree"), "{report}");
}
