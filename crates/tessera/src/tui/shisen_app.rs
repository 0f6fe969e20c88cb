//! The Shisen-Sho game being played: the session (`play::shisen_game`:
//! the deal a seed gives, shuffles, hints) plus what the interface adds —
//! a cursor, a selected tile, the path shown for a moment after a removal,
//! the hint shown, the clock. No terminal here: rendering reads this state
//! and input produces [`ShisenAction`]s; whether two tiles may go is always
//! the engine's answer.

use super::analysis::{Analysis, LossSearch};
use super::clock::Clock;
use play::shisen_game::{Loss, LossAnalysis, Session, ShisenSpec, Turn};
use play::Deadline;
use shisen::{Board, Game, Move, MoveError, Path, Point, Rules, Verdict};
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

const STUCK: &str = "stuck: no pair can be removed — x shuffles, u undoes";
const KEYS_WHEN_STUCK: &str = "— x shuffles, u undoes";

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
    spec: ShisenSpec,
    session: Session,
    cursor: Point,
    selected: Option<Point>,
    flash: Option<Flash>,
    hint: Option<Move>,
    clock: Clock,
    /// The solver at work on the current board, then its verdict.
    analysis: Option<Analysis>,
    verdict: Option<Verdict>,
    /// The game at its deal and every turn since, for the analysis of
    /// where it was lost.
    start: Session,
    turns: Vec<Turn>,
    /// Once the game is stuck: the search for where it was lost, then its
    /// answer (`None` inside when it failed).
    loss_search: Option<LossSearch>,
    loss: Option<Option<LossAnalysis>>,
    message: String,
    quit: bool,
}

/// What is known about clearing the board from here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outlook {
    /// The solver is still at it.
    Checking,
    Solvable,
    /// No order of removals clears the board.
    NoSolution,
    /// The solver gave up within its time.
    Unknown,
}

impl ShisenApp {
    /// The deal of `spec` from `seed`. Unbounded, as `tessera shisen new`:
    /// a budget could only turn a seed's deal into none, never into
    /// another deal.
    pub fn new(spec: ShisenSpec, seed: u64) -> Result<ShisenApp, String> {
        let board = spec
            .deal(seed, &mut Deadline::none())
            .map_err(|e| e.to_string())?;
        Ok(ShisenApp::with_board(board, spec, seed))
    }

    /// A game on `board`; `n` deals `spec` from the next seed.
    pub fn with_board(board: Board, spec: ShisenSpec, seed: u64) -> ShisenApp {
        let session = Session::new(board, spec.rules(), seed);
        let mut app = ShisenApp {
            spec,
            start: session.clone(),
            turns: Vec::new(),
            loss_search: None,
            loss: None,
            session,
            cursor: Point::new(0, 0),
            selected: None,
            flash: None,
            hint: None,
            clock: Clock::default(),
            analysis: None,
            verdict: None,
            message: String::new(),
            quit: false,
        };
        app.analyse();
        app
    }

    pub fn game(&self) -> &Game {
        self.session.game()
    }

    /// The board to draw: the one before the last removal while its path
    /// is shown, else the current one.
    pub fn shown_board(&self) -> &Board {
        self.flash
            .as_ref()
            .map_or(self.game().board(), |f| &f.board)
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
        self.session.seed()
    }

