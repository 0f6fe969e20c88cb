use super::*;
use std::collections::{HashMap, VecDeque};

/// The MTM distance of every canonical board (`cells[c]`: the goal cell
/// of the tile on `c`) to the goal with the blank on `goal_blank`, by a
/// breadth-first search over whole boards: independent of the painting.
fn exact(size: Size, goal_blank: usize) -> HashMap<Vec<u8>, u32> {
    let goal: Vec<u8> = (0..size.cells() as u8).collect();
    let lines = lines(size);
    let mut seen = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([(goal, goal_blank)]);
    while let Some((cells, blank)) = queue.pop_front() {
        let d = seen[&cells];
        for (_, line) in &lines[blank] {
            let (mut next, mut b) = (cells.clone(), blank);
            for &to in line {
                next.swap(b, to as usize);
                b = to as usize;
                if !seen.contains_key(&next) {
                    seen.insert(next.clone(), d + 1);
                    queue.push_back((next.clone(), b));
                }
            }
        }
    }
    seen
}

fn blank_of(cells: &[u8], goal_blank: usize) -> usize {
    cells
        .iter()
        .position(|&t| t as usize == goal_blank)
        .unwrap()
}

#[test]
fn the_bound_never_exceeds_the_distance_and_is_zero_only_when_painted_solved() {
    for (size, blanks) in [("3x3", 0..9), ("2x4", 0..8), ("4x2", 0..8)] {
        let size: Size = size.parse().unwrap();
        for goal_blank in blanks {
            let table = ColourTable::build(size, goal_blank, &mut |_| {}).unwrap();
            // The painted distances a byte each: the packed table's
            // walk is checked against them on every 200th board.
            let painted = breadth_first(&table.colouring, &mut |_| {});
            let distances = exact(size, goal_blank);
            assert_eq!(distances.len(), (1..=size.cells()).product::<usize>() / 2);
            let (mut bounds, mut lengths) = (0, 0);
            for (k, (cells, &d)) in distances.iter().enumerate() {
                let blank = blank_of(cells, goal_blank);
                let bound = (0..table.symmetries.len())
                    .map(|s| painted[table.view_index(s, cells, blank)].load(Ordering::Relaxed))
                    .max()
                    .map_or(0, u32::from);
                if k % 200 == 0 {
                    assert_eq!(table.bound(cells, blank), bound);
                }
                assert!(
                    bound <= d,
                    "{size} blank {goal_blank}: {cells:?} {bound} > {d}"
                );
                // A move always moves the blank, so one move from the
                // goal is never painted solved.
                assert!(d > 1 || bound == d, "{cells:?}");
                (bounds, lengths) = (bounds + bound, lengths + d);
            }
            // Far stronger than the STM bound over the longest run.
            assert!(
                bounds * 10 > lengths * 7,
                "{size} {goal_blank}: {bounds} {lengths}"
            );
        }
    }
}

#[test]
fn the_next_sequence_is_the_next_rank() {
    let colouring = Colouring::new("3x4".parse().unwrap(), 11).unwrap();
    let (mut sequence, mut expected) = (vec![0u8; 11], vec![0u8; 11]);
    colouring.decode(0, &mut sequence);
    for rank in 1..colouring.arrangements as u32 {
        next_sequence(&mut sequence);
        colouring.decode(rank, &mut expected);
        assert_eq!(sequence, expected, "{rank}");
    }
}

#[test]
fn painted_boards_round_trip_through_their_index() {
    let size: Size = "4x4".parse().unwrap();
    for goal_blank in [15, 0, 5] {
        let colouring = Colouring::new(size, goal_blank).unwrap();
        let mut board = vec![0; 16];
        let step = colouring.entries() / 997;
        for index in (0..colouring.entries()).step_by(step) {
            let blank = colouring.board(index, &mut board);
            assert_eq!(colouring.index(blank, |c| board[c]), index);
            // The same index from the board packed two bits a cell.
            let word = (0..16)
                .filter(|&c| c != blank)
                .fold(0u64, |w, c| w | u64::from(board[c]) << (2 * c));
            assert_eq!(colouring.packed_index(word, blank), index);
        }
    }
    // The quadrant painting with the blank's goal in a corner.
    let colouring = Colouring::new(size, 15).unwrap();
    let mut counts = colouring.counts.clone();
    counts.sort_unstable();
    assert_eq!(counts, [2, 4, 4, 5]);
    assert_eq!(colouring.entries(), 151_351_200);
}

