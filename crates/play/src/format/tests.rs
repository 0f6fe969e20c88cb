use super::*;
use crate::judge::{self, Unranked, SLIDE};

fn marathon(count: usize) -> Format {
    Format::Marathon(MarathonLength::new(count).unwrap())
}

fn relay(side: usize) -> Format {
    Format::Relay(RelaySide::new(side).unwrap())
}

#[test]
fn no_format_of_no_puzzles_can_be_built() {
    assert_eq!(MarathonLength::new(0), Err(FormatError::MarathonLength(0)));
    assert_eq!(MarathonLength::new(1), Err(FormatError::MarathonLength(1)));
    assert_eq!(RelaySide::new(3), Err(FormatError::RelaySide(3)));
    assert_eq!(RelaySide::new(0), Err(FormatError::RelaySide(0)));
    assert_eq!(
        RelaySide::new(RELAY_LAST_SIDE + 1),
        Err(FormatError::RelaySide(RELAY_LAST_SIDE + 1))
    );
    assert_eq!(
        MarathonLength::new(1001),
        Err(FormatError::MarathonLength(1001))
    );
    let spec = spec("3x3");
    for count in [2, 10, 42, 100, 999, 1000] {
        assert_eq!(marathon(count).specs(&spec).unwrap().len(), count);
    }
    assert_eq!(relay(4).specs(&spec).unwrap().len(), 2);
}

/// A spec from its text; a bare size takes the row-major goal.
fn spec(text: &str) -> SlideSpec {
    if text.contains('-') {
        text.parse().unwrap()
    } else {
        format!("{text}-row-major").parse().unwrap()
    }
}

#[test]
fn formats_print_and_parse_back() {
    for text in [
        "single",
        "marathon-10",
        "marathon-42",
        "marathon-2",
        "marathon-1000",
        "2-n-relay",
        "height-relay",
        "width-relay",
        "everything-relay",
        "marathon-100",
        "relay-4",
        "relay-10",
        "bld",
    ] {
        let format: Format = text.parse().unwrap();
        assert_eq!(format.to_string(), text);
    }
    assert_eq!("Marathon-10".parse(), Ok(marathon(10)));
    assert_eq!(" BLD ".parse(), Ok(Format::Blindfold));
}

#[test]
fn bad_formats_say_what_is_wrong() {
    let error = |text: &str| text.parse::<Format>().unwrap_err();
    assert_eq!(error("marathon-1"), FormatError::MarathonLength(1));
    assert_eq!(error("marathon-1001"), FormatError::MarathonLength(1001));
    assert_eq!(error("relay-3"), FormatError::RelaySide(3));
    assert_eq!(error("relay-11"), FormatError::RelaySide(11));
    assert!(matches!(error("marathon-x"), FormatError::Number { .. }));
    assert!(matches!(error("relay-"), FormatError::Number { .. }));
    assert!(matches!(error("sprint-5"), FormatError::Unknown(_)));
    assert!(matches!(error(""), FormatError::Unknown(_)));
    assert!(matches!(error("marathon"), FormatError::Unknown(_)));
    let message = error("marathon-1001").to_string();
    assert!(message.contains("2 to 1000"), "{message}");
    let message = error("relay-11").to_string();
    assert!(message.contains("4 to 10"), "{message}");
}

#[test]
fn single_and_blindfold_deal_todays_puzzle() {
    let spec = spec("4x4-missing");
    for format in [Format::Single, Format::Blindfold] {
        for seed in [0, 7, u64::MAX] {
            assert_eq!(
                format.deal(&spec, seed).unwrap(),
                vec![spec.issue(seed).unwrap()]
            );
        }
    }
}

#[test]
fn one_seed_deals_a_whole_marathon_the_same_way_every_time() {
    let spec = spec("3x3-row-major");
    let ten = marathon(10).deal(&spec, 99).unwrap();
    assert_eq!(ten.len(), 10);
    assert_eq!(ten, marathon(10).deal(&spec, 99).unwrap());
    // Distinct puzzles, each the one its own seed issues.
    let starts: std::collections::HashSet<_> = ten.iter().map(|p| &p.start).collect();
    assert_eq!(starts.len(), 10);
    for puzzle in &ten {
        assert_eq!(puzzle, &spec.issue(puzzle.seed).unwrap());
    }
    // A longer marathon starts with the shorter one; another seed
    // deals another marathon.
    let forty_two = marathon(42).deal(&spec, 99).unwrap();
    assert_eq!(forty_two.len(), 42);
    assert_eq!(forty_two[..10], ten[..]);
    assert_ne!(marathon(10).deal(&spec, 100).unwrap(), ten);
}

