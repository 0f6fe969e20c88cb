//! An arena's points, as lichess's arena gives them: a win is worth 2, a
//! draw 1, a loss nothing, and a player on a streak (this win follows a
//! win) scores double until they fail to win. The streak rewards playing
//! on and winning rather than waiting on a good placing.
//!
//! A race of two is one game. A race of more is scored as its pairs, as
//! the ratings score it (`rating::Outcome::score_against`): 2 points per
//! racer beaten, 1 per draw, and it counts as a win for the streak only
//! when the racer beat everyone.

use crate::rating::Outcome;

/// Points for a win against one racer.
pub const WIN: u32 = 2;
/// Points for a draw against one racer.
pub const DRAW: u32 = 1;

/// An entrant's standing: points, races, wins and the streak they are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Points so far.
    pub points: u32,
    /// Races played.
    pub races: u32,
    /// Races won (every other racer beaten).
    pub wins: u32,
    /// Races won in a row, up to now.
    pub streak: u32,
}

/// The points a race gives racer `index` before any streak: 2 per racer
/// beaten, 1 per racer drawn with; and whether they won it (beat
/// everyone).
pub fn race_points(outcomes: &[Outcome], index: usize) -> (u32, bool) {
    let mine = outcomes[index];
    let mut points = 0;
    let mut beat_all = true;
    for (other, &theirs) in outcomes.iter().enumerate() {
        if other == index {
            continue;
        }
        let score = mine.score_against(theirs);
        if score == 1.0 {
            points += WIN;
        } else {
            beat_all = false;
            if score == 0.5 {
                points += DRAW;
            }
        }
    }
    (points, beat_all && outcomes.len() > 1)
}

impl Standing {
    /// Adds a race's `(points, won)`: doubled when this win follows a win.
    pub fn add(&mut self, (points, won): (u32, bool)) {
        self.races += 1;
        if won {
            self.points += if self.streak >= 1 { points * 2 } else { points };
            self.streak += 1;
            self.wins += 1;
        } else {
            self.points += points;
            self.streak = 0;
        }
    }

    /// On fire: their next win counts double.
    pub fn on_fire(&self) -> bool {
        self.streak >= 1
    }
}
