//! The rules of a room racing a Shisen-Sho deal.

use shisen::{Nodes, Point, Verdict};

use super::*;
use crate::race::{RacerName, ShisenDeal, Solve, Standing};
use crate::shisen_game::{self, ShisenSpec, Turn as ShisenTurn};
use crate::Deadline;

fn name(text: &str) -> RacerName {
    text.parse().unwrap()
}

/// A racer's game now and the turns that made it, with their own time
/// for each.
fn shisen_of(
    race: &Race<ShisenSpec>,
    seat: Seat,
) -> Option<(&shisen_game::Session, &[ShisenTurn], &[i64])> {
    let board = race.board_of(seat)?;
    Some((board.session(), board.turns(), race.times_of(seat)?))
}

const SPEC: &str = "6x4-gravity";

fn spec() -> ShisenSpec {
    SPEC.parse().unwrap()
}

/// A room of `keys` racing a 6x4 Shisen-Sho deal with gravity,
/// started at `COUNTDOWN_MS`.
fn racing(keys: &[&str], seed: u64) -> Race<ShisenSpec> {
    let mut race = Race::new(spec(), seed, 0).unwrap();
    for key in keys {
        race.join(Entrant::guest(key, name(key)), 0).unwrap();
    }
    race.start(keys[0], 0).unwrap();
    race.tick(COUNTDOWN_MS);
    race
}

fn dealt(race: &Race<ShisenSpec>) -> &ShisenDeal {
    race.deal().expect("dealt")
}

/// The solver's clearing sequence of the deal, as turns.
fn clearing(race: &Race<ShisenSpec>) -> Vec<ShisenTurn> {
    let deal = dealt(race);
    let verdict = shisen::solve(&deal.board, deal.spec.rules(), &mut Nodes(u64::MAX)).verdict;
    let Verdict::Solvable(moves) = verdict else {
        panic!("a solvable deal: {verdict:?}")
    };
    moves.iter().map(|m| ShisenTurn::Remove(m.a, m.b)).collect()
}

fn turn(turn: ShisenTurn) -> ShisenTurn {
    turn
}

fn standing(events: &[Event]) -> Standing {
    events
        .iter()
        .find_map(|e| match e {
            Event::Progress(p) => Some(p.standing.clone()),
            _ => None,
        })
        .expect("a progress")
}

#[test]
fn every_racer_gets_the_seeds_deal() {
    let race = racing(&["a", "b"], 5);
    let deal = dealt(&race);
    assert_eq!(deal.seed, 5);
    assert_eq!(deal.board, spec().deal(5, &mut Deadline::none()).unwrap());
    let (one, _, _) = shisen_of(&race, 1).unwrap();
    let (two, _, _) = shisen_of(&race, 2).unwrap();
    assert_eq!(one.game().board(), &deal.board);
    assert_eq!(two.game().board(), &deal.board);
    assert_eq!(one.game().rules(), spec().rules());
}

#[test]
fn a_pair_is_progress_and_a_wrong_one_is_refused() {
    let mut race = racing(&["a", "b"], 5);
    let first = clearing(&race)[0];
    let board = dealt(&race).board.clone();
    let tiles = board.tiles_left();
    // Two tiles that do not match: refused, nothing played.
    let (p, kind) = board.tiles().next().unwrap();
    let (q, _) = board.tiles().find(|(_, k)| *k != kind).unwrap();
    let refused = race.play("a", &turn(ShisenTurn::Remove(p, q)), 10, COUNTDOWN_MS + 10);
    assert!(
        matches!(&refused, Err(RaceError::IllegalTurn(why)) if why.contains("do not match")),
        "{refused:?}"
    );
    let off = ShisenTurn::Remove(Point::new(40, 40), p);
    assert!(matches!(
        race.play("a", &turn(off), 10, COUNTDOWN_MS + 10),
        Err(RaceError::IllegalTurn(_))
    ));
    assert!(matches!(
        race.play("a", &turn(ShisenTurn::Undo), 10, COUNTDOWN_MS + 10),
        Err(RaceError::IllegalTurn(_))
    ));
    assert_eq!(shisen_of(&race, 1).unwrap().1, &[] as &[ShisenTurn]);
    // A pair that connects: everyone hears tiles left and score.
    let events = race
        .play("a", &turn(first), 900, COUNTDOWN_MS + 1000)
        .unwrap();
    let Some(Event::Progress(progress)) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!((progress.seat, progress.moves, progress.t), (1, 1, 1000));
    let mut by_hand = shisen_game::Session::new(board, spec().rules(), 5);
    let ShisenTurn::Remove(a, b) = first else {
        unreachable!()
    };
    by_hand.remove(a, b).unwrap();
    assert_eq!(
        progress.standing,
        Standing::Shisen {
            tiles_left: tiles - 2,
            score: by_hand.game().score(1),
            stuck: by_hand.game().is_stuck(),
        }
    );
    assert!(by_hand.game().score(1) > 0);
    let (session, turns, times) = shisen_of(&race, 1).unwrap();
    assert_eq!(session.game().board(), by_hand.game().board());
    assert_eq!((turns, times), (&[first][..], &[900][..]));
}

