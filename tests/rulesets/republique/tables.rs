//! The republique tables: the two the seed prints (403's markers, 501's
//! applicability), cell by cell against the seed text, and every other table
//! marked as a house rebuild; every option names its rule and its seed section.
//!
//! The seed's lines are embedded here; where the seed file itself is at hand
//! (/work/shared/seeds, not part of the repository) the tests also check that
//! the embedded lines are verbatim, and skip that cross-check elsewhere.

use grognard::rules::{LookupValue, RowKey, Source};

use super::OPTIONS;
use crate::support::{lookup, ruleset, table};

/// Seed 000, 403 - Attached Artillery, as printed (tab-separated).
const SEED_403: &str = "Artillery Type\tAttached Markers
Heavy\t4
Medium\t4
Light\t3
Very Light\t2";

/// Seed 000, 501 - Unopposed Overlap, as printed (tab-separated).
const SEED_501: &str = "Modifier Type\tAssaulting in/through Rough Terrain\tAssaulting in Buildings\tSolo versus Square\tWith Infantry versus Square
Unopposed Overlap\tYes\tNo\tNo\tYes";

/// A seed label as the table's key: "Very Light" -> very_light.
fn key(label: &str) -> String {
    label.trim().to_lowercase().replace(' ', "_")
}

#[test]
fn the_attached_artillery_markers_match_the_seed_cell_by_cell() {
    let seed_file = std::fs::read_to_string("/work/shared/seeds/000_59aea595701d1948.txt").ok();
    if let Some(text) = seed_file {
        assert!(text.contains(SEED_403), "the embedded 403 table is the seed's");
    }
    let t = table("republique", "attached_artillery_markers");
    let mut lines = SEED_403.lines();
    assert_eq!(lines.next(), Some("Artillery Type\tAttached Markers"));
    let mut rows = 0;
    for line in lines {
        let (label, markers) = line.split_once('\t').unwrap();
        let expected: i64 = markers.parse().unwrap();
        assert_eq!(lookup(&t, &[&key(label)]), LookupValue::Int(expected), "{label}");
        rows += 1;
    }
    assert_eq!(rows, 4);
    let grognard::rules::TableBody::Lookup { values: LookupValue::Map(all), .. } = &t.body else {
        panic!("a lookup of one key")
    };
    assert_eq!(all.len(), 4, "no row beyond the seed's");
    assert!(!t.source.is_house());
}

#[test]
fn the_unopposed_overlap_table_matches_the_seed_cell_by_cell() {
    if let Ok(text) = std::fs::read_to_string("/work/shared/seeds/000_59aea595701d1948.txt") {
        assert!(text.contains(SEED_501), "the embedded 501 table is the seed's");
    }
    let t = table("republique", "unopposed_overlap");
    let mut lines = SEED_501.lines();
    let heads: Vec<&str> = lines.next().unwrap().split('\t').skip(1).collect();
    let cells: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(cells[0], "Unopposed Overlap");
    let keys = ["rough_terrain", "buildings", "solo_vs_square", "with_infantry_vs_square"];
    assert_eq!(heads.len(), keys.len());
    for ((head, cell), k) in heads.iter().zip(&cells[1..]).zip(keys) {
        let yes = match *cell {
            "Yes" => true,
            "No" => false,
            other => panic!("{other}"),
        };
        assert_eq!(lookup(&t, &[k]), LookupValue::Flag(yes), "{head}");
    }
    assert!(!t.source.is_house());
}

#[test]
fn the_rebuilt_base_tables_are_house_values() {
    let rs = ruleset(&["republique"]);
    for id in ["assault_results", "artillery_fire", "rally_levels", "movement_rates", "base_sizes", "cavalry_bonus"] {
        let t = rs.tables.get(id).unwrap_or_else(|| panic!("no table {id}"));
        assert!(t.source.is_house(), "{id} is a house rebuild");
    }
    assert_eq!(rs.tables.len(), 8, "{:?}", rs.tables.keys().collect::<Vec<_>>());
    // The assault columns the seed names (rule 515): Attacker and Defender Advantage,
    // the Defender Advantage asking two more points of the attacker for each result.
    let t = table("republique", "assault_results");
    let reads = |column: &str, total: i64| -> String {
        t.read_grid(&RowKey::Label(column.to_string()), total)
            .unwrap_or_else(|e| panic!("{e}"))
            .result
            .map(|r| r.id.clone())
            .unwrap()
    };
    for total in -12..=12 {
        let aa = match total {
            ..=-5 => "attacker_routed",
            -4..=-2 => "attacker_repulsed",
            -1..=2 => "stalled",
            3..=5 => "defender_retreats",
            _ => "defender_routed",
        };
        assert_eq!(reads("attacker_advantage", total), aa, "AA {total}");
        assert_eq!(reads("defender_advantage", total + 2), aa, "DA {}", total + 2);
    }
    // Rule 507's example: a +7 result carries the position.
    assert_eq!(reads("attacker_advantage", 7), "defender_routed");
}

#[test]
fn every_option_is_a_numbered_rule_of_the_seed_and_off_by_default() {
    let rs = ruleset(&["republique"]);
    let seed = std::fs::read_to_string("/work/shared/seeds/000_59aea595701d1948.txt").ok();
    assert_eq!(rs.options.len(), OPTIONS.len());
    for (name, number) in OPTIONS {
        let o = rs.options.get(name).unwrap_or_else(|| panic!("no option {name}"));
        assert_eq!(o.number.as_deref(), Some(number), "{name}");
        assert!(!o.default, "{name} is off by default (RQ-META-SCOPE)");
        let Source::Seed(s) = &o.source else { panic!("{name} names its seed section") };
        assert_eq!(s.seed, "000");
        let section = s.section.clone().unwrap();
        assert!(section.starts_with(&format!("{number} - ")), "{name}: {section}");
        if let Some(text) = &seed {
            assert!(text.contains(&format!("\n{section}\n")), "{section} is a heading of the seed");
        }
    }
}
