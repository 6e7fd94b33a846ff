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
fn without_a_seed_the_seed_is_shown_on_stderr_so_the_roll_can_be_repeated() {
    let out = grognard(&["roll", "3d6"]);
    let said = stderr(&out);
    let seed = said.trim().strip_prefix("seed ").expect("stderr names the seed");
    // Standard output has the roll alone, for a pipe.
    let roll = stdout(&out);
    assert_eq!(roll.lines().count(), 1, "{roll}");
    let replay = stdout(&grognard(&["roll", "3d6", "-s", seed]));
    assert_eq!(replay, roll);
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
    assert!(stderr(&out).contains("no face left for a d6 (1-6) for `die 2 of 2`: all 1 supplied faces"));
}

#[test]
fn a_zero_based_d10_on_request() {
    let out = grognard(&["roll", "1d10", "--d10", "0-9", "--dice", "0"]);
    assert_eq!(stdout(&out), "1d10: [0] = 0\n");
}

#[test]
fn json_gives_one_object_per_roll() {
    let out = stdout(&grognard(&["roll", "1d10 > 1d10", "--seed", "3", "--times", "2", "--json"]));
    // The header first, then a line a roll.
    let mut lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["header"]["seed"], 3);
    let rolls = lines.split_off(1);
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

#[test]
fn dice_a_ruleset_names_are_rolled_by_name_with_its_rules() {
    let out = grognard(&["roll", "2avg + 1", "--rules", "volley-example", "--dice", "5,2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "2avg+1: [5 2] + 1 = 8\n");
    // Without the rules that name it, `avg` is no die, and says where dice are named.
    let out = grognard(&["roll", "2avg", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("`avg` is not dice notation"), "{}", stderr(&out));
    // A face the named die does not have is refused by name.
    let out = grognard(&["roll", "avg", "--rules", "volley-example", "--dice", "6"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("face 6 cannot be rolled on a avg (2,3,3,4,4,5)"), "{}", stderr(&out));
}

#[test]
fn a_d66_is_read_as_the_flag_or_the_rules_say_and_refused_unsaid() {
    let out = grognard(&["roll", "d66", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("a d66 is read two ways"), "{}", stderr(&out));
    let out = grognard(&["roll", "d66", "--d66", "tens-and-units", "--dice", "35"]);
    assert_eq!(stdout(&out), "1d66: [35] = 35\n");
    let out = grognard(&["roll", "d66", "--d66", "tens-and-units", "--dice", "37"]);
    assert_eq!(out.status.code(), Some(1));
    let out = grognard(&["roll", "d66", "--d66", "1-66", "--dice", "37"]);
    assert_eq!(stdout(&out), "1d66: [37] = 37\n");
    let out = grognard(&["roll", "d66", "--d66", "tens"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("a d66 reads `tens-and-units` or `1-66`, not `tens`"), "{}", stderr(&out));
}

#[test]
fn an_overlay_adds_named_dice_and_readings_to_its_base() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = dir.path().join("volley-fudge");
    std::fs::create_dir(&overlay).unwrap();
    std::fs::write(
        overlay.join("ruleset.yaml"),
        "id: volley-fudge\nextends: volley-example\ntitle: Fudge dice and d66s\nsource: house\n\
         dice: { d66: tens-and-units, fudge: [-1, 0, 1] }\n",
    )
    .unwrap();
    let rules = overlay.display().to_string();
    // The base's `avg` and d10 reading stay; the overlay's die and d66 reading are added.
    let out = grognard(&["roll", "avg + 2fudge + d66 + d10", "--rules", &rules, "--dice", "3,1,-1,35,10"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "avg+2fudge+1d66+1d10: [3] + [1 -1] + [35] + [10] = 48\n");
    // With the rules, odds read a dice expression as dice, not as a procedure call.
    let out = grognard(&["odds", "--rules", &rules, "2fudge", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    // Two fudge dice: -2 and 2 one way in 9, -1 and 1 two ways, 0 three ways.
    let chances: Vec<(i64, &str)> = json["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["total"].as_i64().unwrap(), row["probability"].as_str().unwrap()))
        .collect();
    assert_eq!(chances, [(-2, "1/9"), (-1, "2/9"), (0, "1/3"), (1, "2/9"), (2, "1/9")]);
}

#[test]
fn dice_mistakes_in_a_ruleset_are_pointed_at() {
    let out = grognard(&["check", "tests/fixtures/rules/broken-dice"]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("broken_dice", format!("{}{}", stdout(&out), stderr(&out)));
}
