//! A room whose game is known only once read: from a request that opens
//! it, or from a shared room's stored name. Every call goes to the room's
//! own [`Race`]; a turn is checked against the room's game here, once.

use slide::{Moves, Position};

use super::game::ShisenBoard;
use super::{
    Deal, Entrant, Event, Phase, Placing, Progress, Race, RaceError, RaceSpec, RoomView, Seat,
};
use crate::shisen_game::{self, ShisenSpec};
use crate::slide_game::{Session, SlideSpec};

/// What a racer plays in one message, as read from a room whose game is
/// not known by its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Sliding moves, played in order.
    Slide(Moves),
    /// A Shisen-Sho removal or shuffle (a race has no undo or redo).
    Shisen(shisen_game::Turn),
}

/// A race room of either game.
#[derive(Clone, Debug)]
pub enum AnyRace {
    /// A room racing a sliding puzzle.
    Slide(Race<SlideSpec>),
    /// A room racing Shisen-Sho deals.
    Shisen(Race<ShisenSpec>),
}

/// Calls the same method on the room's race, whichever game it races.
macro_rules! each {
    ($race:expr, $room:ident => $call:expr) => {
        match $race {
            AnyRace::Slide($room) => $call,
            AnyRace::Shisen($room) => $call,
        }
    };
}

impl AnyRace {
    /// An empty room racing `game`, its first puzzle dealt from `seed`.
    pub fn new(game: RaceSpec, seed: u64, now: i64) -> Result<AnyRace, RaceError> {
        Ok(match game {
            RaceSpec::Slide(spec) => AnyRace::Slide(Race::new(spec, seed, now)?),
            RaceSpec::Shisen(spec) => AnyRace::Shisen(Race::new(spec, seed, now)?),
        })
    }

    /// See [`Race::dealt`]; a deal of another game than `game` is refused.
    pub fn dealt(game: RaceSpec, deal: Deal, now: i64) -> Result<AnyRace, RaceError> {
        Ok(match (game, deal) {
            (RaceSpec::Slide(spec), Deal::Slide(puzzle)) => {
                AnyRace::Slide(Race::dealt(spec, puzzle, now))
            }
            (RaceSpec::Shisen(spec), Deal::Shisen(deal)) => {
                AnyRace::Shisen(Race::dealt(spec, deal, now))
            }
            (RaceSpec::Slide(_), Deal::Shisen(_)) => {
                return Err(RaceError::WrongGame("a sliding puzzle"))
            }
            (RaceSpec::Shisen(_), Deal::Slide(_)) => {
                return Err(RaceError::WrongGame("Shisen-Sho"))
            }
        })
    }

    /// See [`Race::with_limit`].
    pub fn with_limit(self, ms: i64) -> AnyRace {
        match self {
            AnyRace::Slide(race) => AnyRace::Slide(race.with_limit(ms)),
            AnyRace::Shisen(race) => AnyRace::Shisen(race.with_limit(ms)),
        }
    }

    /// See [`Race::signed_in_only`].
    pub fn signed_in_only(self) -> AnyRace {
        match self {
            AnyRace::Slide(race) => AnyRace::Slide(race.signed_in_only()),
            AnyRace::Shisen(race) => AnyRace::Shisen(race.signed_in_only()),
        }
    }

    /// What the room races.
    pub fn game(&self) -> RaceSpec {
        match self {
            AnyRace::Slide(race) => RaceSpec::Slide(race.game().clone()),
            AnyRace::Shisen(race) => RaceSpec::Shisen(*race.game()),
        }
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        each!(self, race => race.phase())
    }

    /// The puzzle of this round, once it is dealt to the racers.
    pub fn deal(&self) -> Option<Deal> {
        each!(self, race => race.deal().cloned().map(Deal::from))
    }

    /// The seed of the round dealt, if any.
    pub fn round_seed(&self) -> Option<u64> {
        match self {
            AnyRace::Slide(race) => race.deal().map(|puzzle| puzzle.seed),
            AnyRace::Shisen(race) => race.deal().map(|deal| deal.seed),
        }
    }

    /// The seat of the player with `key`, if they are in the room.
    pub fn seat_of(&self, key: &str) -> Option<Seat> {
        each!(self, race => race.seat_of(key))
    }

    /// Where a sliding racer's board stands now, once the race is dealt:
    /// what the others draw of it.
    pub fn position_of(&self, seat: Seat) -> Option<&Position> {
        match self {
            AnyRace::Slide(race) => race.board_of(seat).map(Session::position),
            AnyRace::Shisen(_) => None,
        }
    }

