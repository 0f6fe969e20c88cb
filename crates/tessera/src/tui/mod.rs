//! `tessera play slide|shisen`: the games in a terminal (ratatui over
//! crossterm).
//!
//! One concept per file: the state of each game and what actions do to it
//! (`slide_app`, `shisen_app` — no terminal, unit-tested), drawing
//! (`slide_view`, `shisen_view`, `widgets`), input mapping (`keys`), the
//! clock, and terminal setup and restore (`terminal`). This file holds the
//! event loop that ties them together. The rules are the engines': the
//! interface only asks `slide::Position` and `shisen::Game`.

mod analysis;
mod clock;
mod command;
mod keys;
mod shisen_app;
mod shisen_view;
mod slide_app;
mod slide_view;
mod terminal;
mod widgets;

#[cfg(test)]
mod render_tests;

pub use command::PlayCommand;

use crate::failure::Failure;
use crossterm::event::{self, Event};
use ratatui::layout::Rect;
use ratatui::Frame;
use shisen_app::ShisenApp;
use slide_app::SlideApp;
use std::time::{Duration, Instant};

pub fn run(command: PlayCommand) -> Result<(), Failure> {
    match command {
        PlayCommand::Slide(args) => {
            let seed = command::first_seed(args.seed, args.daily, now_millis());
            let spec = args.spec().map_err(Failure::input)?;
            let app = SlideApp::with_format(spec, args.format, seed).map_err(Failure::input)?;
            needs_terminal()?;
            install_solver(app.goal());
            play::slide_game::Solver::global().warm_up(app.goal());
            play(&mut SlideGame {
                app,
                next_tick: Instant::now(),
            })
        }
        PlayCommand::Shisen(args) => {
            let seed = command::first_seed(args.seed, args.daily, now_millis());
            let app = ShisenApp::new(args.spec(), seed).map_err(Failure::input)?;
            needs_terminal()?;
            play(&mut ShisenGame {
                app,
                ascii: args.ascii,
            })
        }
    }
}

/// The terminal game's solver: the small tables, and the large ones too
/// when they are cached (loaded in the background in a fraction of a
/// second). They are never built here: minutes of both cores would slow
/// the game; `tessera slide tables build` builds them.
fn install_solver(goal: &slide::Position) {
    use play::slide_game::Solver;
    use play::tables::TableConfig;
    use slide::HeuristicKind;
    let small = TableConfig::default();
    let large = TableConfig {
        heuristic: HeuristicKind::Large,
        ..TableConfig::default()
    };
    let mut solver = Solver::new(small);
    if large.is_cached(goal.size(), goal.blank()) {
        solver = solver.with_upgrade(HeuristicKind::Large);
    }
    Solver::install(solver);
}

/// Milliseconds since the Unix epoch, by the system clock.
fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Refuses to draw into a pipe or a file.
fn needs_terminal() -> Result<(), Failure> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        Ok(())
    } else {
        Err(Failure::input(
            "play draws on a terminal, and stdout is not one: run it in a terminal window",
        ))
    }
}

/// What the event loop needs from a game.
trait Screen {
    fn draw(&self, frame: &mut Frame, now: Instant);
    fn input(&mut self, event: &Event, area: Rect, now: Instant);
    /// Time-driven changes (animation, the end of a flash).
    fn tick(&mut self, now: Instant);
    /// How long to wait for input before the next tick.
    fn timeout(&self, now: Instant) -> Duration;
    /// Changes when the whole screen should be repainted (see
    /// `shisen_view` on cell widths).
    fn picture(&self) -> u64;
    fn done(&self) -> bool;
}

/// The clock on screen ticks in seconds; redraw a few times a second.
const REFRESH: Duration = Duration::from_millis(250);

fn play(game: &mut impl Screen) -> Result<(), Failure> {
    let mut session = terminal::Session::start()?;
    let mut picture = None;
    loop {
        let now = Instant::now();
        game.tick(now);
        if game.done() {
            return Ok(());
        }
        if picture != Some(game.picture()) {
            session.terminal.clear()?;
            picture = Some(game.picture());
        }
        session.terminal.draw(|frame| game.draw(frame, now))?;
        if event::poll(game.timeout(now))? {
            let event = event::read()?;
            let size = session.terminal.size()?;
            game.input(
                &event,
                Rect::new(0, 0, size.width, size.height),
                Instant::now(),
            );
        }
    }
}

struct SlideGame {
    app: SlideApp,
    next_tick: Instant,
}

impl Screen for SlideGame {
    fn draw(&self, frame: &mut Frame, now: Instant) {
        slide_view::draw(frame, &self.app, now);
    }

    fn input(&mut self, event: &Event, area: Rect, now: Instant) {
        let layout = slide_view::board_layout(area, self.app.position().size());
        if let Some(action) = keys::slide_action(event, layout.as_ref()) {
            self.app.handle(action, now);
            self.next_tick = now + self.app.tick_interval().unwrap_or_default();
        }
    }

    fn tick(&mut self, now: Instant) {
        if let Some(interval) = self.app.tick_interval() {
            if now >= self.next_tick {
                self.app.tick(now);
                self.next_tick = now + interval;
            }
        }
    }

    fn timeout(&self, now: Instant) -> Duration {
        match self.app.tick_interval() {
            Some(_) => self.next_tick.saturating_duration_since(now),
            None => REFRESH,
        }
    }

    fn picture(&self) -> u64 {
        self.app.seed()
    }

    fn done(&self) -> bool {
        self.app.should_quit()
    }
}

struct ShisenGame {
    app: ShisenApp,
    ascii: bool,
}

impl Screen for ShisenGame {
    fn draw(&self, frame: &mut Frame, now: Instant) {
        shisen_view::draw(frame, &self.app, self.ascii, now);
    }

    fn input(&mut self, event: &Event, area: Rect, now: Instant) {
        let layout = shisen_view::board_layout(area, self.app.game().board().size());
        if let Some(action) = keys::shisen_action(event, layout.as_ref()) {
            self.app.handle(action, now);
        }
    }

    fn tick(&mut self, now: Instant) {
        self.app.tick(now);
    }

    fn timeout(&self, now: Instant) -> Duration {
        self.app
            .wake_at(now)
            .map_or(REFRESH, |at| at.saturating_duration_since(now).min(REFRESH))
    }

    /// Tiles drawn as narrow glyphs leave their second column unwritten;
    /// repaint everything whenever tiles come, go or move, so nothing
    /// drawn there before (a path) lingers.
    fn picture(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let game = self.app.game();
        let mut hasher = DefaultHasher::new();
        let state = (self.app.seed(), game.step(), game.redoable());
        (state, self.app.flash().is_some()).hash(&mut hasher);
        hasher.finish()
    }

    fn done(&self) -> bool {
        self.app.should_quit()
    }
}
