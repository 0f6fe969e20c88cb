//! A room a pairing opened (quick match, an arena): the pairing seats its
//! racers, ready; the countdown starts on its own once they are all
//! connected; a racer who makes no first move within [`FIRST_MOVE_MS`]
//! (from the pairing to come, from the start to move) calls the race off,
//! as does one who leaves before moving.

use super::{Lane, Presence, Race, Racer};
use crate::race::{
    Entrant, Event, Phase, RaceError, RaceGame, Seat, FEWEST_PLAYERS, FIRST_MOVE_MS, MOST_PLAYERS,
};

impl<G: RaceGame> Race<G> {
    /// Seats the racers a pairing made in this new room, ready: none of
    /// them is asked for a name or readiness. Each counts as away until
    /// their connection comes ([`Race::watch`] with their key); once all
    /// are here the countdown begins. Refused unless the room is new and
    /// the pairing seats two to [`MOST_PLAYERS`] players (with accounts,
    /// in a room for accounts only).
    pub fn pair(&mut self, entrants: Vec<Entrant>, now: i64) -> Result<Vec<Event>, RaceError> {
        let mut events = self.tick(now);
        let fresh = self.phase == Phase::Lobby && self.racers.is_empty();
        if !fresh || !(FEWEST_PLAYERS..=MOST_PLAYERS).contains(&entrants.len()) {
            return Err(RaceError::BadPairing);
        }
        if self.signed_in_only && entrants.iter().any(|e| e.account.is_none()) {
            return Err(RaceError::SignedInOnly);
        }
        let mut keys: Vec<&str> = entrants.iter().map(|e| e.key.as_str()).collect();
        keys.sort_unstable();
        keys.dedup();
        if keys.len() != entrants.len() {
            return Err(RaceError::BadPairing);
        }
        for entrant in entrants {
            self.seat(entrant, Presence::Away { since: now }, true);
        }
        self.paired_at = Some(now);
        self.rehost();
        events.push(self.room());
        Ok(events)
    }

    /// Whether a pairing seated the racers of the round under way.
    pub fn paired(&self) -> bool {
        self.paired_at.is_some()
    }

    /// The paired racer at `index` is here; the countdown begins once
    /// every paired racer is.
    pub(super) fn arrive(&mut self, index: usize, now: i64) -> Vec<Event> {
        if self.racers[index].presence == Presence::Gone {
            return Vec::new();
        }
        self.racers[index].presence = Presence::Here;
        self.occupied();
        let all_here = self.racers.iter().all(|r| r.presence == Presence::Here);
        if self.phase == Phase::Lobby && all_here {
            self.count_down(now)
        } else {
            vec![self.room()]
        }
    }

    /// Whether `racer` is a paired racer the race still waits on for a
    /// first move.
    pub(super) fn yet_to_move(&self, racer: &Racer<G::Board>) -> bool {
        let waiting = matches!(
            self.phase,
            Phase::Lobby | Phase::Countdown { .. } | Phase::Racing { .. }
        );
        self.paired_at.is_some()
            && waiting
            && racer.times.is_empty()
            && !matches!(racer.lane, Lane::Finished { .. })
    }

    /// When the race is aborted unless every paired racer has come (from
    /// the pairing) or moved (from the start), if it waits on anyone.
    pub(super) fn first_moves_due(&self) -> Option<i64> {
        let paired_at = self.paired_at?;
        if !self.racers.iter().any(|r| self.yet_to_move(r)) {
            return None;
        }
        match self.phase {
            Phase::Lobby => Some(paired_at + FIRST_MOVE_MS),
            Phase::Racing { started_at } => Some(started_at + FIRST_MOVE_MS),
            // The countdown ends first; its racers are all here.
            _ => None,
        }
    }

    /// The racers the grace ran out on: in the lobby those who never
    /// came, in the race those who never moved.
    pub(super) fn no_shows(&self) -> Vec<Seat> {
        self.racers
            .iter()
            .filter(|r| match self.phase {
                Phase::Lobby => r.presence != Presence::Here,
                _ => self.yet_to_move(r),
            })
            .map(|r| r.seat)
            .collect()
    }

