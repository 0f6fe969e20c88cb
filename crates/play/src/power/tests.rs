use super::*;
use crate::format::Format;

/// Open Slidysim's 30 core categories, as its leaderboard names them.
const CORE: [&str; 30] = [
    "3x3 ao12",
    "3x3 ao50",
    "3x3 ao100",
    "3x3 x42",
    "4x4 ao5",
    "4x4 ao12",
    "4x4 ao50",
    "4x4 ao100",
    "4x4 x10",
    "5x5 single",
    "5x5 ao5",
    "5x5 ao12",
    "5x5 ao50",
    "6x6 single",
    "6x6 ao5",
    "6x6 ao12",
    "6x6 relay",
    "7x7 single",
    "7x7 ao5",
    "7x7 ao12",
    "7x7 relay",
    "8x8 single",
    "8x8 ao5",
    "9x9 single",
    "9x9 ao5",
    "10x10 single",
    "10x10 ao5",
    "12x12 single",
    "16x16 single",
    "20x20 single",
];

#[test]
fn the_built_in_tables_name_the_thirty_core_categories() {
    let tables = Tables::built_in();
    let names: Vec<String> = tables
        .categories()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(names, CORE);
    assert!(tables.source().contains("slidysim"));
    let names: Vec<&str> = tables
        .power_tiers()
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(names.first(), Some(&"Unranked"));
    assert_eq!(names.get(1), Some(&"Beginner"));
    assert_eq!(names.last(), Some(&"Ascended"));
}

#[test]
fn core_categories_are_recorded_where_tessera_keeps_them() {
    let cases = [
        ("3x3 x42", "3x3-row-major", "marathon-42", None),
        ("4x4 ao12", "4x4-row-major", "single", Some(12)),
        ("6x6 relay", "6x6-row-major", "2-n-relay", None),
        ("20x20 single", "20x20-row-major", "single", None),
    ];
    for (name, variant, format, average) in cases {
        let category: CoreCategory = name.parse().unwrap();
        assert_eq!(category.variant(), variant, "{name}");
        assert_eq!(category.format().to_string(), format, "{name}");
        assert_eq!(category.average(), average, "{name}");
        assert_eq!(category.to_string(), name);
    }
    assert_eq!(
        "4x4 single".parse::<CoreCategory>().unwrap().format(),
        Format::Single
    );
    for bad in [
        "4x4",
        "4x4 ao7",
        "4x4 x1",
        "4x4 x1001",
        "2x2 relay",
        "4x4 mean",
        "four single",
    ] {
        assert!(bad.parse::<CoreCategory>().is_err(), "{bad}");
    }
}

/// Open Slidysim's rule written out as its own leaderboard script runs
/// it, over the JSON itself rather than the parsed tables: the tier of a
/// time is the first, from the top, whose time it reaches; a player's
/// tier is the first, from the top, whose limit their power reaches, then
/// lowered one at a time until some result of theirs is in it or above.
fn reference(json: &serde_json::Value, bests: &[Option<u64>]) -> (u64, usize, Vec<Option<usize>>) {
    let tiers = json["power_tiers"].as_array().unwrap();
    let score_tier = |index: usize, time: u64| {
        for t in (0..tiers.len()).rev() {
            if time <= tiers[t]["times_ms"][index].as_u64().unwrap() {
                return t;
            }
        }
        0
    };
    let mut power = 0;
    let mut seen = Vec::new();
    for (index, best) in bests.iter().enumerate() {
        let tier = best.map(|time| score_tier(index, time));
        if let Some(t) = tier {
            power += tiers[t]["power"].as_u64().unwrap();
        }
        seen.push(tier);
    }
    let mut supposed = 0;
    for t in (0..tiers.len()).rev() {
        if power >= tiers[t]["limit"].as_u64().unwrap() {
            supposed = t;
            break;
        }
    }
    let mut tier = supposed as isize;
    while tier >= 0 {
        let has = seen.iter().any(|s| s.unwrap_or(0) as isize >= tier);
        if has {
            break;
        }
        tier -= 1;
    }
    (power, tier.max(0) as usize, seen)
}

