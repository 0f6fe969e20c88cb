//! Rendering through ratatui's `TestBackend`: assertions on the buffer.

use super::shisen_app::{ShisenAction, ShisenApp};
use super::slide_app::{SlideAction, SlideApp};
use super::{shisen_view, slide_view};
use picture::{scheme, Scheme};
use play::shisen_game::ShisenSpec;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use ratatui::Terminal;
use shisen::Point;
use slide::BLANK;
use std::time::{Duration, Instant};

fn render(width: u16, height: u16, draw: impl FnOnce(&mut ratatui::Frame)) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(draw).unwrap();
    terminal.backend().buffer().clone()
}

/// The buffer's rows as text (wide symbols once, their hidden half dropped).
fn rows(buf: &Buffer) -> Vec<String> {
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect()
}

fn text_at(buf: &Buffer, x: u16, y: u16, len: u16) -> String {
    (x..x + len).map(|x| buf[(x, y)].symbol()).collect()
}

fn slide_app(size: &str, seed: u64) -> SlideApp {
    let spec = format!("{size}-row-major").parse().unwrap();
    SlideApp::new(spec, seed).unwrap()
}

#[test]
fn slide_tiles_are_drawn_where_the_layout_says_with_their_labels() {
    let app = slide_app("4x4", 1);
    let now = Instant::now();
    let buf = render(80, 24, |f| slide_view::draw(f, &app, now));
    let layout = slide_view::board_layout(buf.area, app.position().size()).unwrap();
    for (cell, &tile) in app.position().tiles().iter().enumerate() {
        let rect = layout.tile_rect(cell);
        let middle = text_at(&buf, rect.x, rect.y + rect.height / 2, rect.width);
        if tile == BLANK {
            assert_eq!(middle.trim(), "");
            assert_eq!(buf[(rect.x, rect.y)].bg, Color::Reset);
        } else {
            assert_eq!(middle.trim(), tile.to_string(), "cell {cell}");
            let in_place = app.goal().tiles()[cell] == tile;
            let colour = if in_place { Color::Green } else { Color::Blue };
            assert_eq!(buf[(rect.x, rect.y)].bg, colour, "cell {cell}");
        }
    }
}

#[test]
fn slide_screen_shows_title_goal_counter_timer_and_keys() {
    let t0 = Instant::now();
    let mut app = slide_app("3x3", 1);
    let direction = app.position().legal_moves().next().unwrap();
    app.handle(SlideAction::Move(direction), t0);
    let buf = render(80, 24, |f| {
        slide_view::draw(f, &app, t0 + Duration::from_secs(75));
    });
    let text = rows(&buf);
    assert!(text[0].contains("sliding puzzle 3x3"), "{}", text[0]);
    assert!(text[0].contains("goal row-major"));
    assert!(text[0].contains("seed 1"));
    assert!(text[22].contains("Moves 1"), "{}", text[22]);
    assert!(text[22].contains("Time 01:15"));
    assert!(text[23].contains("hint") && text[23].contains("quit"));
    let all = text.join("\n");
    assert!(all.contains("Goal"), "{all}");
    // The goal's rows, in the goal box.
    for row in ["1 2 3", "4 5 6", "7 8 ·"] {
        assert!(all.contains(row), "goal row {row:?} in\n{all}");
    }
    assert!(text.iter().all(|r| r.chars().count() == 80));
}

#[test]
fn slide_win_screen_after_the_solver() {
    let mut app = slide_app("3x3", 2);
    let t0 = Instant::now();
    app.handle(SlideAction::Solve, t0);
    app.settle(t0);
    while app.is_solving() {
        app.tick(t0);
    }
    let buf = render(80, 24, |f| slide_view::draw(f, &app, t0));
    let all = rows(&buf).join("\n");
    assert!(all.contains("Solved by the solver"), "{all}");
    let moves = app.outcome();
    assert!(all.contains(&format!("{} moves ({} MTM) in 00:00", moves.stm, moves.mtm)));
    assert!(all.contains("n new puzzle"));
    assert!(
        !all.contains("solving:"),
        "the solver's message ends with it"
    );
}

