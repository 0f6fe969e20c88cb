//! One room: this instance's replica of the race, the game id of each
//! solve, and the channel its events go out on; every step goes through
//! the room's log, and is taken in the log's order.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::extract::ws::Utf8Bytes;
use play::race::{AnyRace, Deal, Event, RaceError, RaceSpec, Seat};
use play::rating::Pool;
use play::seed::derived_id;
use tokio::sync::{broadcast, Notify};

use super::step::{Logged, Step, StepError};
use crate::clock::now_millis;
use crate::race::log::{Appended, NewStep, RoomLog};

/// Events a slow connection may fall behind before it is sent the room
/// afresh instead.
const BACKLOG: usize = 1024;

/// A room's race as this instance has it, and the game id of each solve.
pub struct Replica {
    pub race: AnyRace,
    pub games: Games,
    /// The rating pool of a rated room.
    pub rated: Option<Pool>,
    /// The time of the last step taken: a step logged by an instance whose
    /// clock is behind is taken at this time instead, so the race's clock
    /// never runs back.
    last_at: i64,
}

/// The stored game of each solve, by the round's seed and the racer's
/// seat: what `finish` and `results` link to. Derived from the room, the
/// seed and the seat, so every instance announces the same id.
pub struct Games {
    room: String,
    ids: HashMap<(u64, Seat), String>,
}

impl Games {
    /// The stored game of a solve of the round dealt from `seed`.
    pub fn of(&self, seed: Option<u64>, seat: Seat) -> Option<&str> {
        self.ids.get(&(seed?, seat)).map(String::as_str)
    }

    /// Notes what `event` changes: a start forgets the rounds before, a
    /// solve gets its game's id.
    fn note(&mut self, seed: Option<u64>, event: &Event) {
        let Some(seed) = seed else { return };
        match event {
            Event::Start(_) => self.ids.retain(|(round, _), _| *round == seed),
            Event::Finish(finish) => {
                let id = derived_id(&format!("race:{}:{seed}:{}", self.room, finish.seat));
                self.ids.insert((seed, finish.seat), id);
            }
            _ => {}
        }
    }
}

/// How each event is sent: the room's messages as the web module encodes
/// them.
pub type Encode = fn(&Event, &Replica) -> Utf8Bytes;

/// What a rated room does with its race when it ends (or is aborted):
/// given the room's id and the replica as the race ended.
pub type Settle = Arc<dyn Fn(&str, &Replica) + Send + Sync>;

/// An answer that asks nothing.
type Answer = fn(&Replica, &[Event], i64);

/// One room: the race, the channel its events go out on, and wake-ups for
/// the room's clock.
pub struct Room {
    pub(super) id: String,
    replica: tokio::sync::Mutex<Replica>,
    pub sockets: AtomicUsize,
    pub events: broadcast::Sender<Utf8Bytes>,
    /// The next deadline may have changed.
    pub(super) changed: Notify,
    /// The time the room's clock waits for (`i64::MAX`: none), as it last
    /// looked: a step that leaves it as it is wakes nobody.
    waking: AtomicI64,
    /// The number of the last logged step the replica took: written with
    /// the replica locked, and read without the lock too, so that this
    /// instance's own steps, announced back to it, are dropped as they
    /// arrive.
    taken: AtomicI64,
    /// Another instance logged a step.
    pub(super) heard: Notify,
    /// Steps other instances logged, as their notifications carried them,
    /// not yet taken.
    inbox: Mutex<Vec<(i64, String)>>,
    /// A step was announced without its text, or notices may have been
    /// lost: the log must be read.
    pub(super) stale: AtomicBool,
    /// The log the room's steps go through.
    log: Arc<dyn RoomLog>,
    /// What the room races (the same in every round).
    game: RaceSpec,
    /// Rematches' deals, by seed, made before the replica is locked
    /// ([`Room::prepare`]) and taken by the step that logs the seed.
    deals: Mutex<HashMap<u64, Deal>>,
    /// How many rematches were dealt with the replica locked: a step read
    /// from the log rather than heard, whose deal nobody prepared.
    pub(super) dealt_locked: AtomicUsize,
    encode: Encode,
    /// Where a rated room's races go when they end.
    settle: Option<Settle>,
    /// When the room was opened, for the lobby's order.
    pub(super) opened_at: i64,
}

