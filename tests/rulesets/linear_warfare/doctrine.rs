//! Doctrine (AR-DOC-*), cadence and oblique dates, cavalry lines and the
//! definitions (AR-DEF-*), against the seed text.

use grognard::rules::{LookupValue, Source};

use crate::support::{error, error_debug, eval_map, int, lookup, lw, lw_table, ruleset, text, value};

/// Seed 003, L17-20.
const SEED_GRADES: &str = "Militia = Grade 1\nLine = Grade 2\nGrenadier = Grade 3\nGuard = Grade 4";

/// Seed 003, L472-475, with the inventory's reading of each date.
const SEED_CADENCE: [(&str, &str, i64); 4] = [
    ("Prussian:", "1730s (after the publication of Regulation of 1726)", 1730),
    ("French:", "1750 (first Regulation specifying cadence, that of 1750)", 1750),
    ("British:", "Before 1745 ('movements to drumbeat' in 1743)", 1743),
    ("Austrian:", "By 1749 Regulation, but not before 1741.", 1749),
];

/// Seed 003, L29-35 (flattened).
const SEED_SIZES: &str = "Infantry 15mm 3/4 to 1-1/4 inches 4 - 7 stands/bn 25mm 1-1/4 to 1-1/2 inches 4 - 7 stands/bn \
Cavalry 15mm 1-1 /2 to 2-1 /2 inches 2 to 8 stands/regt 25mm 2-1/2 to 3 inches 2 to 8 stands/regt";

/// Seed 003, L398-401 and L403-405.
const SEED_CAV: &str = "1. All Out in Good Order. Charges at All Out Rate with Full Impetus Bonus
2. All Out in Disorder. Charges at All Out Rate with no effort to preserve Order Receives full Impetus Bonus (+2) but is Disordered at the end of the first Charge Movement Phase regardless of any other outcome of the charge.
3. At the Trot with Ordered Impact. Charges at the Trot Rate with Trot (+ 1 ) Impetus Bonus.
4. At the Trot with Fire. Charges at Trot Rate, attempts to fire during the charge. Regardless of the results of fire, receives NO Impetus Bonus of any kind.";

#[test]
fn morale_grades_are_the_seeds() {
    for line in SEED_GRADES.lines() {
        let (class, grade) = line.split_once(" = Grade ").unwrap();
        assert_eq!(lookup(&lw_table("morale_grades"), &[grade]), LookupValue::Text(class.into()));
    }
    let m = eval_map(
        &lw(),
        r#"#{c: morale_class(unit(#{name: "G", arm: "infantry", grade: "4", stands: 4, formation: "line"}))}"#,
    );
    assert_eq!(text(&m, "c"), "Guard");
}

