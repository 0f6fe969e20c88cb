//! What a room races: the rules a game brings to a race (how a seed deals
//! it, what a turn is, when a racer is done), and the two games that
//! bring them.

use std::fmt;
use std::str::FromStr;

use slide::{Moves, ReplayError};

use super::{RaceError, Solve, Standing};
use crate::limits::{SUBMITTED_MOVES, SUBMITTED_TURNS};
use crate::shisen_game::{self, shuffle_seed, ShisenSpec};
use crate::slide_game::{Puzzle, Session, SlideSpec};
use crate::Deadline;

/// A game a room can race: the spec of what is dealt, and the rules of
/// one racer's board. [`Race`](super::Race) is generic over it, so a
/// room's turns are of its game by their type.
pub trait RaceGame: Clone + fmt::Debug + PartialEq {
    /// What every racer gets, dealt from a seed.
    type Deal: Clone + fmt::Debug + PartialEq + Into<Deal>;
    /// One racer's game in progress.
    type Board: Clone + fmt::Debug;
    /// What a racer plays in one message.
    type Turn: Clone + fmt::Debug;

    /// The deal `seed` gives. The same on every replica of a room: no
    /// deadline may give up on one and not another.
    fn deal(&self, seed: u64) -> Result<Self::Deal, RaceError>;

    /// The seed a deal came from.
    fn seed(deal: &Self::Deal) -> u64;

    /// A racer's board at the start.
    fn board(deal: &Self::Deal) -> Self::Board;

    /// `turn` played on a copy of `board`, `elapsed` ms from the start by
    /// the server's clock: the board it leads to and how many single
    /// moves it made (each gets the racer's time). A turn that reaches the
    /// goal stops there; an illegal one is refused whole.
    fn play(
        board: &Self::Board,
        turn: &Self::Turn,
        elapsed: i64,
    ) -> Result<(Self::Board, usize), RaceError>;

    /// The board is solved: the racer finishes.
    fn is_solved(board: &Self::Board) -> bool;

    /// Nothing more can be played on the board: the racer is out.
    fn is_out(board: &Self::Board) -> bool;

    /// Moves made so far, as the progress counts them.
    fn moves(board: &Self::Board) -> usize;

    /// How far the board is.
    fn standing(board: &Self::Board) -> Standing;

    /// What a solved board took.
    fn solve(board: &Self::Board) -> Solve;
}

/// What a room races, known once read: how a shared room names its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaceSpec {
    /// A sliding puzzle of this spec.
    Slide(SlideSpec),
    /// A Shisen-Sho deal of this spec.
    Shisen(ShisenSpec),
}

impl RaceSpec {
    /// The puzzle `seed` deals for this game. A rematch is given its deal
    /// rather than a seed, so that the dealing (a solvable Shisen-Sho
    /// board may take a second) is done before the room is locked.
    pub fn deal(&self, seed: u64) -> Result<Deal, RaceError> {
        Ok(match self {
            RaceSpec::Slide(spec) => Deal::Slide(RaceGame::deal(spec, seed)?),
            RaceSpec::Shisen(spec) => Deal::Shisen(RaceGame::deal(spec, seed)?),
        })
    }
}

impl fmt::Display for RaceSpec {
    /// `slide:` or `shisen:` and the spec, e.g. `slide:3x3-row-major`,
    /// `shisen:6x4-gravity`: how a shared room names its game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RaceSpec::Slide(spec) => write!(f, "slide:{spec}"),
            RaceSpec::Shisen(spec) => write!(f, "shisen:{spec}"),
        }
    }
}

