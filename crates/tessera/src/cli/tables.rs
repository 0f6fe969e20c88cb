//! The table options of the solving commands, and a progress bar for the
//! builds. The cache itself is `play::tables`, shared with the servers.

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use play::tables::{Colouring, Preparation, Progress, TableConfig};
use slide::solver::BuildProgress;
use slide::solver::{
    dual_sets, ColourTable, Lookups, BOUNDED_MAX_CELLS, FULL_TABLE_MAX_CELLS, OPTIMAL_MAX_CELLS,
};
use slide::Goal;
use slide::{required_patterns, Databases, HeuristicKind, Metric, PatternSpec, Size};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::Failure;

/// Which tables the optimal solver uses and where they are kept.
#[derive(Args, Clone)]
pub struct TableArgs {
    /// Lower bound of the table-driven searches: auto (the large set when
    /// it is cached or builds in seconds, as everywhere but 4x4 and 5x5,
    /// else the small one: a solve never waits minutes for a build), large
    /// (7-8 pattern databases on 4x4, 288 MB, built once in about two
    /// minutes; 6-6-6-6 on 5x5, 128 MB; `tessera slide tables build
    /// --size N` builds them), small (6-6-3 on 4x4, 3 MB, built in about a
    /// second; 5-5-5-5-4 on 5x5, seconds) or manhattan (none).
    #[arg(long, default_value = "auto", value_parser = parse_choice)]
    pub heuristic: Choice,
    /// Which positions IDA* looks up: regular (the position and its
    /// reflection; fastest) or dual (also the dual position and its
    /// reflection, Zahavi et al.: about half the nodes, each dearer). On
    /// 4x4 with the large set, dual adds three 7-tile tables (87 MB, built
    /// once); on 5x5 it needs none.
    #[arg(long, default_value = "regular", value_parser = parse_lookups)]
    pub lookups: Lookups,
    /// Directory of the pattern-database cache [default: $XDG_CACHE_HOME/tessera].
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
    /// What `auto` came to for each board (size, goal blank): decided once,
    /// so the tables prepared are the tables searched with.
    #[arg(skip)]
    resolved: Arc<Mutex<HashMap<(Size, usize), HeuristicKind>>>,
}

/// Sets of at most this many entries build in seconds (5x5's 5-5-5-5-4
/// set, 32 M, in 4 s), so `auto` builds them rather than fall back; 4x4's
/// 7-8 set is 577 M, 5x5's 6-6-6-6 set 255 M.
const QUICK_BUILD_ENTRIES: usize = 100_000_000;

/// A set of tables, or the strongest one ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The large set if cached or quick to build, else the small one.
    Auto,
    /// This set (built if it is not cached).
    Kind(HeuristicKind),
}

fn parse_choice(s: &str) -> Result<Choice, String> {
    if s.trim().eq_ignore_ascii_case("auto") {
        return Ok(Choice::Auto);
    }
    s.parse()
        .map(Choice::Kind)
        .map_err(|e: slide::solver::HeuristicError| {
            format!("{e}, or auto (large if cached or quick to build, else small)")
        })
}

fn parse_lookups(s: &str) -> Result<Lookups, String> {
    s.parse()
        .map_err(|e: slide::solver::LookupsError| e.to_string())
}

impl TableArgs {
    /// The cache of `kind`'s tables.
    pub fn config(&self, heuristic: HeuristicKind) -> TableConfig {
        TableConfig {
            heuristic,
            cache_dir: self.cache_dir.clone(),
        }
    }

