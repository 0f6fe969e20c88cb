//! Pieces of screen shared by both games.

use ratatui::layout::Rect;
use ratatui::style::Stylize;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

/// A `width × height` rectangle centred in `area` (clipped to it).
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let (w, h) = (width.min(area.width), height.min(area.height));
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// `key action · key action …`, keys bold; the dots give way to plain
/// spaces when the line would not fit in `width` columns.
pub fn keys_line(keys: &[(&str, &str)], width: u16) -> Line<'static> {
    let full: usize = keys
        .iter()
        .map(|(k, a)| Span::raw(format!(" · {k} {a}")).width())
        .sum();
    let separator = if full < usize::from(width) {
        " · "
    } else {
        "  "
    };
    let mut spans = vec![Span::raw(" ")];
    for (i, (key, action)) in keys.iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw(separator).dim());
        }
        spans.push(Span::raw(key.to_string()).bold().cyan());
        spans.push(Span::raw(format!(" {action}")));
    }
    Line::from(spans)
}

/// Said instead of the board when the terminal cannot hold it.
pub fn too_small(frame: &mut Frame, (width, height): (u16, u16)) {
    let text = format!(
        "The terminal is too small for this board: it needs {} × {} (now {} × {}). \
         Enlarge the window, or press q to quit.",
        width,
        height + 3,
        frame.area().width,
        frame.area().height
    );
    let area = centered(frame.area(), frame.area().width, 4);
    frame.render_widget(
        Paragraph::new(text).centered().wrap(Wrap { trim: true }),
        area,
    );
}
