//! The frames: what a client sends ([`Incoming`]) and what the server
//! sends ([`Outgoing`]), as JSON with a `type`; the room's events and
//! state written as those messages.

use axum::extract::ws::Utf8Bytes;
use play::race::{
    AnyRace, Deal, Event, Finish, Phase, Placing, RaceSpec, RoomView, Seat, Solve, Standing,
};
use play::rating::Pool;
use serde::{Deserialize, Serialize};

use super::rooms::{Games, Replica};
use crate::shisen_api::TurnJson;

/// What a client sends.
#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum Incoming {
    /// A seat under `name`; a signed-in player may leave it out and race
    /// under their handle.
    Join {
        #[serde(default)]
        name: Option<String>,
    },
    Ready {
        #[serde(default = "yes")]
        ready: bool,
    },
    Start,
    Move {
        moves: String,
        t: i64,
    },
    /// A Shisen-Sho turn: `[x1, y1, x2, y2]` or `"shuffle"`.
    Turn {
        turn: TurnJson,
        t: i64,
    },
    Rematch,
    Leave,
}

fn yes() -> bool {
    true
}

/// What the server sends.
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum Outgoing {
    Room {
        state: &'static str,
        players: Vec<PlayerView>,
        spectators: usize,
        /// The rating pool of a rated room.
        #[serde(skip_serializing_if = "Option::is_none")]
        rated: Option<&'static str>,
        /// The puzzle the room deals, named before the start.
        deals: DealsView,
        /// A pairing seated the racers: the race starts on its own once
        /// they are all here, and nobody else joins.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        paired: bool,
    },
    /// To a connection as it opens: who it is signed in as, if anyone (a
    /// signed-in player joins under their handle).
    You {
        account: Option<String>,
    },
    Welcome {
        player: Seat,
        moves: String,
    },
    Countdown {
        ms: i64,
    },
    Start {
        puzzle: PuzzleView,
        elapsed: i64,
    },
    Progress {
        player: Seat,
        moves: usize,
        #[serde(flatten)]
        standing: StandingView,
        t: i64,
    },
    Finish {
        player: Seat,
        result: FinishView,
    },
    Results {
        results: Vec<PlacingView>,
    },
    /// The pairing's race is called off, unrated: these racers made no
    /// first move in time.
    Aborted {
        players: Vec<Seat>,
    },
    Error {
        message: String,
    },
}

/// The puzzle a room deals: its game, size and rules (not the seed).
#[derive(Serialize, Debug)]
#[serde(tag = "game", rename_all = "lowercase")]
pub(super) enum DealsView {
    Slide {
        size: String,
        goal: String,
    },
    Shisen {
        size: String,
        gravity: bool,
        chinese: bool,
    },
}

impl DealsView {
    fn of(game: &RaceSpec) -> DealsView {
        match game {
            RaceSpec::Slide(spec) => DealsView::Slide {
                size: spec.size.to_string(),
                goal: spec.goal.to_string(),
            },
            RaceSpec::Shisen(spec) => DealsView::Shisen {
                size: spec.size.to_string(),
                gravity: spec.gravity,
                chinese: spec.tiles == shisen::TileSet::Chinese,
            },
        }
    }
}

#[derive(Serialize, Debug)]
pub(super) struct PlayerView {
    player: Seat,
    name: String,
    account: Option<String>,
    ready: bool,
    host: bool,
    connected: bool,
    done: bool,
}

/// How far a racer is, as `progress` carries it.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub(super) enum StandingView {
    Slide {
        solved_tiles: usize,
        /// The racer's board now, for the others' live view of it.
        position: Option<String>,
    },
    Shisen {
        tiles_left: usize,
        score: u64,
        /// No pair connects: the racer may shuffle.
        stuck: bool,
        /// The racer's board now (after gravity and shuffles).
        board: Option<String>,
    },
}

#[derive(Serialize, Debug)]
#[serde(tag = "game", rename_all = "lowercase")]
pub(super) enum PuzzleView {
    Slide {
        seed: u64,
        size: String,
        position: String,
        goal: String,
        goal_position: String,
    },
    Shisen {
        seed: u64,
        size: String,
        /// One character per cell, rows split by newlines, `.` empty.
        board: String,
        gravity: bool,
        chinese: bool,
        /// The records table a clearing counts for.
        variant: String,
    },
}

#[derive(Serialize, Debug)]
pub(super) struct FinishView {
    place: usize,
    millis: i64,
    #[serde(flatten)]
    solve: SolveView,
    /// The stored game, for its replay at `/replay/{game}`.
    game: Option<String>,
}

/// What a solve took, as `finish` carries it; in `results`, a sliding
/// puzzle's moves (null for a racer who did not finish), while a
/// Shisen-Sho racer's score is their standing's.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub(super) enum SolveView {
    Slide {
        stm: Option<usize>,
        mtm: Option<usize>,
    },
    Shisen {
        score: u64,
    },
}