#[test]
fn slide_colours_cycle_through_the_schemes_of_slide_render() {
    let mut app = slide_app("4x4", 2);
    let now = Instant::now();
    let goal = app.goal().clone();
    let homes = scheme::Frame {
        width: 4,
        height: 4,
        blank: (3, 3),
    };
    for expected in [
        Scheme::Fringe,
        Scheme::Rows,
        Scheme::Columns,
        Scheme::Gradient,
    ] {
        app.handle(SlideAction::NextColours, now);
        assert_eq!(app.scheme(), Some(expected));
        let buf = render(80, 24, |f| slide_view::draw(f, &app, now));
        let layout = slide_view::board_layout(buf.area, app.position().size()).unwrap();
        for (cell, &tile) in app.position().tiles().iter().enumerate() {
            if tile == BLANK {
                continue;
            }
            let home = goal.tiles().iter().position(|&t| t == tile).unwrap();
            let fill = expected.fill(&homes, (home % 4, home / 4));
            let rect = layout.tile_rect(cell);
            let drawn = &buf[(rect.x, rect.y)];
            assert_eq!(
                drawn.bg,
                Color::Rgb(fill.0, fill.1, fill.2),
                "{expected:?} tile {tile}"
            );
        }
        assert!(rows(&buf).iter().any(|r| r.contains("colours:")));
    }
    // After the last scheme, back to "home or not".
    app.handle(SlideAction::NextColours, now);
    assert_eq!(app.scheme(), None);
}

#[test]
fn slide_hint_is_highlighted() {
    let mut app = slide_app("3x3", 4);
    app.handle(SlideAction::Hint, Instant::now());
    app.settle(Instant::now());
    let (cell, _) = app.hint().unwrap();
    let buf = render(80, 24, |f| slide_view::draw(f, &app, Instant::now()));
    let layout = slide_view::board_layout(buf.area, app.position().size()).unwrap();
    let rect = layout.tile_rect(cell);
    assert_eq!(buf[(rect.x, rect.y)].bg, Color::Yellow);
    assert!(rows(&buf)[22].contains("hint: move"));
}

#[test]
fn slide_boards_shrink_to_fit_and_say_when_they_cannot() {
    let app = slide_app("9x9", 1);
    let buf = render(80, 24, |f| slide_view::draw(f, &app, Instant::now()));
    let layout = slide_view::board_layout(buf.area, app.position().size())
        .expect("9x9 fits 80x24 with small tiles");
    let last = layout.tile_rect(80);
    assert!(last.bottom() <= 22 && last.right() <= 80);
    let app = slide_app("30x30", 1);
    let buf = render(80, 24, |f| slide_view::draw(f, &app, Instant::now()));
    assert!(rows(&buf).join(" ").contains("too small"));
}

/// Random deals (solvable or not) of a size.
fn any_deal(size: &str) -> ShisenSpec {
    format!("{size}-any").parse().unwrap()
}

fn shisen_app(seed: u64) -> ShisenApp {
    ShisenApp::new(any_deal("18x8"), seed).unwrap()
}

#[test]
fn shisen_default_board_fits_80x24_with_its_ring() {
    let app = shisen_app(1);
    let buf = render(80, 24, |f| shisen_view::draw(f, &app, true, Instant::now()));
    let layout = shisen_view::board_layout(buf.area, shisen::Size::DEFAULT).unwrap();
    for (p, kind) in app.game().board().tiles() {
        let (x, y) = layout.anchor(p);
        assert_eq!(text_at(&buf, x, y, 2), shisen_view::ascii_name(kind), "{p}");
    }
    // The ring around the board is inside the screen.
    let (x0, y0) = layout.anchor(Point::new(-1, -1));
    let (x1, y1) = layout.anchor(Point::new(18, 8));
    assert!(y0 >= 1 && y1 <= 21 && x1 + 2 <= 80, "{x0},{y0} {x1},{y1}");
    let text = rows(&buf);
    assert!(text[0].contains("Shisen-Sho 18x8"), "{}", text[0]);
    assert!(text[21].contains("Tiles 144"), "{}", text[21]);
    assert!(text[23].contains("shuffle"));
}

