//! The values a request carries, each read into a type that checks it and
//! describes it to the OpenAPI document in one place: the schema beside
//! each type states exactly what its `TryFrom` accepts, so a value the
//! document allows is one the server takes, and a value it forbids is
//! refused (`tests/it/openapi.rs` holds them to it on named cases).
//!
//! Only the canonical spelling of each value is taken (`4x4`, not `4X4`
//! or `4`): the engines' parsers are lenient for the command line, the API
//! is as strict as its schema.

use std::fmt;

use play::display::Display;
use play::format::{Control, Format, Input};
use play::limits::{NAME_CHARS, RACE_SLIDE_SIDES, WEB_SLIDE_SIDES};
use play::seed::MAX_SEED;
use play::slide_game::GoalChoice;
use serde::{Deserialize, Serialize};
use slide::Goal;
use utoipa::openapi::schema::{ObjectBuilder, SchemaFormat, SchemaType, Type};
use utoipa::openapi::{KnownFormat, RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

/// A value refused at the edge; serde reports it with the JSON pointer of
/// the value (422).
#[derive(Debug)]
pub struct Invalid(String);

impl Invalid {
    pub fn new(message: String) -> Invalid {
        Invalid(message)
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn string(pattern: &str, description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(SchemaType::Type(Type::String))
        .pattern(Some(pattern))
        .description(Some(description))
}

/// A game's id: 32 lowercase hex digits, as `new` hands them out.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(try_from = "String", into = "String")]
pub struct GameId(String);

impl GameId {
    pub const PATTERN: &'static str = "^[0-9a-f]{32}$";

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for GameId {
    type Error = Invalid;

    fn try_from(text: String) -> Result<GameId, Invalid> {
        let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if text.len() == 32 && text.bytes().all(hex) {
            Ok(GameId(text))
        } else {
            Err(Invalid(format!(
                "bad game id {text:?}: 32 lowercase hex digits"
            )))
        }
    }
}

impl From<GameId> for String {
    fn from(id: GameId) -> String {
        id.0
    }
}

impl PartialSchema for GameId {
    fn schema() -> RefOr<Schema> {
        string(Self::PATTERN, "A game's id, as `new` gave it.")
            .min_length(Some(32))
            .max_length(Some(32))
            .examples([serde_json::json!("0123456789abcdef0123456789abcdef")])
            .into()
    }
}

impl ToSchema for GameId {}

/// A race room's id: 32 lowercase hex digits, as `POST /api/races` hands
/// them out.
#[derive(Clone, Debug)]
pub struct RoomId(String);

impl RoomId {
    pub const PATTERN: &'static str = "^[0-9a-f]{32}$";

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for RoomId {
    type Error = Invalid;

    fn try_from(text: String) -> Result<RoomId, Invalid> {
        let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if text.len() == 32 && text.bytes().all(hex) {
            Ok(RoomId(text))
        } else {
            Err(Invalid(format!(
                "bad room id {text:?}: 32 lowercase hex digits"
            )))
        }
    }
}

impl PartialSchema for RoomId {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "A race room's id, as `POST /api/races` gave it.",
        )
        .min_length(Some(32))
        .max_length(Some(32))
        .examples([serde_json::json!("0123456789abcdef0123456789abcdef")])
        .into()
    }
}

impl ToSchema for RoomId {}

/// The seed that deals a puzzle: at most 2^53 - 1, so that a JavaScript
/// number holds it exactly (the same range the server draws from). As in
/// JSON Schema's `integer`, a number with a zero fraction (`7.0`) is one.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "serde_json::Number")]
pub struct Seed(pub u64);

impl TryFrom<serde_json::Number> for Seed {
    type Error = Invalid;

    fn try_from(number: serde_json::Number) -> Result<Seed, Invalid> {
        let whole = number.as_u64().or_else(|| {
            let float = number.as_f64()?;
            // Every whole number up to 2^53 is exact as a float.
            (float.fract() == 0.0 && (0.0..=MAX_SEED as f64).contains(&float))
                .then_some(float as u64)
        });
        match whole {
            Some(seed) if seed <= MAX_SEED => Ok(Seed(seed)),
            _ => Err(Invalid(format!(
                "seed {number} is not a whole number from 0 to {MAX_SEED} (2^53 - 1)"
            ))),
        }
    }
}

impl PartialSchema for Seed {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::Integer))
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(0))
            .maximum(Some(MAX_SEED as f64))
            .description(Some(
                "The same seed deals the same puzzle everywhere; 0 to 2^53 - 1.",
            ))
            .into()
    }
}

impl ToSchema for Seed {}

/// A game the server plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Slide,
    Shisen,
}

impl GameKind {
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Slide => "slide",
            GameKind::Shisen => "shisen",
        }
    }
}