#[test]
fn a_shuffle_is_the_decks_and_the_steps() {
    let mut race = racing(&["a", "b"], 5);
    let first = clearing(&race)[0];
    race.play("a", &turn(first), 0, COUNTDOWN_MS).unwrap();
    race.play("a", &turn(ShisenTurn::Shuffle), 0, COUNTDOWN_MS)
        .unwrap();
    let by_hand = shisen_game::Session::new(dealt(&race).board.clone(), spec().rules(), 5)
        .replay(&[first, ShisenTurn::Shuffle])
        .unwrap()
        .session;
    let (session, _, _) = shisen_of(&race, 1).unwrap();
    assert_eq!(session.game().board(), by_hand.game().board());
    assert_eq!(session.game().stats().shuffles, 1);
}

#[test]
fn clearing_the_board_finishes_and_results_rank_by_time_then_tiles_left() {
    let mut race = racing(&["a", "b", "c"], 5);
    let clearing = clearing(&race);
    // c removes one pair; b clears the board, then a.
    race.play("c", &turn(clearing[0]), 0, COUNTDOWN_MS + 100)
        .unwrap();
    let mut last = Vec::new();
    for (i, pair) in clearing.iter().enumerate() {
        last = race
            .play("b", &turn(*pair), i as i64, COUNTDOWN_MS + 2000)
            .unwrap();
    }
    let finish = last
        .iter()
        .find_map(|e| match e {
            Event::Finish(f) => Some(f.clone()),
            _ => None,
        })
        .expect("the last pair clears the board");
    assert_eq!((finish.seat, finish.place, finish.millis), (2, 1, 2000));
    let Solve::Shisen { removals, score } = finish.solve else {
        panic!("{finish:?}")
    };
    assert_eq!(removals, clearing.len());
    let mut replayed = shisen_game::Session::new(dealt(&race).board.clone(), spec().rules(), 5);
    replayed = replayed.replay(&clearing).unwrap().session;
    assert!(replayed.game().is_won());
    assert_eq!(score, replayed.game().score(2));
    assert_eq!(
        race.play("b", &turn(clearing[0]), 5000, COUNTDOWN_MS + 2100),
        Err(RaceError::AlreadyFinished)
    );
    for pair in &clearing {
        race.play("a", &turn(*pair), 3000, COUNTDOWN_MS + 3000)
            .unwrap();
    }
    assert!(race.results().is_none(), "c still races");
    let events = race.leave("c", COUNTDOWN_MS + 4000);
    let Some(Event::Results(results)) = events.iter().find(|e| matches!(e, Event::Results(_)))
    else {
        panic!("{events:?}")
    };
    let seats: Vec<Seat> = results.iter().map(|p| p.seat).collect();
    assert_eq!(seats, [2, 1, 3]);
    assert_eq!(results[1].finish.as_ref().unwrap().place, 2);
    assert!(results[2].finish.is_none());
    let tiles = dealt(&race).board.tiles_left();
    assert!(matches!(
        results[2].progress.standing,
        Standing::Shisen { tiles_left, .. } if tiles_left == tiles - 2
    ));
}