impl Room {
    pub(super) fn new(
        id: String,
        race: AnyRace,
        at: i64,
        log: Arc<dyn RoomLog>,
        encode: Encode,
    ) -> Room {
        Room {
            game: race.game(),
            deals: Mutex::default(),
            dealt_locked: AtomicUsize::new(0),
            replica: tokio::sync::Mutex::new(Replica {
                race,
                games: Games {
                    room: id.clone(),
                    ids: HashMap::new(),
                },
                rated: None,
                last_at: at,
            }),
            id,
            sockets: AtomicUsize::new(0),
            events: broadcast::channel(BACKLOG).0,
            changed: Notify::new(),
            waking: AtomicI64::new(i64::MAX),
            taken: AtomicI64::new(0),
            heard: Notify::new(),
            inbox: Mutex::default(),
            stale: AtomicBool::new(false),
            log,
            encode,
            settle: None,
            opened_at: at,
        }
    }

    /// The room rated in `pool`: each race that ends is handed to
    /// `settle`.
    pub(super) fn rated(mut self, pool: Pool, settle: Settle) -> Room {
        self.replica.get_mut().rated = Some(pool);
        self.settle = Some(settle);
        self
    }

    /// The room's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    pub(super) fn inbox(&self) -> MutexGuard<'_, Vec<(i64, String)>> {
        self.inbox.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn deals(&self) -> MutexGuard<'_, HashMap<u64, Deal>> {
        self.deals.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `deal` for the rematch step that logs its seed: dealt before
    /// the replica is locked, so that a Shisen-Sho board that takes a
    /// second to find holds up no move of the room.
    pub fn prepare(&self, deal: Deal) {
        self.deals().insert(deal.seed(), deal);
    }

    /// Deals, off the async threads and before the replica is locked, the
    /// rematches other instances logged that this instance heard of (and
    /// will take from what it heard, not from the log).
    async fn prepare_heard(&self) {
        let seeds: Vec<u64> = self
            .inbox()
            .iter()
            .filter_map(|(_, text)| rematch_seed(text))
            .collect();
        for seed in seeds {
            if self.deals().contains_key(&seed) {
                continue;
            }
            let game = self.game.clone();
            if let Ok(Ok(deal)) = tokio::task::spawn_blocking(move || game.deal(seed)).await {
                self.prepare(deal);
            }
        }
    }

    /// The rematch's deal of `seed`: the one prepared, or else (a step
    /// read from the log) dealt now, with the replica locked. The seed was
    /// drawn as one that deals within the engine's budget.
    fn deal_of(&self, seed: u64) -> Result<Deal, RaceError> {
        if let Some(deal) = self.deals().remove(&seed) {
            return Ok(deal);
        }
        self.dealt_locked.fetch_add(1, Ordering::Relaxed);
        metrics::counter!("tessera_race_deals_locked_total").increment(1);
        self.game.deal(seed)
    }