#[test]
fn the_seed_stream_is_pinned() {
    // The documented derivation, written out: changing it would change
    // every marathon ever dealt.
    let mut stream = common::Rng::new(5 ^ 0x666f_726d_6174);
    let expected: Vec<u64> = (0..3).map(|_| stream.next_u64()).collect();
    assert_eq!(relay(5).seeds(5, 3), expected);
    assert_eq!(marathon(10).seeds(5, 10)[..3], expected[..]);
}

#[test]
fn a_relay_keeps_the_goal_and_grows_the_size() {
    let puzzles = relay(5).deal(&spec("4x4-snake"), 3).unwrap();
    let sizes: Vec<String> = puzzles.iter().map(|p| p.start.size().to_string()).collect();
    assert_eq!(sizes, ["3x3", "4x4", "5x5"]);
    for puzzle in &puzzles {
        assert_eq!(puzzle.goal, slide::Goal::Snake);
        assert!(puzzle.start.is_solvable(&puzzle.goal_position).unwrap());
    }
    // A goal that fits one size only cannot be relayed.
    let error = relay(4).deal(&spec("4x4-missing:16"), 3).unwrap_err();
    assert!(
        matches!(error, DealError::Goal { puzzle: 1, .. }),
        "{error}"
    );
    assert!(error.to_string().starts_with("puzzle 1 of relay-4 is 3x3"));
    // A drawn missing number is drawn for each size.
    assert_eq!(relay(4).deal(&spec("4x4-missing"), 3).unwrap().len(), 2);
}

#[test]
fn a_relay_counts_under_its_last_size() {
    let spec = spec("4x4-missing:3");
    assert_eq!(Format::Single.variant(&spec).unwrap(), "4x4-missing");
    assert_eq!(marathon(42).variant(&spec).unwrap(), "4x4-missing");
    assert_eq!(relay(6).variant(&spec).unwrap(), "6x6-missing");
    let snake = self::spec("8x8-snake");
    assert_eq!(relay(5).variant(&snake).unwrap(), "5x5-snake");
}

#[test]
fn a_result_is_filed_under_the_control_of_more_than_95_percent() {
    let inputs = |keyboard: usize, mouse: usize, touch: usize| {
        let mut v = vec![Input::Keyboard; keyboard];
        v.extend(vec![Input::Mouse; mouse]);
        v.extend(vec![Input::Touch; touch]);
        v
    };
    assert_eq!(Control::of(&inputs(20, 0, 0)), Control::Keyboard);
    assert_eq!(Control::of(&inputs(96, 4, 0)), Control::Keyboard);
    // Exactly 95 % is not more than 95 %.
    assert_eq!(Control::of(&inputs(19, 1, 0)), Control::Mixed);
    assert_eq!(Control::of(&inputs(1, 97, 2)), Control::Mouse);
    assert_eq!(Control::of(&inputs(0, 1, 199)), Control::Touch);
    assert_eq!(Control::of(&inputs(50, 50, 0)), Control::Mixed);
    assert_eq!(Control::of(&[]), Control::Mixed);
    for control in ["keyboard", "mouse", "hover", "touch", "mixed"] {
        assert_eq!(control.parse::<Control>().unwrap().to_string(), control);
    }
    assert!("joystick".parse::<Control>().is_err());
    assert_eq!("Touch".parse(), Ok(Input::Touch));
    assert_eq!("hover".parse(), Ok(Input::Hover));
    assert!("mixed".parse::<Input>().is_err());
}

#[test]
fn each_control_is_judged_by_its_own_bounds() {
    assert_eq!(slide_bounds(None, 4), SLIDE);
    assert_eq!(slide_bounds(Some(Control::Keyboard), 4), SLIDE);
    assert_eq!(slide_bounds(Some(Control::Mouse), 4), judge::SLIDE_CLICK);
    assert_eq!(slide_bounds(Some(Control::Hover), 4), judge::SLIDE_HOVER);
    assert_eq!(slide_bounds(Some(Control::Mixed), 4), judge::SLIDE_HOVER);
    let wide = slide_bounds(Some(Control::Mouse), 32);
    assert_eq!(wide.burst_moves, judge::SLIDE_CLICK.burst_moves + 22);
}

#[test]
fn hover_is_a_control_of_its_own() {
    let mut inputs = vec![Input::Hover; 97];
    inputs.extend([Input::Mouse, Input::Mouse, Input::Keyboard]);
    assert_eq!(Control::of(&inputs), Control::Hover);
    // Hover and clicks half and half: neither, so mixed.
    let mut inputs = vec![Input::Hover; 10];
    inputs.extend(vec![Input::Mouse; 10]);
    assert_eq!(Control::of(&inputs), Control::Mixed);
    assert!(ControlError("x".into()).to_string().contains("hover"));
}

