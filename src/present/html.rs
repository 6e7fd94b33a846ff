//! Pages viewable offline: a comparison's grid as heat maps, one per outcome, and an
//! attribution as a tornado chart. Inline CSS and SVG, no script, nothing fetched; written as
//! well-formed XML too, so a test can read the page back with an XML parser.

use std::fmt::Write as _;

use super::change_bar::points_text;
use super::odds::percent;
use super::sweep::{causes_text, outcomes_of};
use crate::dice::to_f64;
use crate::script::{Attribution, Change, Comparison, Outcome, Sweep, SweepCell};

const STYLE: &str = "
body { font: 15px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; padding: 0 1em; }
code, pre { font: 13px ui-monospace, monospace; }
pre.call { white-space: pre-wrap; background: #f4f4f0; padding: .6em; }
table { border-collapse: collapse; margin: .5em 0 1.5em; }
th, td { padding: .25em .6em; border: 1px solid #ccc; text-align: right; }
th { background: #eee; }
td.name, th.name { text-align: left; }
table.heat td { min-width: 4.5em; font-variant-numeric: tabular-nums; }
.heat-maps { display: flex; flex-wrap: wrap; column-gap: 2em; }
.legend span { display: inline-block; padding: .1em .6em; margin-right: .3em; }
svg text { font: 12px system-ui, sans-serif; fill: #222; }
footer pre { color: #555; font-size: 12px; white-space: pre-wrap; }
";

/// Text made safe for HTML and XML alike.
fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

/// The page around `body`: title, style, and the provenance header at the foot.
fn page(title: &str, body: &str, provenance: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}<footer>\n<h2>How this page was made</h2>\n<pre class=\"provenance\">{}</pre>\n</footer>\n</body>\n</html>\n",
        escape(title),
        escape(&provenance.lines().map(|l| l.trim_start_matches("# ")).collect::<Vec<_>>().join("\n"))
    )
}

/// A change as a background: orange for more, blue for less, as strong as the change is
/// against the largest on the page.
fn shade(points: f64, biggest: f64) -> String {
    // No move at all stays untinted, so a faint change still shows against it.
    if points == 0.0 {
        return "transparent".to_string();
    }
    let strength = if biggest > 0.0 { (points.abs() / biggest).min(1.0) } else { 0.0 };
    let (r, g, b) = if points >= 0.0 { (230, 120, 30) } else { (40, 100, 200) };
    format!("rgba({r}, {g}, {b}, {:.3})", 0.08 + 0.72 * strength)
}

/// The page for `compare`: the versions, each outcome's change as a heat map over the grid,
/// the cells ranked with their causes, and every difference between the versions.
pub fn sweep_page(call: &str, versions: (&str, &str), sweep: &Sweep, provenance: &str) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "<h1>What the change of rules does</h1>");
    let _ = writeln!(body, "<pre class=\"call\">{}</pre>", escape(call));
    let how =
        if sweep.exact() { "exact odds" } else { "estimated odds (sampled, the same seed and dice on both sides)" };
    let _ = writeln!(
        body,
        "<p>{how}; A: <code>{}</code>, B: <code>{}</code>. Each cell shows how far an outcome's chance moved from A to B, in percentage points.</p>",
        escape(versions.0),
        escape(versions.1)
    );
    let _ = writeln!(
        body,
        "<p class=\"legend\"><span style=\"background: {}\">more likely under B</span><span style=\"background: {}\">less likely under B</span></p>",
        shade(1.0, 1.0),
        shade(-1.0, 1.0)
    );
    let outcomes = outcomes_of(sweep.cells.iter().map(|c| &c.comparison));
    let biggest =
        sweep.cells.iter().flat_map(|c| c.comparison.changes.iter().map(|c| c.points().abs())).fold(0.0, f64::max);
    let _ = writeln!(body, "<div class=\"heat-maps\">");
    for outcome in &outcomes {
        let shown = |cell: &SweepCell| outcome_shown(&cell.comparison, outcome);
        heat_map(&mut body, sweep, &outcome.to_string(), &shown, biggest);
    }
    field_maps(&mut body, sweep);
    let _ = writeln!(body, "</div>");
    ranked_cells(&mut body, sweep);
    differences(&mut body, sweep);
    page("grognard compare", &body, provenance)
}

/// What a heat map shows in a cell: how far it moved (on the map's own scale), the words to
/// hover, and the text in the cell; none where the cell has nothing to show.
type Shown<'a> = &'a dyn Fn(&SweepCell) -> Option<(f64, String, String)>;

/// One quantity's change over the grid (an outcome's chance, a field's mean), named `key`:
/// rows are the values of every axis but the last, columns the last axis's values (one column
/// when there is one axis or none).
fn heat_map(body: &mut String, sweep: &Sweep, key: &str, shown: Shown, biggest: f64) {
    let name = escape(key);
    let columns: Vec<String> = match sweep.axes.last() {
        Some(axis) if sweep.axes.len() > 1 => axis.values.iter().map(|(v, _)| format!("{}={v}", axis.name)).collect(),
        _ => vec!["change".to_string()],
    };
    let per_row = columns.len();
    let _ = writeln!(body, "<section class=\"heat-map\" data-outcome=\"{name}\">\n<h2>{name}</h2>");
    let _ = writeln!(body, "<table class=\"heat\" data-outcome=\"{name}\">\n<tr><th class=\"name\"></th>");
    for column in &columns {
        let _ = writeln!(body, "<th>{}</th>", escape(column));
    }
    let _ = writeln!(body, "</tr>");
    for row in sweep.cells.chunks(per_row) {
        let label = match sweep.axes.len() {
            0 => "the call".to_string(),
            1 => row[0].label(&sweep.axes),
            n => sweep.axes[..n - 1]
                .iter()
                .zip(&row[0].at)
                .map(|(axis, v)| format!("{}={v}", axis.name))
                .collect::<Vec<_>>()
                .join(" "),
        };
        let _ = writeln!(body, "<tr><th class=\"name\">{}</th>", escape(&label));
        for cell in row {
            let (points, title, text) =
                shown(cell).unwrap_or_else(|| (0.0, format!("{key}: under neither version here"), "–".to_string()));
            let _ = writeln!(
                body,
                "<td class=\"cell\" data-cell=\"{}\" data-points=\"{points:.6}\" style=\"background: {}\" title=\"{}\">{}</td>",
                escape(&cell.label(&sweep.axes)),
                shade(points, biggest),
                escape(&title),
                escape(&text)
            );
        }
        let _ = writeln!(body, "</tr>");
    }
    let _ = writeln!(body, "</table>\n</section>");
}

/// An outcome's change in a comparison, as a heat map shows it.
fn outcome_shown(comparison: &Comparison, outcome: &Outcome) -> Option<(f64, String, String)> {
    let c = comparison.changes.iter().find(|c| &c.outcome == outcome)?;
    let title = format!("{}: {} under A, {} under B", outcome, percent(&c.a), percent(&c.b));
    Some((c.points(), title, points_text(c.points())))
}

/// Each field's heat maps: its mean's change when every cell's values are numbers, else each
/// of its outcomes' chances, named `field: outcome`.
fn field_maps(body: &mut String, sweep: &Sweep) {
    let names: Vec<&String> =
        sweep.cells.first().map(|c| c.fields.iter().map(|(n, _)| n).collect()).unwrap_or_default();
    for (i, name) in names.into_iter().enumerate() {
        let field = |cell: &SweepCell| cell.fields.get(i).map(|(_, c)| c.clone());
        let means: Option<Vec<f64>> =
            sweep.cells.iter().map(|cell| field(cell)?.means.map(|(a, b)| to_f64(&b) - to_f64(&a))).collect();
        if let Some(means) = means {
            let biggest = means.iter().map(|m| m.abs()).fold(0.0, f64::max);
            let shown = |cell: &SweepCell| {
                let (a, b) = field(cell)?.means?;
                let (a, b) = (to_f64(&a), to_f64(&b));
                Some((b - a, format!("{name} mean: {a:.3} under A, {b:.3} under B"), format!("{:+.3}", b - a)))
            };
            heat_map(body, sweep, &format!("{name} mean"), &shown, biggest);
            continue;
        }
        let comparisons: Vec<Comparison> = sweep.cells.iter().filter_map(field).collect();
        let biggest = comparisons.iter().flat_map(|c| c.changes.iter().map(|c| c.points().abs())).fold(0.0, f64::max);
        for outcome in outcomes_of(comparisons.iter()) {
            let shown = |cell: &SweepCell| outcome_shown(&field(cell)?, &outcome);
            heat_map(body, sweep, &format!("{name}: {outcome}"), &shown, biggest);
        }
    }
}

/// The cells, the largest move first, each with its largest move and what caused it.
fn ranked_cells(body: &mut String, sweep: &Sweep) {
    let _ = writeln!(body, "<section id=\"ranked\">\n<h2>The cells, largest change first</h2>");
    let _ = writeln!(
        body,
        "<table class=\"ranked\">\n<tr><th class=\"name\">cell</th><th class=\"name\">moves most</th><th>A</th><th>B</th><th class=\"name\">caused by</th></tr>"
    );
    for cell in sweep.ranked() {
        let most: Option<&Change> = cell.comparison.by_size().first().copied();
        let (moved, a, b) = match most {
            Some(c) => (format!("{} {}", c.outcome, points_text(c.points())), percent(&c.a), percent(&c.b)),
            None => (String::new(), String::new(), String::new()),
        };
        let _ = writeln!(
            body,
            "<tr class=\"cell\" data-cell=\"{}\"><td class=\"name\">{}</td><td class=\"name\">{}</td><td>{a}</td><td>{b}</td><td class=\"name\">{}</td></tr>",
            escape(&cell.label(&sweep.axes)),
            escape(&cell.label(&sweep.axes)),
            escape(&moved),
            escape(&causes_text(sweep, cell))
        );
    }
    let _ = writeln!(body, "</table>\n</section>");
}

/// Every difference between the versions, with its kind, id and source.
fn differences(body: &mut String, sweep: &Sweep) {
    let _ = writeln!(body, "<section id=\"differences\">\n<h2>What differs between the versions</h2>");
    if sweep.differences.is_empty() {
        let _ = writeln!(body, "<p>Nothing: the two versions are the same rules, switched the same way.</p>");
    } else {
        let _ = writeln!(
            body,
            "<table class=\"differences\">\n<tr><th class=\"name\">kind</th><th class=\"name\">part</th><th class=\"name\">what</th><th class=\"name\">source</th></tr>"
        );
        for (i, d) in sweep.differences.iter().enumerate() {
            let traced = if sweep.read_from_code.contains(&i) { " (found in the code the call reaches)" } else { "" };
            let _ = writeln!(
                body,
                "<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}{traced}</td><td class=\"name\">{}</td></tr>",
                d.kind(),
                escape(&d.id()),
                escape(&d.what),
                escape(&d.source)
            );
        }
        let _ = writeln!(body, "</table>");
    }
    let _ = writeln!(body, "</section>");
}

/// The page for `odds --why`: the call's odds, then a tornado chart of what each modifier does
/// to each outcome (the odds with it against the odds without it), the largest first.
pub fn attribution_page(label: &str, attribution: &Attribution, provenance: &str) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "<h1>What each modifier does</h1>");
    let _ = writeln!(body, "<pre class=\"call\">{}</pre>", escape(label));
    let how = if attribution.exact() { "exact odds" } else { "estimated odds (sampled, the same seed for each)" };
    let _ =
        writeln!(body, "<p>{how}; each modifier that applied is left out in turn and the odds worked out again.</p>");
    let _ = writeln!(
        body,
        "<section id=\"odds\">\n<h2>The odds</h2>\n<table class=\"odds\">\n<tr><th class=\"name\">result</th><th>chance</th></tr>"
    );
    for (outcome, p) in attribution.odds.rows() {
        let _ = writeln!(
            body,
            "<tr><td class=\"name\">{}</td><td data-p=\"{:.6}\">{}</td></tr>",
            escape(&outcome.to_string()),
            to_f64(&p),
            percent(&p)
        );
    }
    let _ = writeln!(body, "</table>\n</section>");
    tornado(&mut body, attribution);
    page("grognard odds --why", &body, provenance)
}

