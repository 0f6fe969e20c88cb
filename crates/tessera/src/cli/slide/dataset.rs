//! `tessera slide dataset`: a labelled data set written as a NumPy `.npz`
//! file. The rows and labels are `play`'s (`DatasetSpec`), the same as the
//! Python package's `tessera.slide.dataset`; this module reads the flags,
//! shows progress and writes the arrays.

use super::board::Board;
use crate::cli::tables::{progress_bar, TableArgs};
use crate::cli::Failure;
use clap::Args;
use ndarray::{Array1, Array2};
use ndarray_npy::NpzWriter;
use play::slide_game::{DatasetError, DatasetSpec, GoalChoice, LabelError};
use slide::{Databases, Metric, Scramble, SolveOptions};
use std::path::PathBuf;

#[derive(Args)]
#[command(after_help = "Examples:
  tessera slide dataset --size 3x3 --count 1000 --seed 0 -o 3x3.npz
  tessera slide dataset --size 4x4 --count 100 --scramble walk:20 --first-moves -o near.npz
  tessera slide dataset --size 6x6 --count 20 --inexact -o 6x6.npz

In Python: d = numpy.load(\"3x3.npz\"); d[\"positions\"], d[\"distances\"], d[\"optimal\"]")]
pub struct DatasetArgs {
    #[command(flatten)]
    board: Board,
    /// How many puzzles: row i is the one seed SEED + i deals (`tessera
    /// slide new --seed SEED --count N`).
    #[arg(long)]
    count: usize,
    /// The first row's seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// uniform (uniformly random among solvable positions) or walk:K (K
    /// random moves from the goal).
    #[arg(long, default_value = "uniform", value_parser = super::board::parse_scramble)]
    scramble: Scramble,
    /// The metric of the distances: stm (single-tile moves) or mtm
    /// (multi-tile moves).
    #[arg(long, default_value = "stm", value_parser = crate::cli::parse_metric)]
    metric: Metric,
    /// Past 16 cells, label with the fast solver's lengths: upper bounds,
    /// marked false in `optimal` (stm only). Without it such boards are
    /// refused.
    #[arg(long)]
    inexact: bool,
    /// Also write `first_moves`: each row's first move (0 1 2 3 for U D L
    /// R, the direction the tile slides; -1 at the goal) of the solution
    /// labelled.
    #[arg(long)]
    first_moves: bool,
    /// Label this many positions at once [default: one per core].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    #[command(flatten)]
    tables: TableArgs,
    /// The .npz file to write: `positions` (count, cells) uint8,
    /// `distances` (count,) int32, `optimal` (count,) bool and with
    /// --first-moves `first_moves` (count,) int8.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn dataset(args: DatasetArgs) -> Result<(), Failure> {
    if !args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npz"))
    {
        return Err(Failure::input(format!(
            "--output {} must end in .npz (NumPy's archive of arrays)",
            args.output.display()
        )));
    }
    let spec = args.board.spec()?;
    let GoalChoice::Goal(goal) = spec.goal else {
        return Err(Failure::input(
            "--goal missing draws a number for each puzzle, and a data set has one goal: say missing:K",
        ));
    };
    let spec = DatasetSpec::new(
        args.count,
        spec.size,
        goal,
        args.scramble,
        args.seed,
        args.metric,
        !args.inexact,
        args.first_moves,
    )
    .map_err(|e| match e {
        DatasetError::NotExact(e) => Failure::input(format!(
            "{e}; --inexact labels with the fast solver's upper bounds"
        )),
        DatasetError::MultiTileInexact(_) => Failure::input(format!("{e}: use --metric stm")),
        e => Failure::input(e),
    })?;
    let (size, blank) = (spec.size(), spec.goal.blank());
    let databases = Databases::new();
    let mut options = SolveOptions {
        databases: Some(&databases),
        lookups: args.tables.lookups,
        ..SolveOptions::default()
    };
    // The fast solver, past the optimal one, reads no tables.
    if spec.optimal {
        args.tables
            .prepare_for(args.metric, size, blank, &databases, false);
        options.heuristic = args.tables.kind(size, blank);
    }
    let bar = progress_bar(args.count as u64, &format!("labelling {size}"));
    let pool = crate::cli::pool(crate::cli::jobs_or_cores(args.jobs))?;
    let labelled = pool.install(|| {
        spec.generate(&options, &|| {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        })
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let set = labelled.map_err(|e| match e {
        LabelError::Stopped => Failure::Other("stopped".to_string()),
        LabelError::Refused(e) => Failure::Other(e),
    })?;
    write(&args.output, set)
        .map_err(|e| Failure::Other(format!("cannot write {}: {e}", args.output.display())))
}

/// Writes the arrays as NumPy's `savez` would (stored, not compressed; the
/// zip entries carry a fixed date, so a seed gives the same file byte for
/// byte).
fn write(path: &std::path::Path, set: play::slide_game::Dataset) -> Result<(), String> {
    let count = set.distances.len();
    let positions =
        Array2::from_shape_vec((count, set.cells), set.positions).map_err(|e| e.to_string())?;
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut npz = NpzWriter::new(std::io::BufWriter::new(file));
    let fail = |e: ndarray_npy::WriteNpzError| e.to_string();
    npz.add_array("positions", &positions).map_err(fail)?;
    npz.add_array("distances", &Array1::from(set.distances))
        .map_err(fail)?;
    npz.add_array("optimal", &Array1::from_elem(count, set.optimal))
        .map_err(fail)?;
    if let Some(firsts) = set.first_moves {
        npz.add_array("first_moves", &Array1::from(firsts))
            .map_err(fail)?;
    }
    npz.finish().map_err(fail)?;
    Ok(())
}
