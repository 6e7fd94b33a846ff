//! Tests of the REPL session without a terminal: every command, manual dice,
//! reload after a broken edit, save and load, and errors that keep the state.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::*;
use crate::present::diagnostic::Look;
use crate::rules::Switches;
use crate::script::{Limits, UnitRef};

fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn session(specs: &[&str]) -> Session {
    let specs: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    Session::new(&specs, Switches::default(), Some(rules_dir()), Look::Plain).unwrap()
}

fn output(reply: Reply) -> String {
    match reply {
        Reply::Output(text) => text,
        other => panic!("expected output, got {other:?}"),
    }
}

fn error(reply: Reply) -> String {
    match reply {
        Reply::Error(text) => text,
        other => panic!("expected an error, got {other:?}"),
    }
}

/// A folder of its own under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grognard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

const UNITS: &str = r#"let a = unit(#{name: "54th Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line"});
let b = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"});"#;

#[test]
fn a_fire_prints_its_trace_and_result() {
    let mut s = session(&["ff-napoleonic"]);
    assert!(s.banner().contains("Fire & Fury Napoleonic"));
    output(s.handle(UNITS));
    output(s.handle(":seed 3"));
    let text = output(s.handle("fire(a, b, #{range: 1})"));
    assert!(text.contains("roll    musketry: "), "{text}");
    assert!(text.contains("table   Musketry and Cannonade Table"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("= #{"), "{text}");
    // Modifiers that did not apply wait for :why.
    assert!(!text.contains("mod     no"), "{text}");
    let why = output(s.handle(":why"));
    assert!(why.contains("mod     no"), "{why}");
    // 21: the four "-1/2" modifiers are listed twice, as a halving and as a -1 (fire_halving).
    assert_eq!(why.lines().filter(|l| l.starts_with("mod ")).count(), 21);
}

/// Answers the session's dice prompts with `answers`, in order (then none: the roll is
/// cancelled); returns the prompts asked, as they are asked.
fn answer_with(s: &mut Session, answers: &[&'static str]) -> Rc<RefCell<Vec<String>>> {
    let answers: Rc<RefCell<VecDeque<&str>>> = Rc::new(RefCell::new(answers.iter().copied().collect()));
    let prompts: Rc<RefCell<Vec<String>>> = Rc::default();
    let p = prompts.clone();
    s.set_asker(Rc::new(RefCell::new(move |prompt: &str| {
        p.borrow_mut().push(prompt.to_string());
        answers.borrow_mut().pop_front().map(str::to_string)
    })));
    prompts
}

#[test]
fn manual_dice_ask_for_every_die_and_check_it() {
    let mut s = session(&["ff-napoleonic"]);
    let prompts = answer_with(&mut s, &["11", "x", "8"]);
    assert_eq!(output(s.handle(":dice manual")), "dice: manual; you will be asked for every die");
    assert_eq!(s.dice(), DiceSetting::Manual);
    output(s.handle(UNITS));
    let text = output(s.handle("fire(a, b, #{range: 1})"));
    assert!(text.contains("roll    musketry: 8\n"), "{text}");
    assert_eq!(
        *prompts.borrow(),
        [
            "roll a d10 (1-10: a 0 is 10) for musketry: ",
            "11 is not on a d10 (1-10: a 0 is 10); roll a d10 for musketry: ",
            "`x` is not a face; roll a d10 (1-10: a 0 is 10) for musketry: ",
        ]
    );
    // No more answers: the roll is cancelled with a clear message, and the units are as they were.
    let err = error(s.handle("fire(a, b, #{range: 1})"));
    assert!(err.contains("the roll was cancelled"), "{err}");
    let b = s.variable("b").unwrap().cast::<UnitRef>();
    assert_eq!(b.0.borrow().stands, 5);
}

/// Answers the session's dice prompts with `answers`, then presses Ctrl-C at the next one, as
/// the terminal's asker does: the interrupt flag set, no face given.
fn answer_then_ctrl_c(s: &mut Session, answers: &[&'static str]) {
    let mut answers: VecDeque<&str> = answers.iter().copied().collect();
    let interrupt = s.interrupt_flag();
    s.set_asker(Rc::new(RefCell::new(move |_: &str| {
        let answer = answers.pop_front().map(str::to_string);
        if answer.is_none() {
            interrupt.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        answer
    })));
}

#[test]
fn ctrl_c_at_a_dice_prompt_refuses_the_line_and_takes_it_back_whole() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle("let n = 1; let before = \"kept\";"));
    output(s.handle(":dice manual"));
    // The line changes a unit, a variable and makes one before the die it stops at: the
    // melee's second die, after the first was given.
    answer_then_ctrl_c(&mut s, &["9"]);
    let undoable = s.undo.len();
    let err = error(s.handle("a.lose_stands(2); n = 50; let made = 3; melee(b, a, #{})"));
    assert!(err.contains("script::interrupted"), "{err}");
    assert!(err.contains("interrupted (Ctrl-C) while a d10 (1-10) was asked for"), "{err}");
    assert!(
        err.ends_with("nothing was applied: the units, leaders, variables and dice are as they were before the line"),
        "{err}"
    );
    assert_eq!(s.variable("a").unwrap().cast::<UnitRef>().0.borrow().stands, 6);
    assert_eq!(output(s.handle("n")), "= 1");
    assert!(s.variable("made").is_none());
    assert_eq!(output(s.handle("before")), "= \"kept\"");
    // Nothing was kept to undo: the line did not happen.
    assert_eq!(s.undo.len(), undoable);
    // Given no face without Ctrl-C (Ctrl-D), the roll is cancelled as before.
    answer_with(&mut s, &[]);
    assert!(error(s.handle("roll(\"1d6\")")).contains("the roll was cancelled"));
    // The next line runs: a Ctrl-C pressed before it does not stop it.
    s.interrupt_flag().store(true, std::sync::atomic::Ordering::Relaxed);
    answer_with(&mut s, &["4"]);
    assert_eq!(output(s.handle("a.lose_stands(1); roll(\"1d6\").total")).lines().last(), Some("= 4"));
    assert_eq!(s.variable("a").unwrap().cast::<UnitRef>().0.borrow().stands, 5);
}

#[test]
fn ctrl_c_while_a_line_runs_takes_it_back_whole() {
    let mut s = session(&["ff-napoleonic"]);
    let limits = Limits { max_operations: u64::MAX, time_limit: None, ..Default::default() };
    s.set_limits(limits, limits);
    output(s.handle(UNITS));
    output(s.handle("let n = 1;"));
    let interrupt = s.interrupt_flag();
    let pressed = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        interrupt.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let err = error(s.handle("a.lose_stands(3); n = 2; let i = 0; loop { i += 1 }"));
    pressed.join().unwrap();
    assert!(err.contains("interrupted (Ctrl-C)") && err.contains("nothing was applied"), "{err}");
    assert_eq!(s.variable("a").unwrap().cast::<UnitRef>().0.borrow().stands, 6);
    assert_eq!(output(s.handle("n")), "= 1");
    assert!(s.variable("i").is_none());
}

#[test]
fn a_d10_face_is_typed_as_the_die_at_the_table_prints_it() {
    // Read 1-10: a die that prints 0 is typed as 0, and read as 10.
    let mut s = session(&["ff-napoleonic"]);
    let prompts = answer_with(&mut s, &["0", "10 0"]);
    output(s.handle(":dice manual"));
    assert_eq!(output(s.handle(r#"roll("1d10").total"#)).lines().last(), Some("= 10"));
    assert_eq!(output(s.handle(r#"roll("2d10").total"#)).lines().last(), Some("= 20"));
    assert_eq!(prompts.borrow()[0], "roll a d10 (1-10: a 0 is 10): ");
    // Read 0-9: a die that prints 10 is typed as 10, and read as 0.
    let zero_based = format!("{}/tests/fixtures/rules/linear-warfare-zero-based", env!("CARGO_MANIFEST_DIR"));
    let mut s = session(&[zero_based.as_str()]);
    let prompts = answer_with(&mut s, &["10", "11", "0"]);
    output(s.handle(":dice manual"));
    assert_eq!(output(s.handle(r#"roll("1d10").total"#)).lines().last(), Some("= 0"));
    assert_eq!(output(s.handle(r#"roll("1d10").total"#)).lines().last(), Some("= 0"));
    assert_eq!(
        *prompts.borrow(),
        [
            "roll a d10 (0-9: a 10 is 0): ",
            "roll a d10 (0-9: a 10 is 0): ",
            "11 is not on a d10 (0-9: a 10 is 0); roll a d10: "
        ]
    );
}

#[test]
fn manual_dice_ask_for_a_named_die_by_its_name_and_faces() {
    let mut s = session(&["volley-example"]);
    let prompts = answer_with(&mut s, &["6 2", "5 2"]);
    output(s.handle(":dice manual"));
    assert_eq!(output(s.handle(r#"roll("2avg", "steady volley").total"#)).lines().last(), Some("= 7"));
    assert_eq!(
        *prompts.borrow(),
        [
            "roll 2 avg (2,3,3,4,4,5) for steady volley (all on one line, or one at a time): ",
            "6 is not on a avg (2,3,3,4,4,5); roll 2 avg for steady volley: ",
        ]
    );
    // `:odds` reads the ruleset's dice too.
    let odds = output(s.handle(":odds 2avg hits 4+"));
    assert!(odds.contains("2avg hits 4+: exact odds"), "{odds}");
    assert!(odds.contains("    2     1/4"), "{odds}");
}

#[test]
fn manual_dice_take_a_pool_on_one_line_and_ask_for_the_re_rolls_by_name() {
    let mut s = session(&["volley-example"]);
    let prompts = answer_with(&mut s, &["5 2 7", "5 2 x", "5 2 6 1", "5 2", "1", "4", "4", "6 5 3"]);
    output(s.handle(":dice manual"));
    output(s.handle(r#"let a = unit(#{name: "A", arm: "infantry", stands: 3, formation: "line"}); let b = unit(#{name: "B", arm: "infantry", stands: 6, formation: "line"});"#));
    let text = output(s.handle("volley(a, b, #{first_volley: true}).hits"));
    assert!(text.ends_with("= 3"), "{text}");
    assert!(text.contains("3d6 hits 4+ reroll misses: [5 2↻4 1↻4 → 3 hits] = 3"), "{text}");
    assert!(text.contains("3d6 hits 6+: [6 5 3 → 1 hit] = 1"), "{text}");
    assert_eq!(
        prompts.borrow()[..7],
        [
            "roll 3 d6 (1-6) for A volley (all on one line, or one at a time): ",
            "7 is not on a d6 (1-6); roll 3 d6 for A volley: ",
            "`x` is not a face; roll 3 d6 (1-6) for A volley: ",
            "4 faces for 3 dice; roll 3 d6 (1-6) for A volley: ",
            // Two of three on the line: the third is asked for alone.
            "roll a d6 (1-6) for A volley, die 3 of 3: ",
            // Then the misses, by name.
            "roll a d6 (1-6) for A volley, re-roll of die 2 of 3: ",
            "roll a d6 (1-6) for A volley, re-roll of die 3 of 3: ",
        ]
    );
}

#[test]
fn switches_change_the_rules_and_are_checked() {
    let mut s = session(&["ff-napoleonic"]);
    assert_eq!(output(s.handle(":set musketry_below_zero=desultory")), "musketry_below_zero = desultory");
    let options = output(s.handle(":options"));
    assert!(options.contains("musketry_below_zero = desultory"), "{options}");
    let err = error(s.handle(":set musketry_below_zero=zero"));
    assert!(err.contains("has no choice `zero`"), "{err}");
    let err = error(s.handle(":with attrition_die"));
    assert!(err.contains("has no option `attrition_die`"), "{err}");
    let mut s = session(&["republique"]);
    assert_eq!(output(s.handle(":with attached_artillery")), "attached_artillery: on");
    assert_eq!(output(s.handle(":without attached_artillery")), "attached_artillery: off");
}

#[test]
fn a_switch_changes_what_the_procedures_do_from_the_next_line() {
    // Procedures read each switch once, when it is set: a change must reach them at once.
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle(r#"apply(a, #{order: "disordered"});"#));
    let points = |s: &mut Session| output(s.handle("fire(a, b, #{fire_points: 6}).fire_points"));
    let halved = points(&mut s);
    assert!(halved.contains("firer_disordered halve fire points") && halved.ends_with("= 3.0"), "{halved}");
    output(s.handle(":set fire_halving=minus_one"));
    let kept = points(&mut s);
    assert!(kept.ends_with("= 6.0"), "minus_one: the halving is a -1 on the die instead: {kept}");
    output(s.handle(":set fire_halving=cumulative"));
    assert!(points(&mut s).ends_with("= 3.0"));

    let mut s = session(&["republique"]);
    let bombard = "preliminary_bombardment([], [], #{agreed: false}).phases";
    assert!(error(s.handle(bombard)).contains("rule 401 (preliminary_bombardment) is off"));
    output(s.handle(":with preliminary_bombardment"));
    assert!(output(s.handle(bombard)).ends_with("= 0"));
    output(s.handle(":without preliminary_bombardment"));
    assert!(error(s.handle(bombard)).contains("is off"));
}

#[test]
fn show_rules_and_use() {
    let mut s = session(&[]);
    assert!(s.banner().contains("no ruleset"));
    let rules = output(s.handle(":rules"));
    assert!(rules.contains("loaded: none") && rules.contains("  ff-napoleonic"), "{rules}");
    assert!(output(s.handle(":use linear-warfare")).starts_with("using Linear Warfare"));
    let chart = output(s.handle(":show fallen_leader"));
    assert!(chart.contains("Fatal Wound: Leader dies"), "{chart}");
    let err = error(s.handle(":use no-such-rules"));
    assert!(err.contains("no ruleset folder"), "{err}");
    // The old rules are still there.
    assert!(output(s.handle(":show")).contains("Fallen Leader Table"));
    assert!(error(s.handle(":show nothing")).contains("no table, modifier list or procedure `nothing`"));
}

#[test]
fn odds_of_dice_and_of_a_procedure() {
    let mut s = session(&["linear-warfare"]);
    let text = output(s.handle(":odds 2d6 >= 8"));
    assert!(text.starts_with("2d6 >= 8: chance 5/12"), "{text}");
    // Percents at a glance, to three figures; the fractions when asked for.
    let text = output(s.handle(r#":odds fallen_leader(leader(#{name: "K"}), #{}).result"#));
    assert!(text.contains("exact odds (10 branches walked)"), "{text}");
    assert!(text.contains("\nfatal_wound            40.0%  "), "{text}");
    assert!(!text.contains("2/5"), "{text}");
    let text = output(s.handle(r#":odds --exact fallen_leader(leader(#{name: "K"}), #{}).result"#));
    assert!(text.contains("fatal_wound") && text.contains("2/5"), "{text}");
    assert!(error(s.handle(":odds")).contains("takes a dice expression"));
}

#[test]
fn odds_why_weighs_the_last_resolution_as_the_units_stood_before_it() {
    let mut s = session(&["ff-house-example"]);
    assert!(error(s.handle(":odds why")).contains("none has been made"));
    let veterans =
        UNITS.replace(r#"stands: 6, formation: "line""#, r#"grade: "veteran", stands: 6, formation: "line""#);
    output(s.handle(&veterans));
    let call = r#"fire(a, b, #{range: 2})"#;
    let asked = output(s.handle(&format!(":odds why {call}")));
    output(s.handle(call));
    let units_after = output(s.handle(":units"));
    let last = output(s.handle(":odds why"));
    assert!(last.starts_with(&format!("{call}  (as the units stood before it)")), "{last}");
    // Weighed on the units before the fire: the same as asking before it was resolved.
    assert_eq!(last.lines().skip(1).collect::<Vec<_>>(), asked.lines().skip(1).collect::<Vec<_>>());
    assert!(last.contains("fire_modifiers.veteran_volleys (+1): Veteran infantry volley"), "{last}");
    assert!(last.contains("desultory -10.0pt") || last.contains("deadly +10.0pt"), "{last}");
    // And the units are as the fire left them.
    assert_eq!(output(s.handle(":units")), units_after);
    let err = error(s.handle(":odds why 2d6"));
    assert!(err.contains("`2d6` is dice: a roll has no modifiers"), "{err}");
    // A line that is not one call is no resolution: `:odds why` still weighs the fire.
    output(s.handle("a.stands = 3"));
    output(s.handle(&format!("let r = {call};")));
    assert_eq!(output(s.handle(":odds why")), last);
    // A fire ended with `;` is one too (weighed without it).
    output(s.handle(&format!("{call};")));
    assert!(output(s.handle(":odds why")).starts_with(&format!("{call};  (as the units stood before it)")));
    // Undone, it is not there to weigh.
    output(s.handle(":undo"));
    assert!(error(s.handle(":odds why")).contains("none has been made"));
}

#[test]
fn odds_of_a_field_of_what_a_procedure_returns() {
    let mut s = session(&["linear-warfare"]);
    // `fallen_leader` returns `#{ result, natural }`: the natural d10 is 1 to 10, each 1/10.
    let text = output(s.handle(r#":odds --exact --field natural fallen_leader(leader(#{name: "K"}), #{})"#));
    assert!(text.contains("fatal_wound") && text.contains("2/5"), "{text}");
    assert!(text.contains("\nnatural  chance   percent  at least   at most\n"), "{text}");
    assert!(text.contains("\n10         1/10    10.00%    10.00%   100.00%"), "{text}");
    assert!(text.ends_with("mean 5.5000, standard deviation 2.8723"), "{text}");
    // Two fields, the second written with `=`.
    let text = output(s.handle(r#":odds --field natural --field=result fallen_leader(leader(#{name: "K"}), #{})"#));
    assert!(text.contains("\nnatural   chance  at least  at most\n"), "{text}");
    assert!(text.contains("\n10         10.0%     10.0%     100%"), "{text}");
    assert!(text.contains("\nresult                chance"), "{text}");

    let err = error(s.handle(r#":odds --field naturel fallen_leader(leader(#{name: "K"}), #{})"#));
    assert!(err.contains("no result has a field `naturel` (did you mean `natural`?)"), "{err}");
    let err = error(s.handle(":odds --field total 2d6"));
    assert!(err.contains("`2d6` is dice: a roll has no fields"), "{err}");
    assert!(error(s.handle(":odds --field")).contains("`--field` takes a field's name"));
    // `--fieldx` is not a flag: refused with the one meant.
    let err = error(s.handle(":odds --fieldx 2d6"));
    assert!(err.contains("`--fieldx` is not a flag of `:odds` (did you mean `field`?)"), "{err}");
}

#[test]
fn errors_keep_the_session() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    assert!(error(s.handle("fire(a, b")).contains("script::compile"));
    assert!(error(s.handle("lookup(\"musketri\", 6, 5)")).contains("musketry"));
    assert!(error(s.handle(":dice sometimes")).contains("`auto` or `manual`"));
    assert!(error(s.handle(":seed x")).contains("whole number"));
    assert!(error(s.handle(":bogus")).contains("not a command"));
    assert!(error(s.handle(":trace maybe")).contains("`brief`, `steps`, `full` or `off`, not `maybe`"));
    assert!(error(s.handle(":trace ful")).contains("(did you mean `full`?)"));
    // Still there.
    let units = output(s.handle(":units"));
    assert!(units.contains("a: 54th Foot") && units.contains("b: 4e Ligne"), "{units}");
    assert_eq!(s.handle(":quit"), Reply::Quit);
}

#[test]
fn a_rule_that_loops_forever_ends_with_an_error_and_the_session_goes_on() {
    let mut s = session(&[&format!("{}/tests/fixtures/rules/sandbox", env!("CARGO_MANIFEST_DIR"))]);
    let err = error(s.handle("forever()"));
    assert!(err.contains("stopped after"), "{err}");
    assert_eq!(output(s.handle("1 + 1")), "= 2");
}

#[test]
fn each_trace_form_shows_its_steps_and_off_still_shows_the_effects() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    let fire = "fire(a, b, #{range: 1}).result";
    let with = |s: &mut Session, form: &str| {
        output(s.handle(&format!(":trace {form}")));
        output(s.handle(":seed 1"));
        output(s.handle(UNITS));
        output(s.handle(fire))
    };
    let brief = with(&mut s, "brief");
    assert!(brief.contains("roll    musketry: ") && brief.contains("mods    british_infantry_fire +1"), "{brief}");
    assert!(!brief.contains("mod     no"), "{brief}");
    // Steps: each on its line, the die with its luck, the modifier with its text and source.
    let steps = with(&mut s, "steps");
    assert!(steps.contains("roll    musketry, 1d10: ") && steps.contains("mod     yes"), "{steps}");
    assert!(!steps.contains("mod     no"), "{steps}");
    let full = with(&mut s, "full");
    assert!(full.contains("mod     no "), "{full}");
    assert!(full.lines().count() > steps.lines().count());
    assert!(steps.len() > brief.len());
    // Off: the dice and the units' fate and the value, nothing of how it came about; `:why`
    // still has it all.
    let off = with(&mut s, "off");
    assert!(off.lines().all(|l| ["effect  ", "roll    ", "= "].iter().any(|t| l.starts_with(t))), "{off}");
    assert!(off.contains("effect  4e Ligne: disordered") && off.contains("roll    musketry, 1d10: "), "{off}");
    assert_eq!(output(s.handle(":why")), full.lines().filter(|l| !l.starts_with("= ")).collect::<Vec<_>>().join("\n"));
    // Wrapped to the terminal's width at word boundaries, every word kept.
    s.set_width(Some(60));
    let why = output(s.handle(":why"));
    assert!(why.lines().all(|l| l.chars().count() <= 60), "{why}");
    let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(words(&why), words(&full.lines().filter(|l| !l.starts_with("= ")).collect::<Vec<_>>().join("\n")));
    // `on`, as before, is the brief form.
    assert!(output(s.handle(":trace on")).starts_with("trace brief"));
}

#[test]
fn reload_after_a_broken_edit_keeps_the_old_rules() {
    let dir = scratch("reload");
    copy_dir(&rules_dir().join("linear-warfare"), &dir.join("linear-warfare"));
    let table = dir.join("linear-warfare/tables/fallen_leader.yaml");
    let mut s = Session::new(&["linear-warfare".into()], Switches::default(), Some(dir.clone()), Look::Plain).unwrap();
    output(s.handle(r#"let k = leader(#{name: "Kleist"});"#));
    let good = std::fs::read_to_string(&table).unwrap();
    std::fs::write(&table, good.replace("\"5\": wounded_two_turns", "\"5\": wounded_to_turns")).unwrap();
    let err = error(s.handle(":reload"));
    assert!(err.contains("wounded_to_turns") && err.contains("the rules were not changed"), "{err}");
    // The old rules still work, and the leader is still there.
    output(s.handle(":seed 2"));
    assert!(output(s.handle("fallen_leader(k, #{})")).contains("result"));
    // Fixed: the edit is taken.
    std::fs::write(&table, good.replace("Fatal Wound: Leader dies", "Fatal Wound: he dies")).unwrap();
    assert!(output(s.handle(":reload")).starts_with("reloaded"));
    assert!(output(s.handle(":show fallen_leader")).contains("Fatal Wound: he dies"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn save_and_load_round_trip() {
    let dir = scratch("save");
    let file = dir.join("battle.yaml");
    let file = file.to_str().unwrap();
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle(r#"let g = leader(#{name: "Brennier"}); b.attach(g); b.lose_stands(2);"#));
    output(s.handle(":set musketry_below_zero=desultory"));
    output(s.handle(":seed 77"));
    assert_eq!(
        output(s.handle(&format!(":save {file}"))),
        format!("saved 3 variables, 2 units and 1 leaders to {file}")
    );
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains("musketry_below_zero: desultory"), "{text}");

    let mut t = session(&[]);
    let loaded = output(t.handle(&format!(":load {file}")));
    // The stands lost, and the fact the phase keeps of them, with where the game stands.
    assert!(
        loaded.contains("b: 4e Ligne (infantry, column, good order, 4 stands of 6; stands_lost_this_phase 2)"),
        "{loaded}"
    );
    assert_eq!(t.prompt(), "[t1 britain maneuver] grognard> ");
    let options = output(t.handle(":options"));
    assert!(options.contains("musketry_below_zero = desultory"), "{options}");
    assert_eq!(t.variable("b").unwrap().cast::<UnitRef>().0.borrow().leaders, ["brennier"]);
    // A broken file changes nothing.
    std::fs::write(dir.join("bad.yaml"), "rules: [ff-napoleonic]\nseed: x\n").unwrap();
    let err = error(t.handle(&format!(":load {}", dir.join("bad.yaml").display())));
    assert!(err.contains("bad.yaml"), "{err}");
    assert!(output(t.handle(":units")).contains("b: 4e Ligne"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn loading_a_fifo_is_refused_instead_of_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("game.yaml");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    // On a thread with a deadline: were the fifo opened, the read would wait for a writer forever.
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut s = session(&[]);
        let _ = send.send(error(s.handle(&format!(":load {}", fifo.display()))));
    });
    let err = receive.recv_timeout(std::time::Duration::from_secs(10)).expect(":load of a fifo hung");
    assert!(err.ends_with("game.yaml is not a regular file (it is a named pipe)"), "{err}");
}

#[test]
fn completion_offers_commands_procedures_tables_and_variables() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    assert_eq!(s.completions(":w"), [":why", ":with", ":without"]);
    assert!(s.completions("mel").contains(&"melee".to_string()));
    assert!(s.completions("mus").contains(&"musketry".to_string()));
    assert!(s.completions("fire_").contains(&"fire_modifiers".to_string()));
    assert!(s.completions("target_m").contains(&"target_march_column".to_string()));
    assert!(s.completions("musketry_b").contains(&"musketry_below_zero".to_string()));
    // The session's variables complete too.
    let all = s.completions("");
    assert!(all.contains(&"a".to_string()) && all.contains(&"b".to_string()));
}

#[test]
fn inside_a_situation_the_procedures_keys_complete() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    let at_end = |line: &str| s.completions_at(line, line.len());
    // After `#{` and after a `,`: the keys of fire's contract not yet given, as `key: `.
    let (start, keys) = at_end("fire(a, b, #{enf");
    assert_eq!((start, keys), (13, vec!["enfiladed: ".to_string()]));
    let (_, keys) = at_end("fire(a, b, #{range: 2, ");
    assert!(keys.contains(&"cover: ".to_string()) && !keys.contains(&"range: ".to_string()), "{keys:?}");
    assert_eq!(at_end("melee(a, b, #{rea").1, ["reacting: "]);
    // A value is not a key; outside a situation the usual words complete.
    assert!(at_end("fire(a, b, #{range: ").1.iter().all(|w| !w.ends_with(": ")));
    assert!(at_end("mel").1.contains(&"melee".to_string()));
    // Inside a word given to a key: the key's words.
    assert_eq!(at_end("fire(a, b, #{cover: \"wo").1, ["woods", "works"]);
    // Every word of fire's `cover` (rules/ff-napoleonic/contracts/fire.yaml), in order.
    let cover = ["fortified_town", "hedge", "higher", "stone_wall", "town_area", "town_deployed", "woods", "works"];
    assert_eq!(at_end("fire(a, b, #{range: 2, cover: \"").1, cover);
}

#[test]
fn completion_knows_where_the_cursor_is() {
    let mut s = session(&["ff-house-example"]);
    output(s.handle(UNITS));
    output(s.handle("let n = 3;"));
    let at_end = |line: &str| s.completions_at(line, line.len()).1;
    // A command, then what it takes.
    assert_eq!(at_end(":wi"), [":with", ":without"]);
    assert_eq!(at_end(":with "), ["veteran_volleys", "wider_struggle"]);
    assert_eq!(at_end(":with wi"), ["wider_struggle"]);
    assert!(at_end(":set ").contains(&"musketry_below_zero=".to_string()));
    assert_eq!(at_end(":set musketry_below_zero="), ["clamp", "desultory"]);
    assert_eq!(at_end(":set musketry_below_zero=d"), ["desultory"]);
    assert_eq!(at_end(":show musk"), ["musketry"]);
    assert!(at_end(":show ").contains(&"constants".to_string()));
    assert_eq!(at_end(":trace "), ["brief", "full", "off"]);
    assert_eq!(at_end(":dice m"), ["manual"]);
    // Where a call takes an argument, the units alone (a and b); begun, the units first, then every other word.
    assert_eq!(at_end("fire("), ["a", "b"]);
    assert_eq!(at_end("fire(a, "), ["a", "b"]);
    let begun = at_end("fire(m");
    assert!(begun.contains(&"musketry".to_string()) && begun.contains(&"melee".to_string()), "{begun:?}");
    // Anywhere else, no `:` command, and no copy made for a `base::` call.
    let words = at_end("fi");
    assert!(words.contains(&"fire".to_string()) && words.iter().all(|w| !w.starts_with(':')), "{words:?}");
    assert!(at_end("").iter().all(|w| !w.starts_with("__b")));
    // A short resolution: the units where it takes them, then its situation's keys and words.
    assert_eq!(at_end("fire "), ["a", "b"]);
    assert_eq!(at_end("fire a "), ["a", "b"]);
    let situation = at_end("fire a b ");
    for word in ["range", "enfiladed", "cover", "woods", "hedge"] {
        assert!(situation.contains(&word.to_string()), "{word}: {situation:?}");
    }
    assert_eq!(at_end("fire a b enf"), ["enfiladed"]);
    assert!(!at_end("fire a b enfiladed ").contains(&"enfiladed".to_string()));
    assert_eq!(at_end("fire a b cover w"), ["woods", "works"]);
    assert_eq!(at_end("fire a b range "), Vec::<String>::new());
    // `:odds` completes the call it takes as the line would.
    assert_eq!(at_end(":odds fire a b enf"), ["enfiladed"]);
    assert_eq!(s.completions_at(":odds fire a b enf", 18).0, 15);
    assert_eq!(at_end(":odds why fire a b enf"), ["enfiladed"]);
    assert_eq!(s.completions_at(":odds why fire a b enf", 22).0, 19);
}

#[test]
fn reload_keeps_leaders_attached() {
    let mut s = session(&["linear-warfare"]);
    output(s.handle(r#"let u = unit(#{name: "IR 15", arm: "infantry", stands: 6, formation: "line"}); let k = leader(#{name: "Kleist"}); u.attach(k);"#));
    output(s.handle(":reload"));
    assert_eq!(output(s.handle("u.leaders.len()")), "= 1");
    output(s.handle(":use linear-warfare"));
    assert_eq!(output(s.handle("u.leaders[0].name")), "= \"Kleist\"");
}

/// Saves `s` to a fresh file and loads it into a new session.
fn saved_and_loaded(s: &mut Session, name: &str) -> (Session, PathBuf) {
    let dir = scratch(name);
    let file = dir.join("game.yaml");
    let said = output(s.handle(&format!(":save {}", file.display())));
    assert!(said.starts_with("saved "), "{said}");
    let mut t = session(&[]);
    let loaded = output(t.handle(&format!(":load {}", file.display())));
    assert!(loaded.starts_with("loaded "), "{loaded}");
    (t, dir)
}

#[test]
fn a_saved_game_keeps_every_variable_and_every_attached_leader() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle(r#"let brits = a; brits.attach(leader(#{name: "Gen. X"}));"#));
    output(s.handle(r#"let army = [a, b]; let by_name = #{first: a, plain: [1, 2.5, "three", true, ()]};"#));
    output(s.handle(r#"let n = 7; const MAX = 12; let c = 'x';"#));
    let (mut t, dir) = saved_and_loaded(&mut s, "save-whole");
    // The leader no variable names is still attached.
    assert_eq!(output(t.handle("brits.leaders[0].name")), "= \"Gen. X\"");
    assert_eq!(output(t.handle("a.leaders.len()")), "= 1");
    // Lists and maps of units hold the same units as the variables: one unit, shared.
    output(t.handle("army[0].lose_stands(2);"));
    assert_eq!(output(t.handle("a.stands")), "= 4");
    assert_eq!(output(t.handle("by_name.first.stands")), "= 4");
    assert_eq!(output(t.handle("by_name.plain.len()")), "= 5");
    assert_eq!(
        output(t.handle("[by_name.plain[0], by_name.plain[1], by_name.plain[2], by_name.plain[3]]")),
        "= [1, 2.5, \"three\", true]"
    );
    assert_eq!(output(t.handle("by_name.plain[4] == ()")), "= true");
    assert_eq!(output(t.handle("[n, MAX, type_of(c), c == 'x']")), "= [7, 12, \"char\", true]");
    // A constant is still one.
    assert!(error(t.handle("MAX = 1")).contains("MAX"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_value_that_cannot_be_saved_refuses_the_save_by_name_and_writes_nothing() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(r#"let r = roll("2d6"); let f = |x| x; let fine = 1;"#));
    let dir = scratch("save-refused");
    let file = dir.join("game.yaml");
    let err = error(s.handle(&format!(":save {}", file.display())));
    assert!(err.contains("`r` (a roll)") && err.contains("`f` (a function)"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!file.exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "no temporary file is left behind");
    // Kept as a number, it saves.
    output(s.handle("r = r.total; f = ();"));
    assert!(output(s.handle(&format!(":save {}", file.display()))).starts_with("saved 3 variables"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_large_session_saves_and_loads_back() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(
        r#"let army = []; for i in 0..13900 { army.push(unit(#{name: `Bn ${i}`, arm: "infantry", stands: 4, formation: "line"})) }"#,
    ));
    let (mut t, dir) = saved_and_loaded(&mut s, "save-large");
    assert_eq!(output(t.handle("army.len()")), "= 13900");
    assert_eq!(output(t.handle("army[13899].name")), "= \"Bn 13899\"");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn saving_replaces_a_link_at_the_path_and_never_writes_through_it() {
    let dir = scratch("save-link");
    let target = dir.join("elsewhere.txt");
    std::fs::write(&target, "keep me").unwrap();
    let file = dir.join("game.yaml");
    std::os::unix::fs::symlink(&target, &file).unwrap();
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle("let n = 1;"));
    assert!(output(s.handle(&format!(":save {}", file.display()))).starts_with("saved"));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    assert!(!std::fs::symlink_metadata(&file).unwrap().file_type().is_symlink());
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn saving_over_a_file_keeps_its_mode_refuses_a_read_only_one_and_clears_a_killed_saves_leftovers() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = scratch("save-mode");
    let file = dir.join("game.yaml");
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle("let n = 1;"));
    // A new saved game is the player's own.
    assert!(output(s.handle(&format!(":save {}", file.display()))).starts_with("saved 1 variables"));
    assert_eq!(mode(&file), 0o600);
    // Saved again over a file made readable by others, it stays so.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    output(s.handle("n = 2;"));
    assert!(output(s.handle(&format!(":save {}", file.display()))).starts_with("saved"));
    assert_eq!(mode(&file), 0o644);
    // A temporary file a killed save left beside it goes at the next save; another file stays.
    let stale = dir.join(".game.yaml.grognard-Xy12ab.tmp");
    std::fs::write(&stale, "format: 2\nhalf").unwrap();
    std::fs::write(dir.join("notes.tmp"), "mine").unwrap();
    assert!(output(s.handle(&format!(":save {}", file.display()))).starts_with("saved"));
    assert!(!stale.exists());
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    names.sort();
    assert_eq!(names, ["game.yaml", "notes.tmp"]);
    // Made read-only (chmod 444), it is refused by name and why, and left as it was, though
    // tests may run as root, whom the system would let write it.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read_to_string(&file).unwrap();
    output(s.handle("n = 3;"));
    let err = error(s.handle(&format!(":save {}", file.display())));
    assert_eq!(
        err,
        format!(
            "cannot save to {}: it is read-only (mode 444: its owner may not write it), so it was left as it \
             was; make it writable (chmod u+w) or write to another file",
            file.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    assert_eq!(mode(&file), 0o444);
    // What was saved last loads back.
    assert!(output(s.handle(&format!(":load {}", file.display()))).starts_with("loaded"));
    assert_eq!(output(s.handle("n")), "= 2");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_saved_game_edited_to_a_marker_of_the_wrong_kind_is_refused_where_it_is_written() {
    let dir = scratch("save-marker-kinds");
    let file = dir.join("game.yaml");
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(
        r#"let a = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line", markers: #{fresh: true}});"#,
    ));
    output(s.handle(r#"let d = leader(#{name: "Davout", markers: #{exceptional: true}});"#));
    output(s.handle(&format!(":save {}", file.display())));
    let saved = std::fs::read_to_string(&file).unwrap();
    for (from, to, said) in [
        ("fresh: true", "fresh: no", "unit `a`: `fresh` is a flag, true or false, not the text \"no\" (did you"),
        ("exceptional: true", "exceptionel: true", "leader `davout` has marker `exceptionel`, which this ruleset"),
    ] {
        assert!(saved.contains(from), "{saved}");
        std::fs::write(&file, saved.replace(from, to)).unwrap();
        let mut t = session(&["ff-napoleonic"]);
        output(t.handle("let kept = 5;"));
        let err = error(t.handle(&format!(":load {}", file.display())));
        assert!(err.contains(said), "{err}");
        assert!(err.contains("game.yaml:"), "{err}");
        assert!(err.ends_with("the session was not changed"), "{err}");
        assert_eq!(output(t.handle("kept")), "= 5");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_saved_game_of_another_format_is_refused() {
    let dir = scratch("save-format");
    let file = dir.join("old.yaml");
    std::fs::write(&file, "format: 1\nrules: []\nseed: 1\ndice: auto\ntrace: true\n").unwrap();
    let mut s = session(&[]);
    output(s.handle("let kept = 5;"));
    let err = error(s.handle(&format!(":load {}", file.display())));
    assert!(err.contains("format 1") && err.contains("format 2"), "{err}");
    assert_eq!(output(s.handle("kept")), "= 5");
    let _ = std::fs::remove_dir_all(dir);
}

mod saved_round_trip {
    use proptest::prelude::*;

    use super::*;
    use crate::repl::saved::Value;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Nothing),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::Int),
            (proptest::num::f64::NORMAL | proptest::num::f64::ZERO | proptest::num::f64::INFINITE)
                .prop_map(Value::Float),
            any::<char>().prop_map(Value::Char),
            any::<String>().prop_map(Value::Text),
            (0..3usize).prop_map(|i| Value::Unit(format!("unit-{i}"))),
            Just(Value::Leader("leader-0".into())),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::List),
                proptest::collection::btree_map(any::<String>(), inner, 0..4).prop_map(Value::Map),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random sessions: what `:save` writes, `:load` reads back equal.
        #[test]
        fn random_sessions_round_trip_equal(
            variables in proptest::collection::btree_map("[a-z_][a-z0-9_]{0,8}", value(), 0..6),
            seed in any::<u64>(),
        ) {
            let mut s = session(&["ff-napoleonic"]);
            output(s.handle(&format!(":seed {seed}")));
            output(s.handle(r#"let u0 = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"});
                let u1 = unit(#{name: "B", arm: "cavalry", stands: 3, formation: "line"});
                let u2 = unit(#{name: "C", arm: "artillery", stands: 2, formation: "limbered"});
                u1.attach(leader(#{name: "Leader 0"}));"#));
            s.set_variables_for_test(&variables);
            let before = s.saved_for_test();
            let (t, dir) = saved_and_loaded(&mut s, "save-prop");
            prop_assert_eq!(t.saved_for_test(), before);
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

#[test]
fn an_order_of_battle_loads_its_units_into_variables_named_by_id() {
    let scenarios = format!("{}/tests/fixtures/scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut s = session(&["ff-skirmishers"]);
    let text = output(s.handle(&format!(":load {scenarios}/screened.yaml")));
    assert!(text.starts_with(&format!("loaded {scenarios}/screened.yaml; the units now:\n")), "{text}");
    assert!(text.contains("rifles: 95th Rifles (infantry, line, good order, 4 stands)"), "{text}");
    assert!(text.contains("ligne: 4e Ligne (infantry, column, good order, 6 stands)"), "{text}");
    assert_eq!(output(s.handle("rifles.skirmishers")), "= true");
    assert_eq!(output(s.handle("oob.sides")), r#"= ["france", "britain"]"#);
    // A file with mistakes changes nothing, and says why.
    let err = error(s.handle(&format!(":load {scenarios}/misfielded.yaml")));
    assert!(err.contains("unit `rifles` has a field `skirmisher` that this ruleset does not declare"), "{err}");
    assert!(err.ends_with("the session was not changed"), "{err}");
    assert_eq!(output(s.handle("rifles.skirmishers")), "= true");
}

#[test]
fn undo_puts_the_units_and_the_dice_back_as_before_the_last_line() {
    let mut s = session(&["ff-napoleonic"]);
    assert_eq!(output(s.handle(":undo")), "nothing to undo");
    output(s.handle(":seed 3"));
    output(s.handle(UNITS));
    let first = output(s.handle("fire(a, b, #{range: 1}).result"));
    let hit = s.variable("b").unwrap().cast::<UnitRef>().0.borrow().clone();
    output(s.handle("fire(a, b, #{range: 1})"));
    // Looking at a unit changes nothing: it is not what `:undo` takes back.
    output(s.handle("b"));
    // Back before the second fire: the target as the first left it, the dice where they were.
    let undone = output(s.handle(":undo"));
    assert!(undone.starts_with("undone: fire(a, b, #{range: 1})\nthe dice are back where they were"), "{undone}");
    assert_eq!(*s.variable("b").unwrap().cast::<UnitRef>().0.borrow(), hit);
    // Back before the first: the units as made; the same line rolls the same again.
    output(s.handle(":undo"));
    let b = s.variable("b").unwrap().cast::<UnitRef>();
    assert_eq!((b.0.borrow().stands, b.0.borrow().order.as_str()), (6, "good_order"));
    assert_eq!(output(s.handle("fire(a, b, #{range: 1}).result")), first);
    // With dice rolled at the table, the units go back and the player rolls again.
    let prompts = answer_with(&mut s, &["10"]);
    output(s.handle(":dice manual"));
    output(s.handle("fire(a, b, #{range: 1})"));
    assert!(output(s.handle(":undo")).contains("roll the dice at the table again"));
    assert_eq!(prompts.borrow().len(), 1);
    // New rules start a new history.
    output(s.handle(":reload"));
    assert_eq!(output(s.handle(":undo")), "nothing to undo");
}

#[test]
fn units_lists_attached_leaders_and_units_no_variable_holds() {
    let mut s = session(&["linear-warfare"]);
    output(s.handle(r#"let u = unit(#{name: "IR 15", arm: "infantry", stands: 6, formation: "line"}); u.attach(leader(#{name: "Kleist"}));"#));
    output(s.handle(r#"let line = [unit(#{name: "IR 3", arm: "infantry", stands: 4, formation: "line"})];"#));
    let listed = output(s.handle(":units"));
    assert_eq!(
        listed.lines().collect::<Vec<_>>(),
        [
            "u: IR 15 (infantry, line, good order, 6 stands)",
            "    led by Kleist",
            "(no variable): IR 3 (infantry, line, good order, 4 stands)",
        ],
        "{listed}"
    );
}

#[test]
fn a_fire_and_a_melee_in_short_form_resolve_as_their_calls() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(&format!(":load {}/scripts/scenarios/hedge.yaml", env!("CARGO_MANIFEST_DIR"))));
    output(s.handle(":seed 3"));
    let short = output(s.handle("fire 52nd 1/4e range 1 enfiladed"));
    assert!(short.starts_with("-> fire(foot_52nd, ligne_1, #{range: 1, enfiladed: true})\n"), "{short}");
    output(s.handle(":undo"));
    // The same dice, the same result as the call written out.
    let long = output(s.handle("fire(foot_52nd, ligne_1, #{range: 1, enfiladed: true})"));
    assert_eq!(short.split_once('\n').unwrap().1, long);
    // `:undo` names the line as the player typed it.
    assert!(output(s.handle(":undo")).starts_with("undone: fire(foot_52nd"));
    output(s.handle("fire 52nd 1/4e range 1 enfiladed"));
    assert!(output(s.handle(":undo")).starts_with("undone: fire 52nd 1/4e range 1 enfiladed"));
    // A melee: the defender's hedge is a word of its cover.
    let melee = output(s.handle("melee 1/4e 52nd hedge"));
    assert!(melee.starts_with("-> melee(ligne_1, foot_52nd, #{cover: \"hedge\"})"), "{melee}");
    // Its sides are labelled, and every modifier that did not apply says why.
    let why = output(s.handle(":why"));
    assert!(why.contains("side    1/4e Ligne (attacker)\n"), "{why}");
    assert!(why.contains("side    1/52nd Foot (defender)\n"), "{why}");
    for line in why.lines().filter(|l| l.starts_with("mod     no")) {
        assert!(line.ends_with(')'), "no reason: {line}\n{why}");
    }
    assert!(why.contains("Mounted cavalry  (unit.arm is \"infantry\")"), "{why}");
    assert!(why.contains("Breakthrough  (unit has no breakthrough marker)"), "{why}");
    // The odds of a short form are the odds of its call.
    let odds = output(s.handle(":odds fire 52nd 1/4e range 1"));
    assert!(odds.starts_with("fire(foot_52nd, ligne_1, #{range: 1})"), "{odds}");
    // In a narrow terminal the bars shorten so that each row fits, never wrapped.
    s.set_width(Some(60));
    let odds = output(s.handle(":odds melee 2/4e 52nd hedge"));
    assert!(odds.lines().all(|r| r.chars().count() <= 60), "{odds}");
    assert!(odds.lines().any(|r| r.starts_with("swept ") && r.contains('%')), "{odds}");
    // Mistakes are refused with what was meant, and change nothing.
    let err = error(s.handle("fire 52nd 4e range 1"));
    assert!(err.contains("`4e` could be ligne_1 (1/4e Ligne) or ligne_2 (2/4e Ligne)"), "{err}");
    let err = error(s.handle("fire 52nd 1/4e rnage 1"));
    assert!(err.contains("did you mean `range`"), "{err}");
}

#[test]
fn every_roll_shows_its_luck_and_a_table_read_on_one_roll_the_chance_of_its_result_or_higher() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle(":trace steps"));
    answer_with(&mut s, &["8"]);
    output(s.handle(":dice manual"));
    // The 54th (British infantry, +1) at range 1: a natural 8 is a total of 9, Telling (9+ in the row of 6 stands).
    let text = output(s.handle("fire 54th 4e range 1"));
    // Worked out here: the faces of a d10 at or over 8, and those that reach 9 with the +1.
    let faces_at_least = |n: i64| (1..=10).filter(|f| *f >= n).count() * 10;
    assert!(text.contains(&format!("roll    musketry, 1d10: [8] = 8  [8 or more: {}%]", faces_at_least(8))), "{text}");
    let telling = (1..=10).filter(|f: &i64| f + 1 >= 9).count() * 10;
    assert!(text.contains("-> 9+: telling") && text.contains(&format!("[this or higher: {telling}%")), "{text}");
}

/// Answers `:new`'s questions with `answers`, in order (then none: it is cancelled); returns
/// each question asked with the words Tab would offer.
/// Each question `:new` asked, with the words Tab would have offered.
type Asked = Rc<RefCell<Vec<(String, Vec<String>)>>>;

fn choose_with(s: &mut Session, answers: &[&'static str]) -> Asked {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let mut left: VecDeque<&str> = answers.iter().copied().collect();
    let seen = asked.clone();
    s.set_chooser(Rc::new(RefCell::new(move |prompt: &str, words: &[String]| {
        seen.borrow_mut().push((prompt.to_string(), words.to_vec()));
        left.pop_front().map(str::to_string)
    })));
    asked
}

#[test]
fn new_asks_for_a_units_fields_with_their_words_and_makes_it() {
    let mut s = session(&["ff-napoleonic"]);
    // From a template, changing nothing: the name, the template, then what the template leaves
    // open and the procedures read, each left out with Enter (F&F keeps a unit's grade unread:
    // it is not asked).
    let asked = choose_with(&mut s, &["54th Foot", "british_line", "", ""]);
    let made = output(s.handle(":new brits"));
    assert_eq!(
        made,
        "-> let brits = unit(\"54th Foot\", \"british_line\");\nbrits: 54th Foot (infantry, line, good order, 6 stands)"
    );
    let asked = asked.borrow();
    assert_eq!(asked[0].0, "name of the unit: ");
    assert!(asked[1].0.starts_with("template (Tab lists them); Enter for none: "), "{:?}", asked[1]);
    assert!(asked[1].1.contains(&"british_line".to_string()) && asked[1].1.contains(&"french_hussars".to_string()));
    assert_eq!(asked[2].0, "side; Enter for none: ");
    assert_eq!(asked[3].0, "markers, NAME or NAME=VALUE (Tab lists them); Enter for none: ");
    assert!(asked[3].1.contains(&"fresh".to_string()), "{:?}", asked[3]);
    assert_eq!(asked.len(), 4);
    // Without a template, each field in turn, a wrong answer asked again with what was meant.
    let asked = choose_with(
        &mut s,
        &[
            "4e Ligne",
            "",
            "france",
            "france",
            "infantery",
            "infantry",
            "",
            "0",
            "6",
            "column",
            "fresh gaurd",
            "fresh guard",
        ],
    );
    let made = output(s.handle(":new ligne"));
    assert!(made.starts_with(
        "-> let ligne = unit(#{name: \"4e Ligne\", side: \"france\", nation: \"france\", arm: \"infantry\", stands: 6, formation: \"column\", markers: #{fresh: true, guard: true}});"
    ), "{made}");
    let asked = asked.borrow();
    let arm = asked.iter().find(|(p, _)| p.starts_with("arm")).unwrap();
    assert_eq!(arm.1, ["artillery", "cavalry", "infantry"]);
    assert!(
        asked.iter().any(|(p, _)| p.starts_with("`infantery` is not one of them (did you mean `infantry`?); arm")),
        "{asked:?}"
    );
    assert!(asked.iter().any(|(p, _)| p.starts_with("`0` is not a whole number of 1 or more; stands")), "{asked:?}");
    assert!(
        asked
            .iter()
            .any(|(p, _)| p.starts_with("`gaurd` is not a marker of these rules (did you mean `guard`?); markers")),
        "{asked:?}"
    );
    // It is undone as any line is, and a unit made so fires by its name.
    output(s.handle(":seed 3"));
    assert!(output(s.handle("fire 54th 4e range 1")).starts_with("-> fire(brits, ligne, #{range: 1})"));
    // Giving up makes nothing; a variable that cannot be one is refused.
    choose_with(&mut s, &["Rifles"]);
    assert_eq!(output(s.handle(":new rifles")), "cancelled: no unit made");
    assert!(s.variable("rifles").is_none());
    assert!(error(s.handle(":new 95th")).contains("`:new` takes the variable to hold the unit"));
}

/// `text` without the SGR sequences (colours) a diagnostic is drawn with.
fn without_colours(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out += &rest[..at];
        let after = &rest[at + 2..];
        let end = after.find('m').expect("an SGR sequence ends with m");
        assert!(after[..end].chars().all(|c| c.is_ascii_digit() || c == ';'), "not a colour: {after:?}");
        rest = &after[end + 1..];
    }
    out + rest
}

#[test]
fn a_unit_named_with_escapes_is_shown_escaped_and_never_obeyed() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(
        r#"let a = unit(#{name: "\x1b[2JEVIL", nation: "britain", arm: "infantry", stands: 6, formation: "line"});"#,
    ));
    output(s.handle(UNITS.lines().nth(1).unwrap()));
    let shown = output(s.handle("a"));
    assert!(!shown.contains('\x1b'), "{shown:?}");
    assert!(shown.contains(r"\u{1b}[2JEVIL"), "{shown}");
    // The name itself is kept exact: only its showing is escaped.
    let name = s.variable("a").unwrap().cast::<UnitRef>().0.borrow().name.clone();
    assert_eq!(name, "\x1b[2JEVIL");
    let units = output(s.handle(":units"));
    assert!(!units.contains('\x1b') && units.contains(r"\u{1b}[2JEVIL"), "{units}");
    output(s.handle(":seed 3"));
    let fire = output(s.handle("fire(b, a, #{range: 1})"));
    assert!(!fire.chars().any(|c| c.is_control() && c != '\n'), "{fire:?}");
    assert!(fire.contains(r"\u{1b}[2JEVIL"), "{fire}");
}

#[test]
fn an_error_quoting_a_script_shows_its_escapes_and_keeps_only_its_colours() {
    let mut s = session(&["ff-napoleonic"]);
    let plain = error(s.handle(r#"throw "\x1b]0;PWNED\x07\x1b[2J""#));
    assert!(!plain.chars().any(|c| c.is_control() && c != '\n'), "{plain:?}");
    assert!(plain.contains(r"\u{1b}]0;PWNED\u{7}\u{1b}[2J"), "{plain}");
    s.look = Look::Terminal { color: true };
    let coloured = error(s.handle(r#"throw "\x1b]0;PWNED\x07\x1b[31m""#));
    assert!(coloured.contains("\x1b["), "drawn in colour: {coloured:?}");
    let words = without_colours(&coloured);
    assert!(!words.chars().any(|c| c.is_control() && c != '\n'), "{words:?}");
    assert!(words.contains(r"\u{1b}]0;PWNED\u{7}\u{1b}[31m"), "{words}");
}

#[test]
fn a_die_asked_for_by_a_hostile_label_is_asked_escaped() {
    let mut s = session(&["ff-napoleonic"]);
    let prompts = answer_with(&mut s, &["4"]);
    output(s.handle(":dice manual"));
    let text = output(s.handle(r#"roll("1d6", "\x1b]0;PWNED\x07").total"#));
    assert!(text.ends_with("= 4"), "{text}");
    assert_eq!(*prompts.borrow(), [r"roll a d6 (1-6) for \u{1b}]0;PWNED\u{7}: "]);
}

#[test]
fn a_value_too_deep_or_too_large_is_refused_as_it_grows_and_the_session_goes_on() {
    // On the stack scripts run on, as the binary runs the REPL.
    let run = || {
        let mut s = session(&["ff-napoleonic"]);
        let budget = Limits { max_memory: 32 << 20, ..Limits::default() };
        s.set_limits(budget, Limits { max_memory: 32 << 20, ..Limits::for_walk() });
        let deep = error(s.handle("let a = #{}; for i in 0..5000 { a = #{x: a} }; 1"));
        assert!(deep.contains("Depth of a value (more than 1000 levels) too large"), "{deep}");
        // Taken back whole: the value it built is not kept to weigh on later lines.
        assert!(deep.contains("nothing was applied"), "{deep}");
        let gone = error(s.handle("a"));
        assert!(gone.contains("Undefined variable: a"), "{gone}");
        let hoard = "let kept = []; loop { let t = \"ab\"; for i in 0..15 { t += t } kept.push(|| t.len()); }";
        let hoarded = error(s.handle(hoard));
        assert!(hoarded.contains("stopped at 32 MiB, the memory limit for one command"), "{hoarded}");
        assert!(hoarded.contains("--max-memory"), "{hoarded}");
        assert_eq!(output(s.handle("1 + 1")), "= 2");
    };
    std::thread::scope(|scope| {
        std::thread::Builder::new().stack_size(crate::script::SCRIPT_STACK).spawn_scoped(scope, run).unwrap().join()
    })
    .unwrap();
}

#[test]
fn a_desperate_struggle_stopped_in_its_second_round_keeps_nothing_of_its_first() {
    // 5 + 2 against 6 + 1: a differential of 0, a desperate struggle; round 2 asks again.
    for ctrl_c in [true, false] {
        let mut s = session(&["ff-napoleonic"]);
        output(s.handle(UNITS));
        output(s.handle(":dice manual"));
        if ctrl_c {
            answer_then_ctrl_c(&mut s, &["5", "6"]);
        } else {
            // No face given and no Ctrl-C (the end of input): the same.
            answer_with(&mut s, &["5", "6"]);
        }
        let undoable = s.undo.len();
        let err = error(s.handle("melee(b, a, #{})"));
        assert!(err.ends_with(super::session::NOTHING_APPLIED), "{err}");
        for (name, stands) in [("a", 6), ("b", 6)] {
            let unit = s.variable(name).unwrap().cast::<UnitRef>();
            assert_eq!((unit.0.borrow().stands, unit.0.borrow().order.as_str()), (stands, "good_order"), "{name}");
        }
        assert_eq!(s.undo.len(), undoable);
        // Typed again, the melee is fought once: one stand each for the one struggle.
        answer_with(&mut s, &["5", "6", "9", "1"]);
        let text = output(s.handle("melee(b, a, #{})"));
        assert!(text.contains("rounds: 2"), "{text}");
        assert_eq!(s.variable("b").unwrap().cast::<UnitRef>().0.borrow().stands, 5);
    }
}

#[test]
fn an_error_after_a_change_takes_the_whole_line_back() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle(":seed 4"));
    let first = output(s.handle("roll(\"1d6\").total"));
    output(s.handle(":undo"));
    let err = error(s.handle("a.lose_stands(2); let x = roll(\"1d6\"); throw \"the rules say no\""));
    assert!(err.contains("the rules say no") && err.ends_with(super::session::NOTHING_APPLIED), "{err}");
    assert_eq!(s.variable("a").unwrap().cast::<UnitRef>().0.borrow().stands, 6);
    assert!(s.variable("x").is_none());
    // The generated dice are where they were: the next roll is the one the line took back.
    assert_eq!(output(s.handle("roll(\"1d6\").total")), first);
}

#[test]
fn undo_after_a_roll_that_changed_nothing_takes_back_that_roll() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle(":dice manual"));
    // A telling fire, then one that does nothing (a 1 at range 2: desultory).
    answer_with(&mut s, &["9", "1"]);
    output(s.handle("fire(a, b, #{range: 1})"));
    let hit = s.variable("b").unwrap().cast::<UnitRef>().0.borrow().clone();
    assert_eq!(hit.stands, 5);
    let text = output(s.handle("fire(a, b, #{range: 2})"));
    assert!(text.contains("musketry: 1\n") && text.contains("desultory") && !text.contains("\neffect "), "{text}");
    let undone = output(s.handle(":undo"));
    assert!(undone.starts_with("undone: fire(a, b, #{range: 2})"), "{undone}");
    // The telling fire stands.
    assert_eq!(*s.variable("b").unwrap().cast::<UnitRef>().0.borrow(), hit);
}

#[test]
fn each_round_of_a_struggle_shows_its_result_before_the_next_rounds_dice_are_asked() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle(":dice manual"));
    // Step by step, each die with its expression.
    output(s.handle(":trace steps"));
    // Every prompt and every text shown, in the order the player sees them.
    let seen: Rc<RefCell<Vec<String>>> = Rc::default();
    let (shown, asked) = (seen.clone(), seen.clone());
    s.set_shower(Rc::new(RefCell::new(move |text: &str| shown.borrow_mut().push(text.to_string()))));
    let mut answers: VecDeque<&str> = ["5", "6", "9", "1"].into_iter().collect();
    s.set_asker(Rc::new(RefCell::new(move |prompt: &str| {
        asked.borrow_mut().push(prompt.to_string());
        answers.pop_front().map(str::to_string)
    })));
    let rest = output(s.handle("melee 4e 54th"));
    let seen = seen.borrow();
    assert_eq!(seen.len(), 5, "{seen:#?}");
    assert_eq!(seen[0], "roll a d10 (1-10: a 0 is 10) for 4e Ligne (attacker): ");
    assert_eq!(seen[1], "roll a d10 (1-10: a 0 is 10) for 54th Foot (defender): ");
    // Round 1, under the call the short form stands for: its dice, its table, its struggle.
    let round_1 = &seen[2];
    assert!(round_1.starts_with("-> melee(b, a, #{})\n"), "{round_1}");
    assert!(round_1.contains("roll    4e Ligne (attacker), 1d10: [5] = 5"), "{round_1}");
    assert!(round_1.contains("desperate_struggle"), "{round_1}");
    assert!(round_1.contains("effect  4e Ligne: loses 1 stand"), "{round_1}");
    // Round 2's modifiers, the struggle's disorder and stand lost among them, before its dice.
    assert!(round_1.contains("mod     yes -1 x1             For each stand lost"), "{round_1}");
    // Round 2's dice are asked by round.
    assert_eq!(seen[3], "roll a d10 (1-10: a 0 is 10) for 4e Ligne (attacker), round 2: ");
    assert_eq!(seen[4], "roll a d10 (1-10: a 0 is 10) for 54th Foot (defender), round 2: ");
    // The result holds what was not shown yet: round 2 and the end, not round 1 again.
    assert!(!rest.contains("-> melee") && !rest.contains("[5] = 5"), "{rest}");
    assert!(rest.contains("roll    4e Ligne (attacker), round 2, 1d10: [9] = 9"), "{rest}");
    assert!(rest.contains("rounds: 2"), "{rest}");
    // `:why` has the whole melee.
    let why = output(s.handle(":why"));
    assert!(why.contains("[5] = 5") && why.contains("[9] = 9"), "{why}");
}

#[test]
fn the_turn_follows_the_sequence_of_play_and_a_stand_lost_to_fire_counts_in_the_melee() {
    let mut s = session(&["ff-napoleonic"]);
    assert_eq!(s.prompt(), "[t1 first maneuver] grognard> ");
    output(s.handle(UNITS));
    // The sides are the units' (their nations, as they give no side), the first met first.
    assert_eq!(s.prompt(), "[t1 britain maneuver] grognard> ");
    let turn = output(s.handle(":turn"));
    assert!(turn.starts_with("turn 1, britain's player turn: maneuver phase (1 of 4; britain acts)"), "{turn}");
    let next = output(s.handle(":next"));
    assert!(next.starts_with("turn 1, britain's player turn: reaction phase (2 of 4; france acts)"), "{next}");
    output(s.handle(":next"));
    assert_eq!(s.prompt(), "[t1 britain musketry] grognard> ");
    // A telling fire: the French lose a stand, and the phase keeps it.
    answer_with(&mut s, &["9", "5", "5"]);
    output(s.handle(":dice manual"));
    output(s.handle("fire 54th 4e range 1"));
    let b = s.variable("b").unwrap().cast::<UnitRef>();
    assert_eq!(b.0.borrow().markers.get("stands_lost_this_phase"), Some(&crate::unit::Marker::Count(1)));
    assert!(output(s.handle(":units")).contains("stands_lost_this_phase"));
    // The melee phase: the fire's stand counts against the French with nothing typed.
    assert!(output(s.handle(":next")).contains("melee phase (4 of 4; britain acts)"));
    let melee = output(s.handle("melee 54th 4e"));
    assert!(melee.contains("4e Ligne (defender): disordered -2, national +2, stands_lost -1\n"), "{melee}");
    assert!(melee.contains("note    4e Ligne lost 1 stand(s) earlier this phase (stands_lost_this_phase"), "{melee}");
    // Given in the situation, the count is the player's.
    answer_with(&mut s, &["5", "5"]);
    output(s.handle(":undo"));
    let typed = output(s.handle("melee 54th 4e defender_stands_lost 0"));
    assert!(!typed.contains("stands_lost -1"), "{typed}");
    // The end of britain's player turn: france's maneuver, and a new musketry phase clears the count.
    let next = output(s.handle(":next"));
    assert!(next.starts_with("turn 1, france's player turn: maneuver phase"), "{next}");
    output(s.handle(":next"));
    let cleared = output(s.handle(":next"));
    assert!(cleared.contains("cleared stands_lost_this_phase on 1 unit"), "{cleared}");
    assert!(!b.0.borrow().markers.contains_key("stands_lost_this_phase"));
    // `:undo` takes a phase back, with what it cleared.
    let undone = output(s.handle(":undo"));
    assert!(undone.starts_with("undone: :next"), "{undone}");
    assert_eq!(s.prompt(), "[t1 france reaction] grognard> ");
    assert!(b.0.borrow().markers.contains_key("stands_lost_this_phase"));
    // After france's turn, turn 2 begins with britain.
    for _ in 0..3 {
        output(s.handle(":next"));
    }
    assert_eq!(s.prompt(), "[t2 britain maneuver] grognard> ");
    // The sides named, a new game.
    assert!(output(s.handle(":turn france britain")).starts_with("turn 1, france's player turn: maneuver"));
    // A side no unit is on is said, with how to give a unit its side.
    let named = output(s.handle(":turn allies france"));
    assert!(named.contains("no unit is on the side `allies`"), "{named}");
    output(s.handle("a.side = \"allies\";"));
    assert!(!output(s.handle(":turn allies france")).contains("no unit is on"));
    for _ in 0..4 {
        output(s.handle(":next"));
    }
    assert_eq!(s.prompt(), "[t1 france maneuver] grognard> ");
    assert!(error(s.handle(":turn france")).contains("names the two sides"));
    assert!(error(s.handle(":next 2")).contains("takes nothing"));
}

#[test]
fn new_makes_a_card_driven_or_republique_unit_from_a_template_in_a_few_answers() {
    let mut s = session(&["linear-warfare"]);
    // The template gives arm, type, grade, stands and formation; the army (nation) and the
    // charge doctrine the procedures read are asked.
    let asked = choose_with(
        &mut s,
        &["Leib-Regiment", "line_cavalry", "prussia", "prussia", "doctrine=cold_stell", "doctrine=cold_steel"],
    );
    let made = output(s.handle(":new leib"));
    assert!(made.starts_with(
        "-> let leib = unit(\"Leib-Regiment\", \"line_cavalry\", #{side: \"prussia\", nation: \"prussia\", markers: #{doctrine: \"cold_steel\"}});"
    ), "{made}");
    assert!(
        made.ends_with("leib: Leib-Regiment (cavalry, closed line, good order, 4 stands; doctrine cold_steel)"),
        "{made}"
    );
    let asked = asked.borrow();
    assert!(asked.iter().any(|(p, _)| p.contains("`doctrine` is") && p.contains("cold_steel")), "{asked:?}");
    drop(asked);
    let mut s = session(&["republique"]);
    choose_with(&mut s, &["1/8e Ligne", "veteran_battalion", "france", "france", ""]);
    let made = output(s.handle(":new ligne"));
    assert!(made.ends_with("ligne: 1/8e Ligne (infantry, line, good order, 6 stands)"), "{made}");
    assert_eq!(output(s.handle("ligne.grade")), "= \"veteran\"");
}

#[test]
fn a_card_turned_over_at_the_table_is_named_and_checked_against_the_deck() {
    let mut s = session(&["linear-warfare"]);
    output(s.handle(
        r#"let day = card_day(#{sides: [#{name: "french", colour: "red", trumps: 2}, #{name: "allies", colour: "black", trumps: 1}], runs: 2});"#,
    ));
    output(s.handle(":dice manual"));
    // A die for the card, a card not in the deck, a card named as it is printed.
    let prompts = answer_with(&mut s, &["Q♥", "x", "4S"]);
    let drawn = output(s.handle("day.draw_card()"));
    assert!(drawn.contains("card: \"4 of spades\"") && drawn.contains("side: \"allies\""), "{drawn}");
    let prompts_seen = prompts.borrow().clone();
    assert_eq!(prompts_seen[0], "draw a card for turn 1 and name it (4S, 10 of hearts, Q♥; 36 face down): ");
    assert!(prompts_seen[1].starts_with("there is no `Q♥` in this deck; draw a card"), "{prompts_seen:?}");
    assert!(prompts_seen[2].starts_with("`x` is not a card (a rank and a suit: 4S, 10 of hearts, Q♥); draw a card"));
    // The deck remembers it: the same card again is refused, another taken.
    output(s.handle("day.resolve_card()"));
    let prompts = answer_with(&mut s, &["4 of spades", "10 of hearts"]);
    let drawn = output(s.handle("day.draw_card()"));
    assert!(drawn.contains("card: \"10 of hearts\""), "{drawn}");
    assert!(
        prompts.borrow()[1].starts_with("the 4 of spades was drawn already this run; draw a card"),
        "{:?}",
        prompts.borrow()
    );
    assert_eq!(output(s.handle("day.deck.face_down")), "= 34");
    // Undone, the card goes back into the deck.
    output(s.handle(":undo"));
    assert_eq!(output(s.handle("day.deck.face_down")), "= 35");
    // Ctrl-C at the card takes the draw back whole.
    answer_then_ctrl_c(&mut s, &[]);
    assert!(error(s.handle("day.draw_card()")).ends_with(super::session::NOTHING_APPLIED));
    assert_eq!(output(s.handle("day.deck.face_down")), "= 35");
}

#[test]
fn a_melee_with_a_struggle_reads_in_a_dozen_lines_at_80_columns_with_its_dice_and_totals() {
    let mut s = session(&["ff-napoleonic"]);
    s.set_width(Some(80));
    output(s.handle(UNITS));
    output(s.handle(":dice manual"));
    answer_with(&mut s, &["5", "6", "9", "1"]);
    // Round 1 is shown before round 2's dice are asked; the rest after.
    let shown: Rc<RefCell<Vec<String>>> = Rc::default();
    let seen = shown.clone();
    s.set_shower(Rc::new(RefCell::new(move |text: &str| seen.borrow_mut().push(text.to_string()))));
    let rest = output(s.handle("melee 4e 54th"));
    // As the terminal shows it, fitted to its 80 columns.
    let text = crate::present::fit::fit(&format!("{}\n{rest}", shown.borrow().join("\n")), Some(80));
    let rows: Vec<&str> = text.lines().collect();
    // The trace, between the call shown above it and the value below it.
    let value = rows.iter().position(|r| r.starts_with("= ")).unwrap_or(rows.len());
    let trace = rows[..value].iter().filter(|r| !r.starts_with("-> ")).count();
    assert!(trace <= 12, "{trace} rows:\n{text}");
    assert!(rows.len() <= 15, "{text}");
    assert!(rows.iter().all(|r| r.chars().count() <= 80), "{text}");
    // Both rounds' dice and totals, each round's result, the effects.
    assert!(text.contains("roll    4e Ligne (attacker): 5; 54th Foot (defender): 6\n"), "{text}");
    // The differential is the table's total, over the dice and the modifiers shown; its sum
    // is in `:why`.
    assert!(text.contains("table   Melee Table, total 0 -> desperate_struggle"), "{text}");
    assert!(text.contains("-> desperate_struggle: fought again"), "{text}");
    // What the result makes the units do next, in the rules' words.
    assert!(text.contains("-> swept: the defender retreats a full move"), "{text}");
    assert!(text.contains("roll    4e Ligne (attacker), round 2: 9; 54th Foot (defender), round 2: 1\n"), "{text}");
    let joined = text.replace("\n        ", " ");
    assert!(
        joined.contains("effect  4e Ligne: disordered, loses 1 stand; 54th Foot: disordered, loses 1 stand"),
        "{text}"
    );
    assert!(joined.contains("mods    4e Ligne (attacker): disordered -2, national +2, stands_lost -1; 54th Foot (defender): disordered -2, national +1, stands_lost -1"), "{text}");
    // `:why` has what the brief leaves out: the national modifiers, the struggle's words.
    let why = output(s.handle(":why"));
    assert!(
        why.contains("national melee modifier for 4e Ligne") && why.contains("differential: (5 +2) - (6 +1) = 0"),
        "{why}"
    );
    assert!(why.contains("desperate struggle: both disordered"), "{why}");
    // `:trace off` still shows the dice.
    output(s.handle(":trace off"));
    output(s.handle(":undo"));
    answer_with(&mut s, &["5", "6", "9", "1"]);
    let off = output(s.handle("melee 4e 54th"));
    assert!(off.contains("roll    4e Ligne (attacker), round 2, 1d10: [9] = 9") && off.contains("effect  "), "{off}");
    assert!(!off.contains("table ") && !off.contains("mod "), "{off}");
}

#[test]
fn help_fits_80_columns_each_command_wrapped_at_most_once_under_its_words() {
    let mut s = session(&["ff-napoleonic"]);
    let help = crate::present::fit::fit(&output(s.handle(":help")), Some(80));
    let rows: Vec<&str> = help.lines().collect();
    assert!(rows.iter().all(|r| r.chars().count() <= 80), "{help}");
    let at = rows.iter().position(|r| *r == "Commands:").unwrap();
    let mut command_rows = 0;
    for (i, row) in rows.iter().enumerate().skip(at + 1) {
        if row.starts_with("  :") {
            command_rows = 1;
        } else {
            // A continuation goes on under the command's words; none runs past three rows.
            command_rows += 1;
            assert!(row.starts_with(&" ".repeat(20)), "row {i}: {row}\n{help}");
            assert!(command_rows <= 3, "row {i}: {row}\n{help}");
        }
    }
    assert!(rows.len() - at < 50, "{help}");
}

#[test]
fn odds_lead_with_what_the_results_mean_for_the_sides() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    let odds = output(s.handle(":odds melee 4e 54th"));
    let lines: Vec<&str> = odds.lines().collect();
    assert_eq!(lines[0], "melee(b, a, #{})");
    assert!(lines[1].starts_with("the attackers carry the position  "), "{odds}");
    assert!(lines[2].starts_with("the assault is held               "), "{odds}");
    // Each meaning is the sum of its results' chances, worked out here from the exact fractions.
    let exact = output(s.handle(":odds --exact melee 4e 54th"));
    let chance = |result: &str| -> f64 {
        let row = exact.lines().find(|l| l.starts_with(&format!("{result} "))).unwrap_or_else(|| panic!("{exact}"));
        let fraction = row.split_whitespace().nth(1).unwrap();
        let (n, d) = fraction.split_once('/').unwrap_or((fraction, "1"));
        n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap()
    };
    let carried = chance("swept") + chance("driven_back") + chance("hard_pressed");
    let held = chance("assault_checked") + chance("assault_falters") + chance("charge_repulsed");
    assert!((carried + held - 1.0).abs() < 1e-12, "{exact}");
    let shown = |line: &str| line.rsplit(' ').next().unwrap().trim_end_matches('%').parse::<f64>().unwrap() / 100.0;
    assert!((shown(lines[1]) - carried).abs() < 0.0005, "{odds}");
    assert!((shown(lines[2]) - held).abs() < 0.0005, "{odds}");
    // Percents to three figures, the fractions only with --exact.
    assert!(odds.lines().skip(1).all(|l| !l.contains('/')), "{odds}");
    // A call whose results no meaning covers reads as before.
    assert!(!output(s.handle(":odds fire(a, b, #{range: 1}).fire_points")).contains("the target"));
}

#[test]
fn a_units_ground_stands_until_changed_and_every_short_resolution_naming_it_there_reads_it() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle(":seed 5"));
    assert_eq!(
        output(s.handle(":at 54th hedge")),
        "54th Foot stands at cover hedge until changed (:at 54th open clears it)"
    );
    assert!(
        output(s.handle(":units")).contains("a: 54th Foot (infantry, line, good order, 6 stands)\n    at cover hedge")
    );
    // The 54th defends behind its hedge, and is fired at behind it, with nothing typed.
    let melee = output(s.handle("melee 4e 54th"));
    assert!(melee.starts_with("-> melee(b, a, #{cover: \"hedge\"})"), "{melee}");
    output(s.handle(":undo"));
    let fire = output(s.handle("fire 4e 54th range 1"));
    assert!(fire.starts_with("-> fire(b, a, #{range: 1, cover: \"hedge\"})"), "{fire}");
    // Written out in Rhai, a call takes the ground as a short form does, into its map.
    let written = output(s.handle("melee(b, a, #{})"));
    assert!(written.starts_with("-> melee(b, a, #{cover: \"hedge\"})"), "{written}");
    output(s.handle(":undo"));
    let written = output(s.handle("fire(b, a, #{ range: 1 }).result"));
    assert!(written.starts_with("-> fire(b, a, #{range: 1, cover: \"hedge\"}).result"), "{written}");
    assert!(output(s.handle("melee(b, a, #{cover: \"wall\"})")).starts_with("mods"));
    // Ended with `;`, kept in a variable, or written with a trailing comma, the same.
    output(s.handle(":undo"));
    assert!(output(s.handle("melee(b, a, #{});")).starts_with("-> melee(b, a, #{cover: \"hedge\"});"));
    output(s.handle(":undo"));
    assert!(output(s.handle("let r = melee(b, a, #{});")).starts_with("-> let r = melee(b, a, #{cover: \"hedge\"});"));
    output(s.handle(":undo"));
    let trailing = output(s.handle("fire(b, a, #{range: 1,}).result"));
    assert!(trailing.starts_with("-> fire(b, a, #{range: 1, cover: \"hedge\"}).result"), "{trailing}");
    // Firing, the 54th's hedge is not the target's; given on the line, the line's counts.
    assert!(output(s.handle("fire 54th 4e range 1")).starts_with("-> fire(a, b, #{range: 1})"));
    assert!(output(s.handle("melee 4e 54th cover wall")).starts_with("-> melee(b, a, #{cover: \"wall\"})"));
    // A ground one resolution takes and another does not is refused there, saying so.
    output(s.handle(":at 54th wall"));
    let err = error(s.handle("fire 4e 54th range 1"));
    assert!(err.contains("`wall` (its ground, :at) is not a word `cover` of fire takes"), "{err}");
    // Misspelt, refused with what was meant; cleared with `open`; undone as any line.
    assert!(error(s.handle(":at 54th hegde")).contains("(did you mean `hedge`?)"));
    assert!(error(s.handle(":at 5th hedge")).contains("no unit is called `5th`"));
    assert_eq!(output(s.handle(":at 54th open")), "54th Foot stands in the open: no ground given");
    assert!(output(s.handle("melee 4e 54th")).starts_with("-> melee(b, a, #{})"));
    output(s.handle(":undo"));
    output(s.handle(":undo"));
    assert_eq!(output(s.handle(":at")), "54th Foot: at cover wall");
    // Saved with the game; a ground edited wrongly by hand is refused where it is wrong.
    let (_, dir) = saved_and_loaded(&mut s, "ground");
    let file = dir.join("game.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("cover:"), "{text}");
    std::fs::write(&file, text.replace("cover:", "cuver:")).unwrap();
    let err = error(session(&[]).handle(&format!(":load {}", file.display())));
    assert!(
        err.contains("`cuver` (the ground of `54th_foot`) is no ground a unit stands on (did you mean `cover`?)"),
        "{err}"
    );
    std::fs::write(&file, text.replace("- wall", "- wal")).unwrap();
    let err = error(session(&[]).handle(&format!(":load {}", file.display())));
    assert!(err.contains("`wal` (the cover of `54th_foot`) is not a word cover takes (did you mean `wall`?)"), "{err}");
}

#[test]
fn the_log_keeps_every_resolution_with_its_dice_and_effects_and_writes_markdown() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    assert_eq!(output(s.handle(":log")), "nothing has been resolved yet");
    output(s.handle(":dice manual"));
    answer_with(&mut s, &["9", "5", "5"]);
    output(s.handle(":next"));
    output(s.handle(":next"));
    output(s.handle("fire 54th 4e range 1"));
    output(s.handle("melee 54th 4e"));
    // A line taken back leaves no entry; an undone one is taken out.
    answer_with(&mut s, &[]);
    error(s.handle("fire 54th 4e range 1"));
    let log = output(s.handle(":log"));
    assert!(log.contains("[t1 britain musketry] fire 54th 4e range 1\n  roll    musketry, 1d10: [9] = 9"), "{log}");
    assert!(log.contains("  effect  4e Ligne: disordered, loses 1 stand"), "{log}");
    assert!(log.contains("[t1 britain musketry] melee 54th 4e\n"), "{log}");
    assert_eq!(log.matches("fire 54th").count(), 1, "{log}");
    output(s.handle(":undo"));
    assert!(!output(s.handle(":log")).contains("melee 54th 4e"));
    // As Markdown, a heading a phase.
    let dir = scratch("log");
    let file = dir.join("game.md");
    let said = output(s.handle(&format!(":log {}", file.display())));
    assert!(said.starts_with("wrote the log of the game (3 entries)"), "{said}");
    let md = std::fs::read_to_string(&file).unwrap();
    assert!(md.starts_with("# The game: Fire & Fury Napoleonic"), "{md}");
    assert!(
        md.contains(
            "\n## t1 britain musketry\n\n`fire 54th 4e range 1` (`fire(a, b, #{range: 1})`)\n\n- roll    musketry"
        ),
        "{md}"
    );
    assert!(error(s.handle(":log game.txt")).contains("ending .md"));
    // Kept in the saved game.
    let (t, _) = saved_and_loaded(&mut s, "log");
    let mut t = t;
    assert_eq!(output(t.handle(":log")), output(s.handle(":log")));
}

#[test]
fn odds_why_fits_80_columns_its_ranking_on_one_row_a_modifier() {
    let mut s = session(&["ff-napoleonic"]);
    s.set_width(Some(80));
    output(s.handle(UNITS));
    output(s.handle(":seed 2"));
    output(s.handle("fire 54th 4e range 1 enfiladed"));
    let why = crate::present::fit::fit(&output(s.handle(":odds why")), Some(80));
    let rows: Vec<&str> = why.lines().collect();
    assert!(rows.iter().all(|r| r.chars().count() <= 80), "{why}");
    // The ranking: a row a modifier, unwrapped; each source under the modifier's own heading.
    let at = rows.iter().position(|r| r.starts_with("modifier ")).unwrap_or_else(|| panic!("{why}"));
    assert_eq!(rows[at], "modifier                              effect  moves most", "{why}");
    assert!(rows[at + 1].starts_with("fire_modifiers.") && rows[at + 2].starts_with("fire_modifiers."), "{why}");
    assert!(why.contains("\n  source: seed 004, FIRE TABLE MODIFIERS (FF-TAB-FIRE-MODS)\n"), "{why}");
    assert!(why.contains("what each modifier does, the odds with it against without it, largest first"), "{why}");
}

#[test]
fn a_card_driven_turn_names_the_side_whose_movement_phase_begins() {
    let mut s = session(&["linear-warfare"]);
    output(s.handle(r#"let f = unit("Régiment de Picardie", "line_battalion", #{side: "french"}); let a = unit("IR 4", "line_battalion", #{side: "allies"});"#));
    assert!(
        output(s.handle(":turn allies french"))
            .starts_with("turn 1, allies moving: charges phase (1 of 3; allies acts)")
    );
    output(s.handle(":next"));
    output(s.handle(":next"));
    assert_eq!(s.prompt(), "[t1 allies leaders] grognard> ");
    // The phases are over: the card drawn says who moves next, and `:next` asks for it.
    let err = error(s.handle(":next"));
    assert!(err.contains("name the side whose card came up next (`:next french`)"), "{err}");
    assert!(error(s.handle(":next frnch")).contains("(did you mean `french`?)"));
    assert!(output(s.handle(":next french")).starts_with("turn 1, french moving: charges phase"));
    assert!(error(s.handle(":next allies")).contains("takes nothing until the leaders phase is over"));
    output(s.handle(":next"));
    output(s.handle(":next"));
    // A new turn: start_turn (the rules' own procedure) runs on every unit.
    output(s.handle("f.set_marker(\"fired\", true);"));
    let next = output(s.handle(":next turn allies"));
    assert!(next.starts_with("turn 2, allies moving: charges phase"), "{next}");
    assert!(!s.variable("f").unwrap().cast::<UnitRef>().0.borrow().markers.contains_key("fired"), "{next}");
    assert_eq!(output(s.handle("f.lose_stands(1); stands_lost_this_turn(f)")), "= 1");
    // Undone, the turn is as it was.
    output(s.handle(":undo"));
    output(s.handle(":undo"));
    assert_eq!(s.prompt(), "[t1 french leaders] grognard> ");
}

#[test]
fn a_saved_turn_edited_out_of_the_sequence_starts_again_and_a_side_is_one_word() {
    let mut s = session(&["ff-napoleonic"]);
    output(s.handle(UNITS));
    output(s.handle(":next"));
    let (_, dir) = saved_and_loaded(&mut s, "turn-edit");
    let file = dir.join("game.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("player: 0"), "{text}");
    std::fs::write(&file, text.replace("player: 0", "player: 2")).unwrap();
    let mut t = session(&[]);
    output(t.handle(&format!(":load {}", file.display())));
    assert_eq!(t.prompt(), "[t1 britain maneuver] grognard> ");
    // `:new`'s side is one word, as `:turn` and `:next` take it.
    let asked = choose_with(&mut s, &["Rifles", "british_light", "light division", "light_division", ""]);
    let made = output(s.handle(":new rifles"));
    assert!(made.contains("side: \"light_division\""), "{made}");
    assert!(asked.borrow().iter().any(|(p, _)| p.starts_with("`light division` is more than one word")));
}
