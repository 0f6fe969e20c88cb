//! Drawing Shisen-Sho: the board with its ring (paths may run around the
//! outside), tiles as mahjong glyphs or two-letter names, the cursor, the
//! selection, the hint, the path of the last removal, and the status.
//!
//! Cell widths: mahjong glyphs (U+1F000…) are one column wide by Unicode's
//! tables except 🀄, yet many terminal fonts draw them two wide. Each tile
//! gets two columns; after a narrow glyph the second column is marked
//! "skip", so ratatui never writes it and moves the cursor explicitly to
//! the next cell it draws. A terminal that draws the glyph wide then
//! fills both columns, one that draws it narrow leaves the second blank,
//! and the columns after it stay aligned either way.

use super::shisen_app::{Outlook, ShisenApp};
use super::widgets::{centered, keys_line, too_small};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;
use shisen::{Dragon, Face, Kind, Point, Size, Suit, Wind};
use std::time::Instant;

const KEYS: &[(&str, &str)] = &[
    ("←↑↓→ hjkl", "move"),
    ("⏎/click", "pick"),
    ("?", "hint"),
    ("u", "undo"),
    ("r", "redo"),
    ("x", "shuffle"),
    ("n", "new"),
    ("q", "quit"),
];

/// Columns a tile takes: a glyph and its possible second half, or two
/// letters.
const TILE_WIDTH: u16 = 2;

/// Where the cells of a board and its ring are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardLayout {
    size: Size,
    origin: (u16, u16),
    /// Columns and rows per cell.
    cell: (u16, u16),
}

impl BoardLayout {
    /// The roomiest cells for which the board and its ring fit in `area`.
    pub fn fit(area: Rect, size: Size) -> Option<BoardLayout> {
        [(4, 2), (3, 2), (3, 1), (2, 1)]
            .into_iter()
            .find_map(|cell| {
                let (w, h) = extent(size, cell);
                (w <= area.width && h <= area.height).then(|| BoardLayout {
                    size,
                    origin: (
                        area.x + (area.width - w) / 2,
                        area.y + (area.height - h) / 2,
                    ),
                    cell,
                })
            })
    }

    /// The screen position of point `p`'s tile (its first column); ring
    /// points included.
    pub fn anchor(&self, p: Point) -> (u16, u16) {
        let offset = (self.cell.0 - TILE_WIDTH) / 2;
        (
            self.origin.0 + (p.x + 1) as u16 * self.cell.0 + offset,
            self.origin.1 + (p.y + 1) as u16 * self.cell.1,
        )
    }

    /// The board cell drawn at screen column `col`, row `row`: any column
    /// of the cell's width, the tile's row only.
    pub fn point_at(&self, col: u16, row: u16) -> Option<Point> {
        let dx = col.checked_sub(self.origin.0)?;
        let dy = row.checked_sub(self.origin.1)?;
        if dy % self.cell.1 != 0 {
            return None;
        }
        let p = Point::new((dx / self.cell.0) as i32 - 1, (dy / self.cell.1) as i32 - 1);
        let inside = (0..self.size.width() as i32).contains(&p.x)
            && (0..self.size.height() as i32).contains(&p.y);
        inside.then_some(p)
    }
}

/// Columns and rows of the board with its ring: the last ring row needs
/// only its tile row.
fn extent(size: Size, (cw, ch): (u16, u16)) -> (u16, u16) {
    let (w, h) = (size.width() as u16 + 2, size.height() as u16 + 2);
    (w * cw, (h - 1) * ch + 1)
}

fn minimum(size: Size) -> (u16, u16) {
    extent(size, (2, 1))
}

/// The screen split: title, board, status, message, keys.
fn split(area: Rect) -> [Rect; 5] {
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area)
}

/// The board layout for a terminal of `area` (for mouse input).
pub fn board_layout(area: Rect, size: Size) -> Option<BoardLayout> {
    BoardLayout::fit(split(area)[1], size)
}

