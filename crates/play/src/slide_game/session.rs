//! A sliding puzzle as every front end plays it: the start, the goal, the
//! moves made, and what a move list comes to.

use slide::{Direction, IllegalMove, Moves, Position, ReplayError};

/// A puzzle being played.
#[derive(Clone, Debug)]
pub struct Session {
    start: Position,
    goal: Position,
    position: Position,
    history: Vec<Direction>,
}

/// What a list of moves comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The position the moves lead to.
    pub position: Position,
    /// Whether that is the goal.
    pub solved: bool,
    /// Single-tile moves (STM).
    pub stm: usize,
    /// Multi-tile moves (MTM): runs of single-tile moves in one direction.
    pub mtm: usize,
}

impl Session {
    /// A session from `start` towards `goal` (of the same size and labels).
    pub fn new(start: Position, goal: Position) -> Session {
        Session {
            position: start.clone(),
            start,
            goal,
            history: Vec::new(),
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the puzzle started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The goal.
    pub fn goal(&self) -> &Position {
        &self.goal
    }

    /// The moves made since the start (undone ones dropped).
    pub fn moves(&self) -> Moves {
        Moves(self.history.clone())
    }

    /// Whether the position is the goal.
    pub fn is_solved(&self) -> bool {
        self.position == self.goal
    }

    /// Slides the tile next to the blank in `direction`.
    pub fn slide(&mut self, direction: Direction) -> Result<(), IllegalMove> {
        self.position.apply(direction)?;
        self.history.push(direction);
        Ok(())
    }

    /// Takes the last move back; `false` at the start.
    pub fn undo(&mut self) -> bool {
        let Some(direction) = self.history.pop() else {
            return false;
        };
        self.position
            .undo(direction)
            .expect("a move just made can be taken back");
        true
    }

    /// Back to the start.
    pub fn restart(&mut self) {
        self.position = self.start.clone();
        self.history.clear();
    }

    /// The outcome of the moves made so far.
    pub fn outcome(&self) -> Outcome {
        let moves = self.moves();
        Outcome {
            position: self.position.clone(),
            solved: self.is_solved(),
            stm: moves.len(),
            mtm: moves.mtm_len(),
        }
    }

    /// Whether playing `moves` from `start` passes through any of
    /// `positions` (the start itself included): a game is assisted when the
    /// solver was asked about one of its positions.
    pub fn passes_through(start: &Position, moves: &Moves, positions: &[Position]) -> bool {
        if positions.is_empty() {
            return false;
        }
        let mut position = start.clone();
        if positions.contains(&position) {
            return true;
        }
        moves
            .iter()
            .any(|direction| position.apply(direction).is_ok() && positions.contains(&position))
    }

    /// Plays `moves` from the start of the puzzle (the replay a server runs
    /// on a submission), or says which move is illegal.
    pub fn replay(
        start: &Position,
        goal: &Position,
        moves: &Moves,
    ) -> Result<Outcome, ReplayError> {
        let mut position = start.clone();
        position.apply_all(moves)?;
        Ok(Outcome {
            solved: &position == goal,
            position,
            stm: moves.len(),
            mtm: moves.mtm_len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn moves_undo_and_outcomes() {
        let goal = position("1 2 3/4 5 6/7 8 0");
        let mut s = Session::new(position("1 2 3/4 5 6/0 7 8"), goal.clone());
        assert!(
            s.slide(Direction::Right).is_err(),
            "no tile left of the blank"
        );
        s.slide(Direction::Left).unwrap();
        assert!(!s.is_solved());
        s.slide(Direction::Left).unwrap();
        assert!(s.is_solved());
        let outcome = s.outcome();
        assert_eq!((outcome.stm, outcome.mtm, outcome.solved), (2, 1, true));
        assert!(s.undo());
        assert_eq!(s.moves().to_string(), "L");
        s.restart();
        assert_eq!(s.position(), s.start());
        assert!(!s.undo());
    }

    #[test]
    fn a_replay_agrees_with_play() {
        let goal = position("1 2 3/4 5 6/7 8 0");
        let start = position("1 2 3/4 5 6/0 7 8");
        let moves: Moves = "LL".parse().unwrap();
        let outcome = Session::replay(&start, &goal, &moves).unwrap();
        let mut played = Session::new(start.clone(), goal.clone());
        moves.iter().for_each(|d| played.slide(d).unwrap());
        assert_eq!(outcome, played.outcome());
        assert!(Session::replay(&start, &goal, &"R".parse().unwrap()).is_err());
    }

    #[test]
    fn a_game_passes_through_its_start_and_every_position_after() {
        let start = position("1 2 3/4 5 6/0 7 8");
        let moves: Moves = "LL".parse().unwrap();
        let middle = position("1 2 3/4 5 6/7 0 8");
        let elsewhere = position("1 2 3/4 5 0/7 8 6");
        assert!(Session::passes_through(
            &start,
            &moves,
            std::slice::from_ref(&start)
        ));
        assert!(Session::passes_through(
            &start,
            &moves,
            &[elsewhere.clone(), middle]
        ));
        assert!(!Session::passes_through(&start, &moves, &[elsewhere]));
        assert!(!Session::passes_through(&start, &moves, &[]));
    }
}
