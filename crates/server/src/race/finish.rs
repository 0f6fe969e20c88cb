//! A finished solve, judged and stored: read from the room as it saw it,
//! then stored as an ordinary game issued at the race's start, judged as
//! a submission is (`play::result`) and finished through the store
//! (`games::finish`). One path for both games; what differs between them
//! is [`Finishing`]'s.

use std::future::Future;

use play::format::{Format, Played};
use play::race::{AnyRace, Event, Race, RaceGame, ShisenDeal};
use play::result::{self, Facts};
use play::shisen_game::{Session, ShisenSpec};
use play::slide_game::{GoalChoice, Puzzle, SlideSpec};
use shisen::Board;
use slide::Position;

use super::rooms::{Games, Replica};
use crate::error::ApiError;
use crate::games::finish;
use crate::App;
use store::{Account, Dealt, GameRow, IssuedGame};

/// What a game's finish has of its own: how its deal is stored, what help
/// its racer asked about it, and how its turns are judged.
pub(super) trait Finishing:
    RaceGame<Deal: Send + Sync + 'static, Board: Send + 'static> + Send + 'static
{
    /// The help the racer asked about the deal, as the judge charges it.
    type Asked: Send;

    /// The game stored for a solve of `deal`, with the race's `id`,
    /// `player` and start: issued as a single game is.
    fn issued(&self, deal: &Self::Deal, id: String, player: String, issued_at: i64) -> IssuedGame;

    /// The help `issued`'s player asked about it.
    fn asked(
        app: &App,
        issued: &IssuedGame,
        deal: &Self::Deal,
    ) -> impl Future<Output = Result<Self::Asked, ApiError>> + Send;

    /// The racer's `board`, played at their `times`, judged as a
    /// submission of the deal is: the result, or why it is none.
    fn judge(
        deal: &Self::Deal,
        board: Self::Board,
        times: Vec<i64>,
        facts: &Facts,
        asked: &Self::Asked,
    ) -> Result<result::Finished, ApiError>;
}

impl Finishing for SlideSpec {
    /// The positions the solver was asked about.
    type Asked = Vec<Position>;

    fn issued(&self, puzzle: &Puzzle, id: String, player: String, issued_at: i64) -> IssuedGame {
        IssuedGame {
            id,
            player_id: player,
            variant: self.variant(),
            seed: puzzle.seed,
            dealt: Dealt::Slide {
                start: puzzle.start.clone(),
                goal: puzzle.goal_position.clone(),
                chosen: GoalChoice::Goal(puzzle.goal.clone()),
            },
            issued_at,
            // A race is one puzzle, raced as a single solve.
            format: Format::Single,
        }
    }

    async fn asked(app: &App, issued: &IssuedGame, _: &Puzzle) -> Result<Vec<Position>, ApiError> {
        crate::slide_api::helped_positions(app, &issued.player_id, issued.issued_at).await
    }

    fn judge(
        puzzle: &Puzzle,
        session: Self::Board,
        times: Vec<i64>,
        facts: &Facts,
        asked: &Vec<Position>,
    ) -> Result<result::Finished, ApiError> {
        let played = Played {
            moves: session.moves(),
            times,
        };
        // How the moves were made is not sent over the race socket.
        let ending = result::slide_single(
            &puzzle.start,
            &puzzle.goal_position,
            Format::Single,
            played,
            None,
            facts,
            asked,
        )
        .map_err(|e| ApiError::bad(format!("illegal move list: {e}")))?;
        match ending {
            result::Ending::Solved(result) => Ok(result),
            result::Ending::Unsolved(_) => {
                Err(ApiError::bad("the race's moves do not solve its puzzle"))
            }
        }
    }
}

impl Finishing for ShisenSpec {
    /// The boards hints were asked about, and how often.
    type Asked = Vec<(Board, i64)>;

    fn issued(&self, deal: &ShisenDeal, id: String, player: String, issued_at: i64) -> IssuedGame {
        IssuedGame {
            id,
            player_id: player,
            variant: deal.spec.variant(),
            seed: deal.seed,
            dealt: Dealt::Shisen {
                board: deal.board.clone(),
                rules: deal.spec.rules(),
            },
            issued_at,
            // A race is one deal, raced as a single game.
            format: Format::Single,
        }
    }