pub fn draw(frame: &mut Frame, app: &ShisenApp, ascii: bool, now: Instant) {
    let [title, main, status, message, keys] = split(frame.area());
    let board = app.shown_board();
    let rules = app.rules();
    let mut name = format!(" tessera · Shisen-Sho {}", board.size());
    if rules.matching == shisen::Matching::Chinese {
        name.push_str(" · Chinese set");
    }
    if rules.gravity {
        name.push_str(" · gravity");
    }
    name.push_str(&format!(" · seed {} ", app.seed()));
    frame.render_widget(Line::from(name).bold().centered(), title);
    let Some(layout) = BoardLayout::fit(main, board.size()) else {
        return too_small(frame, minimum(board.size()));
    };
    draw_board(frame.buffer_mut(), app, &layout, ascii);
    if let Some(flash) = app.flash() {
        draw_path(frame.buffer_mut(), &layout, flash.path.points());
    }
    frame.render_widget(status_line(app, now), status);
    // A stuck game says where it was lost rather than only that it is.
    let text = app.loss_text().unwrap_or_else(|| app.message().to_string());
    let style = if app.game().is_stuck() {
        Style::new().red().bold()
    } else {
        Style::new().yellow()
    };
    frame.render_widget(Line::styled(format!(" {text}"), style), message);
    frame.render_widget(keys_line(KEYS, keys.width), keys);
    if app.game().is_won() && app.flash().is_none() {
        draw_win(frame, app, now);
    }
}

fn status_line(app: &ShisenApp, now: Instant) -> Line<'static> {
    let game = app.game();
    let elapsed = app.elapsed(now);
    let text = format!(
        " Tiles {}   Pairs {}   Time {}   Score {}   ",
        game.board().tiles_left(),
        game.board().count_moves(),
        super::clock::format(elapsed),
        game.score(elapsed.as_secs()),
    );
    let outlook = match app.outlook() {
        Outlook::Checking => "checking…".dim(),
        Outlook::Solvable => "solvable".green(),
        Outlook::NoSolution => "no solution from here".red().bold(),
        Outlook::Unknown => "solvable: unknown".dim(),
    };
    Line::from(vec![text.into(), outlook])
}

fn draw_board(buf: &mut Buffer, app: &ShisenApp, layout: &BoardLayout, ascii: bool) {
    let board = app.shown_board();
    let flash = app.flash().map(|f| f.path.points());
    let ends = flash.map(|p| [p[0], p[p.len() - 1]]);
    let hint = app.hint().map(|m| [m.a, m.b]);
    for (p, kind) in board.tiles() {
        let mut style = face_style(kind, ascii);
        if ends.is_some_and(|e| e.contains(&p)) || app.selected() == Some(p) {
            style = style.fg(Color::Black).bg(Color::Yellow);
        } else if hint.is_some_and(|h| h.contains(&p)) {
            style = style.fg(Color::Black).bg(Color::Cyan);
        }
        let (x, y) = layout.anchor(p);
        draw_tile(buf, x, y, kind, style, ascii);
    }
    if app.flash().is_none() && !app.game().is_won() {
        draw_cursor(buf, layout, app.cursor());
    }
}

/// One tile: a glyph (its second column skipped when the glyph is narrow,
/// see the module documentation) or two letters.
fn draw_tile(buf: &mut Buffer, x: u16, y: u16, kind: Kind, style: Style, ascii: bool) {
    if ascii {
        buf.set_string(x, y, ascii_name(kind), style);
        return;
    }
    let glyph = kind.glyph().to_string();
    let narrow = Span::raw(glyph.as_str()).width() == 1;
    buf.set_string(x, y, &glyph, style);
    if narrow {
        if let Some(cell) = buf.cell_mut((x + 1, y)) {
            cell.set_symbol(" ").set_style(style).set_skip(true);
        }
    }
}

/// Brackets around the cursor's cell when there is room, else an
/// underline on the tile.
fn draw_cursor(buf: &mut Buffer, layout: &BoardLayout, p: Point) {
    let (x, y) = layout.anchor(p);
    let style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
    if layout.cell.0 >= TILE_WIDTH + 2 {
        buf.set_string(x - 1, y, "[", style);
        buf.set_string(x + TILE_WIDTH, y, "]", style);
    } else {
        let rect = Rect::new(x, y, TILE_WIDTH, 1);
        buf.set_style(
            rect,
            Style::new().add_modifier(Modifier::UNDERLINED | Modifier::REVERSED),
        );
    }
}

