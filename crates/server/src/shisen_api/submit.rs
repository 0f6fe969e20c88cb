//! A played game, replayed and judged into a result.

use play::result::{self, Ending};
use play::GameKind;
use serde::{Deserialize, Serialize};
use shisen::{parse_board, Board, Matching};

use crate::account::Call;
use crate::answers::{Reply, Signed};
use crate::clock::now_millis;
use crate::edge::GameId;
use crate::error::{Always, ApiError, BodyErrors, GameErrors};
use crate::games::{facts, finish, submitted_game, timed};
use crate::App;
use store::IssuedGame;
use utoipa::ToSchema;

use super::session::stored_session;
use super::turns::{illegal_turn, read_turns, TurnJson};

/// A played game, for the server to replay and judge.
#[derive(Deserialize, ToSchema)]
#[schema(as = ShisenSubmitRequest)]
#[serde(deny_unknown_fields)]
pub struct SubmitRequest {
    game: GameId,
    /// Every turn from the deal: removals, shuffles, undos and redos.
    #[serde(alias = "moves")]
    #[schema(max_items = 5000)]
    turns: Vec<TurnJson>,
    /// Milliseconds since the deal was shown (pauses included), one per
    /// turn.
    times: Vec<i64>,
}

/// The boards `player` asked for hints about since `game` was dealt,
/// with how often each was asked: `play` charges those the game showed.
pub(crate) async fn asked_boards(
    app: &App,
    player: &str,
    game: &IssuedGame,
    matching: Matching,
) -> Result<Vec<(Board, i64)>, ApiError> {
    let asked = app
        .store
        .help_since(player, GameKind::Shisen, game.issued_at)
        .await?;
    Ok(asked
        .iter()
        .filter_map(|(state, count)| Some((parse_board(state, matching).ok()?, *count)))
        .collect())
}

/// A submitted game that does not clear the board: where it ended.
#[derive(Serialize, ToSchema)]
#[schema(as = ShisenUnsolved)]
pub struct Unsolved {
    /// Always false.
    solved: bool,
    /// Removals.
    moves: usize,
    millis: i64,
    tiles_left: usize,
    board: String,
}

/// What a submission comes to.
pub type Submitted = crate::games::Submitted<Unsolved>;

/// Replays a game's turns from its deal; a cleared board becomes a
/// result, ranked unless the judge finds a reason not to.
#[utoipa::path(post, path = "/api/shisen/submit", operation_id = "shisen_submit", tag = "shisen", request_body = SubmitRequest,
    responses((status = 200, body = inline(Submitted)), BodyErrors, GameErrors, Always))]
pub async fn submit(call: Call<Signed<SubmitRequest>>) -> Result<Reply<Submitted>, ApiError> {
    let Call(app, player, visitor, Signed(request, digest)) = call;
    timed(&request.times, request.turns.len())?;
    let id = request.game.as_str();
    let row = match submitted_game(&app, id, &player, GameKind::Shisen, &digest).await? {
        Reply::Now(row) => row,
        Reply::Before(answer) => return Ok(Reply::Before(answer)),
    };
    let session = stored_session(&row.issued)?;
    let board = session.game().board();
    let turns = read_turns(&request.turns, board.size())?;
    let asked = asked_boards(&app, &player.0, &row.issued, board.matching()).await?;
    let now = now_millis();
    let pauses = app.store.pauses(&row.issued, now).await?;
    let facts = facts(&row, now, &pauses);
    let ending =
        result::shisen(session, turns, request.times, &facts, &asked).map_err(illegal_turn)?;
    match ending {
        Ending::Unsolved(stuck) => Ok(Reply::Now(Submitted::Unsolved(Unsolved {
            solved: false,
            moves: stuck.removals,
            millis: facts.played_millis,
            tiles_left: stuck.board.tiles_left(),
            board: stuck.board.to_string(),
        }))),
        Ending::Solved(result) => {
            let account = visitor.account();
            let finished = finish(&app, &row, result, account, now, Some(&digest)).await?;
            Ok(finished.map(Submitted::Solved))
        }
    }
}
