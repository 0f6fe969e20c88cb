//! The rules of a room racing a sliding puzzle.

use slide::{Moves, ReplayError};

use super::*;
use crate::limits::SUBMITTED_MOVES;
use crate::race::game::solved_tiles;
use crate::race::{Deal, Solve, Standing};
use crate::slide_game::{Puzzle, Session, SlideSpec};

fn race() -> Race<SlideSpec> {
    let spec: SlideSpec = "3x3-row-major".parse().unwrap();
    Race::new(spec, 7, 0).unwrap()
}

/// The moves a racer has made, and their own time for each.
fn moves_of(race: &Race<SlideSpec>, seat: Seat) -> (Moves, &[i64]) {
    let moves = race.board_of(seat).map(Session::moves).unwrap_or_default();
    (moves, race.times_of(seat).unwrap())
}

fn name(text: &str) -> RacerName {
    text.parse().unwrap()
}

/// A room of `keys`, all joined at time 0.
fn room_of(keys: &[&str]) -> Race<SlideSpec> {
    let mut race = race();
    for key in keys {
        race.join(Entrant::guest(key, name(key)), 0).unwrap();
    }
    race
}

/// A room of `keys` whose race started at `COUNTDOWN_MS`.
fn racing(keys: &[&str]) -> Race<SlideSpec> {
    let mut race = room_of(keys);
    race.start(keys[0], 0).unwrap();
    let events = race.tick(COUNTDOWN_MS);
    assert!(events.iter().any(|e| matches!(e, Event::Start(_))));
    race
}

fn puzzle(race: &Race<SlideSpec>) -> &Puzzle {
    race.deal().expect("dealt")
}

fn solution(race: &Race<SlideSpec>) -> Moves {
    let puzzle = puzzle(race);
    slide::solve_fast(&puzzle.start, &puzzle.goal_position).unwrap()
}

/// The room's game dealt from `seed`: what a rematch is given.
fn dealt(race: &Race<SlideSpec>, seed: u64) -> Puzzle {
    race.game().deal(seed).unwrap()
}

fn slide(moves: &Moves) -> Moves {
    moves.clone()
}

/// A legal move from the start, and an illegal one.
fn legal_and_illegal(race: &Race<SlideSpec>) -> (Moves, Moves) {
    let start = &puzzle(race).start;
    let legal = start.legal_moves().next().unwrap();
    let illegal = slide::Direction::ALL
        .into_iter()
        .find(|d| !start.can_move(*d))
        .unwrap();
    (Moves(vec![legal]), Moves(vec![illegal]))
}

#[test]
fn two_to_eight_players_join_the_lobby_and_the_first_hosts() {
    let mut race = race();
    for (i, key) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().enumerate() {
        let (seat, events) = race.join(Entrant::guest(key, name(key)), 0).unwrap();
        assert_eq!(seat, i as Seat + 1);
        let Some(Event::Room(view)) = events.last() else {
            panic!("{events:?}")
        };
        assert_eq!(view.players.len(), i + 1);
    }
    assert_eq!(
        race.join(Entrant::guest("i", name("i")), 0),
        Err(RaceError::Full)
    );
    let view = race.view();
    assert_eq!(view.phase, Phase::Lobby);
    assert!(view.players[0].host);
    assert!(view.players[1..].iter().all(|p| !p.host));
    // Joining again is the same seat, not a new one.
    assert_eq!(race.join(Entrant::guest("c", name("Cy")), 0).unwrap().0, 3);
    assert_eq!(race.view().players[2].name, "Cy");
}

#[test]
fn spectators_watch_without_a_seat() {
    let mut race = room_of(&["a", "b"]);
    race.watch("w", 0).unwrap();
    assert_eq!(race.view().spectators, 1);
    assert_eq!(race.view().players.len(), 2);
    assert_eq!(race.ready("w", true, 0), Err(RaceError::NotAPlayer));
    race.leave("w", 0);
    assert_eq!(race.view().spectators, 0);
    for i in 0..MOST_SPECTATORS {
        race.watch(&format!("w{i}"), 0).unwrap();
    }
    assert_eq!(race.watch("one more", 0), Err(RaceError::TooManySpectators));
}

