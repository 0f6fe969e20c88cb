//! What changes a race, as it is logged: a racer's message, a lost
//! connection, the room's clock; and why a step was not taken.

use play::race::{AnyRace, Deal, Entrant, Event, RaceError, RacerName, Turn};
use play::shisen_game;
use serde::{Deserialize, Serialize};
use slide::Moves;

/// What changes a race, as it is logged: the same steps at the same
/// times give the same race wherever they are taken.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Step {
    /// A connection opens: a spectator until they join.
    Watch {
        key: String,
    },
    Join {
        key: String,
        #[serde(with = "as_text")]
        name: RacerName,
        account: Option<String>,
    },
    Ready {
        key: String,
        ready: bool,
    },
    Start {
        key: String,
    },
    /// Sliding moves, logged as text: `RRU`.
    Play {
        key: String,
        #[serde(with = "as_text")]
        moves: Moves,
        t: i64,
    },
    /// A Shisen-Sho turn, logged as text: `x1,y1-x2,y2` or `shuffle`.
    Turn {
        key: String,
        #[serde(with = "as_text")]
        turn: shisen_game::Turn,
        t: i64,
    },
    /// The seed is drawn by the instance that logs the step.
    Rematch {
        key: String,
        seed: u64,
    },
    Disconnect {
        key: String,
    },
    Leave {
        key: String,
    },
    /// The room's clock: a countdown ending, an absence lapsing.
    Tick,
    /// A pairing (quick match, an arena) seats its racers: logged once,
    /// right after the room opens.
    Pair {
        racers: Vec<Paired>,
    },
}

/// A racer a pairing seats: their key in the room, the name shown (their
/// handle) and their account's handle.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Paired {
    pub key: String,
    #[serde(with = "as_text")]
    pub name: RacerName,
    pub account: String,
}

/// A logged field as the text it reads from and prints to: the log
/// holds what the protocol sends, and reads back into the checked type.
mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{de, Deserialize, Deserializer, Serializer};

    pub fn serialize<T: Display, S: Serializer>(value: &T, out: S) -> Result<S::Ok, S::Error> {
        out.collect_str(value)
    }

    pub fn deserialize<'de, T, D>(input: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(input)?;
        text.parse().map_err(de::Error::custom)
    }
}

/// A step and when it was taken.
#[derive(Serialize, Deserialize)]
pub(super) struct Logged {
    pub at: i64,
    pub step: Step,
}

impl Step {
    /// A racer's turn, logged as its game's step: sliding moves as
    /// `play`, a Shisen-Sho turn as `turn`.
    pub fn play(key: String, turn: Turn, t: i64) -> Step {
        match turn {
            Turn::Slide(moves) => Step::Play { key, moves, t },
            Turn::Shisen(turn) => Step::Turn { key, turn, t },
        }
    }

    /// Plays the step on `race` at `at` (after the race is moved on to
    /// `at`, which the caller does). A rematch's deal is asked of `deal`
    /// only once the rules allow the rematch.
    pub(super) fn take(
        &self,
        race: &mut AnyRace,
        at: i64,
        deal: impl FnOnce(u64) -> Result<Deal, RaceError>,
    ) -> Result<Vec<Event>, RaceError> {
        match self {
            Step::Watch { key } => race.watch(key, at),
            Step::Join { key, name, account } => {
                let entrant = Entrant {
                    key: key.clone(),
                    name: name.clone(),
                    account: account.clone(),
                };
                Ok(race.join(entrant, at)?.1)
            }
            Step::Ready { key, ready } => race.ready(key, *ready, at),
            Step::Start { key } => race.start(key, at),
            Step::Play { key, moves, t } => race.play(key, &Turn::Slide(moves.clone()), *t, at),
            Step::Turn { key, turn, t } => race.play(key, &Turn::Shisen(*turn), *t, at),
            Step::Rematch { key, seed } => {
                race.may_rematch(key)?;
                race.rematch(key, deal(*seed)?, at)
            }
            Step::Disconnect { key } => Ok(race.disconnect(key, at)),
            Step::Leave { key } => Ok(race.leave(key, at)),
            Step::Tick => Ok(Vec::new()),
            Step::Pair { racers } => {
                let entrants = racers
                    .iter()
                    .map(|racer| Entrant {
                        key: racer.key.clone(),
                        name: racer.name.clone(),
                        account: Some(racer.account.clone()),
                    })
                    .collect();
                race.pair(entrants, at)
            }
        }
    }
}

/// Why a step was not taken.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    /// The rules refused it.
    #[error("{0}")]
    Rules(#[from] RaceError),
    /// The shared log could not be written or read.
    #[error("the race could not be saved: try again ({0})")]
    Store(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_read_back_as_logged() {
        let steps = [
            Step::Watch { key: "k".into() },
            Step::Join {
                key: "k".into(),
                name: "Ada".parse().unwrap(),
                account: Some("ada".into()),
            },
            Step::Ready {
                key: "k".into(),
                ready: true,
            },
            Step::Play {
                key: "k".into(),
                moves: "RRU".parse().unwrap(),
                t: 1200,
            },
            Step::Turn {
                key: "k".into(),
                turn: "0,1-3,2".parse().unwrap(),
                t: 1300,
            },
            Step::Rematch {
                key: "k".into(),
                seed: 7,
            },
            Step::Tick,
            Step::Pair {
                racers: vec![Paired {
                    key: "account:1".into(),
                    name: "ada".parse().unwrap(),
                    account: "ada".into(),
                }],
            },
        ];
        for step in steps {
            let text = serde_json::to_string(&Logged {
                at: 5,
                step: step.clone(),
            })
            .unwrap();
            let back: Logged = serde_json::from_str(&text).unwrap();
            assert_eq!(back.at, 5);
            assert_eq!(format!("{:?}", back.step), format!("{step:?}"));
        }
    }
}
