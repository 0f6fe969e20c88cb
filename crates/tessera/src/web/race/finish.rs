//! A finished solve, judged and stored: read from the room as it saw it,
//! then stored as an ordinary game issued at the race's start, judged as
//! a submission is (`play::result`) and finished through the store.

use play::format::{Format, Played};
use play::race::{Deal, Event, RaceSpec};
use play::result::{self, Facts};
use play::slide_game::Puzzle;
use slide::Moves;

use crate::store::{Account, GameRow, IssuedGame};
use crate::web::error::ApiError;
use crate::web::games::finish;
use crate::web::race_rooms::Replica;
use crate::web::App;

/// A racer's solve, as the room saw it.
pub(super) struct Solved {
    /// The stored game its `finish` announced.
    game: String,
    variant: String,
    puzzle: Puzzle,
    moves: Moves,
    /// The racer's own clock for each move.
    times: Vec<i64>,
    /// From the start to the solve, by the server's clock.
    millis: i64,
    finished_at: i64,
}

/// The solve of the racer `key`, if `events` announce one.
pub(super) fn solved(replica: &Replica, key: &str, events: &[Event], now: i64) -> Option<Solved> {
    let race = &replica.race;
    let seat = race.seat_of(key)?;
    let finish = events.iter().find_map(|event| match event {
        Event::Finish(finish) if finish.seat == seat => Some(finish),
        _ => None,
    })?;
    let (RaceSpec::Slide(spec), Some(Deal::Slide(puzzle))) = (race.game(), race.deal()) else {
        return None;
    };
    let (moves, times) = race.moves_of(seat)?;
    Some(Solved {
        game: replica.games.of(Some(puzzle.seed), seat)?.to_string(),
        variant: spec.variant(),
        puzzle,
        moves,
        times: times.to_vec(),
        millis: finish.millis,
        finished_at: now,
    })
}

/// Stores a solve as a game issued at the race's start and finished with
/// its moves: judged as a submission is (help asked about its positions,
/// times a person could make), ranked only for an account.
pub(super) async fn store_solve(
    app: &App,
    player: String,
    solved: Solved,
    account: Option<&Account>,
) -> Result<(), ApiError> {
    let Solved {
        game: id,
        variant,
        puzzle,
        moves,
        times,
        millis,
        finished_at,
        ..
    } = solved;
    let issued_at = finished_at - millis;
    let issued = IssuedGame {
        id,
        player_id: player,
        game: "slide".into(),
        variant,
        seed: puzzle.seed,
        setup: puzzle.start.to_string(),
        goal: puzzle.goal_position.to_string(),
        rules: puzzle.goal.to_string(),
        issued_at,
        // A race is one puzzle, raced as a single solve.
        format: Format::Single,
    };
    app.store.issue(&issued).await?;
    let asked = crate::web::slide_api::helped_positions(app, &issued.player_id, issued_at).await?;
    let played = Played { moves, times };
    // How the moves were made is not sent over the race socket.
    let ending = result::slide_single(
        &puzzle.start,
        &puzzle.goal_position,
        Format::Single,
        played,
        None,
        &Facts::race(millis),
        &asked,
    )
    .map_err(|e| ApiError::bad(format!("illegal move list: {e}")))?;
    let result::Ending::Solved(result) = ending else {
        return Err(ApiError::bad("the race's moves do not solve its puzzle"));
    };
    let row = GameRow::fresh(issued);
    finish(app, &row, result, account, finished_at).await?;
    Ok(())
}
