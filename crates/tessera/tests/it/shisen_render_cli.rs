//! `tessera shisen render`: pictures of Shisen-Sho boards, with the web
//! page's tile faces and a connection drawn over them.

use crate::common;

use assert_cmd::Command;
use common::cli::stdout;
use predicates::prelude::*;

fn tessera() -> Command {
    Command::cargo_bin("tessera").unwrap()
}

/// A small dealt board: 6 × 4 with six kinds of four tiles.
fn small_board() -> String {
    stdout(&[
        "shisen", "new", "--size", "6x4", "--tiles", "6x4", "--seed", "3",
    ])
    .trim()
    .to_string()
}

/// The tiles (as translate offsets) and the path points of a picture.
fn read(svg: &str) -> (Vec<(u32, u32)>, Option<String>) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses");
    let mut tiles = Vec::new();
    let mut path = None;
    for node in doc
        .root_element()
        .children()
        .filter(roxmltree::Node::is_element)
    {
        match node.tag_name().name() {
            "g" => {
                let t = node.attribute("transform").unwrap();
                let xy = t.trim_start_matches("translate(").trim_end_matches(')');
                let (x, y) = xy.split_once(' ').unwrap();
                tiles.push((x.parse().unwrap(), y.parse().unwrap()));
            }
            "polyline" => path = node.attribute("points").map(str::to_string),
            _ => {}
        }
    }
    (tiles, path)
}

#[test]
fn every_tile_is_drawn_in_its_cell_inside_the_ring() {
    let board = small_board();
    let svg = stdout(&["shisen", "render", &board, "-o", "-"]);
    let (tiles, path) = read(&svg);
    assert_eq!(tiles.len(), 24);
    assert!(path.is_none());
    // Cells are 40 × 52 with one empty cell of ring on every side.
    let want: Vec<(u32, u32)> = (1..=4)
        .flat_map(|y| (1..=6).map(move |x| (x * 40, y * 52)))
        .collect();
    assert_eq!(tiles, want);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().attribute("width"), Some("320"));
    assert_eq!(doc.root_element().attribute("height"), Some("312"));
}

#[test]
fn the_path_is_the_one_shisen_path_finds() {
    let board = small_board();
    // Every connectable pair: the drawn path passes through the centres of
    // the cells that `shisen path` lists, ring cells included.
    let moves = stdout(&["shisen", "moves", &board]);
    assert!(!moves.trim().is_empty());
    for line in moves.lines() {
        let (from, to) = line.split_once(' ').unwrap();
        let corners = stdout(&["shisen", "path", &board, "--from", from, "--to", to]);
        let svg = stdout(&[
            "shisen", "render", &board, "--from", from, "--to", to, "-o", "-",
        ]);
        let (_, path) = read(&svg);
        let want: Vec<String> = corners
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
                format!("{},{}", (x + 1.5) * 40.0, (y + 1.5) * 52.0)
            })
            .collect();
        assert_eq!(path.unwrap(), want.join(" "), "{line}");
        // The two ends are drawn selected.
        assert_eq!(svg.matches("#ffe9a8").count(), 2, "{line}");
    }
}

#[test]
fn the_png_matches_the_committed_one_pixel_by_pixel() {
    // Regenerate after a deliberate change of the drawing with
    // `tessera shisen render "$(tessera shisen new --size 6x4 --tiles 6x4 --seed 3)"
    //   --from 0,0 --to 0,2 -o tests/it/golden/shisen-6x4.png`.
    let board = small_board();
    let dir = std::env::temp_dir().join(format!("tessera-shisen-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("board.png");
    tessera()
        .args([
            "shisen", "render", &board, "--from", "0,0", "--to", "0,2", "-o",
        ])
        .arg(&path)
        .assert()
        .success();
    let got = resvg::tiny_skia::Pixmap::load_png(&path).unwrap();
    let want =
        resvg::tiny_skia::Pixmap::decode_png(include_bytes!("golden/shisen-6x4.png")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!((got.width(), got.height()), (want.width(), want.height()));
    let off = got
        .data()
        .chunks(4)
        .zip(want.data().chunks(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count();
    assert!(off <= 20, "{off} pixels differ from the committed picture");
}

#[test]
fn bad_requests_are_refused_with_exit_2() {
    let board = small_board();
    let two = format!("{board}\n\n{board}");
    // (arguments after the board, what the error names)
    let cases: [(&str, &[&str], &str); 5] = [
        (&board, &["-o", "board.gif"], ".svg or .png"),
        (&board, &["--from", "0,0", "-o", "-"], "--to"),
        (
            &board,
            &["--from", "0,0", "--to", "9,9", "-o", "-"],
            "off the",
        ),
        (
            &board,
            &["--from", "0,0", "--to", "1,0", "-o", "-"],
            "no path",
        ),
        (&two, &["-o", "-"], "one board"),
    ];
    for (board, args, named) in cases {
        tessera()
            .args(["shisen", "render", board])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(named));
    }
}
