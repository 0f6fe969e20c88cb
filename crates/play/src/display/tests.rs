//! Hand-worked cases of every display type.

use slide::{Goal, Moves, Position, Size};

use super::*;

fn position(text: &str) -> Position {
    text.parse().unwrap()
}

fn classic(w: usize, h: usize) -> Position {
    Goal::RowMajor.position(Size::new(w, h).unwrap()).unwrap()
}

/// The texts of every cell ("_" for the blank, "." for a hidden tile).
fn texts(display: Display, now: &str) -> Vec<String> {
    cells(display, now)
        .into_iter()
        .map(|c| match c {
            None => "_".into(),
            Some(c) if c.hidden => ".".into(),
            Some(c) => c.text,
        })
        .collect()
}

fn cells(display: Display, now: &str) -> Vec<Option<Shown>> {
    let now = position(now);
    let goal = classic(now.size().width(), now.size().height());
    show(display, &now, &goal, &Recent::default())
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// 4 1 3 / 7 2 6 / _ 5 8 against the classic goal: 3 and 6 are home.
const MIXED: &str = "4 1 3/7 2 6/0 5 8";

#[test]
fn names_read_back_and_unknown_names_say_what_is_accepted() {
    for display in Display::ALL {
        assert_eq!(display.name().parse::<Display>(), Ok(display));
    }
    let error = "fancy".parse::<Display>().unwrap_err().to_string();
    assert!(error.contains("\"fancy\""), "{error}");
    assert!(error.contains("standard, minimal, row-minimal"), "{error}");
    assert!(error.contains("rows-and-columns"), "{error}");
}

#[test]
fn only_the_standard_display_goes_with_a_blindfold_solve() {
    use crate::format::Format;
    for display in Display::ALL {
        assert!(display.allowed_with(&Format::Single));
        assert_eq!(
            display.allowed_with(&Format::Blindfold),
            display == Display::Standard
        );
    }
}

#[test]
fn standard_shows_numbers() {
    assert_eq!(texts(Display::Standard, MIXED), words("4 1 3 7 2 6 _ 5 8"));
}

#[test]
fn the_minimal_displays_show_the_corner_the_top_row_or_the_fringe() {
    assert_eq!(texts(Display::Minimal, MIXED), words("4 . . . . . _ . ."));
    assert_eq!(
        texts(Display::RowMinimal, MIXED),
        words("4 1 3 . . . _ . .")
    );
    assert_eq!(
        texts(Display::FringeMinimal, MIXED),
        words("4 1 3 7 . . _ . .")
    );
}

#[test]
fn inverse_permutation_shows_the_inverse_scramble() {
    // Tile 4 (goal cell 3) sits in cell 0, so cell 3 shows 1, the goal's
    // tile of cell 0; and so on. The inverse's blank lands on cell 7.
    let shown = texts(Display::InversePermutation, MIXED);
    let want = ["2", "5", "3", "1", "8", "6", "_", "", "7"];
    assert_eq!(shown, want);
    // A solved board is its own inverse.
    assert_eq!(
        texts(Display::InversePermutation, "1 2 3/4 5 6/7 8 0"),
        words("1 2 3 4 5 6 7 8 _")
    );
}

#[test]
fn manhattan_is_the_distance_home() {
    assert_eq!(texts(Display::Manhattan, MIXED), words("1 1 0 1 1 0 _ 1 1"));
    assert_eq!(
        texts(Display::Manhattan, "8 2 3/4 5 6/7 1 0"),
        words("3 0 0 0 0 0 0 3 _")
    );
}

fn arrows(display: Display, now: &str) -> Vec<Option<(i64, i64)>> {
    cells(display, now)
        .into_iter()
        .map(|c| c.and_then(|c| c.arrow))
        .collect()
}

#[test]
fn vectors_point_home() {
    let want = [(0, 1), (-1, 0), (0, 0), (0, 1), (0, -1), (0, 0)]
        .map(Some)
        .into_iter()
        .chain([None, Some((0, -1)), Some((-1, 0))]);
    assert_eq!(arrows(Display::Vectors, MIXED), want.collect::<Vec<_>>());
}

#[test]
fn incremental_vectors_point_to_the_next_tile_and_the_last_is_hidden() {
    let want = vec![
        Some((1, 2)),  // 4 → 5
        Some((0, 1)),  // 1 → 2
        Some((-2, 0)), // 3 → 4
        Some((2, 1)),  // 7 → 8
        Some((1, -1)), // 2 → 3
        Some((-2, 0)), // 6 → 7
        None,
        Some((1, -1)), // 5 → 6
        None,          // 8, the last
    ];
    assert_eq!(arrows(Display::IncrementalVectors, MIXED), want);
    assert!(
        cells(Display::IncrementalVectors, MIXED)[8]
            .as_ref()
            .unwrap()
            .hidden
    );
}

#[test]
fn inverse_vectors_are_the_inverse_permutations_arrows_home() {
    // Each cell points to where its goal tile is now; the inverse's
    // blank (cell 7) points home to the goal's blank cell.
    let want = vec![
        Some((1, 0)),
        Some((0, 1)),
        Some((0, 0)),
        Some((0, -1)),
        Some((0, 1)),
        Some((0, 0)),
        None,
        Some((1, 0)),
        Some((-2, 0)),
    ];
    assert_eq!(arrows(Display::InverseVectors, MIXED), want);
}

#[test]
fn rgb_marks_the_goal_row_column_and_cell() {
    let tints: Vec<_> = cells(Display::Rgb, MIXED)
        .into_iter()
        .map(|c| c.map(|c| c.tint.map_or("none", Tint::name)))
        .collect();
    let want = ["blue", "red", "green", "blue", "blue", "green"]
        .map(Some)
        .into_iter()
        .chain([None, Some("blue"), Some("red")]);
    assert_eq!(tints, want.collect::<Vec<_>>());
    let off = cells(Display::Rgb, "5 2 3/4 1 6/7 8 0");
    assert_eq!(off[0].as_ref().unwrap().tint, None);
}

#[test]
fn chess_names_the_piece_whose_move_takes_a_tile_home() {
    use marks::{BISHOP, KING, KNIGHT, ROOK};
    assert_eq!(texts(Display::Chess, MIXED)[..3], [ROOK, ROOK, KING]);
    assert_eq!(
        texts(Display::Chess, "5 2 3/4 1 6/7 8 0")[..5],
        [BISHOP, KING, KING, KING, BISHOP]
    );
    assert_eq!(texts(Display::Chess, "8 2 3/4 5 6/7 1 0")[0], KNIGHT);
    // 12 in the corner of a 4×4 is three across and two down from home.
    let far = texts(Display::Chess, "12 2 3 4/5 6 7 8/9 10 11 1/13 14 15 0");
    assert_eq!((far[0].as_str(), far[11].as_str()), ("", ""));
}

#[test]
fn adjacent_tiles_are_those_beside_the_blank() {
    assert_eq!(
        texts(Display::AdjacentTiles, MIXED),
        words(". . . 7 . . _ 5 .")
    );
}

#[test]
fn adjacent_sum_adds_the_neighbours() {
    assert_eq!(
        texts(Display::AdjacentSum, MIXED),
        words("8 9 7 6 19 13 _ 10 11")
    );
}

#[test]
fn minesweeper_counts_the_neighbours_home() {
    assert_eq!(
        texts(Display::Minesweeper, MIXED),
        words("0 1 1 0 1 1 _ 0 1")
    );
}

#[test]
fn rows_and_columns_count_the_other_tiles_home_in_both_lines() {
    assert_eq!(
        texts(Display::RowsAndColumns, MIXED),
        words("1 1 1 1 1 1 _ 0 2")
    );
}

#[test]
fn minimal_and_maximal_unsolved_show_one_tile() {
    assert_eq!(
        texts(Display::MinimalUnsolved, MIXED),
        words(". 1 . . . . _ . .")
    );
    assert_eq!(
        texts(Display::MaximalUnsolved, MIXED),
        words(". . . . . . _ . 8")
    );
    assert_eq!(
        texts(Display::MaximalUnsolved, "1 2 3/4 5 6/7 8 0"),
        words(". . . . . . . . _")
    );
}

/// The classic 3×3 after R L D: 8 moved out and back home, then 6 down.
fn after_moves(display: Display) -> Vec<Option<Shown>> {
    let (start, goal) = (classic(3, 3), classic(3, 3));
    let moves: Moves = "RLD".parse().unwrap();
    let (recent, now) = Recent::replay(&start, &goal, &moves).unwrap();
    assert_eq!(now, position("1 2 3/4 5 0/7 8 6"));
    show(display, &now, &goal, &recent)
}

fn texts_of(cells: Vec<Option<Shown>>) -> Vec<String> {
    cells
        .into_iter()
        .map(|c| match c {
            None => "_".into(),
            Some(c) if c.hidden => ".".into(),
            Some(c) => c.text,
        })
        .collect()
}

#[test]
fn last_move_shows_the_tile_that_moved_last_and_nothing_before_a_move() {
    assert_eq!(
        texts_of(after_moves(Display::LastMove)),
        words(". . . . . _ . . 6")
    );
    assert_eq!(texts(Display::LastMove, MIXED), words(". . . . . . _ . ."));
}

#[test]
fn vanish_on_solved_hides_a_tile_once_a_move_takes_it_home() {
    // 8 went home by a move; the tiles that started home stay.
    assert_eq!(
        texts_of(after_moves(Display::VanishOnSolved)),
        words("1 2 3 4 5 _ 7 . 6")
    );
}

#[test]
fn fading_tiles_fade_by_their_own_moves_and_go_after_2n() {
    let opacity: Vec<_> = after_moves(Display::FadingTiles)
        .into_iter()
        .map(|c| c.and_then(|c| c.opacity))
        .collect();
    assert_eq!(opacity[7], Some((4, 6)));
    assert_eq!(opacity[8], Some((5, 6)));
    assert_eq!(opacity[0], Some((6, 6)));
    // Six moves of the same tile on a 3×3 and it is gone.
    let (start, goal) = (classic(3, 3), classic(3, 3));
    let (recent, now) = Recent::replay(&start, &goal, &"RLRLRL".parse().unwrap()).unwrap();
    assert!(
        show(Display::FadingTiles, &now, &goal, &recent)[7]
            .as_ref()
            .unwrap()
            .hidden
    );
}

#[test]
fn a_rectangles_fade_limit_is_twice_the_root_of_its_area() {
    for ((w, h), limit) in [((3, 3), 6), ((4, 2), 6), ((10, 3), 11), ((2, 2), 4)] {
        let goal = classic(w, h);
        let shown = show(Display::FadingTiles, &goal, &goal, &Recent::default());
        assert_eq!(
            shown[0].as_ref().unwrap().opacity,
            Some((limit, limit)),
            "{w}x{h}"
        );
    }
}

#[test]
fn an_illegal_move_in_the_history_is_named() {
    let goal = classic(3, 3);
    let error = Recent::replay(&goal, &goal, &"RU".parse().unwrap()).unwrap_err();
    assert_eq!(error.index, 1);
}
