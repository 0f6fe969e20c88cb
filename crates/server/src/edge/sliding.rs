//! A sliding puzzle's values: sizes, goals, formats, displays, controls,
//! inputs, metrics and colour schemes.

use play::display::Display;
use play::format::{Control, Descent, Format, Input};
use play::limits::WEB_SLIDE_SIDES;
use play::slide_game::{GoalChoice, SlideSpec};
use serde::{Deserialize, Serialize};
use slide::Goal;
use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::{string, Invalid};

/// A sliding-puzzle size the web app plays: `WxH`, each side 2 to 32.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct SlideSize(pub slide::Size);

impl SlideSize {
    const PATTERN: &'static str = "^([2-9]|[12][0-9]|3[0-2])x([2-9]|[12][0-9]|3[0-2])$";

    /// `text` as a size whose sides are both in `sides`.
    pub(super) fn within(
        text: &str,
        sides: &std::ops::RangeInclusive<usize>,
    ) -> Result<SlideSize, Invalid> {
        let (low, high) = (*sides.start(), *sides.end());
        let refused = || {
            Invalid(format!(
                "bad size {text:?}: WxH, sides {low} to {high}, e.g. 4x4"
            ))
        };
        let size: slide::Size = text.parse().map_err(|_| refused())?;
        let fits = sides.contains(&size.width()) && sides.contains(&size.height());
        if fits && size.to_string() == text {
            Ok(SlideSize(size))
        } else {
            Err(refused())
        }
    }
}

impl TryFrom<String> for SlideSize {
    type Error = Invalid;

    fn try_from(text: String) -> Result<SlideSize, Invalid> {
        SlideSize::within(&text, &WEB_SLIDE_SIDES)
    }
}

impl PartialSchema for SlideSize {
    fn schema() -> RefOr<Schema> {
        string(Self::PATTERN, "`WxH`, each side from 2 to 32 cells.")
            .examples([serde_json::json!("4x4")])
            .into()
    }
}

impl ToSchema for SlideSize {}

/// A sliding-puzzle goal by name: a built-in layout, `missing` (the seed
/// picks the missing number) or `missing:K` (K at most the board's cells,
/// which the schema cannot relate to the size).
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct GoalName(pub GoalChoice);

impl GoalName {
    const PATTERN: &'static str =
        "^(row-major|blank-first|snake|spiral|missing(:([1-9][0-9]?|100))?)$";
}

impl TryFrom<String> for GoalName {
    type Error = Invalid;

    fn try_from(text: String) -> Result<GoalName, Invalid> {
        let refused = || {
            Invalid(format!(
                "unknown goal {text:?}: use row-major, blank-first, snake, spiral, missing or missing:K"
            ))
        };
        let goal: GoalChoice = text.parse().map_err(|_| refused())?;
        let named = !matches!(goal, GoalChoice::Goal(Goal::Custom(_)));
        // No board has more than 100 cells (10x10), so no K above 100.
        let fits_a_board = !matches!(goal, GoalChoice::Goal(Goal::Missing(k)) if k > 100);
        if named && fits_a_board && goal.to_string() == text {
            Ok(GoalName(goal))
        } else {
            Err(refused())
        }
    }
}

impl PartialSchema for GoalName {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "A goal: `row-major` (the default), `blank-first`, `snake`, `spiral`, \
             `missing` (the seed picks the missing number) or `missing:K`, K at most \
             the board's cells.",
        )
        .examples([serde_json::json!("row-major")])
        .into()
    }
}

impl ToSchema for GoalName {}

/// A format: `single`, `marathon-K`, `relay-N`, one of slidysim's relays
/// down (`height-relay`, …) or `bld`, as
/// `play::format::Format` reads it (lower case only).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct FormatName(pub Format);

impl FormatName {
    const PATTERN: &'static str = "^(single|bld|2-n-relay|height-relay|width-relay|everything-relay|marathon-([2-9]|[1-9][0-9]{1,2}|1000)|relay-([4-9]|10))$";

