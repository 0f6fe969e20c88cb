//! The rules of a room, whatever it races: who is in it, the phases, the
//! racers' boards as turns arrive, and the results.

use std::collections::BTreeSet;

use super::{
    Entrant, Event, Finish, Phase, Placing, Progress, RaceError, RaceGame, RacerName, RacerView,
    RoomView, Seat, COUNTDOWN_MS, EMPTY_ROOM_MS, FEWEST_PLAYERS, MOST_PLAYERS, MOST_SPECTATORS,
    RECONNECT_MS,
};

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

/// Where a racer is in the round: each state holds what it has, so a
/// racer in the lobby has no board and a finished one has a finish.
#[derive(Clone, Debug)]
enum Lane<B> {
    /// In the lobby or the countdown, ready to race or not.
    Lobby { ready: bool },
    /// Racing on this board.
    Racing { board: B },
    /// Solved the puzzle.
    Finished { board: B, finish: Finish },
    /// Dropped out of the running race (left, away too long, or stuck for
    /// good): the board stays for the results.
    Out { board: B },
}

impl<B> Lane<B> {
    fn board(&self) -> Option<&B> {
        match self {
            Lane::Lobby { .. } => None,
            Lane::Racing { board } | Lane::Finished { board, .. } | Lane::Out { board } => {
                Some(board)
            }
        }
    }

    fn finish(&self) -> Option<&Finish> {
        match self {
            Lane::Finished { finish, .. } => Some(finish),
            _ => None,
        }
    }

    /// Solved or out: nothing more to play this round.
    fn done(&self) -> bool {
        matches!(self, Lane::Finished { .. } | Lane::Out { .. })
    }

    fn ready(&self) -> bool {
        matches!(self, Lane::Lobby { ready: true })
    }
}

/// A player in the room.
#[derive(Clone, Debug)]
struct Racer<B> {
    seat: Seat,
    key: String,
    name: RacerName,
    account: Option<String>,
    presence: Presence,
    lane: Lane<B>,
    /// The player's own clock for each single-tile move, for the judge.
    times: Vec<i64>,
}

/// A race room racing `G`.
#[derive(Clone, Debug)]
pub struct Race<G: RaceGame> {
    game: G,
    deal: G::Deal,
    phase: Phase,
    racers: Vec<Racer<G::Board>>,
    spectators: BTreeSet<String>,
    host: Option<Seat>,
    next_seat: Seat,
    /// Since when nobody is connected, if so.
    empty_since: Option<i64>,
    /// How long a race may run: at its end those still racing are out.
    limit: Option<i64>,
    /// Only players with an account may join.
    signed_in_only: bool,
    /// When a pairing seated the racers of the round under way, if one
    /// did ([`Race::pair`]).
    paired_at: Option<i64>,
}

impl<G: RaceGame> Race<G> {
    /// An empty room racing `game`, its first puzzle dealt from `seed`.
    pub fn new(game: G, seed: u64, now: i64) -> Result<Race<G>, RaceError> {
        let deal = game.deal(seed)?;
        Ok(Race::dealt(game, deal, now))
    }

    /// An empty room racing `game`, its first puzzle `deal` (the game's
    /// deal of a seed, made by the caller).
    pub fn dealt(game: G, deal: G::Deal, now: i64) -> Race<G> {
        Race {
            game,
            deal,
            phase: Phase::Lobby,
            racers: Vec::new(),
            spectators: BTreeSet::new(),
            host: None,
            next_seat: 1,
            empty_since: Some(now),
            limit: None,
            signed_in_only: false,
            paired_at: None,
        }
    }

    /// The room for players with an account only: a guest is refused a
    /// seat (and may watch).
    pub fn signed_in_only(mut self) -> Race<G> {
        self.signed_in_only = true;
        self
    }

    /// The room with each race limited to `ms` from its start: then those
    /// still racing are out (unfinished) and the race ends.
    pub fn with_limit(mut self, ms: i64) -> Race<G> {
        self.limit = Some(ms);
        self
    }

