//! Drawing the sliding puzzle: the board as coloured tiles (green when in
//! their goal cell), the goal beside it, the move counter and timer, the
//! keys, and a win screen. [`BoardLayout`] is shared with input so that a
//! mouse click maps to the cell drawn under it.

use super::slide_app::SlideApp;
use super::widgets::{centered, keys_line, too_small};
use picture::scheme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;
use slide::{Position, Size, BLANK};
use std::time::Instant;

/// Where the tiles of a board are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardLayout {
    size: Size,
    origin: (u16, u16),
    tile: (u16, u16),
    gap: (u16, u16),
}

/// The keys, as shown at the bottom.
const KEYS: &[(&str, &str)] = &[
    ("←↑↓→ hjkl WASD", "move"),
    ("?", "hint"),
    ("s", "solve"),
    ("u", "undo"),
    ("n", "new"),
    ("r", "restart"),
    ("g", "goal"),
    ("q", "quit"),
];

/// Shown before `q` on terminals wide enough for more keys (80 columns
/// hold only the line above).
const COLOURS_KEY: (&str, &str) = ("c", "colours");

impl BoardLayout {
    /// The largest tiles for which `size` fits in `area` (centred), or
    /// `None` when even the smallest do not fit.
    pub fn fit(area: Rect, size: Size) -> Option<BoardLayout> {
        let digits = (size.cells() - 1).to_string().len() as u16;
        let options = [
            ((digits + 4, 3), (1, 1)),
            ((digits + 2, 1), (1, 1)),
            ((digits + 2, 1), (1, 0)),
            ((digits, 1), (1, 0)),
        ];
        options.into_iter().find_map(|(tile, gap)| {
            let (w, h) = extent(size, tile, gap);
            (w <= area.width && h <= area.height).then(|| BoardLayout {
                size,
                origin: (
                    area.x + (area.width - w) / 2,
                    area.y + (area.height - h) / 2,
                ),
                tile,
                gap,
            })
        })
    }

    /// The smallest area the board needs (for the "too small" message).
    pub fn minimum(size: Size) -> (u16, u16) {
        let digits = (size.cells() - 1).to_string().len() as u16;
        extent(size, (digits, 1), (1, 0))
    }

    /// The screen rectangle of `cell`'s tile.
    pub fn tile_rect(&self, cell: usize) -> Rect {
        let (x, y) = self.size.coords(cell);
        Rect::new(
            self.origin.0 + x as u16 * (self.tile.0 + self.gap.0),
            self.origin.1 + y as u16 * (self.tile.1 + self.gap.1),
            self.tile.0,
            self.tile.1,
        )
    }

    /// The whole board's rectangle.
    pub fn area(&self) -> Rect {
        let (w, h) = extent(self.size, self.tile, self.gap);
        Rect::new(self.origin.0, self.origin.1, w, h)
    }

    /// The cell drawn at screen column `col`, row `row` (gaps belong to no
    /// cell).
    pub fn cell_at(&self, col: u16, row: u16) -> Option<usize> {
        let dx = col.checked_sub(self.origin.0)?;
        let dy = row.checked_sub(self.origin.1)?;
        let (sx, sy) = (self.tile.0 + self.gap.0, self.tile.1 + self.gap.1);
        let (x, y) = ((dx / sx) as usize, (dy / sy) as usize);
        let inside = dx % sx < self.tile.0 && dy % sy < self.tile.1;
        (inside && x < self.size.width() && y < self.size.height()).then(|| self.size.cell(x, y))
    }
}

fn extent(size: Size, tile: (u16, u16), gap: (u16, u16)) -> (u16, u16) {
    let (w, h) = (size.width() as u16, size.height() as u16);
    (
        w.saturating_mul(tile.0 + gap.0).saturating_sub(gap.0),
        h.saturating_mul(tile.1 + gap.1).saturating_sub(gap.1),
    )
}