    /// Each of slidysim's relays down, by name, and the sizes it starts
    /// at (`play::format::Descent`: a height relay needs a height of 3 or
    /// more, …, from boards up to 10x10), as the deal itself decides them
    /// for the default goal: what the request's schema states for each.
    pub fn descents() -> Vec<(&'static str, Vec<String>)> {
        let sides = || WEB_SLIDE_SIDES;
        let sizes: Vec<slide::Size> = sides()
            .flat_map(|h| sides().filter_map(move |w| slide::Size::new(w, h).ok()))
            .collect();
        Descent::ALL
            .into_iter()
            .map(|descent| {
                let format = Format::Down(descent);
                let starts = sizes
                    .iter()
                    .filter(|&&size| {
                        SlideSpec::new(size, GoalChoice::Goal(Goal::RowMajor))
                            .is_ok_and(|spec| format.variant(&spec).is_ok())
                    })
                    .map(ToString::to_string)
                    .collect();
                (descent.name(), starts)
            })
            .collect()
    }
}

impl TryFrom<String> for FormatName {
    type Error = Invalid;

    fn try_from(text: String) -> Result<FormatName, Invalid> {
        let format: Format = text
            .parse()
            .map_err(|e: play::format::FormatError| Invalid(format!("bad format: {e}")))?;
        if format.to_string() == text {
            Ok(FormatName(format))
        } else {
            Err(Invalid(format!(
                "bad format {text:?}: write it in lower case, as {format}"
            )))
        }
    }
}

impl PartialSchema for FormatName {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "A format: `single` (one puzzle, the default), `marathon-K` (K puzzles of the \
             size on one clock, K = 2 to 1000), `relay-N` (every square size from 3x3 \
             to NxN in order, on one clock), slidysim's relays down from the size: \
             `2-n-relay` (NxN down to 2x2), `height-relay` (WxH down to Wx2), `width-relay` \
             (WxH down to 2xH), `everything-relay` (every size up to WxH: 4x4, 3x4, 2x4, \
             4x3, … 2x2), or `bld` (blindfold: one puzzle, its tiles blank from the first \
             move; a DNF ends the averages running through it).",
        )
        .examples([serde_json::json!("marathon-10")])
        .into()
    }
}

impl ToSchema for FormatName {}

/// A display type (what each tile shows, `play::display::Display`):
/// `standard` and slidysim's others, by their lower-case names.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct DisplayType(pub Display);

impl TryFrom<String> for DisplayType {
    type Error = Invalid;

    fn try_from(text: String) -> Result<DisplayType, Invalid> {
        text.parse()
            .map(DisplayType)
            .map_err(|e: play::display::DisplayError| Invalid(format!("bad display: {e}")))
    }
}

impl PartialSchema for DisplayType {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .enum_values(Some(Display::ALL.map(Display::name)))
            .description(Some(
                "A display type: what each tile shows (`standard`, the default: its \
                 number). Any but `standard` is refused with the `bld` format.",
            ))
            .examples([serde_json::json!("manhattan")])
            .into()
    }
}

impl ToSchema for DisplayType {}

/// What a records query ranks by: time and moves (every table of the
/// variant), or the best average of 5, 12, 50 or 100 consecutive results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RankBy {
    /// Fastest single result.
    Time,
    /// Fewest single-tile moves.
    Stm,
    /// Fewest multi-tile moves.
    Mtm,
    /// Best average of 5 (the best and the worst dropped).
    Ao5,
    /// Best average of 12 (the best and the worst dropped).
    Ao12,
    /// Best average of 50 (the best and the worst three, 5 % rounded up,
    /// dropped).
    Ao50,
    /// Best average of 100 (the best and the worst five dropped).
    Ao100,
}

impl RankBy {
    /// How many consecutive results the average is of; `None` for a
    /// single result's ranking.
    pub fn window(self) -> Option<usize> {
        match self {
            RankBy::Ao5 => Some(5),
            RankBy::Ao12 => Some(12),
            RankBy::Ao50 => Some(50),
            RankBy::Ao100 => Some(100),
            RankBy::Time | RankBy::Stm | RankBy::Mtm => None,
        }
    }
}