    /// The room as it stands (for a snapshot).
    pub async fn replica(&self) -> tokio::sync::MutexGuard<'_, Replica> {
        self.replica.lock().await
    }

    /// Takes `step` now, and `answer`s from the race right after it (with
    /// its events and time) while no other step can come in between: a
    /// new connection subscribes to the room there, a solve reads its
    /// moves. The step goes through the log first, and the steps other
    /// instances logged before it are taken before it.
    pub async fn execute<T>(
        &self,
        step: Step,
        answer: impl FnOnce(&Replica, &[Event], i64) -> T,
    ) -> Result<T, StepError> {
        let mut replica = self.replica.lock().await;
        let now = now_millis();
        let text = serde_json::to_string(&Logged { at: now, step }).expect("steps serialize");
        let step = NewStep {
            room: &self.id,
            text: &text,
            at: now,
        };
        let Appended { seq, missed } = self
            .log
            .append_after(step, self.taken())
            .await
            .map_err(|e| StepError::Store(e.to_string()))?;
        let mut mine = Some((seq, answer));
        let mut outcome = None;
        // With the steps before it not taken yet: those the log gave back
        // and those heard meanwhile.
        let mut known = missed;
        known.append(&mut self.inbox());
        known.push((seq, text));
        self.catch_up(&mut replica, known, false, &mut mine, &mut outcome)
            .await?;
        let outcome =
            outcome.ok_or_else(|| StepError::Store("a step went missing from the log".into()))?;
        self.retime(&replica);
        outcome
    }

    /// When the room's clock must next wake: a countdown's end, a lapsing
    /// absence, the room's expiry. Noted as what the clock waits for.
    pub(super) fn wake_at(&self, replica: &Replica) -> Option<i64> {
        let wake = [replica.race.next_deadline(), replica.race.expires_at()]
            .into_iter()
            .flatten()
            .min();
        self.waking
            .store(wake.unwrap_or(i64::MAX), Ordering::SeqCst);
        wake
    }

    /// Wakes the room's clock if a step moved its next deadline (most
    /// moves do not).
    fn retime(&self, replica: &Replica) {
        let before = self.waking.load(Ordering::SeqCst);
        if self.wake_at(replica).unwrap_or(i64::MAX) != before {
            self.changed.notify_one();
        }
    }

    /// Whether the step numbered `seq` was taken here already (this
    /// instance's own, announced back to it).
    pub(super) fn has_taken(&self, seq: i64) -> bool {
        seq <= self.taken()
    }

    /// The number of the last logged step the replica took.
    fn taken(&self) -> i64 {
        self.taken.load(Ordering::SeqCst)
    }

    /// Takes the logged steps this instance has not taken yet, in order;
    /// `mine`'s answer is given right after the step it numbers.
    /// `known` are steps already at hand (one's own, or those a
    /// notification carried): when they follow on from the last step taken
    /// (and include `mine`), the log is not read; nor when every one of
    /// them was taken already and nothing else is `stale` (this
    /// instance's own steps, announced back to it).
    async fn catch_up<T, F: FnOnce(&Replica, &[Event], i64) -> T>(
        &self,
        replica: &mut Replica,
        mut known: Vec<(i64, String)>,
        stale: bool,
        mine: &mut Option<(i64, F)>,
        outcome: &mut Option<Result<T, StepError>>,
    ) -> Result<(), StepError> {
        let told = !known.is_empty();
        let taken = self.taken();
        known.retain(|(seq, _)| *seq > taken);
        if told && known.is_empty() && !stale && mine.is_none() {
            return Ok(());
        }
        known.sort_by_key(|(seq, _)| *seq);
        known.dedup_by_key(|(seq, _)| *seq);
        let follows = known
            .iter()
            .enumerate()
            .all(|(i, (seq, _))| *seq == taken + 1 + i as i64);
        let last = known.last().map(|(seq, _)| *seq);
        let covers_mine = mine
            .as_ref()
            .is_none_or(|(number, _)| last.is_some_and(|last| last >= *number));
        let steps = if follows && covers_mine && !known.is_empty() {
            known
        } else {
            metrics::counter!("tessera_race_log_reads_total").increment(1);
            self.log
                .after(&self.id, taken)
                .await
                .map_err(|e| StepError::Store(e.to_string()))?
        };
        for (seq, text) in steps {
            self.taken.store(seq, Ordering::SeqCst);
            let Ok(Logged { at, step }) = serde_json::from_str::<Logged>(&text) else {
                tracing::warn!(room = %self.id, seq, "a race step that does not read was skipped");
                continue;
            };
            let (events, taken, at) = self.take(replica, &step, at);
            if mine.as_ref().is_some_and(|(number, _)| *number == seq) {
                let (_, answer) = mine.take().expect("checked");
                *outcome = Some(
                    taken
                        .map(|()| answer(replica, &events, at))
                        .map_err(StepError::from),
                );
            }
        }
        Ok(())
    }

    /// Takes the steps other instances logged (when told of them), and
    /// reads the log if it is `stale`.
    pub(super) async fn hear(&self) {
        self.prepare_heard().await;
        let mut replica = self.replica.lock().await;
        let known = std::mem::take(&mut *self.inbox());
        let stale = self.stale.swap(false, Ordering::SeqCst);
        if known.is_empty() && !stale {
            // Taken already, by a step of this instance's own.
            return;
        }
        let mut none: Option<(i64, Answer)> = None;
        if let Err(e) = self
            .catch_up(&mut replica, known, stale, &mut none, &mut None)
            .await
        {
            tracing::warn!(room = %self.id, error = %e, "a race room could not catch up");
        }
        // The room's clock, which heard, looks at its deadlines next.
    }

    /// Moves the race on to `at` and plays `step`, broadcasting what it
    /// comes to: the events of a deadline just passed go out even when the
    /// step is refused. Returns the step's events, whether it was taken,
    /// and the time it was taken at.
    fn take(
        &self,
        replica: &mut Replica,
        step: &Step,
        at: i64,
    ) -> (Vec<Event>, Result<(), RaceError>, i64) {
        let at = at.max(replica.last_at);
        replica.last_at = at;
        let ticked = replica.race.tick(at);
        self.send(replica, &ticked);
        let taken = step.take(&mut replica.race, at, |seed| self.deal_of(seed));
        if let Step::Rematch { seed, .. } = step {
            // A rematch the rules refused leaves no deal behind.
            self.deals().remove(seed);
        }
        match taken {
            Ok(events) => {
                self.send(replica, &events);
                (events, Ok(()), at)
            }
            Err(e) => (Vec::new(), Err(e), at),
        }
    }

    /// Broadcasts `events` (with the replica locked, so that everyone
    /// hears them in the order they happened).
    fn send(&self, replica: &mut Replica, events: &[Event]) {
        let seed = replica.race.round_seed();
        for event in events {
            replica.games.note(seed, event);
            // Nobody listening is no error: the room may be empty here.
            let _ = self.events.send((self.encode)(event, replica));
            if let (Event::Results(_) | Event::Aborted { .. }, Some(settle)) = (event, &self.settle)
            {
                settle(&self.id, replica);
            }
        }
    }
}

