//! The optimal solver's pattern databases on disk.
//!
//! The engine builds and validates tables but does no I/O; this module
//! keeps them in a cache directory (`$XDG_CACHE_HOME/tessera` unless told
//! otherwise) so that the building happens once per machine, whichever
//! front end asks first. Progress is reported through [`Progress`], which
//! the command line draws as a bar and the servers ignore.

use slide::solver::{
    required_patterns, BuildProgress, ColourTable, DistanceTable, FULL_TABLE_MAX_CELLS,
};
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
    /// Another process is building this table: waiting for it.
    fn waiting(&mut self, _spec: &PatternSpec) {}
    /// The multi-tile metric's colouring table for `size` (`entries`
    /// entries) is about to be built; then `advanced` and `built` as for
    /// a pattern database.
    fn building_colouring(&mut self, _size: Size, _entries: u64) {}
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

/// A table file in the cache.
#[derive(Clone, Debug)]
pub struct CachedTable {
    /// The file's name: the board size and the pattern's cells
    /// (`4x4-0.1.2.3.4.5.pdb`), or the board size and goal blank of a
    /// multi-tile colouring table (`4x4-mtm-15.mtm`).
    pub name: String,
    /// Its size on disk.
    pub bytes: u64,
}

/// The table files in `dir`, by name; none when the directory does not
/// exist. Lock files and temporary files of builds in progress are not
/// tables.
pub fn cached(dir: &Path) -> std::io::Result<Vec<CachedTable>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut tables = Vec::new();
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let table = name.ends_with(".pdb") || name.ends_with(".mtm");
        if table && entry.file_type()?.is_file() {
            let bytes = entry.metadata()?.len();
            tables.push(CachedTable { name, bytes });
        }
    }
    tables.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tables)
}

/// Removes the cached tables in `dir` and their lock files: the tables and
/// the bytes freed. A table being built elsewhere is written anew when
/// its build ends.
pub fn clear(dir: &Path) -> std::io::Result<(usize, u64)> {
    let tables = cached(dir)?;
    for table in &tables {
        std::fs::remove_file(dir.join(&table.name))?;
        let _ = std::fs::remove_file(dir.join(format!("{}.lock", table.name)));
    }
    Ok((tables.len(), tables.iter().map(|t| t.bytes).sum()))
}

