//! The remaining tables of helper A's part against the seed text: phases,
//! trumps, the drill restrictions, cavalry lines, unit sizes, commanders; and
//! every house table is marked house.

use grognard::rules::{LookupValue, Source};

use crate::ruleset;

fn lookup(table: &str, keys: &[&str]) -> LookupValue {
    let rs = ruleset(&["linear-warfare"]);
    rs.tables[table].read_lookup(&keys.iter().map(|k| k.to_string()).collect::<Vec<_>>()).unwrap().clone()
}

fn int(table: &str, keys: &[&str]) -> i64 {
    match lookup(table, keys) {
        LookupValue::Int(n) => n,
        other => panic!("{table} {keys:?}: {other:?}"),
    }
}

#[test]
fn phases_per_turn_are_two_or_three() {
    // Seed 003, L62 and L72.
    let seed = "Each side gets two Movement Phases per turn. ... that side gets THREE Movement Phases in a turn, instead of two.";
    assert!(seed.contains("two Movement Phases") && seed.contains("THREE"));
    assert_eq!((int("phases", &["ordinary"]), int("phases", &["exceptional"])), (2, 3));
}

#[test]
fn the_trumps_are_the_face_cards_and_aces_eight_a_colour() {
    // Seed 003, L62 ("Remove the Jokers, Aces and face cards and set them aside") and L66.
    for colour in ["red", "black"] {
        let LookupValue::Map(suits) = lookup("trump_cards", &[colour]) else { panic!() };
        let cards: usize = suits.values().map(|v| v.to_string().split(' ').count()).sum();
        assert_eq!(cards, 8, "{colour}");
        for v in suits.values() {
            assert_eq!(v.to_string(), "J Q K A");
        }
    }
}

#[test]
fn the_uncadenced_doubling_and_the_closed_line_are_the_seeds() {
    // L127: "formation change costs doubled and Wheels ... at Half Speed (count 2" for every 1" actually moved)".
    assert_eq!(int("infantry_drill", &["no_cadence", "formation_change_cost_multiplier"]), 2);
    assert_eq!(int("infantry_drill", &["no_cadence", "wheel_inches_per_inch"]), 2);
    // L459-462: "1" of measured movement ... deducts 2""; "requires TWO Formation Changes"; "after the first 3"".
    assert_eq!(int("cavalry_lines", &["closed_line", "wheel_inches_per_inch"]), 2);
    assert_eq!(int("cavalry_lines", &["closed_line", "formation_changes_to_column"]), 2);
    assert_eq!(int("cavalry_lines", &["closed_line", "break_up_after_inches"]), 3);
    // L464-466: "at least 1" apart"; "each squadron wheels at full speed".
    assert_eq!(int("cavalry_lines", &["open_line", "interval_min_inches"]), 1);
    assert_eq!(int("cavalry_lines", &["open_line", "wheel_inches_per_inch"]), 1);
}

#[test]
fn stand_frontages_are_the_seeds() {
    // Seed 003, L29-35: "15mm 3/4 to 1-1/4 inches", "25mm 1-1/4 to 1-1/2 inches",
    // "15mm 1-1 /2 to 2-1 /2 inches", "25mm 2-1/2 to 3 inches"; artillery "same frontage as for cavalry".
    for (arm, scale, low, high) in [
        ("infantry", "15mm", "3/4\"", "1-1/4\""),
        ("infantry", "25mm", "1-1/4\"", "1-1/2\""),
        ("cavalry", "15mm", "1-1/2\"", "2-1/2\""),
        ("cavalry", "25mm", "2-1/2\"", "3\""),
        ("artillery", "15mm", "1-1/2\"", "2-1/2\""),
        ("artillery", "25mm", "2-1/2\"", "3\""),
    ] {
        assert_eq!(lookup("unit_sizes", &[arm, scale, "frontage_min"]).to_string(), low, "{arm} {scale}");
        assert_eq!(lookup("unit_sizes", &[arm, scale, "frontage_max"]).to_string(), high, "{arm} {scale}");
    }
    assert_eq!(int("unit_sizes", &["artillery", "15mm", "stands_min"]), 1);
}

#[test]
fn commanders_are_the_seeds() {
    // L11: "2 or more regiments of cavalry or 3 - 6 battalions of infantry"; L66: CP 1, 2 or 3.
    assert_eq!(int("commanders", &["brigade", "cavalry_regiments_min"]), 2);
    assert_eq!(
        (
            int("commanders", &["brigade", "infantry_battalions_min"]),
            int("commanders", &["brigade", "infantry_battalions_max"])
        ),
        (3, 6)
    );
    assert_eq!((int("commanders", &["rating", "cp_min"]), int("commanders", &["rating", "cp_max"])), (1, 3));
}

#[test]
fn every_house_table_is_marked_house_and_every_other_names_seed_003() {
    let rs = ruleset(&["linear-warfare"]);
    let house = [
        "maneuver",
        "maneuver_disordered",
        "movement_rates",
        "formation_change_costs",
        "formation_change_counts",
        "army_doctrines_1741_1748",
        "cadence_dates_other",
        "oblique_dates_other",
        "civilian_drivers_other",
        // Helper B (charges and fire): the tables the seed cites but does not print.
        "charge_combat",
        "fire_combat",
        "fire_points",
        "ranges",
        "oblique_fire_dates",
        "cavalry_full_impetus",
    ];
    for (id, t) in &rs.tables {
        if house.contains(&id.as_str()) {
            assert_eq!(t.source, Source::House, "{id}");
        } else {
            let Source::Seed(s) = &t.source else { panic!("{id} is not house and names no seed") };
            assert_eq!(s.seed, "003", "{id}");
            assert!(s.inventory.as_deref().is_some_and(|i| i.starts_with("AR-")), "{id}");
        }
    }
}