    /// The set used on boards of `size` towards a goal blank at
    /// `goal_blank`: the one asked for, or for `auto` the large set when
    /// its files are all in the cache or it builds in seconds (at most
    /// [`QUICK_BUILD_ENTRIES`]: every board but 4x4), else the small one.
    pub fn kind(&self, size: Size, goal_blank: usize) -> HeuristicKind {
        let Choice::Kind(kind) = self.heuristic else {
            let mut resolved = self
                .resolved
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            return *resolved.entry((size, goal_blank)).or_insert_with(|| {
                let large = required_patterns(size, goal_blank, HeuristicKind::Large);
                let entries: usize = large.iter().map(PatternSpec::entries).sum();
                if entries <= QUICK_BUILD_ENTRIES
                    || self.config(HeuristicKind::Large).is_cached(size, goal_blank)
                {
                    return HeuristicKind::Large;
                }
                let stronger = large != required_patterns(size, goal_blank, HeuristicKind::Small);
                if stronger && size.cells() > OPTIMAL_MAX_CELLS {
                    // Beyond 4x4 every solve here is bounded, and what the
                    // tables change is the length of its answer: say so
                    // wherever stderr goes.
                    eprintln!(
                        "tessera: the large tables for {size} are not built, so this bounded solve uses the small ones and its answers are longer; `tessera slide tables build --size {size}` builds them once (under a minute), and answers are then shorter"
                    );
                } else if stronger && std::io::stderr().is_terminal() {
                    eprintln!(
                        "tessera: using the small tables for {size}; `tessera slide tables build --size {size}` builds the large ones once (minutes), and solves are then several times faster"
                    );
                }
                HeuristicKind::Small
            });
        };
        kind
    }

    /// The set to build ahead of time (`tables build`, `bench tables`):
    /// the one asked for, the large one for `auto`.
    pub fn to_build(&self) -> HeuristicKind {
        match self.heuristic {
            Choice::Auto => HeuristicKind::Large,
            Choice::Kind(kind) => kind,
        }
    }

    /// Prepares the tables for `size` and a goal blank at `goal_blank`
    /// (see [`TableArgs::kind`]), showing a bar for any that must be built.
    pub fn prepare(&self, size: Size, goal_blank: usize, databases: &Databases) -> Preparation {
        self.prepare_set(self.kind(size, goal_blank), size, goal_blank, databases)
    }

    /// Prepares what a solve in `metric` reads: for the multi-tile metric
    /// on boards of 11 to 16 cells the colouring table alone, else
    /// [`TableArgs::prepare`]'s tables. A `budgeted` solve (a time or node
    /// limit) does not wait for a colouring table that takes long to build
    /// (4x4: about 26 s of CPU): it searches with the pattern databases
    /// within its budget, and stderr says how to build the table.
    pub fn prepare_for(
        &self,
        metric: Metric,
        size: Size,
        goal_blank: usize,
        databases: &Databases,
        budgeted: bool,
    ) -> Preparation {
        // A search asked for by its heuristic (`--heuristic manhattan`)
        // reads no table: the colouring one is neither loaded nor built.
        let named = matches!(self.heuristic, Choice::Kind(HeuristicKind::Manhattan));
        if metric == Metric::Mtm
            && !named
            && size.cells() > FULL_TABLE_MAX_CELLS
            && ColourTable::entries_for(size, goal_blank).is_some()
        {
            let config = self.config(HeuristicKind::Small);
            let slow = !ColourTable::is_quick(size, goal_blank)
                && !config.is_colouring_cached(size, goal_blank);
            if !(budgeted && slow) {
                return config.prepare_colouring(
                    Colouring { size, goal_blank },
                    databases,
                    &mut BuildBar(None),
                );
            }
            eprintln!(
                "tessera: the multi-tile table for {size} is not built, so this solve searches without it within its limit and may not prove its answer shortest; `tessera slide tables build --size {size} --metric mtm` builds it once (about half a minute)"
            );
        }
        self.prepare(size, goal_blank, databases)
    }

    /// Prepares `kind`'s tables, and with `--lookups dual` the sets the
    /// dual lookups read (loaded or built like the others).
    fn prepare_set(
        &self,
        kind: HeuristicKind,
        size: Size,
        goal_blank: usize,
        databases: &Databases,
    ) -> Preparation {
        let mut sets = vec![(goal_blank, kind)];
        if self.lookups == Lookups::Dual {
            sets.extend(dual_sets(size, kind));
        }
        let mut report = Preparation::default();
        for (blank, kind) in sets {
            let more = self
                .config(kind)
                .prepare(size, blank, databases, &mut BuildBar(None));
            report.built += more.built;
            report.loaded += more.loaded;
            report.bytes_on_disk += more.bytes_on_disk;
            report.bytes_in_memory += more.bytes_in_memory;
        }
        report
    }
}

