//! The rules the browser applies itself (`static/rules.js`: slide moves,
//! the tiles a click slides, the multi-tile count, the move notation
//! players type, the Shisen-Sho score,
//! matching classes, what a tile shows under each display type) give the
//! engines' and `play`'s answers. Cases come from the
//! engines; Node runs the page's functions on them. Node is needed (the
//! end-to-end tests need it too); without it this test fails rather than
//! skips.

use std::process::Command;

use play::display::{self, Display, Recent, Shown, Tint};
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

/// Move lists as players type them (either case, counts, spaces and
/// commas, mistakes): what the fewest-moves challenge reads them as
/// (`play::fmc::parse`), or that it refuses them.
fn notation_cases(rng: &mut Rng) -> Vec<Value> {
    const PIECES: [&str; 14] = [
        "U", "d", "L", "r", "R2", "u3", "D10", " ", ",", "  ", "L0", "X", "7", "R2000",
    ];
    (0..300)
        .map(|_| {
            let text: String = (0..rng.below(8))
                .map(|_| PIECES[rng.below(PIECES.len() as u64) as usize])
                .collect();
            let read = play::fmc::parse(&text).ok().map(|m| m.to_string());
            json!({"text": text, "letters": read})
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

/// A cell as the checker compares it: null for the blank, else
/// [text, hidden, tint, arrow, opacity].
fn cell_json(cell: &Option<Shown>) -> Value {
    cell.as_ref().map_or(Value::Null, |c| {
        json!([
            c.text,
            c.hidden,
            c.tint.map(Tint::name),
            c.arrow.map(|(x, y)| [x, y]),
            c.opacity.map(|(l, o)| [l, o]),
        ])
    })
}

/// Boards of every side from 2 to 10 (rectangles too) and several goals,
/// scrambled at random or by a short walk (so that many tiles are home),
/// then played on at random; what every display shows after the moves.
fn display_cases(rng: &mut Rng) -> Vec<Value> {
    let mut cases = Vec::new();
    for seed in 0..160u64 {
        let (w, h) = (2 + rng.below(9) as usize, 2 + rng.below(9) as usize);
        let size = Size::new(w, h).unwrap();
        let goal = match seed % 4 {
            0 => Goal::RowMajor,
            1 => Goal::Snake,
            2 => Goal::Spiral,
            _ => Goal::Missing(1 + rng.below(size.cells() as u64) as u32),
        }
        .position(size)
        .unwrap();
        let scramble = if seed % 2 == 0 {
            Scramble::Uniform
        } else {
            Scramble::Walk(1 + rng.below(12))
        };
        let start = scramble.generate(&goal, seed);
        let mut now = start.clone();
        let moves: Moves = (0..rng.below(3 * (w + h) as u64))
            .filter_map(|_| {
                let direction = Direction::ALL[rng.below(4) as usize];
                now.apply(direction).is_ok().then_some(direction)
            })
            .collect();
        let (recent, reached) = Recent::replay(&start, &goal, &moves).unwrap();
        assert_eq!(reached, now);
        let shown: serde_json::Map<String, Value> = Display::ALL
            .into_iter()
            .map(|d| {
                let cells = display::show(d, &now, &goal, &recent);
                (d.name().to_string(), cells.iter().map(cell_json).collect())
            })
            .collect();
        cases.push(json!({
            "w": w, "start": start.tiles(), "goal": goal.tiles(), "now": now.tiles(),
            "moves": moves.to_string(), "shown": shown,
        }));
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
        "notation": notation_cases(&mut rng),
        "scores": score_cases(&mut rng),
        "classes": class_cases(),
        "displays": display_cases(&mut rng),
    });
    node_agrees("client_rules", &cases, "the page and the engines disagree");
}

/// Runs the Node checker `tests/it/{checker}.mjs` over `cases` (written to
/// a file it reads) and asserts that it exits cleanly saying they agree.
fn node_agrees(checker: &str, cases: &Value, disagree: &str) {
    let file = std::env::temp_dir().join(format!("tessera-{checker}-{}.json", std::process::id()));
    std::fs::write(&file, cases.to_string()).unwrap();
    let script = format!("{}/tests/it/{checker}.mjs", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("node")
        .arg(script)
        .arg(&file)
        .output()
        .expect("node must be installed to check the page's rules (scripts/test installs it with the e2e tools)");
    let _ = std::fs::remove_file(&file);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{disagree}:\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("agree"), "{report}");
}

/// The page carries each display forward move by move while a game is
/// played (`CarriedDisplay` in static/display.js) rather than work out the
/// whole board after each: after every move it must show what the whole
/// board worked out again shows, and at the end what `play` computes. The
/// boards are those of the test above, and a few up to 32 by 32.
#[test]
fn the_page_carries_each_display_move_by_move() {
    let mut rng = Rng::new(51);
    let mut displays = display_cases(&mut rng);
    displays.extend(big_display_cases(&mut rng));
    node_agrees(
        "client_display",
        &json!({ "displays": displays }),
        "the carried displays disagree",
    );
}

/// Big boards (up to 32 by 32, where carrying matters), a short walk from
/// the goal so that many tiles are home, then many random moves.
fn big_display_cases(rng: &mut Rng) -> Vec<Value> {
    [(32usize, 32usize), (20, 20), (32, 8), (10, 3)]
        .into_iter()
        .enumerate()
        .map(|(seed, (w, h))| {
            let goal = Goal::RowMajor.position(Size::new(w, h).unwrap()).unwrap();
            let start = Scramble::Walk(40).generate(&goal, seed as u64);
            let mut now = start.clone();
            let moves: Moves = (0..300)
                .filter_map(|_| {
                    let direction = Direction::ALL[rng.below(4) as usize];
                    now.apply(direction).is_ok().then_some(direction)
                })
                .collect();
            let (recent, _) = Recent::replay(&start, &goal, &moves).unwrap();
            let shown: serde_json::Map<String, Value> = Display::ALL
                .into_iter()
                .map(|d| {
                    let cells = display::show(d, &now, &goal, &recent);
                    (d.name().to_string(), cells.iter().map(cell_json).collect())
                })
                .collect();
            json!({
                "w": w, "start": start.tiles(), "goal": goal.tiles(), "now": now.tiles(),
                "moves": moves.to_string(), "shown": shown,
            })
        })
        .collect()
}

/// What the end-to-end test (e2e/tests/display.test.js) expects the page to
/// show: the 4x4 that seed 5150 deals, after a few moves, under every
/// display, computed here by `play` and kept in e2e/fixtures/display.json.
/// The file must be what `play` computes now; `UPDATE_FIXTURES=1` writes it.
#[test]
fn the_end_to_end_fixture_of_displays_is_what_play_computes() {
    use play::format::Format;
    use play::slide_game::{GoalChoice, SlideSpec};
    let (seed, w) = (5150u64, 4usize);
    let spec = SlideSpec::new(Size::new(w, w).unwrap(), GoalChoice::Goal(Goal::RowMajor)).unwrap();
    let puzzle = Format::Single.deal(&spec, seed).unwrap().remove(0);
    // A walk that never undoes its last move, so several tiles move and
    // some move more than once.
    let mut now = puzzle.start.clone();
    let mut moves = Moves::new();
    for i in 0..14 {
        let last = moves.iter().last();
        let direction = (0..4)
            .map(|k| Direction::ALL[(i + k) % 4])
            .find(|&d| Some(d.inverse()) != last && now.can_move(d))
            .unwrap();
        now.apply(direction).unwrap();
        moves = moves.iter().chain([direction]).collect();
    }
    let (recent, reached) = Recent::replay(&puzzle.start, &puzzle.goal_position, &moves).unwrap();
    assert_eq!(reached, now);
    let shown: serde_json::Map<String, Value> = Display::ALL
        .into_iter()
        .map(|d| {
            let cells = display::show(d, &now, &puzzle.goal_position, &recent);
            (d.name().to_string(), cells.iter().map(cell_json).collect())
        })
        .collect();
    let head = json!({
        "seed": seed, "size": format!("{w}x{w}"), "goal": "row-major",
        "start": puzzle.start.tiles(), "moves": moves.to_string(), "now": now.tiles(),
    })
    .to_string();
    // One display a line, so that a change reads well in a diff.
    let lines: Vec<String> = shown
        .iter()
        .map(|(d, cells)| format!("    {}: {cells}", json!(d)))
        .collect();
    let text = format!(
        "{},\n  \"shown\": {{\n{}\n  }}\n}}\n",
        head.strip_suffix('}').unwrap(),
        lines.join(",\n")
    );
    serde_json::from_str::<Value>(&text).expect("the fixture is JSON");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../e2e/fixtures/display.json"
    );
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::create_dir_all(std::path::Path::new(path).parent().unwrap()).unwrap();
        std::fs::write(path, &text).unwrap();
    }
    let kept = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        kept == text,
        "{path} is not what play computes: run this test with UPDATE_FIXTURES=1"
    );
}
