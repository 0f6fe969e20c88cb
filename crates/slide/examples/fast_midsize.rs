//! Mid-size boards (4 × 4 … 10 × 10): fast-solver lengths against the plain
//! reduction, against a lower bound (Manhattan distance + linear
//! conflicts), and on Korf & Felner's 50 24-puzzle instances against their
//! optimal lengths. Boards of more than 64 cells (9 × 9, 10 × 10) get no
//! beam search: there the fast solver is the reduction.
//!
//! cargo run --release -p slide --example fast_midsize -- [positions per size] [korf file] [beam width]

use slide::{goal_cells, FastSolver, Goal, Position, Scramble, Size};

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().map_or(20, |a| a.parse().expect("a count"));
    let korf = args
        .next()
        .unwrap_or_else(|| "/work/shared/data/korf_felner50_24puzzle.txt".to_string());

    let width: Option<usize> = args.next().map(|a| a.parse().expect("a beam width"));
    let plain = FastSolver {
        beam_width: Some(0),
        thorough: None,
    };
    let fast = FastSolver {
        beam_width: width,
        thorough: None,
    };
    println!("| n | positions | lower bound (MD+LC) | plain reduction | fast (best of reduction and beam) | fast / bound | fast / plain | mean CPU time | max CPU time |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for n in 4..=10 {
        let size = Size::square(n).expect("a size");
        let goal = Goal::RowMajor.position(size).expect("a goal");
        let (mut bound, mut reduced, mut best) = (0, 0, 0);
        let (mut seconds, mut most) = (0.0, 0.0f64);
        for seed in 0..count {
            let puzzle = Scramble::Uniform.generate(&goal, seed);
            bound += lower_bound(&puzzle, &goal);
            reduced += length(&plain, &puzzle, &goal);
            let start = cpu_seconds();
            best += length(&fast, &puzzle, &goal);
            let spent = cpu_seconds() - start;
            seconds += spent;
            most = most.max(spent);
        }
        let c = count as f64;
        println!(
            "| {n} | {count} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} | {:.3} s | {:.3} s |",
            bound as f64 / c,
            reduced as f64 / c,
            best as f64 / c,
            best as f64 / bound as f64,
            best as f64 / reduced as f64,
            seconds / c,
            most
        );
    }
    korf_felner(&korf, &plain, &fast);
}

/// Korf & Felner's instances; goal blank-first.
fn korf_felner(path: &str, plain: &FastSolver, fast: &FastSolver) {
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("({path} not found: Korf & Felner comparison skipped)");
        return;
    };
    let size = Size::square(5).expect("5x5");
    let goal = Goal::BlankFirst.position(size).expect("a goal");
    let (mut instances, mut optimal, mut reduced, mut best, mut bound) = (0, 0, 0, 0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let tiles: Vec<u32> = fields[2..]
            .iter()
            .map(|t| t.parse().expect("a tile"))
            .collect();
        let puzzle = Position::new(size, tiles).expect("a 5x5 position");
        instances += 1;
        optimal += fields[1].parse::<usize>().expect("an optimal length");
        bound += lower_bound(&puzzle, &goal);
        reduced += length(plain, &puzzle, &goal);
        best += length(fast, &puzzle, &goal);
    }
    let c = instances as f64;
    println!();
    println!("| Korf & Felner 24-puzzle | instances | optimal | lower bound (MD+LC) | plain reduction | fast | fast / optimal |");
    println!("|---|---|---|---|---|---|---|");
    println!(
        "| 5 × 5, blank-first | {instances} | {:.2} | {:.1} | {:.1} | {:.1} | {:.2} |",
        optimal as f64 / c,
        bound as f64 / c,
        reduced as f64 / c,
        best as f64 / c,
        best as f64 / optimal as f64
    );
}

/// Solves, checks the solution by replay, returns its length.
fn length(solver: &FastSolver, puzzle: &Position, goal: &Position) -> usize {
    let moves = solver.solve(puzzle, goal).expect("solvable");
    let mut replay = puzzle.clone();
    replay.apply_all(&moves).expect("legal moves");
    assert_eq!(&replay, goal, "the solution reaches the goal");
    moves.len()
}

/// Manhattan distance plus linear conflicts (per row and column, two moves
/// for each tile outside a longest run in goal order).
fn lower_bound(puzzle: &Position, goal: &Position) -> usize {
    let size = puzzle.size();
    let (w, h) = (size.width(), size.height());
    let target = goal_cells(puzzle, goal).expect("matching boards");
    let blank_goal = goal.blank() as u32;
    let mut total = 0;
    for (cell, &t) in target.iter().enumerate() {
        if t != blank_goal {
            total += size.distance(cell, t as usize);
        }
    }
    let line = |cells: Vec<usize>, key: &dyn Fn(usize) -> Option<usize>| {
        let keys: Vec<usize> = cells
            .iter()
            .filter(|&&c| target[c] != blank_goal)
            .filter_map(|&c| key(target[c] as usize))
            .collect();
        let mut longest = vec![1; keys.len()];
        for i in 0..keys.len() {
            for j in 0..i {
                if keys[j] < keys[i] {
                    longest[i] = longest[i].max(longest[j] + 1);
                }
            }
        }
        2 * (keys.len() - longest.iter().copied().max().unwrap_or(0))
    };
    for y in 0..h {
        let cells = (0..w).map(|x| y * w + x).collect();
        total += line(cells, &|t| (t / w == y).then_some(t % w));
    }
    for x in 0..w {
        let cells = (0..h).map(|y| y * w + x).collect();
        total += line(cells, &|t| (t % w == x).then_some(t / w));
    }
    total
}

/// Time this process has spent on a CPU (Linux `/proc/self/schedstat`), so
/// figures stay meaningful on a busy shared machine; 0 elsewhere.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}