/// Open Slidysim's classic core categories, as its leaderboard names them.
const CLASSIC: [&str; 30] = [
    "3x3 ao5",
    "3x3 ao12",
    "3x3 ao50",
    "3x3 ao100",
    "3x3 x10",
    "3x3 x42",
    "4x4 single",
    "4x4 ao5",
    "4x4 ao12",
    "4x4 ao50",
    "4x4 ao100",
    "4x4 x10",
    "4x4 x42",
    "4x4 relay",
    "5x5 single",
    "5x5 ao5",
    "5x5 ao12",
    "5x5 ao50",
    "5x5 relay",
    "6x6 single",
    "6x6 ao5",
    "6x6 ao12",
    "6x6 relay",
    "7x7 single",
    "7x7 ao5",
    "7x7 relay",
    "8x8 single",
    "8x8 ao5",
    "9x9 single",
    "10x10 single",
];

#[test]
fn the_classic_tables_run_from_beginner_to_gamma_over_the_classic_categories() {
    let tables = Tables::named("gamma").unwrap();
    let names: Vec<String> = tables
        .categories()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(names, CLASSIC);
    assert!(tables.source().contains("slidysim") && tables.source().contains("tiersOld"));
    let names: Vec<&str> = tables
        .power_tiers()
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "Unranked",
            "Beginner",
            "Bronze",
            "Silver",
            "Gold",
            "Platinum",
            "Diamond",
            "Master",
            "Grandmaster",
            "Nova",
            "Ascended",
            "Aleph",
            "Gamma"
        ]
    );
    // The relays are the 2-N relays from 4x4, 5x5, 6x6 and 7x7.
    let relay: CoreCategory = "4x4 relay".parse().unwrap();
    assert_eq!(relay.format().to_string(), "2-n-relay");
    // The default is the current one; no other name is built in.
    assert_eq!(
        Tables::named("current").unwrap().digest(),
        Tables::built_in().digest()
    );
    assert!(Tables::named("Gamma").is_none() && Tables::named("").is_none());
}

#[test]
fn a_worked_player_under_the_classic_tables() {
    let tables = Tables::named("gamma").unwrap();
    let name = |t: usize| tables.power_tiers()[t].name.clone();
    let mut bests = vec![None; 30];
    // 4x4 single in 2.5 s: exactly Master's 2500 ms, not Grandmaster's
    // 2200: 400.
    bests[6] = Some(2_500);
    // 3x3 ao5 in 1.0 s: exactly Diamond's 1000 ms, not Master's 900: 150.
    bests[0] = Some(1_000);
    let standing = tables.standing(&bests);
    assert_eq!(standing.by_category[6].map(name).as_deref(), Some("Master"));
    assert_eq!(
        standing.by_category[0].map(name).as_deref(),
        Some("Diamond")
    );
    assert_eq!(standing.power, 400 + 150);
    // 550 reaches Platinum's limit (500), not Diamond's (900).
    assert_eq!(name(standing.tier), "Platinum");
    // Gamma's time in every category: 30 × 10101 = 303030, past Gamma's
    // limit of 256000.
    let gamma = tables.power_tiers().len() - 1;
    let all: Vec<Option<u64>> = (0..30)
        .map(|c| Some(tables.power_tiers()[gamma].time_ms(c)))
        .collect();
    let standing = tables.standing(&all);
    assert_eq!(
        (standing.power, name(standing.tier)),
        (303_030, "Gamma".into())
    );
}

#[test]
fn power_and_tier_agree_with_the_tables_read_independently() {
    for text in [
        include_str!("../../data/power-tiers.json"),
        include_str!("../../data/power-tiers-gamma.json"),
    ] {
        agree_with_the_tables_read_independently(text);
    }
}

fn agree_with_the_tables_read_independently(text: &str) {
    let json: serde_json::Value = serde_json::from_str(text).unwrap();
    let tables = Tables::parse(text).unwrap();
    let count = json["power_tiers"].as_array().unwrap().len() as u64;
    // A deterministic spread of players: some categories missing, times
    // from world class to slow, and exactly on a tier's time.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for player in 0..500 {
        let bests: Vec<Option<u64>> = (0..30)
            .map(|index| match next() % 5 {
                0 => None,
                1 => {
                    let t = (next() % count) as usize;
                    Some(json["power_tiers"][t]["times_ms"][index].as_u64().unwrap())
                }
                _ => {
                    let beginner = json["power_tiers"][1]["times_ms"][index].as_u64().unwrap();
                    Some(beginner / 3 + next() % (beginner * 2))
                }
            })
            .collect();
        let standing = tables.standing(&bests);
        let (power, tier, by_category) = reference(&json, &bests);
        assert_eq!(
            (standing.power, standing.tier, standing.by_category),
            (power, tier, by_category),
            "player {player}: {bests:?}"
        );
    }
}

