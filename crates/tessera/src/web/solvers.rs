//! Where the web server meets the solvers. Each function states what the
//! engines can answer; a solver that is not part of this build is reported
//! as unavailable (HTTP 501), never replaced by a made-up answer.

use std::collections::BTreeSet;
use std::sync::{mpsc, Mutex, OnceLock};

use slide::{Moves, PatternSpec, Position};

use super::budget::Deadline;

/// A solution found by a solver.
pub struct Solution {
    pub moves: Moves,
    /// Whether it is proven shortest.
    pub optimal: bool,
}

/// Why a solver gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error("{0}")]
    Unavailable(String),
    #[error("the solver ran out of time")]
    OutOfTime,
}

/// Boards up to this many cells get the optimal solver (4×4 and smaller).
const OPTIMAL_CELLS: usize = 16;

/// How long the optimal search may run before the fast solver answers
/// instead (the request's own deadline caps it too).
const OPTIMAL_BUDGET: std::time::Duration = std::time::Duration::from_secs(4);

/// Solves a sliding puzzle known to be solvable: optimally up to 4×4 with
/// the optimal solver, beyond (or when the optimal search runs out of time)
/// with the fast one. Every answer is replayed before it is returned.
pub fn solve_slide(
    start: &Position,
    goal: &Position,
    deadline: Deadline,
) -> Result<Solution, SolveError> {
    let cells = start.size().cells();
    let table = cells <= slide::solver::FULL_TABLE_MAX_CELLS;
    if cells <= OPTIMAL_CELLS && (table || tables_ready(start.size(), goal.blank())) {
        let optimal_deadline = std::time::Instant::now() + OPTIMAL_BUDGET.min(deadline.remaining());
        let stop = move || std::time::Instant::now() >= optimal_deadline;
        let options = slide::SolveOptions {
            stop: Some(&stop),
            ..slide::SolveOptions::default()
        };
        if let Ok(found) = slide::solve_optimal(start, goal, &options) {
            if reaches(start, goal, &found.moves) {
                return Ok(Solution {
                    moves: found.moves,
                    optimal: found.optimal,
                });
            }
        }
    }
    if deadline.passed() {
        return Err(SolveError::OutOfTime);
    }
    let moves = slide::solve_fast(start, goal)
        .map_err(|e| SolveError::Unavailable(format!("the fast solver refused: {e}")))?;
    if !reaches(start, goal, &moves) {
        return Err(SolveError::Unavailable(
            "the fast solver's answer does not reach the goal".to_string(),
        ));
    }
    Ok(Solution {
        moves,
        optimal: false,
    })
}

/// Whether the optimal solver's pattern databases for this board and goal
/// blank are built. If not, they are queued for building in the background
/// (once each, one at a time) and this request is answered by the fast
/// solver: no request waits seconds for a table.
fn tables_ready(size: slide::Size, goal_blank: usize) -> bool {
    let specs = slide::required_patterns(size, goal_blank, slide::HeuristicKind::Small);
    let databases = slide::Databases::global();
    let missing: Vec<PatternSpec> = specs
        .into_iter()
        .filter(|spec| !databases.contains(spec))
        .collect();
    if missing.is_empty() {
        return true;
    }
    let mut queued = QUEUED.lock().unwrap_or_else(|p| p.into_inner());
    let builder = BUILDER.get_or_init(start_builder);
    for spec in missing {
        if queued.insert(spec.clone()) {
            let _ = builder.lock().unwrap_or_else(|p| p.into_inner()).send(spec);
        }
    }
    false
}

/// Starts building the optimal solver's tables for a puzzle just issued, so
/// that by the time its player asks for a hint they are likely ready.
pub fn prepare(goal: &Position) {
    let cells = goal.size().cells();
    if cells > slide::solver::FULL_TABLE_MAX_CELLS && cells <= OPTIMAL_CELLS {
        tables_ready(goal.size(), goal.blank());
    }
}

/// Pattern databases queued or built by the background builder.
static QUEUED: Mutex<BTreeSet<PatternSpec>> = Mutex::new(BTreeSet::new());
static BUILDER: OnceLock<Mutex<mpsc::Sender<PatternSpec>>> = OnceLock::new();

fn start_builder() -> Mutex<mpsc::Sender<PatternSpec>> {
    let (send, receive) = mpsc::channel::<PatternSpec>();
    std::thread::spawn(move || {
        for spec in receive {
            slide::Databases::global().get_or_build(&spec);
        }
    });
    Mutex::new(send)
}

/// Whether `moves` take `start` to `goal`.
fn reaches(start: &Position, goal: &Position, moves: &Moves) -> bool {
    let mut position = start.clone();
    position.apply_all(moves).is_ok() && &position == goal
}

/// The Shisen-Sho solver's node budget per question: the one `tessera
/// shisen new --solvable` uses per draw, so a seed deals the same solvable
/// board in the browser and on the command line.
pub const SHISEN_NODES: u64 = 20_000;

/// A node budget that also gives up at the request's deadline.
struct Limit {
    nodes: u64,
    deadline: Deadline,
    late: bool,
}

impl shisen::Budget for Limit {
    fn allows(&mut self, nodes: u64) -> bool {
        if self.deadline.passed() {
            self.late = true;
            return false;
        }
        nodes < self.nodes
    }
}

/// Whether `board` can be cleared under `rules`: `Solvable` with the
/// removals, `Unsolvable`, or `Unknown` past [`SHISEN_NODES`].
pub fn shisen_verdict(
    board: &shisen::Board,
    rules: shisen::Rules,
    deadline: Deadline,
) -> Result<shisen::Verdict, SolveError> {
    let mut limit = Limit {
        nodes: SHISEN_NODES,
        deadline,
        late: false,
    };
    let solution = shisen::solve(board, rules, &mut limit);
    if limit.late {
        return Err(SolveError::OutOfTime);
    }
    Ok(solution.verdict)
}

/// A deal drawn uniformly among the solvable ones (by rejection, exactly as
/// [`shisen::Deal::solvable`] draws them), or an error at the deadline.
pub fn shisen_solvable_deal(
    seed: u64,
    size: shisen::Size,
    set: shisen::TileSet,
    rules: shisen::Rules,
    deadline: Deadline,
) -> Result<Result<shisen::Board, shisen::TileSetError>, SolveError> {
    let mut seeds = shisen::Rng::new(seed);
    for _ in 0..shisen::Deal::MAX_ATTEMPTS {
        let board = match shisen::Deal::random(seeds.next_u64(), size, set) {
            Ok(board) => board,
            Err(e) => return Ok(Err(e)),
        };
        if let shisen::Verdict::Solvable(_) = shisen_verdict(&board, rules, deadline)? {
            return Ok(Ok(board));
        }
    }
    Err(SolveError::Unavailable(format!(
        "no solvable {size} deal found in {} draws",
        shisen::Deal::MAX_ATTEMPTS
    )))
}