#[test]
fn when_all_are_ready_the_countdown_begins_and_then_the_race() {
    let mut race = room_of(&["a", "b"]);
    let events = race.ready("a", true, 100).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::Countdown { .. })));
    assert_eq!(race.phase(), Phase::Lobby);
    let events = race.ready("b", true, 200).unwrap();
    assert!(events.contains(&Event::Countdown { ms: COUNTDOWN_MS }));
    assert_eq!(
        race.phase(),
        Phase::Countdown {
            starts_at: 200 + COUNTDOWN_MS
        }
    );
    assert_eq!(race.next_deadline(), Some(200 + COUNTDOWN_MS));
    assert!(race.deal().is_none(), "the puzzle stays hidden");
    assert!(race.tick(200 + COUNTDOWN_MS - 1).is_empty());
    assert_eq!(
        race.join(Entrant::guest("late", name("late")), 1000),
        Err(RaceError::Begun)
    );
    let events = race.tick(200 + COUNTDOWN_MS);
    let dealt = events.iter().find_map(|e| match e {
        Event::Start(deal) => Some(deal),
        _ => None,
    });
    let spec: SlideSpec = "3x3-row-major".parse().unwrap();
    assert_eq!(dealt, Some(&Deal::Slide(spec.issue(7).unwrap())));
    assert_eq!(
        race.phase(),
        Phase::Racing {
            started_at: 200 + COUNTDOWN_MS
        }
    );
}

#[test]
fn one_ready_player_alone_does_not_start() {
    let mut race = room_of(&["a"]);
    race.ready("a", true, 0).unwrap();
    assert_eq!(race.phase(), Phase::Lobby);
    assert_eq!(race.start("a", 0), Err(RaceError::TooFewPlayers));
}

#[test]
fn only_the_host_starts_early() {
    let mut race = room_of(&["a", "b", "c"]);
    assert_eq!(race.start("b", 0), Err(RaceError::NotHost));
    assert_eq!(race.start("x", 0), Err(RaceError::NotAPlayer));
    race.start("a", 0).unwrap();
    assert!(matches!(race.phase(), Phase::Countdown { .. }));
    assert_eq!(race.start("a", 0), Err(RaceError::NotInLobby));
    assert_eq!(race.ready("b", true, 0), Err(RaceError::NotInLobby));
}

#[test]
fn the_host_leaving_the_lobby_passes_the_room_on() {
    let mut race = room_of(&["a", "b", "c"]);
    race.leave("a", 0);
    assert_eq!(race.view().players.len(), 2);
    assert_eq!(race.start("b", 0).map(|_| ()), Ok(()));
}

#[test]
fn a_countdown_left_with_one_player_stops() {
    let mut race = room_of(&["a", "b"]);
    race.start("a", 0).unwrap();
    race.leave("b", 1000);
    assert_eq!(race.phase(), Phase::Lobby);
    assert!(race.tick(COUNTDOWN_MS).is_empty());
}

#[test]
fn moves_before_the_start_are_refused() {
    let mut race = room_of(&["a", "b"]);
    let moves = Moves(vec![slide::Direction::Up]);
    assert_eq!(
        race.play("a", &slide(&moves), 0, 0),
        Err(RaceError::NotRacing)
    );
}

#[test]
fn a_legal_move_is_progress_for_everyone() {
    let mut race = racing(&["a", "b"]);
    let (legal, _) = legal_and_illegal(&race);
    let events = race
        .play("a", &slide(&legal), 40, COUNTDOWN_MS + 50)
        .unwrap();
    let Some(Event::Progress(progress)) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!((progress.seat, progress.moves, progress.t), (1, 1, 50));
    let mut session = Session::new(
        puzzle(&race).start.clone(),
        puzzle(&race).goal_position.clone(),
    );
    session.slide(legal.iter().next().unwrap()).unwrap();
    assert_eq!(
        progress.standing,
        Standing::Slide {
            solved_tiles: solved_tiles(&session)
        }
    );
    assert_eq!(moves_of(&race, 1).0, legal);
    assert_eq!(moves_of(&race, 1).1, &[40]);
    assert_eq!(moves_of(&race, 2).0, Moves::new());
}