impl TableConfig {
    /// Whether every table this set needs for `size` and a goal blank at
    /// `goal_blank` has a file in the cache (not checked: a damaged one is
    /// rebuilt when loaded).
    pub fn is_cached(&self, size: Size, goal_blank: usize) -> bool {
        let Some(dir) = self.cache_dir() else {
            return false;
        };
        required_patterns(size, goal_blank, self.heuristic)
            .iter()
            .all(|spec| dir.join(spec.file_name()).is_file())
    }

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
        self.prepare_until(size, goal_blank, databases, progress, &|| false)
            .expect("never stopped")
    }

    /// Like [`TableConfig::prepare`], giving up (`None`) once `stop`
    /// returns true: asked between batches of a build and while waiting
    /// for another process's build. A table cut short is neither cached nor
    /// added; those finished before stay.
    pub fn prepare_until(
        &self,
        size: Size,
        goal_blank: usize,
        databases: &Databases,
        progress: &mut dyn Progress,
        stop: &dyn Fn() -> bool,
    ) -> Option<Preparation> {
        let mut report = Preparation::default();
        if size.cells() <= FULL_TABLE_MAX_CELLS {
            let start = Instant::now();
            let table = DistanceTable::get(size, goal_blank);
            report.built = start.elapsed();
            report.bytes_in_memory = table.memory() as u64;
            return Some(report);
        }
        if size.cells() > slide::solver::BOUNDED_MAX_CELLS {
            return Some(report);
        }
        for spec in required_patterns(size, goal_blank, self.heuristic) {
            if databases.contains(&spec) {
                continue;
            }
            let database = self.load_or_build(&spec, &mut report, progress, stop)?;
            report.bytes_in_memory += database.memory() as u64;
            databases.insert(database);
        }
        Some(report)
    }

    /// Whether the multi-tile colouring table for `size` and `goal_blank`
    /// has a file in the cache.
    pub fn is_colouring_cached(&self, size: Size, goal_blank: usize) -> bool {
        self.cache_dir().is_some_and(|dir| {
            dir.join(ColourTable::file_name_for(size, goal_blank))
                .is_file()
        })
    }

    /// Makes sure the multi-tile metric's `colouring` table is in
    /// `databases` when the board has one (11 to 16 cells): from the cache
    /// if a valid file is there, otherwise built (once among the processes
    /// sharing the cache) and saved.
    pub fn prepare_colouring(
        &self,
        colouring: Colouring,
        databases: &Databases,
        progress: &mut dyn Progress,
    ) -> Preparation {
        let mut report = Preparation::default();
        let Colouring { size, goal_blank } = colouring;
        if size.cells() <= FULL_TABLE_MAX_CELLS
            || ColourTable::entries_for(size, goal_blank).is_none()
            || databases.colouring(size, goal_blank).is_some()
        {
            return report;
        }
        let Some(table) = self.load_or_build(&colouring, &mut report, progress, &|| false) else {
            return report;
        };
        report.bytes_in_memory += table.memory() as u64;
        databases.insert_colouring(table);
        report
    }

    /// A table read from the cache, if its file is there and sound; a
    /// damaged one is said to be rebuilt.
    fn load<K: Kept>(
        &self,
        kept: &K,
        report: &mut Preparation,
        progress: &mut dyn Progress,
    ) -> Option<K::Table> {
        let path = self.cache_dir()?.join(kept.file_name());
        let start = Instant::now();
        let bytes = std::fs::read(&path).ok()?;
        let length = bytes.len() as u64;
        match kept.read(bytes) {
            Ok(table) => {
                report.loaded += start.elapsed();
                report.bytes_on_disk += length;
                Some(table)
            }
            Err(e) => {
                progress.warn(&format!("{}: {e}; rebuilding it", path.display()));
                None
            }
        }
    }

    /// A table from the cache if a sound file is there, else built, holding
    /// the cache's lock for it so that of several processes sharing the
    /// directory (server instances on one machine) exactly one builds
    /// while the others wait and then load its file; the one that builds
    /// writes the file. `None` when `stop` cut the wait or the build short.
    fn load_or_build<K: Kept>(
        &self,
        kept: &K,
        report: &mut Preparation,
        progress: &mut dyn Progress,
        stop: &dyn Fn() -> bool,
    ) -> Option<K::Table> {
        if let Some(table) = self.load(kept, report, progress) {
            return Some(table);
        }
        let dir = self.cache_dir();
        // No cache to share (or none writable): built for ourselves.
        let lock = dir
            .as_ref()
            .and_then(|dir| lock_file(dir, &kept.file_name()).ok());
        if let Some(lock) = &lock {
            if let Err(std::fs::TryLockError::WouldBlock) = lock.try_lock() {
                kept.waiting(progress);
                // Polled rather than blocked on, so that `stop` is heard.
                loop {
                    if stop() {
                        return None;
                    }
                    match lock.try_lock() {
                        Err(std::fs::TryLockError::WouldBlock) => std::thread::sleep(LOCK_POLL),
                        Err(std::fs::TryLockError::Error(e)) => {
                            progress.warn(&format!("cannot lock the table cache: {e}"));
                            break;
                        }
                        Ok(()) => break,
                    }
                }
            }
            // Whoever held the lock may have built it meanwhile.
            if let Some(table) = self.load(kept, report, &mut Quiet) {
                let _ = lock.unlock();
                return Some(table);
            }
        }
        let start = Instant::now();
        let table = kept.build(progress, stop);
        report.built += start.elapsed();
        // (Closing the lock's file, as a return does, unlocks it too.)
        let table = table?;
        if let Some(dir) = dir {
            match save(&dir, &kept.file_name(), &K::bytes(&table)) {
                Ok(length) => report.bytes_on_disk += length,
                Err(e) => progress.warn(&format!(
                    "cannot cache the table in {}: {e} (it will be rebuilt next time)",
                    dir.display()
                )),
            }
        }
        if let Some(lock) = lock {
            let _ = lock.unlock();
        }
        Some(table)
    }
}

/// A table the cache keeps, as [`TableConfig`] loads, builds and saves
/// it: a pattern database (its [`PatternSpec`]) or the multi-tile
/// metric's colouring table ([`Colouring`]).
trait Kept {
    type Table;
    /// Its file's name in the cache.
    fn file_name(&self) -> String;
    /// The table a file holds; an error for a stale or damaged one.
    fn read(&self, bytes: Vec<u8>) -> Result<Self::Table, slide::solver::LoadError>;
    /// Builds it, telling `progress` (`None` once `stop` returns true, or
    /// when the board has no such table).
    fn build(&self, progress: &mut dyn Progress, stop: &dyn Fn() -> bool) -> Option<Self::Table>;
    /// What its file holds.
    fn bytes(table: &Self::Table) -> Vec<u8>;
    /// Tells `progress` that another process is building it.
    fn waiting(&self, progress: &mut dyn Progress);
}

