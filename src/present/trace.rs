//! A trace as a player reads it: brief (what counted), full (every modifier considered, and
//! why each that did not apply did not), or off (only what happened to the units), wrapped to
//! the terminal's width at word boundaries. What rules and scripts wrote in a step (a unit's
//! name, a modifier's text, a note) is escaped (`present::escape`) before the line is wrapped.

use super::escape::escape;
use crate::script::{Step, Trace};

/// How much of a trace to show: `--trace brief|steps|full|off`, `:trace`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceForm {
    /// In a few lines a player reads at a glance: the dice and their totals, the modifiers
    /// that applied by side, each cell's result, the effects and notes; consecutive steps of
    /// a kind on one line.
    #[default]
    Brief,
    /// Each step that counted on a line of its own: the dice with their luck, the modifiers
    /// that applied, each cell read with its text and source, the effects and notes.
    Steps,
    /// Every step, the modifiers that did not apply with their reasons too (what `:why` shows).
    Full,
    /// The dice and the cards, and the effects on units and leaders.
    Off,
}

impl TraceForm {
    /// Whether `step` is shown in this form.
    pub fn shows(self, step: &Step) -> bool {
        match self {
            TraceForm::Full => true,
            TraceForm::Brief | TraceForm::Steps => {
                !matches!(step, Step::Modifier { applied: false, .. } | Step::Detail { .. })
            }
            TraceForm::Off => matches!(step, Step::Effect { .. } | Step::Roll { .. } | Step::Card { .. }),
        }
    }
}

/// Where a step's text begins, past its tag (`roll    `, `mod     `): a wrapped line goes on there.
const TAG_WIDTH: usize = 8;

/// The steps of `trace` this form shows, one per line, each wrapped at `width` columns when one
/// is given (a terminal's), its continuation lines indented under the step's text.
pub fn render(trace: &Trace, form: TraceForm, width: Option<usize>) -> String {
    if form == TraceForm::Brief {
        return render_brief(trace, width);
    }
    let mut out = String::new();
    // The side whose modifiers were listed last: a melee's modifiers come under a line naming their side.
    let mut side_shown: Option<&str> = None;
    for step in trace.steps.iter().filter(|s| form.shows(s)) {
        if let Step::Modifier { side: Some(side), .. } = step
            && side_shown != Some(side.as_str())
        {
            out += &wrap(&escape(&format!("side    {side}")), width);
            out.push('\n');
            side_shown = Some(side);
        }
        let mut line = step.to_string();
        match step {
            Step::Roll { roll, luck: Some(luck), .. } => {
                line += &format!("  [{} or more: {}]", roll.total, percent(*luck))
            }
            Step::Roll { chance: Some(yes), .. } => line += &format!("  [chance of yes: {}]", one_in(*yes)),
            Step::Table { near, luck, .. } => line += &margins(*luck, near),
            _ => {}
        }
        out += &wrap(&escape(&line), width);
        out.push('\n');
    }
    out
}

