//! `tessera slide render`: SVG pictures of positions, parsed back and
//! compared with a committed picture.

use crate::common;

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
    // `tessera slide render "8 6 7/2 5 4/3 0 1" --scheme fringe -o tests/it/golden/3x3-fringe.svg`.
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
    let cases: [(&str, &[&str], &str); 7] = [
        ("1 2 3/4 5 6/7 8 0", &["-o", "out.jpg"], ".png"),
        ("1 2 3/4 5 6/7 8 0", &["-o", "out.gif"], "--solution"),
        (
            "1 2 3/4 5 6/7 8 0",
            &["--solution", "R", "-o", "out.png"],
            ".gif",
        ),
        (
            "1 2 3/4 5 6/7 8 0",
            &["--solution", "RRX", "-o", "out.gif"],
            "--solution",
        ),
        (
            "1 2 3/4 5 6/7 8 0",
            &["--solution", "RRU", "-o", "out.gif"],
            "move 2 (U)",
        ),
        (
            "1 2 3/4 5 6/7 8 0",
            &["--scheme", "stripes", "-o", "-"],
            "fringe",
        ),
        ("1 2 3/4 5 0/7 8", &["-o", "-"], "row"),
    ];
    for (position, args, named) in cases {
        // Run in an empty directory: a refused render must write nothing.
        let dir = scratch("refused");
        tessera()
            .current_dir(&dir)
            .args(["slide", "render", position])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(named));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "{args:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// An empty directory of this test process's own.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-render-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Renders to a file in a scratch directory and reads it back.
