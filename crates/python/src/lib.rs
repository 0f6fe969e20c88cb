//! The tessera engines as a Python package: `tessera.slide` (the sliding
//! puzzle) and `tessera.shisen` (Shisen-Sho).
//!
//! Nothing here decides a rule: positions, boards, solvers, table caches
//! and deals are the engines' and `play`'s. This crate converts Python
//! values at the edge into their validated types, turns their errors into
//! `ValueError`s carrying the engine's message, and runs long searches
//! with the GIL released and Ctrl-C honoured ([`interrupt`]).

use pyo3::prelude::*;

mod batch;
mod frames;
mod interrupt;
mod shisen_module;
mod slide_module;
mod streams;
mod vector;

/// The extension module; the Python package `tessera` re-exports its
/// submodules as `tessera.slide` and `tessera.shisen`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // Named as the package re-exports them, so that functions report the
    // module users import them from (doctest finds them there too).
    let slide = PyModule::new(py, "tessera.slide")?;
    slide_module::register(&slide)?;
    batch::register(&slide)?;
    frames::register(&slide)?;
    m.add_submodule(&slide)?;
    let shisen = PyModule::new(py, "tessera.shisen")?;
    shisen_module::register(&shisen)?;
    m.add_submodule(&shisen)?;
    batch::register_private(m)?;
    streams::register_private(m)?;
    vector::register_private(m)?;
    Ok(())
}

/// A `ValueError` carrying an engine's message.
fn value_error(message: impl std::fmt::Display) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(message.to_string())
}

/// A time limit in seconds, checked: positive and finite.
fn seconds(limit: Option<f64>) -> PyResult<Option<std::time::Duration>> {
    match limit {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 => Ok(Some(std::time::Duration::from_secs_f64(s))),
        Some(s) => Err(value_error(format!(
            "time_limit must be a positive number of seconds, not {s}"
        ))),
    }
}
