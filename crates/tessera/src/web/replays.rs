//! Replays: every finished game, public like the records that link to it.
//! `GET /api/replays/{game}` gives the moves and the time of each; the page
//! `/replay/{game}` plays them back.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::{json, Value};
use slide::Moves;

use super::error::ApiError;
use super::games::unreadable;
use super::{shisen_api, App};
use crate::store::ReplayRow;

/// The longest game id accepted (ids are 32 hex digits).
const MAX_ID: usize = 64;

pub async fn replay(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    if id.len() > MAX_ID || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(ApiError::bad(format!("bad game id {id:?}: 32 hex digits")));
    }
    let row = app
        .store
        .replay(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no finished game {id:?}")))?;
    if row.replay.is_empty() && row.result.moves > 0 {
        return Err(ApiError::not_found(
            "this game finished before replays were kept",
        ));
    }
    let common = json!({
        "game": row.issued.id,
        "kind": row.issued.game,
        "variant": row.issued.variant,
        "seed": row.issued.seed,
        "position": row.issued.setup,
        "times": row.times,
        "millis": row.result.millis,
        "name": row.name,
        "ranked": row.result.ranked,
        "reason": row.result.reason,
        "finished_at": row.result.finished_at,
    });
    let details = match row.issued.game.as_str() {
        "slide" => slide(&row)?,
        _ => shisen(&row)?,
    };
    let mut reply = common;
    if let (Some(reply), Value::Object(details)) = (reply.as_object_mut(), details) {
        reply.extend(details);
    }
    Ok(Json(reply))
}

/// Moves a second over `millis`.
fn rate(moves: i64, millis: i64) -> f64 {
    moves as f64 * 1000.0 / millis.max(1) as f64
}

fn slide(row: &ReplayRow) -> Result<Value, ApiError> {
    let moves: Moves = row.replay.parse().map_err(|e| unreadable(&row.issued, e))?;
    let (stm, mtm, millis) = (row.result.stm, row.result.mtm, row.result.millis);
    Ok(json!({
        "goal": row.issued.goal,
        "goal_name": row.issued.rules,
        "moves": row.replay,
        "compact": moves.compact(),
        "stm": stm,
        "mtm": mtm,
        "tps": rate(stm, millis),
        "tps_mtm": rate(mtm, millis),
    }))
}

fn shisen(row: &ReplayRow) -> Result<Value, ApiError> {
    let (_, replay) = shisen_api::stored_replay(&row.issued, &row.replay)?;
    let steps: Vec<Value> = replay
        .steps
        .iter()
        .map(|step| {
            json!({
                "turn": step.turn.to_string(),
                "board": step.board.to_string(),
                "path": step.path.as_ref().map(|p| p.points().iter().map(|q| [q.x, q.y]).collect::<Vec<_>>()),
            })
        })
        .collect();
    Ok(json!({
        "goal": null,
        "rules": row.issued.rules,
        "moves": row.replay,
        "stm": null,
        "mtm": null,
        "turns": replay.steps.len(),
        "removals": replay.removals,
        "score": row.result.score,
        "hints": row.result.hints,
        "steps": steps,
    }))
}
