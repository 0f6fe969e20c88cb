//! The optimal solver's pattern databases on disk.
//!
//! The engine builds and validates tables but does no I/O; this module
//! keeps them in a cache directory (`$XDG_CACHE_HOME/tessera` unless told
//! otherwise) so that the building happens once per machine, whichever
//! front end asks first. Progress is reported through [`Progress`], which
//! the command line draws as a bar and the servers ignore.

use slide::solver::{required_patterns, BuildProgress, DistanceTable, FULL_TABLE_MAX_CELLS};
use slide::{Databases, HeuristicKind, PatternDatabase, PatternSpec, Size};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Which tables the optimal solver uses and where they are kept.
#[derive(Clone, Debug, Default)]
pub struct TableConfig {
    /// The lower bound for boards of 12 to 16 cells.
    pub heuristic: HeuristicKind,
    /// The cache directory; [`default_cache_dir`] when `None`.
    pub cache_dir: Option<PathBuf>,
}

/// What happens while tables are prepared: told when a table starts
/// building and how far it has got. The default does nothing.
pub trait Progress {
    /// A table is about to be built (it was not in the cache).
    fn building(&mut self, _spec: &PatternSpec) {}
    /// The build of the current table has filled `progress.filled` entries.
    fn advanced(&mut self, _progress: BuildProgress) {}
    /// The current table is built.
    fn built(&mut self) {}
    /// A cached file was unreadable or could not be written.
    fn warn(&mut self, _message: &str) {}
}

/// Progress that nobody watches.
pub struct Quiet;

impl Progress for Quiet {}

/// What preparing the tables cost.
#[derive(Default, Clone, Copy, Debug)]
pub struct Preparation {
    /// Time spent building tables that were not cached.
    pub built: Duration,
    /// Time spent loading cached tables.
    pub loaded: Duration,
    /// Bytes of the cached files read or written.
    pub bytes_on_disk: u64,
    /// Bytes the prepared tables occupy in memory.
    pub bytes_in_memory: u64,
}

/// `$XDG_CACHE_HOME/tessera`, else `~/.cache/tessera`; `None` when neither
/// variable is set (nothing is cached then).
pub fn default_cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("tessera"))
}

impl TableConfig {
    /// The directory tables are cached in, if any.
    pub fn cache_dir(&self) -> Option<PathBuf> {
        self.cache_dir.clone().or_else(default_cache_dir)
    }

    /// Makes sure every table solving `size` towards a goal blank at
    /// `goal_blank` needs is in `databases`: from the cache if a valid file
    /// is there, otherwise built and saved.
    pub fn prepare(
        &self,
        size: Size,
        goal_blank: usize,
        databases: &Databases,
        progress: &mut dyn Progress,
    ) -> Preparation {
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
            let database = match self.load(&spec, &mut report, progress) {
                Some(database) => database,
                None => self.build(&spec, &mut report, progress),
            };
            report.bytes_in_memory += database.memory() as u64;
            databases.insert(database);
        }
        report
    }

    fn load(
        &self,
        spec: &PatternSpec,
        report: &mut Preparation,
        progress: &mut dyn Progress,
    ) -> Option<PatternDatabase> {
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
                progress.warn(&format!("{}: {e}; rebuilding it", path.display()));
                None
            }
        }
    }

    fn build(
        &self,
        spec: &PatternSpec,
        report: &mut Preparation,
        progress: &mut dyn Progress,
    ) -> PatternDatabase {
        progress.building(spec);
        let start = Instant::now();
        let database = PatternDatabase::build(spec, &mut |p: BuildProgress| progress.advanced(p));
        report.built += start.elapsed();
        progress.built();
        if let Some(dir) = self.cache_dir() {
            match save(&dir, spec, &database) {
                Ok(length) => report.bytes_on_disk += length,
                Err(e) => progress.warn(&format!(
                    "cannot cache the table in {}: {e} (it will be rebuilt next time)",
                    dir.display()
                )),
            }
        }
        database
    }
}

/// Writes to a temporary name then renames, so a reader never sees half a
/// file (and an interrupted write leaves no file to distrust).
fn save(dir: &Path, spec: &PatternSpec, database: &PatternDatabase) -> std::io::Result<u64> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(spec.file_name());
    let temporary = dir.join(format!("{}.{}.tmp", spec.file_name(), std::process::id()));
    let bytes = database.to_bytes();
    std::fs::write(&temporary, &bytes)?;
    std::fs::rename(&temporary, &path)?;
    Ok(bytes.len() as u64)
}
