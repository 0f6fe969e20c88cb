//! Analysis of a solve: the optimal distance to the goal before and after
//! every move, whether each move went towards the goal, and the stretches
//! that lost the most moves.
//!
//! Distances are exact where the optimal solver can prove them: by table
//! walk on boards of up to [`FULL_TABLE_MAX_CELLS`] cells, by IDA* up to
//! [`OPTIMAL_MAX_CELLS`]. Beyond, or once the budget is spent, a distance
//! is the proven lower bound and says so.
//!
//! In the single-tile metric a move changes the distance by exactly one
//! (the board's colouring flips with every move), so once one distance is
//! known the next needs only one question: is there a solution one move
//! shorter? One IDA* run bounded there answers it, and for a move away
//! from the goal the start's own bound usually answers it at once. That
//! chain is what makes a 150-move 4 × 4 replay cheap to analyse.

use super::budget::Limits;
use super::grid::Grid;
use super::heuristic::{Estimate, Manhattan, Patterns};
use super::ida::{Outcome, Search};
use super::relabel::Canonical;
use super::{
    lower_bound, mtm::mtm_within, solve_optimal, Metric, Solution, SolveError, SolveOptions,
    BOUNDED_MAX_CELLS, FULL_TABLE_MAX_CELLS, OPTIMAL_MAX_CELLS,
};
use crate::{FastSolver, HeuristicKind, LowerBound, Moves, Position, ReplayError};

/// The optimal distance from one position to the goal, or a lower bound of
/// it where the solver could not prove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distance {
    /// Moves to the goal (in the analysis' metric).
    pub moves: u32,
    /// Whether `moves` is the optimal distance (else a lower bound).
    pub exact: bool,
}

/// What a move did to the distance to the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// One move closer (−1).
    Towards,
    /// No closer (0): possible only in the multi-tile metric.
    Level,
    /// Further away (+1).
    Away,
    /// Not known: a distance on either side is only a bound.
    Unknown,
}

impl Progress {
    /// −1, 0, +1, or `None` when unknown.
    pub fn delta(self) -> Option<i32> {
        match self {
            Progress::Towards => Some(-1),
            Progress::Level => Some(0),
            Progress::Away => Some(1),
            Progress::Unknown => None,
        }
    }
}

/// A stretch of moves from move `from` (0-based) up to move `to`
/// (exclusive) that cost `lost` more moves than the progress it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detour {
    /// The first move of the stretch (0-based).
    pub from: usize,
    /// The move after its last.
    pub to: usize,
    /// Moves made beyond the distance covered.
    pub lost: u32,
}

/// The analysis of a move sequence from a start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The metric every length here is counted in.
    pub metric: Metric,
    /// The moves as analysed: in the multi-tile metric one element per
    /// run, so `distances` has one more element than `moves`.
    pub moves: Vec<Moves>,
    /// The distance before the first move, after each move, at the end.
    pub distances: Vec<Distance>,
    /// A shortest solution from the start (or the best found, see its
    /// `optimal`).
    pub best: Solution,
}

/// Why a sequence cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The start and the goal do not fit, or the board is too large.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A move of the sequence cannot be made.
    #[error("move {} ({}) is not possible there", .0.index + 1, .0.direction)]
    Illegal(ReplayError),
}

impl Analysis {
    /// Whether every distance is exact.
    pub fn exact(&self) -> bool {
        self.distances.iter().all(|d| d.exact)
    }

    /// Whether the moves end on the goal.
    pub fn solves(&self) -> bool {
        self.distances
            .last()
            .is_some_and(|d| d.exact && d.moves == 0)
    }

    /// Each move's effect on the distance.
    pub fn progress(&self) -> Vec<Progress> {
        self.distances
            .windows(2)
            .map(|w| match (w[0], w[1]) {
                (a, b) if !(a.exact && b.exact) => Progress::Unknown,
                (a, b) if b.moves < a.moves => Progress::Towards,
                (a, b) if b.moves == a.moves => Progress::Level,
                _ => Progress::Away,
            })
            .collect()
    }

    /// Moves beyond the optimum: the moves made, less the distance they
    /// covered. For a solve, its length less the optimal length. `None`
    /// when a distance it needs is only a bound.
    pub fn lost(&self) -> Option<u32> {
        let (first, last) = (self.distances.first()?, self.distances.last()?);
        (first.exact && last.exact)
            .then(|| (self.moves.len() as u32 + last.moves).saturating_sub(first.moves))
    }

