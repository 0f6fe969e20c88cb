use super::*;
use crate::judge::Unranked;
use crate::slide_game::Solver;
use crate::Deadline;
use slide::{Direction, HeuristicKind, SolveOptions};
use std::sync::OnceLock;
use std::time::Duration;

/// One run, dealt once for the tests that read it.
fn run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| {
        deal(
            20_261_127,
            Solver::global(),
            &Deadline::after(Duration::from_secs(600)),
        )
        .unwrap()
    })
}

/// Times `gap` ms apart from `first`, one per move.
fn paced(moves: usize, first: i64, gap: i64) -> Vec<i64> {
    (0..moves as i64).map(|i| first + i * gap).collect()
}

/// The first `count` puzzles solved optimally, a move every `gap` ms,
/// each started `think` ms after the one before was solved.
fn solved(run: &Run, count: usize, think: i64, gap: i64) -> Vec<Played> {
    let mut at = 0;
    run.puzzles[..count]
        .iter()
        .map(|p| {
            let times = paced(p.solution.len(), at + think, gap);
            at = *times.last().unwrap();
            Played {
                moves: p.solution.clone(),
                times,
            }
        })
        .collect()
}

#[test]
fn optimal_lengths_never_decrease_and_are_the_optimal_solvers() {
    let run = run();
    assert_eq!(run.puzzles.len(), PUZZLES);
    let lengths: Vec<u32> = run.puzzles.iter().map(|p| p.optimal).collect();
    assert!(
        lengths.windows(2).all(|w| w[0] <= w[1]),
        "lengths {lengths:?}"
    );
    assert!(lengths[0] >= 4, "{lengths:?}");
    // A run gets harder: its last puzzle is well beyond its first.
    assert!(lengths[PUZZLES - 1] >= lengths[0] + 15, "{lengths:?}");
    for p in &run.puzzles {
        // The solution solves it, in the length claimed.
        let mut position = p.start.clone();
        position.apply_all(&p.solution).unwrap();
        assert_eq!(position, p.goal);
        assert_eq!(p.solution.len() as u32, p.optimal);
        // IDA* over Manhattan distance alone, another search than the
        // pattern databases the deal may use, proves the same length.
        let options = SolveOptions {
            heuristic: HeuristicKind::Manhattan,
            ..SolveOptions::default()
        };
        let check = slide::solver::solve_with_search(&p.start, &p.goal, &options).unwrap();
        assert!(check.optimal);
        assert_eq!(check.moves.len() as u32, p.optimal, "{}", p.start);
    }
}

/// What a player sees of a run: the positions and their optimal lengths
/// (two searches may find different shortest solutions).
fn shown(r: &Run) -> Vec<(String, u32)> {
    r.puzzles
        .iter()
        .map(|p| (p.start.to_string(), p.optimal))
        .collect()
}

#[test]
fn the_same_seed_deals_the_same_run_and_another_seed_another() {
    let started = std::time::Instant::now();
    let again = deal(20_261_127, Solver::global(), &Deadline::none()).unwrap();
    eprintln!(
        "dealt in {:?}: {:?}",
        started.elapsed(),
        again.puzzles.iter().map(|p| p.optimal).collect::<Vec<_>>()
    );
    assert_eq!(shown(&again), shown(run()));
    let other = deal(7, Solver::global(), &Deadline::none()).unwrap();
    assert_ne!(shown(&other), shown(run()));
}

#[test]
fn the_manhattan_distance_alone_labels_a_run_quickly() {
    // Before the pattern databases are ready a run is labelled with the
    // Manhattan distance alone: the same run, in the time it takes.
    let started = std::time::Instant::now();
    let plain = deal::deal_with(20_261_127, HeuristicKind::Manhattan, &Deadline::none()).unwrap();
    eprintln!("dealt by Manhattan distance in {:?}", started.elapsed());
    assert_eq!(shown(&plain), shown(run()));
    for seed in 0..10 {
        let started = std::time::Instant::now();
        deal::deal_with(seed, HeuristicKind::Manhattan, &Deadline::none()).unwrap();
        eprintln!("seed {seed}: {:?}", started.elapsed());
    }
}

#[test]
fn an_efficient_solve_adds_three_seconds_then_five_in_a_streak() {
    assert_eq!(efficient_within(7), 10);
    assert_eq!(bonus_millis(1), 3_000);
    assert_eq!(bonus_millis(3), 5_000);
    assert_eq!(bonus_millis(30), 5_000);
    assert!(efficient(15, 10));
    assert!(!efficient(16, 10));
    assert!(efficient(10, 7)); // 10.5 allowed
    assert!(!efficient(11, 7));
    let mut clock = RunClock::new();
    assert_eq!(clock.ends_at, 180_000);
    assert!(clock.solve(10_000, 10, 10)); // streak 1: +3 s
    assert!(clock.solve(20_000, 15, 10)); // streak 2: +3 s
    assert!(clock.solve(30_000, 12, 10)); // streak 3: +5 s
    assert!(clock.solve(40_000, 10, 10)); // streak 4: +5 s
    assert_eq!(clock.bonus_millis, 16_000);
    assert!(clock.solve(50_000, 16, 10)); // over 1.5x: nothing, streak over
    assert_eq!(clock.streak, 0);
    assert!(clock.solve(60_000, 10, 10)); // streak 1 again: +3 s
    assert_eq!(clock.bonus_millis, 19_000);
    assert_eq!(clock.ends_at, 199_000);
    // Solved at the last instant counts; after it, not, and no bonus.
    assert!(clock.solve(199_000, 30, 10));
    assert!(!clock.solve(199_001, 10, 10));
    assert_eq!(clock.ends_at, 199_000);
}

