//! The Shisen-Sho game being played: the engine's [`Game`] plus what the
//! interface adds — a cursor, a selected tile, the path shown for a moment
//! after a removal, the hint shown, the clock. No terminal here: rendering
//! reads this state and input produces [`ShisenAction`]s; whether two
//! tiles may go is always the engine's answer.

use super::clock::Clock;
use shisen::{Board, Deal, Game, Move, MoveError, Path, Point, Rules, Size, TileSet};
use std::time::{Duration, Instant};

/// What the player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShisenAction {
    /// Move the cursor by (dx, dy), staying on the board.
    Cursor(i32, i32),
    /// Select the tile under the cursor (or pair it with the selected one).
    Select,
    /// Select the tile at this cell (a mouse click).
    Click(Point),
    /// Drop the selection.
    Cancel,
    Hint,
    Undo,
    Redo,
    Shuffle,
    New,
    Quit,
}

/// How long a removed pair and its path stay on screen.
pub const FLASH: Duration = Duration::from_millis(600);

/// A removal being shown: the board as it was and the path that joined the
/// pair.
#[derive(Clone, Debug)]
pub struct Flash {
    pub board: Board,
    pub path: Path,
    pub until: Instant,
}

pub struct ShisenApp {
    size: Size,
    tiles: TileSet,
    rules: Rules,
    seed: u64,
    game: Game,
    cursor: Point,
    selected: Option<Point>,
    flash: Option<Flash>,
    hint: Option<Move>,
    clock: Clock,
    message: String,
    quit: bool,
}

