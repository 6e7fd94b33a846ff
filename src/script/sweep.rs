//! A sweep: one procedure call over a grid of situations, each cell's odds under two rule
//! versions side by side, the cells ranked by how far an outcome moved, each with the
//! differences between the versions that its paths touched.

use rhai::{Dynamic, Scope};

use super::{Comparison, Host, Reach, ScriptError, Seen};
use crate::dice::EnumLimits;
use crate::rules::{Difference, Part, differences};

/// One variable of the grid: its name in the call, and its values as written and as Rhai holds them.
#[derive(Clone, Debug)]
pub struct Axis {
    pub name: String,
    pub values: Vec<(String, Dynamic)>,
}

/// One situation of the grid compared.
#[derive(Clone, Debug)]
pub struct SweepCell {
    /// Each axis's value here, as written, in the axes' order.
    pub at: Vec<String>,
    pub comparison: Comparison,
    /// Each field asked for (`--field attacker_lost`), compared as the result is.
    pub fields: Vec<(String, Comparison)>,
    /// The differences between the versions (indexes into `Sweep::differences`) that this
    /// cell's paths touched under either version: a modifier that applied, a table row read.
    pub causes: Vec<usize>,
}

impl SweepCell {
    /// `range=2 formation=line`, or `the call` for a grid of one cell.
    pub fn label(&self, axes: &[Axis]) -> String {
        label(axes, &self.at)
    }

    /// How far the outcome that moved furthest moved, of the result or of any field, as a chance.
    pub fn size(&self) -> num_rational::BigRational {
        let fields = self.fields.iter().map(|(_, c)| c.size());
        std::iter::once(self.comparison.size()).chain(fields).max().unwrap_or_default()
    }
}

/// `range=2 formation=line`: where in the grid the values `at` stand; `the call` for no axes.
fn label(axes: &[Axis], at: &[String]) -> String {
    if axes.is_empty() {
        return "the call".to_string();
    }
    axes.iter().zip(at).map(|(axis, value)| format!("{}={value}", axis.name)).collect::<Vec<_>>().join(" ")
}

/// The grid compared, cell by cell, in the grid's order (the first axis slowest).
#[derive(Clone, Debug)]
pub struct Sweep {
    pub axes: Vec<Axis>,
    pub cells: Vec<SweepCell>,
    /// Every difference between the two versions.
    pub differences: Vec<Difference>,
    /// The differences found by reading the code the call can reach, not by following its
    /// paths (procedure files, constants, switches a script reads by name): indexes into
    /// `differences`.
    pub read_from_code: Vec<usize>,
}

/// A cell that could not be worked out: where, under which version, and why.
#[derive(Debug)]
pub struct CellFailed {
    pub at: String,
    pub version: &'static str,
    pub error: Box<ScriptError>,
}

impl Sweep {
    /// Works out `call` in every cell of the grid under version `a`'s host and version `b`'s,
    /// in a scope holding each axis's value under its name. A call that must be sampled is
    /// sampled with the same seed on both sides: each trial draws the same dice under both.
    /// `done` hears how many cells are worked out, after each.
    pub fn run(
        call: &str,
        axes: Vec<Axis>,
        (a, b): (&Host, &Host),
        limits: EnumLimits,
        sample: (u64, u64),
        fields: &[String],
        done: &dyn Fn(u64),
    ) -> Result<Sweep, CellFailed> {
        let differences = differences(&a.ruleset(), &b.ruleset());
        let read_from_code = (0..differences.len()).filter(|i| !followed(&differences[*i])).collect();
        let mut cells = Vec::new();
        let mut reach = None;
        for at in grid(&axes) {
            let mut scope = Scope::new();
            for (axis, i) in axes.iter().zip(&at) {
                scope.push_dynamic(axis.name.clone(), axis.values[*i].1.clone());
            }
            // What the call can reach is read from its code once: every cell runs the same code.
            let reach = reach.get_or_insert_with(|| (a.reach(&scope, call), b.reach(&scope, call)));
            let at: Vec<String> = axes.iter().zip(&at).map(|(axis, i)| axis.values[*i].0.clone()).collect();
            let failed = |version, error| CellFailed { at: label(&axes, &at), version, error: Box::new(error) };
            let (odds_a, seen_a) =
                a.odds_seeing(&scope, call, limits, sample, fields).map_err(|error| failed("A", error))?;
            let (odds_b, seen_b) =
                b.odds_seeing(&scope, call, limits, sample, fields).map_err(|error| failed("B", error))?;
            let comparison = Comparison::of(&odds_a, &odds_b);
            let fields: Vec<(String, Comparison)> = odds_a
                .fields
                .iter()
                .zip(&odds_b.fields)
                .map(|(x, y)| (x.name.clone(), Comparison::of_field(x, y, comparison.exact)))
                .collect();
            let moved = std::iter::once(&comparison)
                .chain(fields.iter().map(|(_, c)| c))
                .any(|c| c.changes.iter().any(|c| c.a != c.b));
            let causes = if moved {
                (0..differences.len()).filter(|i| touched(&differences[*i], (&seen_a, &seen_b), reach)).collect()
            } else {
                Vec::new()
            };
            cells.push(SweepCell { at, comparison, fields, causes });
            done(cells.len() as u64);
        }
        Ok(Sweep { axes, cells, differences, read_from_code })
    }