    /// The stretches that lost moves, the costliest first (earlier first
    /// among equals), at most `k` of them. A stretch begins at a move that
    /// did not go towards the goal and ends when the distance is back to
    /// where it was before it; their losses add up to [`Analysis::lost`].
    /// Empty unless every distance is exact.
    pub fn detours(&self, k: usize) -> Vec<Detour> {
        if !self.exact() {
            return Vec::new();
        }
        let d: Vec<u32> = self.distances.iter().map(|d| d.moves).collect();
        let mut found = Vec::new();
        let mut i = 0;
        while i + 1 < d.len() {
            if d[i + 1] < d[i] {
                i += 1;
                continue;
            }
            let back = (i + 1..d.len()).find(|&j| j > i + 1 && d[j] <= d[i]);
            // A level move (MTM) is a stretch of its own; an unfinished
            // detour runs to the end.
            let to = if d[i + 1] == d[i] {
                i + 1
            } else {
                back.unwrap_or(d.len() - 1)
            };
            // Moves made less the distance covered, which is negative for
            // a detour still away at the end.
            let lost = ((to - i) as i64 - (i64::from(d[i]) - i64::from(d[to]))) as u32;
            found.push(Detour { from: i, to, lost });
            i = to;
        }
        found.sort_by_key(|s| (std::cmp::Reverse(s.lost), s.from));
        found.truncate(k);
        found
    }
}

impl Analysis {
    /// The moves played, with every stretch that lost moves replaced by a
    /// shortest path (in the analysis' metric) between the positions where
    /// it began and ended: never longer, and it ends where the moves end.
    /// A stretch whose shortest path is not proven within the budget keeps
    /// whichever is shorter.
    pub fn shortened(&self, start: &Position, options: &SolveOptions) -> Moves {
        let mut detours = self.detours(usize::MAX);
        detours.sort_by_key(|d| d.from);
        let positions = replay(start, &self.moves).expect("the analysed moves replay");
        let mut out: Vec<crate::Direction> = Vec::new();
        let mut at = 0;
        for d in detours {
            out.extend(
                self.moves[at..d.from]
                    .iter()
                    .flat_map(|m| m.iter().collect::<Vec<_>>()),
            );
            let played: Moves = self.moves[d.from..d.to]
                .iter()
                .flat_map(|m| m.iter().collect::<Vec<_>>())
                .collect();
            let (from, to) = (&positions[d.from], &positions[d.to]);
            let direct = solve_optimal(from, to, &options.in_metric(self.metric));
            let better = direct
                .ok()
                .map(|s| s.moves)
                .filter(|m| m.length(self.metric) < played.length(self.metric));
            out.extend(better.unwrap_or(played).iter());
            at = d.to;
        }
        out.extend(
            self.moves[at..]
                .iter()
                .flat_map(|m| m.iter().collect::<Vec<_>>()),
        );
        out.into_iter().collect()
    }
}

/// Analyses `moves` played from `start` towards `goal`, in `metric`,
/// within the budget in `options` (its `stop` and `node_limit` cover the
/// whole analysis; whatever is left unproven is a bound).
pub fn analyze(
    start: &Position,
    goal: &Position,
    moves: &Moves,
    metric: Metric,
    options: &SolveOptions,
) -> Result<Analysis, AnalysisError> {
    let steps = split(moves, metric);
    if start.size().cells() > BOUNDED_MAX_CELLS {
        return beyond_search(start, goal, steps, metric, options);
    }
    let positions = replay(start, &steps)?;
    let best = match metric {
        Metric::Stm => solve_optimal(start, goal, &options.in_metric(Metric::Stm))?,
        Metric::Mtm => {
            solve_optimal(start, goal, &options.in_metric(Metric::Mtm)).or_else(|e| match e {
                // Beyond 16 cells there is no MTM search: the STM solution
                // stands in, its MTM length an upper bound.
                SolveError::TooLarge { .. } => {
                    solve_optimal(start, goal, &options.in_metric(Metric::Stm)).map(|s| Solution {
                        optimal: false,
                        lower_bound: mtm_bound(start, goal),
                        ..s
                    })
                }
                e => Err(e),
            })?
        }
    };
    let first = Distance {
        moves: if best.optimal {
            best.length(metric) as u32
        } else {
            best.lower_bound
        },
        exact: best.optimal,
    };
    let distances = match metric {
        Metric::Stm => stm_distances(&positions, goal, first, options)?,
        Metric::Mtm => mtm_distances(&positions, &steps, goal, first, &best, options)?,
    };
    Ok(Analysis {
        metric,
        moves: steps,
        distances,
        best,
    })
}