    /// Calls the pairing's race off, naming the racers in `seats` (who
    /// made no first move). No results: nothing is rated.
    pub(super) fn abort(&mut self, seats: Vec<Seat>) -> Vec<Event> {
        self.phase = Phase::Aborted;
        for index in 0..self.racers.len() {
            self.put_out(index);
        }
        vec![Event::Aborted { seats }, self.room()]
    }
}

#[cfg(test)]
mod tests {
    use slide::Moves;

    use super::*;
    use crate::race::{RacerName, COUNTDOWN_MS, RECONNECT_MS};
    use crate::slide_game::SlideSpec;

    fn entrant(key: &str) -> Entrant {
        let name: RacerName = key.parse().unwrap();
        Entrant {
            key: key.to_string(),
            name,
            account: Some(key.to_string()),
        }
    }

    /// A rated-like room that paired `a` and `b` at time 0.
    fn paired() -> Race<SlideSpec> {
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        let mut race = Race::new(spec, 7, 0).unwrap().signed_in_only();
        let events = race.pair(vec![entrant("a"), entrant("b")], 0).unwrap();
        let Some(Event::Room(view)) = events.last() else {
            panic!("{events:?}")
        };
        assert!(view.players.iter().all(|p| p.ready && !p.connected));
        assert!(race.paired());
        race
    }

    fn a_legal_move(race: &Race<SlideSpec>) -> Moves {
        let start = &race.deal().expect("dealt").start;
        Moves(vec![start.legal_moves().next().unwrap()])
    }

    fn aborted(events: &[Event]) -> Option<Vec<Seat>> {
        events.iter().find_map(|e| match e {
            Event::Aborted { seats } => Some(seats.clone()),
            _ => None,
        })
    }

    #[test]
    fn paired_racers_count_down_on_their_own_once_both_are_here() {
        let mut race = paired();
        // Coming is all a paired racer does: no name, no readiness.
        let events = race.watch("a", 1_000).unwrap();
        assert_eq!(race.phase(), Phase::Lobby, "{events:?}");
        let events = race.watch("b", 2_000).unwrap();
        assert!(events.contains(&Event::Countdown { ms: COUNTDOWN_MS }));
        assert_eq!(
            race.phase(),
            Phase::Countdown {
                starts_at: 2_000 + COUNTDOWN_MS
            }
        );
        assert!(race
            .tick(2_000 + COUNTDOWN_MS)
            .iter()
            .any(|e| matches!(e, Event::Start(_))));
        // Both move within the grace: the race runs on past it.
        let started = 2_000 + COUNTDOWN_MS;
        let moves = a_legal_move(&race);
        for key in ["a", "b"] {
            race.play(key, &moves, 900, started + 1_000).unwrap();
        }
        assert_eq!(race.next_deadline(), None);
        assert!(aborted(&race.tick(started + FIRST_MOVE_MS + 1)).is_none());
        assert_eq!(
            race.phase(),
            Phase::Racing {
                started_at: started
            }
        );
    }

    #[test]
    fn only_the_paired_racers_sit_and_nobody_readies_or_starts() {
        let mut race = paired();
        let stranger = entrant("c");
        assert_eq!(race.join(stranger, 10), Err(RaceError::Paired));
        // A paired racer's join (an old page) is their coming, not a rename.
        let renamed = Entrant {
            name: "Zed".parse().unwrap(),
            ..entrant("a")
        };
        assert_eq!(race.join(renamed, 10).unwrap().0, 1);
        assert_eq!(race.view().players[0].name, "a");
        assert_eq!(race.ready("a", true, 10), Err(RaceError::Paired));
        assert_eq!(race.start("a", 10), Err(RaceError::Paired));
        // A pairing is made once, in a new room, of two or more.
        assert_eq!(
            race.pair(vec![entrant("c"), entrant("d")], 10),
            Err(RaceError::BadPairing)
        );
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        let mut fresh = Race::new(spec, 7, 0).unwrap().signed_in_only();
        assert_eq!(
            fresh.pair(vec![entrant("a")], 0),
            Err(RaceError::BadPairing)
        );
        assert_eq!(
            fresh.pair(vec![entrant("a"), entrant("a")], 0),
            Err(RaceError::BadPairing)
        );
        let guest = Entrant {
            account: None,
            ..entrant("g")
        };
        assert_eq!(
            fresh.pair(vec![entrant("a"), guest], 0),
            Err(RaceError::SignedInOnly)
        );
    }