/// The screen split: title, main (board and goal), status, keys.
fn split(area: Rect) -> [Rect; 4] {
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area)
}

/// Where the board goes in the main area and, room permitting, the goal
/// box beside it: the two centred together.
struct Placement {
    board: BoardLayout,
    goal: Option<Rect>,
}

/// Width of the goal box beside the board (border and a gap included).
fn goal_box(size: Size) -> (u16, u16) {
    let (w, h) = BoardLayout::minimum(size);
    (w + 6, h + 2)
}

fn place(main: Rect, size: Size) -> Option<Placement> {
    let mut board = BoardLayout::fit(Block::bordered().inner(main), size)?;
    // The board takes the largest tiles that fit; the goal goes beside it
    // only if there is room left (else `g` shows it in the board's place).
    let (goal_w, goal_h) = goal_box(size);
    let total = board.area().width + 2 + goal_w;
    if total > main.width || goal_h > main.height {
        return Some(Placement { board, goal: None });
    }
    let left = main.x + (main.width - total) / 2;
    board.origin.0 = left + 1;
    let board_box = board.area().inner_outset();
    let goal = Rect::new(board_box.right() + 2, board_box.y, goal_w - 2, goal_h);
    Some(Placement {
        board,
        goal: Some(goal),
    })
}

/// The board's layout on a terminal of `area` (also for mouse input).
pub fn board_layout(area: Rect, size: Size) -> Option<BoardLayout> {
    place(split(area)[1], size).map(|p| p.board)
}

pub fn draw(frame: &mut Frame, app: &SlideApp, now: Instant) {
    let size = app.position().size();
    let [title, main, status, keys] = split(frame.area());
    let (index, count) = app.progress();
    // A format of several puzzles: which one this is, e.g. `relay-4 1/2`.
    let format = if count > 1 {
        format!(" · {} {}/{count}", app.format(), index + 1)
    } else {
        String::new()
    };
    let name = format!(
        " tessera · sliding puzzle {size}{format} · goal {} · seed {} ",
        app.goal_name(),
        app.seed()
    );
    frame.render_widget(Line::from(name).bold().centered(), title);
    let Some(placement) = place(main, size) else {
        return too_small(frame, BoardLayout::minimum(size));
    };
    let layout = placement.board;
    let board_box = layout.area().inner_outset();
    let (label, shown) = if app.showing_goal() {
        (" Goal (g: back to the board) ", app.goal())
    } else {
        (" Board ", app.position())
    };
    let frame_style = Style::new().dim();
    frame.render_widget(
        Block::bordered().title(label).border_style(frame_style),
        board_box,
    );
    draw_tiles(frame.buffer_mut(), app, shown, &layout);
    if let Some(goal_area) = placement.goal {
        draw_goal(frame, app.goal(), goal_area);
    }
    // A format counts the moves of all its puzzles, on one clock.
    let (stm, mtm) = app.total_moves();
    let counters = format!(
        " Moves {stm} STM · {mtm} MTM   Time {}   ",
        super::clock::format(app.elapsed(now)),
    );
    let message = if app.is_thinking() || app.is_solving() {
        app.message().to_string().yellow()
    } else {
        app.message().to_string().into()
    };
    frame.render_widget(Line::from(vec![counters.into(), message]), status);
    let mut shown = KEYS.to_vec();
    if keys.width >= 92 {
        shown.insert(shown.len() - 1, COLOURS_KEY);
    }
    if keys.width >= 106 {
        // The key shows the metric hints are shortest in now.
        let metric = match app.metric() {
            slide::Metric::Stm => "hints: STM",
            slide::Metric::Mtm => "hints: MTM",
        };
        shown.insert(shown.len() - 1, ("m", metric));
    }
    frame.render_widget(keys_line(&shown, keys.width), keys);
    if app.is_won() {
        draw_win(frame, app, now);
    }
}