impl Kept for PatternSpec {
    type Table = PatternDatabase;
    fn file_name(&self) -> String {
        PatternSpec::file_name(self)
    }
    fn read(&self, bytes: Vec<u8>) -> Result<PatternDatabase, slide::solver::LoadError> {
        PatternDatabase::from_bytes(self, bytes)
    }
    fn build(
        &self,
        progress: &mut dyn Progress,
        stop: &dyn Fn() -> bool,
    ) -> Option<PatternDatabase> {
        progress.building(self);
        let database =
            PatternDatabase::build_until(self, &mut |p: BuildProgress| progress.advanced(p), stop)?;
        progress.built();
        Some(database)
    }
    fn bytes(table: &PatternDatabase) -> Vec<u8> {
        table.to_bytes()
    }
    fn waiting(&self, progress: &mut dyn Progress) {
        progress.waiting(self);
    }
}

/// The multi-tile metric's colouring table of a board size and goal blank.
#[derive(Clone, Copy, Debug)]
pub struct Colouring {
    /// The board's size.
    pub size: Size,
    /// Where the goal puts the blank.
    pub goal_blank: usize,
}

impl Kept for Colouring {
    type Table = ColourTable;
    fn file_name(&self) -> String {
        ColourTable::file_name_for(self.size, self.goal_blank)
    }
    fn read(&self, bytes: Vec<u8>) -> Result<ColourTable, slide::solver::LoadError> {
        ColourTable::from_bytes(self.size, self.goal_blank, &bytes)
    }
    /// Not stopped: it is built whole.
    fn build(&self, progress: &mut dyn Progress, _stop: &dyn Fn() -> bool) -> Option<ColourTable> {
        let entries = ColourTable::entries_for(self.size, self.goal_blank).unwrap_or(0);
        progress.building_colouring(self.size, entries as u64);
        let table = ColourTable::build(self.size, self.goal_blank, &mut |p| progress.advanced(p));
        progress.built();
        table
    }
    fn bytes(table: &ColourTable) -> Vec<u8> {
        table.to_bytes()
    }
    fn waiting(&self, progress: &mut dyn Progress) {
        progress.warn(&format!(
            "another process is building {}; waiting for it",
            self.file_name()
        ));
    }
}

/// How often a build waiting for another process's checks the lock (and
/// its stop hook).
const LOCK_POLL: Duration = Duration::from_millis(50);

/// The lock file beside a table's file: an advisory lock (flock) that the
/// operating system drops if its holder dies, so a killed builder never
/// blocks the others for good.
fn lock_file(dir: &Path, name: &str) -> std::io::Result<std::fs::File> {
    std::fs::create_dir_all(dir)?;
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(format!("{name}.lock")))
}