    async fn asked(
        app: &App,
        issued: &IssuedGame,
        deal: &ShisenDeal,
    ) -> Result<Vec<(Board, i64)>, ApiError> {
        let matching = deal.spec.rules().matching;
        crate::shisen_api::asked_boards(app, &issued.player_id, issued, matching).await
    }

    fn judge(
        deal: &ShisenDeal,
        board: Self::Board,
        times: Vec<i64>,
        facts: &Facts,
        asked: &Vec<(Board, i64)>,
    ) -> Result<result::Finished, ApiError> {
        let session = Session::new(deal.board.clone(), deal.spec.rules(), deal.seed);
        // The room played these turns already: they replay.
        let turns = board.turns().to_vec();
        let ending = result::shisen(session, turns, times, facts, asked).map_err(ApiError::bad)?;
        match ending {
            result::Ending::Solved(result) => Ok(result),
            result::Ending::Unsolved(_) => {
                Err(ApiError::bad("the race's turns do not clear its board"))
            }
        }
    }
}

/// A racer's solve, as the room saw it.
struct Solved<G: RaceGame> {
    /// The stored game its `finish` announced.
    game: String,
    spec: G,
    deal: G::Deal,
    /// The racer's board, solved.
    board: G::Board,
    /// The racer's own clock for each move.
    times: Vec<i64>,
    /// From the start to the solve, by the server's clock.
    millis: i64,
    finished_at: i64,
}

/// Who a solve is stored for: the racer's key in the room, the player's
/// id and their account.
pub(super) struct Solver<'a> {
    pub app: &'a App,
    pub key: &'a str,
    pub player: &'a str,
    pub account: Option<&'a Account>,
}

impl Solver<'_> {
    /// Stores the solve of this racer, if `events` announce one, as an
    /// ordinary result judged like any other, under the game id its
    /// `finish` announced; in the background, so that the race goes on
    /// meanwhile.
    pub(super) fn record(&self, replica: &Replica, events: &[Event], now: i64) {
        match &replica.race {
            AnyRace::Slide(race) => self.record_in(race, &replica.games, events, now),
            AnyRace::Shisen(race) => self.record_in(race, &replica.games, events, now),
        }
    }

    fn record_in<G: Finishing>(&self, race: &Race<G>, games: &Games, events: &[Event], now: i64) {
        let Some(solved) = solved(race, games, self.key, events, now) else {
            return;
        };
        let (app, player) = (self.app.clone(), self.player.to_string());
        let account = self.account.cloned();
        tokio::spawn(async move {
            if let Err(e) = store(&app, player, solved, account.as_ref()).await {
                tracing::warn!(error = %e.message, "a race's result was not recorded");
            }
        });
    }
}

/// The solve of the racer `key`, if `events` announce one.
fn solved<G: RaceGame>(
    race: &Race<G>,
    games: &Games,
    key: &str,
    events: &[Event],
    now: i64,
) -> Option<Solved<G>> {
    let seat = race.seat_of(key)?;
    let finish = events.iter().find_map(|event| match event {
        Event::Finish(finish) if finish.seat == seat => Some(finish),
        _ => None,
    })?;
    let deal = race.deal()?;
    Some(Solved {
        game: games.of(Some(G::seed(deal)), seat)?.to_string(),
        spec: race.game().clone(),
        deal: deal.clone(),
        board: race.board_of(seat)?.clone(),
        times: race.times_of(seat)?.to_vec(),
        millis: finish.millis,
        finished_at: now,
    })
}

/// Stores a solve as a game issued at the race's start and finished with
/// its turns: judged as a submission is (help asked about the deal, times
/// a person could make), ranked only for an account.
async fn store<G: Finishing>(
    app: &App,
    player: String,
    solved: Solved<G>,
    account: Option<&Account>,
) -> Result<(), ApiError> {
    let Solved {
        game,
        spec,
        deal,
        board,
        times,
        millis,
        finished_at,
    } = solved;
    let issued = spec.issued(&deal, game, player, finished_at - millis);
    app.store.issue(&issued).await?;
    let asked = G::asked(app, &issued, &deal).await?;
    let result = G::judge(&deal, board, times, &Facts::race(millis), &asked)?;
    let row = GameRow::fresh(issued);
    finish(app, &row, result, account, finished_at, None).await?;
    Ok(())
}