/// One line of the brief trace as it is built: steps of one kind in a row share a line (a
/// melee's two dice; both sides' modifiers, each side's under its name; a struggle's effects,
/// each unit's together), and are written out once the line is complete.
enum Brief<'a> {
    Rolls(Vec<String>),
    /// Each side's modifiers (none: the list names no side), in the order met.
    Modifiers(Vec<(Option<&'a str>, Vec<String>)>),
    /// Each unit's effects, in the order met.
    Effects(Vec<(&'a str, Vec<&'a str>)>),
    Notes(Vec<&'a str>),
    /// A line of its own: a table read, a card drawn.
    Own(String),
}

impl Brief<'_> {
    fn written(&self) -> String {
        match self {
            Brief::Rolls(rolls) => format!("roll    {}", rolls.join("; ")),
            Brief::Modifiers(sides) => {
                let each: Vec<String> = sides
                    .iter()
                    .map(|(side, mods)| match side {
                        Some(side) => format!("{side}: {}", mods.join(", ")),
                        None => mods.join(", "),
                    })
                    .collect();
                format!("mods    {}", each.join("; "))
            }
            Brief::Effects(units) => {
                let each: Vec<String> = units.iter().map(|(unit, e)| format!("{unit}: {}", e.join(", "))).collect();
                format!("effect  {}", each.join("; "))
            }
            Brief::Notes(notes) => format!("note    {}", notes.join("; ")),
            Brief::Own(line) => line.clone(),
        }
    }
}

/// The brief trace: the steps `TraceForm::Brief` shows, those of a kind in a row on one line.
fn render_brief(trace: &Trace, width: Option<usize>) -> String {
    let mut lines: Vec<Brief> = Vec::new();
    for step in trace.steps.iter().filter(|s| TraceForm::Brief.shows(s)) {
        match step {
            Step::Roll { label, roll, .. } => {
                // One die read as it fell is its face alone: `4e Ligne (attacker): 5`.
                let plain = roll.dice.len() == 1
                    && roll.success.is_none()
                    && roll.hits.is_none()
                    && roll.dice[0].natural == roll.total
                    && !roll.faces_unknown;
                let part = match (label, plain) {
                    (Some(label), true) => format!("{label}: {}", roll.total),
                    (Some(label), false) => format!("{label}: {roll}"),
                    (None, _) => roll.to_string(),
                };
                match lines.last_mut() {
                    Some(Brief::Rolls(rolls)) => rolls.push(part),
                    _ => lines.push(Brief::Rolls(vec![part])),
                }
            }
            Step::Modifier { id, effect, times, side, .. } => {
                // What it added in all: `national +2`, not `national +1 x2`.
                let part = match (effect, times) {
                    (crate::rules::ModEffect::Add(v), Some(n)) => format!("{id} {:+}", v.saturating_mul(*n)),
                    (_, Some(n)) => format!("{id} {effect} x{n}"),
                    (_, None) => format!("{id} {effect}"),
                };
                let side = side.as_deref();
                match lines.last_mut() {
                    Some(Brief::Modifiers(sides)) => match sides.iter_mut().find(|(s, _)| *s == side) {
                        Some((_, mods)) => mods.push(part),
                        None => sides.push((side, vec![part])),
                    },
                    _ => lines.push(Brief::Modifiers(vec![(side, vec![part])])),
                }
            }
            Step::Effect { subject, effects } => match lines.last_mut() {
                Some(Brief::Effects(units)) => match units.iter_mut().find(|(u, _)| *u == subject.as_str()) {
                    Some((_, e)) => e.push(effects),
                    None => units.push((subject, vec![effects])),
                },
                _ => lines.push(Brief::Effects(vec![(subject, vec![effects])])),
            },
            Step::Note { text } | Step::Detail { text } => match lines.last_mut() {
                Some(Brief::Notes(notes)) => notes.push(text),
                _ => lines.push(Brief::Notes(vec![text])),
            },
            Step::Table { title, reading, luck, .. } => {
                let mut line = format!("table   {title}");
                if let Some(row) = &reading.row {
                    line += &format!(", row {row}");
                }
                line += &format!(", total {}", reading.total);
                match &reading.result {
                    // What comes of it: the rules' own words for what it lets or makes the
                    // units do next, else the result's text when it is short.
                    Some(result) => {
                        line += &format!(" -> {}", result.id);
                        match &result.next {
                            Some(next) => line += &format!(": {next}"),
                            None if result.text.chars().count() <= 40 && !result.text.is_empty() => {
                                line += &format!(": {}", result.text)
                            }
                            None => {}
                        }
                    }
                    None => line += ": no result",
                }
                // How lucky, not how near: the results a total or two away are for `steps`.
                line += &margins(*luck, &[]);
                lines.push(Brief::Own(line));
            }
            Step::Card { .. } => lines.push(Brief::Own(step.to_string())),
        }
    }
    let mut out = String::new();
    for line in lines {
        out += &wrap(&escape(&line.written()), width);
        out.push('\n');
    }
    out
}

/// How lucky a table's reading was and how near it came to other results:
/// `  [this or higher: 30%; 1 more: deadly; 2 less: desultory]`.
fn margins(luck: Option<f64>, near: &[(i64, String)]) -> String {
    let mut each: Vec<String> = luck.map(|p| format!("this or higher: {}", percent(p))).into_iter().collect();
    each.extend(
        near.iter().map(|(by, result)| format!("{} {}: {result}", by.abs(), if *by > 0 { "more" } else { "less" })),
    );
    if each.is_empty() {
        return String::new();
    }
    format!("  [{}]", each.join("; "))
}

/// A chance of yes as a player reads it: `1 in 20 (5%)` when it is one chance in a whole
/// number, else as `percent` reads it (three in eight: `38%`).
pub fn one_in(p: f64) -> String {
    let n = (1.0 / p).round();
    if p > 0.0 && p < 1.0 && n >= 2.0 && (n * p - 1.0).abs() < 1e-9 {
        format!("1 in {n} ({})", percent(p))
    } else {
        percent(p)
    }
}

/// A chance as a player reads it: `30%`, `2.5%`, `<0.1%`; never 0% or 100% for what may or may not happen.
pub fn percent(p: f64) -> String {
    let pct = p * 100.0;
    match pct {
        x if x >= 100.0 => "100%".into(),
        x if x > 99.0 => format!("{:.1}%", x.min(99.9)),
        x if x >= 1.0 => format!("{:.0}%", x),
        x if x >= 0.1 => format!("{:.1}%", x),
        x if x > 0.0 => "<0.1%".into(),
        _ => "0%".into(),
    }
}

/// One line wrapped at `width` at word boundaries, as is when no width is given.
pub fn wrap(line: &str, width: Option<usize>) -> String {
    match width {
        // Too narrow to indent sensibly: as is, the terminal wraps it.
        Some(width) if width > TAG_WIDTH + 20 => super::fit::wrap_line(line, width, TAG_WIDTH),
        _ => line.to_string(),
    }
}

/// The width of the terminal on standard output, when it is one.
pub fn terminal_width() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    terminal_size::terminal_size().map(|(w, _)| usize::from(w.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace() -> Trace {
        Trace {
            steps: vec![
                Step::Note { text: "4 stand(s) firing at 1 fire point(s) each".into() },
                Step::Modifier {
                    list: "fire_modifiers".into(),
                    id: "enfilade".into(),
                    side: None,
                    effect: crate::rules::ModEffect::Add(2),
                    times: None,
                    applied: false,
                    why_not: Some("the situation says enfiladed: false".into()),
                    text: "Target is enfiladed".into(),
                    source: "seed 004".into(),
                },
                Step::Effect { subject: "4e Ligne".into(), effects: "disordered, loses 1 stand".into() },
            ],
        }
    }

    #[test]
    fn a_chance_of_one_in_a_whole_number_says_so() {
        assert_eq!(one_in(1.0 / 20.0), "1 in 20 (5%)");
        assert_eq!(one_in(3.0 / 12.0), "1 in 4 (25%)");
        assert_eq!(one_in(3.0 / 8.0), "38%");
        assert_eq!(one_in(1.0), "100%");
    }

    #[test]
    fn each_form_shows_its_steps() {
        let brief = render(&trace(), TraceForm::Brief, None);
        assert_eq!(
            brief,
            "note    4 stand(s) firing at 1 fire point(s) each\neffect  4e Ligne: disordered, loses 1 stand\n"
        );
        let full = render(&trace(), TraceForm::Full, None);
        assert!(full.contains("mod     no  +2"), "{full}");
        assert!(full.contains("(the situation says enfiladed: false)"), "{full}");
        assert_eq!(render(&trace(), TraceForm::Off, None), "effect  4e Ligne: disordered, loses 1 stand\n");
    }

    #[test]
    fn lines_wrap_at_word_boundaries_under_the_text() {
        let full = render(&trace(), TraceForm::Full, Some(40));
        for line in full.lines() {
            assert!(line.chars().count() <= 40, "{line:?} in\n{full}");
        }
        assert!(full.contains("mod     no  +2                Target is\n        enfiladed"), "{full}");
        // Every word is kept, in order.
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&full), words(&render(&trace(), TraceForm::Full, None)));
    }

    #[test]
    fn what_rules_and_scripts_wrote_is_escaped() {
        let hostile = Trace {
            steps: vec![
                Step::Note { text: "\x1b]0;PWNED\x07".into() },
                Step::Effect { subject: "\x1b[2JEVIL".into(), effects: "disordered\r".into() },
            ],
        };
        assert_eq!(
            render(&hostile, TraceForm::Brief, Some(40)),
            "note    \\u{1b}]0;PWNED\\u{7}\neffect  \\u{1b}[2JEVIL: disordered\\r\n"
        );
    }
}
