use super::score::games_of;
use super::*;

fn close(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

fn rating(rating: f64, rd: f64) -> Rating {
    Rating {
        rating,
        rd,
        volatility: 0.06,
    }
}

/// Glickman's worked example ("Example of the Glicko-2 system", 2013):
/// a player at 1500, RD 200, volatility 0.06, with τ = 0.5, beats a 1400
/// (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300).
#[test]
fn glickmans_worked_example() {
    let params = Params {
        tau: 0.5,
        ..Params::LICHESS
    };
    let games = [
        Game {
            opponent: rating(1400.0, 30.0),
            score: 1.0,
        },
        Game {
            opponent: rating(1550.0, 100.0),
            score: 0.0,
        },
        Game {
            opponent: rating(1700.0, 300.0),
            score: 0.0,
        },
    ];
    let after = rating(1500.0, 200.0).update(&games, &params);
    assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
    assert!(close(after.rd, 151.52, 0.01), "{after:?}");
    assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
}

#[test]
fn a_new_player_starts_at_lichess_values_and_is_provisional() {
    let params = Params::LICHESS;
    let new = Rating::new(&params);
    assert_eq!((new.rating, new.rd, new.volatility), (1500.0, 500.0, 0.09));
    assert!(new.provisional(&params));
    assert!(!rating(1500.0, 109.9).provisional(&params));
    assert!(rating(1500.0, 110.0).provisional(&params));
}

#[test]
fn a_period_without_games_widens_the_deviation_up_to_the_start() {
    let params = Params::LICHESS;
    let settled = rating(1800.0, 60.0);
    let idle = settled.update(&[], &params);
    assert_eq!(idle.rating, 1800.0);
    assert!(close(
        idle.rd,
        ((60.0f64 / 173.7178).powi(2) + 0.06f64.powi(2)).sqrt() * 173.7178,
        1e-9
    ));
    assert_eq!(Rating::new(&params).update(&[], &params).rd, 500.0);
}

#[test]
fn an_idle_rating_widens_with_the_days_away_as_periods_without_games() {
    let params = Params::LICHESS;
    let settled = Rating {
        rating: 1800.0,
        rd: 60.0,
        volatility: 0.06,
    };
    // No time away, or a clock behind the last race: unchanged.
    assert_eq!(settled.idle(0, &params), settled);
    assert_eq!(settled.idle(-5_000, &params), settled);
    // One rating period's worth of days is one period without games.
    let one_period = (86_400_000.0 / params.periods_per_day) as i64;
    let idle = settled.idle(one_period, &params);
    assert!(
        close(idle.rd, settled.update(&[], &params).rd, 1e-6),
        "{idle:?}"
    );
    assert_eq!((idle.rating, idle.volatility), (1800.0, 0.06));
    // Longer away is less sure, and about a year makes it provisional
    // again: √(60² + (0.06 · 173.7178)² · 365 · 0.21436) ≈ 110.
    let day = 86_400_000;
    let month = settled.idle(30 * day, &params);
    let year = settled.idle(365 * day, &params);
    assert!(
        settled.rd < month.rd && month.rd < year.rd,
        "{month:?} {year:?}"
    );
    assert!(!settled.idle(330 * day, &params).provisional(&params));
    assert!(settled.idle(400 * day, &params).provisional(&params));
    // A query's form of it gives the same deviation.
    let growth = Rating::idle_growth_per_milli(&params);
    let squared = 60.0f64.powi(2) + 0.06f64.powi(2) * growth * (30 * day) as f64;
    assert!(close(squared.sqrt(), month.rd, 1e-9));
    // Never wider than a newcomer's.
    assert_eq!(settled.idle(100_000 * day, &params).rd, 500.0);
}

#[test]
fn pools_print_and_parse_back_and_rate_only_their_spec() {
    for pool in Pool::ALL {
        assert_eq!(pool.name().parse::<Pool>(), Ok(pool));
        assert_eq!(pool.to_string(), pool.name());
        assert_eq!(Pool::of(&pool.spec()), Ok(pool));
    }
    assert_eq!(
        Pool::of(&"slide:3x3-row-major".parse().unwrap()),
        Ok(Pool::Slide3x3)
    );
    assert_eq!(
        Pool::of(&"shisen:18x8".parse().unwrap()),
        Ok(Pool::Shisen18x8)
    );
    for unrated in [
        "slide:6x6-row-major",
        "slide:4x4-snake",
        "slide:3x4-row-major",
        "shisen:18x8-gravity",
        "shisen:12x6",
        "shisen:18x8-any",
    ] {
        let error = Pool::of(&unrated.parse().unwrap()).unwrap_err();
        assert_eq!(error, PoolError::Unrated(unrated.to_string()));
        assert!(error.to_string().contains("slide:3x3-row-major"), "{error}");
    }
    // Every pool's rated race ends in time, a longer puzzle later.
    let limits: Vec<i64> = Pool::ALL.iter().map(|p| p.time_limit_ms()).collect();
    assert!(limits.windows(2).all(|w| w[0] < w[1]), "{limits:?}");
    assert_eq!(Pool::Slide3x3.time_limit_ms(), 180_000);
    let error = "slide-6x6".parse::<Pool>().unwrap_err();
    assert!(error.to_string().contains("slide-3x3"), "{error}");
}

fn scores(racers: &[(Rating, Outcome)], index: usize) -> Vec<f64> {
    games_of(racers, index).iter().map(|g| g.score).collect()
}

#[test]
fn each_pair_of_racers_is_one_game() {
    let r = Rating::new(&Params::LICHESS);
    let racers = [
        (r, Outcome::Solved { millis: 9_000 }),
        (r, Outcome::Solved { millis: 7_000 }),
        (r, Outcome::Unranked),
        (r, Outcome::Unfinished),
        (r, Outcome::Left),
        (r, Outcome::Solved { millis: 7_000 }),
    ];
    // The slower solver loses to both faster ones and beats the rest.
    assert_eq!(scores(&racers, 0), [0.0, 1.0, 1.0, 1.0, 0.0]);
    // Equal times draw.
    assert_eq!(scores(&racers, 1), [1.0, 1.0, 1.0, 1.0, 0.5]);
    // An unranked solve loses to every ranked solve, draws with a racer
    // who did not finish, and beats a leaver.
    assert_eq!(scores(&racers, 2), [0.0, 0.0, 0.5, 1.0, 0.0]);
    assert_eq!(scores(&racers, 3), [0.0, 0.0, 0.5, 1.0, 0.0]);
    // A leaver loses to everyone who stayed.
    assert_eq!(scores(&racers, 4), [0.0; 5]);
    let leavers = [(r, Outcome::Left), (r, Outcome::Left)];
    assert_eq!(scores(&leavers, 0), [0.5]);
    let stayers = [(r, Outcome::Unfinished), (r, Outcome::Unfinished)];
    assert_eq!(scores(&stayers, 1), [0.5]);
}

#[test]
fn scores_of_a_pair_add_up_to_one() {
    let outcomes = [
        Outcome::Solved { millis: 1 },
        Outcome::Solved { millis: 2 },
        Outcome::Unranked,
        Outcome::Unfinished,
        Outcome::Left,
    ];
    for a in outcomes {
        for b in outcomes {
            assert_eq!(a.score_against(b) + b.score_against(a), 1.0, "{a:?} {b:?}");
        }
    }
}

#[test]
fn ratings_are_updated_from_the_ratings_before_the_race() {
    let params = Params::LICHESS;
    let racers = [
        (rating(1600.0, 80.0), Outcome::Solved { millis: 5_000 }),
        (rating(1450.0, 200.0), Outcome::Unfinished),
        (Rating::new(&params), Outcome::Left),
    ];
    let after = settle(&racers, &params);
    for (index, new) in after.iter().enumerate() {
        assert_eq!(
            *new,
            racers[index].0.update(&games_of(&racers, index), &params)
        );
    }
    // Any order of the racers gives each the same new rating.
    let reversed: Vec<_> = racers.iter().rev().copied().collect();
    let after_reversed = settle(&reversed, &params);
    for (index, new) in after.iter().enumerate() {
        assert_eq!(*new, after_reversed[racers.len() - 1 - index]);
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn any_rating() -> impl Strategy<Value = Rating> {
        (600.0f64..2800.0, 45.0f64..500.0, 0.03f64..0.12).prop_map(|(rating, rd, volatility)| {
            Rating {
                rating,
                rd,
                volatility,
            }
        })
    }

    proptest! {
        #[test]
        fn the_winner_gains_and_the_loser_loses(a in any_rating(), b in any_rating(),
                                                 fast in 1i64..100_000, extra in 1i64..100_000) {
            let params = Params::LICHESS;
            let after = settle(&[(a, Outcome::Solved { millis: fast }),
                                 (b, Outcome::Solved { millis: fast + extra })], &params);
            prop_assert!(after[0].rating > a.rating);
            prop_assert!(after[1].rating < b.rating);
        }

        #[test]
        fn a_draw_between_equals_moves_neither(r in any_rating()) {
            let params = Params::LICHESS;
            let after = settle(&[(r, Outcome::Unfinished), (r, Outcome::Unfinished)], &params);
            prop_assert!(close(after[0].rating, r.rating, 1e-9));
            prop_assert_eq!(after[0], after[1]);
        }

        #[test]
        fn a_draw_moves_the_two_towards_each_other(a in any_rating(), b in any_rating()) {
            let params = Params::LICHESS;
            let after = settle(&[(a, Outcome::Unfinished), (b, Outcome::Unfinished)], &params);
            // The lower-rated gains, the higher-rated loses, and neither passes the other's old rating.
            let (low, high) = if a.rating <= b.rating { (0, 1) } else { (1, 0) };
            let before = [a, b];
            prop_assert!(after[low].rating >= before[low].rating - 1e-9);
            prop_assert!(after[high].rating <= before[high].rating + 1e-9);
        }

        #[test]
        fn a_leaver_loses_rating(a in any_rating(), b in any_rating()) {
            let params = Params::LICHESS;
            let after = settle(&[(a, Outcome::Left), (b, Outcome::Unfinished)], &params);
            prop_assert!(after[0].rating < a.rating);
            prop_assert!(after[1].rating > b.rating);
        }
    }
}