#[test]
fn an_illegal_move_is_refused_and_nothing_of_its_turn_is_played() {
    let mut race = racing(&["a", "b"]);
    let (legal, illegal) = legal_and_illegal(&race);
    // The legal move first, then its own illegal one: the whole turn goes.
    let mut turn = legal.clone();
    turn.0.push(legal.0[0].inverse());
    turn.0.push(legal.0[0].inverse());
    let refused = race.play("a", &slide(&turn), 10, COUNTDOWN_MS + 10);
    assert!(matches!(refused, Err(RaceError::IllegalMove(e)) if e.index == 2));
    assert_eq!(
        race.play("a", &slide(&illegal), 10, COUNTDOWN_MS + 10),
        Err(RaceError::IllegalMove(ReplayError {
            index: 0,
            direction: illegal.0[0]
        }))
    );
    assert_eq!(
        race.play("a", &slide(&Moves::new()), 10, COUNTDOWN_MS + 10),
        Err(RaceError::NoMoves)
    );
    assert_eq!(moves_of(&race, 1).0, Moves::new());
    assert!(race.standings(COUNTDOWN_MS + 10)[0].moves == 0);
}

#[test]
fn times_go_forward_from_zero() {
    let mut race = racing(&["a", "b"]);
    let (legal, _) = legal_and_illegal(&race);
    let back = Moves(vec![legal.0[0].inverse()]);
    assert_eq!(
        race.play("a", &slide(&legal), -1, COUNTDOWN_MS),
        Err(RaceError::BadTime(-1))
    );
    race.play("a", &slide(&legal), 500, COUNTDOWN_MS).unwrap();
    assert_eq!(
        race.play("a", &slide(&back), 499, COUNTDOWN_MS),
        Err(RaceError::BadTime(499))
    );
    race.play("a", &slide(&back), 500, COUNTDOWN_MS).unwrap();
}

#[test]
fn a_race_holds_at_most_a_submissions_moves() {
    let mut race = racing(&["a", "b"]);
    let (legal, _) = legal_and_illegal(&race);
    let there_and_back = [legal.0[0], legal.0[0].inverse()];
    let many = Moves(there_and_back.repeat(SUBMITTED_MOVES / 2));
    race.play("a", &slide(&many), 0, COUNTDOWN_MS).unwrap();
    assert_eq!(
        race.play("a", &slide(&legal), 0, COUNTDOWN_MS),
        Err(RaceError::TooManyMoves)
    );
}

#[test]
fn solvers_finish_in_order_and_the_results_rank_them_by_time() {
    let mut race = racing(&["a", "b", "c"]);
    let solution = solution(&race);
    let (legal, _) = legal_and_illegal(&race);
    race.play("c", &slide(&legal), 0, COUNTDOWN_MS + 100)
        .unwrap();
    let events = race
        .play("b", &slide(&solution), 900, COUNTDOWN_MS + 1000)
        .unwrap();
    let finish = Finish {
        seat: 2,
        place: 1,
        millis: 1000,
        solve: Solve::Slide {
            stm: solution.len(),
            mtm: solution.mtm_len(),
        },
    };
    assert!(events.contains(&Event::Finish(finish.clone())));
    assert_eq!(
        race.play("b", &slide(&legal), 1000, COUNTDOWN_MS + 1100),
        Err(RaceError::AlreadyFinished)
    );
    assert!(race.results().is_none(), "two still race");
    // Moves past the goal in the solving turn are dropped.
    let mut past = solution.clone();
    past.0.extend(legal_and_illegal(&race).0 .0);
    let events = race
        .play("a", &slide(&past), 1900, COUNTDOWN_MS + 2000)
        .unwrap();
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Finish(f) if f.place == 2 && matches!(f.solve, Solve::Slide { stm, .. } if stm == solution.len()))));
    assert!(race.results().is_none());
    let events = race.leave("c", COUNTDOWN_MS + 3000);
    let results = events
        .iter()
        .find_map(|e| match e {
            Event::Results(results) => Some(results.clone()),
            _ => None,
        })
        .expect("the last racer leaving ends the race");
    assert_eq!(race.phase(), Phase::Finished);
    // c left; a and b finished and stayed.
    assert!(race.gone(3) && !race.gone(1) && !race.gone(2));
    assert_eq!(
        results.iter().map(|p| p.seat).collect::<Vec<_>>(),
        [2, 1, 3]
    );
    assert_eq!(results[0].finish, Some(finish));
    assert_eq!(results[1].finish.as_ref().unwrap().millis, 2000);
    assert!(results[2].finish.is_none());
    assert_eq!(results[2].progress.moves, 1);
    assert_eq!(race.results(), Some(results));
}

