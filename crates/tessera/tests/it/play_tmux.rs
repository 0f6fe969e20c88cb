//! `tessera play` end to end: the real binary in a real terminal (a tmux
//! pane), driven by keys, read back from the screen.
//!
//! Needs tmux; CI installs it (`.ci/run`). Without tmux these tests fail
//! rather than skip, so a missing terminal cannot pass unnoticed.

use crate::common;

use common::tmux::{press, slide_tiles as board_tiles, Pane};
use slide::{Direction, Goal, Position, Scramble, Size};
use std::process::Command;

fn without_blank(position: &Position) -> Vec<u32> {
    position
        .tiles()
        .iter()
        .copied()
        .filter(|&t| t != 0)
        .collect()
}

#[test]
fn slide_moves_counts_undoes_and_restores_the_terminal_on_quit() {
    let size: Size = "3x3".parse().unwrap();
    let goal = Goal::RowMajor.position(size).unwrap();
    let start = Scramble::Uniform.generate(&goal, 1);

    let pane = Pane::start("slide", "play slide --size 3x3 --seed 1");
    let screen = pane.wait_for("the board", |s| s.contains("Moves 0"));
    assert!(screen.contains("sliding puzzle 3x3"), "{screen}");
    assert_eq!(board_tiles(&screen), without_blank(&start), "{screen}");
    assert_eq!(pane.format("#{alternate_on} #{mouse_any_flag}"), "1 1");

    // A legal move, pressed as its arrow key, moves that tile.
    let direction = start.legal_moves().next().unwrap();
    let key = match direction {
        Direction::Up => "Up",
        Direction::Down => "Down",
        Direction::Left => "Left",
        Direction::Right => "Right",
    };
    let mut moved = start.clone();
    moved.apply(direction).unwrap();
    pane.keys(&[key]);
    let screen = pane.wait_for("one move", |s| s.contains("Moves 1"));
    assert_eq!(board_tiles(&screen), without_blank(&moved), "{screen}");
    if direction.inverse() != direction {
        assert_ne!(board_tiles(&screen), without_blank(&start));
    }

    pane.keys(&["u"]);
    let screen = pane.wait_for("the undo", |s| s.contains("Moves 0"));
    assert_eq!(board_tiles(&screen), without_blank(&start), "{screen}");

    // A smaller window: everything is laid out again to fit it.
    assert!(pane
        .tmux(&["resize-window", "-t", "0", "-x", "50", "-y", "16"])
        .status
        .success());
    let screen = pane.wait_for("the smaller layout", |s| {
        s.lines().nth(14).is_some_and(|l| l.contains("Moves 0"))
    });
    assert!(screen.lines().all(|l| l.chars().count() <= 50), "{screen}");
    assert_eq!(board_tiles(&screen), without_blank(&start), "{screen}");

    pane.keys(&["q"]);
    let screen = pane.wait_for("the exit", |s| s.contains("modes:"));
    assert!(screen.contains("exit=0"), "{screen}");
    // Raw mode is off again: line editing and echo are back.
    assert!(
        screen.lines().any(|l| l.trim() == "modes: icanon echo"),
        "terminal modes after exit:\n{screen}"
    );
    assert!(
        !screen.contains("Moves"),
        "left the alternate screen:\n{screen}"
    );
    assert_eq!(pane.format("#{alternate_on} #{mouse_any_flag}"), "0 0");
}

#[test]
fn shisen_removes_a_pair_undoes_and_quits_cleanly() {
    let pane = Pane::start("shisen", "play shisen --seed 3 --ascii");
    let screen = pane.wait_for("the board", |s| s.contains("Tiles 144"));
    assert!(screen.contains("Shisen-Sho 18x8"), "{screen}");
    // Walk the cursor to the first removable pair (the engine's list for
    // the same deal) and pick both tiles with Enter.
    let board = shisen::Deal::random(3, shisen::Size::DEFAULT, shisen::TileSet::Standard).unwrap();
    let m = board.moves()[0];
    let mut keys: Vec<&str> = Vec::new();
    keys.extend(std::iter::repeat_n("Right", m.a.x as usize));
    keys.extend(std::iter::repeat_n("Down", m.a.y as usize));
    keys.push("Enter");
    let (dx, dy) = (m.b.x - m.a.x, m.b.y - m.a.y);
    keys.extend(std::iter::repeat_n(
        if dx < 0 { "Left" } else { "Right" },
        dx.unsigned_abs() as usize,
    ));
    keys.extend(std::iter::repeat_n("Down", dy as usize));
    keys.push("Enter");
    pane.keys(&keys);
    pane.wait_for("the removal", |s| s.contains("Tiles 142"));
    pane.keys(&["u"]);
    pane.wait_for("the undo", |s| s.contains("Tiles 144"));
    pane.keys(&["q"]);
    let screen = pane.wait_for("the exit", |s| s.contains("modes:"));
    assert!(screen.contains("exit=0"), "{screen}");
    assert!(screen.contains("modes: icanon echo"), "{screen}");
    assert_eq!(pane.format("#{alternate_on} #{mouse_any_flag}"), "0 0");
}