/// The tornado chart: a block per modifier, largest first, a bar per outcome it moves, left of
/// the axis for less likely with it, right for more.
fn tornado(body: &mut String, attribution: &Attribution) {
    const ROW: f64 = 20.0;
    const LABEL: f64 = 230.0;
    const HALF: f64 = 230.0;
    const NUMBER: f64 = 80.0;
    let ranked = attribution.by_size();
    let _ = writeln!(body, "<section id=\"tornado\">\n<h2>What each modifier does, largest first</h2>");
    if ranked.is_empty() {
        let _ =
            writeln!(body, "<p>No modifier applied on any path: the odds owe nothing to a modifier.</p>\n</section>");
        return;
    }
    let biggest = ranked.iter().flat_map(|r| r.change.changes.iter().map(|c| c.points().abs())).fold(0.0, f64::max);
    // A row for the axis's words, then a row per modifier and one per outcome it moves.
    let rows: usize =
        1 + ranked.iter().map(|r| 1 + r.change.changes.iter().filter(|c| c.a != c.b).count().max(1)).sum::<usize>();
    let (width, height) = (LABEL + 2.0 * HALF + NUMBER, ROW * rows as f64 + 10.0);
    let axis = LABEL + HALF;
    let _ = writeln!(
        body,
        "<svg class=\"tornado\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\">"
    );
    let _ = writeln!(body, "<title>What each modifier does to the odds, in percentage points</title>");
    let _ = writeln!(
        body,
        "<text x=\"{:.1}\" y=\"17\" text-anchor=\"end\">less likely with it</text>\n<text x=\"{:.1}\" y=\"17\">more likely with it</text>",
        axis - 8.0,
        axis + 8.0
    );
    let mut y = 5.0 + ROW;
    for removal in &ranked {
        let _ = writeln!(
            body,
            "<text class=\"modifier\" x=\"0\" y=\"{:.1}\" font-weight=\"bold\">{}.{} ({}, {})</text>",
            y + 14.0,
            escape(&removal.list),
            escape(&removal.id),
            escape(&removal.effect),
            escape(&removal.source)
        );
        y += ROW;
        let moved: Vec<&Change> = removal.change.changes.iter().filter(|c| c.a != c.b).collect();
        if moved.is_empty() {
            let _ = writeln!(body, "<text x=\"16\" y=\"{:.1}\">moves no outcome</text>", y + 14.0);
            y += ROW;
        }
        for change in moved {
            let points = change.points();
            let length = if biggest > 0.0 { points.abs() / biggest * HALF } else { 0.0 };
            let x = if points < 0.0 { axis - length } else { axis };
            let colour = if points < 0.0 { "#2864c8" } else { "#e6781e" };
            let outcome = escape(&change.outcome.to_string());
            let _ = writeln!(body, "<text x=\"16\" y=\"{:.1}\">{outcome}</text>", y + 14.0);
            let _ = writeln!(
                body,
                "<rect class=\"bar\" data-modifier=\"{}.{}\" data-outcome=\"{outcome}\" data-points=\"{points:.6}\" x=\"{x:.2}\" y=\"{:.1}\" width=\"{length:.2}\" height=\"{:.1}\" fill=\"{colour}\"><title>{outcome}: {} without, {} with ({})</title></rect>",
                escape(&removal.list),
                escape(&removal.id),
                y + 3.0,
                ROW - 6.0,
                percent(&change.a),
                percent(&change.b),
                escape(&points_text(points))
            );
            let _ = writeln!(
                body,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                width - 4.0,
                y + 14.0,
                escape(&points_text(points))
            );
            // The axis is drawn beside the bars only: a modifier's name may run across it.
            let _ = writeln!(
                body,
                "<line class=\"axis\" x1=\"{axis}\" y1=\"{y:.1}\" x2=\"{axis}\" y2=\"{:.1}\" stroke=\"#444\" stroke-width=\"1\"/>",
                y + ROW
            );
            y += ROW;
        }
    }
    let _ = writeln!(body, "</svg>");
    let _ = writeln!(body, "</section>");
}