impl SolveView {
    fn of(solve: &Solve) -> SolveView {
        match *solve {
            Solve::Slide { stm, mtm } => SolveView::Slide {
                stm: Some(stm),
                mtm: Some(mtm),
            },
            Solve::Shisen { score, .. } => SolveView::Shisen { score },
        }
    }

    /// A results line's: a sliding puzzle's moves, or nothing more.
    fn placing(finish: Option<&Finish>, deal: Option<&Deal>) -> Option<SolveView> {
        match (finish, deal) {
            (_, Some(Deal::Shisen(_))) => None,
            (Some(finish), _) => Some(SolveView::of(&finish.solve)),
            (None, _) => Some(SolveView::Slide {
                stm: None,
                mtm: None,
            }),
        }
    }
}

#[derive(Serialize, Debug)]
pub(super) struct PlacingView {
    player: Seat,
    name: String,
    /// Null for a racer who did not finish.
    place: Option<usize>,
    millis: Option<i64>,
    #[serde(flatten)]
    solve: Option<SolveView>,
    moves: usize,
    #[serde(flatten)]
    standing: StandingView,
    /// A solver's stored game, for its replay at `/replay/{game}`.
    game: Option<String>,
}

impl Outgoing {
    /// The room as everyone sees it: who is in it, what it deals, and
    /// its pool if it is rated.
    fn room(view: &RoomView, race: &AnyRace, rated: Option<Pool>) -> Outgoing {
        Outgoing::Room {
            rated: rated.map(Pool::name),
            deals: DealsView::of(&race.game()),
            paired: race.paired(),
            state: view.phase.name(),
            players: view
                .players
                .iter()
                .map(|p| PlayerView {
                    player: p.seat,
                    name: p.name.clone(),
                    account: p.account.clone(),
                    ready: p.ready,
                    host: p.host,
                    connected: p.connected,
                    done: p.done,
                })
                .collect(),
            spectators: view.spectators,
        }
    }
}

/// The message of `event` in `race`, linked to its games.
fn outgoing(event: &Event, race: &AnyRace, games: &Games, rated: Option<Pool>) -> Outgoing {
    let seed = race.round_seed();
    match event {
        Event::Room(view) => Outgoing::room(view, race, rated),
        Event::Countdown { ms } => Outgoing::Countdown { ms: *ms },
        Event::Start(deal) => Outgoing::Start {
            puzzle: puzzle(deal),
            elapsed: 0,
        },
        Event::Progress(p) => Outgoing::Progress {
            player: p.seat,
            moves: p.moves,
            standing: standing(race, p.seat, &p.standing),
            t: p.t,
        },
        Event::Finish(f) => Outgoing::Finish {
            player: f.seat,
            result: FinishView {
                place: f.place,
                millis: f.millis,
                solve: SolveView::of(&f.solve),
                game: games.of(seed, f.seat).map(str::to_string),
            },
        },
        Event::Results(placings) => results(placings, race, games),
        Event::Aborted { seats } => Outgoing::Aborted {
            players: seats.clone(),
        },
    }
}

/// A racer's standing, with their board now for the others to draw.
fn standing(race: &AnyRace, seat: Seat, standing: &Standing) -> StandingView {
    match *standing {
        Standing::Slide { solved_tiles } => StandingView::Slide {
            solved_tiles,
            position: race.position_of(seat).map(ToString::to_string),
        },
        Standing::Shisen {
            tiles_left,
            score,
            stuck,
        } => StandingView::Shisen {
            tiles_left,
            score,
            stuck,
            board: race
                .shisen_of(seat)
                .map(|(session, _, _)| session.game().board().to_string()),
        },
    }
}

fn puzzle(deal: &Deal) -> PuzzleView {
    match deal {
        Deal::Slide(puzzle) => PuzzleView::Slide {
            seed: puzzle.seed,
            size: puzzle.start.size().to_string(),
            position: puzzle.start.to_string(),
            goal: puzzle.goal.to_string(),
            goal_position: puzzle.goal_position.to_string(),
        },
        Deal::Shisen(deal) => PuzzleView::Shisen {
            seed: deal.seed,
            size: deal.spec.size.to_string(),
            board: deal.board.to_string(),
            gravity: deal.spec.gravity,
            chinese: deal.spec.tiles == shisen::TileSet::Chinese,
            variant: deal.spec.variant(),
        },
    }
}

fn results(placings: &[Placing], race: &AnyRace, games: &Games) -> Outgoing {
    let seed = race.round_seed();
    let deal = race.deal();
    Outgoing::Results {
        results: placings
            .iter()
            .map(|p| PlacingView {
                player: p.seat,
                name: p.name.clone(),
                place: p.finish.as_ref().map(|f| f.place),
                millis: p.finish.as_ref().map(|f| f.millis),
                solve: SolveView::placing(p.finish.as_ref(), deal.as_ref()),
                moves: p.progress.moves,
                standing: standing(race, p.seat, &p.progress.standing),
                game: p
                    .finish
                    .as_ref()
                    .and_then(|_| games.of(seed, p.seat))
                    .map(str::to_string),
            })
            .collect(),
    }
}