/// The control a result is filed under.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ControlName {
    /// More than 95 % of the moves by keyboard.
    Keyboard,
    /// More than 95 % by mouse click (`click` is read as this too).
    #[serde(alias = "click")]
    Mouse,
    /// More than 95 % by hover: the blank following the pointer.
    Hover,
    /// More than 95 % by touch.
    Touch,
    /// None of them more than 95 %.
    Mixed,
}

impl From<ControlName> for Control {
    fn from(control: ControlName) -> Control {
        match control {
            ControlName::Keyboard => Control::Keyboard,
            ControlName::Mouse => Control::Mouse,
            ControlName::Hover => Control::Hover,
            ControlName::Touch => Control::Touch,
            ControlName::Mixed => Control::Mixed,
        }
    }
}

/// How each single-tile move was made, one letter a move: `k` keyboard,
/// `m` mouse click, `h` hover, `t` touch.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct Inputs(pub Vec<Input>);

impl Inputs {
    const PATTERN: &'static str = "^[kmht]*$";
}

impl TryFrom<String> for Inputs {
    type Error = Invalid;

    fn try_from(text: String) -> Result<Inputs, Invalid> {
        text.char_indices()
            .map(|(at, c)| match c {
                'k' => Ok(Input::Keyboard),
                'm' => Ok(Input::Mouse),
                'h' => Ok(Input::Hover),
                't' => Ok(Input::Touch),
                _ => Err(Invalid(format!(
                    "bad inputs: {c:?} at position {at} is not k (keyboard), m (mouse click), h (hover) or t (touch)"
                ))),
            })
            .collect::<Result<_, _>>()
            .map(Inputs)
    }
}

impl PartialSchema for Inputs {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "How each single-tile move was made, one letter a move: `k` keyboard, \
             `m` mouse click, `h` hover, `t` touch. A result is filed under the one that made more \
             than 95 % of its moves, else under `mixed`.",
        )
        .examples([serde_json::json!("kkkkm")])
        .into()
    }
}

impl ToSchema for Inputs {}

/// The metric a sliding-puzzle solution is shortest in.
#[derive(Clone, Copy, Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MetricName {
    /// Single-tile moves.
    #[default]
    Stm,
    /// Multi-tile moves: a run of tiles slid along a line is one move.
    Mtm,
}

impl From<MetricName> for slide::Metric {
    fn from(metric: MetricName) -> slide::Metric {
        match metric {
            MetricName::Stm => slide::Metric::Stm,
            MetricName::Mtm => slide::Metric::Mtm,
        }
    }
}

/// A colour scheme for a goal's tiles: a name, or `grids:` and grid
/// layers (`grids:20x10,10x10,10x5,5x5`), read by `picture`'s own grammar.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct SchemeName(pub picture::Scheme);

impl SchemeName {
    const BLOCK: &'static str = "[1-9][0-9]{0,4}x[1-9][0-9]{0,4}";
}

impl TryFrom<String> for SchemeName {
    type Error = Invalid;

    fn try_from(text: String) -> Result<SchemeName, Invalid> {
        let scheme: picture::Scheme = text.parse().map_err(|e| Invalid(format!("{e}")))?;
        // One spelling, the one the pattern states.
        if scheme.to_string() != text {
            return Err(Invalid(format!(
                "bad scheme {text:?}: write it as {:?}",
                scheme.to_string()
            )));
        }
        Ok(SchemeName(scheme))
    }
}

impl PartialSchema for SchemeName {
    fn schema() -> RefOr<Schema> {
        let block = Self::BLOCK;
        let most = picture::grids::MOST_LAYERS - 1;
        string(
            &format!(
                "^(plain|fringe|rows|columns|gradient|grids(:{block}(,{block}){{0,{most}}})?)$"
            ),
            "`plain`, `fringe`, `rows`, `columns`, `gradient`, `grids` (the \
             board's default grid layers, then fringes) or `grids:` and grid \
             layers `WxH`, outermost first, each one's sides dividing the one \
             before's (`grids:20x10,10x10,10x5,5x5`).",
        )
        .examples([
            serde_json::json!("rows"),
            serde_json::json!("grids:20x10,10x10,10x5,5x5"),
        ])
        .into()
    }
}

impl ToSchema for SchemeName {}
