//! `grognard roll` as a process.

use serde_json::Value;

use super::{grognard, stderr, stdout};

#[test]
fn a_seeded_roll_is_repeatable_and_shows_each_die() {
    let first = stdout(&grognard(&["roll", "4d6kh3", "--seed", "7", "--times", "3"]));
    let again = stdout(&grognard(&["roll", "4d6kh3", "--seed", "7", "--times", "3"]));
    assert_eq!(first, again);
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 3, "{first}");
    for line in lines {
        // Four dice, one of them dropped (in parentheses).
        assert!(line.starts_with("4d6kh3: ["), "{line}");
        assert_eq!(line.matches('(').count(), 1, "{line}");
    }
}

#[test]
fn without_a_seed_the_seed_is_shown_so_the_roll_can_be_repeated() {
    let out = stdout(&grognard(&["roll", "3d6"]));
    let mut lines = out.lines();
    let seed = lines.next().unwrap().strip_prefix("seed ").expect("first line names the seed");
    let roll = lines.next().unwrap();
    let replay = stdout(&grognard(&["roll", "3d6", "--seed", seed]));
    assert_eq!(replay.trim(), roll);
}

#[test]
fn real_dice_are_checked_and_used() {
    let out = grognard(&["roll", "2d6+1 >= 8", "--dice", "3,5"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "2d6+1 >= 8: [3 5] + 1 = 9 >= 8: yes\n");
    let out = grognard(&["roll", "2d6", "--dice", "3,7"]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("bad_face", stderr(&out));
    let out = grognard(&["roll", "2d6", "--dice", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no face left for a d6 (1-6): all 1 supplied faces were used"));
}

#[test]
fn a_zero_based_d10_on_request() {
    let out = grognard(&["roll", "1d10", "--d10", "0-9", "--dice", "0"]);
    assert_eq!(stdout(&out), "1d10: [0] = 0\n");
}

#[test]
fn json_gives_one_object_per_roll() {
    let out = stdout(&grognard(&["roll", "1d10 > 1d10", "--seed", "3", "--times", "2", "--json"]));
    let rolls: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rolls.len(), 2);
    for (i, roll) in rolls.iter().enumerate() {
        assert_eq!(roll["roll"], i as u64 + 1);
        assert_eq!(roll["seed"], 3);
        assert_eq!(roll["expr"], "1d10 > 1d10");
        let dice = roll["dice"].as_array().unwrap();
        assert_eq!(dice.len(), 2);
        for die in dice {
            let natural = die["natural"].as_i64().unwrap();
            assert!((1..=10).contains(&natural));
            assert_eq!(die["die"]["sides"], 10);
            assert_eq!(die["kept"], true);
        }
        let (a, b) = (dice[0]["natural"].as_i64().unwrap(), dice[1]["natural"].as_i64().unwrap());
        assert_eq!(roll["total"], a);
        assert_eq!(roll["against"], b);
        assert_eq!(roll["success"], a > b);
    }
}

#[test]
fn bad_dice_exit_one_with_the_mistake_underlined() {
    let out = grognard(&["roll", "2d6+"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    insta::assert_snapshot!("dangling_plus", stderr(&out));
}
