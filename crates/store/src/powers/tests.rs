//! Standings kept as results arrive equal what the tier tables, read
//! independently here, make of each account's bests.

use super::super::tests::{account, fresh, fresh_database, result, runtime};
use super::*;
use crate::{Database, IssuedGame};
use play::format::{Format, MarathonLength};
use serde_json::Value;

const TABLES: &str = include_str!("../../../play/data/power-tiers.json");

/// Open Slidysim's rule, over the JSON: each best's tier is the highest
/// whose time it reaches; the power is their sum; the player's tier the
/// highest whose limit the power reaches, but not above their best tier.
fn expected(json: &Value, bests: &[(&str, u64)]) -> (u64, String) {
    let names: Vec<&str> = json["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let tiers = json["power_tiers"].as_array().unwrap();
    let mut power = 0;
    let mut best_tier = 0;
    for &(category, time) in bests {
        let index = names.iter().position(|n| *n == category).unwrap();
        let tier = (0..tiers.len())
            .rev()
            .find(|&t| time <= tiers[t]["times_ms"][index].as_u64().unwrap())
            .unwrap_or(0);
        power += tiers[tier]["power"].as_u64().unwrap();
        best_tier = best_tier.max(tier);
    }
    let by_power = (0..tiers.len())
        .rev()
        .find(|&t| power >= tiers[t]["limit"].as_u64().unwrap())
        .unwrap();
    let tier = by_power.min(best_tier);
    (power, tiers[tier]["name"].as_str().unwrap().to_string())
}

/// A solved `size` × `size` board, dealt as a row-major puzzle: what the
/// powers count is the variant and the format, not the position.
fn slide_dealt(size: usize) -> crate::Dealt {
    let goal = slide::Goal::RowMajor
        .position(slide::Size::new(size, size).unwrap())
        .unwrap();
    crate::Dealt::Slide {
        start: goal.clone(),
        goal,
        chosen: "row-major".parse().unwrap(),
    }
}

fn dealt(id: &str, size: usize, format: Format, at: i64) -> IssuedGame {
    IssuedGame {
        id: id.into(),
        player_id: "browser".into(),
        variant: format!("{size}x{size}-row-major"),
        seed: 1,
        dealt: slide_dealt(size),
        format,
        issued_at: at,
    }
}

/// Finishes a ranked game of `millis` for `account`.
async fn solve(store: &Store, account: &str, game: IssuedGame, millis: i64) {
    store.issue_to(&game, Some(account)).await.unwrap();
    let mut done = result(10, millis);
    done.format = game.format;
    let finished = game.issued_at + millis;
    store
        .finish(&game, &done, Some(account), finished)
        .await
        .unwrap();
}

#[test]
fn standings_follow_bests_as_the_tables_rank_them() {
    runtime().block_on(async {
        let store = fresh().await;
        let json: Value = serde_json::from_str(TABLES).unwrap();
        let (ada, bo, cy) = (
            account(&store, "ada").await,
            account(&store, "bob").await,
            account(&store, "cyd").await,
        );
        let mut at = 1_000;
        let mut next = || {
            at += 100_000;
            at
        };
        // ada: a 5x5 single and five 4x4 singles (an average of 5).
        solve(&store, &ada, dealt("a1", 5, Format::Single, next()), 7_000).await;
        for (i, millis) in [4_200, 3_900, 4_000, 4_100, 3_800].into_iter().enumerate() {
            solve(
                &store,
                &ada,
                dealt(&format!("a4{i}"), 4, Format::Single, next()),
                millis,
            )
            .await;
        }
        // bo: a 3x3 marathon of 42, and a 6x6 relay.
        let x42 = Format::Marathon(MarathonLength::new(42).unwrap());
        solve(&store, &bo, dealt("b1", 3, x42, next()), 120_000).await;
        let relay: Format = "2-n-relay".parse().unwrap();
        solve(&store, &bo, dealt("b2", 6, relay, next()), 160_000).await;
        // cy: only a result outside the core categories (a 3x3 single).
        solve(&store, &cy, dealt("c1", 3, Format::Single, next()), 900).await;

        // The average of 5 drops the best and the worst: 4,000 ms.
        let ada_expected = expected(&json, &[("5x5 single", 7_000), ("4x4 ao5", 4_000)]);
        let bo_expected = expected(&json, &[("3x3 x42", 120_000), ("6x6 relay", 160_000)]);
        let rankings = store.rankings(0, 10).await.unwrap();
        let tiers = store.tiers().power_tiers();
        let shown: Vec<(String, u64, String)> = rankings
            .iter()
            .map(|r| (r.handle.clone(), r.power, tiers[r.tier].name.clone()))
            .collect();
        let mut wanted = vec![
            ("ada".to_string(), ada_expected.0, ada_expected.1.clone()),
            ("bob".to_string(), bo_expected.0, bo_expected.1.clone()),
        ];
        wanted.sort_by_key(|(_, power, tier)| {
            let t = tiers.iter().position(|x| &x.name == tier).unwrap();
            (std::cmp::Reverse(t), std::cmp::Reverse(*power))
        });
        assert_eq!(shown, wanted, "cy has no core result and is not ranked");
        assert_eq!(rankings[0].rank, 1);
        assert_eq!(rankings[1].rank, 2);
        let ada_row = store.ranking_of(&ada).await.unwrap().unwrap();
        assert_eq!(ada_row.power, ada_expected.0);
        let index = |name: &str| {
            store
                .tiers()
                .categories()
                .iter()
                .position(|c| c.to_string() == name)
                .unwrap()
        };
        assert_eq!(ada_row.bests[index("5x5 single")], Some(7_000));
        assert_eq!(ada_row.bests[index("4x4 ao5")], Some(4_000));
        assert_eq!(ada_row.bests.iter().flatten().count(), 2);
        assert!(store.ranking_of(&cy).await.unwrap().is_none());

        // A better 5x5 single raises ada's power as the tables say.
        solve(&store, &ada, dealt("a2", 5, Format::Single, next()), 3_500).await;
        let ada_better = expected(&json, &[("5x5 single", 3_500), ("4x4 ao5", 4_000)]);
        let ada_row = store.ranking_of(&ada).await.unwrap().unwrap();
        assert_eq!(
            (ada_row.power, tiers[ada_row.tier].name.clone()),
            ada_better
        );
        assert!(ada_better.0 > ada_expected.0);

        // A deleted account leaves the rankings.
        store.delete_account(&bo, 0).await.unwrap();
        let left: Vec<String> = store
            .rankings(0, 10)
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.handle)
            .collect();
        assert_eq!(left, ["ada"]);
    });
}

