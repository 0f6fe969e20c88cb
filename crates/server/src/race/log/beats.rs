//! Liveness on the live-play bus: each instance beats, and the racers of
//! an instance whose beats stop are disconnected by another.
//!
//! An instance has an id drawn when it starts. Every second it sets its
//! beat, `tessera:beat:ID`, which Redis expires [`BEAT_LASTS`] later, and
//! is listed in the set `tessera:instances`. The sockets connected through
//! it are counted in the hash `tessera:sockets:ID` (`ROOM KEY` → how
//! many). Every half second each instance looks for listed instances
//! whose beat has expired: the first to take a short lock on one
//! (`SET tessera:reap:ID … NX PX`) appends a disconnect to each room for
//! each racer it had connected (unless the racer is connected through a
//! live instance by then), then strikes it off. A killed instance's racers
//! are so shown disconnected within [`BEAT_LASTS`] and a half second of its
//! last beat. An instance looks only once it has beaten without a miss
//! for a beat longer than a beat lasts: after Redis was away, the others
//! have beaten again by then.

use std::sync::Arc;
use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::AsyncCommands;
use tokio::sync::mpsc;

use super::Hears;

/// How often an instance beats.
const BEAT_EVERY: Duration = Duration::from_secs(1);
/// How long a beat lasts: an instance silent this long is dead.
const BEAT_LASTS: Duration = Duration::from_secs(3);
/// How often an instance looks for dead ones.
const LOOK_EVERY: Duration = Duration::from_millis(500);
/// How long the lock on a dead instance's racers is held: ample for
/// appending their disconnects, short enough that another instance does it
/// if the one that took it dies too.
const REAP_LOCK: Duration = Duration::from_secs(10);
/// How long an instance's counts of sockets outlive its last beat, for
/// when no other instance is left to strike it off.
const SOCKETS_KEPT: Duration = Duration::from_secs(24 * 60 * 60);

const INSTANCES: &str = "tessera:instances";

fn beat_key(instance: &str) -> String {
    format!("tessera:beat:{instance}")
}

fn sockets_key(instance: &str) -> String {
    format!("tessera:sockets:{instance}")
}

/// A socket that opened (`true`) or closed on this instance.
type Presence = (String, String, bool);

/// This instance on the bus: where its sockets are counted.
pub struct Beats {
    presence: mpsc::UnboundedSender<Presence>,
}

impl Beats {
    /// Starts beating as a new instance, counting its sockets; `rooms`
    /// are told of the racers of dead instances to disconnect.
    pub fn start(commands: ConnectionManager, rooms: Arc<dyn Hears>) -> Beats {
        let instance = play::seed::random_id();
        tracing::info!(instance = %instance, "beating on the live-play bus");
        let (presence, counts) = mpsc::unbounded_channel();
        tokio::spawn(count(commands.clone(), instance.clone(), counts));
        tokio::spawn(beat(commands, instance, rooms));
        Beats { presence }
    }

    /// A racer's socket to room `id` opened (`here`) or closed here.
    pub fn present(&self, id: &str, key: &str, here: bool) {
        // Counted in order by one task; a closed channel is a server
        // stopping.
        let _ = self.presence.send((id.to_string(), key.to_string(), here));
    }
}

/// Counts the sockets of this instance in Redis, in the order they come
/// and go.
async fn count(
    mut commands: ConnectionManager,
    instance: String,
    mut counts: mpsc::UnboundedReceiver<Presence>,
) {
    let key = sockets_key(&instance);
    while let Some((room, racer, here)) = counts.recv().await {
        let field = format!("{room} {racer}");
        let counted = async {
            let now: i64 = commands
                .hincr(&key, &field, if here { 1 } else { -1 })
                .await?;
            if now <= 0 {
                commands.hdel::<_, _, ()>(&key, &field).await?;
            }
            Ok::<(), redis::RedisError>(())
        };
        if let Err(e) = counted.await {
            tracing::warn!(error = %e, "a race socket could not be counted on the bus");
        }
    }
}