    /// The cells, the one whose furthest-moved outcome (of the result or a field) moved most
    /// first (alike ones keep the grid's order).
    pub fn ranked(&self) -> Vec<&SweepCell> {
        let mut sorted: Vec<&SweepCell> = self.cells.iter().collect();
        sorted.sort_by_cached_key(|c| std::cmp::Reverse(c.size()));
        sorted
    }

    /// Whether every cell was worked out exactly on both sides.
    pub fn exact(&self) -> bool {
        self.cells.iter().all(|c| c.comparison.exact)
    }
}

/// Every cell of the grid as the index of each axis's value, the first axis slowest; one
/// cell of no values when there are no axes.
fn grid(axes: &[Axis]) -> Vec<Vec<usize>> {
    let mut cells = vec![Vec::new()];
    for axis in axes {
        cells = cells
            .into_iter()
            .flat_map(|cell: Vec<usize>| {
                (0..axis.values.len()).map(move |i| {
                    let mut next = cell.clone();
                    next.push(i);
                    next
                })
            })
            .collect();
    }
    cells
}

/// Whether a cell's paths show if they touch a difference of this kind (a modifier that
/// applied, a table row read); the others are read from the code the call can reach.
fn followed(difference: &Difference) -> bool {
    matches!(difference.part, Part::Modifier { .. } | Part::TableRow { .. } | Part::TableResult { .. })
}

/// Whether the call touched the difference under either version: a modifier that applied, a
/// row (or table) read or a result given, on the cell's paths; a procedure file it can reach, or a constant or
/// switch named in the code it can reach.
fn touched(difference: &Difference, (a, b): (&Seen, &Seen), reach: &(Reach, Reach)) -> bool {
    let words = |word: &str| reach.0.words.contains(word) || reach.1.words.contains(word);
    match &difference.part {
        Part::Modifier { list, id } => a.applied(list, id) || b.applied(list, id),
        Part::TableRow { table, row } => a.read(table, row.as_deref()) || b.read(table, row.as_deref()),
        Part::TableResult { table, result } => a.gave(table, result) || b.gave(table, result),
        Part::Procedure { layer, name } => {
            let file = (layer.clone(), name.clone());
            reach.0.files.contains(&file) || reach.1.files.contains(&file)
        }
        Part::Constant { name } | Part::Setting { name, .. } => words(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_runs_the_first_axis_slowest() {
        let axis = |name: &str, n: i64| Axis {
            name: name.into(),
            values: (0..n).map(|v| (v.to_string(), Dynamic::from(v))).collect(),
        };
        assert_eq!(grid(&[]), vec![Vec::<usize>::new()]);
        assert_eq!(
            grid(&[axis("range", 2), axis("stands", 3)]),
            vec![vec![0, 0], vec![0, 1], vec![0, 2], vec![1, 0], vec![1, 1], vec![1, 2]]
        );
    }
}