#[test]
fn unfinished_racers_rank_by_tiles_in_place() {
    let mut race = racing(&["a", "b", "c"]);
    let solution = solution(&race);
    // b stops one move short of the goal: nearly every tile in place.
    let short = Moves(solution.0[..solution.len() - 1].to_vec());
    race.play("b", &slide(&short), 0, COUNTDOWN_MS).unwrap();
    race.play("c", &slide(&solution), 0, COUNTDOWN_MS).unwrap();
    race.leave("a", COUNTDOWN_MS + 1);
    let events = race.leave("b", COUNTDOWN_MS + 2);
    let Some(Event::Results(results)) = events.iter().find(|e| matches!(e, Event::Results(_)))
    else {
        panic!("{events:?}")
    };
    let seats: Vec<Seat> = results.iter().map(|p| p.seat).collect();
    assert_eq!(seats, [3, 2, 1]);
    // One move short of the goal: every tile but the last one moved.
    let solved = |p: &Placing| match p.progress.standing {
        Standing::Slide { solved_tiles } => solved_tiles,
        Standing::Shisen { .. } => panic!("a sliding race"),
    };
    assert_eq!(solved(&results[1]), 7);
    assert!(solved(&results[2]) < 7);
}

#[test]
fn a_racer_away_keeps_place_and_moves_for_thirty_seconds() {
    let mut race = racing(&["a", "b"]);
    let (legal, _) = legal_and_illegal(&race);
    race.play("a", &slide(&legal), 0, COUNTDOWN_MS).unwrap();
    race.disconnect("a", COUNTDOWN_MS + 10);
    assert!(!race.view().players[0].connected);
    assert_eq!(race.next_deadline(), Some(COUNTDOWN_MS + 10 + RECONNECT_MS));
    race.tick(COUNTDOWN_MS + 10 + RECONNECT_MS - 1);
    let (seat, _) = race
        .join(
            Entrant::guest("a", name("a")),
            COUNTDOWN_MS + 10 + RECONNECT_MS - 1,
        )
        .unwrap();
    assert_eq!(seat, 1);
    assert!(race.view().players[0].connected);
    assert_eq!(moves_of(&race, 1).0, legal);
    // Back in the race: their next move plays on from where they were.
    let back = Moves(vec![legal.0[0].inverse()]);
    race.play("a", &slide(&back), 1, COUNTDOWN_MS + RECONNECT_MS)
        .unwrap();
    assert_eq!(moves_of(&race, 1).0.len(), 2);
}

#[test]
fn a_racer_away_too_long_is_out_and_may_end_the_race() {
    let mut race = racing(&["a", "b"]);
    let solution = solution(&race);
    race.play("b", &slide(&solution), 0, COUNTDOWN_MS).unwrap();
    race.disconnect("a", COUNTDOWN_MS);
    assert!(race.results().is_none());
    let events = race.tick(COUNTDOWN_MS + RECONNECT_MS);
    assert!(events.iter().any(|e| matches!(e, Event::Results(_))));
    assert!(race.view().players[0].done);
    assert_eq!(
        race.join(
            Entrant::guest("a", name("a")),
            COUNTDOWN_MS + RECONNECT_MS + 1
        )
        .map(|(seat, _)| seat),
        Ok(1),
        "still seated in the finished room"
    );
}

#[test]
fn a_player_away_too_long_loses_their_lobby_seat() {
    let mut race = room_of(&["a", "b"]);
    race.disconnect("b", 0);
    race.tick(RECONNECT_MS);
    assert_eq!(race.view().players.len(), 1);
    assert_eq!(race.next_deadline(), None);
    // Coming back later is joining anew.
    assert_eq!(
        race.join(Entrant::guest("b", name("b")), RECONNECT_MS)
            .unwrap()
            .0,
        3
    );
}