/// The moves one element per move of `metric`.
fn split(moves: &Moves, metric: Metric) -> Vec<Moves> {
    let mut steps: Vec<Moves> = Vec::new();
    let mut last = None;
    for direction in moves.iter() {
        let joins = metric == Metric::Mtm && last == Some(direction);
        match steps.last_mut() {
            Some(run) if joins => *run = run.iter().chain([direction]).collect(),
            _ => steps.push([direction].into_iter().collect()),
        }
        last = Some(direction);
    }
    steps
}

/// The position before the first step and after each.
fn replay(start: &Position, steps: &[Moves]) -> Result<Vec<Position>, AnalysisError> {
    let mut at = start.clone();
    let mut played = 0;
    let mut positions = vec![at.clone()];
    for step in steps {
        at.apply_all(step).map_err(|e| {
            AnalysisError::Illegal(ReplayError {
                index: played + e.index,
                direction: e.direction,
            })
        })?;
        played += step.len();
        positions.push(at.clone());
    }
    Ok(positions)
}

/// Single-tile distances: tables on small boards, the chain of one-step
/// questions up to 16 cells, lower bounds beyond.
fn stm_distances(
    positions: &[Position],
    goal: &Position,
    first: Distance,
    options: &SolveOptions,
) -> Result<Vec<Distance>, SolveError> {
    let cells = goal.size().cells();
    if cells <= FULL_TABLE_MAX_CELLS {
        return positions
            .iter()
            .map(|p| {
                let s = solve_optimal(p, goal, &options.in_metric(Metric::Stm))?;
                Ok(Distance {
                    moves: s.stm() as u32,
                    exact: true,
                })
            })
            .collect();
    }
    let starts = positions
        .iter()
        .map(|p| Canonical::new(p, goal))
        .collect::<Result<Vec<_>, _>>()?;
    if cells > OPTIMAL_MAX_CELLS {
        return Ok(starts.iter().map(|s| bound(s, options)).collect());
    }
    let grid = Grid::new(goal.size());
    let goal_blank = starts[0].goal_blank;
    Ok(match options.heuristic {
        HeuristicKind::Manhattan => {
            let estimate = Manhattan::new(&grid, goal_blank);
            chain(&grid, &estimate, &starts, first, options)
        }
        kind => {
            let estimate = Patterns::new(
                goal.size(),
                goal_blank,
                kind,
                options.lookups,
                options.databases(),
            );
            chain(&grid, &estimate, &starts, first, options)
        }
    })
}

/// Each distance from the one before: one move changes it by exactly one,
/// so a search for a solution shorter than the last distance decides it.
/// Once the budget stops a search, the rest are bounds.
fn chain<E: Estimate>(
    grid: &Grid,
    estimate: &E,
    starts: &[Canonical],
    first: Distance,
    options: &SolveOptions,
) -> Vec<Distance> {
    let limits = Limits::of(options);
    let mut spent = 0;
    let mut out = vec![first];
    for start in &starts[1..] {
        let before = *out.last().expect("the first distance");
        let remaining = limits.after(spent);
        if !before.exact || remaining.nodes == Some(0) {
            out.push(bound(start, options));
            continue;
        }
        let mut search = Search::new(grid, estimate, &start.cells, remaining);
        let outcome = search.run(start.blank, before.moves);
        spent += search.nodes;
        out.push(match outcome {
            Outcome::Found(path) => Distance {
                moves: path.len() as u32,
                exact: true,
            },
            Outcome::None => Distance {
                moves: before.moves + 1,
                exact: true,
            },
            Outcome::Exhausted { lower_bound } => Distance {
                moves: lower_bound.max(bound(start, options).moves),
                exact: false,
            },
        });
    }
    out
}