    /// The moves a sliding racer has made, and their own time for each.
    pub fn moves_of(&self, seat: Seat) -> Option<(Moves, &[i64])> {
        let AnyRace::Slide(race) = self else {
            return None;
        };
        let times = race.times_of(seat)?;
        let moves = race.board_of(seat).map(Session::moves).unwrap_or_default();
        Some((moves, times))
    }

    /// A Shisen-Sho racer's game now and the turns that made it, with
    /// their own time for each, once the race is dealt.
    pub fn shisen_of(
        &self,
        seat: Seat,
    ) -> Option<(&shisen_game::Session, &[shisen_game::Turn], &[i64])> {
        let AnyRace::Shisen(race) = self else {
            return None;
        };
        let board: &ShisenBoard = race.board_of(seat)?;
        Some((board.session(), board.turns(), race.times_of(seat)?))
    }

    /// See [`Race::gone`].
    pub fn gone(&self, seat: Seat) -> bool {
        each!(self, race => race.gone(seat))
    }

    /// The room as everyone sees it.
    pub fn view(&self) -> RoomView {
        each!(self, race => race.view())
    }

    /// Every racer's progress now, by seat; empty before the start.
    pub fn standings(&self, now: i64) -> Vec<Progress> {
        each!(self, race => race.standings(now))
    }

    /// The results, once the race is over.
    pub fn results(&self) -> Option<Vec<Placing>> {
        each!(self, race => race.results())
    }

    /// See [`Race::join`].
    pub fn join(&mut self, entrant: Entrant, now: i64) -> Result<(Seat, Vec<Event>), RaceError> {
        each!(self, race => race.join(entrant, now))
    }

    /// See [`Race::watch`].
    pub fn watch(&mut self, key: &str, now: i64) -> Result<Vec<Event>, RaceError> {
        each!(self, race => race.watch(key, now))
    }

    /// See [`Race::ready`].
    pub fn ready(&mut self, key: &str, ready: bool, now: i64) -> Result<Vec<Event>, RaceError> {
        each!(self, race => race.ready(key, ready, now))
    }

    /// See [`Race::start`].
    pub fn start(&mut self, key: &str, now: i64) -> Result<Vec<Event>, RaceError> {
        each!(self, race => race.start(key, now))
    }

    /// See [`Race::play`]; a turn of the other game is refused.
    pub fn play(
        &mut self,
        key: &str,
        turn: &Turn,
        t: i64,
        now: i64,
    ) -> Result<Vec<Event>, RaceError> {
        match (self, turn) {
            (AnyRace::Slide(race), Turn::Slide(moves)) => race.play(key, moves, t, now),
            (AnyRace::Shisen(race), Turn::Shisen(turn)) => race.play(key, turn, t, now),
            (AnyRace::Slide(_), Turn::Shisen(_)) => Err(RaceError::WrongGame("a sliding puzzle")),
            (AnyRace::Shisen(_), Turn::Slide(_)) => Err(RaceError::WrongGame("Shisen-Sho")),
        }
    }

    /// See [`Race::disconnect`].
    pub fn disconnect(&mut self, key: &str, now: i64) -> Vec<Event> {
        each!(self, race => race.disconnect(key, now))
    }

    /// See [`Race::leave`].
    pub fn leave(&mut self, key: &str, now: i64) -> Vec<Event> {
        each!(self, race => race.leave(key, now))
    }

    /// Seats a pairing's racers, ready ([`Race::pair`]).
    pub fn pair(&mut self, entrants: Vec<Entrant>, now: i64) -> Result<Vec<Event>, RaceError> {
        each!(self, race => race.pair(entrants, now))
    }

    /// Whether a pairing seated the round under way ([`Race::paired`]).
    pub fn paired(&self) -> bool {
        each!(self, race => race.paired())
    }

    /// See [`Race::may_rematch`].
    pub fn may_rematch(&self, key: &str) -> Result<(), RaceError> {
        each!(self, race => race.may_rematch(key))
    }

    /// See [`Race::rematch`]; a deal of the other game is refused.
    pub fn rematch(&mut self, key: &str, deal: Deal, now: i64) -> Result<Vec<Event>, RaceError> {
        match (self, deal) {
            (AnyRace::Slide(race), Deal::Slide(puzzle)) => race.rematch(key, puzzle, now),
            (AnyRace::Shisen(race), Deal::Shisen(deal)) => race.rematch(key, deal, now),
            (AnyRace::Slide(_), Deal::Shisen(_)) => Err(RaceError::WrongGame("a sliding puzzle")),
            (AnyRace::Shisen(_), Deal::Slide(_)) => Err(RaceError::WrongGame("Shisen-Sho")),
        }
    }

