//! Under which control (keyboard, mouse click, hover, touch) a result is
//! filed, and the bounds of human play each control is judged by.

use std::fmt;
use std::str::FromStr;

use crate::judge::{self, Bounds};

/// How one move was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// A key.
    Keyboard,
    /// A click (mouse or pen) on a tile.
    Mouse,
    /// The pointer moving over a tile: the blank follows it.
    Hover,
    /// A touch on a screen.
    Touch,
}

/// What a result is filed under: the way nearly all its moves were made.
/// Keyboard, click and hover times are not comparable (hover solves are
/// the fastest by far), so records keep them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    /// More than 95 % of the moves by keyboard.
    Keyboard,
    /// More than 95 % by mouse click (named `mouse`, as results were filed
    /// before hover was told apart).
    Mouse,
    /// More than 95 % by hover.
    Hover,
    /// More than 95 % by touch.
    Touch,
    /// No way of moving made more than 95 % of the moves.
    Mixed,
}

/// The share of a result's moves, in percent, that one input must exceed
/// for the result to be filed under it: a few stray clicks in a keyboard
/// solve do not make it mixed.
pub const CONTROL_PERCENT: usize = 95;

/// Text that names no input or control.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a control: expected keyboard, mouse, hover, touch or mixed")]
pub struct ControlError(pub String);

impl Control {
    /// The control of a result whose moves were made by `inputs`: the one
    /// input that made more than [`CONTROL_PERCENT`] % of them, else mixed
    /// (no moves are mixed too: nothing says how they were made).
    pub fn of(inputs: &[Input]) -> Control {
        for (input, control) in [
            (Input::Keyboard, Control::Keyboard),
            (Input::Mouse, Control::Mouse),
            (Input::Hover, Control::Hover),
            (Input::Touch, Control::Touch),
        ] {
            let count = inputs.iter().filter(|&&i| i == input).count();
            if count * 100 > inputs.len() * CONTROL_PERCENT {
                return control;
            }
        }
        Control::Mixed
    }

    /// The control's name, as records filter by it.
    pub fn name(self) -> &'static str {
        match self {
            Control::Keyboard => "keyboard",
            Control::Mouse => "mouse",
            Control::Hover => "hover",
            Control::Touch => "touch",
            Control::Mixed => "mixed",
        }
    }
}

/// The bounds of human play ([`crate::judge`]) for a sliding-puzzle
/// result filed under `control` (`None` when its inputs were not sent) on
/// boards whose longer side is at most `side`. A mixed result may hold
/// hover moves, so it gets hover's bounds: no human mix is refused.
pub fn slide_bounds(control: Option<Control>, side: usize) -> Bounds {
    let bounds = match control {
        Some(Control::Hover | Control::Mixed) => judge::SLIDE_HOVER,
        Some(Control::Mouse) => judge::SLIDE_CLICK,
        Some(Control::Keyboard | Control::Touch) | None => judge::SLIDE,
    };
    bounds.for_side(side)
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Control {
    type Err = ControlError;

    fn from_str(s: &str) -> Result<Control, ControlError> {
        [
            Control::Keyboard,
            Control::Mouse,
            Control::Hover,
            Control::Touch,
            Control::Mixed,
        ]
        .into_iter()
        .find(|c| s.trim().eq_ignore_ascii_case(c.name()))
        .ok_or_else(|| ControlError(s.to_string()))
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Input::Keyboard => "keyboard",
            Input::Mouse => "mouse",
            Input::Hover => "hover",
            Input::Touch => "touch",
        })
    }
}

impl FromStr for Input {
    type Err = ControlError;

    fn from_str(s: &str) -> Result<Input, ControlError> {
        match s.parse::<Control>()? {
            Control::Keyboard => Ok(Input::Keyboard),
            Control::Mouse => Ok(Input::Mouse),
            Control::Hover => Ok(Input::Hover),
            Control::Touch => Ok(Input::Touch),
            Control::Mixed => Err(ControlError(s.to_string())),
        }
    }
}
