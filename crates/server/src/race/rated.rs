//! A rated room's race that ended, settled through the ratings: every
//! racer's outcome read from the room and from the stored verdict of their
//! solve, then `Store::settle_race` (once per race, however many instances
//! saw it end). A pairing's race aborted (a racer made no first move in
//! time) moves no rating: an arena that paired it is told, and frees its
//! racers.

use std::sync::Arc;
use std::time::Duration;

use accounts::Handle;
use play::race::Phase;
use play::rating::{Outcome, Pool};

use super::rooms::{Replica, Settle};
use crate::clock::now_millis;
use store::{Fault, RatedRacer, Store};

/// How long a settlement waits for a solve's verdict: each solve is judged
/// and stored as it arrives, by the instance its racer is connected to,
/// which takes milliseconds.
const VERDICT_WAIT: Duration = Duration::from_secs(10);

/// How often a settlement is tried when the database is busy or cannot
/// be reached.
const SETTLE_ATTEMPTS: u32 = 3;

/// A rated race that ended, as the room saw it.
struct Ended {
    /// The room and the round's seed: one race, whichever instance saw it.
    race_id: String,
    pool: Pool,
    racers: Vec<Racer>,
}

struct Racer {
    /// The racer's account's handle (a rated room has no guests).
    handle: Option<String>,
    /// A solve: its time and its stored game.
    solve: Option<(i64, Option<String>)>,
    /// Left (or was away too long) before the end.
    gone: bool,
}

impl Ended {
    /// The race that just ended in `replica` of room `room`, if rated.
    fn of(room: &str, replica: &Replica) -> Option<Ended> {
        let pool = replica.rated?;
        let race = &replica.race;
        let seed = race.round_seed()?;
        let view = race.view();
        let racers = race
            .results()?
            .iter()
            .map(|placing| Racer {
                handle: view
                    .players
                    .iter()
                    .find(|p| p.seat == placing.seat)
                    .and_then(|p| p.account.clone()),
                solve: placing.finish.as_ref().map(|f| {
                    let game = replica.games.of(Some(seed), placing.seat);
                    (f.millis, game.map(str::to_string))
                }),
                gone: race.gone(placing.seat),
            })
            .collect();
        Some(Ended {
            race_id: format!("{room}:{seed}"),
            pool,
            racers,
        })
    }
}

/// Settles each race handed to it in the background, in `store`.
pub(super) fn settler(store: &Store) -> Settle {
    let store = store.clone();
    Arc::new(move |room, replica| {
        if replica.race.phase() == Phase::Aborted {
            // Nothing is rated; an arena that paired it frees its racers.
            let (store, room) = (store.clone(), room.to_string());
            tokio::spawn(async move {
                if let Err(e) = store.abort_arena_race(&room, now_millis()).await {
                    tracing::warn!(room, error = %e, "an aborted race's arena was not told");
                }
            });
            return;
        }
        let Some(ended) = Ended::of(room, replica) else {
            return;
        };
        let store = store.clone();
        tokio::spawn(async move {
            for attempt in 1.. {
                let Err(e) = settle(&store, &ended).await else {
                    return;
                };
                // A busy or unreachable database may answer a moment later;
                // the settlement is idempotent, so it is tried again.
                let passing = matches!(e.fault(), Fault::Busy | Fault::Unavailable);
                if passing && attempt < SETTLE_ATTEMPTS {
                    tokio::time::sleep(Duration::from_millis(500 * u64::from(attempt))).await;
                    continue;
                }
                metrics::counter!("tessera_rated_races_unsettled_total").increment(1);
                tracing::warn!(race = %ended.race_id, error = %e, "a rated race was not settled");
                return;
            }
        });
    })
}

/// Counts a settlement by how it went: `settled` here, or `already` by
/// another instance (or before).
fn count(pool: Pool, how: &'static str) {
    metrics::counter!("tessera_rated_races_total", "pool" => pool.name(), "settlement" => how)
        .increment(1);
}

async fn settle(store: &Store, ended: &Ended) -> Result<(), store::Error> {
    if store.race_settled(&ended.race_id).await? {
        count(ended.pool, "already");
        return Ok(());
    }
    let mut racers = Vec::new();
    for racer in &ended.racers {
        let Some(handle) = racer.handle.as_deref().and_then(|h| Handle::parse(h).ok()) else {
            continue;
        };
        let Some(account) = store.account_by_handle(&handle).await? else {
            continue;
        };
        let outcome = match &racer.solve {
            Some((millis, Some(game))) if verdict(store, game).await? => {
                Outcome::Solved { millis: *millis }
            }
            Some(_) => Outcome::Unranked,
            None if racer.gone => Outcome::Left,
            None => Outcome::Unfinished,
        };
        racers.push(RatedRacer {
            account_id: account.id,
            outcome,
        });
    }
    if racers.len() < 2 {
        return Ok(());
    }
    let settled = store
        .settle_race(&ended.race_id, ended.pool, &racers, now_millis())
        .await?;
    match settled {
        Some(changes) => {
            count(ended.pool, "settled");
            tracing::info!(race = %ended.race_id, pool = %ended.pool, racers = changes.len(), "a rated race was settled");
        }
        None => count(ended.pool, "already"),
    }
    Ok(())
}

/// Whether the solve stored as `game` is ranked, once its verdict is
/// stored; a solve whose verdict does not come in time counts as not
/// ranked (no rating is won on a solve nobody judged).
async fn verdict(store: &Store, game: &str) -> Result<bool, store::Error> {
    let deadline = tokio::time::Instant::now() + VERDICT_WAIT;
    loop {
        if let Some(ranked) = store.result_ranked(game).await? {
            return Ok(ranked);
        }
        if tokio::time::Instant::now() >= deadline {
            tracing::warn!(
                game,
                "a rated race's solve has no verdict: counted as not ranked"
            );
            return Ok(false);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