#[test]
fn a_run_scores_the_puzzles_solved_in_time_with_the_bonuses_its_rule_gives() {
    let run = run();
    // Two puzzles solved wastefully (twice the optimum: no bonus), the
    // rest optimally (a bonus each), a puzzle every 12 s: the reference
    // clock below decides how many fit.
    let mut played = Vec::new();
    let mut at = 0;
    for (i, p) in run.puzzles.iter().enumerate() {
        let mut moves = p.solution.clone();
        if i < 2 {
            // A move and back, as often as the optimum is long: twice
            // the optimum in all, over 1.5 times it.
            let first = moves.iter().next().unwrap();
            let back = [first, first.inverse()];
            let waste = std::iter::repeat_n(back, p.optimal.div_ceil(2) as usize).flatten();
            moves = waste.chain(p.solution.iter()).collect();
        }
        let times = paced(moves.len(), at + 12_000 - 100 * moves.len() as i64, 100);
        at = *times.last().unwrap();
        played.push(Played { moves, times });
        if at > 400_000 {
            break;
        }
    }
    // The reference: 180 s, +3 s for the first two optimal solves, +5 s
    // for each one after them; a solve counts if it is not later than the
    // end so far.
    let mut end = 180_000;
    let mut expected = 0;
    let mut streak = 0;
    for (i, game) in played.iter().enumerate() {
        let t = *game.times.last().unwrap();
        if t > end {
            break;
        }
        expected += 1;
        if i >= 2 {
            streak += 1;
            end += if streak >= 3 { 5_000 } else { 3_000 };
        }
    }
    let outcome = replay(run, &played, 10_000_000, true).unwrap();
    assert_eq!(outcome.score, expected);
    assert_eq!(outcome.clock.ends_at, end);
    assert!(expected > 14 && expected < played.len(), "{expected}");
    assert_eq!(outcome.judged, Ok(()));
}

#[test]
fn an_instant_run_is_unranked_and_a_paced_one_ranked_if_signed_in() {
    let run = run();
    // A script: every move of ten puzzles at the instant the run starts.
    let instant: Vec<Played> = run.puzzles[..10]
        .iter()
        .map(|p| Played {
            moves: p.solution.clone(),
            times: vec![0; p.solution.len()],
        })
        .collect();
    let outcome = replay(run, &instant, 1_000, true).unwrap();
    assert_eq!(outcome.score, 10);
    assert!(
        matches!(&outcome.judged, Err(Unranked::TooFast(why)) if why.starts_with("puzzle 1:")),
        "{:?}",
        outcome.judged
    );
    // Paced like a person (a second to read, 5 moves a second), it is
    // ranked when the server saw the time pass, and not when it did not.
    let paced = solved(run, 10, 1_000, 200);
    let end = *paced[9].times.last().unwrap();
    assert_eq!(replay(run, &paced, end + 500, true).unwrap().judged, Ok(()));
    assert_eq!(
        replay(run, &paced, end + 500, false).unwrap().judged,
        Err(Unranked::Guest)
    );
    assert!(matches!(
        replay(run, &paced, end / 2, true).unwrap().judged,
        Err(Unranked::TimesInconsistent(_))
    ));
}

#[test]
fn bad_submissions_are_refused_naming_the_puzzle_and_move() {
    let run = run();
    let mut played = solved(run, 3, 1_000, 200);
    // An illegal move in the second puzzle: along its solution to the
    // first position where some tile cannot slide, then that slide.
    let p = &run.puzzles[1];
    let mut position = p.start.clone();
    let mut moves: Vec<Direction> = Vec::new();
    let blocked = loop {
        if let Some(d) = Direction::ALL.into_iter().find(|&d| !position.can_move(d)) {
            break d;
        }
        let next = p.solution.iter().nth(moves.len()).unwrap();
        position.apply(next).unwrap();
        moves.push(next);
    };
    let index = moves.len() + 1;
    moves.push(blocked);
    let shown = *played[0].times.last().unwrap();
    let mut broken = played.clone();
    broken[1] = Played {
        times: paced(moves.len(), shown + 500, 200),
        moves: moves.into_iter().collect(),
    };
    assert_eq!(
        replay(run, &broken, 1_000_000, true),
        Err(Refusal::Illegal {
            puzzle: 2,
            index,
            text: blocked.letter().to_string()
        })
    );
    // An unsolved puzzle before the last.
    let mut unsolved = played.clone();
    unsolved[1].moves = unsolved[1].moves.iter().skip(1).collect();
    unsolved[1].times.pop();
    assert_eq!(
        replay(run, &unsolved, 1_000_000, true),
        Err(Refusal::Unsolved { puzzle: 2 })
    );
    // The last may be unsolved: it does not score.
    assert_eq!(
        replay(run, &unsolved[..2], 1_000_000, true).unwrap().score,
        1
    );
    // Times that go back, or start before the puzzle was shown.
    played[2].times.swap(0, 1);
    assert!(matches!(
        replay(run, &played, 1_000_000, true),
        Err(Refusal::Times { puzzle: 3, .. })
    ));
    played[2].times.swap(0, 1);
    played[2].times[0] = 0;
    assert!(matches!(
        replay(run, &played, 1_000_000, true),
        Err(Refusal::BeforeShown { puzzle: 3, .. })
    ));
}
