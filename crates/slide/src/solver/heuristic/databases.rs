//! The pattern databases and colour tables loaded so far, shared by searches.

use super::*;

/// Pattern databases by pattern, shared by the searches that need them.
///
/// The solver asks for a database and builds it if it is missing; a front
/// end that caches databases on disk [`insert`](Self::insert)s them first.
#[derive(Default)]
pub struct Databases {
    pub(super) map: Mutex<HashMap<PatternSpec, Arc<OnceLock<Arc<PatternDatabase>>>>>,
    /// The multi-tile metric's colouring tables, by shape and goal blank
    /// (`None` for a board that has none).
    pub(super) colourings: Mutex<HashMap<(Size, usize), ColourSlot>>,
}

pub(super) type ColourSlot = Arc<OnceLock<Option<Arc<ColourTable>>>>;

pub(super) static GLOBAL: OnceLock<Databases> = OnceLock::new();

impl Databases {
    /// An empty set of tables.
    pub fn new() -> Databases {
        Databases::default()
    }

    /// The process-wide set used when a caller passes none: a memo of pure
    /// results (a database is a function of its pattern), so every solve in
    /// the process builds each database at most once.
    pub fn global() -> &'static Databases {
        GLOBAL.get_or_init(Databases::new)
    }

    pub(super) fn slot(&self, spec: &PatternSpec) -> Arc<OnceLock<Arc<PatternDatabase>>> {
        let mut map = self
            .map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.entry(spec.clone()).or_default().clone()
    }

    /// Adds a database (e.g. loaded from disk); an existing one is kept.
    pub fn insert(&self, database: PatternDatabase) {
        let spec = database.spec().clone();
        let _ = self.slot(&spec).set(Arc::new(database));
    }

    /// Whether the table for `spec` is loaded.
    pub fn contains(&self, spec: &PatternSpec) -> bool {
        self.slot(spec).get().is_some()
    }

    pub(super) fn colour_slot(&self, size: Size, goal_blank: usize) -> ColourSlot {
        let mut map = self
            .colourings
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.entry((size, goal_blank)).or_default().clone()
    }

    /// Adds a multi-tile colouring table (e.g. loaded from disk); an
    /// existing one is kept.
    pub fn insert_colouring(&self, table: ColourTable) {
        let slot = self.colour_slot(table.size(), table.goal_blank());
        let _ = slot.set(Some(Arc::new(table)));
    }

    /// The colouring table for `size` and `goal_blank` if it is loaded.
    pub fn colouring(&self, size: Size, goal_blank: usize) -> Option<Arc<ColourTable>> {
        self.colour_slot(size, goal_blank).get().cloned().flatten()
    }

    /// The colouring table for `size` and `goal_blank`, built now if
    /// missing; `None` for a board that has none.
    pub fn colouring_or_build(&self, size: Size, goal_blank: usize) -> Option<Arc<ColourTable>> {
        self.colour_slot(size, goal_blank)
            .get_or_init(|| ColourTable::build(size, goal_blank, &mut |_| {}).map(Arc::new))
            .clone()
    }

    /// The database for `spec`, built now if missing.
    pub fn get_or_build(&self, spec: &PatternSpec) -> Arc<PatternDatabase> {
        self.slot(spec)
            .get_or_init(|| Arc::new(PatternDatabase::build(spec, &mut |_| {})))
            .clone()
    }
}