#[test]
fn a_grade_written_as_a_number_is_refused_naming_the_field_and_its_words() {
    let host = lw();
    // Grades are the words "1" to "4" (ruleset.yaml vocabulary): the number 2 once met serde's
    // "Output type incorrect: i64 (expecting String)", which named no field.
    assert_eq!(
        error(&host, r#"unit(#{name: "Picardie", arm: "infantry", grade: 2, stands: 4, formation: "line"})"#),
        r#"unit `Picardie`: `grade` is a word, one of "1", "2", "3", "4", not the number 2 (did you mean "2"?)"#
    );
    // A number no grade is: the words, and no guess.
    assert_eq!(
        error(
            &host,
            r#"let u = unit(#{name: "Picardie", arm: "infantry", grade: "2", stands: 4, formation: "line"}); u.grade = 5"#
        ),
        r#"`grade` is a word, one of "1", "2", "3", "4", not the number 5"#
    );
    // A leader's rating the same way.
    assert_eq!(
        error(&host, r#"leader(#{name: "Villars", rating: 3})"#),
        r#"leader `Villars`: `rating` is a word, not the number 3 (did you mean "3"?)"#
    );
    // Written as a word, the grade is read.
    let m = eval_map(
        &host,
        r#"#{g: unit(#{name: "Picardie", arm: "infantry", grade: "2", stands: 4, formation: "line"}).grade}"#,
    );
    assert_eq!(text(&m, "g"), "2");
}

#[test]
fn cadence_dates_are_the_seeds_with_a_house_default_for_others() {
    for (nation, printed, year) in SEED_CADENCE {
        let key = match nation {
            "Prussian:" => "prussia",
            "French:" => "france",
            "British:" => "britain",
            _ => "austria",
        };
        assert!(printed.contains(&year.to_string()[..3]), "{printed}");
        assert_eq!(lookup(&lw_table("cadence_dates"), &[key]), LookupValue::Int(year), "{nation}");
    }
    let rs = ruleset(&["linear-warfare"]);
    assert_eq!(rs.tables["cadence_dates_other"].source, Source::House);
    assert_eq!(rs.tables["oblique_dates_other"].source, Source::House);
    assert_eq!(rs.tables["army_doctrines_1741_1748"].source, Source::House);
    let host = lw();
    for (nation, year, cadenced) in [
        ("prussia", 1729, false),
        ("prussia", 1730, true),
        ("britain", 1742, false),
        ("britain", 1743, true),
        // The army list of 1700-1724 says "No Cadence" whatever the date.
        ("france", 1710, false),
        ("bavaria", 1749, false),
        ("bavaria", 1750, true),
    ] {
        let m = eval_map(
            &host,
            &format!(
                r#"#{{c: cadenced(unit(#{{name: "U", nation: "{nation}", arm: "infantry", stands: 4, formation: "line"}}), {year})}}"#
            ),
        );
        assert_eq!(m["c"].as_bool().unwrap(), cadenced, "{nation} {year}");
    }
}

#[test]
fn oblique_movement_from_1745_in_prussia_and_1756_elsewhere() {
    let host = lw();
    for (nation, year, allowed) in [
        ("prussia", 1744, false),
        ("prussia", 1745, true),
        ("austria", 1755, false),
        ("austria", 1756, true),
        ("sweden", 1710, false),
    ] {
        let m = eval_map(
            &host,
            &format!(
                r#"#{{o: oblique_allowed(unit(#{{name: "U", nation: "{nation}", arm: "infantry", stands: 4, formation: "line"}}), {year})}}"#
            ),
        );
        assert_eq!(m["o"].as_bool().unwrap(), allowed, "{nation} {year}");
    }
}

#[test]
fn the_cavalry_charge_types_are_the_seeds() {
    // One table of charges (tables/charge_doctrines.yaml): each impetus is the word of a
    // Charge Combat modifier, "Full Impetus Bonus" without a number the house table's.
    let t = lw_table("charge_doctrines");
    let lines: Vec<&str> = SEED_CAV.lines().collect();
    for (line, doctrine, speed, impetus, disorder, fire) in [
        (0, "all_out_good_order", "all_out", "full", false, "none"),
        (1, "all_out_disorder", "all_out", "all_out", true, "none"),
        (2, "trot_ordered_impact", "trot", "trot", false, "none"),
        (3, "trot_with_fire", "trot", "none", false, "mounted"),
    ] {
        let seed = lines[line];
        assert_eq!(seed.contains("All Out Rate"), speed == "all_out", "{seed}");
        assert_eq!(seed.contains("Disordered at the end"), disorder);
        assert_eq!(seed.contains("fire during the charge"), fire != "none");
        let props = |p: &str| lookup(&t, &[doctrine, p]);
        assert_eq!(props("arm"), LookupValue::Text("cavalry".into()));
        assert_eq!(props("speed"), LookupValue::Text(speed.into()));
        assert_eq!(props("impetus"), LookupValue::Text(impetus.into()), "{doctrine}");
        assert_eq!(props("disordered_after"), LookupValue::Flag(disorder));
        assert_eq!(props("fire"), LookupValue::Text(fire.into()));
    }
    for (doctrine, speed, fire) in
        [("cold_steel", "full", "none"), ("platoon_firing", "half_line", "platoon"), ("ga_pa", "full", "ga_pa")]
    {
        assert_eq!(lookup(&t, &[doctrine, "arm"]), LookupValue::Text("infantry".into()));
        assert_eq!(lookup(&t, &[doctrine, "speed"]), LookupValue::Text(speed.into()));
        assert_eq!(lookup(&t, &[doctrine, "impetus"]), LookupValue::Text("foot".into()));
        assert_eq!(lookup(&t, &[doctrine, "fire"]), LookupValue::Text(fire.into()));
    }
    // "Swedish "Ga Pa". Charges at full speed, fires during the charge with -1 modifier."
    assert_eq!(lookup(&t, &["ga_pa", "fire_modifier"]), LookupValue::Int(-1));
    let rs = ruleset(&["linear-warfare"]);
    assert!(
        !rs.tables.contains_key("cavalry_charge_doctrines") && !rs.tables.contains_key("infantry_charge_doctrines")
    );
}

#[test]
fn armies_of_1700_1724_charge_by_their_doctrine() {
    let host = lw();
    for (nation, arm, total, doctrine) in [
        ("britain", "infantry", "()", "platoon_firing"),
        ("britain", "cavalry", "()", "trot_ordered_impact"),
        ("france", "infantry", "()", "cold_steel"),
        ("france", "cavalry", "9", "all_out_disorder"),
        ("france", "cavalry", "8", "trot_with_fire"),
        ("sweden", "infantry", "()", "ga_pa"),
        ("sweden", "cavalry", "()", "all_out_good_order"),
        ("russia", "infantry", "()", "cold_steel"),
        ("russia", "cavalry", "()", "trot_with_fire"),
    ] {
        let m = eval_map(
            &host,
            &format!(
                r#"charge_doctrine(unit(#{{name: "U", nation: "{nation}", arm: "{arm}", grade: "2", stands: 4, formation: "line"}}), 1709, {total})"#
            ),
        );
        assert_eq!(text(&m, "doctrine"), doctrine, "{nation} {arm} {total}");
    }
    assert!(error_debug(&host, r#"charge_doctrine(unit(#{name: "U", nation: "france", arm: "cavalry", stands: 4, formation: "line"}), 1709, ())"#).contains("give its modified total"));
    // No army list covers the French horse of 1760: see armies_no_list_covers_charge_as_the_seed_says.
    assert_eq!(
        text(
            &eval_map(
                &host,
                r#"charge_doctrine(unit(#{name: "U", nation: "france", arm: "cavalry", stands: 4, formation: "line"}), 1760, 5)"#
            ),
            "doctrine"
        ),
        "trot_ordered_impact"
    );
    assert_eq!(
        lookup(&lw_table("army_doctrines_1700_1724"), &["sweden", "infantry", "pikes"]),
        LookupValue::Text("1/3".into())
    );
    assert_eq!(
        lookup(&lw_table("army_doctrines_1700_1724"), &["russia", "infantry", "pikes_until"]),
        LookupValue::Int(1708)
    );
}

#[test]
fn armies_no_list_covers_charge_as_the_seed_says() {
    // Seed L253: "First, most mounted troops up until the 1740s attempted to fire while
    // charging ... Second Firing or Swedish 'Ga Pa' infantry fired during the advance".
    let seed = "First, most mounted troops up until the 1740s attempted to fire while charging.";
    assert!(seed.contains("1740s") && seed.contains("fire while charging"));
    let t = lw_table("charge_doctrine_defaults");
    assert!(matches!(&t.source, Source::Seed(s) if s.seed == "003"));
    assert_eq!(lookup(&t, &["cavalry", "charge"]), LookupValue::Text("trot_with_fire".into()));
    assert_eq!(lookup(&t, &["cavalry", "to"]), LookupValue::Int(1749));
    assert_eq!(lookup(&t, &["infantry", "charge"]), LookupValue::Text("cold_steel".into()));
    assert!(ruleset(&["linear-warfare"]).tables["charge_doctrine_defaults_late"].source.is_house());
    let host = lw();
    // No list for France after 1748, none for Bavaria or Prussia in these years; no marker.
    for (nation, arm, year, doctrine, impetus) in [
        ("france", "cavalry", 1730, "trot_with_fire", "none"),
        ("bavaria", "cavalry", 1749, "trot_with_fire", "none"),
        ("france", "cavalry", 1750, "trot_ordered_impact", "trot"),
        ("prussia", "cavalry", 1760, "trot_ordered_impact", "trot"),
        ("prussia", "infantry", 1757, "cold_steel", "foot"),
        ("bavaria", "infantry", 1704, "cold_steel", "foot"),
    ] {
        let m = eval_map(
            &host,
            &format!(
                r#"charge_doctrine(unit(#{{name: "U", nation: "{nation}", arm: "{arm}", grade: "2", stands: 4, formation: "line"}}), {year}, ())"#
            ),
        );
        assert_eq!(
            (text(&m, "doctrine"), text(&m, "impetus")),
            (doctrine.into(), impetus.into()),
            "{nation} {arm} {year}"
        );
    }
    // A charge of Prussian horse in 1760 no longer waits for a doctrine marker: it goes in at
    // the trot (house) and, with a 6" run-in, takes the trot impetus (+1): 5 + 1 + 1
    // (horse against foot not in square) - 5 = 2.
    host.set_dice(Box::new(grognard::dice::Supplied::new([5, 5, 1, 1, 1, 1])));
    let d = value(
        &host,
        r#"let c = unit(#{name: "Zieten", nation: "prussia", arm: "cavalry", grade: "2", stands: 4, formation: "line"});
        let d = unit(#{name: "Foot", nation: "austria", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        charge_combat(c, d, #{charger_run_in: 6, year: 1760}).differential"#,
    );
    assert_eq!(d.as_int().unwrap(), 2);
    // A doctrine marker still overrides the default.
    let m = eval_map(
        &host,
        r#"charge_doctrine(unit(#{name: "U", nation: "prussia", arm: "cavalry", grade: "2", stands: 4, formation: "line", markers: #{doctrine: "all_out_good_order"}}), 1760, ())"#,
    );
    assert_eq!(text(&m, "doctrine"), "all_out_good_order");
    // Artillery has no charge.
    assert!(error_debug(&host, r#"charge_doctrine(unit(#{name: "Bty", nation: "prussia", arm: "artillery", stands: 2, formation: "unlimbered"}), 1760, ())"#).contains("only cavalry and infantry have a type of charge"));
}

#[test]
fn unit_sizes_and_battalion_guns() {
    for (arm, scale, min, max) in
        [("infantry", "15mm", 4, 7), ("infantry", "25mm", 4, 7), ("cavalry", "15mm", 2, 8), ("cavalry", "25mm", 2, 8)]
    {
        assert!(
            SEED_SIZES.contains(&format!("{min} - {max} stands"))
                || SEED_SIZES.contains(&format!("{min} to {max} stands"))
        );
        assert_eq!(lookup(&lw_table("unit_sizes"), &[arm, scale, "stands_min"]), LookupValue::Int(min));
        assert_eq!(lookup(&lw_table("unit_sizes"), &[arm, scale, "stands_max"]), LookupValue::Int(max));
    }
    let m = eval_map(
        &lw(),
        r#"let u = unit(#{name: "U", arm: "infantry", grade: "2", stands: 5, formation: "line", markers: #{battalion_guns: true}});
        let v = unit(#{name: "V", arm: "infantry", grade: "2", stands: 8, formation: "line"});
        #{guns: firing_stands(u, ()), plain: firing_stands(v, ()), ok: unit_size_guideline(u, "15mm").ok, big: unit_size_guideline(v, "15mm").ok}"#,
    );
    assert_eq!((int(&m, "guns"), int(&m, "plain")), (6, 8));
    assert!(m["ok"].as_bool().unwrap() && !m["big"].as_bool().unwrap());
}

#[test]
fn platoon_firing_impetus_is_an_interpretation() {
    let code = r#"charge_doctrine(unit(#{name: "U", nation: "britain", arm: "infantry", grade: "2", stands: 4, formation: "line"}), 1704, ())"#;
    assert_eq!(text(&eval_map(&lw(), code), "impetus"), "foot");
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_interpretation("platoon_firing_impetus", "no").unwrap();
    assert_eq!(text(&eval_map(&grognard::script::Host::new(rs).unwrap(), code), "impetus"), "none");
}

#[test]
fn the_full_impetus_of_all_out_in_good_order_is_a_house_value() {
    let lines: Vec<&str> = SEED_CAV.lines().collect();
    // #1 names a "Full Impetus Bonus" and prints no number; #2 prints "(+2)".
    assert!(lines[0].contains("Full Impetus Bonus") && !lines[0].chars().any(|c| c.is_ascii_digit() && c != '1'));
    assert!(lines[1].contains("full Impetus Bonus (+2)"));
    let rs = ruleset(&["linear-warfare"]);
    assert_eq!(rs.tables["cavalry_full_impetus"].source, Source::House);
    assert!(matches!(&rs.tables["charge_doctrines"].source, Source::Seed(s) if s.seed == "003"));
    // The bonus is the house table's, added by a house modifier; All Out in Disorder's +2 is the seed's.
    let list = &rs.modifiers["charge_combat_modifiers"];
    let full = list.modifiers.iter().find(|m| m.id == "impetus_full").unwrap();
    assert!(full.source.is_house());
    let disorder = list.modifiers.iter().find(|m| m.id == "impetus_all_out").unwrap();
    assert!(!disorder.source.is_house());
    assert_eq!(lookup(&lw_table("cavalry_full_impetus"), &["all_out_good_order"]), LookupValue::Int(2));
    // The Swedish horse of 1709 charge All Out in Good Order: +2 from the house table, in the trace as house.
    let host = lw();
    let code = r#"charge_doctrine(unit(#{name: "U", nation: "sweden", arm: "cavalry", grade: "2", stands: 4, formation: "line"}), 1709, ())"#;
    let e = host.eval(&mut rhai::Scope::new(), code).unwrap();
    let m = e.value.cast::<rhai::Map>();
    assert_eq!((text(&m, "doctrine"), text(&m, "impetus")), ("all_out_good_order".into(), "full".into()));
    let trace = e.trace.to_string();
    assert!(trace.contains("the full impetus bonus of all_out_good_order is +2 (house"), "{trace}");
}
