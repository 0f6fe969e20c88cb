//! A race: players on the same puzzle at the same instant, side by side.
//!
//! The rules of a race room, as a state machine with no I/O and no clock:
//! every call takes the time now, in milliseconds, and returns the
//! [`Event`]s everyone in the room must hear. A front end holds the
//! connections, parses what players send into these calls and broadcasts
//! what comes back; it calls [`Race::tick`] at [`Race::next_deadline`] so
//! that the countdown ends and absent players lapse on time (every other
//! call ticks first as well, so a move arriving on the instant of the
//! start is played).
//!
//! A room goes lobby → countdown → racing → finished, and back to the
//! lobby on a rematch. Players are known by a key the front end vouches
//! for (the player's cookie), so the same player coming back is the same
//! racer: a player who loses the connection keeps their place and their
//! moves for [`RECONNECT_MS`].
//!
//! A room races a sliding puzzle or a Shisen-Sho deal. A Shisen-Sho racer
//! removes pairs and may shuffle (there is no undo in a race); they finish
//! by clearing the board, and are out when stuck for good: no pair
//! connects, and the shuffle the game's rules would make now (seeded by
//! the deal and the step, so the same on every replica) leaves none
//! either.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use slide::{GoalError, Moves, Position, ReplayError};

use crate::limits::{NAME_CHARS, SUBMITTED_MOVES, SUBMITTED_TURNS};
use crate::shisen_game::{self, shuffle_seed, DealError, ShisenSpec};
use crate::slide_game::{Puzzle, Session, SlideSpec};
use crate::Deadline;

/// How long the countdown runs before everyone gets the puzzle.
pub const COUNTDOWN_MS: i64 = 3_000;
/// How long a player who lost the connection keeps their place.
pub const RECONNECT_MS: i64 = 30_000;
/// How long a room with nobody in it lives on.
pub const EMPTY_ROOM_MS: i64 = 60_000;
/// The fewest players a race starts with.
pub const FEWEST_PLAYERS: usize = 2;
/// The most players in a room.
pub const MOST_PLAYERS: usize = 8;
/// The most spectators in a room: each one is a connection every event
/// is written to.
pub const MOST_SPECTATORS: usize = 32;

/// A racer's number in the room, given on joining and kept until they
/// leave; never reused within the room.
pub type Seat = u32;

/// What a room races.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaceGame {
    /// A sliding puzzle of this spec.
    Slide(SlideSpec),
    /// A Shisen-Sho deal of this spec.
    Shisen(ShisenSpec),
}

impl fmt::Display for RaceGame {
    /// `slide:` or `shisen:` and the spec, e.g. `slide:3x3-row-major`,
    /// `shisen:6x4-gravity`: how a shared room names its game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RaceGame::Slide(spec) => write!(f, "slide:{spec}"),
            RaceGame::Shisen(spec) => write!(f, "shisen:{spec}"),
        }
    }
}

impl FromStr for RaceGame {
    type Err = String;

    fn from_str(text: &str) -> Result<RaceGame, String> {
        match text.split_once(':') {
            Some(("slide", spec)) => spec
                .parse()
                .map(RaceGame::Slide)
                .map_err(|e| format!("{e}")),
            Some(("shisen", spec)) => spec
                .parse()
                .map(RaceGame::Shisen)
                .map_err(|e| format!("{e}")),
            _ => Err(format!(
                "{text:?} names no race: expected slide:SPEC or shisen:SPEC"
            )),
        }
    }
}

/// The Shisen-Sho board every racer gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShisenDeal {
    /// The seed it was dealt from, which also seeds every shuffle.
    pub seed: u64,
    /// The kind of deal (size, tiles, gravity).
    pub spec: ShisenSpec,
    /// The board.
    pub board: shisen::Board,
}

/// The puzzle every racer gets, dealt from a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deal {
    /// A sliding puzzle.
    Slide(Puzzle),
    /// A Shisen-Sho board.
    Shisen(ShisenDeal),
}

impl Deal {
    /// The seed the puzzle was dealt from.
    pub fn seed(&self) -> u64 {
        match self {
            Deal::Slide(puzzle) => puzzle.seed,
            Deal::Shisen(deal) => deal.seed,
        }
    }
}

/// What a racer plays in one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Sliding moves, played in order.
    Slide(Moves),
    /// A Shisen-Sho removal or shuffle (a race has no undo or redo).
    Shisen(shisen_game::Turn),
}

/// One racer's game in progress.
#[derive(Clone, Debug)]
enum Board {
    Slide(Session),
    Shisen(ShisenBoard),
}

/// A Shisen-Sho racer's game: the session, the turns that made it, and
/// when the last one was played.
#[derive(Clone, Debug)]
struct ShisenBoard {
    session: shisen_game::Session,
    turns: Vec<shisen_game::Turn>,
    /// Milliseconds from the start to the last turn, by the server's
    /// clock: what the score's pace is measured on.
    at: i64,
}

impl ShisenBoard {
    /// The score as of the last turn.
    fn score(&self) -> u64 {
        self.session.game().score((self.at / 1000) as u64)
    }

    /// No pair connects, and the shuffle the rules would make now leaves
    /// none either: nothing more can be played.
    fn stuck_for_good(&self) -> bool {
        let game = self.session.game();
        if !game.is_stuck() {
            return false;
        }
        let mut trial = shisen::Game::new(game.board().clone(), game.rules());
        trial.shuffle(shuffle_seed(self.session.seed(), game.step()));
        trial.is_stuck()
    }
}

/// Where a room is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Players join and get ready.
    Lobby,
    /// The race starts at `starts_at`.
    Countdown {
        /// When the puzzle is dealt.
        starts_at: i64,
    },
    /// The race began at `started_at`.
    Racing {
        /// When the puzzle was dealt.
        started_at: i64,
    },
    /// Every racer has finished or dropped out.
    Finished,
}

impl Phase {
    /// The phase's name in the protocol: `lobby`, `countdown`, `racing`,
    /// `finished`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Lobby => "lobby",
            Phase::Countdown { .. } => "countdown",
            Phase::Racing { .. } => "racing",
            Phase::Finished => "finished",
        }
    }
}

/// A racer's name: 1 to 24 characters once the blanks around it are
/// dropped, none of them control characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RacerName(String);

impl RacerName {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for RacerName {
    type Err = RaceError;