/// A 3×3 marathon-10 and, for each puzzle, a solution with moves
/// `gap` ms apart, the first puzzle's first move at `first`.
fn solved_marathon(first: i64, gap: i64) -> (Vec<Puzzle>, Vec<Played>) {
    let puzzles = marathon(10).deal(&spec("3x3-row-major"), 11).unwrap();
    let mut at = first - gap;
    let played = puzzles
        .iter()
        .map(|puzzle| {
            let moves = slide::solve_optimal(
                &puzzle.start,
                &puzzle.goal_position,
                &slide::SolveOptions::default(),
            )
            .unwrap()
            .moves;
            let times = (0..moves.len())
                .map(|_| {
                    at += gap;
                    at
                })
                .collect();
            at += first; // the next puzzle is looked at before moving
            Played { moves, times }
        })
        .collect();
    (puzzles, played)
}

#[test]
fn a_submission_replays_to_the_splits_and_totals() {
    let (puzzles, played) = solved_marathon(800, 250);
    let outcome = replay(marathon(10), &puzzles, &played).unwrap();
    assert!(outcome.solved);
    assert_eq!(outcome.puzzles.len(), 10);
    let stm: usize = played.iter().map(|p| p.moves.len()).sum();
    assert_eq!(outcome.stm, stm);
    assert_eq!(
        outcome.splits,
        played
            .iter()
            .map(|p| *p.times.last().unwrap())
            .collect::<Vec<_>>()
    );
    // The last puzzle unsolved: an unfinished marathon, not a refusal.
    let mut unfinished = played.clone();
    unfinished[9] = Played::default();
    let outcome = replay(marathon(10), &puzzles, &unfinished).unwrap();
    assert!(!outcome.solved);
    assert_eq!(outcome.splits[9], outcome.splits[8]);
}

#[test]
fn missing_or_reordered_puzzles_are_refused() {
    let (puzzles, played) = solved_marathon(800, 250);
    let format = marathon(10);
    assert_eq!(
        replay(format, &puzzles, &played[..9]),
        Err(SubmissionError::Count {
            format,
            dealt: 10,
            sent: 9
        })
    );
    // Two puzzles swapped, times kept in order: the moves give it away.
    let mut swapped = played.clone();
    swapped.swap(3, 4);
    let (a, b) = (played[3].moves.len(), played[4].moves.len());
    let times: Vec<i64> = played[3]
        .times
        .iter()
        .chain(&played[4].times)
        .copied()
        .collect();
    swapped[3].times = times[..b].to_vec();
    swapped[4].times = times[b..b + a].to_vec();
    let error = replay(format, &puzzles, &swapped).unwrap_err();
    assert_eq!(
        error,
        SubmissionError::OutOfOrder {
            puzzle: 4,
            solves: 5
        }
    );
    assert!(error.to_string().contains("order dealt"));
    // Swapped with their times: the clock goes back at the fifth.
    let mut swapped = played.clone();
    swapped.swap(3, 4);
    assert!(matches!(
        replay(format, &puzzles, &swapped),
        Err(SubmissionError::Overlap { puzzle: 5, .. })
    ));
    // A puzzle skipped in the middle.
    let mut skipped = played.clone();
    skipped[2] = Played::default();
    assert_eq!(
        replay(format, &puzzles, &skipped),
        Err(SubmissionError::Unsolved { puzzle: 3 })
    );
    // Malformed times name their puzzle.
    let mut short = played;
    short[6].times.pop();
    assert!(matches!(
        replay(format, &puzzles, &short),
        Err(SubmissionError::Times { puzzle: 7, .. })
    ));
}

#[test]
fn a_person_paced_marathon_is_ranked() {
    let (_, played) = solved_marathon(800, 250);
    let end = *played[9].times.last().unwrap();
    let evidence = FormatEvidence {
        played: &played,
        server_millis: end + 500,
        assisted: &[false; 10],
    };
    assert_eq!(judge(&evidence, &SLIDE), Ok(()));
}

#[test]
fn one_puzzle_too_fast_or_assisted_unranks_the_whole_result() {
    let (_, mut played) = solved_marathon(800, 250);
    // Puzzle 6 is answered 20 ms after puzzle 5 ended, at machine pace.
    let shown = *played[4].times.last().unwrap();
    let mut at = shown + 20;
    for time in played[5].times.iter_mut() {
        *time = at;
        at += 5;
    }
    let end = *played[9].times.last().unwrap();
    let evidence = FormatEvidence {
        played: &played,
        server_millis: end + 500,
        assisted: &[false; 10],
    };
    let why = judge(&evidence, &SLIDE).unwrap_err();
    assert_eq!(why.puzzle, 6);
    assert!(matches!(why.reason, Unranked::TooFast(_)), "{why}");
    assert!(why.to_string().starts_with("puzzle 6: too fast"), "{why}");

    let (_, played) = solved_marathon(800, 250);
    let mut assisted = [false; 10];
    assisted[8] = true;
    let evidence = FormatEvidence {
        played: &played,
        server_millis: end + 500,
        assisted: &assisted,
    };
    let why = judge(&evidence, &SLIDE).unwrap_err();
    assert_eq!(
        why,
        PuzzleUnranked {
            puzzle: 9,
            reason: Unranked::Assisted
        }
    );
}

