//! Arenas: a pool, a start and a duration, in which entrants race again
//! as soon as they are free, as in lichess's arena tournaments.
//!
//! An [`Arena`] is a state machine with no I/O and no clock of its own:
//! every call takes the time now, in milliseconds. The front end asks it
//! for [`Arena::pairings`] whenever entrants may be free, opens a race
//! room for each, and hands each finished race's outcomes back to
//! [`Arena::record`]. Scoring is [`score`]'s.

mod score;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

pub use score::{race_points, Standing, DRAW, WIN};

use crate::rating::{Outcome, Pool};

/// The shortest arena: time for a handful of races.
pub const SHORTEST_MS: i64 = 10 * 60_000;
/// The longest arena: an hour, the length of lichess's hourly arenas.
pub const LONGEST_MS: i64 = 60 * 60_000;

/// Why an arena cannot be made or entered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// A duration outside 10 to 60 minutes.
    #[error("an arena lasts 10 to 60 minutes, not {0} ms")]
    Duration(i64),
    /// An arena whose end has passed.
    #[error("this arena has ended")]
    Ended,
    /// A race the arena did not pair, or one already recorded.
    #[error("race {0} is not one of this arena's races in play")]
    UnknownRace(String),
}

/// Where an entrant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Waiting to be paired.
    Free,
    /// In a race the arena paired.
    Racing,
    /// Left the arena's page: kept in the standings, not paired until
    /// they come back.
    Paused,
}

/// An entrant as a front end keeps them between calls.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Who (an account's key).
    pub who: String,
    /// Where they are now.
    pub presence: Presence,
    /// When they last became free.
    pub free_since: i64,
}

/// A race the arena paired and that has been settled: its racers, in
/// seat order, and their outcomes.
#[derive(Clone, Debug)]
pub struct Played {
    /// The racers, in seat order.
    pub racers: Vec<String>,
    /// Each racer's outcome.
    pub outcomes: Vec<Outcome>,
}

/// An arena's rules and state.
#[derive(Clone, Debug)]
pub struct Arena {
    /// The races' pool: what is raced, and which ratings the races move.
    pub pool: Pool,
    /// When pairing starts, in milliseconds.
    pub starts: i64,
    /// When pairing stops: races paired before still count.
    pub ends: i64,
    entrants: BTreeMap<String, Entrant>,
    /// The races in play, by the id the front end gave them, with their
    /// racers.
    racing: BTreeMap<String, Vec<String>>,
}

#[derive(Clone, Debug)]
struct Entrant {
    presence: Presence,
    standing: Standing,
    /// Who they raced last, so that two are not paired twice running
    /// while anyone else is free.
    last_opponents: Vec<String>,
    /// When they last became free: the longest free are paired first.
    free_since: i64,
}

impl Arena {
    /// An arena of `pool` from `starts` for `duration` milliseconds.
    pub fn new(pool: Pool, starts: i64, duration: i64) -> Result<Arena, ArenaError> {
        if !(SHORTEST_MS..=LONGEST_MS).contains(&duration) {
            return Err(ArenaError::Duration(duration));
        }
        Ok(Arena {
            pool,
            starts,
            ends: starts + duration,
            entrants: BTreeMap::new(),
            racing: BTreeMap::new(),
        })
    }

    /// The arena as a front end keeps it: its entrants, and the races it
    /// paired that are settled, in the order they were settled (the
    /// standings are theirs, streaks included). Races in play are the
    /// front end's: their racers are [`Presence::Racing`].
    pub fn restore(mut self, entrants: &[Entry], played: &[Played]) -> Arena {
        for entry in entrants {
            self.entrants.insert(
                entry.who.clone(),
                Entrant {
                    presence: entry.presence,
                    standing: Standing::default(),
                    last_opponents: Vec::new(),
                    free_since: entry.free_since,
                },
            );
        }
        for race in played {
            self.score(&race.racers, &race.outcomes);
        }
        self
    }

    /// Whether the arena's time is over at `now`: no new races are paired.
    pub fn ended(&self, now: i64) -> bool {
        now >= self.ends
    }

    /// `who` enters (or, paused, comes back): free to be paired.
    pub fn join(&mut self, who: &str, now: i64) -> Result<(), ArenaError> {
        if self.ended(now) {
            return Err(ArenaError::Ended);
        }
        let entrant = self.entrants.entry(who.to_string()).or_insert(Entrant {
            presence: Presence::Free,
            standing: Standing::default(),
            last_opponents: Vec::new(),
            free_since: now,
        });
        if entrant.presence == Presence::Paused {
            entrant.presence = Presence::Free;
            entrant.free_since = now;
        }
        Ok(())
    }