/// The tiles of `position` (the game's, or the goal's when asked for).
fn draw_tiles(buf: &mut Buffer, app: &SlideApp, position: &Position, layout: &BoardLayout) {
    let hint = app
        .hint()
        .map(|(cell, _)| cell)
        .filter(|_| !app.showing_goal());
    let goal = app.goal();
    // Coloured by the tiles' homes, as `slide render` draws them.
    let fills = app.scheme().map(|scheme| scheme.fills(goal));
    for (cell, &tile) in position.tiles().iter().enumerate() {
        if tile == BLANK {
            continue;
        }
        let style = if Some(cell) == hint {
            Style::new().fg(Color::Black).bg(Color::Yellow)
        } else if let Some(fills) = &fills {
            let fill = fills[tile as usize];
            Style::new().fg(rgb(fill.text())).bg(rgb(fill))
        } else if goal.tiles()[cell] == tile {
            Style::new().fg(Color::Black).bg(Color::Green)
        } else {
            Style::new().fg(Color::White).bg(Color::Blue)
        };
        let rect = layout.tile_rect(cell);
        buf.set_style(rect, style.add_modifier(Modifier::BOLD));
        let label = tile.to_string();
        let x = rect.x + (rect.width - label.len() as u16).div_ceil(2);
        buf.set_string(x, rect.y + rect.height / 2, label, style);
    }
}

fn rgb(colour: scheme::Rgb) -> Color {
    Color::Rgb(colour.0, colour.1, colour.2)
}

/// The goal, small and plain, so the player knows where tiles go.
fn draw_goal(frame: &mut Frame, goal: &Position, area: Rect) {
    let (w, _) = BoardLayout::minimum(goal.size());
    let rect = area;
    frame.render_widget(
        Block::bordered()
            .title(" Goal ")
            .border_style(Style::new().dim()),
        rect,
    );
    let digits = w as usize / goal.size().width();
    let lines: Vec<Line> = (0..goal.size().height())
        .map(|y| {
            let row: Vec<String> = (0..goal.size().width())
                .map(|x| match goal.tile_at(x, y) {
                    BLANK => format!("{:>digits$}", "·"),
                    tile => format!("{tile:>digits$}"),
                })
                .collect();
            Line::from(row.join(" "))
        })
        .collect();
    let inner = Block::bordered().inner(rect);
    frame.render_widget(Paragraph::new(lines), inner.inner(Margin::new(1, 0)));
}

fn draw_win(frame: &mut Frame, app: &SlideApp, now: Instant) {
    let by = match (app.solver_used(), app.progress().1) {
        (true, _) => "Solved by the solver".to_string(),
        (false, 1) => "Solved!".to_string(),
        (false, _) => format!("{} solved!", app.format()),
    };
    let (stm, mtm) = app.total_moves();
    let mut lines = vec![
        Line::from(by).bold().green().centered(),
        Line::from(""),
        Line::from(format!(
            "{stm} moves ({mtm} MTM) in {}",
            super::clock::format(app.elapsed(now))
        ))
        .centered(),
    ];
    // A format's splits: when each puzzle was solved, on the one clock.
    if app.splits().len() > 1 {
        let splits: Vec<String> = app
            .splits()
            .iter()
            .map(|&split| super::clock::format(split))
            .collect();
        lines.push(Line::from(format!("splits {}", splits.join(" "))).centered());
    }
    lines.extend([
        Line::from(""),
        Line::from("n new puzzle · r restart · q quit")
            .dim()
            .centered(),
    ]);
    let rect = centered(frame.area(), 40, lines.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(Block::bordered()), rect);
}

trait Outset {
    fn inner_outset(self) -> Rect;
}

impl Outset for Rect {
    /// The rectangle one cell larger on every side (the border around it).
    fn inner_outset(self) -> Rect {
        Rect::new(
            self.x.saturating_sub(1),
            self.y.saturating_sub(1),
            self.width + 2,
            self.height + 2,
        )
    }
}