    fn from_str(text: &str) -> Result<RacerName, RaceError> {
        let name = text.trim();
        if name.is_empty() {
            return Err(RaceError::BadName("a racer needs a name".into()));
        }
        if name.chars().count() > NAME_CHARS {
            return Err(RaceError::BadName(format!(
                "name too long: at most {NAME_CHARS} characters"
            )));
        }
        if name.chars().any(char::is_control) {
            return Err(RaceError::BadName(
                "name must not contain control characters".into(),
            ));
        }
        Ok(RacerName(name.to_string()))
    }
}

impl fmt::Display for RacerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A call the rules refuse; the room is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RaceError {
    /// A name that is empty, too long or has control characters.
    #[error("bad name: {0}")]
    BadName(String),
    /// The room has its eight players.
    #[error("the room is full: at most {MOST_PLAYERS} players")]
    Full,
    /// The room has as many spectators as it takes.
    #[error("the room has too many spectators: at most {MOST_SPECTATORS}")]
    TooManySpectators,
    /// Joining once the countdown has begun.
    #[error("the race has begun: you can watch, and join the rematch")]
    Begun,
    /// The caller has not joined as a player.
    #[error("you have not joined this race")]
    NotAPlayer,
    /// Only the host starts a race.
    #[error("only the host can start the race")]
    NotHost,
    /// Starting with one player.
    #[error("a race needs at least {FEWEST_PLAYERS} players")]
    TooFewPlayers,
    /// Readiness or a start outside the lobby.
    #[error("the race is not in its lobby")]
    NotInLobby,
    /// A move before the start or after the end.
    #[error("the race is not running")]
    NotRacing,
    /// A move by a racer who has finished or dropped out.
    #[error("you have finished this race")]
    AlreadyFinished,
    /// A move that cannot be made; no move of the message was played.
    #[error("illegal move: {0}")]
    IllegalMove(ReplayError),
    /// A Shisen-Sho turn that cannot be played, and why.
    #[error("illegal turn: {0}")]
    IllegalTurn(String),
    /// A turn of another game than the room's.
    #[error("this race is {0}: send its turns")]
    WrongGame(&'static str),
    /// A game longer than a submission may be.
    #[error("too many moves: at most {SUBMITTED_MOVES} in a race")]
    TooManyMoves,
    /// A Shisen-Sho game longer than a submission may be.
    #[error("too many turns: at most {SUBMITTED_TURNS} in a race")]
    TooManyTurns,
    /// A time before the start or before the racer's previous move.
    #[error("bad time {0}: milliseconds since the start, never going back")]
    BadTime(i64),
    /// A turn with no move in it.
    #[error("no moves: a turn holds at least one")]
    NoMoves,
    /// A rematch before the race is over.
    #[error("the race is not over")]
    NotOver,
    /// A spec that deals no puzzle.
    #[error("cannot deal: {0}")]
    Deal(#[from] GoalError),
    /// A Shisen-Sho spec that deals no board.
    #[error("cannot deal: {0}")]
    ShisenDeal(#[from] DealError),
}

/// Whether a player's connection is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Connected.
    Here,
    /// Lost the connection at `since`; their place is kept until
    /// `since + RECONNECT_MS`.
    Away {
        /// When the connection was lost.
        since: i64,
    },
    /// Left, or away too long, once the race had begun: still in its
    /// results, no longer in the room.
    Gone,
}

/// One racer as everyone in the room sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RacerView {
    /// Their seat.
    pub seat: Seat,
    /// Their name.
    pub name: String,
    /// Their account's handle, if signed in.
    pub account: Option<String>,
    /// Ready to race (in the lobby).
    pub ready: bool,
    /// Whether they host the room (start it early).
    pub host: bool,
    /// Whether they are connected.
    pub connected: bool,
    /// Whether they have finished (solved or dropped out).
    pub done: bool,
}

/// The room as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomView {
    /// The phase.
    pub phase: Phase,
    /// The racers, by seat.
    pub players: Vec<RacerView>,
    /// How many watch.
    pub spectators: usize,
}

/// A racer's game so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Whose.
    pub seat: Seat,
    /// Single-tile moves made, or Shisen-Sho pairs removed.
    pub moves: usize,
    /// How far they are, as the game counts it.
    pub standing: Standing,
    /// Milliseconds since the start, by the server's clock.
    pub t: i64,
}

/// How far a racer is, by game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// A sliding puzzle: the tiles on their goal cell.
    Slide {
        /// Tiles on their goal cell.
        solved_tiles: usize,
    },
    /// A Shisen-Sho board: what is left, and the score so far.
    Shisen {
        /// Tiles still on the board.
        tiles_left: usize,
        /// The game's score as of the last turn.
        score: u64,
        /// No pair connects now (a shuffle may help).
        stuck: bool,
    },
}

impl Standing {
    /// The order among racers who did not finish: most tiles in place,
    /// or fewest tiles left then best score, first.
    fn rank(&self, moves: usize) -> (usize, u64) {
        match *self {
            Standing::Slide { solved_tiles } => (usize::MAX - solved_tiles, moves as u64),
            Standing::Shisen {
                tiles_left, score, ..
            } => (tiles_left, u64::MAX - score),
        }
    }
}

/// A racer's solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// Whose.
    pub seat: Seat,
    /// Their place among those who finished: 1 for the winner.
    pub place: usize,
    /// Milliseconds from the start to the solving move, by the server's
    /// clock.
    pub millis: i64,
    /// What the solve took.
    pub solve: Solve,
}

/// What a solve took, by game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solve {
    /// A sliding puzzle's moves.
    Slide {
        /// Single-tile moves.
        stm: usize,
        /// Multi-tile moves.
        mtm: usize,
    },
    /// A cleared Shisen-Sho board.
    Shisen {
        /// Pairs removed.
        removals: usize,
        /// The game's score.
        score: u64,
    },
}

/// One line of the results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    /// Whose.
    pub seat: Seat,
    /// Their name.
    pub name: String,
    /// Their solve, if they finished.
    pub finish: Option<Finish>,
    /// Where they were when the race ended without them.
    pub progress: Progress,
}

/// What everyone in the room must hear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Who is in the room, and its phase.
    Room(RoomView),
    /// The countdown began: the race starts in `ms`.
    Countdown {
        /// Milliseconds to the start.
        ms: i64,
    },
    /// The race started with this puzzle.
    Start(Deal),
    /// A racer moved.
    Progress(Progress),
    /// A racer solved the puzzle.
    Finish(Finish),
    /// The race is over: solvers by time, then the others by progress.
    Results(Vec<Placing>),
}

/// A player in the room.
#[derive(Clone, Debug)]
struct Racer {
    seat: Seat,
    key: String,
    name: RacerName,
    account: Option<String>,
    ready: bool,
    presence: Presence,
    board: Option<Board>,
    /// The player's own clock for each single-tile move, for the judge.
    times: Vec<i64>,
    finish: Option<Finish>,
    /// Dropped out of the running race: left, or away too long.
    out: bool,
}

/// A race room.
#[derive(Clone, Debug)]
pub struct Race {
    game: RaceGame,
    deal: Deal,
    phase: Phase,
    racers: Vec<Racer>,
    spectators: BTreeSet<String>,
    host: Option<Seat>,
    next_seat: Seat,
    /// Since when nobody is connected, if so.
    empty_since: Option<i64>,
}

impl Race {
    /// An empty room racing `game`, its first puzzle dealt from `seed`.
    pub fn new(game: RaceGame, seed: u64, now: i64) -> Result<Race, RaceError> {
        let deal = deal(&game, seed)?;
        Ok(Race {
            game,
            deal,
            phase: Phase::Lobby,
            racers: Vec::new(),
            spectators: BTreeSet::new(),
            host: None,
            next_seat: 1,
            empty_since: Some(now),
        })
    }