/// Multi-tile distances: a table walk on small boards; with a colouring
/// table, a search between one below and one above the distance before;
/// else one optimal MTM solve per position. Where the budget stops one,
/// its bound. A move that is the first run of the optimal solution known
/// from the position before needs no search: the rest of that solution is
/// optimal from there.
fn mtm_distances(
    positions: &[Position],
    steps: &[Moves],
    goal: &Position,
    first: Distance,
    best: &Solution,
    options: &SolveOptions,
) -> Result<Vec<Distance>, SolveError> {
    let mut out = vec![first];
    let mut ahead = best.optimal.then(|| split(&best.moves, Metric::Mtm));
    for (p, step) in positions[1..].iter().zip(steps) {
        if let Some(rest) = ahead.as_mut().filter(|rest| rest.first() == Some(step)) {
            rest.remove(0);
            out.push(Distance {
                moves: rest.len() as u32,
                exact: true,
            });
            continue;
        }
        ahead = None;
        let before = *out.last().expect("the first distance");
        let stopped = options.stop.is_some_and(|stop| stop());
        // One move changes the distance by at most one: the search starts
        // one below the last distance and stops one above it.
        let within = (before.exact && !stopped)
            .then(|| {
                mtm_within(
                    p,
                    goal,
                    options,
                    before.moves.saturating_sub(1),
                    before.moves,
                )
            })
            .flatten();
        if let Some(found) = within {
            out.push(match found {
                Ok(Some(moves)) => {
                    let runs = split(&moves, Metric::Mtm);
                    let distance = Distance {
                        moves: runs.len() as u32,
                        exact: true,
                    };
                    ahead = Some(runs);
                    distance
                }
                Ok(None) => Distance {
                    moves: before.moves + 1,
                    exact: true,
                },
                Err(bound) => Distance {
                    moves: bound.max(mtm_bound(p, goal)),
                    exact: false,
                },
            });
            continue;
        }
        let distance = if stopped || goal.size().cells() > OPTIMAL_MAX_CELLS {
            Distance {
                moves: mtm_bound(p, goal),
                exact: p == goal,
            }
        } else {
            let s = solve_optimal(p, goal, &options.in_metric(Metric::Mtm))?;
            if s.optimal {
                ahead = Some(split(&s.moves, Metric::Mtm));
            }
            Distance {
                moves: if s.optimal {
                    s.mtm() as u32
                } else {
                    s.lower_bound
                },
                exact: s.optimal,
            }
        };
        out.push(distance);
    }
    Ok(out)
}

/// The Manhattan-and-linear-conflicts bound over the longest run, for
/// boards without an MTM search.
fn mtm_bound(position: &Position, goal: &Position) -> u32 {
    LowerBound::new(position, goal).map_or(0, |b| b.mtm_value() as u32)
}

/// Boards too large for the bounded solver: every distance is the
/// Manhattan-and-linear-conflicts bound, kept move by move (no position is
/// stored, so a replay of millions of moves on a large board stays cheap),
/// and the best solution is the fast solver's, marked not optimal.
fn beyond_search(
    start: &Position,
    goal: &Position,
    steps: Vec<Moves>,
    metric: Metric,
    options: &SolveOptions,
) -> Result<Analysis, AnalysisError> {
    let mut bound = LowerBound::new(start, goal).map_err(SolveError::from)?;
    if !start
        .solvability(goal)
        .map_err(SolveError::from)?
        .is_solvable()
    {
        return Err(SolveError::Unsolvable.into());
    }
    let value = |b: &LowerBound| match metric {
        Metric::Stm => b.value() as u32,
        Metric::Mtm => b.mtm_value() as u32,
    };
    let distance = |b: &LowerBound| Distance {
        moves: value(b),
        exact: b.position() == goal,
    };
    let mut distances = vec![distance(&bound)];
    let mut played = 0;
    for step in &steps {
        for direction in step.iter() {
            bound.apply(direction).map_err(|_| {
                AnalysisError::Illegal(ReplayError {
                    index: played,
                    direction,
                })
            })?;
            played += 1;
        }
        distances.push(distance(&bound));
    }
    let mut moves = Vec::new();
    let never = || false;
    let stop = options
        .stop
        .map_or(&never as &dyn Fn() -> bool, |s| s as &dyn Fn() -> bool);
    // Stopped by the budget, there is no solution to show: an empty one,
    // marked not optimal, says so.
    if FastSolver::default()
        .solve_until(start, goal, &mut |d| moves.push(d), stop)
        .is_err()
    {
        moves.clear();
    }
    let best = Solution {
        moves: Moves(moves),
        optimal: false,
        nodes: 0,
        lower_bound: distances[0].moves,
    };
    Ok(Analysis {
        metric,
        moves: steps,
        distances,
        best,
    })
}

/// The proven lower bound of a position (exact on small boards).
fn bound(start: &Canonical, options: &SolveOptions) -> Distance {
    Distance {
        moves: lower_bound(start, options),
        exact: start.is_solved(),
    }
}
