//! grognard's exact dice odds against icepool's, through scripts/icepool_check.py, where
//! Python and icepool 2.1.3 are installed (`GROGNARD_ICEPOOL_PYTHON` names a Python
//! that has it, e.g. a venv's; else `python3`). Without them the test says so and passes.

use std::process::Command;

#[test]
fn exact_dice_odds_agree_with_icepool_where_it_is_installed() {
    let python = std::env::var("GROGNARD_ICEPOOL_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/icepool_check.py");
    let out = match Command::new(&python).arg(script).arg(env!("CARGO_BIN_EXE_grognard")).output() {
        Ok(out) => out,
        Err(err) => {
            eprintln!("skipped: no {python} to run icepool with ({err})");
            return;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    match out.status.code() {
        Some(3) => eprintln!("skipped: {}", text.trim()),
        Some(0) => assert!(text.contains(" passed, 0 failed"), "{text}"),
        other => panic!("icepool disagrees ({other:?}):\n{text}{}", String::from_utf8_lossy(&out.stderr)),
    }
}