/// A bar on stderr for each table built, or a line when stderr is no
/// terminal, so the user knows why the first solve is slow.
struct BuildBar(Option<ProgressBar>);

impl Progress for BuildBar {
    fn building(&mut self, spec: &PatternSpec) {
        self.0 = progress_bar(spec.entries() as u64, &format!("building {spec}"));
        if self.0.is_none() {
            eprintln!("tessera: building pattern database {spec} (once; it is then cached)");
        }
    }

    fn advanced(&mut self, p: BuildProgress) {
        if let Some(bar) = &self.0 {
            bar.set_position(p.filled);
            bar.set_message(format!("depth {}", p.depth));
        }
    }

    fn built(&mut self) {
        if let Some(bar) = self.0.take() {
            bar.finish_and_clear();
        }
    }

    fn warn(&mut self, message: &str) {
        eprintln!("tessera: {message}");
    }

    fn waiting(&mut self, spec: &PatternSpec) {
        eprintln!("tessera: another process is building pattern database {spec}; waiting for it");
    }

    fn building_colouring(&mut self, size: Size, entries: u64) {
        self.0 = progress_bar(entries, &format!("building the {size} MTM colouring table"));
        if self.0.is_none() {
            eprintln!(
                "tessera: building the {size} multi-tile colouring table (once; it is then cached)"
            );
        }
    }
}

/// A bar on stderr when it is a terminal, else nothing.
pub fn progress_bar(length: u64, message: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(length);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:40}] {percent}% {msg} ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(message.to_string());
    Some(bar)
}

/// `tessera slide tables`: the optimal solver's pattern databases, built
/// ahead of time, listed, or removed.
#[derive(Subcommand)]
pub enum TablesCommand {
    /// Build (or load) the tables a board size and goal need, with a
    /// progress bar, and say what it cost.
    #[command(after_help = examples!(
        "tessera slide tables build --size 3x4 --heuristic small",
        "tessera slide tables build --size 4x4 --heuristic small --cache-dir ./tables",
        "tessera slide tables build --size 4x4 --metric mtm",
    ))]
    Build(BuildArgs),
    /// List the cached tables: where, which and how big.
    #[command(after_help = examples!(
        "tessera slide tables status",
        "tessera slide tables status --cache-dir ./tables",
    ))]
    Status(DirArgs),
    /// Remove the cached tables.
    #[command(after_help = examples!("tessera slide tables clear --cache-dir ./tables"))]
    Clear(DirArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    #[command(flatten)]
    tables: TableArgs,
    /// Board size, e.g. 4x4, 5x5 or 3x4.
    #[arg(long, default_value = "4x4")]
    size: Size,
    /// The goal whose blank cell the tables are for (row-major, blank-first, …).
    #[arg(long, default_value = "row-major")]
    goal: Goal,
    /// stm: the pattern databases of --heuristic; mtm: the multi-tile
    /// metric's colouring table (4x4: 38 MB, built once in well under a
    /// minute).
    #[arg(long, default_value = "stm", value_parser = super::parse_metric)]
    metric: Metric,
}

#[derive(Args)]
pub struct DirArgs {
    /// Directory of the pattern-database cache [default: $XDG_CACHE_HOME/tessera].
    #[arg(long)]
    cache_dir: Option<PathBuf>,
}

impl DirArgs {
    fn dir(&self) -> Result<PathBuf, Failure> {
        self.cache_dir
            .clone()
            .or_else(play::tables::default_cache_dir)
            .ok_or_else(|| {
                Failure::input("no cache directory: set --cache-dir, XDG_CACHE_HOME or HOME")
            })
    }
}

pub fn run(command: TablesCommand) -> Result<(), Failure> {
    match command {
        TablesCommand::Build(args) => build(&args),
        TablesCommand::Status(args) => status(&args),
        TablesCommand::Clear(args) => {
            let dir = args.dir()?;
            let (tables, bytes) = play::tables::clear(&dir)?;
            outln!(
                "removed {tables} tables ({}) from {}",
                megabytes(bytes),
                dir.display()
            );
            Ok(())
        }
    }
}