/// The seed of a logged rematch step.
fn rematch_seed(text: &str) -> Option<u64> {
    // Most steps are moves: only a rematch's text is read whole.
    if !text.contains("\"rematch\"") {
        return None;
    }
    match serde_json::from_str::<Logged>(text).ok()?.step {
        Step::Rematch { seed, .. } => Some(seed),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{encode_nothing as encode, in_process};
    use super::*;
    use play::race::{Deal, RaceSpec};
    use play::shisen_game::Turn;
    use play::slide_game::SlideSpec;

    /// Two replicas given the same logged steps end in the same race,
    /// with the same game ids: what lets instances share a room.
    #[test]
    fn the_same_steps_give_the_same_race_and_games() {
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        let race = AnyRace::new(RaceSpec::Slide(spec), 11, 1_000).unwrap();
        let steps = [
            (1_000, Step::Watch { key: "a".into() }),
            (
                1_001,
                Step::Join {
                    key: "a".into(),
                    name: "A".parse().unwrap(),
                    account: None,
                },
            ),
            (
                1_002,
                Step::Join {
                    key: "b".into(),
                    name: "B".parse().unwrap(),
                    account: None,
                },
            ),
            (
                1_003,
                Step::Ready {
                    key: "a".into(),
                    ready: true,
                },
            ),
            (
                1_004,
                Step::Ready {
                    key: "b".into(),
                    ready: true,
                },
            ),
            // Logged by an instance whose clock is behind: taken at 1_004.
            (900, Step::Tick),
            (9_000, Step::Tick),
        ];
        let rooms: Vec<Room> = (0..2)
            .map(|_| Room::new("room".into(), race.clone(), 1_000, in_process(), encode))
            .collect();
        let mut views = Vec::new();
        for room in &rooms {
            let mut replica = room.replica.try_lock().unwrap();
            for (at, step) in &steps {
                let _ = room.take(&mut replica, step, *at);
            }
            assert_eq!(replica.last_at, 9_000);
            let deal = replica.race.deal();
            // Solve as racer a: the 2x2's puzzle from its seed.
            let Some(Deal::Slide(puzzle)) = deal else {
                panic!("dealt after the countdown")
            };
            let solution =
                slide::solve_fast(&puzzle.start, &puzzle.goal_position).expect("solvable");
            let play = Step::Play {
                key: "a".into(),
                moves: solution,
                t: 500,
            };
            let (_, taken, _) = room.take(&mut replica, &play, 9_500);
            taken.unwrap();
            let game = replica
                .games
                .of(replica.race.round_seed(), 1)
                .map(str::to_string);
            views.push((format!("{:?}", replica.race.view()), game));
        }
        assert_eq!(views[0], views[1]);
        assert!(views[0].1.is_some(), "the solve has a game id");
    }

    /// A Shisen-Sho room replayed from its steps: the same deal, the same
    /// shuffles (seeded by the deal and the step, never drawn when taken),
    /// the same boards.
    #[test]
    fn the_same_shisen_steps_give_the_same_boards() {
        let game: RaceSpec = "shisen:6x4-gravity".parse().unwrap();
        let race = AnyRace::new(game, 21, 0).unwrap();
        let join = |key: &str| Step::Join {
            key: key.into(),
            name: key.parse().unwrap(),
            account: None,
        };
        let ready = |key: &str| Step::Ready {
            key: key.into(),
            ready: true,
        };
        // The countdown ends with the tick.
        let steps = [
            (1_000, join("a")),
            (1_000, join("b")),
            (1_000, ready("a")),
            (1_000, ready("b")),
            (5_000, Step::Tick),
        ];
        let boards: Vec<String> = (0..2)
            .map(|_| {
                let room = Room::new("room".into(), race.clone(), 0, in_process(), encode);
                let mut replica = room.replica.try_lock().unwrap();
                for (at, step) in &steps {
                    let _ = room.take(&mut replica, step, *at);
                }
                let Some(Deal::Shisen(deal)) = replica.race.deal() else {
                    panic!("dealt after the countdown")
                };
                let pair = deal.board.moves()[0];
                for turn in [Turn::Remove(pair.a, pair.b), Turn::Shuffle] {
                    let step = Step::Turn {
                        key: "a".into(),
                        turn,
                        t: 100,
                    };
                    let (events, taken, _) = room.take(&mut replica, &step, 6_000);
                    taken.unwrap();
                    assert!(!events.is_empty());
                }
                let (session, turns, _) = replica.race.shisen_of(1).unwrap();
                assert_eq!(turns.len(), 2);
                session.game().board().to_string()
            })
            .collect();
        assert_eq!(boards[0], boards[1]);
    }

    /// A room whose race of two 3x3 racers is over, both having solved.
    fn finished_room() -> Room {
        let game: RaceSpec = "slide:3x3-row-major".parse().unwrap();
        let race = AnyRace::new(game, 11, 0).unwrap();
        let room = Room::new("room".into(), race, 0, in_process(), encode);
        {
            let mut replica = room.replica.try_lock().unwrap();
            for key in ["a", "b"] {
                let join = Step::Join {
                    key: key.into(),
                    name: key.parse().unwrap(),
                    account: None,
                };
                let ready = Step::Ready {
                    key: key.into(),
                    ready: true,
                };
                room.take(&mut replica, &join, 0).1.unwrap();
                room.take(&mut replica, &ready, 0).1.unwrap();
            }
            room.take(&mut replica, &Step::Tick, 9_000).1.unwrap();
            let Some(Deal::Slide(puzzle)) = replica.race.deal() else {
                panic!("dealt after the countdown")
            };
            let moves = slide::solve_fast(&puzzle.start, &puzzle.goal_position).unwrap();
            for key in ["a", "b"] {
                let play = Step::Play {
                    key: key.into(),
                    moves: moves.clone(),
                    t: 500,
                };
                room.take(&mut replica, &play, 9_500).1.unwrap();
            }
            assert_eq!(replica.race.phase(), play::race::Phase::Finished);
        }
        room
    }

    /// The puzzle a room deals once its rematch's countdown is over.
    fn rematched(room: &Room, seed: u64) -> (Deal, usize) {
        let mut replica = room.replica.try_lock().unwrap();
        let rematch = Step::Rematch {
            key: "a".into(),
            seed,
        };
        room.take(&mut replica, &rematch, 10_000).1.unwrap();
        for key in ["a", "b"] {
            let ready = Step::Ready {
                key: key.into(),
                ready: true,
            };
            room.take(&mut replica, &ready, 10_000).1.unwrap();
        }
        room.take(&mut replica, &Step::Tick, 20_000).1.unwrap();
        let deal = replica.race.deal().expect("dealt after the countdown");
        (deal, room.dealt_locked.load(Ordering::Relaxed))
    }

    /// A rematch is dealt before the replica is locked: by the instance
    /// that draws its seed, and by one that hears of the step. Only a step
    /// read from the log is dealt with the replica locked; every way gives
    /// the seed's puzzle. A rematch the rules refuse is dealt nowhere.
    #[tokio::test]
    async fn a_rematch_is_dealt_before_the_room_is_locked() {
        let game: RaceSpec = "slide:3x3-row-major".parse().unwrap();
        let seed = 77;
        let expected = game.deal(seed).unwrap();

        let drawn = finished_room();
        drawn.prepare(game.deal(seed).unwrap());
        assert_eq!(rematched(&drawn, seed), (expected.clone(), 0));
        assert!(drawn.deals().is_empty(), "the prepared deal was taken");

        let heard = finished_room();
        let step = Step::Rematch {
            key: "a".into(),
            seed,
        };
        let text = serde_json::to_string(&Logged { at: 10_000, step }).unwrap();
        heard.inbox().push((9, text));
        heard.prepare_heard().await;
        assert!(heard.deals().contains_key(&seed));
        assert_eq!(rematched(&heard, seed), (expected.clone(), 0));

        let read = finished_room();
        assert_eq!(rematched(&read, seed), (expected, 1));

        let expected_early = |seed| game.deal(seed).unwrap();
        let race = AnyRace::new(game.clone(), 11, 0).unwrap();
        let early = Room::new("early".into(), race, 0, in_process(), encode);
        let mut replica = early.replica.try_lock().unwrap();
        let join = Step::Join {
            key: "a".into(),
            name: "A".parse().unwrap(),
            account: None,
        };
        early.take(&mut replica, &join, 0).1.unwrap();
        let rematch = Step::Rematch {
            key: "a".into(),
            seed,
        };
        early.prepare(expected_early(seed));
        let refused = early.take(&mut replica, &rematch, 0).1;
        assert_eq!(refused, Err(RaceError::NotOver));
        assert_eq!(early.dealt_locked.load(Ordering::Relaxed), 0);
        assert!(early.deals().is_empty(), "a refused rematch keeps no deal");
    }
}
