//! The live-play bus: rooms shared between instances over a Redis server
//! (`tessera serve --bus redis://…`).
//!
//! A room is three keys, named with the room's id in braces so that a
//! Redis Cluster keeps them in one slot: `tessera:race:{ID}:room`, how it
//! was opened (a hash); `:seq`, the number of its last step; `:steps`, a
//! stream of its steps, each under the id `SEQ-1` with its time and text.
//! A step is appended by one script, run by Redis as one command: the
//! number drawn, the step added to the stream and announced on the room's
//! channel, `tessera:race:{ID}:live`, all or nothing, so the stream's
//! order is the order every instance takes. An instance subscribes to the
//! channels of the rooms it holds and no others: a step reaches the
//! instances its room's players use, not every instance. Every key lives
//! a day after the room's last step (give or take half a day: the keys'
//! lives are renewed once half is gone, not written again at every step),
//! so finished rooms go by themselves.
//!
//! Nothing here writes to PostgreSQL: a move in flight costs one Redis
//! command; what lasts (results, ratings, replays) is written when a race
//! ends, as with any log.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncCommands, Client, Script};

use super::beats::Beats;
use super::{tell, Appended, Hears, LogError, NewStep, Numbered, Pending, RoomLog};
use store::OpenedRoom;

/// Room `id`'s channel; a message is the time Redis published it, the
/// room's id, the step's number and (unless too long) the step.
fn channel(id: &str) -> String {
    key(id, "live")
}

/// The longest step a message carries; a longer one (a solution sent
/// whole) is read from the stream.
const CARRIED_STEP_BYTES: usize = 64 * 1024;

/// How long a room's keys outlive its last step.
const ROOM_KEPT_MS: i64 = 24 * 60 * 60 * 1000;

/// Appends a step (KEYS: the room, its number, its stream; ARGV: the
/// step, its time, the room's id, how long to keep the keys, the longest
/// step a message carries, the channel). The room must be open. The
/// message is `US ROOM SEQ [STEP]`, US the time it was published by
/// Redis's clock in microseconds (for the lag of its delivery). ARGV[7]
/// is the last step the appending instance took: the reply is the
/// number, the message's length and the stream's entries after that
/// step and before this one (steps of others it has not heard yet).
const APPEND: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('no such room')
end
local seq = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[3], seq .. '-1', 'at', ARGV[2], 'step', ARGV[1])
if seq == 1 or redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) / 2 then
  for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
end
local now = redis.call('TIME')
local notice = now[1] .. string.format('%06d', tonumber(now[2])) .. ' ' .. ARGV[3] .. ' ' .. seq
if string.len(ARGV[1]) <= tonumber(ARGV[5]) then
  notice = notice .. ' ' .. ARGV[1]
end
redis.call('PUBLISH', ARGV[6], notice)
local missed = {}
local taken = tonumber(ARGV[7])
if seq > taken + 1 then
  missed = redis.call('XRANGE', KEYS[3], (taken + 1) .. '-0', (seq - 1) .. '-1')
end
return {seq, string.len(notice), missed}
";

/// How long a command may take before the bus counts as away (a link
/// gone silent answers nothing, not even an error).
const ANSWER_WITHIN: Duration = Duration::from_secs(2);

/// `command`'s answer, or [`LogError::Late`] when it takes too long.
async fn in_time<T>(
    command: impl std::future::Future<Output = redis::RedisResult<T>>,
) -> Result<T, LogError> {
    match tokio::time::timeout(ANSWER_WITHIN, command).await {
        Ok(answer) => Ok(answer?),
        Err(_) => Err(LogError::Late),
    }
}

/// A room's key of `kind` (`room`, `seq`, `steps`).
fn key(id: &str, kind: &str) -> String {
    format!("tessera:race:{{{id}}}:{kind}")
}

/// Rooms shared over a Redis server.
pub struct Redis {
    client: Client,
    /// Commands, over one connection that reconnects by itself.
    commands: ConnectionManager,
    append: Script,
    /// This instance's beats and sockets, once it listens.
    listening: tokio::sync::OnceCell<Beats>,
    /// The rooms whose channels this instance follows.
    following: Arc<Following>,
}

/// The rooms held here, whose channels the subscription follows, and the
/// subscription's sending half (none while the bus is away: the relay
/// subscribes to all of them again once it is back).
#[derive(Default)]
struct Following {
    rooms: Mutex<HashSet<String>>,
    sink: tokio::sync::Mutex<Option<redis::aio::PubSubSink>>,
}