#[test]
fn shisen_glyphs_take_two_columns_and_skip_the_second() {
    let app = shisen_app(1);
    let buf = render(80, 24, |f| {
        shisen_view::draw(f, &app, false, Instant::now());
    });
    let layout = shisen_view::board_layout(buf.area, shisen::Size::DEFAULT).unwrap();
    for (p, kind) in app.game().board().tiles() {
        let (x, y) = layout.anchor(p);
        assert_eq!(buf[(x, y)].symbol(), kind.glyph().to_string(), "{p}");
        // Either ratatui knows the glyph is wide, or the second column is
        // never written so the terminal's own width decides.
        let second = &buf[(x + 1, y)];
        assert!(second.skip || second.symbol().is_empty() || second.symbol() == " ");
        // The next tile starts two cells later, whatever the glyph width.
        if p.x < 17 {
            let (nx, _) = layout.anchor(Point::new(p.x + 1, p.y));
            assert_eq!(nx, x + 4);
        }
    }
}

#[test]
fn shisen_cursor_selection_and_path_are_drawn() {
    let t0 = Instant::now();
    let mut app = shisen_app(2);
    let m = app.game().board().moves()[0];
    app.handle(ShisenAction::Click(m.a), t0);
    let buf = render(80, 24, |f| shisen_view::draw(f, &app, true, t0));
    let layout = shisen_view::board_layout(buf.area, shisen::Size::DEFAULT).unwrap();
    let (x, y) = layout.anchor(m.a);
    assert_eq!(buf[(x, y)].bg, Color::Yellow, "the selection");
    assert_eq!(buf[(x - 1, y)].symbol(), "[", "the cursor");
    assert_eq!(buf[(x + 2, y)].symbol(), "]");
    app.handle(ShisenAction::Click(m.b), t0);
    let path = app.flash().expect("removed").path;
    let buf = render(80, 24, |f| shisen_view::draw(f, &app, true, t0));
    // Both tiles still shown, and every point between the corners is a line.
    for p in [m.a, m.b] {
        let (x, y) = layout.anchor(p);
        assert_eq!(buf[(x, y)].bg, Color::Yellow);
    }
    let line = ["─", "│", "┌", "┐", "└", "┘"];
    let points = path.points();
    for pair in points.windows(2) {
        let (a, b) = (layout.anchor(pair[0]), layout.anchor(pair[1]));
        let steps = a.0.abs_diff(b.0) + a.1.abs_diff(b.1);
        let mut drawn = 0;
        for x in a.0.min(b.0)..=a.0.max(b.0) {
            for y in a.1.min(b.1)..=a.1.max(b.1) {
                drawn += u16::from(line.contains(&buf[(x, y)].symbol()));
            }
        }
        // All but the cells under the end tiles.
        assert!(drawn + 4 >= steps, "{drawn} of {steps}");
    }
    // After the flash the pair is gone from the picture.
    app.tick(t0 + Duration::from_secs(1));
    let buf = render(80, 24, |f| shisen_view::draw(f, &app, true, t0));
    let (x, y) = layout.anchor(m.a);
    assert_eq!(text_at(&buf, x, y, 2), "  ");
    assert!(rows(&buf)[21].contains("Tiles 142"));
}

#[test]
fn shisen_win_screen() {
    let t0 = Instant::now();
    let mut app = ShisenApp::new(any_deal("4x2"), 3).unwrap();
    while !app.game().is_won() {
        app.handle(ShisenAction::Hint, t0);
        let Some(m) = app.hint() else {
            app.handle(ShisenAction::Shuffle, t0);
            continue;
        };
        app.handle(ShisenAction::Click(m.a), t0);
        app.handle(ShisenAction::Click(m.b), t0);
    }
    app.tick(t0 + Duration::from_secs(1));
    let buf = render(80, 24, |f| shisen_view::draw(f, &app, true, t0));
    let all = rows(&buf).join("\n");
    assert!(all.contains("Board cleared!"), "{all}");
    assert!(all.contains("n new deal"));
}

#[test]
fn slide_goal_is_beside_small_boards_and_behind_g_on_large_ones() {
    let now = Instant::now();
    let mut app = slide_app("10x10", 3);
    let buf = render(80, 24, |f| slide_view::draw(f, &app, now));
    assert!(!rows(&buf).join("\n").contains("Goal"), "no room beside");
    let layout = slide_view::board_layout(buf.area, app.position().size()).unwrap();
    let first = layout.tile_rect(0);
    assert!(first.width >= 4, "the board keeps its larger tiles");
    app.handle(SlideAction::ToggleGoal, now);
    let buf = render(80, 24, |f| slide_view::draw(f, &app, now));
    assert!(rows(&buf).join("\n").contains("Goal (g"));
    for cell in [0, 1, 57] {
        let rect = layout.tile_rect(cell);
        let label = text_at(&buf, rect.x, rect.y, rect.width);
        assert_eq!(label.trim(), app.goal().tiles()[cell].to_string());
    }
    // Any other key brings the board back.
    app.handle(SlideAction::Undo, now);
    assert!(!app.showing_goal());
}

