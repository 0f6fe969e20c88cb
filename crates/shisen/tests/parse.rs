//! The text format: round trips and precise errors.

use shisen::{parse_board, parse_boards, Kind, Matching, ParseError, Problem};

fn error(text: &str) -> ParseError {
    parse_board(text, Matching::Standard).unwrap_err()
}

#[test]
fn round_trips_and_accepts_spaced_cells() {
    let board = parse_board("1.2\n2.1\n", Matching::Standard).unwrap();
    assert_eq!(board.to_string(), "1.2\n2.1\n");
    let spaced = parse_board("1 . 2\r\n2 . 1\r\n", Matching::Standard).unwrap();
    assert_eq!(spaced, board);
    assert_eq!(board.tiles_left(), 4);
}

#[test]
fn streams_split_on_blank_lines_with_stream_line_numbers() {
    let text = "11\n\n\n22\n33\n\n4.\n";
    let boards: Vec<_> = parse_boards(text, Matching::Standard).collect();
    assert_eq!(boards.len(), 3);
    assert!(boards[0].is_ok() && boards[1].is_ok());
    let e = boards[2].clone().unwrap_err();
    assert_eq!((e.line, e.column), (7, 1));
    assert_eq!(
        e.problem,
        Problem::OddKind {
            kind: Kind::new('4').unwrap(),
            count: 1
        }
    );
}

#[test]
fn errors_say_where_and_what() {
    let e = error("11\n1\n");
    assert_eq!(
        (e.line, e.problem),
        (
            2,
            Problem::Ragged {
                expected: 2,
                found: 1
            }
        )
    );
    let e = error("1 1\n1  1\n");
    assert_eq!((e.line, e.column, e.problem), (2, 3, Problem::Spacing));
    let e = error("1\t1\n");
    assert_eq!(
        (e.line, e.column, e.problem),
        (1, 2, Problem::NotACell('\t'))
    );
    let e = error("12\n21\n3.\n");
    assert_eq!((e.line, e.column), (3, 1));
    assert!(
        e.to_string()
            .contains("kind '3' has an odd number of tiles (1)"),
        "{e}"
    );
    let e = error("1 2\n. 2 1\n");
    assert_eq!(e.line, 2);
    let e = error("");
    assert_eq!(e.problem, Problem::NoBoard);
    let e = error("11\n\n22\n");
    assert_eq!((e.line, e.problem), (3, Problem::ExtraBoard));
    let e = error(&"1".repeat(66));
    assert_eq!(e.problem, Problem::TooWide(66));
    let e = error(&"11\n".repeat(65));
    assert_eq!((e.line, e.problem), (65, Problem::TooTall));
    let e = error("1 1 \n");
    assert_eq!(e.problem, Problem::Spacing);
}

#[test]
fn odd_kind_column_counts_text_columns() {
    let e = error("1 1 2\n");
    assert_eq!((e.line, e.column), (1, 5));
}

#[test]
fn chinese_matching_accepts_single_flowers() {
    assert!(parse_board("st\n", Matching::Chinese).is_ok());
    let e = parse_board("st\n", Matching::Standard).unwrap_err();
    assert_eq!(
        e.problem,
        Problem::OddKind {
            kind: Kind::new('s').unwrap(),
            count: 1
        }
    );
}

#[test]
fn garbage_never_panics() {
    for text in [
        "\u{0}",
        "..\n..",
        "\n\n\n",
        "  ",
        "1 ",
        " 1",
        "ab\nba\n\n\u{7f}",
        "🀄🀄",
    ] {
        let _ = parse_boards(text, Matching::Standard).count();
    }
    // An empty board is a board.
    assert_eq!(
        parse_board("..\n..\n", Matching::Standard)
            .unwrap()
            .tiles_left(),
        0
    );
}

/// A stream read into one reused board gives, board after board, what the
/// iterator gives as boards of their own: after errors, after boards of
/// other sizes, classes and tile counts, and with non-ASCII kinds.
#[test]
fn reused_board_reads_like_owned_boards() {
    let text =
        "ab\nba\n\n1.2\n2.1\n\n11\n1\n\n🀄x\nx🀄\n\nst\n\n..\n..\n\n1 2\n2 1\n\nq\n\nzz\nyy\n";
    for matching in [Matching::Standard, Matching::Chinese] {
        let owned: Vec<_> = parse_boards(text, matching).collect();
        let mut stream = parse_boards(text, matching);
        let mut reused = Vec::new();
        while let Some(board) = stream.next_ref() {
            reused.push(board.cloned());
        }
        assert_eq!(reused, owned);
        for (board, owned) in reused.iter().zip(&owned) {
            if let (Ok(board), Ok(owned)) = (board, owned) {
                assert_eq!(board.moves(), owned.moves());
                assert_eq!(board.tiles_left(), owned.tiles_left());
            }
        }
    }
}

/// Counting a stream gives what counting the boards read one by one
/// gives, errors included (the counter declines every board it does not
/// take, and the full parser answers): spaced cells, non-ASCII kinds, odd
/// and ragged boards, a class of more tiles than the counter holds, boards
/// too wide for its lines, `\r` line ends.
#[test]
fn counting_reads_like_building() {
    let many = "1".repeat(40);
    let wide = format!("{}\n{}\n", "ab".repeat(32), "ba".repeat(32));
    let text = format!(
        "ab\nba\n\n1.2\n2.1\n\n11\n1\n\n🀄x\nx🀄\n\nst\n\n..\n..\n\n1 2\n2 1\n\n\
         q\n\nzz\nyy\n\nab\r\nba\r\n\n{many}\n\n{wide}\n1x\nx2\n\n  \n12\n21\n"
    );
    for matching in [Matching::Standard, Matching::Chinese] {
        let mut built = parse_boards(&text, matching);
        let mut counted = parse_boards(&text, matching);
        let mut boards = 0;
        while let Some(board) = built.next_ref() {
            let expected = board.map(shisen::Board::count_moves);
            assert_eq!(counted.next_count(), Some(expected), "board {boards}");
            boards += 1;
        }
        assert_eq!(counted.next_count(), None);
        assert_eq!(boards, 14);
    }
}