impl FromStr for RaceSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<RaceSpec, String> {
        match text.split_once(':') {
            Some(("slide", spec)) => spec
                .parse()
                .map(RaceSpec::Slide)
                .map_err(|e| format!("{e}")),
            Some(("shisen", spec)) => spec
                .parse()
                .map(RaceSpec::Shisen)
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

/// The puzzle every racer gets, as the room announces it.
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

impl From<Puzzle> for Deal {
    fn from(puzzle: Puzzle) -> Deal {
        Deal::Slide(puzzle)
    }
}

impl From<ShisenDeal> for Deal {
    fn from(deal: ShisenDeal) -> Deal {
        Deal::Shisen(deal)
    }
}

impl RaceGame for SlideSpec {
    type Deal = Puzzle;
    type Board = Session;
    /// Sliding moves, played in order.
    type Turn = Moves;

    fn deal(&self, seed: u64) -> Result<Puzzle, RaceError> {
        Ok(self.issue(seed)?)
    }

    fn seed(deal: &Puzzle) -> u64 {
        deal.seed
    }

    fn board(deal: &Puzzle) -> Session {
        Session::new(deal.start.clone(), deal.goal_position.clone())
    }

    fn play(session: &Session, moves: &Moves, _: i64) -> Result<(Session, usize), RaceError> {
        if moves.is_empty() {
            return Err(RaceError::NoMoves);
        }
        let mut played = session.clone();
        let made = slide_until_solved(&mut played, moves)?;
        if played.moves().len() > SUBMITTED_MOVES {
            return Err(RaceError::TooManyMoves);
        }
        Ok((played, made))
    }

    fn is_solved(session: &Session) -> bool {
        session.is_solved()
    }

    fn is_out(_: &Session) -> bool {
        // A sliding puzzle can always be played on.
        false
    }

    fn moves(session: &Session) -> usize {
        session.moves().len()
    }

    fn standing(session: &Session) -> Standing {
        Standing::Slide {
            solved_tiles: solved_tiles(session),
        }
    }

    fn solve(session: &Session) -> Solve {
        let outcome = session.outcome();
        Solve::Slide {
            stm: outcome.stm,
            mtm: outcome.mtm,
        }
    }
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
pub(super) fn solved_tiles(session: &Session) -> usize {
    let (now, goal) = (session.position().tiles(), session.goal().tiles());
    now.iter()
        .zip(goal)
        .filter(|(tile, wanted)| **tile != 0 && tile == wanted)
        .count()
}

/// A Shisen-Sho racer's game: the session, the turns that made it, and
/// when the last one was played.
#[derive(Clone, Debug)]
pub struct ShisenBoard {
    session: shisen_game::Session,
    turns: Vec<shisen_game::Turn>,
    /// Milliseconds from the start to the last turn, by the server's
    /// clock: what the score's pace is measured on.
    at: i64,
}

impl ShisenBoard {
    /// The game now.
    pub fn session(&self) -> &shisen_game::Session {
        &self.session
    }

    /// The turns that made it.
    pub fn turns(&self) -> &[shisen_game::Turn] {
        &self.turns
    }

    /// The score as of the last turn.
    fn score(&self) -> u64 {
        self.session.game().score((self.at / 1000) as u64)
    }

    /// No pair connects, and the shuffle the rules would make now leaves
    /// none either: nothing more can be played.
    pub(super) fn stuck_for_good(&self) -> bool {
        let game = self.session.game();
        if !game.is_stuck() {
            return false;
        }
        let mut trial = shisen::Game::new(game.board().clone(), game.rules());
        trial.shuffle(shuffle_seed(self.session.seed(), game.step()));
        trial.is_stuck()
    }
}

impl RaceGame for ShisenSpec {
    type Deal = ShisenDeal;
    type Board = ShisenBoard;
    /// A removal or a shuffle (a race has no undo or redo).
    type Turn = shisen_game::Turn;

    fn deal(&self, seed: u64) -> Result<ShisenDeal, RaceError> {
        // No deadline: the deal must be the seed's on every replica, and
        // a deadline could give up on one and not another.
        Ok(ShisenDeal {
            seed,
            spec: *self,
            board: self.deal(seed, &mut Deadline::none())?,
        })
    }

    fn seed(deal: &ShisenDeal) -> u64 {
        deal.seed
    }

    fn board(deal: &ShisenDeal) -> ShisenBoard {
        ShisenBoard {
            session: shisen_game::Session::new(deal.board.clone(), deal.spec.rules(), deal.seed),
            turns: Vec::new(),
            at: 0,
        }
    }

    fn play(
        board: &ShisenBoard,
        turn: &shisen_game::Turn,
        elapsed: i64,
    ) -> Result<(ShisenBoard, usize), RaceError> {
        use shisen_game::Turn::{Redo, Remove, Shuffle, Undo};
        match turn {
            Remove(..) | Shuffle => {}
            Undo | Redo => return Err(RaceError::IllegalTurn("a race has no undo or redo".into())),
        }
        if board.turns.len() >= SUBMITTED_TURNS {
            return Err(RaceError::TooManyTurns);
        }
        let mut played = board.clone();
        played.session.play(*turn).map_err(RaceError::IllegalTurn)?;
        played.turns.push(*turn);
        played.at = elapsed;
        Ok((played, 1))
    }

    fn is_solved(board: &ShisenBoard) -> bool {
        board.session.game().is_won()
    }

    fn is_out(board: &ShisenBoard) -> bool {
        board.stuck_for_good()
    }

    fn moves(board: &ShisenBoard) -> usize {
        board.session.game().history().len()
    }

    fn standing(board: &ShisenBoard) -> Standing {
        Standing::Shisen {
            tiles_left: board.session.game().board().tiles_left(),
            score: board.score(),
            stuck: board.session.game().is_stuck(),
        }
    }

    fn solve(board: &ShisenBoard) -> Solve {
        Solve::Shisen {
            removals: board.session.game().history().len(),
            score: board.score(),
        }
    }
}
