//! Input mapping: terminal events to game actions. Pure functions of the
//! event (and, for the mouse, of where the board is drawn), so every
//! binding is testable without a terminal.

use super::shisen_app::ShisenAction;
use super::slide_app::SlideAction;
use super::{shisen_view, slide_view};
use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use slide::Direction;

/// A key press (repeats included; releases ignored), with Ctrl-C as quit.
fn pressed(event: &Event) -> Option<(KeyCode, KeyModifiers)> {
    match event {
        Event::Key(KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press | KeyEventKind::Repeat,
            ..
        }) => Some((*code, *modifiers)),
        _ => None,
    }
}

fn is_ctrl_c(code: KeyCode, modifiers: KeyModifiers) -> bool {
    code == KeyCode::Char('c') && modifiers.contains(KeyModifiers::CONTROL)
}

/// A left click's screen position.
fn clicked(event: &Event) -> Option<(u16, u16)> {
    match event {
        Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            ..
        }) => Some((*column, *row)),
        _ => None,
    }
}

/// The sliding puzzle's keys. A direction is the way the tile moves (the
/// blank goes the other way): ↑ slides the tile below the blank up.
/// Lower-case `s` solves, so WASD's "down" is capital `S` (w, a and d work
/// in either case).
pub fn slide_action(
    event: &Event,
    layout: Option<&slide_view::BoardLayout>,
) -> Option<SlideAction> {
    if let Some((col, row)) = clicked(event) {
        return layout?.cell_at(col, row).map(SlideAction::SlideTo);
    }
    let (code, modifiers) = pressed(event)?;
    if is_ctrl_c(code, modifiers) {
        return Some(SlideAction::Quit);
    }
    let action = match code {
        KeyCode::Up | KeyCode::Char('k' | 'w' | 'W') => SlideAction::Move(Direction::Up),
        KeyCode::Down | KeyCode::Char('j' | 'S') => SlideAction::Move(Direction::Down),
        KeyCode::Left | KeyCode::Char('h' | 'a' | 'A') => SlideAction::Move(Direction::Left),
        KeyCode::Right | KeyCode::Char('l' | 'd' | 'D') => SlideAction::Move(Direction::Right),
        KeyCode::Char('?') => SlideAction::Hint,
        KeyCode::Char('s') => SlideAction::Solve,
        KeyCode::Char('u') | KeyCode::Backspace => SlideAction::Undo,
        KeyCode::Char('n') => SlideAction::New,
        KeyCode::Char('r') => SlideAction::Restart,
        KeyCode::Char('g') => SlideAction::ToggleGoal,
        KeyCode::Char('c') => SlideAction::NextColours,
        KeyCode::Char('m') => SlideAction::ToggleMetric,
        KeyCode::Char('q') => SlideAction::Quit,
        _ => return None,
    };
    Some(action)
}