#[test]
fn a_rematch_deals_a_new_puzzle_in_the_same_room() {
    let mut race = racing(&["a", "b", "c"]);
    let first = puzzle(&race).clone();
    assert_eq!(
        race.rematch("a", dealt(&race, 8), COUNTDOWN_MS),
        Err(RaceError::NotOver)
    );
    let solution = solution(&race);
    race.play("a", &slide(&solution), 0, COUNTDOWN_MS).unwrap();
    race.play("b", &slide(&solution), 0, COUNTDOWN_MS).unwrap();
    race.leave("c", COUNTDOWN_MS);
    assert_eq!(race.phase(), Phase::Finished);
    assert_eq!(
        race.rematch("x", dealt(&race, 8), COUNTDOWN_MS),
        Err(RaceError::NotAPlayer)
    );
    race.rematch("b", dealt(&race, 8), 10_000).unwrap();
    assert_eq!(race.phase(), Phase::Lobby);
    let view = race.view();
    assert_eq!(view.players.len(), 2, "who dropped out is gone");
    assert!(view.players.iter().all(|p| !p.ready && !p.done));
    race.ready("a", true, 10_000).unwrap();
    race.ready("b", true, 10_000).unwrap();
    race.tick(10_000 + COUNTDOWN_MS);
    let second = puzzle(&race);
    assert_ne!(second.start, first.start);
    let spec: SlideSpec = "3x3-row-major".parse().unwrap();
    assert_eq!(second, &spec.issue(8).unwrap());
    assert_eq!(moves_of(&race, 1).0, Moves::new());
}

#[test]
fn a_room_nobody_is_in_expires() {
    let mut race = race();
    assert_eq!(race.expires_at(), Some(EMPTY_ROOM_MS));
    assert!(!race.expired(EMPTY_ROOM_MS - 1));
    assert!(race.expired(EMPTY_ROOM_MS), "opened and never joined");
    race.join(Entrant::guest("a", name("a")), 100).unwrap();
    assert!(!race.expired(100 + 10 * EMPTY_ROOM_MS));
    assert_eq!(race.expires_at(), None);
    race.disconnect("a", 1000);
    assert!(!race.expired(1000 + EMPTY_ROOM_MS - 1));
    assert!(race.expired(1000 + EMPTY_ROOM_MS));
}

#[test]
fn a_limited_race_ends_at_its_limit_with_the_others_unfinished() {
    let mut race = room_of(&["a", "b", "c"]).with_limit(60_000);
    race.start("a", 0).unwrap();
    race.tick(COUNTDOWN_MS);
    // The race's end is a deadline of its own.
    assert_eq!(race.next_deadline(), Some(COUNTDOWN_MS + 60_000));
    let solution = solution(&race);
    race.play("a", &slide(&solution), 5_000, COUNTDOWN_MS + 5_000)
        .unwrap();
    assert!(race.tick(COUNTDOWN_MS + 59_999).is_empty());
    assert_eq!(
        race.phase(),
        Phase::Racing {
            started_at: COUNTDOWN_MS
        }
    );
    let events = race.tick(COUNTDOWN_MS + 60_000);
    let Some(Event::Results(results)) = events.iter().find(|e| matches!(e, Event::Results(_)))
    else {
        panic!("{events:?}")
    };
    assert_eq!(race.phase(), Phase::Finished);
    assert_eq!(results[0].seat, 1);
    assert!(results[0].finish.is_some());
    // b and c ran out of time: unfinished, still in the room, not gone.
    assert!(results[1..].iter().all(|p| p.finish.is_none()));
    assert!(!race.gone(2) && !race.gone(3));
    assert_eq!(race.next_deadline(), None);
    // Without a limit a race waits for its racers.
    let mut open = racing(&["a", "b"]);
    assert!(open.tick(COUNTDOWN_MS + 3_600_000).is_empty());
    assert_eq!(open.next_deadline(), None);
}

#[test]
fn a_room_for_accounts_refuses_a_guest_a_seat() {
    let mut race = race().signed_in_only();
    assert_eq!(
        race.join(Entrant::guest("g", name("g")), 0).unwrap_err(),
        RaceError::SignedInOnly
    );
    assert!(race.view().players.is_empty());
    // The guest may watch; an account joins.
    race.watch("g", 0).unwrap();
    let (seat, _) = race
        .join(
            Entrant {
                account: Some("ada".into()),
                ..Entrant::guest("a", name("a"))
            },
            0,
        )
        .unwrap();
    assert_eq!(seat, 1);
    assert_eq!(race.view().players[0].account.as_deref(), Some("ada"));
}
