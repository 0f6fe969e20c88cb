//! Labelled data sets of sliding puzzles for machine learning: the
//! positions a seed deals, their distances to the goal and, if asked, the
//! first move of a solution. One implementation for `tessera slide
//! dataset` and the Python package's `dataset(...)`, so the same arguments
//! give the same arrays in both.

use rayon::prelude::*;
use slide::{
    Direction, FastError, Goal, Metric, Position, Scramble, Size, SolveError, SolveOptions,
};

use super::solver::{check_optimal_size, OptimalSizeError};
use super::spec::{GoalChoice, SlideSpec};

/// What a data set holds: `count` puzzles, row `i` the one `scramble`
/// deals towards `goal` from seed `seed + i` (`tessera slide new --seed
/// SEED --count N` for uniform puzzles), labelled in `metric`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetSpec {
    /// Rows.
    pub count: usize,
    /// The goal laid out on the board.
    pub goal: Position,
    /// How each puzzle is dealt.
    pub scramble: Scramble,
    /// Row `i`'s seed is `seed + i` (wrapping).
    pub seed: u64,
    /// The metric of the distances.
    pub metric: Metric,
    /// Whether the distances are proven shortest (the optimal solver's) or
    /// the fast solver's lengths, upper bounds only.
    pub optimal: bool,
    /// Whether to record each row's first move.
    pub first_moves: bool,
}

/// Arguments that give no data set. Front ends add what their users can do
/// instead (a flag, a keyword).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DatasetError {
    /// The goal does not fit the size.
    #[error(transparent)]
    Goal(#[from] slide::GoalError),
    /// Labels do not fit the byte a cell is stored in.
    #[error("{0} has labels past 255, too many for uint8 arrays")]
    WideLabels(Size),
    /// Exact labels were asked past what the optimal solver proves.
    #[error(transparent)]
    NotExact(OptimalSizeError),
    /// Past the optimal solver only the fast solver labels, and it counts
    /// single-tile moves.
    #[error(
        "{0} is too large for the optimal solver and the fast solver counts single-tile moves only"
    )]
    MultiTileInexact(Size),
}

/// Why labelling stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// The caller's stop hook ended it.
    #[error("stopped before every position was labelled")]
    Stopped,
    /// A solver refused a position (never for the positions a spec deals).
    #[error("{0}")]
    Refused(String),
}

/// A labelled data set, its arrays flat and row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dataset {
    /// Cells a row.
    pub cells: usize,
    /// `count × cells` tiles, 0 the blank.
    pub positions: Vec<u8>,
    /// Each row's distance to the goal in the spec's metric.
    pub distances: Vec<i32>,
    /// Whether the distances are proven shortest (all or none).
    pub optimal: bool,
    /// If asked, each row's first move as an action (0 1 2 3 for U D L R,
    /// the direction the tile slides), -1 for a row at the goal.
    pub first_moves: Option<Vec<i8>>,
}

impl DatasetSpec {
    /// A data set of `count` puzzles of `size` towards `goal`. `exact`
    /// insists on proven distances (boards the optimal solver labels, up to
    /// 16 cells); without it larger boards get the fast solver's lengths.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        count: usize,
        size: Size,
        goal: Goal,
        scramble: Scramble,
        seed: u64,
        metric: Metric,
        exact: bool,
        first_moves: bool,
    ) -> Result<DatasetSpec, DatasetError> {
        let spec = SlideSpec::new(size, GoalChoice::Goal(goal))?;
        let goal = spec.issue(seed)?.goal_position;
        if goal.tiles().iter().any(|&t| t > u32::from(u8::MAX)) {
            return Err(DatasetError::WideLabels(size));
        }
        let optimal = match check_optimal_size(size, false) {
            Ok(()) => true,
            Err(e) if exact => return Err(DatasetError::NotExact(e)),
            Err(_) if metric == Metric::Mtm => return Err(DatasetError::MultiTileInexact(size)),
            Err(_) => false,
        };
        Ok(DatasetSpec {
            count,
            goal,
            scramble,
            seed,
            metric,
            optimal,
            first_moves,
        })
    }

    /// The size of the boards.
    pub fn size(&self) -> Size {
        self.goal.size()
    }

    /// Row `i`'s puzzle.
    pub fn position(&self, i: usize) -> Position {
        self.scramble
            .generate(&self.goal, self.seed.wrapping_add(i as u64))
    }

    /// Deals and labels every row in parallel (on the current rayon pool),
    /// calling `done` after each row. With the optimal solver, `options`
    /// says which tables to search with (the caller has them ready) and
    /// when to stop; the fast solver stops on `options.stop` too.
    pub fn generate(
        &self,
        options: &SolveOptions,
        done: &(dyn Fn() + Sync),
    ) -> Result<Dataset, LabelError> {
        let rows: Vec<(Position, i32, Option<Direction>)> = (0..self.count)
            .into_par_iter()
            .map(|i| {
                let position = self.position(i);
                let (distance, first) = self.label(&position, options)?;
                done();
                Ok((position, distance, first))
            })
            .collect::<Result<_, LabelError>>()?;
        let cells = self.size().cells();
        let mut positions = Vec::with_capacity(self.count * cells);
        for (position, _, _) in &rows {
            // Checked in `new`: every label fits a byte.
            positions.extend(position.tiles().iter().map(|&t| t as u8));
        }
        Ok(Dataset {
            cells,
            positions,
            distances: rows.iter().map(|&(_, d, _)| d).collect(),
            optimal: self.optimal,
            first_moves: self.first_moves.then(|| {
                rows.iter()
                    .map(|&(_, _, first)| first.map_or(-1, action))
                    .collect()
            }),
        })
    }

    /// One row's distance and first move.
    fn label(
        &self,
        position: &Position,
        options: &SolveOptions,
    ) -> Result<(i32, Option<Direction>), LabelError> {
        let stopped = || options.stop.is_some_and(|stop| stop());
        if !self.optimal {
            let mut length = 0usize;
            let mut first = None;
            let stop = || stopped();
            slide::FastSolver::default()
                .solve_until(
                    position,
                    &self.goal,
                    &mut |d| {
                        first.get_or_insert(d);
                        length += 1;
                    },
                    &stop,
                )
                .map_err(|e| match e {
                    FastError::Stopped => LabelError::Stopped,
                    e => LabelError::Refused(e.to_string()),
                })?;
            return Ok((i32::try_from(length).unwrap_or(i32::MAX), first));
        }
        let solution = slide::solve_optimal(position, &self.goal, &options.in_metric(self.metric))
            .map_err(|e: SolveError| LabelError::Refused(e.to_string()))?;
        // A stopped search hands back its best so far, never a label.
        if !solution.optimal {
            return Err(if stopped() {
                LabelError::Stopped
            } else {
                LabelError::Refused("the optimal solver gave up on a position".to_string())
            });
        }
        let distance = solution.length(self.metric) as i32;
        Ok((distance, solution.moves.0.first().copied()))
    }
}