fn render_file(name: &str, args: &[&str]) -> Vec<u8> {
    let dir = scratch(name);
    let path = dir.join(name);
    tessera()
        .args(["slide", "render"])
        .args(args)
        .arg("-o")
        .arg(&path)
        .assert()
        .success();
    let bytes = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// The RGBA pixels of a PNG, with its width.
fn decode_png(bytes: &[u8]) -> (Vec<u8>, u32) {
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(bytes).expect("a PNG");
    (pixmap.data().to_vec(), pixmap.width())
}

#[test]
fn the_png_matches_the_committed_one_pixel_by_pixel() {
    // Regenerate after a deliberate change of the drawing with
    // `tessera slide render "8 6 7/2 5 4/3 0 1" --scheme fringe -o tests/it/golden/3x3-fringe.png`.
    let png = render_file("board.png", &["8 6 7/2 5 4/3 0 1", "--scheme", "fringe"]);
    let (got, width) = decode_png(&png);
    let (want, want_width) = decode_png(include_bytes!("golden/3x3-fringe.png"));
    assert_eq!((width, got.len()), (want_width, want.len()));
    // Anti-aliasing may differ by a shade between builds of the rasteriser;
    // a changed tile, colour or digit changes hundreds of pixels by far more.
    let off = got
        .chunks(4)
        .zip(want.chunks(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count();
    assert!(off <= 20, "{off} pixels differ from the committed picture");
}

#[test]
fn a_png_shows_the_blank_where_the_position_has_it() {
    // Cells are 64 px after an 8 px margin; the blank shows the dark frame.
    // Read near a corner of each cell, away from the number.
    let (pixels, width) = decode_png(&render_file("board.png", &["1 2 3/4 0 6/7 5 8"]));
    let centre = |x: u32, y: u32| {
        let i = (((8 + y * 64 + 14) * width + 8 + x * 64 + 14) * 4) as usize;
        &pixels[i..i + 3]
    };
    for (x, y) in (0..3).flat_map(|y| (0..3).map(move |x| (x, y))) {
        assert_eq!(is_frame(centre(x, y)), (x, y) == (1, 1), "cell {x},{y}");
    }
}

/// Whether a pixel has the frame's grey (#2b2b2b), within a shade.
fn is_frame(rgb: &[u8]) -> bool {
    rgb.iter().all(|&c| c.abs_diff(0x2b) <= 8)
}

/// The frames of a GIF as shown (RGBA, full size: each frame drawn over
/// the one before, as its disposal asks), its size and whether it loops.
fn decode_gif(bytes: &[u8]) -> (Vec<Vec<u8>>, (u16, u16), bool) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let size = (decoder.width(), decoder.height());
    let loops = decoder.repeat() == gif::Repeat::Infinite;
    let width = usize::from(size.0);
    let mut shown = vec![0u8; width * usize::from(size.1) * 4];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        let (left, top) = (usize::from(frame.left), usize::from(frame.top));
        for (i, pixel) in frame.buffer.chunks(4).enumerate() {
            // Transparent pixels leave the frame before showing.
            if pixel[3] == 0 {
                continue;
            }
            let (x, y) = (
                left + i % usize::from(frame.width),
                top + i / usize::from(frame.width),
            );
            let at = (y * width + x) * 4;
            shown[at..at + 4].copy_from_slice(pixel);
        }
        frames.push(shown.clone());
    }
    (frames, size, loops)
}

#[test]
fn a_gif_has_the_start_and_one_frame_per_move_and_loops() {
    let start = "8 6 7/2 5 4/3 0 1";
    let solution = stdout(&["slide", "solve", start]);
    let solution = solution.trim();
    let gif = render_file(
        "solution.gif",
        &[start, "--solution", solution, "--scheme", "rows"],
    );
    let (frames, (width, height), loops) = decode_gif(&gif);
    assert_eq!(frames.len(), solution.len() + 1);
    assert!(loops);
    // The board as in the PNG, with a band for the move counter under it.
    assert_eq!((width, height), (3 * 64 + 16, 3 * 64 + 16 + 30));
    // Every frame shows the same picture as a PNG of its position would
    // (the counter band aside), and the blank is exactly where the moves
    // put it.
    let mut position = slide::Position::parse(start, None).unwrap();
    for (i, frame) in frames.iter().enumerate() {
        let dark: Vec<(u32, u32)> = (0..3)
            .flat_map(|y| (0..3).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let at = (((8 + y * 64 + 14) * u32::from(width) + 8 + x * 64 + 14) * 4) as usize;
                is_frame(&frame[at..at + 3])
            })
            .collect();
        let blank = position.blank() as u32;
        assert_eq!(dark, [(blank % 3, blank / 3)], "frame {i}");
        let still = position.to_string();
        let (png, _) = decode_png(&render_file("still.png", &[&still, "--scheme", "rows"]));
        // The PNG is the board alone: the GIF's rows above the band.
        let board = &frame[..png.len()];
        let off = board
            .chunks(4)
            .zip(png.chunks(4))
            .filter(|(a, b)| (0..3).any(|k| a[k].abs_diff(b[k]) > 48))
            .count();
        assert!(off * 100 <= png.len() / 4, "frame {i}: {off} pixels differ");
        if let Some(letter) = solution.chars().nth(i) {
            position
                .apply(slide::Direction::from_letter(letter).unwrap())
                .unwrap();
        }
    }
    assert_eq!(position.to_string(), "1 2 3/4 5 6/7 8 0");
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

/// An SVG picture of 3 × 3 squares, each its own colour: the colour of
/// goal cell `i` is `(30 * i, 255 - 20 * i, 90)`.
fn squares_picture(dir: &std::path::Path) -> std::path::PathBuf {
    let mut svg =
        String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300">"#);
    for i in 0..9 {
        let (x, y) = (i % 3 * 100, i / 3 * 100);
        svg += &format!(
            r#"<rect x="{x}" y="{y}" width="100" height="100" fill="rgb({},{},90)"/>"#,
            30 * i,
            255 - 20 * i
        );
    }
    svg += "</svg>";
    let path = dir.join("squares.svg");
    std::fs::write(&path, svg).unwrap();
    path
}

#[test]
fn picture_tiles_show_the_part_of_their_goal_cell() {
    let dir = scratch("picture");
    let picture = squares_picture(&dir);
    let out = dir.join("board.png");
    for (position, goal) in [
        ("8 6 7/2 5 4/3 0 1", "row-major"),
        ("1 2 3/4 5 6/7 8 0", "blank-first"),
        ("0 1 2/3 4 5/6 7 8", "blank-first"),
    ] {
        tessera()
            .args(["slide", "render", position, "--goal", goal, "--no-numbers"])
            .arg("--picture")
            .arg(&picture)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        let (pixels, width) = decode_png(&std::fs::read(&out).unwrap());
        let goal = stdout(&[
            "slide",
            "new",
            "--size",
            "3x3",
            "--scramble",
            "walk:0",
            "--goal",
            goal,
        ]);
        let homes: Vec<&str> = goal.trim().split(['/', ' ']).collect();
        let tiles: Vec<&str> = position.split(['/', ' ']).collect();
        for (cell, tile) in tiles.iter().enumerate() {
            let (x, y) = (cell as u32 % 3, cell as u32 / 3);
            let at = (((8 + y * 64 + 32) * width + 8 + x * 64 + 32) * 4) as usize;
            let got = &pixels[at..at + 3];
            if *tile == "0" {
                assert!(is_frame(got), "{position}: the blank shows the frame");
                continue;
            }
            let home = homes.iter().position(|h| h == tile).unwrap() as u8;
            assert_eq!(
                got,
                [30 * home, 255 - 20 * home, 90],
                "{position}: tile {tile}"
            );
        }
    }
    // A file that is not a picture is refused, naming it.
    tessera()
        .args([
            "slide",
            "render",
            "1 2 3/4 5 6/7 8 0",
            "-o",
            "-",
            "--picture",
        ])
        .arg(dir.join("board.png").with_extension("nothing"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--picture"));
    std::fs::write(dir.join("text.txt"), "hello").unwrap();
    tessera()
        .args([
            "slide",
            "render",
            "1 2 3/4 5 6/7 8 0",
            "-o",
            "-",
            "--picture",
        ])
        .arg(dir.join("text.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a PNG, JPEG"));
    let _ = std::fs::remove_dir_all(&dir);
}
