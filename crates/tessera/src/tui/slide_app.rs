//! The sliding puzzle being played: what is on the board, what happened,
//! and what each action does to it. No terminal here: rendering reads this
//! state, input produces [`SlideAction`]s, and the rules are the session's
//! (`play::slide_game`: the puzzle a seed issues, the moves, the solver
//! policy).

use super::clock::Clock;
use picture::Scheme;
use play::format::{DealError, Format};
use play::slide_game::{Outcome, Puzzle, Session, SlideSpec, Solver};
use play::Deadline;
use slide::{Direction, Metric, Moves, Position};
use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// What the player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlideAction {
    /// Slide the tile next to the blank in this direction (tile moves).
    Move(Direction),
    /// Slide every tile between the blank and this cell (a mouse click).
    SlideTo(usize),
    Hint,
    Solve,
    Undo,
    New,
    Restart,
    /// Show the goal in the board's place, or the board again.
    ToggleGoal,
    /// The next colouring of the tiles: placed or not, then the schemes.
    NextColours,
    /// Hints and solutions shortest in the other metric (STM or MTM).
    ToggleMetric,
    Quit,
}

/// What a solution being computed is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Hint,
    Solve,
}

/// A solver running on its own thread, so the board stays live (and `q`
/// quits) while it thinks; its answer is only used if the position is
/// still the one it was asked about.
struct Thinking {
    purpose: Purpose,
    position: Position,
    answer: Receiver<Result<Moves, String>>,
}

pub struct SlideApp {
    spec: SlideSpec,
    seed: u64,
    /// `single`, or a marathon or relay: several puzzles on one clock.
    format: Format,
    /// Every puzzle of the format, in order (one for `single`).
    puzzles: Vec<Puzzle>,
    /// The puzzle being played.
    index: usize,
    /// When each puzzle solved so far was solved, on the one clock.
    splits: Vec<Duration>,
    /// The moves (STM, MTM) of the puzzles solved before this one.
    earlier: (usize, usize),
    /// The puzzle, the moves made since its start (for undo and the move
    /// counters) and where they led.
    session: Session,
    clock: Clock,
    hint: Option<Direction>,
    /// Moves of a solution still to be shown, one per tick.
    solving: VecDeque<Direction>,
    thinking: Option<Thinking>,
    /// The solver finished the puzzle (the win is not the player's).
    solver_used: bool,
    showing_goal: bool,
    /// A colour scheme, or none: tiles then show whether they are home.
    scheme: Option<Scheme>,
    /// The metric hints and solutions are shortest in.
    metric: Metric,
    message: String,
    quit: bool,
}

/// The colourings `c` steps through, after "home or not".
const SCHEMES: [Scheme; 4] = [
    Scheme::Fringe,
    Scheme::Rows,
    Scheme::Columns,
    Scheme::Gradient,
];

impl SlideApp {
    /// The puzzle `spec` issues from `seed`.
    #[cfg(test)]
    pub fn new(spec: SlideSpec, seed: u64) -> Result<SlideApp, DealError> {
        SlideApp::with_format(spec, Format::Single, seed)
    }

    /// The puzzles `format` deals from `seed` (as the web game and
    /// `tessera slide new --format` deal them), played on one clock: the
    /// next appears the moment one is solved.
    pub fn with_format(spec: SlideSpec, format: Format, seed: u64) -> Result<SlideApp, DealError> {
        let puzzles = format.deal(&spec, seed)?;
        let first = &puzzles[0];
        let session = Session::new(first.start.clone(), first.goal_position.clone());
        Ok(SlideApp {
            spec,
            seed,
            format,
            puzzles,
            index: 0,
            splits: Vec::new(),
            earlier: (0, 0),
            session,
            clock: Clock::default(),
            hint: None,
            solving: VecDeque::new(),
            thinking: None,
            solver_used: false,
            showing_goal: false,
            scheme: None,
            metric: Metric::Stm,
            message: String::new(),
            quit: false,
        })
    }

    /// The metric hints and solutions are shortest in.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The tiles' colour scheme; none for "home or not".
    pub fn scheme(&self) -> Option<Scheme> {
        self.scheme
    }

    pub fn position(&self) -> &Position {
        self.session.position()
    }

    pub fn goal(&self) -> &Position {
        self.session.goal()
    }

