use super::*;
use crate::rating::Outcome::{Left, Solved, Unfinished};

const MIN: i64 = 60_000;

#[test]
fn durations_outside_ten_to_sixty_minutes_are_refused() {
    assert_eq!(
        Arena::new(Pool::Slide3x3, 0, 9 * MIN).unwrap_err(),
        ArenaError::Duration(9 * MIN)
    );
    assert!(Arena::new(Pool::Slide3x3, 0, 61 * MIN).is_err());
    assert!(Arena::new(Pool::Slide3x3, 0, 10 * MIN).is_ok());
    let mut arena = Arena::new(Pool::Slide4x4, 0, 60 * MIN).unwrap();
    assert_eq!(arena.join("late", 60 * MIN), Err(ArenaError::Ended));
    assert!(arena.join("early", -5 * MIN).is_ok());
    // Nobody is paired before the start or after the end.
    assert!(arena.join("other", -MIN).is_ok());
    assert!(arena.pairings(-1, || "r".into()).is_empty());
    assert!(arena.pairings(60 * MIN, || "r".into()).is_empty());
    assert_eq!(arena.pairings(0, || "r".into()).len(), 1);
}

#[test]
fn a_win_scores_two_and_a_second_win_in_a_row_doubles_until_a_loss() {
    let mut s = Standing::default();
    let win = (WIN, true);
    let loss = (0, false);
    for (result, points) in [
        (win, 2),
        (win, 6),
        (win, 10),
        (loss, 10),
        (win, 12),
        ((DRAW, false), 13),
        (win, 15),
    ] {
        s.add(result);
        assert_eq!(s.points, points);
    }
    assert_eq!((s.races, s.wins), (7, 5));
    // A race of four: beating two and losing to one is 4 points, no win.
    let outcomes = [
        Solved { millis: 9_000 },
        Solved { millis: 8_000 },
        Unfinished,
        Left,
    ];
    assert_eq!(race_points(&outcomes, 0), (2 * WIN, false));
    assert_eq!(race_points(&outcomes, 1), (3 * WIN, true));
    // Two who did not finish draw with each other, and beat one who left.
    assert_eq!(
        race_points(&[Unfinished, Unfinished, Left], 0),
        (DRAW + WIN, false)
    );
}

#[test]
fn free_entrants_are_paired_nearest_in_the_standings_and_not_twice_running() {
    let mut arena = Arena::new(Pool::Slide3x3, 0, 10 * MIN).unwrap();
    for who in ["a", "b", "c", "d"] {
        arena.join(who, 0).unwrap();
    }
    let mut n = 0;
    let mut id = || {
        n += 1;
        format!("r{n}")
    };
    let first = arena.pairings(0, &mut id);
    assert_eq!(
        first,
        vec![
            ("r1".into(), vec!["a".into(), "b".into()]),
            ("r2".into(), vec!["c".into(), "d".into()])
        ]
    );
    assert_eq!(arena.presence("a"), Some(Presence::Racing));
    // Nobody is free: nothing to pair.
    assert!(arena.pairings(1, &mut id).is_empty());
    arena
        .record("r1", &[Solved { millis: 5_000 }, Unfinished], 10_000)
        .unwrap();
    // A race is recorded once.
    assert!(arena
        .record("r1", &[Unfinished, Unfinished], 10_000)
        .is_err());
    // a and b are free, but just raced each other: with nobody else free
    // they race again rather than wait.
    let again = arena.pairings(10_000, &mut id);
    assert_eq!(again[0].1, vec!["a".to_string(), "b".to_string()]);
    arena
        .record("r2", &[Unfinished, Solved { millis: 7_000 }], 12_000)
        .unwrap();
    arena
        .record("r3", &[Unfinished, Solved { millis: 6_000 }], 13_000)
        .unwrap();
    // Standings: a 2, b 2 (won r3), d 2, c 0. Everyone free; the nearest
    // in the standings are paired, avoiding last opponents.
    let next = arena.pairings(13_000, &mut id);
    for (_, racers) in &next {
        assert!(
            !(racers.contains(&"a".to_string()) && racers.contains(&"b".to_string())),
            "{next:?}"
        );
    }
    // One who leaves the page is paused, not removed, and not paired.
    let mut arena2 = Arena::new(Pool::Slide3x3, 0, 10 * MIN).unwrap();
    arena2.join("x", 0).unwrap();
    arena2.join("y", 0).unwrap();
    arena2.pause("y");
    assert!(arena2.pairings(0, || "r".into()).is_empty());
    assert_eq!(arena2.standings().len(), 2);
    arena2.join("y", 1).unwrap();
    assert_eq!(arena2.pairings(1, || "r".into()).len(), 1);
}

