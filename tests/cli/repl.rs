//! The REPL in a real pseudo-terminal: a short game with manual dice.

use std::process::Command;

use rexpect::session::spawn_command;

/// The prompt, as the line editor shows it.
const PROMPT: &str = "grognard> ";

/// The end of the pager's question, after a screenful of a long output.
const MORE: &str = "Enter for more, q to stop -- ";

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
    p.exp_string("roll    musketry: 8").unwrap();
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
    p.exp_string("detail  differential:").unwrap();
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

/// Waits for the terminal to take what was sent, as a player's hands would.
fn pause() {
    std::thread::sleep(std::time::Duration::from_millis(300));
}

#[test]
fn ctrl_c_drops_a_line_going_on_a_question_and_a_dice_prompt_under_every_term() {
    // Under TERM=dumb the terminal, not rustyline, edits the line, and Ctrl-C is a signal.
    for term in ["dumb", "xterm"] {
        let mut p = patient_repl(term);
        p.exp_string(PROMPT).unwrap();
        p.send_line("let kept = 41 + 1;").unwrap();
        p.exp_string(PROMPT).unwrap();

        // A line going on while a bracket is open: Ctrl-C drops all of it, the lines before
        // included, and the next line stands alone.
        p.send_line("let kept = (1000 +").unwrap();
        pause();
        p.send("7").unwrap();
        pause();
        p.send_control('c').unwrap();
        pause();
        p.send_line("kept").unwrap();
        p.exp_string("= 42").unwrap();
        p.exp_string(PROMPT).unwrap();

        // A question of `:new`: Ctrl-C cancels it, and what was typed goes nowhere.
        p.send_line(":new rifles").unwrap();
        p.exp_string("name of the unit: ").unwrap();
        p.send("3/95").unwrap();
        pause();
        p.send_control('c').unwrap();
        p.exp_string("cancelled: no unit made").unwrap();
        p.exp_string(PROMPT).unwrap();
        pause();
        p.send_line("let marker = 5;").unwrap();
        p.exp_string(PROMPT).unwrap();
        p.send_line(":units").unwrap();
        p.exp_string("no units yet").unwrap();
        p.exp_string(PROMPT).unwrap();
        p.send_line("marker * 1000 + 7").unwrap();
        p.exp_string("= 5007").unwrap();
        p.exp_string(PROMPT).unwrap();

        // A die asked for at the table: Ctrl-C refuses the line that asked, and nothing of it
        // stays (the stands it took first are back).
        p.send_line(r#"let brits = unit(#{name: "54th Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line"});"#).unwrap();
        p.exp_string(PROMPT).unwrap();
        p.send_line(":dice manual").unwrap();
        p.exp_string("you will be asked for every die").unwrap();
        p.exp_string(PROMPT).unwrap();
        p.send_line(r#"brits.lose_stands(2); let rolled = roll("1d6").total; rolled"#).unwrap();
        p.exp_string("roll a d6 (1-6): ").unwrap();
        p.send("4").unwrap();
        pause();
        p.send_control('c').unwrap();
        p.exp_string("interrupted (Ctrl-C) while a d6 (1-6) was asked for").unwrap();
        p.exp_string("nothing was applied: the units, leaders, variables and dice are as they were before the line")
            .unwrap();
        p.exp_string(PROMPT).unwrap();
        pause();
        p.send_line("[brits.stands, kept, marker]").unwrap();
        p.exp_string("= [6, 42, 5]").unwrap();
        p.exp_string(PROMPT).unwrap();
        // Asked again, the die is taken whole.
        p.send_line(r#"roll("1d6").total"#).unwrap();
        p.exp_string("roll a d6 (1-6): ").unwrap();
        p.send_line("4").unwrap();
        p.exp_string("= 4").unwrap();
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
        // The scenario's rifles have a screen out, read only under skirmish_screens.
        .args([
            "repl",
            "--rules",
            "ff-skirmishers",
            "--with",
            "skirmish_screens",
            "--load",
            scenario,
            "--seed",
            "11",
            "--dice",
            "manual",
        ])
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
    p.exp_string("roll    musketry: 10").unwrap();
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

/// A REPL in an 80x24 pseudo-terminal, everything it writes also drawn on an 80x24 screen
/// (`vt100`), so a test reads what the player sees.
struct Table {
    p: rexpect::session::PtySession,
    screen: vt100::Parser,
}

impl Table {
    fn start(args: &[&str], history: &std::path::Path) -> Table {
        // The terminal is made 80x24 before the REPL starts, as a player's would be.
        let mut line = String::from("stty cols 80 rows 24 && exec \"$0\"");
        for i in 1..=args.len() {
            line += &format!(" \"${i}\"");
        }
        let mut command = Command::new("sh");
        command.arg("-c").arg(line).arg(env!("CARGO_BIN_EXE_grognard")).args(args);
        command.env("GROGNARD_HISTORY", history).env("NO_COLOR", "1").env("TERM", "xterm");
        let p = spawn_command(command, Some(30_000)).expect("the REPL starts in a pseudo-terminal");
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("not 0");
        Table { p, screen: vt100::Parser::new(size(24), size(80), 0) }
    }

    /// Waits for `text`, drawing everything up to it.
    fn expect(&mut self, text: &str) -> String {
        let before = self.p.exp_string(text).unwrap_or_else(|e| panic!("waiting for {text:?}: {e}\n{}", self.shown()));
        // rexpect hands back each byte read as one char: the bytes again, for the screen to decode.
        let bytes: Vec<u8> = before.chars().chain(text.chars()).map(|c| c as u32 as u8).collect();
        self.screen.process(&bytes);
        before
    }

    /// Types keys, Tab (`\t`) and Enter (`\r`) among them.
    fn keys(&mut self, keys: &str) {
        self.p.send(keys).unwrap();
        self.p.flush().unwrap();
    }

    /// Drops the line being typed (Ctrl-C at the prompt), and waits for a fresh prompt: the
    /// line editor ends the line (bracketed paste off), then draws the prompt anew. Keys typed
    /// before that prompt may be dropped as the editor takes the terminal again.
    fn clear_line(&mut self) {
        self.keys("\x03");
        self.expect("\x1b[?2004l");
        self.expect(PROMPT);
    }

    /// Goes through an output paged a screenful at a time to its end, pressing Enter at each
    /// question the pager asks; what it printed, a row a line, and how many questions it asked.
    fn through_pages(&mut self) -> (Vec<String>, usize) {
        use rexpect::reader::ReadUntil;
        let mut printed = String::new();
        let mut asked = 0;
        loop {
            let needles = vec![ReadUntil::String(MORE.into()), ReadUntil::String(PROMPT.into())];
            let (before, found) = self.p.exp_any(needles).unwrap_or_else(|e| panic!("{e}\n{}", self.shown()));
            let bytes: Vec<u8> = before.chars().chain(found.chars()).map(|c| c as u32 as u8).collect();
            self.screen.process(&bytes);
            // rexpect hands back a byte a char: the text again, for what is written past ASCII.
            let text: Vec<u8> = before.chars().map(|c| c as u32 as u8).collect();
            printed += &String::from_utf8_lossy(&text);
            if found == PROMPT {
                break;
            }
            asked += 1;
            self.keys("\r");
        }
        // The pager's questions and the line editor's redraws are not the output's rows.
        let rows = printed.split("\r\n").filter(|r| !r.contains('\u{1b}')).map(str::to_string).collect();
        (rows, asked)
    }

    /// The screen's rows as the player sees them.
    fn rows(&self) -> Vec<String> {
        self.screen.screen().rows(0, 80).collect()
    }

    fn shown(&self) -> String {
        self.rows().join("\n")
    }
}

#[test]
fn a_turn_at_the_table_at_80x24() {
    let history = std::env::temp_dir().join(format!("grognard-repl-turn-{}", std::process::id()));
    let battle = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/scenarios/hedge.yaml");
    let args = ["repl", "--rules", "ff-house-example", "--load", battle, "--seed", "3", "--dice", "manual"];
    let mut t = Table::start(&args, &history);

    // The battle is loaded, each unit in a variable named by its id.
    t.expect("foot_52nd: 1/52nd Foot (infantry, line, good order, 6 stands)");
    t.expect("dice: manual; you will be asked for every die");
    t.expect(PROMPT);
    // Each step on its line: what a player reads when a result needs looking into.
    t.keys(":trace steps\r");
    t.expect("trace steps: each die with its luck");
    t.expect(PROMPT);

    // Completion in each place, a list where more than one fits: a command after `:`...
    t.keys(":wi\t\t");
    t.expect(":without");
    t.clear_line();
    // ...an option after `:with`...
    t.keys(":with \t\t");
    t.expect("wider_struggle");
    t.clear_line();
    // ...an interpretation's choices after `:set NAME=`...
    t.keys(":set musketry_below_zero=\t\t");
    t.expect("desultory");
    t.clear_line();
    // ...a table after `:show`, completed in place and shown.
    t.keys(":show musk\t\r");
    t.expect("Musketry and Cannonade Table");
    t.through_pages();
    // ...the units where a Rhai call takes them, and a situation's keys inside its `#{`.
    t.keys("fire(foot_52nd, \t\t");
    t.expect("ligne_2");
    t.clear_line();
    t.keys("fire(foot_52nd, ligne_1, #{enf\t");
    t.expect("enfiladed: ");
    t.clear_line();
    // ...and in a short form, a key's words after it (what they share completed first).
    t.keys("fire foot_52nd ligne_1 cover w\t\t");
    t.expect("woods  works");
    assert!(
        t.rows().iter().any(|r| r == "[t1 france maneuver] grognard> fire foot_52nd ligne_1 cover wo"),
        "{}",
        t.shown()
    );
    t.clear_line();

    // A unit made by answering for it, Tab listing the templates.
    t.keys(":new rifles_3\r");
    t.expect("name of the unit: ");
    t.keys("3/95th Rifles\r");
    t.expect("template (Tab lists them); Enter for none: ");
    // Tab completes what the two British templates share, `british_li`, then lists them.
    t.keys("british_l\t\t");
    t.expect("british_light  british_line");
    t.keys("ne\r");
    // What the template leaves open and the procedures read: Enter leaves each out.
    t.expect("side; Enter for none: ");
    t.keys("\r");
    t.expect("markers, NAME or NAME=VALUE (Tab lists them); Enter for none: ");
    t.keys("\r");
    t.expect("rifles_3: 3/95th Rifles (infantry, line, good order, 6 stands)");
    t.expect(PROMPT);

    // A fire in short form, typed with Tab: the units by the start of their variables, then a
    // situation word; the die is rolled at the table and typed as it shows, 0.
    t.keys("fire foot\t lig\t\t");
    t.expect("ligne_2");
    t.keys("1 enf\t range 1\r");
    t.expect("roll a d10 (1-10: a 0 is 10) for musketry: ");
    t.keys("0\r");
    // Above its trace, the call the short form stood for.
    t.expect("-> fire(foot_52nd, ligne_1, #{enfiladed: true, range: 1})");
    t.expect("roll    musketry, 1d10: [10] = 10  [10 or more: 10%]");
    t.expect("effect  1/4e Ligne: disordered, loses 2 stands");
    t.expect(PROMPT);
    // On the screen: the cell read wraps at a space, under its text, every word whole, with
    // the chance of a result this good (the house chart's Deadly is 10+ in the row of 6
    // stands, and the house rules take away the British +1: a d10 +1 for the enfilade reaches
    // it on 9 or 10, 2 faces in 10), and how near it came to another.
    let rows = t.rows();
    let at = rows.iter().position(|r| r.starts_with("table   Musketry and Cannonade Table"));
    let at = at.unwrap_or_else(|| panic!("{}", t.shown()));
    let continued: Vec<&String> = rows[at + 1..].iter().take_while(|r| r.starts_with("        ")).collect();
    assert!(!continued.is_empty(), "{}", t.shown());
    let whole = std::iter::once(&rows[at]).chain(continued).map(|r| r.trim()).collect::<Vec<_>>().join(" ");
    assert!(whole.contains("-> 10+: deadly: Target disordered & 2 stands lost."), "{whole}");
    let deadly = (1..=10).filter(|face: &i64| face + 1 >= 10).count() * 10;
    assert!(whole.ends_with(&format!("[this or higher: {deadly}%; 2 less: telling]")), "{whole}");
    assert!(rows.iter().all(|r| r.chars().count() <= 80));

    // What each modifier did to that fire's odds, weighed on the units as they stood before
    // it; no die is asked for, as odds are worked out, not rolled.
    t.keys(":odds why\r");
    t.expect("(as the units stood before it)");
    t.expect("exact odds; then each modifier that applied, left out in turn");
    let (rows, _) = t.through_pages();
    assert!(rows.iter().any(|r| r.contains("fire_modifiers.target_enfiladed (+1)")), "{rows:#?}");
    // The enfilade's bars, either side of the axis: less desultory, more deadly.
    let bars: Vec<&String> = rows.iter().filter(|r| r.contains('│') && r.ends_with(" with")).collect();
    assert!(bars.iter().any(|r| r.trim_start().starts_with("deadly") && r.contains("│█")), "{}", t.shown());
    assert!(bars.iter().all(|r| r.chars().count() <= 80), "{}", t.shown());

    // A melee in short form: names by a piece, the hedge a word of the defender's cover.
    t.keys("melee 2/4e 52nd hedge\r");
    t.expect("roll a d10 (1-10: a 0 is 10) for 2/4e Ligne (attacker): ");
    t.keys("9\r");
    t.expect("roll a d10 (1-10: a 0 is 10) for 1/52nd Foot (defender): ");
    t.keys("2\r");
    t.expect("-> melee(ligne_2, foot_52nd, #{cover: \"hedge\"})");
    // Step by step it is taller than the screen: paged.
    let (rows, asked) = t.through_pages();
    assert!(asked >= 1, "{rows:#?}");
    assert!(rows.iter().any(|r| r.starts_with("table   Melee Table")), "{rows:#?}");
    // Steps: the sides labelled over the modifiers that counted for each.
    assert!(rows.iter().any(|r| r == "side    2/4e Ligne (attacker)"), "{rows:#?}");
    assert!(rows.iter().any(|r| r == "side    1/52nd Foot (defender)"), "{rows:#?}");
    assert!(!rows.iter().any(|r| r.starts_with("mod     no")), "{rows:#?}");

    // `:why`: every modifier considered, each that did not apply with its reason.
    // Taller than the screen, it is shown a screenful at a time.
    t.keys(":why\r");
    t.expect(MORE);
    assert!(t.rows().iter().all(|r| r.chars().count() <= 80), "{}", t.shown());
    assert!(
        t.rows()[23].starts_with("-- ") && t.rows()[23].contains(" more rows: Enter for more, q to stop --"),
        "{}",
        t.shown()
    );
    t.keys("\r");
    let (rows, _) = t.through_pages();
    assert!(rows.iter().any(|r| r.contains("detail  differential:")), "{rows:#?}");
    assert!(rows.iter().any(|r| r == "mod     no  -2                Outflanked  (situation.outflanked is false)"));
    // Each such line, its wrapped rows joined, ends in its reason.
    let mut reasons = 0;
    for (i, row) in rows.iter().enumerate().filter(|(_, r)| r.starts_with("mod     no")) {
        let rest = rows[i + 1..].iter().take_while(|r| r.starts_with("        "));
        let whole = std::iter::once(row).chain(rest).map(|r| r.trim()).collect::<Vec<_>>().join(" ");
        assert!(whole.ends_with(')'), "no reason: {whole}\n{rows:#?}");
        reasons += 1;
    }
    assert!(reasons >= 5, "{rows:#?}");
    // `q` stops the pager at once.
    t.keys(":why\r");
    t.expect(MORE);
    t.keys("q\r");
    t.expect(PROMPT);

    // `:undo` takes the melee back, as typed.
    t.keys(":undo\r");
    t.expect("undone: melee 2/4e 52nd hedge");
    t.expect("roll the dice at the table again");
    // The 52nd stands whole again.
    t.expect("foot_52nd: 1/52nd Foot (infantry, line, good order, 6 stands)");
    t.expect(PROMPT);

    // The exact odds of the same melee, written short.
    t.keys(":odds melee 2/4e 52nd hedge\r");
    t.expect("melee(ligne_2, foot_52nd, #{cover: \"hedge\"})");
    t.expect("charge_repulsed");
    t.expect(PROMPT);
    // Each result on one row, its bar beside it: the bars shorten to fit beside long fractions.
    let rows = t.rows();
    for result in ["swept", "driven_back", "hard_pressed", "assault_checked", "assault_falters"] {
        let row = rows.iter().find(|r| r.starts_with(result)).unwrap_or_else(|| panic!("{result}\n{}", t.shown()));
        assert!(row.contains('%') && row.contains('█'), "{row}\n{}", t.shown());
    }

    t.keys(":quit\r");
    t.p.exp_eof().unwrap();
    let _ = std::fs::remove_file(history);
}

#[test]
fn a_game_night_at_80x24_lines_all_or_nothing_the_turn_carried_and_real_cards() {
    let history = std::env::temp_dir().join(format!("grognard-repl-night-{}", std::process::id()));
    let mut t = Table::start(&["repl", "--rules", "ff-napoleonic", "--dice", "manual"], &history);
    t.expect("dice: manual; you will be asked for every die");
    t.expect(PROMPT);
    t.keys("let a = unit(\"54th Foot\", \"british_line\"); let b = unit(\"4e Ligne\", \"french_line\");\r");
    // The prompt says where the game stands, the sides named by the units.
    t.expect("[t1 britain maneuver] grognard> ");

    // Ctrl-C at the die of round 2 of a desperate struggle: round 1 is shown, then nothing of
    // it stays (5 + 2 against 6 + 1 is a struggle).
    t.keys("melee 4e 54th\r");
    t.expect("for 4e Ligne (attacker): ");
    t.keys("5\r");
    t.expect("for 54th Foot (defender): ");
    t.keys("6\r");
    t.expect("-> desperate_struggle: fought again");
    t.expect("for 4e Ligne (attacker), round 2: ");
    pause();
    t.keys("\x03");
    t.expect("nothing was applied");
    t.expect(PROMPT);
    t.keys(":units\r");
    t.expect("b: 4e Ligne (infantry, column, good order, 6 stands)");
    t.expect(PROMPT);
    assert!(t.rows().iter().any(|r| r == "a: 54th Foot (infantry, line, good order, 6 stands)"), "{}", t.shown());

    // A fire and then a melee in the same player turn: the stand lost to the fire counts in the
    // melee with nothing typed.
    t.keys(":next\r");
    t.expect("reaction phase");
    t.expect(PROMPT);
    t.keys(":next\r");
    t.expect("[t1 britain musketry] grognard> ");
    t.keys("fire 54th 4e range 1\r");
    t.expect("for musketry: ");
    t.keys("9\r");
    t.expect("effect  4e Ligne: disordered, loses 1 stand");
    t.expect(PROMPT);
    t.keys(":next\r");
    t.expect("[t1 britain melee] grognard> ");
    t.keys("melee 54th 4e\r");
    t.expect("for 54th Foot (attacker): ");
    t.keys("5\r");
    t.expect("for 4e Ligne (defender): ");
    t.keys("5\r");
    t.expect("= #{");
    t.expect(PROMPT);
    let rows = t.rows();
    let joined = rows.join("\n").replace("\n        ", " ");
    assert!(joined.contains("4e Ligne (defender): disordered -2, national +2, stands_lost -1"), "{}", t.shown());
    assert!(joined.contains("note    4e Ligne lost 1 stand(s) earlier this phase"), "{}", t.shown());
    // The brief trace fits the screen: under its call, every row within 80 columns.
    let call =
        rows.iter().position(|r| r.starts_with("-> melee(a, b, #{})")).unwrap_or_else(|| panic!("{}", t.shown()));
    let value = rows[call..].iter().position(|r| r.starts_with("= #{")).unwrap_or_else(|| panic!("{}", t.shown()));
    assert!(value <= 12, "{}", t.shown());
    assert!(rows.iter().all(|r| r.chars().count() <= 80), "{}", t.shown());

    // `:undo` after a line that changed nothing takes back that line, not the one before.
    t.keys(":undo\r");
    t.expect("undone: melee 54th 4e");
    t.expect(PROMPT);
    t.keys("fire 54th 4e range 2\r");
    t.expect("for musketry: ");
    t.keys("1\r");
    t.expect("-> desultory");
    t.expect(PROMPT);
    t.keys(":undo\r");
    t.expect("undone: fire 54th 4e range 2");
    t.expect(PROMPT);
    // The telling fire stands.
    t.keys("b.stands\r");
    t.expect("= 5");
    t.expect(PROMPT);
    t.keys(":quit\r");
    t.p.exp_eof().unwrap();

    // A real card, named as it is printed.
    let mut t = Table::start(&["repl", "--rules", "linear-warfare", "--dice", "manual"], &history);
    t.expect(PROMPT);
    t.keys("let day = card_day(#{sides: [#{name: \"french\", colour: \"red\", trumps: 2}, #{name: \"allies\", colour: \"black\", trumps: 1}], runs: 2});\r");
    t.expect(PROMPT);
    pause();
    t.keys("day.draw_card().card\r");
    // (rexpect reads the terminal byte by byte: the suit's sign is matched on the screen.)
    t.expect("draw a card for turn 1 and name it (4S, 10 of hearts, Q");
    t.expect("; 36 face down): ");
    assert!(t.rows().iter().any(|r| r.contains("(4S, 10 of hearts, Q♥; 36 face down)")), "{}", t.shown());
    t.keys("Q♥\r");
    t.expect("` in this deck; draw a card");
    t.keys("4S\r");
    t.expect("= \"4 of spades\"");
    t.expect(PROMPT);
    t.keys(":quit\r");
    t.p.exp_eof().unwrap();
    let _ = std::fs::remove_file(history);
}