/// A records table's name: size, goal and rules in letters, digits and
/// dashes (`4x4-row-major`, `18x8-gravity`).
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct Variant(String);

impl Variant {
    const PATTERN: &'static str = "^[A-Za-z0-9-]{1,64}$";

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Variant {
    type Error = Invalid;

    fn try_from(text: String) -> Result<Variant, Invalid> {
        let ok = (1..=64).contains(&text.len())
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if ok {
            Ok(Variant(text))
        } else {
            Err(Invalid(format!(
                "bad variant {text:?}: e.g. 4x4-row-major or 18x8-gravity"
            )))
        }
    }
}

impl PartialSchema for Variant {
    fn schema() -> RefOr<Schema> {
        string(Self::PATTERN, "Size, goal and rules, e.g. `4x4-row-major`.")
            .min_length(Some(1))
            .max_length(Some(64))
            .examples([serde_json::json!("4x4-row-major")])
            .into()
    }
}

impl ToSchema for Variant {}

/// A UTC date of the daily challenge, `YYYY-MM-DD`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct DailyDate(pub play::daily::Day);

impl DailyDate {
    const PATTERN: &'static str = "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$";
}

impl TryFrom<String> for DailyDate {
    type Error = Invalid;

    fn try_from(text: String) -> Result<DailyDate, Invalid> {
        text.parse()
            .map(DailyDate)
            .map_err(|e: play::daily::DayError| Invalid(e.to_string()))
    }
}

impl PartialSchema for DailyDate {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "A UTC date, `YYYY-MM-DD`, from 1970-01-01 to today: a day of the daily \
             challenge. A date the calendar lacks (`2026-02-30`), or a day still to come, is \
             refused with 400.",
        )
        .examples([serde_json::json!("2026-11-25")])
        .into()
    }
}

impl ToSchema for DailyDate {}

/// A sliding-puzzle size the web app plays: `WxH`, each side 2 to 32.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct SlideSize(pub slide::Size);

impl SlideSize {
    const PATTERN: &'static str = "^([2-9]|[12][0-9]|3[0-2])x([2-9]|[12][0-9]|3[0-2])$";

    /// `text` as a size whose sides are both in `sides`.
    fn within(text: &str, sides: &std::ops::RangeInclusive<usize>) -> Result<SlideSize, Invalid> {
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

/// A Shisen-Sho board size by kshisen's name.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
pub enum Preset {
    #[serde(rename = "14x6")]
    P14x6,
    #[serde(rename = "16x9")]
    P16x9,
    #[serde(rename = "18x8")]
    P18x8,
    #[serde(rename = "24x12")]
    P24x12,
    #[serde(rename = "26x14")]
    P26x14,
    #[serde(rename = "30x16")]
    P30x16,
    /// 14x6.
    #[serde(rename = "small")]
    Small,
    /// 18x8.
    #[serde(rename = "medium")]
    Medium,
    /// 24x12.
    #[serde(rename = "large")]
    Large,
    /// 18x8.
    #[serde(rename = "default")]
    Default,
}

impl Preset {
    pub fn size(self) -> shisen::Size {
        let (w, h) = match self {
            Preset::P14x6 | Preset::Small => (14, 6),
            Preset::P16x9 => (16, 9),
            Preset::P18x8 | Preset::Medium | Preset::Default => (18, 8),
            Preset::P24x12 | Preset::Large => (24, 12),
            Preset::P26x14 => (26, 14),
            Preset::P30x16 => (30, 16),
        };
        shisen::Size::new(w, h).expect("presets are sizes")
    }
}

/// A custom Shisen-Sho size: `WxH`, at most 40x24, with an even number of
/// cells (tiles go in pairs).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct ShisenSize(pub shisen::Size);

impl ShisenSize {
    /// An even width with any height, or any width with an even height.
    const PATTERN: &'static str = "^(([2468]|[1-3][02468]|40)x([1-9]|1[0-9]|2[0-4])|([1-9]|[1-3][0-9]|40)x([2468]|1[02468]|2[024]))$";
}

impl TryFrom<String> for ShisenSize {
    type Error = Invalid;

    fn try_from(text: String) -> Result<ShisenSize, Invalid> {
        use play::limits::{WEB_SHISEN_HEIGHT, WEB_SHISEN_WIDTH};
        let refused = || Invalid(format!("bad size {text:?}: WxH, e.g. 18x8"));
        let size: shisen::Size = text.parse().map_err(|_| refused())?;
        if size.to_string() != text {
            return Err(refused());
        }
        if size.width() > WEB_SHISEN_WIDTH || size.height() > WEB_SHISEN_HEIGHT {
            return Err(Invalid(format!(
                "board {size} is too large: at most {WEB_SHISEN_WIDTH}x{WEB_SHISEN_HEIGHT}"
            )));
        }
        if size.cells() % 2 == 1 {
            return Err(Invalid(format!(
                "board {size} has an odd number of cells: tiles go in pairs"
            )));
        }
        Ok(ShisenSize(size))
    }
}

impl PartialSchema for ShisenSize {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "A custom size `WxH`, at most 40x24, with an even number of cells.",
        )
        .examples([serde_json::json!("8x4")])
        .into()
    }
}