/// The display column where each mahjong glyph of `line` starts. Unicode
/// gives 🀄 (U+1F004) East Asian width W, two columns, and the other tiles
/// of the block one, as tmux draws them.
fn glyph_columns(line: &str) -> Vec<usize> {
    let mut column = 0;
    let mut starts = Vec::new();
    for c in line.chars() {
        if ('\u{1F000}'..='\u{1F02B}').contains(&c) {
            starts.push(column);
        }
        column += if c == '\u{1F004}' { 2 } else { 1 };
    }
    starts
}

#[test]
fn shisen_glyphs_keep_their_columns_whatever_their_width() {
    let pane = Pane::start("glyphs", "play shisen --seed 3");
    let screen = pane.wait_for("the board", |s| s.contains("Tiles 144"));
    let rows: Vec<Vec<usize>> = screen
        .lines()
        .map(glyph_columns)
        .filter(|columns| !columns.is_empty())
        .collect();
    assert_eq!(rows.len(), 8, "{screen}");
    // Seed 3 deals the wide 🀄, so some rows hold both widths.
    assert!(screen.contains('\u{1F004}'), "{screen}");
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 18, "row {i}:\n{screen}");
        // The same columns on every row, evenly spaced.
        assert_eq!(row, &rows[0], "row {i} is out of line:\n{screen}");
        assert!(
            row.windows(2).all(|w| w[1] - w[0] == row[1] - row[0]),
            "{screen}"
        );
    }
    pane.keys(&["q"]);
    pane.wait_for("the exit", |s| s.contains("modes:"));
}

#[test]
fn bad_flags_are_refused_before_the_terminal_is_touched() {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["play", "slide", "--size", "3x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["play", "shisen", "--preset", "huge"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("huge"));
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["play", "slide", "--size", "200x3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("too large"));
    // Blindfold needs the page; a format must be one.
    for (format, says) in [("bld", "web game"), ("sprint", "sprint")] {
        let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["play", "slide", "--format", format])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(says));
    }
    // Good flags, but stdout is a pipe here: no terminal to draw on.
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["play", "slide", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not one"));
    assert!(out.stdout.is_empty(), "nothing drawn into the pipe");
}

#[test]
fn a_relay_plays_its_sizes_one_after_another_on_one_clock() {
    // The puzzles the web game and `tessera slide new` deal from the seed.
    let spec: play::slide_game::SlideSpec = "3x3-row-major".parse().unwrap();
    let format: play::format::Format = "relay-4".parse().unwrap();
    let dealt = format.deal(&spec, 77).unwrap();
    let printed: serde_json::Value = serde_json::from_str(&common::cli::stdout(&[
        "slide", "new", "--size", "3x3", "--format", "relay-4", "--json", "--seed", "77",
    ]))
    .unwrap();
    let printed: Vec<&str> = printed["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["position"].as_str().unwrap())
        .collect();
    let positions: Vec<String> = dealt.iter().map(|p| p.start.to_string()).collect();
    assert_eq!(printed, positions);

    let pane = Pane::start("relay", "play slide --size 3x3 --seed 77 --format relay-4");
    let screen = pane.wait_for("the 3x3", |s| s.contains("Moves 0"));
    assert!(
        screen.contains("sliding puzzle 3x3 · relay-4 1/2"),
        "{screen}"
    );
    assert_eq!(
        board_tiles(&screen),
        without_blank(&dealt[0].start),
        "{screen}"
    );
    let first = slide::solve_optimal(
        &dealt[0].start,
        &dealt[0].goal_position,
        &slide::SolveOptions::default(),
    )
    .unwrap()
    .moves;
    press(&pane, &first);

    // Solved: the 4x4 appears at once, its moves counted after the 3x3's.
    let screen = pane.wait_for("the 4x4", |s| s.contains("puzzle 2 of 2, 4x4"));
    assert!(
        screen.contains("sliding puzzle 4x4 · relay-4 2/2"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("Moves {} STM", first.len())),
        "{screen}"
    );
    assert_eq!(
        board_tiles(&screen),
        without_blank(&dealt[1].start),
        "{screen}"
    );
    let second = slide::solve_fast(&dealt[1].start, &dealt[1].goal_position).unwrap();
    press(&pane, &second);
    let screen = pane.wait_for("the win", |s| s.contains("relay-4 solved!"));
    let total = first.len() + second.len();
    assert!(screen.contains(&format!("{total} moves")), "{screen}");
    assert!(screen.contains("splits "), "{screen}");

    pane.keys(&["q"]);
    let screen = pane.wait_for("the exit", |s| s.contains("modes:"));
    assert!(screen.contains("exit=0"), "{screen}");
}