    /// What the room races.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The puzzle of this round, once it is dealt to the racers.
    pub fn deal(&self) -> Option<&G::Deal> {
        matches!(self.phase, Phase::Racing { .. } | Phase::Finished).then_some(&self.deal)
    }

    /// The seat of the player with `key`, if they are in the room.
    pub fn seat_of(&self, key: &str) -> Option<Seat> {
        self.racers.iter().find(|r| r.key == key).map(|r| r.seat)
    }

    /// A racer's board now, once the race is dealt: what the others draw
    /// of it.
    pub fn board_of(&self, seat: Seat) -> Option<&G::Board> {
        self.racer(seat)?.lane.board()
    }

    /// A racer's own time for each single move they made.
    pub fn times_of(&self, seat: Seat) -> Option<&[i64]> {
        Some(&self.racer(seat)?.times)
    }

    /// Whether the racer in `seat` left the race (or was away too long)
    /// before it ended: in its results, no longer in the room.
    pub fn gone(&self, seat: Seat) -> bool {
        self.racer(seat)
            .is_some_and(|r| r.presence == Presence::Gone)
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
                    ready: r.lane.ready(),
                    host: self.host == Some(r.seat),
                    connected: r.presence == Presence::Here,
                    done: r.lane.done(),
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

    /// The entrant joins under their name (an account's handle if signed
    /// in), or comes back to their place. Returns their seat.
    pub fn join(&mut self, entrant: Entrant, now: i64) -> Result<(Seat, Vec<Event>), RaceError> {
        let Entrant { key, name, account } = entrant;
        let mut events = self.tick(now);
        if self.paired_at.is_some() {
            // A pairing's seats are its racers': one comes, nobody else.
            let index = self.index_of(&key).map_err(|_| RaceError::Paired)?;
            self.spectators.remove(&key);
            events.extend(self.arrive(index, now));
            return Ok((self.racers[index].seat, events));
        }
        if let Some(racer) = self.racers.iter_mut().find(|r| r.key == key) {
            racer.presence = Presence::Here;
            if self.phase == Phase::Lobby {
                racer.name = name;
            }
            let seat = racer.seat;
            self.spectators.remove(&key);
            self.occupied();
            events.push(self.room());
            return Ok((seat, events));
        }
        if self.signed_in_only && account.is_none() {
            return Err(RaceError::SignedInOnly);
        }
        if self.phase != Phase::Lobby {
            return Err(RaceError::Begun);
        }
        if self.racers.len() >= MOST_PLAYERS {
            return Err(RaceError::Full);
        }
        let entrant = Entrant { key, name, account };
        let seat = self.seat(entrant, Presence::Here, false);
        self.host.get_or_insert(seat);
        self.occupied();
        events.push(self.room());
        Ok((seat, events))
    }

    /// The player with `key` watches without racing (a racer's key
    /// changes nothing: their seat is theirs).
    pub fn watch(&mut self, key: &str, now: i64) -> Result<Vec<Event>, RaceError> {
        let mut events = self.tick(now);
        if let (Some(_), Ok(index)) = (self.paired_at, self.index_of(key)) {
            // A paired racer's connection is their coming: no name to give.
            events.extend(self.arrive(index, now));
            return Ok(events);
        }
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
        if self.paired_at.is_some() {
            return Err(RaceError::Paired);
        }
        self.racers[index].lane = Lane::Lobby { ready };
        let all = self.racers.len() >= FEWEST_PLAYERS && self.racers.iter().all(|r| r.lane.ready());
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
        if self.paired_at.is_some() {
            return Err(RaceError::Paired);
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
    /// A turn after which nothing more can be played (a Shisen-Sho board
    /// stuck for good) puts the racer out.
    pub fn play(
        &mut self,
        key: &str,
        turn: &G::Turn,
        t: i64,
        now: i64,
    ) -> Result<Vec<Event>, RaceError> {
        let mut events = self.tick(now);
        let index = self.index_of(key)?;
        let Phase::Racing { started_at } = self.phase else {
            return Err(RaceError::NotRacing);
        };
        let place = 1 + self
            .racers
            .iter()
            .filter(|r| r.lane.finish().is_some())
            .count();
        let racer = &mut self.racers[index];
        let board = match &racer.lane {
            Lane::Racing { board } => board,
            Lane::Finished { .. } | Lane::Out { .. } => return Err(RaceError::AlreadyFinished),
            Lane::Lobby { .. } => return Err(RaceError::NotRacing),
        };
        if t < 0 || racer.times.last().is_some_and(|&last| t < last) {
            return Err(RaceError::BadTime(t));
        }
        let elapsed = now - started_at;
        let (board, made) = G::play(board, turn, elapsed)?;
        racer.times.extend(std::iter::repeat_n(t, made));
        let finish = G::is_solved(&board).then(|| Finish {
            seat: racer.seat,
            place,
            millis: elapsed,
            solve: G::solve(&board),
        });
        let out = finish.is_none() && G::is_out(&board);
        racer.lane = match &finish {
            Some(finish) => Lane::Finished {
                board,
                finish: finish.clone(),
            },
            None if out => Lane::Out { board },
            None => Lane::Racing { board },
        };
        events.extend(self.progress(&self.racers[index], now).map(Event::Progress));
        if let Some(finish) = finish {
            events.push(Event::Finish(finish));
            events.extend(self.end_if_over());
        } else if out {
            events.push(self.room());
            events.extend(self.end_if_over());
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

    /// Whether `key` may ask for a rematch: a player, once the race is
    /// over. Asked before a deal is made for it.
    pub fn may_rematch(&self, key: &str) -> Result<(), RaceError> {
        self.index_of(key)?;
        match self.phase {
            Phase::Finished => {}
            Phase::Aborted => return Err(RaceError::Aborted),
            _ => return Err(RaceError::NotOver),
        }
        Ok(())
    }

    /// A racer asks for a rematch once the race is over: the same room,
    /// the new puzzle `deal` (the game's deal of a fresh seed, made by the
    /// caller), everyone back in the lobby and not ready. Those who
    /// dropped out are no longer in it.
    pub fn rematch(&mut self, key: &str, deal: G::Deal, now: i64) -> Result<Vec<Event>, RaceError> {
        let mut events = self.tick(now);
        self.may_rematch(key)?;
        self.deal = deal;
        self.racers
            .retain(|r| !matches!(r.lane, Lane::Out { .. }) && r.presence != Presence::Gone);
        for racer in &mut self.racers {
            racer.lane = Lane::Lobby { ready: false };
            racer.times.clear();
        }
        self.phase = Phase::Lobby;
        // Those who stayed chose the rematch: its lobby is an ordinary one.
        self.paired_at = None;
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
        if self.first_moves_due().is_some_and(|due| now >= due) {
            let seats = self.no_shows();
            events.extend(self.abort(seats));
        }
        if let (Phase::Racing { started_at }, Some(limit)) = (self.phase, self.limit) {
            if now >= started_at + limit {
                for index in 0..self.racers.len() {
                    self.put_out(index);
                }
                events.extend(self.end_if_over());
            }
        }
        events
    }

    /// When [`Race::tick`] must next be called, if ever: the end of the
    /// countdown or of a limited race, the end of a pairing's grace for
    /// first moves, or the moment an absent player's place lapses.
    pub fn next_deadline(&self) -> Option<i64> {
        let countdown = match self.phase {
            Phase::Countdown { starts_at } => Some(starts_at),
            Phase::Racing { started_at } => self.limit.map(|limit| started_at + limit),
            _ => None,
        };
        let lapses = self.racers.iter().filter_map(|r| match r.presence {
            Presence::Away { since } => Some(since + RECONNECT_MS),
            _ => None,
        });
        countdown
            .into_iter()
            .chain(self.first_moves_due())
            .chain(lapses)
            .min()
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

    /// Seats `entrant` at the next seat, in the lobby (`ready` or not),
    /// no longer a spectator: the one way a racer enters a room.
    pub(super) fn seat(&mut self, entrant: Entrant, presence: Presence, ready: bool) -> Seat {
        let Entrant { key, name, account } = entrant;
        let seat = self.next_seat;
        self.next_seat += 1;
        self.spectators.remove(&key);
        self.racers.push(Racer {
            seat,
            key,
            name,
            account,
            presence,
            lane: Lane::Lobby { ready },
            times: Vec::new(),
        });
        seat
    }

    fn racer(&self, seat: Seat) -> Option<&Racer<G::Board>> {
        self.racers.iter().find(|r| r.seat == seat)
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
            racer.lane = Lane::Racing {
                board: G::board(&self.deal),
            };
        }
        vec![self.room(), Event::Start(self.deal.clone().into())]
    }

    /// A racer still racing is out, keeping their board; one who is done
    /// stays as they are.
    fn put_out(&mut self, index: usize) {
        let racer = &mut self.racers[index];
        racer.lane = match std::mem::replace(&mut racer.lane, Lane::Lobby { ready: false }) {
            Lane::Racing { board } => Lane::Out { board },
            done => done,
        };
    }

    /// Takes a racer out: from the lobby or the countdown they are gone
    /// (and a countdown left with too few players stops); from a race they
    /// are out, which may end it.
    fn drop_out(&mut self, index: usize) -> Vec<Event> {
        if self.yet_to_move(&self.racers[index]) {
            // A paired racer gone before their first move: called off.
            let racer = &mut self.racers[index];
            racer.presence = Presence::Gone;
            let seat = racer.seat;
            return self.abort(vec![seat]);
        }
        match self.phase {
            Phase::Lobby | Phase::Countdown { .. } => {
                self.racers.remove(index);
                self.rehost();
                if matches!(self.phase, Phase::Countdown { .. })
                    && self.racers.len() < FEWEST_PLAYERS
                {
                    self.phase = Phase::Lobby;
                    self.racers
                        .iter_mut()
                        .for_each(|r| r.lane = Lane::Lobby { ready: false });
                }
                Vec::new()
            }
            Phase::Racing { .. } => {
                self.put_out(index);
                self.racers[index].presence = Presence::Gone;
                self.end_if_over()
            }
            Phase::Finished | Phase::Aborted => {
                // Gone, so not in the rematch; every lane is done already.
                self.racers[index].presence = Presence::Gone;
                Vec::new()
            }
        }
    }

    /// The host is the earliest seat still in the room.
    fn rehost(&mut self) {
        self.host = self
            .racers
            .iter()
            .filter(|r| !matches!(r.lane, Lane::Out { .. }))
            .map(|r| r.seat)
            .min();
    }

    fn end_if_over(&mut self) -> Vec<Event> {
        let over = self.racers.iter().all(|r| r.lane.done());
        if !over || !matches!(self.phase, Phase::Racing { .. }) {
            return Vec::new();
        }
        self.phase = Phase::Finished;
        vec![Event::Results(self.placings()), self.room()]
    }

    fn progress(&self, racer: &Racer<G::Board>, now: i64) -> Option<Progress> {
        let board = racer.lane.board()?;
        let t = match (self.phase, racer.lane.finish()) {
            (_, Some(finish)) => finish.millis,
            (Phase::Racing { started_at }, None) => now - started_at,
            _ => 0,
        };
        Some(Progress {
            seat: racer.seat,
            moves: G::moves(board),
            standing: G::standing(board),
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
                    finish: r.lane.finish().cloned(),
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

mod paired;
#[cfg(test)]
mod shisen_races;
#[cfg(test)]
mod slide_races;
