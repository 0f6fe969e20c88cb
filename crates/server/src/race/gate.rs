//! The checks every frame meets before it is read: its size, the rate
//! of frames, and how many malformed messages a client may send.

use std::time::{Duration, Instant};

use axum::extract::ws::{close_code, Message, Utf8Bytes};

use super::wire::error;

/// The largest frame a client may send: a move message is a few bytes, a
/// whole solution of a 10×10 a few kilobytes.
pub const FRAME_BYTES: usize = 64 * 1024;
/// What the WebSocket layer reads at most before giving up on a frame
/// without a word: between [`FRAME_BYTES`] and this, the client is told
/// and closed with 1009.
pub(super) const READ_BYTES: usize = 1024 * 1024;
/// How much the WebSocket layer reads from a socket at once. Its buffer is
/// zeroed before every read, so the layer's default (128 KiB) cost more
/// CPU than anything else a move does; a move message is tens of bytes,
/// and a longer message is read in several turns.
pub(super) const READ_AT_ONCE: usize = 4 * 1024;
/// Events a socket writes in one go at most, beyond the one it woke for:
/// enough to gather what queued up while it waited, few enough that a
/// busy room cannot keep one task writing for long.
pub(super) const WRITE_AT_ONCE: usize = 32;
/// Messages a client may send in one second: a fast player makes some
/// fifteen moves a second, and may send each on its own.
pub const MESSAGES_PER_SECOND: u32 = 50;
/// Malformed messages a client may send before it is closed: a few are a
/// buggy client that deserves to hear what is wrong, many are abuse.
const BAD_MESSAGES: u32 = 10;

/// What to do with a frame from the client.
pub(super) enum Verdict {
    /// A message to act on.
    Text(Utf8Bytes),
    /// A binary frame: not a message.
    Binary,
    /// Nothing to do (a ping or pong, answered by the WebSocket layer).
    Skip,
    /// Answer `error` with this message and close with this code.
    Close(u16, String),
    /// The client closed.
    Closed,
}

/// The checks every frame meets before it is read: its size and the rate
/// of frames.
pub(super) struct Gate {
    window: Instant,
    count: u32,
    bad: u32,
}

impl Gate {
    pub(super) fn new() -> Gate {
        Gate {
            window: Instant::now(),
            count: 0,
            bad: 0,
        }
    }

    pub(super) fn check(&mut self, message: Message) -> Verdict {
        if let Message::Close(_) = message {
            return Verdict::Closed;
        }
        if self.window.elapsed() >= Duration::from_secs(1) {
            self.window = Instant::now();
            self.count = 0;
        }
        self.count += 1;
        if self.count > MESSAGES_PER_SECOND {
            return Verdict::Close(
                close_code::POLICY,
                format!("too many messages: at most {MESSAGES_PER_SECOND} a second"),
            );
        }
        match message {
            Message::Text(text) if text.len() > FRAME_BYTES => Verdict::Close(
                close_code::SIZE,
                format!("message too large: at most {FRAME_BYTES} bytes"),
            ),
            Message::Text(text) => Verdict::Text(text),
            Message::Binary(_) => Verdict::Binary,
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => Verdict::Skip,
        }
    }

    /// Counts a malformed message: the client hears what is wrong, and is
    /// closed once there have been too many.
    pub(super) fn bad(&mut self, message: String) -> Reply {
        self.bad += 1;
        if self.bad > BAD_MESSAGES {
            return Reply::Close(
                close_code::POLICY,
                format!("too many malformed messages; the last: {message}"),
            );
        }
        Reply::Send(vec![error(message)])
    }
}

/// What a client's frame comes to for its own connection.
pub(super) enum Reply {
    /// Messages for the sender (an error, a welcome), maybe none.
    Send(Vec<Utf8Bytes>),
    /// The player left: the connection closes.
    Left,
    /// Answer `error` with this message and close with this code.
    Close(u16, String),
    /// The client closed the connection.
    Gone,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_closes_floods_and_oversized_frames() {
        let mut gate = Gate::new();
        for _ in 0..MESSAGES_PER_SECOND {
            assert!(matches!(
                gate.check(Message::Text("{}".into())),
                Verdict::Text(_)
            ));
        }
        assert!(matches!(
            gate.check(Message::Text("{}".into())),
            Verdict::Close(close_code::POLICY, _)
        ));
        let mut gate = Gate::new();
        let big = "x".repeat(FRAME_BYTES + 1);
        assert!(matches!(
            gate.check(Message::Text(big.into())),
            Verdict::Close(close_code::SIZE, _)
        ));
        for _ in 0..BAD_MESSAGES {
            assert!(matches!(gate.bad("bad".into()), Reply::Send(errors) if errors.len() == 1));
        }
        assert!(matches!(
            gate.bad("bad".into()),
            Reply::Close(close_code::POLICY, _)
        ));
    }
}
