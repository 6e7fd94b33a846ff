//! The REPL in a real pseudo-terminal: a short game with manual dice.

use std::process::Command;

use rexpect::session::spawn_command;

/// The prompt, as the line editor shows it.
const PROMPT: &str = "grognard> ";

#[test]
fn a_short_game_at_the_table() {
    let history = std::env::temp_dir().join(format!("grognard-repl-history-{}", std::process::id()));
    let mut command = Command::new(env!("CARGO_BIN_EXE_grognard"));
    command.args(["repl", "--rules", "ff-napoleonic"]).env("GROGNARD_HISTORY", &history).env("NO_COLOR", "1");
    let mut p = spawn_command(command, Some(30_000)).expect("the REPL starts in a pseudo-terminal");

    p.exp_string("Fire & Fury Napoleonic (Rebel Yell No. 16 variant) (ff-napoleonic)").unwrap();
    p.exp_string(":help for commands").unwrap();
    p.exp_string(PROMPT).unwrap();

    // Each step waits for what it prints, then for the next prompt: the line
    // editor redraws the prompt as a line is typed, so the prompt alone says nothing.

    // Two units.
    p.send_line(r#"let brits = unit(#{name: "54th Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line"}); brits"#).unwrap();
    p.exp_string("= 54th Foot (infantry, line, good order, 6 stands)").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line(r#"let french = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"}); french"#).unwrap();
    p.exp_string("= 4e Ligne (infantry, column, good order, 6 stands)").unwrap();
    p.exp_string(PROMPT).unwrap();

    // Dice rolled at the table.
    p.send_line(":dice manual").unwrap();
    p.exp_string("you will be asked for every die").unwrap();
    p.exp_string(PROMPT).unwrap();

    // A fire: the player is asked for the musketry die; 12 is refused, 8 taken.
    p.send_line("fire(brits, french, #{range: 1})").unwrap();
    p.exp_string("roll a d10 (1-10: a 0 is 10) for musketry: ").unwrap();
    p.send_line("12").unwrap();
    p.exp_string("12 is not on a d10 (1-10: a 0 is 10); roll a d10 for musketry: ").unwrap();
    p.send_line("8").unwrap();
    p.exp_string("roll    musketry, 1d10: [8] = 8").unwrap();
    p.exp_string("telling").unwrap();
    p.exp_string("effect  4e Ligne: disordered, loses 1 stand").unwrap();
    p.exp_string("= #{").unwrap();
    p.exp_string(PROMPT).unwrap();

    // A melee, typed over two lines (the line goes on while a parenthesis is open).
    p.send_line("melee(french, brits,").unwrap();
    p.send_line("#{})").unwrap();
    p.exp_string("roll a d10 (1-10: a 0 is 10) for 4e Ligne (attacker): ").unwrap();
    p.send_line("9").unwrap();
    p.exp_string("roll a d10 (1-10: a 0 is 10) for 54th Foot (defender): ").unwrap();
    p.send_line("2").unwrap();
    p.exp_string("table   Melee Table").unwrap();
    p.exp_string("rounds: 1").unwrap();
    p.exp_string(PROMPT).unwrap();

    // The whole explanation, every modifier considered.
    p.send_line(":why").unwrap();
    p.exp_string("mod     no ").unwrap();
    p.exp_string("note    differential:").unwrap();
    p.exp_string(PROMPT).unwrap();

    // Exact odds.
    p.send_line(":odds 1d10 > 1d10").unwrap();
    p.exp_string("1d10 > 1d10: chance 9/20 (45.00%)").unwrap();
    p.exp_string(PROMPT).unwrap();

    p.send_line(":units").unwrap();
    p.exp_string("french: 4e Ligne (infantry, column, disordered").unwrap();
    p.exp_string(PROMPT).unwrap();

    p.send_line(":quit").unwrap();
    p.exp_eof().unwrap();

    // The history was kept for the next session.
    let kept = std::fs::read_to_string(&history).unwrap();
    assert!(kept.contains(":dice manual"), "{kept}");
    let _ = std::fs::remove_file(history);
}

#[test]
fn without_a_terminal_the_repl_says_what_to_use() {
    let out = super::grognard(&["repl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(super::stderr(&out).contains("the REPL needs a terminal"), "{}", super::stderr(&out));
}

/// A REPL in a pseudo-terminal of `TERM`, with limits high enough that only Ctrl-C stops a loop.
fn patient_repl(term: &str) -> rexpect::session::PtySession {
    let history = std::env::temp_dir().join(format!("grognard-repl-ctrl-c-{term}-{}", std::process::id()));
    let mut command = Command::new(env!("CARGO_BIN_EXE_grognard"));
    command
        .args(["repl", "--rules", "ff-napoleonic", "--max-operations", "1000000000000", "--time-limit", "600"])
        .env("GROGNARD_HISTORY", &history)
        .env("NO_COLOR", "1")
        .env("TERM", term);
    spawn_command(command, Some(30_000)).expect("the REPL starts in a pseudo-terminal")
}

#[test]
fn ctrl_c_stops_a_long_line_and_keeps_the_session() {
    for term in ["xterm", "dumb"] {
        let mut p = patient_repl(term);
        p.exp_string(PROMPT).unwrap();
        p.send_line("let kept = 41 + 1;").unwrap();
        p.exp_string(PROMPT).unwrap();
        p.send_line("let i = 0; loop { i += 1 }").unwrap();
        // Let the loop run, then interrupt it.
        std::thread::sleep(std::time::Duration::from_millis(500));
        p.send_control('c').unwrap();
        p.exp_string("interrupted (Ctrl-C)").unwrap();
        p.exp_string(PROMPT).unwrap();
        p.send_line("kept").unwrap();
        p.exp_string("= 42").unwrap();
        p.exp_string(PROMPT).unwrap();
        // At the prompt, Ctrl-C drops the line typed so far.
        p.send("kept + 1000").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        p.send_control('c').unwrap();
        // The line editor discards what is typed while it starts again on a fresh line.
        std::thread::sleep(std::time::Duration::from_millis(300));
        p.send_line("kept + 1").unwrap();
        p.exp_string("= 43").unwrap();
        p.exp_string(PROMPT).unwrap();
        p.send_line(":quit").unwrap();
        p.exp_eof().unwrap();
    }
}

#[test]
fn the_line_is_coloured_only_where_colour_is_allowed() {
    let grey = "\u{1b}[90m";
    for (no_color, when, coloured) in [(true, "auto", false), (false, "always", true), (false, "never", false)] {
        let history = std::env::temp_dir().join(format!("grognard-repl-colour-{when}-{}", std::process::id()));
        let _ = std::fs::remove_file(&history);
        let mut command = Command::new(env!("CARGO_BIN_EXE_grognard"));
        command.args(["repl", "--color", when]).env("GROGNARD_HISTORY", &history);
        if no_color {
            command.env("NO_COLOR", "1");
        } else {
            command.env_remove("NO_COLOR");
        }
        let mut p = spawn_command(command, Some(30_000)).expect("the REPL starts in a pseudo-terminal");
        p.exp_string(PROMPT).unwrap();
        p.send_line(":help").unwrap();
        p.exp_string(":quit").unwrap();
        p.exp_string(PROMPT).unwrap();
        // Typed again in part, the rest of the line is hinted from the history.
        p.send(":he").unwrap();
        p.flush().unwrap();
        let before = p.exp_string("lp").unwrap();
        assert_eq!(before.contains(grey), coloured, "--color {when}, NO_COLOR {no_color}: {before:?}");
        // The session ends when `p` is dropped.
        drop(p);
        let _ = std::fs::remove_file(history);
    }
}

#[test]
fn the_repl_starts_with_a_battle_loaded_a_seed_and_dice_at_the_table() {
    let history = std::env::temp_dir().join(format!("grognard-repl-start-{}", std::process::id()));
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/scenarios/screened.yaml");
    let mut command = Command::new(env!("CARGO_BIN_EXE_grognard"));
    command
        .args(["repl", "--rules", "ff-skirmishers", "--load", scenario, "--seed", "11", "--dice", "manual"])
        .env("GROGNARD_HISTORY", &history)
        .env("NO_COLOR", "1");
    let mut p = spawn_command(command, Some(30_000)).expect("the REPL starts in a pseudo-terminal");
    p.exp_string("House rule: skirmish screens (ff-napoleonic + ff-skirmishers); seed").unwrap();
    p.exp_string("rifles: 95th Rifles (infantry, line, good order, 4 stands)").unwrap();
    p.exp_string("dice: auto, seed 11").unwrap();
    p.exp_string("dice: manual; you will be asked for every die").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line("fire(ligne, rifles, #{range: 2}).result").unwrap();
    p.exp_string("roll a d10 (1-10: a 0 is 10) for musketry: ").unwrap();
    p.send_line("0").unwrap();
    p.exp_string("roll    musketry, 1d10: [10] = 10").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line(":quit").unwrap();
    p.exp_eof().unwrap();
    let _ = std::fs::remove_file(&history);

    // A flag that cannot be done stops the start, saying which and why.
    let mut command = Command::new(env!("CARGO_BIN_EXE_grognard"));
    command.args(["repl", "--rules", "ff-napoleonic", "--load", "no-such-battle.yaml"]).env("NO_COLOR", "1");
    let mut p = spawn_command(command, Some(30_000)).expect("the REPL starts in a pseudo-terminal");
    p.exp_string("the REPL did not start: `:load no-such-battle.yaml` failed").unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn tab_lists_what_fits_where_the_cursor_is() {
    let history = std::env::temp_dir().join(format!("grognard-repl-tab-{}", std::process::id()));
    let mut command = Command::new(env!("CARGO_BIN_EXE_grognard"));
    command.args(["repl", "--rules", "ff-napoleonic"]).env("GROGNARD_HISTORY", &history).env("NO_COLOR", "1");
    let mut p = spawn_command(command, Some(30_000)).expect("the REPL starts in a pseudo-terminal");
    p.exp_string(PROMPT).unwrap();
    // After `:set NAME=`, the interpretation's choices, listed together.
    p.send(":set musketry_below_zero=\t\t").unwrap();
    p.flush().unwrap();
    let listed = p.exp_string("desultory").unwrap();
    assert!(listed.contains("clamp"), "{listed:?}");
    // One candidate is completed in place: Enter then sets it.
    p.send("d\t\r").unwrap();
    p.flush().unwrap();
    p.exp_string("musketry_below_zero = desultory").unwrap();
    drop(p);
    let _ = std::fs::remove_file(history);
}