#[test]
fn packed_residues_walk_down_to_the_breadth_first_distances() {
    for (size, goal_blank) in [("3x3", 8), ("2x4", 3), ("3x4", 11)] {
        let size: Size = size.parse().unwrap();
        let colouring = Colouring::new(size, goal_blank).unwrap();
        let mut levels = Vec::new();
        let distances = breadth_first(&colouring, &mut |p| levels.push(p.depth));
        let table = ColourTable::build(size, goal_blank, &mut |_| {}).unwrap();
        let step = (distances.len() / 5000).max(1);
        for (index, d) in distances.iter().enumerate().step_by(step) {
            let d = d.load(Ordering::Relaxed);
            assert_ne!(d, UNSEEN, "{size}: every painted board is reached");
            assert_eq!(table.distance(index), u32::from(d), "{size} {index}");
        }
        assert!(levels.windows(2).all(|w| w[0] <= w[1]));
    }
}

#[test]
fn a_move_updates_every_view_as_a_fresh_look_up_does() {
    for (size, goal_blank) in [("3x4", 11), ("4x3", 0), ("3x3", 4)] {
        let size: Size = size.parse().unwrap();
        let table = ColourTable::build(size, goal_blank, &mut |_| {}).unwrap();
        let mut rng = crate::Rng::new(7);
        let mut cells: Vec<u8> = (0..size.cells() as u8).collect();
        let mut blank = goal_blank;
        let mut views = table.views(&cells, blank);
        for _ in 0..3000 {
            let moves = &table.lines[blank];
            let (d, line) = &moves[rng.below(moves.len() as u64) as usize];
            let run = 1 + rng.below(line.len() as u64) as usize;
            let (mut stepped, before) = (views, blank);
            for &to in &line[..run] {
                table.slide(&mut stepped.word, cells[to as usize], to as usize, blank);
                cells.swap(blank, to as usize);
                blank = to as usize;
            }
            let horizontal = is_horizontal(*d);
            table
                .step((&views, before), &mut stepped, blank, horizontal, u32::MAX)
                .unwrap();
            views = table.views(&cells, blank);
            let k = table.symmetries.len();
            assert_eq!(stepped.index[..k], views.index[..k], "{size} {d:?}");
            assert_eq!(stepped.distance[..k], views.distance[..k], "{size}");
            assert_eq!(stepped.word[..k], views.word[..k], "{size}");
        }
    }
}

#[test]
fn a_table_reads_back_from_its_bytes_and_damage_is_refused() {
    let size: Size = "3x4".parse().unwrap();
    let table = ColourTable::build(size, 11, &mut |_| {}).unwrap();
    let bytes = table.to_bytes();
    let back = ColourTable::from_bytes(size, 11, &bytes).unwrap();
    assert_eq!(back.packed, table.packed);
    let mut damaged = bytes.clone();
    damaged[bytes.len() / 2] ^= 0x10;
    assert_eq!(
        ColourTable::from_bytes(size, 11, &damaged).err(),
        Some(LoadError::Checksum)
    );
    assert!(matches!(
        ColourTable::from_bytes(size, 11, &bytes[..bytes.len() - 1]),
        Err(LoadError::Length { .. })
    ));
    assert!(matches!(
        ColourTable::from_bytes(size, 0, &bytes),
        Err(LoadError::OtherPattern { .. })
    ));
    assert!(matches!(
        ColourTable::from_bytes(size, 11, b"not a table"),
        Err(LoadError::NotADatabase)
    ));
}

#[test]
fn the_search_finds_shortest_solutions() {
    for (size, goal_blank) in [("3x3", 8), ("3x3", 4), ("2x4", 0)] {
        let size: Size = size.parse().unwrap();
        let table = ColourTable::build(size, goal_blank, &mut |_| {}).unwrap();
        let distances = exact(size, goal_blank);
        for (cells, &d) in distances.iter().step_by(97) {
            let start = Canonical {
                size,
                cells: cells.clone(),
                blank: blank_of(cells, goal_blank),
                goal_blank,
            };
            let (moves, _) = search(&table, &start, &|_| false).unwrap();
            assert_eq!(moves.mtm_len() as u32, d, "{cells:?}");
            // The moves take the board to the goal.
            let (mut cells, mut blank) = (cells.clone(), start.blank);
            for m in moves.0 {
                let (dx, dy) = m.blank_step();
                let (x, y) = size.coords(blank);
                let to = size.cell(
                    x.checked_add_signed(dx).unwrap(),
                    y.checked_add_signed(dy).unwrap(),
                );
                cells.swap(blank, to);
                blank = to;
            }
            assert!(cells.iter().enumerate().all(|(c, &t)| c == t as usize));
        }
    }
}