#[test]
fn unfinished_racers_rank_by_tiles_left_then_score() {
    let mut race = racing(&["a", "b", "c"], 5);
    let clearing = clearing(&race);
    // a removes two pairs, b and c one each, b later (a lower
    // score: the pace counts).
    race.play("a", &turn(clearing[0]), 0, COUNTDOWN_MS).unwrap();
    race.play("a", &turn(clearing[1]), 0, COUNTDOWN_MS).unwrap();
    race.play("c", &turn(clearing[0]), 0, COUNTDOWN_MS + 1000)
        .unwrap();
    race.play("b", &turn(clearing[0]), 0, COUNTDOWN_MS + 60_000)
        .unwrap();
    race.leave("a", COUNTDOWN_MS + 70_000);
    race.leave("b", COUNTDOWN_MS + 70_000);
    let events = race.leave("c", COUNTDOWN_MS + 70_000);
    let Some(Event::Results(results)) = events.iter().find(|e| matches!(e, Event::Results(_)))
    else {
        panic!("{events:?}")
    };
    let scores: Vec<(Seat, usize, u64)> = results
        .iter()
        .map(|p| match p.progress.standing {
            Standing::Shisen {
                tiles_left, score, ..
            } => (p.seat, tiles_left, score),
            Standing::Slide { .. } => panic!("a Shisen-Sho race"),
        })
        .collect();
    assert_eq!(scores.iter().map(|s| s.0).collect::<Vec<_>>(), [1, 3, 2]);
    assert!(scores[0].1 < scores[1].1);
    assert_eq!(scores[1].1, scores[2].1);
    assert!(scores[1].2 > scores[2].2, "{scores:?}");
}

/// A racer with no pair left who can still shuffle plays on; the
/// stuck flag tells them so.
#[test]
fn a_stuck_racer_shuffles_and_plays_on() {
    // Greedy play (the first pair each time) gets stuck on some deal.
    let (mut race, seed) = (0..200)
        .map(|seed| (racing(&["a", "b"], seed), seed))
        .find(|(race, _)| {
            let mut session = shisen_of(race, 1).unwrap().0.clone();
            while let Some(m) = session.game().board().moves().first().copied() {
                session.remove(m.a, m.b).unwrap();
            }
            session.game().is_stuck()
        })
        .expect("a deal greedy play gets stuck on");
    let mut last = Vec::new();
    loop {
        let session = shisen_of(&race, 1).unwrap().0;
        let Some(m) = session.game().board().moves().first().copied() else {
            break;
        };
        last = race
            .play("a", &turn(ShisenTurn::Remove(m.a, m.b)), 0, COUNTDOWN_MS)
            .unwrap();
    }
    assert!(
        matches!(standing(&last), Standing::Shisen { stuck: true, .. }),
        "seed {seed}: {last:?}"
    );
    assert!(!race.view().players[0].done, "a shuffle may still help");
    let board = race.board_of(1).expect("a Shisen-Sho board");
    assert!(!board.stuck_for_good());
    let events = race
        .play("a", &turn(ShisenTurn::Shuffle), 0, COUNTDOWN_MS)
        .unwrap();
    assert!(matches!(
        standing(&events),
        Standing::Shisen { stuck: false, .. }
    ));
}

#[test]
fn the_same_turns_give_the_same_race() {
    let play = || {
        let mut race = racing(&["a", "b"], 9);
        let clearing = clearing(&race);
        let mut events = Vec::new();
        for (i, pair) in clearing.iter().take(3).enumerate() {
            events.extend(
                race.play("a", &turn(*pair), 0, COUNTDOWN_MS + i as i64)
                    .unwrap(),
            );
        }
        events.extend(
            race.play("b", &turn(ShisenTurn::Shuffle), 0, COUNTDOWN_MS + 9)
                .unwrap(),
        );
        // Legal or not after b's shuffle, the same on every replay.
        let after = race.play("b", &turn(clearing[0]), 0, COUNTDOWN_MS + 9);
        (
            events,
            after,
            shisen_of(&race, 2).unwrap().0.game().board().clone(),
        )
    };
    assert_eq!(play(), play());
}