#[test]
fn a_format_longer_than_the_servers_clock_is_inconsistent() {
    let (_, played) = solved_marathon(800, 250);
    let evidence = FormatEvidence {
        played: &played,
        server_millis: *played[4].times.last().unwrap(),
        assisted: &[],
    };
    let why = judge(&evidence, &SLIDE).unwrap_err();
    // Puzzles 1 to 5 fit the server's clock; puzzle 6 cannot.
    assert_eq!(why.puzzle, 6);
    assert!(matches!(why.reason, Unranked::TimesInconsistent(_)));
}

fn sizes(format: &str, size: &str) -> Vec<String> {
    let format: Format = format.parse().unwrap();
    format
        .deal(&spec(size), 1)
        .unwrap()
        .iter()
        .map(|p| p.start.size().to_string())
        .collect()
}

#[test]
fn slidysims_relays_deal_the_sizes_its_manual_gives() {
    // The manual's own examples.
    assert_eq!(sizes("2-n-relay", "5x5"), ["5x5", "4x4", "3x3", "2x2"]);
    assert_eq!(sizes("height-relay", "5x5"), ["5x5", "5x4", "5x3", "5x2"]);
    assert_eq!(sizes("width-relay", "5x5"), ["5x5", "4x5", "3x5", "2x5"]);
    assert_eq!(
        sizes("everything-relay", "4x4"),
        ["4x4", "3x4", "2x4", "4x3", "3x3", "2x3", "4x2", "3x2", "2x2"]
    );
    // Rectangles keep the side that does not fall.
    assert_eq!(sizes("height-relay", "6x3"), ["6x3", "6x2"]);
    assert_eq!(sizes("width-relay", "3x7"), ["3x7", "2x7"]);
    assert_eq!(sizes("everything-relay", "3x2"), ["3x2", "2x2"]);
    assert_eq!(sizes("everything-relay", "10x10").len(), 81);
}

#[test]
fn a_relay_down_refuses_a_size_it_cannot_start_at() {
    let error = |format: &str, size: &str| {
        let format: Format = format.parse().unwrap();
        format.deal(&spec(size), 1).unwrap_err()
    };
    for (format, size) in [
        ("width-relay", "2x5"),
        ("height-relay", "5x2"),
        ("2-n-relay", "2x2"),
        ("2-n-relay", "5x4"),
        ("everything-relay", "2x2"),
    ] {
        let why = error(format, size);
        assert!(
            matches!(why, DealError::CannotStart { .. }),
            "{format} {size}: {why}"
        );
        assert!(why.to_string().contains(size), "{why}");
    }
    let why = error("width-relay", "2x5").to_string();
    assert!(why.contains("width of 3 or more"), "{why}");
    assert!(matches!(
        error("height-relay", "11x4"),
        DealError::TooLarge { .. }
    ));
    // A marathon whose moves would not fit one submission.
    let why = error("marathon-1000", "10x10");
    assert!(matches!(why, DealError::TooLong { .. }), "{why}");
    assert!(Format::Marathon(MarathonLength::new(1000).unwrap())
        .deal(&spec("4x4"), 1)
        .is_ok());
}

#[test]
fn a_relay_down_counts_under_the_size_it_starts_at_and_keeps_the_goal() {
    let height: Format = "height-relay".parse().unwrap();
    assert_eq!(height.variant(&spec("5x4-snake")).unwrap(), "5x4-snake");
    let puzzles = height.deal(&spec("5x4-snake"), 8).unwrap();
    for puzzle in &puzzles {
        assert_eq!(puzzle.goal, slide::Goal::Snake);
        assert!(puzzle.start.is_solvable(&puzzle.goal_position).unwrap());
    }
    // Its puzzles' seeds are the format stream's, like a marathon's.
    let seeds: Vec<u64> = puzzles.iter().map(|p| p.seed).collect();
    assert_eq!(seeds, marathon(3).seeds(8, 3));
}

#[test]
fn only_a_blindfold_dnf_ends_the_averages() {
    use crate::average::DnfRule;
    assert_eq!(Format::Blindfold.dnf_rule(), DnfRule::EndsAverages);
    for format in ["single", "marathon-5", "relay-4", "height-relay"] {
        assert_eq!(format.parse::<Format>().unwrap().dnf_rule(), DnfRule::Worst);
    }
}