/// Beats, and looks for dead instances, until the server stops.
async fn beat(mut commands: ConnectionManager, instance: String, rooms: Arc<dyn Hears>) {
    let mut look = tokio::time::interval(LOOK_EVERY);
    look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_beat: Option<tokio::time::Instant> = None;
    // Since when every beat went through: after the bus was away, the
    // others' beats may have expired meanwhile, and they are not taken
    // for dead before they have had the time to beat again.
    let mut beating_since: Option<tokio::time::Instant> = None;
    loop {
        look.tick().await;
        if last_beat.is_none_or(|at| at.elapsed() >= BEAT_EVERY) {
            // Whether this instance is still listed, then the beat. A
            // command that gets no answer in time counts as a missed beat
            // (a link that went silent).
            let mut pipe = redis::pipe();
            pipe.sismember(INSTANCES, &instance)
                .set_options(
                    beat_key(&instance),
                    1,
                    redis::SetOptions::default()
                        .with_expiration(redis::SetExpiry::PX(BEAT_LASTS.as_millis() as u64)),
                )
                .ignore()
                .sadd(INSTANCES, &instance)
                .ignore()
                .pexpire(sockets_key(&instance), SOCKETS_KEPT.as_millis() as i64)
                .ignore();
            let beat = pipe.query_async::<(bool,)>(&mut commands);
            let beat = tokio::time::timeout(BEAT_EVERY, beat).await;
            let now = tokio::time::Instant::now();
            match beat {
                Ok(Ok((listed,))) => {
                    // Back after missed beats, and struck off meanwhile by
                    // another instance, which logged this one's racers
                    // disconnected: they connect again.
                    if !listed && last_beat.is_some() && beating_since.is_none() {
                        tracing::warn!(
                            "this instance was taken for dead: its race sockets connect again"
                        );
                        rooms.cut_off();
                    }
                    last_beat = Some(now);
                    beating_since.get_or_insert(now);
                }
                Ok(Err(e)) => {
                    beating_since = None;
                    tracing::warn!(error = %e, "cannot beat on the live-play bus");
                }
                Err(_) => {
                    beating_since = None;
                    tracing::warn!("the live-play bus did not answer a beat in time");
                }
            }
        }
        if beating_since.is_none_or(|since| since.elapsed() < BEAT_LASTS + BEAT_EVERY) {
            continue;
        }
        if let Err(e) = reap(&mut commands, &instance, rooms.as_ref()).await {
            tracing::warn!(error = %e, "cannot look for lost instances on the bus");
        }
    }
}

/// Disconnects the racers of the instances whose beat expired, once
/// each (under a lock).
async fn reap(
    commands: &mut ConnectionManager,
    me: &str,
    rooms: &dyn Hears,
) -> redis::RedisResult<()> {
    let listed: Vec<String> = commands.smembers(INSTANCES).await?;
    let mut live = Vec::new();
    let mut dead = Vec::new();
    for instance in listed {
        let beating: bool = commands.exists(beat_key(&instance)).await?;
        if beating || instance == me {
            live.push(instance);
        } else {
            dead.push(instance);
        }
    }
    for instance in dead {
        let locked: Option<String> = commands
            .set_options(
                format!("tessera:reap:{instance}"),
                me,
                redis::SetOptions::default()
                    .conditional_set(redis::ExistenceCheck::NX)
                    .with_expiration(redis::SetExpiry::PX(REAP_LOCK.as_millis() as u64)),
            )
            .await?;
        if locked.is_none() {
            continue;
        }
        let sockets: Vec<String> = commands.hkeys(sockets_key(&instance)).await?;
        for field in &sockets {
            let mut elsewhere = false;
            for other in &live {
                elsewhere |= commands
                    .hexists::<_, _, bool>(sockets_key(other), field)
                    .await?;
            }
            if elsewhere {
                continue;
            }
            if let Some((room, key)) = field.split_once(' ') {
                rooms.lost(room, key);
            }
        }
        tracing::warn!(
            instance = %instance,
            racers = sockets.len(),
            "an instance stopped beating: its racers are disconnected"
        );
        redis::pipe()
            .del(sockets_key(&instance))
            .ignore()
            .srem(INSTANCES, &instance)
            .ignore()
            .query_async::<()>(commands)
            .await?;
    }
    Ok(())
}