impl ToSchema for ShisenSize {}

/// A race's size, read by its game: a sliding puzzle's [`SlideSize`], or
/// a Shisen-Sho custom [`ShisenSize`]. The schema allows either; which one
/// holds is the request's to say.
#[derive(Clone, Debug, Deserialize)]
#[serde(transparent)]
pub struct RaceSize(String);

impl RaceSize {
    /// As a sliding puzzle's size (a race's: sides 3 to 10).
    pub fn slide(&self) -> Result<SlideSize, Invalid> {
        SlideSize::within(&self.0, &RACE_SLIDE_SIDES)
    }

    /// As a Shisen-Sho custom size.
    pub fn shisen(&self) -> Result<ShisenSize, Invalid> {
        ShisenSize::try_from(self.0.clone())
    }

    /// The pattern of a sliding puzzle's size in a race.
    pub const SLIDE_PATTERN: &'static str = "^([3-9]|10)x([3-9]|10)$";
    /// The pattern of a Shisen-Sho custom size.
    pub const SHISEN_PATTERN: &'static str = ShisenSize::PATTERN;
}

impl PartialSchema for RaceSize {
    fn schema() -> RefOr<Schema> {
        let either = format!("{}|{}", Self::SLIDE_PATTERN, ShisenSize::PATTERN);
        string(
            &either,
            "`WxH`: for a sliding puzzle each side from 3 to 10 cells; for Shisen-Sho a custom size, at most 40x24, with an even number of cells.",
        )
        .examples([serde_json::json!("3x3")])
        .into()
    }
}

impl ToSchema for RaceSize {}

/// A player's display name: at most 24 characters, none of them control
/// characters; blanks around it are dropped, and an empty name is
/// anonymous.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct DisplayName(String);

impl DisplayName {
    const PATTERN: &'static str = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$";

    /// The name to show, `None` for anonymous.
    pub fn shown(&self) -> Option<&str> {
        let name = self.0.trim();
        (!name.is_empty()).then_some(name)
    }
}

impl TryFrom<String> for DisplayName {
    type Error = Invalid;

    fn try_from(text: String) -> Result<DisplayName, Invalid> {
        if text.chars().count() > NAME_CHARS {
            return Err(Invalid(format!(
                "name too long: at most {NAME_CHARS} characters"
            )));
        }
        if text.chars().any(char::is_control) {
            return Err(Invalid("name must not contain control characters".into()));
        }
        Ok(DisplayName(text))
    }
}

impl PartialSchema for DisplayName {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "At most 24 characters, no control characters; blanks around it are \
             dropped; empty for anonymous.",
        )
        .max_length(Some(NAME_CHARS))
        .examples([serde_json::json!("Ada")])
        .into()
    }
}

impl ToSchema for DisplayName {}

/// The JSON Schema of a body in which `field` holding `when` excludes
/// `other` (any value but null): one case of a request schema's `not`.
pub fn excludes(field: &str, when: serde_json::Value, other: &str) -> serde_json::Value {
    serde_json::json!({
        "required": [field, other],
        "properties": { field: when, other: { "not": { "type": "null" } } },
    })
}

/// The officially assigned ISO 3166-1 alpha-2 codes, one a line, in the
/// file that names their source (an operator updates it there).
const COUNTRY_CODES: &str = include_str!("../../data/iso-3166-1-alpha-2.txt");

/// The codes of [`COUNTRY_CODES`], in its order.
fn country_codes() -> impl Iterator<Item = &'static str> {
    COUNTRY_CODES
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// A country: an officially assigned ISO 3166-1 alpha-2 code (`NL`).
#[derive(Clone, Copy, Debug)]
pub struct Country(&'static str);

impl Country {
    /// `text` as a country; an error saying what is accepted otherwise.
    pub fn parse(text: &str) -> Result<Country, Invalid> {
        country_codes()
            .find(|code| *code == text)
            .map(Country)
            .ok_or_else(|| {
                Invalid(format!(
                    "country must be an assigned ISO 3166-1 alpha-2 code, two capital letters \
                 (NL, JP, BR, …), or null for none; {text:?} is not one"
                ))
            })
    }

    pub fn code(self) -> &'static str {
        self.0
    }
}

impl PartialSchema for Country {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .enum_values(Some(country_codes()))
            .description(Some(
                "An officially assigned ISO 3166-1 alpha-2 country code, in capitals.",
            ))
            .examples([serde_json::json!("NL")])
            .into()
    }
}

impl ToSchema for Country {}