/// Shisen-Sho's keys: arrows or hjkl move the cursor, Enter or Space
/// picks; `u` undo, `r` (or Ctrl-R) redo, `x` shuffle.
pub fn shisen_action(
    event: &Event,
    layout: Option<&shisen_view::BoardLayout>,
) -> Option<ShisenAction> {
    if let Some((col, row)) = clicked(event) {
        return layout?.point_at(col, row).map(ShisenAction::Click);
    }
    let (code, modifiers) = pressed(event)?;
    if is_ctrl_c(code, modifiers) {
        return Some(ShisenAction::Quit);
    }
    let action = match code {
        KeyCode::Up | KeyCode::Char('k') => ShisenAction::Cursor(0, -1),
        KeyCode::Down | KeyCode::Char('j') => ShisenAction::Cursor(0, 1),
        KeyCode::Left | KeyCode::Char('h') => ShisenAction::Cursor(-1, 0),
        KeyCode::Right | KeyCode::Char('l') => ShisenAction::Cursor(1, 0),
        KeyCode::Enter | KeyCode::Char(' ') => ShisenAction::Select,
        KeyCode::Esc => ShisenAction::Cancel,
        KeyCode::Char('?') => ShisenAction::Hint,
        KeyCode::Char('u') => ShisenAction::Undo,
        KeyCode::Char('r') => ShisenAction::Redo,
        KeyCode::Char('x') => ShisenAction::Shuffle,
        KeyCode::Char('n') => ShisenAction::New,
        KeyCode::Char('q') => ShisenAction::Quit,
        _ => return None,
    };
    Some(action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use shisen::Point;

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn click(column: u16, row: u16) -> Event {
        Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    }

    #[test]
    fn slide_keys() {
        let moves = [
            (KeyCode::Up, Direction::Up),
            (KeyCode::Char('k'), Direction::Up),
            (KeyCode::Char('w'), Direction::Up),
            (KeyCode::Char('j'), Direction::Down),
            (KeyCode::Char('S'), Direction::Down),
            (KeyCode::Left, Direction::Left),
            (KeyCode::Char('a'), Direction::Left),
            (KeyCode::Char('l'), Direction::Right),
            (KeyCode::Char('d'), Direction::Right),
        ];
        for (code, direction) in moves {
            assert_eq!(
                slide_action(&key(code), None),
                Some(SlideAction::Move(direction)),
                "{code:?}"
            );
        }
        assert_eq!(
            slide_action(&key(KeyCode::Char('s')), None),
            Some(SlideAction::Solve)
        );
        assert_eq!(
            slide_action(&key(KeyCode::Char('?')), None),
            Some(SlideAction::Hint)
        );
        assert_eq!(
            slide_action(&key(KeyCode::Char('q')), None),
            Some(SlideAction::Quit)
        );
        assert_eq!(
            slide_action(&key(KeyCode::Char('c')), None),
            Some(SlideAction::NextColours)
        );
        assert_eq!(
            slide_action(&key(KeyCode::Char('m')), None),
            Some(SlideAction::ToggleMetric)
        );
        let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert_eq!(slide_action(&ctrl_c, None), Some(SlideAction::Quit));
        assert_eq!(slide_action(&key(KeyCode::Char('z')), None), None);
    }

    #[test]
    fn slide_click_maps_to_the_cell_drawn_there() {
        let size: slide::Size = "4x4".parse().unwrap();
        let area = Rect::new(0, 0, 80, 24);
        let layout = slide_view::board_layout(area, size).unwrap();
        for cell in 0..16 {
            let rect = layout.tile_rect(cell);
            let corner = click(rect.x + rect.width - 1, rect.y + rect.height - 1);
            assert_eq!(
                slide_action(&corner, Some(&layout)),
                Some(SlideAction::SlideTo(cell))
            );
        }
        assert_eq!(slide_action(&click(0, 0), Some(&layout)), None);
    }

    #[test]
    fn shisen_keys_and_clicks() {
        assert_eq!(
            shisen_action(&key(KeyCode::Char('h')), None),
            Some(ShisenAction::Cursor(-1, 0))
        );
        assert_eq!(
            shisen_action(&key(KeyCode::Enter), None),
            Some(ShisenAction::Select)
        );
        assert_eq!(
            shisen_action(&key(KeyCode::Char('x')), None),
            Some(ShisenAction::Shuffle)
        );
        let size = shisen::Size::DEFAULT;
        let layout = shisen_view::board_layout(Rect::new(0, 0, 80, 24), size).unwrap();
        for p in [Point::new(0, 0), Point::new(17, 7), Point::new(5, 3)] {
            let (x, y) = layout.anchor(p);
            for dx in 0..2 {
                assert_eq!(
                    shisen_action(&click(x + dx, y), Some(&layout)),
                    Some(ShisenAction::Click(p))
                );
            }
        }
        // The ring is not a tile.
        let (x, y) = layout.anchor(Point::new(-1, 0));
        assert_eq!(shisen_action(&click(x, y), Some(&layout)), None);
    }
}