    pub fn rules(&self) -> Rules {
        self.spec.rules()
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

    /// Whether the board can still be cleared, as far as the solver knows.
    pub fn outlook(&self) -> Outlook {
        match &self.verdict {
            None => Outlook::Checking,
            Some(Verdict::Solvable(_)) => Outlook::Solvable,
            Some(Verdict::Unsolvable) => Outlook::NoSolution,
            Some(Verdict::Unknown) => Outlook::Unknown,
        }
    }

    /// Where the game was lost, once a stuck game's search has answered.
    #[cfg(test)]
    pub fn loss(&self) -> Option<&LossAnalysis> {
        self.loss.as_ref().and_then(Option::as_ref)
    }

    /// What the player is told about where a stuck game was lost: the
    /// losing turn and where a winning line still existed, then what to do
    /// (one line of an 80-column terminal).
    pub fn loss_text(&self) -> Option<String> {
        // Another message (a refused pair) is shown as it is.
        if !self.game().is_stuck() || !(self.message.is_empty() || self.message == STUCK) {
            return None;
        }
        let Some(answer) = &self.loss else {
            return Some(format!("stuck, finding the losing turn… {KEYS_WHEN_STUCK}"));
        };
        let Some(analysis) = answer else {
            return Some(STUCK.into());
        };
        let lost = match analysis.loss {
            Loss::At(0) => "the deal could not be cleared".to_string(),
            Loss::At(at) => format!("lost at turn {at} ({})", self.turns[at - 1]),
            Loss::Never | Loss::Undecided => "losing turn unknown".into(),
        };
        let line = analysis.continuation.as_ref().map(|line| match line.after {
            0 => "; a win existed from the deal".to_string(),
            at => format!("; a win existed after turn {at}"),
        });
        Some(format!(
            "{lost}{} {KEYS_WHEN_STUCK}",
            line.unwrap_or_default()
        ))
    }

    /// Starts the search for where the game was lost once it is stuck;
    /// forgets an earlier one when play goes on.
    fn search_loss(&mut self) {
        self.loss = None;
        self.loss_search = self
            .game()
            .is_stuck()
            .then(|| LossSearch::start(&self.start, &self.turns));
    }

    /// Takes the loss search's answer if it has come.
    fn collect_loss(&mut self) {
        if let Some(answer) = self.loss_search.as_ref().and_then(LossSearch::poll) {
            self.loss = Some(answer);
            self.loss_search = None;
        }
    }

    /// Starts the solver on the current board (stopping any earlier run).
    fn analyse(&mut self) {
        self.verdict = None;
        self.analysis = if self.game().is_won() {
            self.verdict = Some(Verdict::Solvable(Vec::new()));
            None
        } else {
            Some(Analysis::start(self.game()))
        };
    }

    /// Takes the solver's verdict if it has come.
    fn collect_verdict(&mut self) {
        let Some(analysis) = &self.analysis else {
            return;
        };
        if let Some(verdict) = analysis.poll() {
            self.verdict = Some(verdict);
            self.analysis = None;
        }
    }

    /// Waits for the solver and the loss search (for tests: no terminal
    /// to keep live).
    #[cfg(test)]
    pub fn settle(&mut self) {
        while self.analysis.is_some() || self.loss_search.is_some() {
            std::thread::sleep(Duration::from_millis(5));
            self.collect_verdict();
            self.collect_loss();
        }
    }

    /// When the screen must change next without input: the end of a
    /// flash, or soon while the solver may answer.
    pub fn wake_at(&self, now: Instant) -> Option<Instant> {
        let flash = self.flash.as_ref().map(|f| f.until);
        let solver = (self.analysis.is_some() || self.loss_search.is_some())
            .then(|| now + Duration::from_millis(50));
        flash.into_iter().chain(solver).min()
    }

    /// Ends a flash whose time is up; takes the solver's verdict.
    pub fn tick(&mut self, now: Instant) {
        if self.flash.as_ref().is_some_and(|f| now >= f.until) {
            self.flash = None;
        }
        self.collect_verdict();
        self.collect_loss();
    }

    pub fn handle(&mut self, action: ShisenAction, now: Instant) {
        // A new action ends the flash at once: the player has seen enough.
        self.flash = None;
        self.message.clear();
        let state = |app: &ShisenApp| (app.seed(), app.game().step(), app.game().redoable());
        let before = state(self);
        self.act(action, now);
        if state(self) != before {
            self.analyse();
            self.search_loss();
        }
        if self.game().is_stuck() && self.message.is_empty() {
            self.message = STUCK.into();
        }
    }

    fn act(&mut self, action: ShisenAction, now: Instant) {
        match action {
            ShisenAction::Quit => self.quit = true,
            ShisenAction::New => self.deal(self.seed().wrapping_add(1)),
            _ if self.game().is_won() => {}
            ShisenAction::Cursor(dx, dy) => self.move_cursor(dx, dy),
            ShisenAction::Select => self.select(self.cursor, now),
            ShisenAction::Click(p) => {
                if self.game().board().contains(p) {
                    self.cursor = p;
                    self.select(p, now);
                }
            }
            ShisenAction::Cancel => self.selected = None,
            ShisenAction::Hint => self.show_hint(),
            ShisenAction::Undo => self.travel(Turn::Undo, "nothing to undo"),
            ShisenAction::Redo => self.travel(Turn::Redo, "nothing to redo"),
            ShisenAction::Shuffle => self.shuffle(now),
        }
    }

    fn move_cursor(&mut self, dx: i32, dy: i32) {
        let size = self.game().board().size();
        let (w, h) = (size.width() as i32, size.height() as i32);
        self.cursor = Point::new(
            (self.cursor.x + dx).clamp(0, w - 1),
            (self.cursor.y + dy).clamp(0, h - 1),
        );
    }

    fn select(&mut self, p: Point, now: Instant) {
        let Some(first) = self.selected else {
            if self.game().board().get(p).is_some() {
                self.selected = Some(p);
            }
            return;
        };
        if first == p {
            self.selected = None;
            return;
        }
        let before = self.game().board().clone();
        match self.session.remove(first, p) {
            Ok(path) => {
                self.turns.push(Turn::Remove(first, p));
                self.selected = None;
                self.hint = None;
                self.clock.start(now);
                self.flash = Some(Flash {
                    board: before,
                    path,
                    until: now + FLASH,
                });
                if self.game().is_won() {
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

    /// The session's hint: the first removal of a solution when the
    /// solver has one (a pair that keeps the board clearable), else any
    /// removable pair. Counted as help either way.
    fn show_hint(&mut self) {
        let verdict = self.verdict.clone().unwrap_or(Verdict::Unknown);
        let hint = self.session.hint(&verdict);
        self.hint = hint.map(|hint| hint.pair);
        match hint {
            Some(h) => {
                self.cursor = h.pair.a;
                let safe = if h.safe { " (safe)" } else { "" };
                self.message = format!("hint: {} with {}{safe}", h.pair.a, h.pair.b);
            }
            None => self.message = STUCK.into(),
        }
    }

    fn travel(&mut self, turn: Turn, none: &str) {
        let moved = match turn {
            Turn::Redo => self.session.redo(),
            _ => self.session.undo(),
        };
        if moved {
            self.turns.push(turn);
            self.selected = None;
            self.hint = None;
        } else {
            self.message = none.into();
        }
    }

    fn shuffle(&mut self, now: Instant) {
        self.session.shuffle();
        self.turns.push(Turn::Shuffle);
        self.clock.start(now);
        self.selected = None;
        self.hint = None;
        self.message = "shuffled".into();
    }

    fn deal(&mut self, seed: u64) {
        match ShisenApp::new(self.spec, seed) {
            Ok(app) => *self = app,
            Err(e) => self.message = e,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> ShisenSpec {
        text.parse().unwrap()
    }

    fn app(seed: u64) -> ShisenApp {
        ShisenApp::new(spec("6x4-any"), seed).unwrap()
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

    fn board(text: &str) -> ShisenApp {
        let board = shisen::parse_board(text, shisen::Matching::Standard).unwrap();
        let spec = ShisenSpec {
            size: board.size(),
            ..spec("18x8-any")
        };
        ShisenApp::with_board(board, spec, 0)
    }

    #[test]
    fn the_solver_says_when_there_is_no_solution_from_here() {
        // The C pair can go, but the A and B pairs block each other for
        // good: more than three segments would be needed.
        let mut app = board("CC\nAB\nBA\n");
        app.settle();
        assert_eq!(app.outlook(), Outlook::NoSolution);
        assert!(!app.game().is_stuck());
        // The hint still offers the open pair.
        app.handle(ShisenAction::Hint, Instant::now());
        assert_eq!(
            app.hint(),
            Some(Move::new(Point::new(0, 0), Point::new(1, 0)))
        );
        let mut app = board("AB\nAB\n");
        app.settle();
        assert_eq!(app.outlook(), Outlook::Solvable);
    }

    #[test]
    fn the_hint_follows_a_solution_when_one_is_known() {
        // On solvable deals, with and without gravity, following the hints
        // clears the board.
        let now = Instant::now();
        for gravity in [false, true] {
            let spec = ShisenSpec {
                gravity,
                ..spec("8x4")
            };
            for seed in 0..3 {
                let mut app = ShisenApp::new(spec, seed).unwrap();
                app.settle();
                while !app.game().is_won() {
                    assert_eq!(app.outlook(), Outlook::Solvable, "hints keep it solvable");
                    app.handle(ShisenAction::Hint, now);
                    let m = app.hint().expect("a solvable board has a hint");
                    app.handle(ShisenAction::Click(m.a), now);
                    app.handle(ShisenAction::Click(m.b), now);
                    app.settle();
                }
            }
        }
    }

    #[test]
    fn a_solvable_dealer_deals_boards_the_solver_clears() {
        let mut app = ShisenApp::new(spec("6x4-gravity"), 11).unwrap();
        for _ in 0..5 {
            app.settle();
            assert_eq!(app.outlook(), Outlook::Solvable);
            assert!(app.rules().gravity);
            app.handle(ShisenAction::New, Instant::now());
        }
    }

    #[test]
    fn new_deals_the_next_seed() {
        let mut app = app(5);
        app.handle(ShisenAction::Click(Point::new(0, 0)), Instant::now());
        app.handle(ShisenAction::New, Instant::now());
        assert_eq!(app.seed(), 6);
        assert_eq!(app.selected(), None);
        let expected = shisen::Deal::random(
            6,
            shisen::Size::new(6, 4).unwrap(),
            shisen::TileSet::Standard,
        )
        .unwrap();
        assert_eq!(app.game().board(), &expected);
    }
}