/// The message an event of the room is sent as.
pub(super) fn encode_event(event: &Event, replica: &Replica) -> Utf8Bytes {
    encode(&outgoing(
        event,
        &replica.race,
        &replica.games,
        replica.rated,
    ))
}

pub(super) fn encode(message: &Outgoing) -> Utf8Bytes {
    serde_json::to_string(message)
        .expect("race messages serialize")
        .into()
}

pub(super) fn error(message: impl std::fmt::Display) -> Utf8Bytes {
    encode(&Outgoing::Error {
        message: message.to_string(),
    })
}

/// The room as it stands, for a connection that comes in or fell behind:
/// who is in it, the countdown or the puzzle, everyone's progress, and the
/// results once there are.
pub(super) fn snapshot(replica: &Replica, now: i64) -> Vec<Utf8Bytes> {
    let race = &replica.race;
    let mut messages = vec![encode(&Outgoing::room(&race.view(), race, replica.rated))];
    let elapsed = match race.phase() {
        Phase::Countdown { starts_at } => {
            messages.push(encode(&Outgoing::Countdown {
                ms: starts_at - now,
            }));
            None
        }
        Phase::Racing { started_at } => Some(now - started_at),
        Phase::Finished => Some(0),
        Phase::Lobby | Phase::Aborted => None,
    };
    if let (Some(elapsed), Some(deal)) = (elapsed, race.deal()) {
        messages.push(encode(&Outgoing::Start {
            puzzle: puzzle(&deal),
            elapsed,
        }));
    }
    let games = &replica.games;
    for progress in race.standings(now) {
        let event = Event::Progress(progress);
        messages.push(encode(&outgoing(&event, race, games, replica.rated)));
    }
    if let Some(placings) = race.results() {
        messages.push(encode(&results(&placings, race, games)));
    }
    messages
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Incoming, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn client_messages_parse_by_type_and_refuse_the_rest() {
        assert!(
            matches!(parse(r#"{"type":"join","name":"Ada"}"#), Ok(Incoming::Join { name: Some(name) }) if name == "Ada")
        );
        assert!(matches!(
            parse(r#"{"type":"join"}"#),
            Ok(Incoming::Join { name: None })
        ));
        assert!(matches!(
            parse(r#"{"type":"ready"}"#),
            Ok(Incoming::Ready { ready: true })
        ));
        assert!(matches!(
            parse(r#"{"type":"ready","ready":false}"#),
            Ok(Incoming::Ready { ready: false })
        ));
        assert!(matches!(
            parse(r#"{"type":"move","moves":"R3U","t":1200}"#),
            Ok(Incoming::Move { t: 1200, .. })
        ));
        assert!(matches!(parse(r#"{"type":"leave"}"#), Ok(Incoming::Leave)));
        assert!(matches!(
            parse(r#"{"type":"turn","turn":[0,1,3,1],"t":800}"#),
            Ok(Incoming::Turn {
                turn: TurnJson::Remove([0, 1, 3, 1]),
                t: 800
            })
        ));
        assert!(matches!(
            parse(r#"{"type":"turn","turn":"shuffle","t":900}"#),
            Ok(Incoming::Turn {
                turn: TurnJson::Word(_),
                ..
            })
        ));
        for bad in [
            r#"{"type":"dance"}"#,
            r#"{"name":"Ada"}"#,
            r#"{"type":"move","moves":"R","t":"soon"}"#,
            r#"{"type":"join","name":"Ada","extra":1}"#,
            r#"{"type":"turn","turn":[0,1,3],"t":1}"#,
            r#"{"type":"turn","turn":"jump","t":1}"#,
            r#"{"type":"turn","turn":[0,1,3,1]}"#,
            r#"[1,2]"#,
            "not json",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn server_messages_carry_their_type() {
        let text = encode(&Outgoing::Progress {
            player: 2,
            moves: 5,
            standing: StandingView::Slide {
                solved_tiles: 3,
                position: Some("1 2 3/4 0 6/7 5 8".into()),
            },
            t: 1500,
        });
        let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"type": "progress", "player": 2, "moves": 5, "solved_tiles": 3, "t": 1500,
                "position": "1 2 3/4 0 6/7 5 8"})
        );
        let text = encode(&Outgoing::Progress {
            player: 1,
            moves: 2,
            standing: StandingView::Shisen {
                tiles_left: 20,
                score: 96,
                stuck: false,
                board: Some("AB\nBA".into()),
            },
            t: 900,
        });
        let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"type": "progress", "player": 1, "moves": 2, "tiles_left": 20, "score": 96,
                "stuck": false, "board": "AB\nBA", "t": 900})
        );
    }
}