    /// The goal's name, e.g. `row-major` or `missing:7`.
    pub fn goal_name(&self) -> String {
        self.puzzles[self.index].goal.to_string()
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// The puzzle being played (0-based) and how many the format has.
    pub fn progress(&self) -> (usize, usize) {
        (self.index, self.puzzles.len())
    }

    /// When each puzzle solved so far was solved, on the format's clock.
    pub fn splits(&self) -> &[Duration] {
        &self.splits
    }

    /// The moves (STM, MTM) over every puzzle of the format so far.
    pub fn total_moves(&self) -> (usize, usize) {
        let now = self.outcome();
        (self.earlier.0 + now.stm, self.earlier.1 + now.mtm)
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The moves made so far in both metrics (undone moves no longer
    /// count).
    pub fn outcome(&self) -> Outcome {
        self.session.outcome()
    }

    pub fn elapsed(&self, now: Instant) -> Duration {
        self.clock.elapsed(now)
    }

    /// The cell of the tile the hint suggests moving, and its direction.
    pub fn hint(&self) -> Option<(usize, Direction)> {
        let direction = self.hint?;
        Some((self.position().source(direction)?, direction))
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the whole format is solved: its last puzzle.
    pub fn is_won(&self) -> bool {
        self.session.is_solved() && self.index + 1 == self.puzzles.len()
    }

    pub fn showing_goal(&self) -> bool {
        self.showing_goal
    }

    pub fn solver_used(&self) -> bool {
        self.solver_used
    }

    pub fn is_solving(&self) -> bool {
        !self.solving.is_empty()
    }

    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// How often [`SlideApp::tick`] should run: while a solution is shown,
    /// about four seconds in all, between 10 and 150 ms a move; while the
    /// solver thinks, often enough to notice its answer.
    pub fn tick_interval(&self) -> Option<Duration> {
        let left = self.solving.len() as u32;
        if left > 0 {
            Some((Duration::from_secs(4) / left).clamp(ms(10), ms(150)))
        } else {
            self.thinking.as_ref().map(|_| ms(30))
        }
    }

    pub fn handle(&mut self, action: SlideAction, now: Instant) {
        // Any key but q stops a running solution where it is.
        if self.is_solving() && action != SlideAction::Quit {
            self.solving.clear();
            self.message = "solution stopped".into();
            return;
        }
        self.message.clear();
        // `g` toggles the goal view; any other key brings the board back.
        self.showing_goal = action == SlideAction::ToggleGoal && !self.showing_goal;
        match action {
            SlideAction::Quit => self.quit = true,
            SlideAction::ToggleGoal => {}
            SlideAction::NextColours => {
                let next = match self.scheme {
                    None => Some(0),
                    Some(now) => SCHEMES.iter().position(|&s| s == now).map(|i| i + 1),
                };
                self.scheme = next.and_then(|i| SCHEMES.get(i).copied());
                self.message = format!("colours: {}", scheme_name(self.scheme));
            }
            SlideAction::ToggleMetric => {
                self.metric = match self.metric {
                    Metric::Stm => Metric::Mtm,
                    Metric::Mtm => Metric::Stm,
                };
                self.message = match self.metric {
                    Metric::Stm => "hints: single-tile moves (STM)".into(),
                    Metric::Mtm => {
                        "hints: multi-tile moves (MTM), a run of tiles is one move".into()
                    }
                };
            }
            SlideAction::New => self.deal(self.seed.wrapping_add(1)),
            SlideAction::Restart => self.deal(self.seed),
            _ if self.is_won() => {}
            SlideAction::Move(direction) => self.slide(direction, now),
            SlideAction::SlideTo(cell) => {
                // The engine finds the moves; they are then made one by
                // one here, so each counts and can be undone.
                match self.position().clone().slide_to(cell) {
                    Some(moves) => moves.iter().for_each(|d| self.slide(d, now)),
                    None => self.message = "click a tile in the blank's row or column".into(),
                }
            }
            SlideAction::Undo => self.undo(),
            SlideAction::Hint => self.think(Purpose::Hint),
            SlideAction::Solve => self.think(Purpose::Solve),
        }
    }

    /// Shows the next move of a running solution, or takes the solver's
    /// answer when it has come.
    pub fn tick(&mut self, now: Instant) {
        if let Some(direction) = self.solving.pop_front() {
            self.slide(direction, now);
            return;
        }
        let Some(thinking) = &self.thinking else {
            return;
        };
        let answer = match thinking.answer.try_recv() {
            Ok(answer) => answer,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Err("the solver stopped".into()),
        };
        let thinking = self.thinking.take().expect("checked above");
        if &thinking.position != self.position() {
            return; // The player moved on: the answer is for another board.
        }
        match (answer, thinking.purpose) {
            (Ok(moves), Purpose::Hint) => self.show_hint(moves),
            (Ok(moves), Purpose::Solve) => self.start_solution(moves, now),
            (Err(e), _) => self.message = e,
        }
    }

    /// Waits for the solver's answer (for tests: no terminal to keep live).
    #[cfg(test)]
    pub fn settle(&mut self, now: Instant) {
        while self.is_thinking() {
            std::thread::sleep(ms(5));
            self.tick(now);
        }
    }

    fn slide(&mut self, direction: Direction, now: Instant) {
        if self.session.slide(direction).is_err() {
            self.message = format!("no tile can move {}", name(direction));
            return;
        }
        self.clock.start(now);
        self.hint = None;
        if self.session.is_solved() {
            self.splits.push(self.clock.elapsed(now));
            self.solving.clear();
            self.message.clear();
            if self.is_won() {
                self.clock.stop(now);
            } else {
                self.next_puzzle();
            }
        }
    }

    /// The format's next puzzle, at once and on the same clock.
    fn next_puzzle(&mut self) {
        let done = self.session.outcome();
        self.earlier = (self.earlier.0 + done.stm, self.earlier.1 + done.mtm);
        self.index += 1;
        let puzzle = &self.puzzles[self.index];
        self.session = Session::new(puzzle.start.clone(), puzzle.goal_position.clone());
        self.message = format!(
            "puzzle {} of {}, {}",
            self.index + 1,
            self.puzzles.len(),
            puzzle.start.size()
        );
    }

    fn undo(&mut self) {
        if self.session.undo() {
            self.hint = None;
        } else {
            self.message = "nothing to undo".into();
        }
    }

    fn deal(&mut self, seed: u64) {
        match SlideApp::with_format(self.spec.clone(), self.format, seed) {
            // The player's choices of look and metric carry over.
            Ok(app) => {
                let (scheme, metric) = (self.scheme, self.metric);
                *self = app;
                (self.scheme, self.metric) = (scheme, metric);
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    /// Asks the solver, on its own thread, for a solution from here.
    fn think(&mut self, purpose: Purpose) {
        let (send, answer) = mpsc::channel();
        let (position, goal) = (self.position().clone(), self.goal().clone());
        let metric = self.metric;
        std::thread::spawn(move || {
            let plan = Solver::global()
                .plan(&position, &goal, metric, &Deadline::none())
                .map(|plan| plan.moves)
                .map_err(|e| format!("no solution: {e}"));
            // The receiver may be gone (a new puzzle, quit): nothing to do.
            let _ = send.send(plan);
        });
        self.message = "thinking…".into();
        self.thinking = Some(Thinking {
            purpose,
            position: self.position().clone(),
            answer,
        });
    }

    fn show_hint(&mut self, moves: Moves) {
        self.message.clear();
        self.hint = moves.iter().next();
        if let Some((cell, direction)) = self.hint() {
            let tile = self.position().tiles()[cell];
            // In MTM the hint is the whole first run.
            let run = moves.first_run().len();
            self.message = match (self.metric, run) {
                (Metric::Mtm, k) if k > 1 => {
                    format!("hint: slide {k} tiles {} (from {tile})", name(direction))
                }
                _ => format!("hint: move {tile} {}", name(direction)),
            };
        }
    }

    fn start_solution(&mut self, moves: Moves, now: Instant) {
        self.message = format!("solving: {} moves (any key stops)", moves.len());
        self.solving = moves.iter().collect();
        self.solver_used = true;
        self.tick(now);
    }
}

fn name(direction: Direction) -> &'static str {
    match direction {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// The name of a colouring, as the status line shows it.
fn scheme_name(scheme: Option<Scheme>) -> &'static str {
    match scheme {
        None => "home or not",
        Some(Scheme::Plain) => "plain",
        Some(Scheme::Fringe) => "fringe",
        Some(Scheme::Rows) => "rows",
        Some(Scheme::Columns) => "columns",
        Some(Scheme::Gradient) => "gradient",
        Some(Scheme::Grids(_)) => "grids",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(size: &str, seed: u64) -> SlideApp {
        let spec = format!("{size}-row-major").parse().unwrap();
        SlideApp::new(spec, seed).unwrap()
    }

    fn legal(app: &SlideApp) -> Direction {
        app.position().legal_moves().next().unwrap()
    }

    /// Plays `moves` one key at a time, at `at`.
    fn play(app: &mut SlideApp, moves: &Moves, at: Instant) {
        for direction in moves.iter() {
            app.handle(SlideAction::Move(direction), at);
        }
    }

    fn shortest(app: &SlideApp) -> Moves {
        slide::solve_optimal(app.position(), app.goal(), &slide::SolveOptions::default())
            .unwrap()
            .moves
    }

    #[test]
    fn a_relay_deals_its_sizes_in_order_on_one_clock_with_splits() {
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        let format: Format = "relay-4".parse().unwrap();
        let dealt = format.deal(&spec, 77).unwrap();
        let mut app = SlideApp::with_format(spec, format, 77).unwrap();
        assert_eq!(app.progress(), (0, 2));
        assert_eq!(app.position(), &dealt[0].start);
        let t0 = Instant::now();
        let first = shortest(&app);
        play(&mut app, &first, t0);
        // Solved: the 4x4 at once, the clock still running.
        assert_eq!(app.progress(), (1, 2));
        assert!(!app.is_won());
        assert_eq!(app.position(), &dealt[1].start);
        assert_eq!(app.message(), "puzzle 2 of 2, 4x4");
        assert_eq!(app.splits().len(), 1);
        assert_eq!(app.elapsed(t0 + ms(5000)), ms(5000));
        let second = slide::solve_fast(app.position(), app.goal()).unwrap();
        play(&mut app, &second, t0 + ms(9000));
        assert!(app.is_won());
        assert_eq!(app.splits(), [ms(0), ms(9000)]);
        assert_eq!(app.total_moves().0, first.len() + second.len());
        assert_eq!(app.elapsed(t0 + ms(20_000)), ms(9000));
        // A new relay deals from the next seed, still a relay.
        app.handle(SlideAction::New, t0);
        assert_eq!(app.progress(), (0, 2));
        assert_eq!(
            app.position(),
            &format.deal(&"3x3-row-major".parse().unwrap(), 78).unwrap()[0].start
        );
    }

    #[test]
    fn a_move_changes_the_board_counts_and_starts_the_clock() {
        let t0 = Instant::now();
        let mut app = app("3x3", 1);
        let before = app.position().clone();
        let direction = legal(&app);
        app.handle(SlideAction::Move(direction), t0);
        let mut expected = before.clone();
        expected.apply(direction).unwrap();
        assert_eq!(app.position(), &expected);
        assert_eq!(app.outcome().stm, 1);
        assert_eq!(app.elapsed(t0 + ms(2000)), ms(2000));
        app.handle(SlideAction::Undo, t0);
        assert_eq!(app.position(), &before);
        assert_eq!(app.outcome().stm, 0);
    }

    #[test]
    fn an_impossible_move_changes_nothing_and_says_so() {
        // A 2x2 blank sits in a corner: two directions are blocked.
        let mut app = app("2x2", 1);
        let blocked = Direction::ALL
            .into_iter()
            .find(|&d| !app.position().can_move(d))
            .expect("a corner blank has walls");
        let before = app.position().clone();
        app.handle(SlideAction::Move(blocked), Instant::now());
        assert_eq!(app.position(), &before);
        assert_eq!(app.outcome().stm, 0);
        assert!(app.message().starts_with("no tile can move"));
    }

    #[test]
    fn a_click_slides_a_whole_row() {
        let mut app = app("4x4", 3);
        let blank = app.position().blank();
        let (bx, by) = app.position().size().coords(blank);
        let far = if bx >= 2 { 0 } else { 3 };
        let cell = app.position().size().cell(far, by);
        app.handle(SlideAction::SlideTo(cell), Instant::now());
        assert_eq!(app.position().blank(), cell);
        assert_eq!(app.outcome().stm, bx.abs_diff(far));
        // A cell off the blank's row and column does nothing.
        let off = app.position().size().cell((far + 1) % 4, (by + 1) % 4);
        app.handle(SlideAction::SlideTo(off), Instant::now());
        assert_eq!(app.outcome().stm, bx.abs_diff(far));
    }

    #[test]
    fn hint_is_the_first_move_of_a_shortest_solution() {
        let mut app = app("3x3", 7);
        app.handle(SlideAction::Hint, Instant::now());
        app.settle(Instant::now());
        let (cell, direction) = app.hint().expect("a hint");
        assert_eq!(app.position().source(direction), Some(cell));
        let before = slide::solver::solve_optimal(app.position(), app.goal(), &Default::default())
            .unwrap()
            .moves
            .len();
        app.handle(SlideAction::Move(direction), Instant::now());
        let after = slide::solver::solve_optimal(app.position(), app.goal(), &Default::default())
            .unwrap()
            .moves
            .len();
        assert_eq!(after + 1, before);
        assert_eq!(app.hint(), None, "a move clears the hint");
    }

    #[test]
    fn m_switches_hints_to_the_multi_tile_metric_and_keeps_it() {
        let mtm = |app: &SlideApp| {
            slide::solve_optimal(
                app.position(),
                app.goal(),
                &slide::SolveOptions::default().in_metric(Metric::Mtm),
            )
            .unwrap()
            .mtm()
        };
        for seed in 1..6 {
            let mut app = app("3x3", seed);
            app.handle(SlideAction::ToggleMetric, Instant::now());
            assert_eq!(app.metric(), Metric::Mtm);
            assert!(app.message().contains("MTM"));
            app.handle(SlideAction::Hint, Instant::now());
            app.settle(Instant::now());
            let (_, direction) = app.hint().expect("a hint");
            // The hint starts a run of some k tiles that is one MTM move
            // closer to the goal.
            let before = mtm(&app);
            let mut closer = false;
            let mut position = app.position().clone();
            while position.apply(direction).is_ok() {
                let after = slide::solve_optimal(
                    &position,
                    app.goal(),
                    &slide::SolveOptions::default().in_metric(Metric::Mtm),
                )
                .unwrap();
                closer |= after.mtm() + 1 == before;
            }
            assert!(closer, "seed {seed}: {}", app.message());
            // A new puzzle keeps the metric.
            app.handle(SlideAction::New, Instant::now());
            assert_eq!(app.metric(), Metric::Mtm);
        }
    }

    #[test]
    fn solve_animates_to_the_goal_and_wins() {
        let t0 = Instant::now();
        let mut app = app("3x3", 2);
        app.handle(SlideAction::Solve, t0);
        assert!(app.is_thinking());
        assert!(app.tick_interval().is_some());
        app.settle(t0);
        assert!(app.is_solving());
        let mut ticks = 0;
        while app.is_solving() {
            app.tick(t0 + ms(ticks));
            ticks += 1;
        }
        assert!(app.is_won());
        assert!(app.solver_used());
        // Once won, moves are ignored; n deals the next seed.
        let moves = app.outcome().stm;
        app.handle(SlideAction::Move(legal(&app)), t0);
        assert_eq!(app.outcome().stm, moves);
        app.handle(SlideAction::New, t0);
        assert_eq!(app.seed(), 3);
        assert!(!app.is_won());
        assert_eq!(app.outcome().stm, 0);
    }

    #[test]
    fn any_key_stops_a_running_solution() {
        let mut app = app("3x3", 5);
        app.handle(SlideAction::Solve, Instant::now());
        app.settle(Instant::now());
        assert!(app.is_solving());
        app.handle(SlideAction::Hint, Instant::now());
        assert!(!app.is_solving());
        assert_eq!(app.outcome().stm, 1);
    }

    #[test]
    fn restart_returns_to_the_dealt_puzzle() {
        let mut app = app("3x3", 9);
        let start = app.position().clone();
        app.handle(SlideAction::Move(legal(&app)), Instant::now());
        app.handle(SlideAction::Restart, Instant::now());
        assert_eq!(app.position(), &start);
        assert_eq!(app.outcome().stm, 0);
        assert_eq!(app.elapsed(Instant::now()), Duration::ZERO);
    }

    #[test]
    fn an_answer_for_an_old_position_is_dropped() {
        let mut app = app("3x3", 6);
        app.handle(SlideAction::Hint, Instant::now());
        let direction = legal(&app);
        app.handle(SlideAction::Move(direction), Instant::now());
        app.settle(Instant::now());
        assert_eq!(app.hint(), None);
        assert_eq!(app.outcome().stm, 1);
    }

    #[test]
    fn quit_is_honoured_even_while_solving() {
        let mut app = app("3x3", 4);
        app.handle(SlideAction::Solve, Instant::now());
        app.handle(SlideAction::Quit, Instant::now());
        assert!(app.should_quit());
    }
}
