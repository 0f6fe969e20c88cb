//! Pictures as NumPy RGB arrays, drawn by the `picture` crate (the same
//! drawings as `tessera slide render` and `tessera shisen render`): the
//! Gymnasium environments' `render()` frames.

use crate::slide_module::{size_of, square_of, GoalArg, Position};
use crate::value_error;
use numpy::{PyArray3, PyReadonlyArray1};
use picture::svg::Style;
use picture::Scheme;
use pyo3::prelude::*;

pub fn register(slide: &Bound<'_, PyModule>) -> PyResult<()> {
    slide.add_function(wrap_pyfunction!(frame, slide)?)
}

/// A position as a caller gives it: a Position, or a row of tiles (an
/// observation).
#[derive(FromPyObject)]
enum Tiles<'py> {
    Position(Position),
    Row(PyReadonlyArray1<'py, u8>),
}

/// The picture of ``position`` (a Position, or a ``uint8`` row of tiles
/// such as an observation, with ``size`` unless the board is square) as
/// ``tessera slide render`` draws it: a ``(height, width, 3)`` ``uint8``
/// RGB array. ``scheme`` colours the tiles (``"plain"``, ``"fringe"``,
/// ``"rows"``, ``"columns"``, ``"gradient"``, by their goal cells);
/// ``numbers=False`` leaves the numbers off.
///
/// >>> from tessera.slide import Position, frame
/// >>> frame(Position.parse("1 2 3/4 5 6/7 0 8")).shape
/// (208, 208, 3)
#[pyfunction]
#[pyo3(
    signature = (position, goal=GoalArg::default(), size=None, scheme="plain", numbers=true),
    text_signature = "(position, goal='row-major', size=None, scheme='plain', numbers=True)"
)]
fn frame<'py>(
    py: Python<'py>,
    position: Tiles<'py>,
    goal: GoalArg,
    size: Option<&Bound<'py, PyAny>>,
    scheme: &str,
    numbers: bool,
) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let position = match position {
        Tiles::Position(p) => p.0,
        Tiles::Row(row) => {
            let tiles: Vec<u32> = row.as_array().iter().map(|&t| u32::from(t)).collect();
            let size = match size {
                Some(size) => size_of(size)?,
                None => square_of(tiles.len())?,
            };
            slide::Position::new(size, tiles).map_err(value_error)?
        }
    };
    let goal = goal.on(position.size())?;
    let style = Style {
        scheme: scheme.parse::<Scheme>().map_err(value_error)?,
        hide_numbers: !numbers,
        ..Style::default()
    };
    let svg = picture::svg::position(&position, &goal, &style);
    rgb(py, &svg)
}

/// An SVG document drawn as an RGB array: the colour channels of the PNG
/// `picture` writes. The rasteriser's pixels carry premultiplied alpha,
/// which a PNG stores divided out; the rounded corners of a Shisen-Sho
/// board are partly transparent, so dropping alpha without dividing would
/// darken them and the frame would differ from the command line's picture.
pub fn rgb<'py>(py: Python<'py>, svg: &str) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let (pixels, width, height) = py
        .detach(|| {
            let pixmap = picture::raster::pixmap(svg)?;
            let pixels: Vec<u8> = pixmap
                .pixels()
                .iter()
                .flat_map(|pixel| {
                    let colour = pixel.demultiply();
                    [colour.red(), colour.green(), colour.blue()]
                })
                .collect();
            Ok::<_, picture::raster::RasterError>((
                pixels,
                pixmap.width() as usize,
                pixmap.height() as usize,
            ))
        })
        .map_err(value_error)?;
    let array =
        numpy::ndarray::Array3::from_shape_vec((height, width, 3), pixels).map_err(value_error)?;
    Ok(PyArray3::from_owned_array(py, array))
}