fn build(args: &BuildArgs) -> Result<(), Failure> {
    if args.size.cells() > BOUNDED_MAX_CELLS {
        // Nothing would be built, and "built in 0.0 s, 0.0 MB" would read
        // as success.
        return Err(Failure::input(format!(
            "{} has no tables: the optimal solver takes boards of up to {BOUNDED_MAX_CELLS} cells (5x5, 3x8, …); larger boards are solved with --fast, which needs none",
            args.size
        )));
    }
    let goal = args.goal.position(args.size).map_err(Failure::input)?;
    if args.metric == Metric::Mtm {
        if args.size.cells() <= FULL_TABLE_MAX_CELLS
            || ColourTable::entries_for(args.size, goal.blank()).is_none()
        {
            return Err(Failure::input(format!(
                "{} has no multi-tile colouring table: boards of 11 to 16 cells have one (4x4, 3x4, …); smaller ones walk a complete table built in moments",
                args.size
            )));
        }
        let report = args.tables.prepare_for(
            Metric::Mtm,
            args.size,
            goal.blank(),
            &Databases::new(),
            false,
        );
        return say_cost(args, "MTM colouring table", &report);
    }
    let report = args.tables.prepare_set(
        args.tables.to_build(),
        args.size,
        goal.blank(),
        &Databases::new(),
    );
    say_cost(args, "tables", &report)
}

/// What building (or loading) the board's `what` cost, in time and space.
fn say_cost(args: &BuildArgs, what: &str, report: &Preparation) -> Result<(), Failure> {
    outln!(
        "{} {} {what}: built in {:.1} s, loaded in {:.1} s, {} on disk, {} in memory",
        args.size,
        args.goal,
        report.built.as_secs_f64(),
        report.loaded.as_secs_f64(),
        megabytes(report.bytes_on_disk),
        megabytes(report.bytes_in_memory),
    );
    Ok(())
}

fn status(args: &DirArgs) -> Result<(), Failure> {
    let dir = args.dir()?;
    let tables = play::tables::cached(&dir)?;
    for table in &tables {
        outln!("{:>10}  {}", megabytes(table.bytes), table.name);
    }
    let total: u64 = tables.iter().map(|t| t.bytes).sum();
    outln!(
        "{} tables, {} in {}",
        tables.len(),
        megabytes(total),
        dir.display()
    );
    // Whether the 4x4 and 5x5 sets are complete: what `--heuristic auto`
    // and the servers go by (one set serves every goal with the blank in a
    // corner).
    for (side, kind, name) in [
        (4, HeuristicKind::Small, "small (6-6-3)"),
        (4, HeuristicKind::Large, "large (7-8)"),
        (5, HeuristicKind::Small, "small (5-5-5-5-4)"),
        (5, HeuristicKind::Large, "large (6-6-6-6)"),
    ] {
        let size = Size::square(side).expect("a square board");
        let config = TableConfig {
            heuristic: kind,
            cache_dir: Some(dir.clone()),
        };
        let state = if config.is_cached(size, size.cells() - 1) {
            "complete"
        } else {
            "not built"
        };
        outln!("{size} {name} set, blank in a corner: {state}");
    }
    // The 4x4 dual lookups read the large set around every blank cell.
    let size = Size::square(4).expect("a square board");
    let dual = dual_sets(size, HeuristicKind::Large)
        .iter()
        .all(|&(blank, kind)| {
            let config = TableConfig {
                heuristic: kind,
                cache_dir: Some(dir.clone()),
            };
            config.is_cached(size, blank)
        });
    let state = if dual { "complete" } else { "not built" };
    outln!("{size} large (7-8) set for --lookups dual: {state}");
    // The multi-tile metric's colouring table, for the row-major goal.
    let config = TableConfig {
        heuristic: HeuristicKind::Small,
        cache_dir: Some(dir.clone()),
    };
    let state = if config.is_colouring_cached(size, size.cells() - 1) {
        "complete"
    } else {
        "not built (`tessera slide tables build --metric mtm`)"
    };
    outln!("{size} MTM colouring table, row-major goal: {state}");
    Ok(())
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}