/// Writes to a temporary name then renames, so a reader never sees half a
/// file (and an interrupted write leaves no file to distrust).
fn save(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<u64> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(name);
    let temporary = dir.join(format!("{name}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, &path)?;
    Ok(bytes.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// Counts the tables built, across threads.
    struct Counting(Arc<AtomicUsize>);

    impl Progress for Counting {
        fn building(&mut self, _spec: &PatternSpec) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// The 4x3 board the tests build for, its goal's blank, and the small
    /// heuristic's tables kept in an empty cache of its own (`name`).
    fn small_4x3(name: &str) -> (PathBuf, Size, usize, TableConfig) {
        let dir =
            std::env::temp_dir().join(format!("tessera-tables-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let size: Size = "4x3".parse().unwrap();
        let config = TableConfig {
            heuristic: HeuristicKind::Small,
            cache_dir: Some(dir.clone()),
        };
        (dir, size, size.cells() - 1, config)
    }

    #[test]
    fn sharers_of_one_cache_build_each_table_exactly_once() {
        let (dir, size, goal_blank, config) = small_4x3("once");
        let specs = required_patterns(size, goal_blank, HeuristicKind::Small);
        assert!(!specs.is_empty());
        let builds = Arc::new(AtomicUsize::new(0));
        // Separate configs and separate opens of the lock file: to flock
        // these are as separate as processes.
        let sharers: Vec<_> = (0..4)
            .map(|_| {
                let (config, builds) = (config.clone(), builds.clone());
                std::thread::spawn(move || {
                    let databases = Databases::new();
                    config.prepare(size, goal_blank, &databases, &mut Counting(builds));
                    specs_in(&databases, size, goal_blank)
                })
            })
            .collect();
        for sharer in sharers {
            assert_eq!(
                sharer.join().unwrap(),
                specs.len(),
                "every sharer has every table"
            );
        }
        assert_eq!(
            builds.load(Ordering::SeqCst),
            specs.len(),
            "each table built once"
        );
        for spec in &specs {
            assert!(dir.join(spec.file_name()).exists());
        }
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "no temporary file is left: {leftovers:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_stopped_preparation_keeps_the_tables_finished_and_nothing_half_built() {
        let (dir, size, goal_blank, config) = small_4x3("stopped");
        let specs = required_patterns(size, goal_blank, HeuristicKind::Small);
        assert!(specs.len() >= 2, "{specs:?}");
        let databases = Databases::new();
        let builds = Arc::new(AtomicUsize::new(0));
        // Stop as soon as the second table starts building.
        let stop = || builds.load(Ordering::SeqCst) >= 2;
        let mut counting = Counting(builds.clone());
        let stopped = config.prepare_until(size, goal_blank, &databases, &mut counting, &stop);
        assert!(stopped.is_none());
        assert_eq!(builds.load(Ordering::SeqCst), 2);
        assert!(databases.contains(&specs[0]) && !databases.contains(&specs[1]));
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| !name.ends_with(".lock"))
            .collect();
        assert_eq!(
            files,
            [specs[0].file_name()],
            "only the finished table is cached"
        );
        // Asked again without a stop, it builds only what is missing.
        builds.store(0, Ordering::SeqCst);
        config.prepare(size, goal_blank, &databases, &mut Counting(builds.clone()));
        assert_eq!(builds.load(Ordering::SeqCst), specs.len() - 1);
        assert_eq!(specs_in(&databases, size, goal_blank), specs.len());
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn specs_in(databases: &Databases, size: Size, goal_blank: usize) -> usize {
        required_patterns(size, goal_blank, HeuristicKind::Small)
            .iter()
            .filter(|spec| databases.contains(spec))
            .count()
    }

    /// Counts the colouring tables built.
    struct CountingColourings(usize);

    impl Progress for CountingColourings {
        fn building_colouring(&mut self, _size: Size, _entries: u64) {
            self.0 += 1;
        }
    }

    #[test]
    fn the_colouring_table_is_built_once_then_loaded_and_a_damaged_one_rebuilt() {
        let (dir, size, goal_blank, config) = small_4x3("colouring");
        assert!(!config.is_colouring_cached(size, goal_blank));
        let mut builds = CountingColourings(0);
        let databases = Databases::new();
        config.prepare_colouring(Colouring { size, goal_blank }, &databases, &mut builds);
        assert!(databases.colouring(size, goal_blank).is_some());
        assert!(config.is_colouring_cached(size, goal_blank));
        let name = ColourTable::file_name_for(size, goal_blank);
        assert!(cached(&dir).unwrap().iter().any(|t| t.name == name));
        // A second process loads it.
        let databases = Databases::new();
        let report =
            config.prepare_colouring(Colouring { size, goal_blank }, &databases, &mut builds);
        assert_eq!(builds.0, 1, "loaded, not built again");
        assert!(report.bytes_on_disk > 0 && databases.colouring(size, goal_blank).is_some());
        // A truncated file is rebuilt and rewritten whole.
        let path = dir.join(&name);
        let whole = std::fs::read(&path).unwrap();
        std::fs::write(&path, &whole[..whole.len() / 2]).unwrap();
        config.prepare_colouring(
            Colouring { size, goal_blank },
            &Databases::new(),
            &mut builds,
        );
        assert_eq!(builds.0, 2);
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        // Boards with a complete table need none.
        let small: Size = "3x3".parse().unwrap();
        config.prepare_colouring(
            Colouring {
                size: small,
                goal_blank: 8,
            },
            &Databases::new(),
            &mut builds,
        );
        assert_eq!(builds.0, 2);
        assert_eq!(clear(&dir).unwrap().0, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_half_written_table_is_never_used_but_rebuilt() {
        let (dir, size, goal_blank, config) = small_4x3("half");
        config.prepare(size, goal_blank, &Databases::new(), &mut Quiet);
        let spec = &required_patterns(size, goal_blank, HeuristicKind::Small)[0];
        let path = dir.join(spec.file_name());
        let whole = std::fs::read(&path).unwrap();
        std::fs::write(&path, &whole[..whole.len() / 2]).unwrap();
        let builds = Arc::new(AtomicUsize::new(0));
        config.prepare(
            size,
            goal_blank,
            &Databases::new(),
            &mut Counting(builds.clone()),
        );
        assert_eq!(
            builds.load(Ordering::SeqCst),
            1,
            "the truncated table is rebuilt"
        );
        assert_eq!(std::fs::read(&path).unwrap(), whole, "and rewritten whole");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