/// A direction as the batched primitives number it: 0 1 2 3 for U D L R.
fn action(direction: Direction) -> i8 {
    Direction::ALL
        .iter()
        .position(|&d| d == direction)
        .expect("every direction is in ALL") as i8
}

#[cfg(test)]
mod tests {
    use super::*;
    use slide::HeuristicKind;

    fn spec(count: usize, size: &str, exact: bool, first_moves: bool) -> DatasetSpec {
        DatasetSpec::new(
            count,
            size.parse().unwrap(),
            Goal::RowMajor,
            Scramble::Uniform,
            5,
            Metric::Stm,
            exact,
            first_moves,
        )
        .unwrap()
    }

    /// Breadth-first distances from the goal over the whole 2x3 puzzle:
    /// the reference the labels must equal.
    fn brute_force(goal: &Position) -> std::collections::HashMap<Vec<u32>, i32> {
        let mut seen = std::collections::HashMap::from([(goal.tiles().to_vec(), 0)]);
        let mut frontier = vec![goal.clone()];
        let mut depth = 0;
        while !frontier.is_empty() {
            depth += 1;
            let mut next = Vec::new();
            for p in &frontier {
                for d in Direction::ALL {
                    let mut child = p.clone();
                    if child.apply(d).is_ok() && !seen.contains_key(child.tiles()) {
                        seen.insert(child.tiles().to_vec(), depth);
                        next.push(child);
                    }
                }
            }
            frontier = next;
        }
        seen
    }

    #[test]
    fn labels_are_the_breadth_first_distances_and_first_moves_lead_one_closer() {
        let spec = spec(60, "3x2", true, true);
        let options = SolveOptions {
            heuristic: HeuristicKind::Manhattan,
            ..SolveOptions::default()
        };
        let set = spec.generate(&options, &|| ()).unwrap();
        let reference = brute_force(&spec.goal);
        let firsts = set.first_moves.as_ref().unwrap();
        assert!(set.optimal);
        for (i, row) in set.positions.chunks(set.cells).enumerate() {
            let position = spec.position(i);
            let tiles: Vec<u32> = row.iter().map(|&t| u32::from(t)).collect();
            assert_eq!(tiles, position.tiles());
            assert_eq!(set.distances[i], reference[&tiles]);
            if set.distances[i] == 0 {
                assert_eq!(firsts[i], -1);
            } else {
                let mut after = position;
                after.apply(Direction::ALL[firsts[i] as usize]).unwrap();
                assert_eq!(reference[after.tiles()], set.distances[i] - 1);
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_set_whatever_the_threads() {
        let spec = spec(40, "3x3", true, true);
        let options = SolveOptions::default();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| spec.generate(&options, &|| ()).unwrap());
        assert_eq!(one, spec.generate(&options, &|| ()).unwrap());
    }

    #[test]
    fn past_the_optimal_solver_only_inexact_stm_labels() {
        let size: Size = "5x5".parse().unwrap();
        let ask = |exact, metric| {
            DatasetSpec::new(
                2,
                size,
                Goal::RowMajor,
                Scramble::Uniform,
                0,
                metric,
                exact,
                false,
            )
        };
        assert!(matches!(
            ask(true, Metric::Stm),
            Err(DatasetError::NotExact(OptimalSizeError::NeedsBudget(_)))
        ));
        assert_eq!(
            ask(false, Metric::Mtm),
            Err(DatasetError::MultiTileInexact(size))
        );
        let spec = ask(false, Metric::Stm).unwrap();
        let set = spec.generate(&SolveOptions::default(), &|| ()).unwrap();
        assert!(!set.optimal);
        for (i, distance) in set.distances.iter().enumerate() {
            let moves = slide::FastSolver::default()
                .solve(&spec.position(i), &spec.goal)
                .unwrap();
            assert_eq!(*distance as usize, moves.0.len());
        }
    }

    #[test]
    fn labels_past_a_byte_are_refused() {
        let wide = DatasetSpec::new(
            1,
            "17x16".parse().unwrap(),
            Goal::RowMajor,
            Scramble::Uniform,
            0,
            Metric::Stm,
            false,
            false,
        );
        assert!(matches!(wide, Err(DatasetError::WideLabels(_))));
    }
}