    /// What the room races.
    pub fn game(&self) -> &RaceGame {
        &self.game
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The puzzle of this round, once it is dealt to the racers.
    pub fn deal(&self) -> Option<&Deal> {
        matches!(self.phase, Phase::Racing { .. } | Phase::Finished).then_some(&self.deal)
    }

    /// The seat of the player with `key`, if they are in the room.
    pub fn seat_of(&self, key: &str) -> Option<Seat> {
        self.racers.iter().find(|r| r.key == key).map(|r| r.seat)
    }

    /// Where a racer's board stands now, once the race is dealt: what the
    /// others draw of it.
    pub fn position_of(&self, seat: Seat) -> Option<&Position> {
        match &self.racers.iter().find(|r| r.seat == seat)?.board {
            Some(Board::Slide(session)) => Some(session.position()),
            _ => None,
        }
    }

    /// A Shisen-Sho racer's game now and the turns that made it, with
    /// their own time for each, once the race is dealt.
    pub fn shisen_of(
        &self,
        seat: Seat,
    ) -> Option<(&shisen_game::Session, &[shisen_game::Turn], &[i64])> {
        let racer = self.racers.iter().find(|r| r.seat == seat)?;
        match &racer.board {
            Some(Board::Shisen(board)) => Some((&board.session, &board.turns, &racer.times)),
            _ => None,
        }
    }

    /// The moves a racer has made, and their own time for each.
    pub fn moves_of(&self, seat: Seat) -> Option<(Moves, &[i64])> {
        let racer = self.racers.iter().find(|r| r.seat == seat)?;
        let Some(Board::Slide(session)) = &racer.board else {
            return Some((Moves::new(), &racer.times));
        };
        Some((session.moves(), &racer.times))
    }

    /// The room as everyone sees it.
    pub fn view(&self) -> RoomView {
        RoomView {
            phase: self.phase,
            players: self
                .racers
                .iter()
                .map(|r| RacerView {
                    seat: r.seat,
                    name: r.name.to_string(),
                    account: r.account.clone(),
                    ready: r.ready,
                    host: self.host == Some(r.seat),
                    connected: r.presence == Presence::Here,
                    done: r.finish.is_some() || r.out,
                })
                .collect(),
            spectators: self.spectators.len(),
        }
    }

    /// Every racer's progress now (for a player who comes back or a new
    /// spectator), by seat; empty before the start.
    pub fn standings(&self, now: i64) -> Vec<Progress> {
        self.racers
            .iter()
            .filter_map(|r| self.progress(r, now))
            .collect()
    }

    /// The results, once the race is over.
    pub fn results(&self) -> Option<Vec<Placing>> {
        (self.phase == Phase::Finished).then(|| self.placings())
    }

    /// The player with `key` joins as `name` (an account's handle if
    /// signed in), or comes back to their place. Returns their seat.
    pub fn join(
        &mut self,
        key: &str,
        name: RacerName,
        account: Option<String>,
        now: i64,
    ) -> Result<(Seat, Vec<Event>), RaceError> {
        let mut events = self.tick(now);
        if let Some(racer) = self.racers.iter_mut().find(|r| r.key == key) {
            racer.presence = Presence::Here;
            if self.phase == Phase::Lobby {
                racer.name = name;
            }
            let seat = racer.seat;
            self.spectators.remove(key);
            self.occupied();
            events.push(self.room());
            return Ok((seat, events));
        }
        if self.phase != Phase::Lobby {
            return Err(RaceError::Begun);
        }
        if self.racers.len() >= MOST_PLAYERS {
            return Err(RaceError::Full);
        }
        let seat = self.next_seat;
        self.next_seat += 1;
        self.racers.push(Racer {
            seat,
            key: key.to_string(),
            name,
            account,
            ready: false,
            presence: Presence::Here,
            board: None,
            times: Vec::new(),
            finish: None,
            out: false,
        });
        self.host.get_or_insert(seat);
        self.spectators.remove(key);
        self.occupied();
        events.push(self.room());
        Ok((seat, events))
    }

    /// The player with `key` watches without racing (a racer's key
    /// changes nothing: their seat is theirs).
    pub fn watch(&mut self, key: &str, now: i64) -> Result<Vec<Event>, RaceError> {
        let mut events = self.tick(now);
        if self.seat_of(key).is_some() || self.spectators.contains(key) {
            // A racer's own connection: they are back once they join.
            return Ok(events);
        }
        if self.spectators.len() >= MOST_SPECTATORS {
            return Err(RaceError::TooManySpectators);
        }
        self.spectators.insert(key.to_string());
        self.occupied();
        events.push(self.room());
        Ok(events)
    }

    /// A racer says they are ready, or no longer; once every player (two
    /// at least) is ready, the countdown begins.
    pub fn ready(&mut self, key: &str, ready: bool, now: i64) -> Result<Vec<Event>, RaceError> {
        let mut events = self.tick(now);
        let index = self.index_of(key)?;
        if self.phase != Phase::Lobby {
            return Err(RaceError::NotInLobby);
        }
        self.racers[index].ready = ready;
        let all = self.racers.len() >= FEWEST_PLAYERS && self.racers.iter().all(|r| r.ready);
        if all {
            events.extend(self.count_down(now));
        } else {
            events.push(self.room());
        }
        Ok(events)
    }

    /// The host starts the countdown without waiting for everyone to be
    /// ready.
    pub fn start(&mut self, key: &str, now: i64) -> Result<Vec<Event>, RaceError> {
        let mut events = self.tick(now);
        let seat = self.racers[self.index_of(key)?].seat;
        if self.host != Some(seat) {
            return Err(RaceError::NotHost);
        }
        if self.phase != Phase::Lobby {
            return Err(RaceError::NotInLobby);
        }
        if self.racers.len() < FEWEST_PLAYERS {
            return Err(RaceError::TooFewPlayers);
        }
        events.extend(self.count_down(now));
        Ok(events)
    }

    /// A racer's turn, played as it arrives; `t` is the racer's own
    /// milliseconds since the start. An illegal move refuses the whole
    /// turn: nothing of it is played or heard by the others. A turn that
    /// reaches the goal finishes there; moves after the goal are dropped.
    /// A Shisen-Sho turn that leaves the racer stuck for good puts them
    /// out.
    pub fn play(
        &mut self,
        key: &str,
        turn: &Turn,
        t: i64,
        now: i64,
    ) -> Result<Vec<Event>, RaceError> {
        let mut events = self.tick(now);
        let index = self.index_of(key)?;
        let Phase::Racing { started_at } = self.phase else {
            return Err(RaceError::NotRacing);
        };
        let racer = &mut self.racers[index];
        if racer.finish.is_some() || racer.out {
            return Err(RaceError::AlreadyFinished);
        }
        if t < 0 || racer.times.last().is_some_and(|&last| t < last) {
            return Err(RaceError::BadTime(t));
        }
        let elapsed = now - started_at;
        let (board, made) = match (&racer.board, turn) {
            (Some(Board::Slide(session)), Turn::Slide(moves)) => slide_turn(session, moves)?,
            (Some(Board::Shisen(board)), Turn::Shisen(turn)) => shisen_turn(board, *turn, elapsed)?,
            (Some(Board::Slide(_)), _) => return Err(RaceError::WrongGame("a sliding puzzle")),
            (Some(Board::Shisen(_)), _) => return Err(RaceError::WrongGame("Shisen-Sho")),
            (None, _) => return Err(RaceError::NotRacing),
        };
        racer.board = Some(board);
        racer.times.extend(std::iter::repeat_n(t, made));
        let racer = &self.racers[index];
        events.extend(self.progress(racer, now).map(Event::Progress));
        let racer = &self.racers[index];
        match &racer.board {
            Some(board) if board.is_solved() => {
                let place = 1 + self.racers.iter().filter(|r| r.finish.is_some()).count();
                let finish = Finish {
                    seat: racer.seat,
                    place,
                    millis: elapsed,
                    solve: board.solve(),
                };
                self.racers[index].finish = Some(finish.clone());
                events.push(Event::Finish(finish));
                events.extend(self.end_if_over());
            }
            Some(Board::Shisen(board)) if board.stuck_for_good() => {
                self.racers[index].out = true;
                events.push(self.room());
                events.extend(self.end_if_over());
            }
            _ => {}
        }
        Ok(events)
    }

    /// A player's connection was lost: they keep their place for
    /// [`RECONNECT_MS`]. A spectator simply goes.
    pub fn disconnect(&mut self, key: &str, now: i64) -> Vec<Event> {
        let mut events = self.tick(now);
        self.spectators.remove(key);
        if let Some(racer) = self.racers.iter_mut().find(|r| r.key == key) {
            racer.presence = Presence::Away { since: now };
        }
        self.vacated(now);
        events.push(self.room());
        events
    }

    /// A player leaves for good: gone from the lobby, out of a running
    /// race (their progress stays in the results).
    pub fn leave(&mut self, key: &str, now: i64) -> Vec<Event> {
        let mut events = self.tick(now);
        self.spectators.remove(key);
        if let Some(index) = self.racers.iter().position(|r| r.key == key) {
            events.extend(self.drop_out(index));
        }
        self.vacated(now);
        events.push(self.room());
        events
    }

    /// A racer asks for a rematch once the race is over: the same room,
    /// a new puzzle from `seed`, everyone back in the lobby and not ready.
    /// Those who dropped out are no longer in it.
    pub fn rematch(&mut self, key: &str, seed: u64, now: i64) -> Result<Vec<Event>, RaceError> {
        let mut events = self.tick(now);
        self.index_of(key)?;
        if self.phase != Phase::Finished {
            return Err(RaceError::NotOver);
        }
        self.deal = deal(&self.game, seed)?;
        self.racers
            .retain(|r| !r.out && r.presence != Presence::Gone);
        for racer in &mut self.racers {
            racer.ready = false;
            racer.board = None;
            racer.times.clear();
            racer.finish = None;
        }
        self.phase = Phase::Lobby;
        self.rehost();
        events.push(self.room());
        Ok(events)
    }

    /// Moves the room on to `now`: the countdown ends with the start, and
    /// players away longer than [`RECONNECT_MS`] lose their place.
    pub fn tick(&mut self, now: i64) -> Vec<Event> {
        let mut events = Vec::new();
        let lapsed: Vec<String> = self
            .racers
            .iter()
            .filter(
                |r| matches!(r.presence, Presence::Away { since } if now - since >= RECONNECT_MS),
            )
            .map(|r| r.key.clone())
            .collect();
        for key in lapsed {
            if let Some(index) = self.racers.iter().position(|r| r.key == key) {
                events.extend(self.drop_out(index));
                events.push(self.room());
            }
        }
        if let Phase::Countdown { starts_at } = self.phase {
            if now >= starts_at {
                events.extend(self.begin(starts_at));
            }
        }
        events
    }

    /// When [`Race::tick`] must next be called, if ever: the end of the
    /// countdown, or the moment an absent player's place lapses.
    pub fn next_deadline(&self) -> Option<i64> {
        let countdown = match self.phase {
            Phase::Countdown { starts_at } => Some(starts_at),
            _ => None,
        };
        let lapses = self.racers.iter().filter_map(|r| match r.presence {
            Presence::Away { since } => Some(since + RECONNECT_MS),
            _ => None,
        });
        countdown.into_iter().chain(lapses).min()
    }

    /// When the room expires if nobody comes: [`EMPTY_ROOM_MS`] after the
    /// last one went; never while anyone is in it.
    pub fn expires_at(&self) -> Option<i64> {
        self.empty_since.map(|since| since + EMPTY_ROOM_MS)
    }

    /// Whether the room has had nobody in it for [`EMPTY_ROOM_MS`], and
    /// can be forgotten.
    pub fn expired(&self, now: i64) -> bool {
        self.expires_at().is_some_and(|at| now >= at)
    }

    fn index_of(&self, key: &str) -> Result<usize, RaceError> {
        self.racers
            .iter()
            .position(|r| r.key == key)
            .ok_or(RaceError::NotAPlayer)
    }

    fn room(&self) -> Event {
        Event::Room(self.view())
    }

    fn occupied(&mut self) {
        self.empty_since = None;
    }

    /// Starts the room's emptiness clock if nobody is connected.
    fn vacated(&mut self, now: i64) {
        let anyone =
            !self.spectators.is_empty() || self.racers.iter().any(|r| r.presence == Presence::Here);
        if !anyone && self.empty_since.is_none() {
            self.empty_since = Some(now);
        }
    }

    fn count_down(&mut self, now: i64) -> Vec<Event> {
        self.phase = Phase::Countdown {
            starts_at: now + COUNTDOWN_MS,
        };
        vec![self.room(), Event::Countdown { ms: COUNTDOWN_MS }]
    }

    /// Deals the puzzle to every racer at `started_at`.
    fn begin(&mut self, started_at: i64) -> Vec<Event> {
        self.phase = Phase::Racing { started_at };
        for racer in &mut self.racers {
            racer.board = Some(match &self.deal {
                Deal::Slide(puzzle) => Board::Slide(Session::new(
                    puzzle.start.clone(),
                    puzzle.goal_position.clone(),
                )),
                Deal::Shisen(deal) => Board::Shisen(ShisenBoard {
                    session: shisen_game::Session::new(
                        deal.board.clone(),
                        deal.spec.rules(),
                        deal.seed,
                    ),
                    turns: Vec::new(),
                    at: 0,
                }),
            });
        }
        vec![self.room(), Event::Start(self.deal.clone())]
    }

    /// Takes a racer out: from the lobby or the countdown they are gone
    /// (and a countdown left with too few players stops); from a race they
    /// are out, which may end it.
    fn drop_out(&mut self, index: usize) -> Vec<Event> {
        match self.phase {
            Phase::Lobby | Phase::Countdown { .. } => {
                self.racers.remove(index);
                self.rehost();
                if matches!(self.phase, Phase::Countdown { .. })
                    && self.racers.len() < FEWEST_PLAYERS
                {
                    self.phase = Phase::Lobby;
                    self.racers.iter_mut().for_each(|r| r.ready = false);
                }
                Vec::new()
            }
            Phase::Racing { .. } => {
                let racer = &mut self.racers[index];
                if racer.finish.is_none() {
                    racer.out = true;
                }
                racer.presence = Presence::Gone;
                self.end_if_over()
            }
            Phase::Finished => {
                self.racers[index].out = true;
                self.racers[index].presence = Presence::Gone;
                Vec::new()
            }
        }
    }

    /// The host is the earliest seat still in the room.
    fn rehost(&mut self) {
        self.host = self.racers.iter().filter(|r| !r.out).map(|r| r.seat).min();
    }

    fn end_if_over(&mut self) -> Vec<Event> {
        let over = self.racers.iter().all(|r| r.finish.is_some() || r.out);
        if !over || !matches!(self.phase, Phase::Racing { .. }) {
            return Vec::new();
        }
        self.phase = Phase::Finished;
        vec![Event::Results(self.placings()), self.room()]
    }

    fn progress(&self, racer: &Racer, now: i64) -> Option<Progress> {
        let board = racer.board.as_ref()?;
        let t = match (self.phase, &racer.finish) {
            (_, Some(finish)) => finish.millis,
            (Phase::Racing { started_at }, None) => now - started_at,
            _ => 0,
        };
        let (moves, standing) = match board {
            Board::Slide(session) => (
                session.moves().len(),
                Standing::Slide {
                    solved_tiles: solved_tiles(session),
                },
            ),
            Board::Shisen(board) => (
                board.session.game().history().len(),
                Standing::Shisen {
                    tiles_left: board.session.game().board().tiles_left(),
                    score: board.score(),
                    stuck: board.session.game().is_stuck(),
                },
            ),
        };
        Some(Progress {
            seat: racer.seat,
            moves,
            standing,
            t,
        })
    }

    /// Solvers by time (the order they finished in), then the others by
    /// tiles in place, fewest moves first among equals (Shisen-Sho: by
    /// tiles left, best score first among equals).
    fn placings(&self) -> Vec<Placing> {
        let mut placings: Vec<Placing> = self
            .racers
            .iter()
            .filter_map(|r| {
                let progress = self.progress(r, 0)?;
                Some(Placing {
                    seat: r.seat,
                    name: r.name.to_string(),
                    finish: r.finish.clone(),
                    progress,
                })
            })
            .collect();
        placings.sort_by_key(|p| match &p.finish {
            Some(finish) => (0, finish.place, (0, 0)),
            None => (1, 0, p.progress.standing.rank(p.progress.moves)),
        });
        placings
    }
}

/// The puzzle `seed` deals for `game`.
fn deal(game: &RaceGame, seed: u64) -> Result<Deal, RaceError> {
    match game {
        RaceGame::Slide(spec) => Ok(Deal::Slide(spec.issue(seed)?)),
        // No deadline: the deal must be the seed's on every replica, and
        // a deadline could give up on one and not another.
        RaceGame::Shisen(spec) => Ok(Deal::Shisen(ShisenDeal {
            seed,
            spec: *spec,
            board: spec.deal(seed, &mut Deadline::none())?,
        })),
    }
}

impl Board {
    fn is_solved(&self) -> bool {
        match self {
            Board::Slide(session) => session.is_solved(),
            Board::Shisen(board) => board.session.game().is_won(),
        }
    }