impl ShisenApp {
    /// A deal of `size` from `seed`; `chinese` picks the Chinese set and
    /// its matching rule.
    pub fn new(size: Size, chinese: bool, gravity: bool, seed: u64) -> Result<ShisenApp, String> {
        let tiles = if chinese {
            TileSet::Chinese
        } else {
            TileSet::Standard
        };
        let rules = Rules {
            matching: tiles.matching(),
            gravity,
        };
        let board = Deal::random(seed, size, tiles).map_err(|e| e.to_string())?;
        Ok(ShisenApp {
            size,
            tiles,
            rules,
            seed,
            game: Game::new(board, rules),
            cursor: Point::new(0, 0),
            selected: None,
            flash: None,
            hint: None,
            clock: Clock::default(),
            message: String::new(),
            quit: false,
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The board to draw: the one before the last removal while its path
    /// is shown, else the current one.
    pub fn shown_board(&self) -> &Board {
        self.flash.as_ref().map_or(self.game.board(), |f| &f.board)
    }

    pub fn flash(&self) -> Option<&Flash> {
        self.flash.as_ref()
    }

    pub fn cursor(&self) -> Point {
        self.cursor
    }

    pub fn selected(&self) -> Option<Point> {
        self.selected
    }

    pub fn hint(&self) -> Option<Move> {
        self.hint
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn elapsed(&self, now: Instant) -> Duration {
        self.clock.elapsed(now)
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// When the screen must change next without input: the end of a flash.
    pub fn wake_at(&self) -> Option<Instant> {
        self.flash.as_ref().map(|f| f.until)
    }

    /// Ends a flash whose time is up.
    pub fn tick(&mut self, now: Instant) {
        if self.flash.as_ref().is_some_and(|f| now >= f.until) {
            self.flash = None;
        }
    }

    pub fn handle(&mut self, action: ShisenAction, now: Instant) {
        // A new action ends the flash at once: the player has seen enough.
        self.flash = None;
        self.message.clear();
        match action {
            ShisenAction::Quit => self.quit = true,
            ShisenAction::New => self.deal(self.seed.wrapping_add(1)),
            _ if self.game.is_won() => {}
            ShisenAction::Cursor(dx, dy) => self.move_cursor(dx, dy),
            ShisenAction::Select => self.select(self.cursor, now),
            ShisenAction::Click(p) => {
                if self.game.board().contains(p) {
                    self.cursor = p;
                    self.select(p, now);
                }
            }
            ShisenAction::Cancel => self.selected = None,
            ShisenAction::Hint => self.show_hint(),
            ShisenAction::Undo => self.travel(Game::undo, "nothing to undo"),
            ShisenAction::Redo => self.travel(Game::redo, "nothing to redo"),
            ShisenAction::Shuffle => self.shuffle(now),
        }
        if self.game.is_stuck() && self.message.is_empty() {
            self.message = "no pair can be removed: x shuffles, u undoes".into();
        }
    }

    fn move_cursor(&mut self, dx: i32, dy: i32) {
        let (w, h) = (self.size.width() as i32, self.size.height() as i32);
        self.cursor = Point::new(
            (self.cursor.x + dx).clamp(0, w - 1),
            (self.cursor.y + dy).clamp(0, h - 1),
        );
    }

    fn select(&mut self, p: Point, now: Instant) {
        let Some(first) = self.selected else {
            if self.game.board().get(p).is_some() {
                self.selected = Some(p);
            }
            return;
        };
        if first == p {
            self.selected = None;
            return;
        }
        let before = self.game.board().clone();
        match self.game.remove(first, p) {
            Ok(path) => {
                self.selected = None;
                self.hint = None;
                self.clock.start(now);
                self.flash = Some(Flash {
                    board: before,
                    path,
                    until: now + FLASH,
                });
                if self.game.is_won() {
                    self.clock.stop(now);
                }
            }
            Err(MoveError::NoTile(_)) => {}
            Err(e) => {
                self.message = e.to_string();
                self.selected = Some(p);
            }
        }
    }

    fn show_hint(&mut self) {
        self.hint = self.game.hint();
        match self.hint {
            Some(m) => self.cursor = m.a,
            None => self.message = "no pair can be removed: x shuffles, u undoes".into(),
        }
    }

    fn travel(&mut self, step: fn(&mut Game) -> bool, none: &str) {
        if step(&mut self.game) {
            self.selected = None;
            self.hint = None;
        } else {
            self.message = none.into();
        }
    }

    fn shuffle(&mut self, now: Instant) {
        // Each shuffle of a deal draws from its own seed, so a replay of
        // the same keys shuffles the same way.
        let n = u64::from(self.game.stats().shuffles) + 1;
        self.game
            .shuffle(self.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.clock.start(now);
        self.selected = None;
        self.hint = None;
        self.message = "shuffled".into();
    }

    fn deal(&mut self, seed: u64) {
        let board = Deal::random(seed, self.size, self.tiles)
            .expect("the first deal of this size and set succeeded");
        self.seed = seed;
        self.game = Game::new(board, self.rules);
        self.cursor = Point::new(0, 0);
        self.selected = None;
        self.hint = None;
        self.clock = Clock::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(seed: u64) -> ShisenApp {
        ShisenApp::new(Size::new(6, 4).unwrap(), false, false, seed).unwrap()
    }

    #[test]
    fn the_cursor_stays_on_the_board() {
        let mut app = app(1);
        let now = Instant::now();
        app.handle(ShisenAction::Cursor(-1, 0), now);
        assert_eq!(app.cursor(), Point::new(0, 0));
        for _ in 0..10 {
            app.handle(ShisenAction::Cursor(1, 1), now);
        }
        assert_eq!(app.cursor(), Point::new(5, 3));
    }

    /// Selects `m` with the cursor: move there, Enter, move, Enter.
    fn play_with_cursor(app: &mut ShisenApp, m: Move, now: Instant) {
        for p in [m.a, m.b] {
            let c = app.cursor();
            app.handle(ShisenAction::Cursor(p.x - c.x, p.y - c.y), now);
            app.handle(ShisenAction::Select, now);
        }
    }

    #[test]
    fn two_selections_remove_a_pair_and_show_its_path() {
        let t0 = Instant::now();
        let mut app = app(2);
        let m = app.game().board().moves()[0];
        let before = app.game().board().clone();
        play_with_cursor(&mut app, m, t0);
        assert_eq!(app.game().board().tiles_left(), before.tiles_left() - 2);
        assert_eq!(app.game().board().get(m.a), None);
        let flash = app.flash().expect("the path is shown");
        assert_eq!(flash.path.points().first(), Some(&m.a));
        assert_eq!(app.shown_board(), &before);
        app.tick(t0 + FLASH);
        assert!(app.flash().is_none());
        assert_eq!(app.shown_board(), app.game().board());
        app.handle(ShisenAction::Undo, t0);
        assert_eq!(app.game().board(), &before);
        app.handle(ShisenAction::Redo, t0);
        assert_eq!(app.game().board().tiles_left(), before.tiles_left() - 2);
    }

    #[test]
    fn a_mismatch_is_refused_with_the_reason_and_moves_the_selection() {
        let mut app = app(3);
        let board = app.game().board().clone();
        let (p, kp) = board.tiles().next().unwrap();
        let (q, _) = board.tiles().find(|&(_, k)| k != kp).unwrap();
        let now = Instant::now();
        app.handle(ShisenAction::Click(p), now);
        assert_eq!(app.selected(), Some(p));
        app.handle(ShisenAction::Click(q), now);
        assert_eq!(app.game().board(), &board);
        assert!(app.message().contains("do not match"), "{}", app.message());
        assert_eq!(app.selected(), Some(q));
        app.handle(ShisenAction::Click(q), now);
        assert_eq!(app.selected(), None, "a second click on a tile drops it");
    }

    #[test]
    fn hint_points_at_a_removable_pair() {
        let mut app = app(4);
        app.handle(ShisenAction::Hint, Instant::now());
        let m = app.hint().expect("a fresh deal has moves");
        assert!(app.game().board().is_move(m.a, m.b));
        assert_eq!(app.cursor(), m.a);
        assert_eq!(app.game().stats().hints, 1);
    }

    #[test]
    fn following_hints_clears_small_boards_or_gets_stuck_and_says_so() {
        let now = Instant::now();
        for seed in 0..20 {
            let mut app = app(seed);
            loop {
                app.handle(ShisenAction::Hint, now);
                let Some(m) = app.hint() else { break };
                play_with_cursor(&mut app, m, now);
            }
            if app.game().is_won() {
                assert_eq!(app.game().board().tiles_left(), 0);
            } else {
                assert!(app.game().is_stuck());
                assert!(app.message().contains("shuffles"));
                let left = app.game().board().tiles_left();
                app.handle(ShisenAction::Shuffle, now);
                assert_eq!(app.game().board().tiles_left(), left);
                assert_eq!(app.game().stats().shuffles, 1);
            }
        }
    }

    #[test]
    fn new_deals_the_next_seed() {
        let mut app = app(5);
        app.handle(ShisenAction::Click(Point::new(0, 0)), Instant::now());
        app.handle(ShisenAction::New, Instant::now());
        assert_eq!(app.seed(), 6);
        assert_eq!(app.selected(), None);
        let expected = Deal::random(6, Size::new(6, 4).unwrap(), TileSet::Standard).unwrap();
        assert_eq!(app.game().board(), &expected);
    }
}