/// The path of a removal, through the tiles' first columns, drawn with box
/// lines; the end tiles themselves stay visible.
fn draw_path(buf: &mut Buffer, layout: &BoardLayout, points: &[Point]) {
    let style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
    let anchors: Vec<(u16, u16)> = points.iter().map(|&p| layout.anchor(p)).collect();
    let last = anchors.len() - 1;
    let on_end = |x: u16, y: u16| {
        [anchors[0], anchors[last]]
            .iter()
            .any(|&(ex, ey)| y == ey && (ex..ex + TILE_WIDTH).contains(&x))
    };
    for pair in anchors.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let symbol = if y0 == y1 { "─" } else { "│" };
        for x in x0.min(x1)..=x0.max(x1) {
            for y in y0.min(y1)..=y0.max(y1) {
                if !on_end(x, y) {
                    buf.set_string(x, y, symbol, style);
                }
            }
        }
    }
    for i in 1..last {
        let corner = corner(anchors[i - 1], anchors[i], anchors[i + 1]);
        buf.set_string(anchors[i].0, anchors[i].1, corner, style);
    }
}

/// The box-drawing corner at `at` joining the segments from `from` and to
/// `to`.
fn corner(from: (u16, u16), at: (u16, u16), to: (u16, u16)) -> &'static str {
    let side = |p: (u16, u16)| (p.0.cmp(&at.0), p.1.cmp(&at.1));
    use std::cmp::Ordering::{Equal, Greater, Less};
    let mut sides = [side(from), side(to)];
    sides.sort();
    match sides {
        [(Less, Equal), (Equal, Less)] => "┘",
        [(Less, Equal), (Equal, Greater)] => "┐",
        [(Equal, Less), (Greater, Equal)] => "└",
        [(Equal, Greater), (Greater, Equal)] => "┌",
        _ => "┼",
    }
}

/// Colours by family, so suits can be told apart at a glance.
fn face_style(kind: Kind, ascii: bool) -> Style {
    let colour = match kind.face() {
        Face::Suited {
            suit: Suit::Circles,
            ..
        } => Color::LightBlue,
        Face::Suited {
            suit: Suit::Bamboo, ..
        } => Color::LightGreen,
        Face::Suited {
            suit: Suit::Characters,
            ..
        } => Color::LightRed,
        Face::Wind(_) | Face::Dragon(_) => Color::LightMagenta,
        Face::Flower(_) | Face::Season(_) => Color::LightYellow,
        Face::Plain => Color::White,
    };
    let style = Style::new().fg(colour).add_modifier(Modifier::BOLD);
    if ascii {
        style.bg(Color::Rgb(40, 40, 40))
    } else {
        style
    }
}

/// Two-letter names: rank and suit as in mahjong notation (5p circles,
/// 5s bamboo, 5m characters), winds and dragons by initials, F1–F4 and
/// S1–S4 for flowers and seasons.
pub fn ascii_name(kind: Kind) -> String {
    match kind.face() {
        Face::Suited { suit, rank } => {
            let letter = match suit {
                Suit::Circles => 'p',
                Suit::Bamboo => 's',
                Suit::Characters => 'm',
            };
            format!("{rank}{letter}")
        }
        Face::Wind(wind) => match wind {
            Wind::East => "Ea",
            Wind::South => "So",
            Wind::West => "We",
            Wind::North => "No",
        }
        .to_string(),
        Face::Dragon(dragon) => match dragon {
            Dragon::Red => "Rd",
            Dragon::Green => "Gd",
            Dragon::White => "Wd",
        }
        .to_string(),
        Face::Flower(n) => format!("F{n}"),
        Face::Season(n) => format!("S{n}"),
        Face::Plain => format!("{} ", kind.symbol()),
    }
}

fn draw_win(frame: &mut Frame, app: &ShisenApp, now: Instant) {
    let elapsed = app.elapsed(now);
    let stats = app.game().stats();
    let lines = vec![
        Line::from("Board cleared!").bold().green().centered(),
        Line::from(""),
        Line::from(format!(
            "Time {}   Score {}",
            super::clock::format(elapsed),
            app.game().score(elapsed.as_secs())
        ))
        .centered(),
        Line::from(format!(
            "{} hints · {} undos · {} shuffles",
            stats.hints, stats.undos, stats.shuffles
        ))
        .dim()
        .centered(),
        Line::from(""),
        Line::from("n new deal · q quit").dim().centered(),
    ];
    let rect = centered(frame.area(), 44, lines.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(Block::bordered()), rect);
}
