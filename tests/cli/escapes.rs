//! Text from rules, scenarios and scripts on a terminal: control characters are escaped in text
//! (`\u{1b}`), refused in rule files where they are written, and kept exact in JSON and CSV.

use super::{grognard, stderr, stdout};

const HOSTILE_UNIT: &str = r#"let a = unit(#{name: "\x1b[2JEVIL", nation: "britain", arm: "infantry", stands: 6, formation: "line"});
let b = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"});"#;

/// Whether `text` holds a control character a terminal would obey (any but newline).
fn commands_a_terminal(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\n')
}

#[test]
fn eval_shows_a_hostile_unit_name_escaped_in_its_trace_and_value() {
    let expr = format!("{HOSTILE_UNIT}\nfire(b, a, #{{range: 1}}); a");
    for trace in ["brief", "full"] {
        let out = grognard(&["eval", "--rules", "ff-napoleonic", "--seed", "3", "--trace", trace, &expr]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(!out.stdout.contains(&0x1b), "a raw ESC in {:?}", stdout(&out));
        let text = stdout(&out);
        assert!(!commands_a_terminal(&text), "{text:?}");
        // The effect on the unit, and the unit as the value.
        assert!(text.contains(r"effect  \u{1b}[2JEVIL: "), "{text}");
        assert!(text.lines().last().unwrap().contains(r"\u{1b}[2JEVIL"), "{text}");
    }
}

#[test]
fn eval_json_keeps_the_exact_name() {
    let expr = HOSTILE_UNIT.replace(r"\x1b[2JEVIL", r"\x1b[2JEVIL\u009b\x7f") + "\na";
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "--seed", "3", "--json", &expr]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // JSON escapes every control (serde_json C0, grognard DEL and C1), and reads back exact.
    assert!(!commands_a_terminal(&text), "{text:?}");
    assert!(text.contains(r#""name": "\u001b[2JEVIL\u009b\u007f""#), "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["value"]["name"], "\x1b[2JEVIL\u{9b}\u{7f}");
}

#[test]
fn an_error_quoting_a_script_is_escaped_and_coloured_only_by_grognard() {
    let throw = r#"throw "\x1b]0;PWNED\x07\x1b[2J""#;
    let out = grognard(&["eval", "--rules", "ff-napoleonic", throw]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(!commands_a_terminal(&err), "{err:?}");
    assert!(err.contains(r"\u{1b}]0;PWNED\u{7}\u{1b}[2J"), "{err}");
    // In colour, the only escape sequences are colours (SGR: ESC [ digits m).
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "--color", "always", throw]);
    let err = stderr(&out);
    assert!(err.contains("\x1b["), "{err:?}");
    let mut rest = err.as_str();
    while let Some(at) = rest.find('\x1b') {
        let after = &rest[at + 1..];
        let end = after.find('m').expect("an SGR sequence");
        assert!(after.starts_with('[') && after[1..end].bytes().all(|b| b.is_ascii_digit() || b == b';'), "{after:?}");
        rest = &after[end + 1..];
    }
    assert!(!commands_a_terminal(rest), "{rest:?}");
}

const HOSTILE_RULES: &str = "tests/fixtures/rules/hostile-text";

#[test]
fn check_refuses_a_rule_text_with_a_control_character_where_it_is_written() {
    let out = grognard(&["check", HOSTILE_RULES]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), format!("{HOSTILE_RULES}: 2 errors and 0 warnings in the rules\n"));
    let err = stderr(&out);
    assert!(!commands_a_terminal(&err), "{err:?}");
    assert_eq!(err.matches("rules::control_character").count(), 2, "{err}");
    for place in ["modifiers/morale_modifiers.yaml:8:12]", "tables/morale.yaml:10:20]"] {
        assert!(err.contains(&format!("{HOSTILE_RULES}/{place}")), "{place} in\n{err}");
    }
    assert!(err.contains("this text holds the control character U+001B (`\\u{1b}`), which a terminal"), "{err}");
}

#[test]
fn show_eval_and_the_rest_refuse_the_same_rules() {
    for args in [&["show", "--rules", HOSTILE_RULES, "morale_modifiers"][..], &["eval", "--rules", HOSTILE_RULES, "1"]]
    {
        let out = grognard(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = stderr(&out);
        assert!(!commands_a_terminal(&err) && stdout(&out).is_empty(), "{err:?}");
        assert!(err.contains("rules::control_character"), "{err}");
    }
}

const HOSTILE_TALLIES: &str = "tests/fixtures/scripts/hostile_tallies.rhai";

#[test]
fn a_study_shows_its_tallies_escaped_and_writes_them_exact_as_data() {
    let text = stdout(&grognard(&["run", HOSTILE_TALLIES, "--trials", "20", "--seed", "1"]));
    assert!(!commands_a_terminal(&text), "{text:?}");
    assert!(text.contains(r"\u{1b}]0;PWNED\u{7} (20 observed)"), "{text}");
    // Columns measured on the escaped words: the counts stand in one column.
    let rows: Vec<&str> = text.lines().filter(|l| l.contains('%') && !l.contains("interval")).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows[0].starts_with(r"  high\u{9b}  ") && rows[1].starts_with(r"  \u{1b}[2Jlow  "), "{text}");
    assert_eq!(rows[0].find('%'), rows[1].find('%'), "{text}");

    // CSV into a pipe is data: the exact text.
    let csv = stdout(&grognard(&["run", HOSTILE_TALLIES, "--trials", "20", "--seed", "1", "--csv"]));
    assert!(csv.contains("tally,\x1b]0;PWNED\x07,\x1b[2Jlow,9,"), "{csv:?}");
    let json = stdout(&grognard(&["run", HOSTILE_TALLIES, "--trials", "20", "--seed", "1", "--json"]));
    assert!(!commands_a_terminal(&json), "{json:?}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let outcomes = &json["summary"]["tallies"]["\x1b]0;PWNED\x07"]["outcomes"];
    let values: Vec<&str> = outcomes.as_array().unwrap().iter().map(|o| o["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["high\u{9b}", "\x1b[2Jlow"]);
}

#[test]
fn odds_of_hostile_results_are_escaped_as_text_and_exact_as_json() {
    let expr = r#"if roll("1d6").total > 3 { "\x1b[2Jhigh" } else { "low\x07" }"#;
    let text = stdout(&grognard(&["odds", "--rules", "ff-napoleonic", expr]));
    assert!(!commands_a_terminal(&text), "{text:?}");
    assert!(text.contains(r"\u{1b}[2Jhigh") && text.contains(r"low\u{7}"), "{text}");
    let json = stdout(&grognard(&["odds", "--rules", "ff-napoleonic", "--json", expr]));
    assert!(!commands_a_terminal(&json), "{json:?}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(json.to_string().contains(r#""\u001b[2Jhigh""#), "{json}");
}

#[test]
fn csv_onto_a_terminal_is_escaped() {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"));
    command.args(["run", HOSTILE_TALLIES, "--trials", "20", "--seed", "1", "--csv", "--quiet"]).env("NO_COLOR", "1");
    let mut p = rexpect::session::spawn_command(command, Some(30_000)).expect("grognard in a pseudo-terminal");
    let shown = p.exp_eof().unwrap();
    assert!(shown.contains(r"tally,\u{1b}]0;PWNED\u{7},\u{1b}[2Jlow,9,"), "{shown:?}");
    assert!(!shown.contains('\x1b') && !shown.contains('\x07'), "{shown:?}");
}
