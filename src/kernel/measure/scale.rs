//! `Scale`: ground scale (yards per table inch), the pace, and the figure-scale multiplier.

use serde::{Deserialize, Serialize};

use super::error::MeasureError;
use super::length::Length;

/// Yards in one pace unless a ruleset says otherwise.
///
/// This is a house default, not a figure from any one set of rules: a military
/// pace of about 30 inches, i.e. 0.8 yards (30/36 would be 0.83; rules that
/// care should declare their own).
pub const DEFAULT_YARDS_PER_PACE: f64 = 0.8;

/// How lengths in a ruleset map to the ground they stand for and to the table
/// they are measured on.
///
/// A ruleset's distances are "rule lengths", stated for its base figure size.
/// `figure_factor` turns them into table lengths for the figures actually used
/// (the 18th-century set doubles every distance for 25mm figures: factor 2).
/// `yards_per_inch` is the ground scale of a rule inch (that set: one inch is
/// about 30 yards at 15mm); without it, yards and paces cannot be read.
///
/// Every number is checked: yards per inch, yards per pace and the figure
/// factor are finite and greater than zero.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "ScaleSpec", into = "ScaleSpec")]
pub struct Scale {
    yards_per_inch: Option<f64>,
    yards_per_pace: f64,
    figure_factor: f64,
}

/// What a ruleset writes to declare its scale; checked into a `Scale`.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct ScaleSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    yards_per_inch: Option<f64>,
    #[serde(default = "default_yards_per_pace")]
    yards_per_pace: f64,
    #[serde(default = "default_figure_factor")]
    figure_factor: f64,
}

fn default_yards_per_pace() -> f64 {
    DEFAULT_YARDS_PER_PACE
}

fn default_figure_factor() -> f64 {
    1.0
}

impl TryFrom<ScaleSpec> for Scale {
    type Error = MeasureError;

    fn try_from(spec: ScaleSpec) -> Result<Self, MeasureError> {
        let mut scale =
            Scale::table_only().with_yards_per_pace(spec.yards_per_pace)?.with_figure_factor(spec.figure_factor)?;
        if let Some(yards) = spec.yards_per_inch {
            scale.yards_per_inch = Some(positive("yards per inch", yards)?);
        }
        Ok(scale)
    }
}

impl From<Scale> for ScaleSpec {
    fn from(scale: Scale) -> Self {
        ScaleSpec {
            yards_per_inch: scale.yards_per_inch,
            yards_per_pace: scale.yards_per_pace,
            figure_factor: scale.figure_factor,
        }
    }
}

impl Default for Scale {
    /// The same as [`Scale::table_only`].
    fn default() -> Self {
        Scale::table_only()
    }
}

impl Scale {
    /// A scale with no ground scale (only table units can be read), the
    /// default pace and figure factor 1.
    pub const fn table_only() -> Self {
        Scale { yards_per_inch: None, yards_per_pace: DEFAULT_YARDS_PER_PACE, figure_factor: 1.0 }
    }

    /// A ground scale of `yards_per_inch` yards to the rule inch, with every
    /// distance multiplied by `figure_factor` on the table.
    ///
    /// # Example
    /// ```
    /// use grognard::measure::{Scale, parse_length};
    /// let scale = Scale::new(30.0, 2.0).unwrap();
    /// let rule = parse_length("90 yards", &scale).unwrap();
    /// assert_eq!(rule.inches(), 3.0);
    /// assert_eq!(scale.on_table(rule).inches(), 6.0);
    /// ```
    pub fn new(yards_per_inch: f64, figure_factor: f64) -> Result<Self, MeasureError> {
        let scale = Scale::table_only().with_figure_factor(figure_factor)?;
        Ok(Scale { yards_per_inch: Some(positive("yards per inch", yards_per_inch)?), ..scale })
    }

    /// The same scale with a different pace, in yards.
    pub fn with_yards_per_pace(self, yards_per_pace: f64) -> Result<Self, MeasureError> {
        Ok(Scale { yards_per_pace: positive("yards per pace", yards_per_pace)?, ..self })
    }

    /// The same scale with a different figure-scale multiplier.
    pub fn with_figure_factor(self, figure_factor: f64) -> Result<Self, MeasureError> {
        Ok(Scale { figure_factor: positive("the figure factor", figure_factor)?, ..self })
    }

    /// Yards of ground to one rule inch, if the scale has a ground scale.
    pub fn yards_per_inch(&self) -> Option<f64> {
        self.yards_per_inch
    }

    /// Yards in one pace.
    pub fn yards_per_pace(&self) -> f64 {
        self.yards_per_pace
    }

    /// The figure-scale multiplier from rule lengths to table lengths.
    pub fn figure_factor(&self) -> f64 {
        self.figure_factor
    }

    /// The table length for a rule length: the rule length times the figure factor.
    /// A product too large for an `f64` stays at the largest finite length.
    pub fn on_table(&self, rule_length: Length) -> Length {
        let inches = (rule_length.inches() * self.figure_factor).min(f64::MAX);
        Length::from_inches(inches).unwrap_or(Length::ZERO)
    }

    /// The ground a rule length stands for, in yards; `None` without a ground scale.
    ///
    /// Takes a rule length (as [`parse_length`](super::parse_length) returns it,
    /// before [`on_table`](Scale::on_table)): the ground scale is stated for the
    /// rules' own figure size.
    pub fn to_ground_yards(&self, rule_length: Length) -> Option<f64> {
        self.yards_per_inch.map(|yards| rule_length.inches() * yards)
    }
}

fn positive(what: &'static str, value: f64) -> Result<f64, MeasureError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(MeasureError::OutOfRange { what, value, expected: "a finite number greater than 0" })
    }
}
