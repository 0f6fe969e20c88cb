//! What the moves so far did to each tile, for the displays that depend on
//! them: the tile that moved last, how often each tile moved, which tiles
//! have been moved home.

use slide::{Moves, Position, ReplayError};

use super::{Board, Shown};

/// The history of a puzzle's tiles since its start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    /// How many times each tile (by label) has moved.
    moved: Vec<u32>,
    /// Whether each tile (by label) has been moved into its goal cell.
    was_home: Vec<bool>,
    last: Option<u32>,
}

impl Recent {
    /// Plays `moves` from `start`, noting what each did; the position they
    /// reach, or the first illegal move.
    pub fn replay(
        start: &Position,
        goal: &Position,
        moves: &Moves,
    ) -> Result<(Recent, Position), ReplayError> {
        let labels = start.tiles().len() + 1;
        let mut recent = Recent {
            moved: vec![0; labels],
            was_home: vec![false; labels],
            last: None,
        };
        let mut position = start.clone();
        for (index, direction) in moves.iter().enumerate() {
            // The tile that moves lands in the cell the blank left.
            let landed = position.blank();
            position
                .apply(direction)
                .map_err(|_| ReplayError { index, direction })?;
            let tile = position.tiles()[landed];
            recent.moved[tile as usize] += 1;
            recent.was_home[tile as usize] |= goal.tiles()[landed] == tile;
            recent.last = Some(tile);
        }
        Ok((recent, position))
    }

    /// The tile that moved last, if any moved.
    pub fn last(&self) -> Option<u32> {
        self.last
    }

    /// How many times `tile` has moved.
    pub fn moved(&self, tile: u32) -> u32 {
        self.moved.get(tile as usize).copied().unwrap_or(0)
    }

    /// Whether a move has put `tile` in its goal cell.
    pub fn was_home(&self, tile: u32) -> bool {
        self.was_home.get(tile as usize).copied().unwrap_or(false)
    }
}

/// The moves after which a fading tile is gone: 2N on an N×N board,
/// 2√(WH) (rounded) on a W×H one.
pub(super) fn fade_limit(board: &Board) -> u32 {
    (2.0 * ((board.width() * board.height()) as f64).sqrt()).round() as u32
}

/// A fading tile that has moved `moved` times of `of`.
pub(super) fn faded(tile: u32, moved: u32, of: u32) -> Shown {
    if moved >= of {
        return Shown::hidden();
    }
    Shown {
        opacity: Some((of - moved, of)),
        ..Shown::text(tile)
    }
}