impl Following {
    fn rooms(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.rooms.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Subscribes to room `id`'s channel (again, after a reconnection, is
    /// harmless).
    async fn follow(&self, id: &str) -> Result<(), LogError> {
        self.rooms().insert(id.to_string());
        if let Some(sink) = self.sink.lock().await.as_mut() {
            in_time(sink.subscribe(channel(id))).await?;
        }
        Ok(())
    }

    /// Unsubscribes from room `id`'s channel.
    async fn unfollow(&self, id: &str) {
        self.rooms().remove(id);
        if let Some(sink) = self.sink.lock().await.as_mut() {
            if let Err(e) = in_time(sink.unsubscribe(channel(id))).await {
                tracing::warn!(room = id, error = %e, "cannot leave a race's channel");
            }
        }
    }

    /// A new subscription, to every room followed: the relay's.
    async fn subscribe_all(&self, client: &Client) -> redis::RedisResult<redis::aio::PubSubStream> {
        let mut sink = self.sink.lock().await;
        let (mut new, stream) = client.get_async_pubsub().await?.split();
        let rooms: Vec<String> = self.rooms().iter().map(|id| channel(id)).collect();
        if !rooms.is_empty() {
            new.subscribe(rooms).await?;
        }
        *sink = Some(new);
        Ok(stream)
    }

    /// The subscription was lost.
    async fn lost(&self) {
        *self.sink.lock().await = None;
    }
}

impl Redis {
    /// The bus at `url`, once it answers: an error if it cannot be
    /// reached now (the server then does not start).
    pub async fn connect(url: &str) -> Result<Redis, LogError> {
        let client = Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500));
        let mut commands = ConnectionManager::new_with_config(client.clone(), config).await?;
        let _: String = redis::cmd("PING").query_async(&mut commands).await?;
        Ok(Redis {
            client,
            commands,
            append: Script::new(APPEND),
            listening: tokio::sync::OnceCell::new(),
            following: Arc::default(),
        })
    }
}

impl RoomLog for Redis {
    fn open<'a>(&'a self, id: &'a str, room: &'a OpenedRoom) -> Pending<'a, ()> {
        Box::pin(async move {
            let mut commands = self.commands.clone();
            let key = key(id, "room");
            let fields = [
                ("game", room.game.clone()),
                ("seed", room.seed.to_string()),
                ("opened_at", room.opened_at.to_string()),
                ("rated", i64::from(room.rated).to_string()),
            ];
            let mut pipe = redis::pipe();
            pipe.atomic()
                .hset_multiple(&key, &fields)
                .ignore()
                .pexpire(&key, ROOM_KEPT_MS)
                .ignore();
            in_time(pipe.query_async::<()>(&mut commands)).await?;
            Ok(())
        })
    }

    fn opened<'a>(&'a self, id: &'a str) -> Pending<'a, Option<OpenedRoom>> {
        Box::pin(async move {
            let mut commands = self.commands.clone();
            let fields: std::collections::HashMap<String, String> =
                in_time(commands.hgetall(key(id, "room"))).await?;
            let number = |name: &str| fields.get(name).and_then(|v| v.parse::<i64>().ok());
            let (Some(game), Some(seed), Some(opened_at), Some(rated)) = (
                fields.get("game"),
                fields.get("seed").and_then(|v| v.parse::<u64>().ok()),
                number("opened_at"),
                number("rated"),
            ) else {
                return Ok(None);
            };
            Ok(Some(OpenedRoom {
                game: game.clone(),
                seed,
                opened_at,
                rated: rated != 0,
            }))
        })
    }

    fn append<'a>(&'a self, step: NewStep<'a>) -> Pending<'a, i64> {
        Box::pin(async move {
            // Every step before it counts as taken: none is given back.
            Ok(self.append_after(step, i64::MAX - 1).await?.seq)
        })
    }

    fn append_after<'a>(&'a self, step: NewStep<'a>, taken: i64) -> Pending<'a, Appended> {
        let NewStep { room: id, text, at } = step;
        Box::pin(async move {
            let mut commands = self.commands.clone();
            let mut invocation = self.append.prepare_invoke();
            invocation
                .key(key(id, "room"))
                .key(key(id, "seq"))
                .key(key(id, "steps"))
                .arg(text)
                .arg(at)
                .arg(id)
                .arg(ROOM_KEPT_MS)
                .arg(CARRIED_STEP_BYTES)
                .arg(channel(id))
                .arg(taken);
            let (seq, bytes, missed): (i64, u64, Vec<Entry>) =
                in_time(invocation.invoke_async(&mut commands)).await?;
            metrics::counter!("tessera_bus_messages_total", "direction" => "sent").increment(1);
            metrics::counter!("tessera_bus_bytes_total", "direction" => "sent").increment(bytes);
            let missed = missed
                .iter()
                .filter_map(|(id, fields)| numbered(id, fields))
                .collect();
            Ok(Appended { seq, missed })
        })
    }

    fn after<'a>(&'a self, id: &'a str, seq: i64) -> Pending<'a, Vec<Numbered>> {
        Box::pin(async move {
            let mut commands = self.commands.clone();
            let entries: Vec<Entry> =
                in_time(commands.xrange(key(id, "steps"), format!("{}-0", seq + 1), "+")).await?;
            Ok(entries
                .iter()
                .filter_map(|(id, fields)| numbered(id, fields))
                .collect())
        })
    }

    fn listen<'a>(&'a self, rooms: Arc<dyn Hears>) -> Pending<'a, ()> {
        Box::pin(async move {
            self.listening
                .get_or_try_init(|| async {
                    let messages = in_time(self.following.subscribe_all(&self.client)).await?;
                    let relay = relay(
                        rooms.clone(),
                        self.client.clone(),
                        self.commands.clone(),
                        self.following.clone(),
                        messages,
                    );
                    tokio::spawn(relay);
                    Ok::<_, LogError>(Beats::start(self.commands.clone(), rooms))
                })
                .await?;
            Ok(())
        })
    }

    fn follow<'a>(&'a self, id: &'a str) -> Pending<'a, ()> {
        Box::pin(self.following.follow(id))
    }

    fn unfollow(&self, id: &str) {
        let (following, id) = (self.following.clone(), id.to_string());
        tokio::spawn(async move { following.unfollow(&id).await });
    }

    fn forget(&self, id: &str) {
        // The keys outlive the room here: other instances may hold it, and
        // they expire by themselves. Only the channel is left.
        self.unfollow(id);
    }

    fn present(&self, id: &str, key: &str, here: bool) {
        if let Some(beats) = self.listening.get() {
            beats.present(id, key, here);
        }
    }
}