    #[test]
    fn a_racer_who_never_comes_aborts_the_pairing() {
        let mut race = paired();
        race.watch("a", 500).unwrap();
        assert_eq!(race.next_deadline(), Some(FIRST_MOVE_MS));
        assert!(aborted(&race.tick(FIRST_MOVE_MS - 1)).is_none());
        let events = race.tick(FIRST_MOVE_MS);
        assert_eq!(aborted(&events), Some(vec![2]));
        assert_eq!(race.phase(), Phase::Aborted);
        assert_eq!(race.phase().name(), "aborted");
        assert_eq!(race.results(), None, "an aborted race has no results");
        assert_eq!(race.may_rematch("a"), Err(RaceError::Aborted));
        assert_eq!(
            race.play("a", &Moves(vec![]), 0, FIRST_MOVE_MS + 1),
            Err(RaceError::NotRacing)
        );
        // Coming late changes nothing.
        race.watch("b", FIRST_MOVE_MS + 5).unwrap();
        assert_eq!(race.phase(), Phase::Aborted);
        assert_eq!(race.next_deadline(), None);
    }

    #[test]
    fn a_racer_who_never_moves_aborts_the_race_even_after_the_other_solved() {
        let mut race = paired();
        race.watch("a", 0).unwrap();
        race.watch("b", 0).unwrap();
        race.tick(COUNTDOWN_MS);
        let started = COUNTDOWN_MS;
        let puzzle = race.deal().unwrap().clone();
        let solution = slide::solve_fast(&puzzle.start, &puzzle.goal_position).unwrap();
        let events = race.play("a", &solution, 2_000, started + 2_000).unwrap();
        assert!(events.iter().any(|e| matches!(e, Event::Finish(_))));
        assert_eq!(race.next_deadline(), Some(started + FIRST_MOVE_MS));
        let events = race.tick(started + FIRST_MOVE_MS);
        assert_eq!(aborted(&events), Some(vec![2]));
        assert_eq!(race.phase(), Phase::Aborted);
        assert_eq!(race.results(), None);
    }

    #[test]
    fn leaving_before_a_first_move_aborts_and_after_it_does_not() {
        // In the lobby.
        let mut race = paired();
        race.watch("a", 0).unwrap();
        assert_eq!(aborted(&race.leave("a", 100)), Some(vec![1]));
        // In the race, once the leaver has moved: an ordinary drop out.
        let mut race = paired();
        race.watch("a", 0).unwrap();
        race.watch("b", 0).unwrap();
        race.tick(COUNTDOWN_MS);
        let moves = a_legal_move(&race);
        race.play("a", &moves, 100, COUNTDOWN_MS + 100).unwrap();
        race.play("b", &moves, 100, COUNTDOWN_MS + 100).unwrap();
        let events = race.leave("b", COUNTDOWN_MS + 200);
        assert!(aborted(&events).is_none());
        assert!(matches!(race.phase(), Phase::Racing { .. }));
        // Away too long before moving: the grace ends first.
        let mut race = paired();
        race.watch("a", 0).unwrap();
        race.watch("b", 0).unwrap();
        race.disconnect("b", 1);
        race.tick(COUNTDOWN_MS);
        const { assert!(FIRST_MOVE_MS < RECONNECT_MS) };
        let events = race.tick(COUNTDOWN_MS + FIRST_MOVE_MS);
        assert_eq!(aborted(&events), Some(vec![1, 2]));
    }

    #[test]
    fn a_rematch_after_a_pairing_is_an_ordinary_lobby() {
        let mut race = paired();
        race.watch("a", 0).unwrap();
        race.watch("b", 0).unwrap();
        race.tick(COUNTDOWN_MS);
        let puzzle = race.deal().unwrap().clone();
        let solution = slide::solve_fast(&puzzle.start, &puzzle.goal_position).unwrap();
        for key in ["a", "b"] {
            race.play(key, &solution, 1_000, COUNTDOWN_MS + 1_000)
                .unwrap();
        }
        assert_eq!(race.phase(), Phase::Finished);
        let deal = race.game().deal(8).unwrap();
        race.rematch("a", deal, 20_000).unwrap();
        assert!(!race.paired());
        assert!(race.ready("a", true, 20_001).is_ok());
        assert_eq!(race.next_deadline(), None);
    }
}