#[test]
fn new_tables_from_an_operator_rank_everyone_again() {
    runtime().block_on(async {
        let database: Database = fresh_database();
        let store = Store::open(&database, 4).await.unwrap();
        let ada = account(&store, "ada").await;
        solve(&store, &ada, dealt("a1", 5, Format::Single, 200_000), 7_000).await;
        let before = store.ranking_of(&ada).await.unwrap().unwrap();
        // The same tables with every tier's power doubled.
        let mut json: Value = serde_json::from_str(TABLES).unwrap();
        for tier in json["power_tiers"].as_array_mut().unwrap() {
            let power = tier["power"].as_u64().unwrap();
            tier["power"] = Value::from(power * 2);
        }
        let doubled = Tables::parse(&json.to_string()).unwrap();
        let store = store.with_tiers(doubled).await.unwrap();
        let after = store.ranking_of(&ada).await.unwrap().unwrap();
        assert_eq!(after.power, before.power * 2);
        // Opened again with the built-in tables: computed back.
        let store = Store::open(&database, 4).await.unwrap();
        let again = store.ranking_of(&ada).await.unwrap().unwrap();
        assert_eq!(again.power, before.power);
    });
}

#[test]
fn the_classic_tables_rank_a_known_player_as_they_say() {
    runtime().block_on(async {
        let json: Value =
            serde_json::from_str(include_str!("../../../play/data/power-tiers-gamma.json"))
                .unwrap();
        let store = fresh().await;
        let store = store
            .with_tiers(Tables::named("gamma").unwrap())
            .await
            .unwrap();
        let ada = account(&store, "ada").await;
        let mut at = 1_000;
        let mut next = || {
            at += 100_000;
            at
        };
        // A 4x4 single, five 3x3 singles (an average of 5), a 4x4 2-N
        // relay and a 3x3 marathon of 10: classic categories all, none of
        // them core in the current tables but the relay's size.
        solve(&store, &ada, dealt("a1", 4, Format::Single, next()), 2_400).await;
        for (i, millis) in [1_500, 900, 1_100, 1_000, 1_200].into_iter().enumerate() {
            let game = dealt(&format!("a3{i}"), 3, Format::Single, next());
            solve(&store, &ada, game, millis).await;
        }
        let relay: Format = "2-n-relay".parse().unwrap();
        solve(&store, &ada, dealt("a2", 4, relay, next()), 9_000).await;
        let x10 = Format::Marathon(MarathonLength::new(10).unwrap());
        solve(&store, &ada, dealt("a4", 3, x10, next()), 30_000).await;
        // The average of 5 drops 900 and 1,500: 1,100 ms.
        let wanted = expected(
            &json,
            &[
                ("4x4 single", 2_400),
                ("3x3 ao5", 1_100),
                ("4x4 relay", 9_000),
                ("3x3 x10", 30_000),
            ],
        );
        let row = store.ranking_of(&ada).await.unwrap().unwrap();
        let tiers = store.tiers().power_tiers();
        assert_eq!((row.power, tiers[row.tier].name.clone()), wanted);
        assert_eq!(row.bests.iter().flatten().count(), 4);
    });
}
