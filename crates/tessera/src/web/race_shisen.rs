//! Shisen-Sho races at the edge: a `turn` message read and checked
//! against the room's board size, and a cleared board stored as a result
//! judged like a single game's submission (`shisen_api::submit`). The
//! rules of the race are `play::race`'s.

use play::race::{Deal, Event, Phase, RaceError, RaceSpec, ShisenDeal};
use play::result::{self, Facts};
use play::seed::random_seed;
use play::shisen_game::{Session, Turn};

use super::error::ApiError;
use super::games::finish;
use super::race_rooms::{Replica, Room};
use super::shisen_api::{asked_boards, read_turns, TurnJson};
use super::App;
use crate::store::{Account, GameRow, IssuedGame};

/// A turn as the client sent it, read: its points inside the room's
/// board. Refused in a sliding-puzzle room.
pub async fn read_turn(room: &Room, turn: TurnJson) -> Result<Turn, String> {
    let size = match room.replica().await.race.game() {
        RaceSpec::Shisen(spec) => spec.size,
        RaceSpec::Slide(_) => return Err(RaceError::WrongGame("a sliding puzzle").to_string()),
    };
    let turns = read_turns(&[turn], size).map_err(|e| e.message)?;
    Ok(turns[0])
}

/// How many seeds a Shisen-Sho rematch tries before giving up.
const REMATCH_DRAWS: usize = 3;

/// The seed of a rematch. A Shisen-Sho room's next deal is found here
/// first, within the engine's budget and off the async threads: every
/// instance then deals it under the room's lock without a deadline (so
/// that they all deal the same board), and a seed whose deal the solver
/// is slow to find would hold the room up. Only once the race is over:
/// a rematch before is refused by the rules, with no deal made for it.
pub async fn rematch_seed(app: &App, room: &Room) -> Result<u64, String> {
    let (game, phase) = {
        let replica = room.replica().await;
        (replica.race.game(), replica.race.phase())
    };
    let RaceSpec::Shisen(spec) = game else {
        return Ok(random_seed());
    };
    if phase != Phase::Finished {
        return Ok(random_seed());
    }
    let mut why = String::new();
    for _ in 0..REMATCH_DRAWS {
        let seed = random_seed();
        let dealt = app
            .budget
            .run(move |mut deadline| spec.deal(seed, &mut deadline))
            .await;
        match dealt {
            Ok(Ok(_)) => return Ok(seed),
            Ok(Err(e)) => why = e.to_string(),
            Err(e) => why = e.message,
        }
    }
    Err(format!("no new deal for the rematch: {why}; try again"))
}

/// A racer's cleared board, as the room saw it.
pub struct Cleared {
    /// The stored game its `finish` announced.
    game: String,
    deal: ShisenDeal,
    turns: Vec<Turn>,
    /// The racer's own clock for each turn.
    times: Vec<i64>,
    /// From the start to the clearing pair, by the server's clock.
    millis: i64,
    finished_at: i64,
}

/// The cleared board of the racer `key`, if `events` announce one.
pub fn cleared(replica: &Replica, key: &str, events: &[Event], now: i64) -> Option<Cleared> {
    let race = &replica.race;
    let seat = race.seat_of(key)?;
    let finish = events.iter().find_map(|event| match event {
        Event::Finish(finish) if finish.seat == seat => Some(finish),
        _ => None,
    })?;
    let Some(Deal::Shisen(deal)) = race.deal() else {
        return None;
    };
    let (_, turns, times) = race.shisen_of(seat)?;
    Some(Cleared {
        game: replica.games.of(Some(deal.seed), seat)?.to_string(),
        deal,
        turns: turns.to_vec(),
        times: times.to_vec(),
        millis: finish.millis,
        finished_at: now,
    })
}

/// Stores a cleared board as a game issued at the race's start and
/// submitted with its turns: replayed, charged the hints asked about its
/// boards, judged on its times as a single game is, ranked only for an
/// account.
pub async fn store_clear(
    app: &App,
    player: String,
    cleared: Cleared,
    account: Option<&Account>,
) -> Result<(), ApiError> {
    let Cleared {
        game: id,
        deal,
        turns,
        times,
        millis,
        finished_at,
    } = cleared;
    let issued = IssuedGame {
        id,
        player_id: player.clone(),
        game: "shisen".into(),
        variant: deal.spec.variant(),
        seed: deal.seed,
        setup: deal.board.to_string(),
        goal: String::new(),
        rules: deal.spec.rules().to_string(),
        issued_at: finished_at - millis,
        // A race is one deal, raced as a single game.
        format: play::format::Format::Single,
    };
    app.store.issue(&issued).await?;
    let session = Session::new(deal.board.clone(), deal.spec.rules(), deal.seed);
    let asked = asked_boards(app, &player, &issued, deal.spec.rules().matching).await?;
    // The room played these turns already: they replay.
    let ending = result::shisen(session, turns, times, &Facts::race(millis), &asked)
        .map_err(ApiError::bad)?;
    let result::Ending::Solved(result) = ending else {
        return Err(ApiError::bad("the race's turns do not clear its board"));
    };
    let row = GameRow::fresh(issued);
    finish(app, &row, result, account, finished_at).await?;
    Ok(())
}