#[test]
fn a_worked_player() {
    let tables = Tables::built_in();
    let mut bests = vec![None; 30];
    // 5x5 single in 7.0 s: within Platinum I's 7100 ms, not Platinum
    // II's 6600: 1111.
    bests[9] = Some(7_000);
    // 4x4 ao5 in 4.0 s: within Gold II's 4100 ms, not Gold III's 3800:
    // 700.
    bests[4] = Some(4_000);
    let standing = tables.standing(&bests);
    let name = |t: usize| tables.power_tiers()[t].name.clone();
    assert_eq!(
        standing.by_category[9].map(name).as_deref(),
        Some("Platinum I")
    );
    assert_eq!(
        standing.by_category[4].map(name).as_deref(),
        Some("Gold II")
    );
    assert_eq!(standing.power, 1_111 + 700);
    // 1811 reaches Silver I's limit (1000), not Silver II's (2500).
    assert_eq!(name(standing.tier), "Silver I");
    // No results, no tier.
    let nobody = tables.standing(&[None; 30]);
    assert_eq!(
        (nobody.power, name(nobody.tier)),
        (0, "Unranked".to_string())
    );
}

#[test]
fn a_player_is_never_above_their_best_result() {
    let tables = Tables::built_in();
    // Thirty Gold I results (555 each, 16650) reach Gold III's limit
    // (14000), but no result of theirs is above Gold I.
    let gold_one = tables
        .power_tiers()
        .iter()
        .position(|t| t.name == "Gold I")
        .unwrap();
    let bests: Vec<Option<u64>> = (0..30)
        .map(|c| Some(tables.power_tiers()[gold_one].time_ms(c)))
        .collect();
    let standing = tables.standing(&bests);
    assert_eq!(standing.power, 30 * 555);
    assert_eq!(standing.tier, gold_one);
}

#[test]
fn percentage_tiers_name_a_result_by_its_distance_from_the_record() {
    let tables = Tables::built_in();
    let tier = |record: f64, time: f64| {
        tables
            .percent_tier(percent_of_record(record, time))
            .name
            .clone()
    };
    assert_eq!(tier(5_000.0, 5_000.0), "alpha");
    assert_eq!(tier(5_000.0, 5_500.0), "alpha"); // 90.9 %
    assert_eq!(tier(5_000.0, 5_600.0), "beta"); // 89.3 %
    assert_eq!(tier(5_000.0, 10_000.0), "epsilon"); // exactly 50 %
    assert_eq!(tier(5_000.0, 1_000_000.0), "kappa");
    assert_eq!(percent_of_record(5_000.0, 0.0), 100.0);
}

#[test]
fn tables_from_an_operator_are_checked_and_name_what_is_wrong() {
    let good = include_str!("../../data/power-tiers.json");
    assert!(Tables::parse(good).is_ok());
    assert!(Tables::parse(include_str!("../../data/power-tiers-gamma.json")).is_ok());
    let cases = [
        (
            good.replacen("\"3x3 ao12\"", "\"3x3 ao7\"", 1),
            "categories[0]",
        ),
        (
            good.replacen("\"3x3 ao50\"", "\"3x3 ao12\"", 1),
            "listed twice",
        ),
        (good.replacen("[6500, ", "[", 1), "Beginner"),
        (good.replacen("\"limit\": 0", "\"limit\": 3", 1), "limit 0"),
        (
            good.replacen("\"at_least\": 0}", "\"at_least\": 5}", 1),
            "percent_tiers",
        ),
        ("{}".to_string(), "not tier tables"),
    ];
    for (text, named) in cases {
        let error = Tables::parse(&text).unwrap_err().to_string();
        assert!(error.contains(named), "{named}: {error}");
    }
    // Bronze I slower than Beginner in 3x3 ao12.
    let slower = good.replacen("[4000, 4500", "[7000, 4500", 1);
    let error = Tables::parse(&slower).unwrap_err().to_string();
    assert!(
        error.contains("Bronze I") && error.contains("3x3 ao12"),
        "{error}"
    );
    // Other tables, another digest: powers kept from them are stale.
    let renamed = good.replacen("\"Ascended\"", "\"Ascended+\"", 1);
    assert_ne!(
        Tables::parse(good).unwrap().digest(),
        Tables::parse(&renamed).unwrap().digest()
    );
}
