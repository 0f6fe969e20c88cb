//! `tessera slide render`: SVG pictures of positions, parsed back and
//! compared with a committed picture.

mod common;

use assert_cmd::Command;
use common::cli::stdout;
use predicates::prelude::*;

fn tessera() -> Command {
    Command::cargo_bin("tessera").unwrap()
}

fn render(position: &str, args: &[&str]) -> String {
    stdout(&[&["slide", "render", position, "-o", "-"], args].concat())
}

/// A drawn tile: its fill and its number, if shown.
type Tile = (String, Option<String>);

/// The tiles of a rendered picture, in drawing order, and its width and
/// height.
fn read_tiles(svg: &str) -> (Vec<Tile>, (u32, u32)) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let size = |name| root.attribute(name).unwrap().parse::<u32>().unwrap();
    let mut found = Vec::new();
    // The first rectangle is the frame; then each tile's, with its number.
    for node in root.children().filter(roxmltree::Node::is_element).skip(1) {
        match node.tag_name().name() {
            "rect" => found.push((node.attribute("fill").unwrap().to_string(), None)),
            "text" => found.last_mut().unwrap().1 = node.text().map(str::to_string),
            other => panic!("unexpected <{other}>"),
        }
    }
    (found, (size("width"), size("height")))
}

/// The fill of the tile numbered `n`.
fn fill_of(tiles: &[Tile], n: &str) -> String {
    let tile = tiles.iter().find(|t| t.1.as_deref() == Some(n));
    tile.expect("the tile is drawn").0.clone()
}

#[test]
fn a_picture_has_every_tile_with_its_number() {
    let svg = render("8 6 7/2 5 4/3 0 1", &["--scheme", "rows"]);
    let (tiles, size) = read_tiles(&svg);
    let numbers: Vec<_> = tiles.iter().map(|t| t.1.clone().unwrap()).collect();
    assert_eq!(numbers, ["8", "6", "7", "2", "5", "4", "3", "1"]);
    // Rows scheme: tiles whose goal row is the same share a colour.
    let fill = |n: &str| fill_of(&tiles, n);
    assert_eq!(fill("1"), fill("3"));
    assert_eq!(fill("4"), fill("6"));
    assert_ne!(fill("1"), fill("4"));
    assert_ne!(fill("4"), fill("7"));
    assert_eq!(size, (3 * 64 + 16, 3 * 64 + 16));
    // Without numbers, only the tiles.
    let (bare, _) = read_tiles(&render("8 6 7/2 5 4/3 0 1", &["--no-numbers"]));
    assert_eq!(bare.len(), 8);
    assert!(bare.iter().all(|t| t.1.is_none()));
}

#[test]
fn the_picture_matches_the_committed_one() {
    // Regenerate after a deliberate change of the drawing with
    // `tessera slide render "8 6 7/2 5 4/3 0 1" --scheme fringe -o tests/golden/3x3-fringe.svg`.
    let svg = render("8 6 7/2 5 4/3 0 1", &["--scheme", "fringe"]);
    assert_eq!(svg, include_str!("golden/3x3-fringe.svg"));
}

#[test]
fn large_boards_stay_within_4096_pixels_and_keep_every_tile() {
    let position = stdout(&["slide", "new", "--size", "100x100", "--seed", "5"]);
    let svg = render(position.trim(), &["--scheme", "fringe"]);
    let (tiles, (width, height)) = read_tiles(&svg);
    assert_eq!(tiles.len(), 9999);
    assert!(width <= 4096 + 16 && width == height, "{width}×{height}");
    let mut numbers: Vec<u32> = tiles
        .iter()
        .map(|t| t.1.as_ref().unwrap().parse().unwrap())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=9999).collect::<Vec<u32>>());
}

#[test]
fn goals_colour_tiles_by_their_own_home() {
    // Blank-first: tile 1's home is the top row's second cell, so under
    // `columns` it shares its colour with 5 and 9 (same goal column).
    let svg = render(
        "1 2 3/4 5 6/7 8 0",
        &["--goal", "blank-first", "--scheme", "columns"],
    );
    let (tiles, _) = read_tiles(&svg);
    let fill = |n: &str| fill_of(&tiles, n);
    assert_eq!(fill("1"), fill("4"));
    assert_eq!(fill("1"), fill("7"));
    assert_ne!(fill("1"), fill("2"));
}

#[test]
fn bad_outputs_and_schemes_are_refused_with_exit_2() {
    // (position, extra arguments, what the error names)
    let cases: [(&str, &[&str], &str); 3] = [
        ("1 2 3/4 5 6/7 8 0", &["-o", "out.png"], "SVG"),
        (
            "1 2 3/4 5 6/7 8 0",
            &["--scheme", "stripes", "-o", "-"],
            "fringe",
        ),
        ("1 2 3/4 5 0/7 8", &["-o", "-"], "row"),
    ];
    for (position, args, named) in cases {
        tessera()
            .args(["slide", "render", position])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(named));
    }
}

#[test]
fn a_file_is_written() {
    let dir = std::env::temp_dir().join(format!("tessera-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("board.svg");
    tessera()
        .args(["slide", "render", "1 2 3/4 5 6/7 8 0", "-o"])
        .arg(&path)
        .assert()
        .success();
    let (tiles, _) = read_tiles(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(tiles.len(), 8);
    let _ = std::fs::remove_dir_all(&dir);
}