#[test]
fn any_terminal_size_renders_without_panicking() {
    let now = Instant::now();
    let slide = slide_app("4x4", 1);
    let mut shisen = shisen_app(1);
    let m = shisen.game().board().moves()[0];
    shisen.handle(ShisenAction::Click(m.a), now);
    shisen.handle(ShisenAction::Click(m.b), now);
    for width in 1..=90 {
        for height in 1..=26 {
            render(width, height, |f| slide_view::draw(f, &slide, now));
            render(width, height, |f| shisen_view::draw(f, &shisen, false, now));
        }
    }
}

#[test]
fn shisen_status_says_no_solution_from_here() {
    let board = shisen::parse_board("CC\nAB\nBA\n", shisen::Matching::Standard).unwrap();
    let spec = any_deal(&board.size().to_string());
    let mut app = ShisenApp::with_board(board, spec, 0);
    let buf = render(80, 24, |f| shisen_view::draw(f, &app, true, Instant::now()));
    let status = rows(&buf)[21].clone();
    assert!(status.contains("Tiles 6"), "{status}");
    app.settle();
    let buf = render(80, 24, |f| shisen_view::draw(f, &app, true, Instant::now()));
    let status = rows(&buf)[21].clone();
    assert!(status.contains("no solution from here"), "{status}");
    // Remove the open pair: now stuck, and the message line says what to do.
    app.handle(ShisenAction::Click(Point::new(0, 0)), Instant::now());
    app.handle(ShisenAction::Click(Point::new(1, 0)), Instant::now());
    let buf = render(80, 24, |f| shisen_view::draw(f, &app, true, Instant::now()));
    assert!(rows(&buf)[22].contains("x shuffles"), "{}", rows(&buf)[22]);
}

#[test]
fn a_stuck_shisen_game_says_where_it_was_lost() {
    let t0 = Instant::now();
    let spec: ShisenSpec = "6x4".parse().unwrap();
    // The first solvable 6x4 deal with a first removal after which the
    // exact solver proves the board cannot be cleared.
    for seed in 0.. {
        let mut app = ShisenApp::new(spec, seed).unwrap();
        let deal = app.game().clone();
        let losing = deal.board().moves().into_iter().find(|m| {
            let mut game = deal.clone();
            game.remove(m.a, m.b).unwrap();
            game.still_solvable(&mut shisen::Nodes(u64::MAX)) == shisen::Verdict::Unsolvable
        });
        let Some(m) = losing else { continue };
        // The mistake, then any pair until nothing connects.
        let mut pairs = vec![m];
        while let Some(next) = pairs.last().copied() {
            app.handle(ShisenAction::Click(next.a), t0);
            app.handle(ShisenAction::Click(next.b), t0);
            pairs = app.game().board().moves().into_iter().take(1).collect();
        }
        assert!(app.game().is_stuck(), "an unsolvable board ends stuck");
        app.settle();
        app.tick(t0 + Duration::from_secs(1));
        let buf = render(80, 24, |f| shisen_view::draw(f, &app, true, t0));
        let all = rows(&buf).join("\n");
        assert!(
            all.contains(&format!("lost at turn 1 ({}-{})", m.a, m.b)),
            "{all}"
        );
        assert!(
            all.contains("a win existed from the deal — x shuffles"),
            "{all}"
        );
        // The line the player is told of clears the deal.
        let line = app.loss().unwrap().continuation.clone().unwrap();
        assert_eq!(line.after, 0);
        let mut game = deal.clone();
        for r in line.removals {
            game.remove(r.a, r.b).unwrap();
        }
        assert!(game.is_won());
        // Undoing the way back forgets the verdict: play goes on.
        app.handle(ShisenAction::Undo, t0);
        assert!(app.loss().is_none());
        return;
    }
}