    fn solve(&self) -> Solve {
        match self {
            Board::Slide(session) => {
                let outcome = session.outcome();
                Solve::Slide {
                    stm: outcome.stm,
                    mtm: outcome.mtm,
                }
            }
            Board::Shisen(board) => Solve::Shisen {
                removals: board.session.game().history().len(),
                score: board.score(),
            },
        }
    }
}

/// Sliding `moves` played on a copy of `session`: the board they lead to
/// and how many were made.
fn slide_turn(session: &Session, moves: &Moves) -> Result<(Board, usize), RaceError> {
    if moves.is_empty() {
        return Err(RaceError::NoMoves);
    }
    let mut played = session.clone();
    let made = slide_until_solved(&mut played, moves)?;
    if played.moves().len() > SUBMITTED_MOVES {
        return Err(RaceError::TooManyMoves);
    }
    Ok((Board::Slide(played), made))
}

/// A Shisen-Sho `turn` played on a copy of `board` at `elapsed` ms from
/// the start: the board it leads to (one turn made).
fn shisen_turn(
    board: &ShisenBoard,
    turn: shisen_game::Turn,
    elapsed: i64,
) -> Result<(Board, usize), RaceError> {
    use shisen_game::Turn::{Redo, Remove, Shuffle, Undo};
    match turn {
        Remove(..) | Shuffle => {}
        Undo | Redo => return Err(RaceError::IllegalTurn("a race has no undo or redo".into())),
    }
    if board.turns.len() >= SUBMITTED_TURNS {
        return Err(RaceError::TooManyTurns);
    }
    let mut played = board.clone();
    played.session.play(turn).map_err(RaceError::IllegalTurn)?;
    played.turns.push(turn);
    played.at = elapsed;
    Ok((Board::Shisen(played), 1))
}

/// Plays `moves` on `session` up to the goal; returns how many were made,
/// or the first illegal one (the session is then part-played: the caller
/// plays on a copy).
fn slide_until_solved(session: &mut Session, moves: &Moves) -> Result<usize, RaceError> {
    let mut made = 0;
    for (index, direction) in moves.iter().enumerate() {
        if session.is_solved() {
            break;
        }
        session
            .slide(direction)
            .map_err(|_| RaceError::IllegalMove(ReplayError { index, direction }))?;
        made += 1;
    }
    Ok(made)
}

/// The tiles on their goal cell (the blank is no tile).
fn solved_tiles(session: &Session) -> usize {
    let (now, goal) = (session.position().tiles(), session.goal().tiles());
    now.iter()
        .zip(goal)
        .filter(|(tile, wanted)| **tile != 0 && tile == wanted)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn race() -> Race {
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        Race::new(RaceGame::Slide(spec), 7, 0).unwrap()
    }

    fn name(text: &str) -> RacerName {
        text.parse().unwrap()
    }

    /// A room of `keys`, all joined at time 0.
    fn room_of(keys: &[&str]) -> Race {
        let mut race = race();
        for key in keys {
            race.join(key, name(key), None, 0).unwrap();
        }
        race
    }

    /// A room of `keys` whose race started at `COUNTDOWN_MS`.
    fn racing(keys: &[&str]) -> Race {
        let mut race = room_of(keys);
        race.start(keys[0], 0).unwrap();
        let events = race.tick(COUNTDOWN_MS);
        assert!(events.iter().any(|e| matches!(e, Event::Start(_))));
        race
    }

    fn puzzle(race: &Race) -> &Puzzle {
        let Some(Deal::Slide(puzzle)) = race.deal() else {
            panic!("not dealt")
        };
        puzzle
    }

    fn solution(race: &Race) -> Moves {
        let puzzle = puzzle(race);
        slide::solve_fast(&puzzle.start, &puzzle.goal_position).unwrap()
    }

    fn slide(moves: &Moves) -> Turn {
        Turn::Slide(moves.clone())
    }

    /// A legal move from the start, and an illegal one.
    fn legal_and_illegal(race: &Race) -> (Moves, Moves) {
        let start = &puzzle(race).start;
        let legal = start.legal_moves().next().unwrap();
        let illegal = slide::Direction::ALL
            .into_iter()
            .find(|d| !start.can_move(*d))
            .unwrap();
        (Moves(vec![legal]), Moves(vec![illegal]))
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(name("  Ada ").as_str(), "Ada");
        assert!("".parse::<RacerName>().is_err());
        assert!("   ".parse::<RacerName>().is_err());
        assert!("a\u{7}b".parse::<RacerName>().is_err());
        assert!("x".repeat(NAME_CHARS + 1).parse::<RacerName>().is_err());
        assert!("x".repeat(NAME_CHARS).parse::<RacerName>().is_ok());
    }

    #[test]
    fn two_to_eight_players_join_the_lobby_and_the_first_hosts() {
        let mut race = race();
        for (i, key) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().enumerate() {
            let (seat, events) = race.join(key, name(key), None, 0).unwrap();
            assert_eq!(seat, i as Seat + 1);
            let Some(Event::Room(view)) = events.last() else {
                panic!("{events:?}")
            };
            assert_eq!(view.players.len(), i + 1);
        }
        assert_eq!(race.join("i", name("i"), None, 0), Err(RaceError::Full));
        let view = race.view();
        assert_eq!(view.phase, Phase::Lobby);
        assert!(view.players[0].host);
        assert!(view.players[1..].iter().all(|p| !p.host));
        // Joining again is the same seat, not a new one.
        assert_eq!(race.join("c", name("Cy"), None, 0).unwrap().0, 3);
        assert_eq!(race.view().players[2].name, "Cy");
    }

    #[test]
    fn spectators_watch_without_a_seat() {
        let mut race = room_of(&["a", "b"]);
        race.watch("w", 0).unwrap();
        assert_eq!(race.view().spectators, 1);
        assert_eq!(race.view().players.len(), 2);
        assert_eq!(race.ready("w", true, 0), Err(RaceError::NotAPlayer));
        race.leave("w", 0);
        assert_eq!(race.view().spectators, 0);
        for i in 0..MOST_SPECTATORS {
            race.watch(&format!("w{i}"), 0).unwrap();
        }
        assert_eq!(race.watch("one more", 0), Err(RaceError::TooManySpectators));
    }

    #[test]
    fn when_all_are_ready_the_countdown_begins_and_then_the_race() {
        let mut race = room_of(&["a", "b"]);
        let events = race.ready("a", true, 100).unwrap();
        assert!(!events.iter().any(|e| matches!(e, Event::Countdown { .. })));
        assert_eq!(race.phase(), Phase::Lobby);
        let events = race.ready("b", true, 200).unwrap();
        assert!(events.contains(&Event::Countdown { ms: COUNTDOWN_MS }));
        assert_eq!(
            race.phase(),
            Phase::Countdown {
                starts_at: 200 + COUNTDOWN_MS
            }
        );
        assert_eq!(race.next_deadline(), Some(200 + COUNTDOWN_MS));
        assert!(race.deal().is_none(), "the puzzle stays hidden");
        assert!(race.tick(200 + COUNTDOWN_MS - 1).is_empty());
        assert_eq!(
            race.join("late", name("late"), None, 1000),
            Err(RaceError::Begun)
        );
        let events = race.tick(200 + COUNTDOWN_MS);
        let dealt = events.iter().find_map(|e| match e {
            Event::Start(deal) => Some(deal),
            _ => None,
        });
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        assert_eq!(dealt, Some(&Deal::Slide(spec.issue(7).unwrap())));
        assert_eq!(
            race.phase(),
            Phase::Racing {
                started_at: 200 + COUNTDOWN_MS
            }
        );
    }

    #[test]
    fn one_ready_player_alone_does_not_start() {
        let mut race = room_of(&["a"]);
        race.ready("a", true, 0).unwrap();
        assert_eq!(race.phase(), Phase::Lobby);
        assert_eq!(race.start("a", 0), Err(RaceError::TooFewPlayers));
    }

    #[test]
    fn only_the_host_starts_early() {
        let mut race = room_of(&["a", "b", "c"]);
        assert_eq!(race.start("b", 0), Err(RaceError::NotHost));
        assert_eq!(race.start("x", 0), Err(RaceError::NotAPlayer));
        race.start("a", 0).unwrap();
        assert!(matches!(race.phase(), Phase::Countdown { .. }));
        assert_eq!(race.start("a", 0), Err(RaceError::NotInLobby));
        assert_eq!(race.ready("b", true, 0), Err(RaceError::NotInLobby));
    }

    #[test]
    fn the_host_leaving_the_lobby_passes_the_room_on() {
        let mut race = room_of(&["a", "b", "c"]);
        race.leave("a", 0);
        assert_eq!(race.view().players.len(), 2);
        assert_eq!(race.start("b", 0).map(|_| ()), Ok(()));
    }

    #[test]
    fn a_countdown_left_with_one_player_stops() {
        let mut race = room_of(&["a", "b"]);
        race.start("a", 0).unwrap();
        race.leave("b", 1000);
        assert_eq!(race.phase(), Phase::Lobby);
        assert!(race.tick(COUNTDOWN_MS).is_empty());
    }

    #[test]
    fn moves_before_the_start_are_refused() {
        let mut race = room_of(&["a", "b"]);
        let moves = Moves(vec![slide::Direction::Up]);
        assert_eq!(
            race.play("a", &slide(&moves), 0, 0),
            Err(RaceError::NotRacing)
        );
    }

    #[test]
    fn a_legal_move_is_progress_for_everyone() {
        let mut race = racing(&["a", "b"]);
        let (legal, _) = legal_and_illegal(&race);
        let events = race
            .play("a", &slide(&legal), 40, COUNTDOWN_MS + 50)
            .unwrap();
        let Some(Event::Progress(progress)) = events.first() else {
            panic!("{events:?}")
        };
        assert_eq!((progress.seat, progress.moves, progress.t), (1, 1, 50));
        let mut session = Session::new(
            puzzle(&race).start.clone(),
            puzzle(&race).goal_position.clone(),
        );
        session.slide(legal.iter().next().unwrap()).unwrap();
        assert_eq!(
            progress.standing,
            Standing::Slide {
                solved_tiles: solved_tiles(&session)
            }
        );
        assert_eq!(race.moves_of(1).unwrap().0, legal);
        assert_eq!(race.moves_of(1).unwrap().1, &[40]);
        assert_eq!(race.moves_of(2).unwrap().0, Moves::new());
    }

    #[test]
    fn an_illegal_move_is_refused_and_nothing_of_its_turn_is_played() {
        let mut race = racing(&["a", "b"]);
        let (legal, illegal) = legal_and_illegal(&race);
        // The legal move first, then its own illegal one: the whole turn goes.
        let mut turn = legal.clone();
        turn.0.push(legal.0[0].inverse());
        turn.0.push(legal.0[0].inverse());
        let refused = race.play("a", &slide(&turn), 10, COUNTDOWN_MS + 10);
        assert!(matches!(refused, Err(RaceError::IllegalMove(e)) if e.index == 2));
        assert_eq!(
            race.play("a", &slide(&illegal), 10, COUNTDOWN_MS + 10),
            Err(RaceError::IllegalMove(ReplayError {
                index: 0,
                direction: illegal.0[0]
            }))
        );
        assert_eq!(
            race.play("a", &slide(&Moves::new()), 10, COUNTDOWN_MS + 10),
            Err(RaceError::NoMoves)
        );
        assert_eq!(race.moves_of(1).unwrap().0, Moves::new());
        assert!(race.standings(COUNTDOWN_MS + 10)[0].moves == 0);
    }

    #[test]
    fn times_go_forward_from_zero() {
        let mut race = racing(&["a", "b"]);
        let (legal, _) = legal_and_illegal(&race);
        let back = Moves(vec![legal.0[0].inverse()]);
        assert_eq!(
            race.play("a", &slide(&legal), -1, COUNTDOWN_MS),
            Err(RaceError::BadTime(-1))
        );
        race.play("a", &slide(&legal), 500, COUNTDOWN_MS).unwrap();
        assert_eq!(
            race.play("a", &slide(&back), 499, COUNTDOWN_MS),
            Err(RaceError::BadTime(499))
        );
        race.play("a", &slide(&back), 500, COUNTDOWN_MS).unwrap();
    }

    #[test]
    fn a_race_holds_at_most_a_submissions_moves() {
        let mut race = racing(&["a", "b"]);
        let (legal, _) = legal_and_illegal(&race);
        let there_and_back = [legal.0[0], legal.0[0].inverse()];
        let many = Moves(there_and_back.repeat(SUBMITTED_MOVES / 2));
        race.play("a", &slide(&many), 0, COUNTDOWN_MS).unwrap();
        assert_eq!(
            race.play("a", &slide(&legal), 0, COUNTDOWN_MS),
            Err(RaceError::TooManyMoves)
        );
    }

    #[test]
    fn solvers_finish_in_order_and_the_results_rank_them_by_time() {
        let mut race = racing(&["a", "b", "c"]);
        let solution = solution(&race);
        let (legal, _) = legal_and_illegal(&race);
        race.play("c", &slide(&legal), 0, COUNTDOWN_MS + 100)
            .unwrap();
        let events = race
            .play("b", &slide(&solution), 900, COUNTDOWN_MS + 1000)
            .unwrap();
        let finish = Finish {
            seat: 2,
            place: 1,
            millis: 1000,
            solve: Solve::Slide {
                stm: solution.len(),
                mtm: solution.mtm_len(),
            },
        };
        assert!(events.contains(&Event::Finish(finish.clone())));
        assert_eq!(
            race.play("b", &slide(&legal), 1000, COUNTDOWN_MS + 1100),
            Err(RaceError::AlreadyFinished)
        );
        assert!(race.results().is_none(), "two still race");
        // Moves past the goal in the solving turn are dropped.
        let mut past = solution.clone();
        past.0.extend(legal_and_illegal(&race).0 .0);
        let events = race
            .play("a", &slide(&past), 1900, COUNTDOWN_MS + 2000)
            .unwrap();
        assert!(events
            .iter()
            .any(|e| matches!(e, Event::Finish(f) if f.place == 2 && matches!(f.solve, Solve::Slide { stm, .. } if stm == solution.len()))));
        assert!(race.results().is_none());
        let events = race.leave("c", COUNTDOWN_MS + 3000);
        let results = events
            .iter()
            .find_map(|e| match e {
                Event::Results(results) => Some(results.clone()),
                _ => None,
            })
            .expect("the last racer leaving ends the race");
        assert_eq!(race.phase(), Phase::Finished);
        assert_eq!(
            results.iter().map(|p| p.seat).collect::<Vec<_>>(),
            [2, 1, 3]
        );
        assert_eq!(results[0].finish, Some(finish));
        assert_eq!(results[1].finish.as_ref().unwrap().millis, 2000);
        assert!(results[2].finish.is_none());
        assert_eq!(results[2].progress.moves, 1);
        assert_eq!(race.results(), Some(results));
    }

    #[test]
    fn unfinished_racers_rank_by_tiles_in_place() {
        let mut race = racing(&["a", "b", "c"]);
        let solution = solution(&race);
        // b stops one move short of the goal: nearly every tile in place.
        let short = Moves(solution.0[..solution.len() - 1].to_vec());
        race.play("b", &slide(&short), 0, COUNTDOWN_MS).unwrap();
        race.play("c", &slide(&solution), 0, COUNTDOWN_MS).unwrap();
        race.leave("a", COUNTDOWN_MS + 1);
        let events = race.leave("b", COUNTDOWN_MS + 2);
        let Some(Event::Results(results)) = events.iter().find(|e| matches!(e, Event::Results(_)))
        else {
            panic!("{events:?}")
        };
        let seats: Vec<Seat> = results.iter().map(|p| p.seat).collect();
        assert_eq!(seats, [3, 2, 1]);
        // One move short of the goal: every tile but the last one moved.
        let solved = |p: &Placing| match p.progress.standing {
            Standing::Slide { solved_tiles } => solved_tiles,
            Standing::Shisen { .. } => panic!("a sliding race"),
        };
        assert_eq!(solved(&results[1]), 7);
        assert!(solved(&results[2]) < 7);
    }

    #[test]
    fn a_racer_away_keeps_place_and_moves_for_thirty_seconds() {
        let mut race = racing(&["a", "b"]);
        let (legal, _) = legal_and_illegal(&race);
        race.play("a", &slide(&legal), 0, COUNTDOWN_MS).unwrap();
        race.disconnect("a", COUNTDOWN_MS + 10);
        assert!(!race.view().players[0].connected);
        assert_eq!(race.next_deadline(), Some(COUNTDOWN_MS + 10 + RECONNECT_MS));
        race.tick(COUNTDOWN_MS + 10 + RECONNECT_MS - 1);
        let (seat, _) = race
            .join("a", name("a"), None, COUNTDOWN_MS + 10 + RECONNECT_MS - 1)
            .unwrap();
        assert_eq!(seat, 1);
        assert!(race.view().players[0].connected);
        assert_eq!(race.moves_of(1).unwrap().0, legal);
        // Back in the race: their next move plays on from where they were.
        let back = Moves(vec![legal.0[0].inverse()]);
        race.play("a", &slide(&back), 1, COUNTDOWN_MS + RECONNECT_MS)
            .unwrap();
        assert_eq!(race.moves_of(1).unwrap().0.len(), 2);
    }

    #[test]
    fn a_racer_away_too_long_is_out_and_may_end_the_race() {
        let mut race = racing(&["a", "b"]);
        let solution = solution(&race);
        race.play("b", &slide(&solution), 0, COUNTDOWN_MS).unwrap();
        race.disconnect("a", COUNTDOWN_MS);
        assert!(race.results().is_none());
        let events = race.tick(COUNTDOWN_MS + RECONNECT_MS);
        assert!(events.iter().any(|e| matches!(e, Event::Results(_))));
        assert!(race.view().players[0].done);
        assert_eq!(
            race.join("a", name("a"), None, COUNTDOWN_MS + RECONNECT_MS + 1)
                .map(|(seat, _)| seat),
            Ok(1),
            "still seated in the finished room"
        );
    }

    #[test]
    fn a_player_away_too_long_loses_their_lobby_seat() {
        let mut race = room_of(&["a", "b"]);
        race.disconnect("b", 0);
        race.tick(RECONNECT_MS);
        assert_eq!(race.view().players.len(), 1);
        assert_eq!(race.next_deadline(), None);
        // Coming back later is joining anew.
        assert_eq!(race.join("b", name("b"), None, RECONNECT_MS).unwrap().0, 3);
    }

    #[test]
    fn a_rematch_deals_a_new_puzzle_in_the_same_room() {
        let mut race = racing(&["a", "b", "c"]);
        let first = puzzle(&race).clone();
        assert_eq!(race.rematch("a", 8, COUNTDOWN_MS), Err(RaceError::NotOver));
        let solution = solution(&race);
        race.play("a", &slide(&solution), 0, COUNTDOWN_MS).unwrap();
        race.play("b", &slide(&solution), 0, COUNTDOWN_MS).unwrap();
        race.leave("c", COUNTDOWN_MS);
        assert_eq!(race.phase(), Phase::Finished);
        assert_eq!(
            race.rematch("x", 8, COUNTDOWN_MS),
            Err(RaceError::NotAPlayer)
        );
        race.rematch("b", 8, 10_000).unwrap();
        assert_eq!(race.phase(), Phase::Lobby);
        let view = race.view();
        assert_eq!(view.players.len(), 2, "who dropped out is gone");
        assert!(view.players.iter().all(|p| !p.ready && !p.done));
        race.ready("a", true, 10_000).unwrap();
        race.ready("b", true, 10_000).unwrap();
        race.tick(10_000 + COUNTDOWN_MS);
        let second = puzzle(&race);
        assert_ne!(second.start, first.start);
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        assert_eq!(second, &spec.issue(8).unwrap());
        assert_eq!(race.moves_of(1).unwrap().0, Moves::new());
    }

    #[test]
    fn a_room_nobody_is_in_expires() {
        let mut race = race();
        assert_eq!(race.expires_at(), Some(EMPTY_ROOM_MS));
        assert!(!race.expired(EMPTY_ROOM_MS - 1));
        assert!(race.expired(EMPTY_ROOM_MS), "opened and never joined");
        race.join("a", name("a"), None, 100).unwrap();
        assert!(!race.expired(100 + 10 * EMPTY_ROOM_MS));
        assert_eq!(race.expires_at(), None);
        race.disconnect("a", 1000);
        assert!(!race.expired(1000 + EMPTY_ROOM_MS - 1));
        assert!(race.expired(1000 + EMPTY_ROOM_MS));
    }

    mod shisen_races {
        use super::*;
        use shisen::{Nodes, Point, Verdict};
        use shisen_game::Turn as ShisenTurn;

        const SPEC: &str = "6x4-gravity";

        fn spec() -> ShisenSpec {
            SPEC.parse().unwrap()
        }

        /// A room of `keys` racing a 6x4 Shisen-Sho deal with gravity,
        /// started at `COUNTDOWN_MS`.
        fn racing(keys: &[&str], seed: u64) -> Race {
            let mut race = Race::new(RaceGame::Shisen(spec()), seed, 0).unwrap();
            for key in keys {
                race.join(key, name(key), None, 0).unwrap();
            }
            race.start(keys[0], 0).unwrap();
            race.tick(COUNTDOWN_MS);
            race
        }

        fn dealt(race: &Race) -> &ShisenDeal {
            let Some(Deal::Shisen(deal)) = race.deal() else {
                panic!("not dealt")
            };
            deal
        }

        /// The solver's clearing sequence of the deal, as turns.
        fn clearing(race: &Race) -> Vec<ShisenTurn> {
            let deal = dealt(race);
            let verdict =
                shisen::solve(&deal.board, deal.spec.rules(), &mut Nodes(u64::MAX)).verdict;
            let Verdict::Solvable(moves) = verdict else {
                panic!("a solvable deal: {verdict:?}")
            };
            moves.iter().map(|m| ShisenTurn::Remove(m.a, m.b)).collect()
        }

        fn turn(turn: ShisenTurn) -> Turn {
            Turn::Shisen(turn)
        }

        fn standing(events: &[Event]) -> Standing {
            events
                .iter()
                .find_map(|e| match e {
                    Event::Progress(p) => Some(p.standing.clone()),
                    _ => None,
                })
                .expect("a progress")
        }

        #[test]
        fn every_racer_gets_the_seeds_deal() {
            let race = racing(&["a", "b"], 5);
            let deal = dealt(&race);
            assert_eq!(deal.seed, 5);
            assert_eq!(deal.board, spec().deal(5, &mut Deadline::none()).unwrap());
            let (one, _, _) = race.shisen_of(1).unwrap();
            let (two, _, _) = race.shisen_of(2).unwrap();
            assert_eq!(one.game().board(), &deal.board);
            assert_eq!(two.game().board(), &deal.board);
            assert_eq!(one.game().rules(), spec().rules());
        }

        #[test]
        fn a_pair_is_progress_and_a_wrong_one_is_refused() {
            let mut race = racing(&["a", "b"], 5);
            let first = clearing(&race)[0];
            let board = dealt(&race).board.clone();
            let tiles = board.tiles_left();
            // Two tiles that do not match: refused, nothing played.
            let (p, kind) = board.tiles().next().unwrap();
            let (q, _) = board.tiles().find(|(_, k)| *k != kind).unwrap();
            let refused = race.play("a", &turn(ShisenTurn::Remove(p, q)), 10, COUNTDOWN_MS + 10);
            assert!(
                matches!(&refused, Err(RaceError::IllegalTurn(why)) if why.contains("do not match")),
                "{refused:?}"
            );
            let off = ShisenTurn::Remove(Point::new(40, 40), p);
            assert!(matches!(
                race.play("a", &turn(off), 10, COUNTDOWN_MS + 10),
                Err(RaceError::IllegalTurn(_))
            ));
            assert!(matches!(
                race.play("a", &turn(ShisenTurn::Undo), 10, COUNTDOWN_MS + 10),
                Err(RaceError::IllegalTurn(_))
            ));
            assert_eq!(
                race.play("a", &slide(&Moves::new()), 10, COUNTDOWN_MS + 10),
                Err(RaceError::WrongGame("Shisen-Sho"))
            );
            assert_eq!(race.shisen_of(1).unwrap().1, &[] as &[ShisenTurn]);
            // A pair that connects: everyone hears tiles left and score.
            let events = race
                .play("a", &turn(first), 900, COUNTDOWN_MS + 1000)
                .unwrap();
            let Some(Event::Progress(progress)) = events.first() else {
                panic!("{events:?}")
            };
            assert_eq!((progress.seat, progress.moves, progress.t), (1, 1, 1000));
            let mut by_hand = shisen_game::Session::new(board, spec().rules(), 5);
            let ShisenTurn::Remove(a, b) = first else {
                unreachable!()
            };
            by_hand.remove(a, b).unwrap();
            assert_eq!(
                progress.standing,
                Standing::Shisen {
                    tiles_left: tiles - 2,
                    score: by_hand.game().score(1),
                    stuck: by_hand.game().is_stuck(),
                }
            );
            assert!(by_hand.game().score(1) > 0);
            let (session, turns, times) = race.shisen_of(1).unwrap();
            assert_eq!(session.game().board(), by_hand.game().board());
            assert_eq!((turns, times), (&[first][..], &[900][..]));
        }

        #[test]
        fn a_shuffle_is_the_decks_and_the_steps() {
            let mut race = racing(&["a", "b"], 5);
            let first = clearing(&race)[0];
            race.play("a", &turn(first), 0, COUNTDOWN_MS).unwrap();
            race.play("a", &turn(ShisenTurn::Shuffle), 0, COUNTDOWN_MS)
                .unwrap();
            let by_hand = shisen_game::Session::new(dealt(&race).board.clone(), spec().rules(), 5)
                .replay(&[first, ShisenTurn::Shuffle])
                .unwrap()
                .session;
            let (session, _, _) = race.shisen_of(1).unwrap();
            assert_eq!(session.game().board(), by_hand.game().board());
            assert_eq!(session.game().stats().shuffles, 1);
        }

        #[test]
        fn clearing_the_board_finishes_and_results_rank_by_time_then_tiles_left() {
            let mut race = racing(&["a", "b", "c"], 5);
            let clearing = clearing(&race);
            // c removes one pair; b clears the board, then a.
            race.play("c", &turn(clearing[0]), 0, COUNTDOWN_MS + 100)
                .unwrap();
            let mut last = Vec::new();
            for (i, pair) in clearing.iter().enumerate() {
                last = race
                    .play("b", &turn(*pair), i as i64, COUNTDOWN_MS + 2000)
                    .unwrap();
            }
            let finish = last
                .iter()
                .find_map(|e| match e {
                    Event::Finish(f) => Some(f.clone()),
                    _ => None,
                })
                .expect("the last pair clears the board");
            assert_eq!((finish.seat, finish.place, finish.millis), (2, 1, 2000));
            let Solve::Shisen { removals, score } = finish.solve else {
                panic!("{finish:?}")
            };
            assert_eq!(removals, clearing.len());
            let mut replayed =
                shisen_game::Session::new(dealt(&race).board.clone(), spec().rules(), 5);
            replayed = replayed.replay(&clearing).unwrap().session;
            assert!(replayed.game().is_won());
            assert_eq!(score, replayed.game().score(2));
            assert_eq!(
                race.play("b", &turn(clearing[0]), 5000, COUNTDOWN_MS + 2100),
                Err(RaceError::AlreadyFinished)
            );
            for pair in &clearing {
                race.play("a", &turn(*pair), 3000, COUNTDOWN_MS + 3000)
                    .unwrap();
            }
            assert!(race.results().is_none(), "c still races");
            let events = race.leave("c", COUNTDOWN_MS + 4000);
            let Some(Event::Results(results)) =
                events.iter().find(|e| matches!(e, Event::Results(_)))
            else {
                panic!("{events:?}")
            };
            let seats: Vec<Seat> = results.iter().map(|p| p.seat).collect();
            assert_eq!(seats, [2, 1, 3]);
            assert_eq!(results[1].finish.as_ref().unwrap().place, 2);
            assert!(results[2].finish.is_none());
            let tiles = dealt(&race).board.tiles_left();
            assert!(matches!(
                results[2].progress.standing,
                Standing::Shisen { tiles_left, .. } if tiles_left == tiles - 2
            ));
        }

        #[test]
        fn unfinished_racers_rank_by_tiles_left_then_score() {
            let mut race = racing(&["a", "b", "c"], 5);
            let clearing = clearing(&race);
            // a removes two pairs, b and c one each, b later (a lower
            // score: the pace counts).
            race.play("a", &turn(clearing[0]), 0, COUNTDOWN_MS).unwrap();
            race.play("a", &turn(clearing[1]), 0, COUNTDOWN_MS).unwrap();
            race.play("c", &turn(clearing[0]), 0, COUNTDOWN_MS + 1000)
                .unwrap();
            race.play("b", &turn(clearing[0]), 0, COUNTDOWN_MS + 60_000)
                .unwrap();
            race.leave("a", COUNTDOWN_MS + 70_000);
            race.leave("b", COUNTDOWN_MS + 70_000);
            let events = race.leave("c", COUNTDOWN_MS + 70_000);
            let Some(Event::Results(results)) =
                events.iter().find(|e| matches!(e, Event::Results(_)))
            else {
                panic!("{events:?}")
            };
            let scores: Vec<(Seat, usize, u64)> = results
                .iter()
                .map(|p| match p.progress.standing {
                    Standing::Shisen {
                        tiles_left, score, ..
                    } => (p.seat, tiles_left, score),
                    Standing::Slide { .. } => panic!("a Shisen-Sho race"),
                })
                .collect();
            assert_eq!(scores.iter().map(|s| s.0).collect::<Vec<_>>(), [1, 3, 2]);
            assert!(scores[0].1 < scores[1].1);
            assert_eq!(scores[1].1, scores[2].1);
            assert!(scores[1].2 > scores[2].2, "{scores:?}");
        }

        /// A racer with no pair left who can still shuffle plays on; the
        /// stuck flag tells them so.
        #[test]
        fn a_stuck_racer_shuffles_and_plays_on() {
            // Greedy play (the first pair each time) gets stuck on some deal.
            let (mut race, seed) = (0..200)
                .map(|seed| (racing(&["a", "b"], seed), seed))
                .find(|(race, _)| {
                    let mut session = race.shisen_of(1).unwrap().0.clone();
                    while let Some(m) = session.game().board().moves().first().copied() {
                        session.remove(m.a, m.b).unwrap();
                    }
                    session.game().is_stuck()
                })
                .expect("a deal greedy play gets stuck on");
            let mut last = Vec::new();
            loop {
                let session = race.shisen_of(1).unwrap().0;
                let Some(m) = session.game().board().moves().first().copied() else {
                    break;
                };
                last = race
                    .play("a", &turn(ShisenTurn::Remove(m.a, m.b)), 0, COUNTDOWN_MS)
                    .unwrap();
            }
            assert!(
                matches!(standing(&last), Standing::Shisen { stuck: true, .. }),
                "seed {seed}: {last:?}"
            );
            assert!(!race.view().players[0].done, "a shuffle may still help");
            let Some(Board::Shisen(board)) = &race.racers[0].board else {
                panic!("a Shisen-Sho board")
            };
            assert!(!board.stuck_for_good());
            let events = race
                .play("a", &turn(ShisenTurn::Shuffle), 0, COUNTDOWN_MS)
                .unwrap();
            assert!(matches!(
                standing(&events),
                Standing::Shisen { stuck: false, .. }
            ));
        }

        #[test]
        fn the_same_turns_give_the_same_race() {
            let play = || {
                let mut race = racing(&["a", "b"], 9);
                let clearing = clearing(&race);
                let mut events = Vec::new();
                for (i, pair) in clearing.iter().take(3).enumerate() {
                    events.extend(
                        race.play("a", &turn(*pair), 0, COUNTDOWN_MS + i as i64)
                            .unwrap(),
                    );
                }
                events.extend(
                    race.play("b", &turn(ShisenTurn::Shuffle), 0, COUNTDOWN_MS + 9)
                        .unwrap(),
                );
                // Legal or not after b's shuffle, the same on every replay.
                let after = race.play("b", &turn(clearing[0]), 0, COUNTDOWN_MS + 9);
                (
                    events,
                    after,
                    race.shisen_of(2).unwrap().0.game().board().clone(),
                )
            };
            assert_eq!(play(), play());
        }

        #[test]
        fn race_games_read_back_as_named() {
            for text in [
                "slide:3x3-row-major",
                "shisen:6x4-gravity",
                "shisen:18x8-chinese-any",
            ] {
                assert_eq!(text.parse::<RaceGame>().unwrap().to_string(), text);
            }
            assert_eq!(
                "shisen:6x4".parse::<RaceGame>(),
                Ok(RaceGame::Shisen(ShisenSpec {
                    gravity: false,
                    ..spec()
                }))
            );
            for bad in [
                "3x3-row-major",
                "shisen:3x3-row-major",
                "slide:6x4-gravity",
                "mahjong:6x4",
                "",
            ] {
                assert!(bad.parse::<RaceGame>().is_err(), "{bad}");
            }
        }
    }
}