/// A separate reckoning of an arena's points from its races in the order
/// they were recorded: a win (a ranked solve faster than every other
/// racer's result) 2, or 4 when the racer's previous race was a win too;
/// a draw 1; a loss 0. Written without the arena's code.
fn reckon(races: &[(Vec<String>, Vec<Option<i64>>)]) -> BTreeMap<String, (u32, bool)> {
    let mut table: BTreeMap<String, (u32, bool)> = BTreeMap::new();
    for (racers, times) in races {
        assert_eq!(racers.len(), 2, "the scripted arena races pairs");
        for me in 0..2 {
            let (mine, theirs) = (times[me], times[1 - me]);
            let verdict = match (mine, theirs) {
                (Some(a), Some(b)) if a < b => 'w',
                (Some(a), Some(b)) if a == b => 'd',
                (Some(_), None) => 'w',
                (None, None) => 'd',
                _ => 'l',
            };
            let entry = table.entry(racers[me].clone()).or_default();
            match verdict {
                'w' => {
                    entry.0 += if entry.1 { 4 } else { 2 };
                    entry.1 = true;
                }
                'd' => {
                    entry.0 += 1;
                    entry.1 = false;
                }
                _ => entry.1 = false,
            }
        }
    }
    table
}

/// A race in the scripted arena: when it ends, its id, racers and times.
type InPlay = (i64, String, Vec<String>, Vec<Option<i64>>);

#[test]
fn a_scripted_arena_of_six_gives_the_standings_a_separate_reckoning_gives() {
    // Six entrants over the first two minutes of a ten-minute arena, time
    // passed in: each race lasts as long as its slower solve, and sometimes
    // a racer does not finish. `f` pauses for a while and comes back.
    let mut arena = Arena::new(Pool::Slide3x3, 0, 10 * MIN).unwrap();
    let names: Vec<String> = "abcdef".chars().map(String::from).collect();
    for who in &names {
        arena.join(who, 0).unwrap();
    }
    let mut state = 11u64;
    let mut rand = move |n: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    let mut count = 0;
    let mut in_play: Vec<InPlay> = Vec::new();
    let mut log = Vec::new();
    let mut now = 0;
    while now < 2 * MIN {
        if now == 30_000 {
            arena.pause("f");
        }
        if now == 70_000 {
            arena.join("f", now).unwrap();
        }
        for (id, racers) in arena.pairings(now, || {
            count += 1;
            format!("r{count}")
        }) {
            let times: Vec<Option<i64>> = racers
                .iter()
                .map(|_| (rand(6) != 0).then(|| 3_000 + rand(8) as i64 * 1_000))
                .collect();
            let ends = now + times.iter().map(|t| t.unwrap_or(12_000)).max().unwrap();
            in_play.push((ends, id, racers, times));
        }
        now += 1_000;
        let (done, still): (Vec<_>, Vec<_>) =
            in_play.into_iter().partition(|(ends, ..)| *ends <= now);
        in_play = still;
        for (_, id, racers, times) in done {
            let outcomes: Vec<Outcome> = times
                .iter()
                .map(|t| t.map_or(Unfinished, |millis| Solved { millis }))
                .collect();
            arena.record(&id, &outcomes, now).unwrap();
            log.push((racers, times));
        }
    }
    assert!(log.len() >= 20, "only {} races", log.len());
    let reckoned = reckon(&log);
    let standings = arena.standings();
    assert_eq!(standings.len(), 6);
    for (who, standing) in &standings {
        let expected = reckoned.get(who).map_or(0, |r| r.0);
        assert_eq!(standing.points, expected, "{who}");
    }
    // Best first, and a streak happened somewhere (the doubling was tested).
    assert!(standings.windows(2).all(|w| w[0].1.points >= w[1].1.points));
    assert!(standings.iter().any(|(_, s)| s.wins >= 3));
}

#[test]
fn an_arena_restored_from_its_settled_races_stands_as_the_one_that_played_them() {
    let mut live = Arena::new(Pool::Slide4x4, 0, 10 * MIN).unwrap();
    for who in ["a", "b", "c", "d"] {
        live.join(who, 0).unwrap();
    }
    let mut played = Vec::new();
    let results = [
        [Solved { millis: 4_000 }, Unfinished],
        [Unfinished, Solved { millis: 5_000 }],
    ];
    for round in 0..3 {
        let mut n = 0;
        for (id, racers) in live.pairings(round * 20_000, || {
            n += 1;
            format!("r{round}-{n}")
        }) {
            let outcomes = results[(round as usize + n) % 2].to_vec();
            live.record(&id, &outcomes, round * 20_000 + 10_000)
                .unwrap();
            played.push(Played { racers, outcomes });
        }
    }
    let entries: Vec<Entry> = ["a", "b", "c", "d"]
        .iter()
        .map(|who| Entry {
            who: who.to_string(),
            presence: Presence::Free,
            free_since: 0,
        })
        .collect();
    let restored = Arena::new(Pool::Slide4x4, 0, 10 * MIN)
        .unwrap()
        .restore(&entries, &played);
    let points = |arena: &Arena| -> Vec<(String, u32, u32)> {
        let mut all: Vec<_> = arena
            .standings()
            .into_iter()
            .map(|(w, s)| (w, s.points, s.streak))
            .collect();
        all.sort();
        all
    };
    assert_eq!(points(&restored), points(&live));
}