    /// `who` leaves the arena's page: paused, not removed. A race they are
    /// in plays on (leaving it is the race's business).
    pub fn pause(&mut self, who: &str) {
        if let Some(entrant) = self.entrants.get_mut(who) {
            if entrant.presence == Presence::Free {
                entrant.presence = Presence::Paused;
            }
        }
    }

    /// Where `who` is, if they entered.
    pub fn presence(&self, who: &str) -> Option<Presence> {
        self.entrants.get(who).map(|e| e.presence)
    }

    /// The races to start now: pairs of free entrants, each with whoever
    /// is free and nearest in the standings (not the one they just raced,
    /// while another is free). `race_id` names each new race; its
    /// entrants are racing until [`Arena::record`]. None once the arena
    /// has ended or before it starts.
    pub fn pairings(
        &mut self,
        now: i64,
        mut race_id: impl FnMut() -> String,
    ) -> Vec<(String, Vec<String>)> {
        if now < self.starts || self.ended(now) {
            return Vec::new();
        }
        let order = self.standings_order();
        let mut free: Vec<&String> = order
            .iter()
            .filter(|who| self.entrants[*who].presence == Presence::Free)
            .collect();
        let mut pairs = Vec::new();
        while free.len() >= 2 {
            let first = free.remove(0);
            let last = &self.entrants[first].last_opponents;
            let pick = free.iter().position(|who| !last.contains(who)).unwrap_or(0);
            let second = free.remove(pick);
            pairs.push(vec![first.clone(), second.clone()]);
        }
        pairs
            .into_iter()
            .map(|racers| {
                let id = race_id();
                for who in &racers {
                    let entrant = self.entrants.get_mut(who).expect("paired entrants entered");
                    entrant.presence = Presence::Racing;
                }
                self.racing.insert(id.clone(), racers.clone());
                (id, racers)
            })
            .collect()
    }

    /// The race `race` ended with these outcomes (one per racer, in the
    /// order [`Arena::pairings`] gave): points to each, and everyone
    /// still in the arena free again. A race that ends after the arena
    /// still counts: it was paired in time.
    pub fn record(&mut self, race: &str, outcomes: &[Outcome], now: i64) -> Result<(), ArenaError> {
        let racers = self
            .racing
            .get(race)
            .filter(|racers| racers.len() == outcomes.len())
            .ok_or_else(|| ArenaError::UnknownRace(race.to_string()))?
            .clone();
        self.racing.remove(race);
        self.score(&racers, outcomes);
        for (i, who) in racers.iter().enumerate() {
            let entrant = self.entrants.get_mut(who).expect("racers entered");
            // One who left their race is paused, as one who left the page.
            entrant.presence = if outcomes[i] == Outcome::Left {
                Presence::Paused
            } else {
                Presence::Free
            };
            entrant.free_since = now;
        }
        Ok(())
    }

    /// Scores a race's outcomes into its racers' standings.
    fn score(&mut self, racers: &[String], outcomes: &[Outcome]) {
        for (i, who) in racers.iter().enumerate() {
            let Some(entrant) = self.entrants.get_mut(who) else {
                continue;
            };
            entrant.standing.add(race_points(outcomes, i));
            entrant.last_opponents = racers.iter().filter(|o| *o != who).cloned().collect();
        }
    }

    /// The standings, best first: `(who, standing)`.
    pub fn standings(&self) -> Vec<(String, Standing)> {
        self.standings_order()
            .into_iter()
            .map(|who| {
                let standing = self.entrants[&who].standing;
                (who, standing)
            })
            .collect()
    }

    /// Entrants by points, then by races won, then by who has been free
    /// longest, then by name (a stable order on every instance).
    fn standings_order(&self) -> Vec<String> {
        let mut order: Vec<String> = self.entrants.keys().cloned().collect();
        order.sort_by(|a, b| {
            let (x, y) = (&self.entrants[a], &self.entrants[b]);
            y.standing
                .points
                .cmp(&x.standing.points)
                .then(y.standing.wins.cmp(&x.standing.wins))
                .then(x.free_since.cmp(&y.free_since))
                .then(a.cmp(b))
        });
        order
    }
}