/// Passes the bus's messages to the rooms held here; when the
/// subscription is lost, subscribes again to every room followed (every
/// second until Redis answers) and every room catches up, once `commands`
/// go through again too.
async fn relay(
    rooms: Arc<dyn Hears>,
    client: Client,
    mut commands: ConnectionManager,
    following: Arc<Following>,
    mut messages: redis::aio::PubSubStream,
) {
    loop {
        metrics::gauge!("tessera_bus_away").set(0.0);
        while let Some(message) = messages.next().await {
            received(rooms.as_ref(), message.get_payload_bytes());
        }
        tracing::warn!("live-play bus subscription lost: subscribing again");
        following.lost().await;
        metrics::gauge!("tessera_bus_away").set(1.0);
        rooms.away(true);
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let again = async {
                let messages = following.subscribe_all(&client).await?;
                redis::cmd("PING")
                    .query_async::<String>(&mut commands)
                    .await?;
                Ok::<_, redis::RedisError>(messages)
            };
            match tokio::time::timeout(ANSWER_WITHIN, again)
                .await
                .map_err(|_| LogError::Late)
                .and_then(|again| again.map_err(LogError::from))
            {
                Ok(again) => {
                    messages = again;
                    tracing::info!("live-play bus back: the rooms catch up");
                    rooms.hear_all();
                    rooms.away(false);
                    break;
                }
                Err(e) => tracing::warn!(error = %e, "cannot subscribe to the bus yet"),
            }
        }
    }
}

/// Tells `rooms` of a message from the bus, `US ROOM SEQ [STEP]`, and
/// counts it, with the time since Redis published it.
fn received(rooms: &dyn Hears, message: &[u8]) {
    metrics::counter!("tessera_bus_messages_total", "direction" => "received").increment(1);
    metrics::counter!("tessera_bus_bytes_total", "direction" => "received")
        .increment(message.len() as u64);
    let Ok(message) = std::str::from_utf8(message) else {
        tracing::warn!("a bus message that is not text");
        return;
    };
    let Some((published, notice)) = message
        .split_once(' ')
        .and_then(|(ms, notice)| Some((ms.parse::<i64>().ok()?, notice)))
    else {
        tracing::warn!(message, "a bus message without its time");
        return;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_micros() as i64);
    let lag = (now - published).max(0) as f64 / 1e6;
    metrics::histogram!("tessera_bus_lag_seconds").record(lag);
    tell(rooms, notice);
}

/// A stream entry as Redis gives it: its id (`SEQ-1`), and its fields and
/// values in turn.
type Entry = (String, Vec<String>);

/// A stream entry's number and step.
fn numbered(id: &str, fields: &[String]) -> Option<Numbered> {
    let seq = id.split('-').next()?.parse::<i64>().ok()?;
    let step = fields
        .chunks(2)
        .find(|pair| pair[0] == "step")
        .and_then(|pair| pair.get(1))?;
    Some((seq, step.clone()))
}

/// A bus's URL as logs and messages show it: without its password.
pub fn shown(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("redis", url));
    match rest.rsplit_once('@') {
        Some((credentials, host)) => {
            let user = credentials.split_once(':').map_or(credentials, |(u, _)| u);
            format!("{scheme}://{user}@{host}")
        }
        None => format!("{scheme}://{rest}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bus_is_shown_without_its_password() {
        assert_eq!(
            shown("redis://:s3cret@10.0.0.5:6379/2"),
            "redis://@10.0.0.5:6379/2"
        );
        assert_eq!(
            shown("rediss://ops:s3cret@bus.example:6380"),
            "rediss://ops@bus.example:6380"
        );
        assert_eq!(shown("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
    }

    #[test]
    fn stream_entries_read_as_numbered_steps() {
        let fields = ["at", "5", "step", "{\"at\":5}"].map(String::from);
        assert_eq!(numbered("12-1", &fields), Some((12, "{\"at\":5}".into())));
        assert_eq!(numbered("x-1", &fields), None);
        assert_eq!(numbered("3-1", &fields[..2]), None);
    }
}
