//! Pattern databases on disk: the engine builds and validates them, the
//! front end keeps them in `$XDG_CACHE_HOME/tessera` (or `--cache-dir`) so
//! the minutes of building happen once per machine.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use slide::solver::{required_patterns, BuildProgress, DistanceTable, FULL_TABLE_MAX_CELLS};
use slide::{Databases, HeuristicKind, PatternDatabase, PatternSpec, Size};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Which tables the optimal solver uses and where they are kept.
#[derive(Args, Clone)]
pub struct TableArgs {
    /// Lower bound for 12–16-cell boards: large (7-8 pattern databases on
    /// 4x4, ~575 MB, built once in minutes), small (6-6-3, a few MB) or
    /// manhattan (no tables).
    #[arg(long, default_value = "large", value_parser = parse_heuristic)]
    pub heuristic: HeuristicKind,
    /// Directory of the pattern-database cache [default: $XDG_CACHE_HOME/tessera].
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
}

fn parse_heuristic(s: &str) -> Result<HeuristicKind, String> {
    s.parse()
        .map_err(|e: slide::solver::HeuristicError| e.to_string())
}

/// What preparing the tables cost.
#[derive(Default, Clone, Copy)]
pub struct Preparation {
    pub built: Duration,
    pub loaded: Duration,
    pub bytes_on_disk: u64,
    pub bytes_in_memory: u64,
}

impl TableArgs {
    fn cache_dir(&self) -> Option<PathBuf> {
        self.cache_dir.clone().or_else(|| {
            let base = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
            Some(base.join("tessera"))
        })
    }

    /// Makes sure every table solving `size` towards a goal blank at
    /// `goal_blank` needs is in `databases`: from the cache if a valid file
    /// is there, otherwise built (with a progress bar) and saved.
    pub fn prepare(&self, size: Size, goal_blank: usize, databases: &Databases) -> Preparation {
        let mut report = Preparation::default();
        if size.cells() <= FULL_TABLE_MAX_CELLS {
            let start = Instant::now();
            let table = DistanceTable::get(size, goal_blank);
            report.built = start.elapsed();
            report.bytes_in_memory = table.memory() as u64;
            return report;
        }
        if size.cells() > slide::solver::BOUNDED_MAX_CELLS {
            return report;
        }
        for spec in required_patterns(size, goal_blank, self.heuristic) {
            if databases.contains(&spec) {
                continue;
            }
            let database = match self.load(&spec, &mut report) {
                Some(database) => database,
                None => self.build(&spec, &mut report),
            };
            report.bytes_in_memory += database.memory() as u64;
            databases.insert(database);
        }
        report
    }

    fn load(&self, spec: &PatternSpec, report: &mut Preparation) -> Option<PatternDatabase> {
        let path = self.cache_dir()?.join(spec.file_name());
        let start = Instant::now();
        let bytes = std::fs::read(&path).ok()?;
        let length = bytes.len() as u64;
        match PatternDatabase::from_bytes(spec, bytes) {
            Ok(database) => {
                report.loaded += start.elapsed();
                report.bytes_on_disk += length;
                Some(database)
            }
            Err(e) => {
                eprintln!("tessera: {}: {e}; rebuilding it", path.display());
                None
            }
        }
    }

    fn build(&self, spec: &PatternSpec, report: &mut Preparation) -> PatternDatabase {
        let bar = progress_bar(spec.entries() as u64, &format!("building {spec}"));
        let start = Instant::now();
        let database = PatternDatabase::build(spec, &mut |p: BuildProgress| {
            if let Some(bar) = &bar {
                bar.set_position(p.filled);
                bar.set_message(format!("depth {}", p.depth));
            }
        });
        report.built += start.elapsed();
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        if let Some(dir) = self.cache_dir() {
            match save(&dir, spec, &database) {
                Ok(length) => report.bytes_on_disk += length,
                Err(e) => eprintln!(
                    "tessera: cannot cache the table in {}: {e} (it will be rebuilt next time)",
                    dir.display()
                ),
            }
        }
        database
    }
}

/// Writes to a temporary name then renames, so a reader never sees half a
/// file (and an interrupted write leaves no file to distrust).
fn save(
    dir: &std::path::Path,
    spec: &PatternSpec,
    database: &PatternDatabase,
) -> std::io::Result<u64> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(spec.file_name());
    let temporary = dir.join(format!("{}.{}.tmp", spec.file_name(), std::process::id()));
    let bytes = database.to_bytes();
    std::fs::write(&temporary, &bytes)?;
    std::fs::rename(&temporary, &path)?;
    Ok(bytes.len() as u64)
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