    /// See [`Race::tick`].
    pub fn tick(&mut self, now: i64) -> Vec<Event> {
        each!(self, race => race.tick(now))
    }

    /// See [`Race::next_deadline`].
    pub fn next_deadline(&self) -> Option<i64> {
        each!(self, race => race.next_deadline())
    }

    /// See [`Race::expires_at`].
    pub fn expires_at(&self) -> Option<i64> {
        each!(self, race => race.expires_at())
    }

    /// See [`Race::expired`].
    pub fn expired(&self, now: i64) -> bool {
        each!(self, race => race.expired(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_of_the_other_game_is_refused() {
        let name: crate::race::RacerName = "a".parse().unwrap();
        for (game, turn, why) in [
            (
                "shisen:6x4-gravity",
                Turn::Slide(Moves::new()),
                "Shisen-Sho",
            ),
            (
                "slide:3x3-row-major",
                Turn::Shisen(shisen_game::Turn::Shuffle),
                "a sliding puzzle",
            ),
        ] {
            let mut race = AnyRace::new(game.parse().unwrap(), 5, 0).unwrap();
            race.join(Entrant::guest("a", name.clone()), 0).unwrap();
            race.join(Entrant::guest("b", name.clone()), 0).unwrap();
            race.start("a", 0).unwrap();
            race.tick(super::super::COUNTDOWN_MS);
            assert_eq!(
                race.play("a", &turn, 10, super::super::COUNTDOWN_MS + 10),
                Err(RaceError::WrongGame(why))
            );
            assert_eq!(race.standings(0)[0].moves, 0);
        }
    }

    /// A rematch given the other game's deal is refused; a spec deals the
    /// puzzle its room deals from the same seed.
    #[test]
    fn a_rematch_deal_of_the_other_game_is_refused() {
        let slide: RaceSpec = "slide:3x3-row-major".parse().unwrap();
        let shisen: RaceSpec = "shisen:6x4-gravity".parse().unwrap();
        for (game, other) in [(&slide, &shisen), (&shisen, &slide)] {
            let mut race = AnyRace::new(game.clone(), 5, 0).unwrap();
            race.join(Entrant::guest("a", "a".parse().unwrap()), 0)
                .unwrap();
            assert_eq!(race.may_rematch("a"), Err(RaceError::NotOver));
            let refused = race.rematch("a", other.deal(9).unwrap(), 0);
            assert!(
                matches!(refused, Err(RaceError::WrongGame(_))),
                "{game}: {refused:?}"
            );
            let opened = AnyRace::dealt(game.clone(), other.deal(9).unwrap(), 0);
            assert!(matches!(opened, Err(RaceError::WrongGame(_))), "{game}");
        }
        for game in [&slide, &shisen] {
            let mut race = AnyRace::new(game.clone(), 5, 0).unwrap();
            race.join(Entrant::guest("a", "a".parse().unwrap()), 0)
                .unwrap();
            race.join(Entrant::guest("b", "b".parse().unwrap()), 0)
                .unwrap();
            race.start("a", 0).unwrap();
            race.tick(super::super::COUNTDOWN_MS);
            assert_eq!(race.deal(), Some(game.deal(5).unwrap()), "{game}");
            let dealt = AnyRace::dealt(game.clone(), game.deal(5).unwrap(), 0).unwrap();
            assert_eq!(
                format!("{dealt:?}"),
                format!("{:?}", AnyRace::new(game.clone(), 5, 0).unwrap())
            );
        }
    }

    #[test]
    fn race_specs_read_back_as_named() {
        for text in [
            "slide:3x3-row-major",
            "shisen:6x4-gravity",
            "shisen:18x8-chinese-any",
        ] {
            assert_eq!(text.parse::<RaceSpec>().unwrap().to_string(), text);
            let race = AnyRace::new(text.parse().unwrap(), 1, 0).unwrap();
            assert_eq!(race.game().to_string(), text);
        }
        let gravity: ShisenSpec = "6x4-gravity".parse().unwrap();
        assert_eq!(
            "shisen:6x4".parse::<RaceSpec>(),
            Ok(RaceSpec::Shisen(ShisenSpec {
                gravity: false,
                ..gravity
            }))
        );
        for bad in [
            "3x3-row-major",
            "shisen:3x3-row-major",
            "slide:6x4-gravity",
            "mahjong:6x4",
            "",
        ] {
            assert!(bad.parse::<RaceSpec>().is_err(), "{bad}");
        }
    }
}
