//! Unit templates: a unit made by its name and a kind the ruleset names, what differs written
//! over it, overlays changing the kinds, and templates written wrongly refused where they are.

use grognard::rules::{load, load_partial};
use grognard::script::Host;
use rhai::Scope;

use crate::support::{host, rules_dir};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/rules/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn shown(host: &Host, code: &str) -> String {
    host.eval(&mut Scope::new(), code).unwrap_or_else(|e| panic!("{code}: {e}")).value.to_string()
}

#[test]
fn a_unit_is_made_from_its_template_with_what_differs_written_over_it() {
    let host = host(&["ff-napoleonic"]);
    let made = |code: &str| shown(&host, code);
    assert_eq!(
        made(
            r#"let u = unit("54th Foot", "british_line"); [u.name, u.nation, u.arm, u.type, u.stands, u.formation, u.order]"#
        ),
        r#"["54th Foot", "britain", "infantry", "line", 6, "line", "good_order"]"#
    );
    // Spelt as a player says it, with a space.
    assert_eq!(made(r#"unit("4e Ligne", "french line").formation"#), "column");
    assert_eq!(made(r#"unit("4e Ligne", "french_line", #{stands: 4, formation: "line"}).stands"#), "4");
    // It is the same unit as the one written out whole.
    assert_eq!(
        made(r#"unit("54th Foot", "british_line").to_string()"#),
        made(
            r#"unit(#{name: "54th Foot", nation: "britain", arm: "infantry", type: "line", stands: 6, formation: "line"}).to_string()"#
        )
    );
}

#[test]
fn a_misnamed_template_or_a_wrong_override_is_refused() {
    let host = host(&["ff-napoleonic"]);
    let err = host.eval(&mut Scope::new(), r#"unit("x", "british_lime")"#).unwrap_err().to_string();
    assert!(err.contains("there is no unit template `british_lime` (did you mean `british_line`?)"), "{err}");
    let err =
        host.eval(&mut Scope::new(), r#"unit("x", "british_line", #{formation: "lin"})"#).unwrap_err().to_string();
    assert!(err.contains("lin"), "{err}");
}

#[test]
fn an_overlay_changes_a_template_and_adds_its_own_markers_merged() {
    let rs = load(&[fixture("template-overlay")], &rules_dir()).unwrap_or_else(|p| panic!("{:?}", p.0)).ruleset;
    let host = Host::new(rs).unwrap();
    assert_eq!(shown(&host, r#"unit("54th Foot", "british_line").stands"#), "8");
    assert_eq!(shown(&host, r#"unit("1/1er Grenadiers", "guard_grenadiers").has_marker("old_guard")"#), "true");
    // Markers given over a template's are added to them, not put in their place.
    let code = r#"let u = unit("g", "guard_grenadiers", #{markers: #{exceptional: true}}); [u.has_marker("old_guard"), u.has_marker("exceptional")]"#;
    assert_eq!(shown(&host, code), "[true, true]");
    // The base's templates the overlay leaves alone are still there.
    assert_eq!(shown(&host, r#"unit("x", "french_hussars").arm"#), "cavalry");
}

#[test]
fn templates_written_wrongly_are_refused_where_they_are_written() {
    let (_, problems) = load_partial(&[fixture("broken-unit-templates")], &rules_dir());
    let found: Vec<(&str, &str)> = problems.iter().map(|p| (p.code, p.message.as_str())).collect();
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found.iter().all(|(code, _)| *code == "rules::unit_template"), "{found:?}");
    assert!(
        found[0].1.starts_with("unit template `short_line`: a template cannot give `stand` (did you mean `stands`?)"),
        "{found:?}"
    );
    assert!(found[1].1.starts_with("unit template `named_line`: a template cannot give `name`"), "{found:?}");
    assert!(found[2].1.starts_with("unit template `odd_arm`:") && found[2].1.contains("infantery"), "{found:?}");
    assert_eq!(
        found[3].1,
        "unit template `spent_line`: unit `template`: `spent` is a flag, true or false, not the text \"no\" (did you mean false?)"
    );
    assert!(problems[0].place().ends_with("ruleset.yaml:7:3"), "{}", problems[0].place());
    assert!(problems[3].place().ends_with("ruleset.yaml:19:3"), "{}", problems[3].place());
}

/// Every template a ruleset names.
fn templates_of(id: &str) -> Vec<String> {
    let rs = load(&[id.to_string()], &rules_dir()).unwrap_or_else(|p| panic!("{:?}", p.0)).ruleset;
    rs.unit_templates.keys().cloned().collect()
}

#[test]
fn linear_warfare_rates_its_kinds_by_the_seeds_morale_and_sizes_them_within_its_guidelines() {
    let host = host(&["linear-warfare"]);
    // L15-20: "Militia = Grade 1 / Line = Grade 2 / Grenadier = Grade 3 / Guard = Grade 4".
    for (template, grade, class) in [
        ("militia_battalion", "1", "Militia"),
        ("line_battalion", "2", "Line"),
        ("grenadier_battalion", "3", "Grenadier"),
        ("guard_battalion", "4", "Guard"),
    ] {
        let code = format!(r#"let u = unit("x", "{template}"); [u.grade, morale_class(u)]"#);
        assert_eq!(shown(&host, &code), format!(r#"["{grade}", "{class}"]"#), "{template}");
    }
    // L28-35: "Infantry ... 4 - 7 stands/bn; Cavalry ... 2 to 8 stands/regt; Artillery ... 1 or
    // more stands/battery".
    let templates = templates_of("linear-warfare");
    assert!(templates.len() >= 12, "{templates:?}");
    for template in templates {
        let arm_and_stands = shown(&host, &format!(r#"let u = unit("x", "{template}"); [u.arm, u.stands]"#));
        let (arm, stands) = arm_and_stands.trim_matches(['[', ']']).split_once(", ").unwrap();
        let stands: u32 = stands.parse().unwrap();
        let within = match arm {
            "\"infantry\"" => (4..=7).contains(&stands),
            "\"cavalry\"" => (2..=8).contains(&stands),
            "\"artillery\"" => stands >= 1,
            other => panic!("{template}: {other}"),
        };
        assert!(within, "{template}: {arm_and_stands}");
        // Each fights: a fire at a line battalion of another army, at close range.
        let fire = format!(
            r#"let u = unit("x", "{template}", #{{nation: "prussia"}}); let t = unit("t", "line_battalion", #{{nation: "austria"}}); fire(u, t, #{{range: 2, year: 1757}}).result"#
        );
        host.eval(&mut Scope::new(), &fire).unwrap_or_else(|e| panic!("{template}: {e}"));
    }
}

#[test]
fn republique_kinds_each_make_a_unit_that_assaults_and_is_assaulted() {
    let host = host(&["republique"]);
    let templates = templates_of("republique");
    assert!(templates.len() >= 10, "{templates:?}");
    for template in templates {
        let code = format!(
            r#"let a = unit("a", "{template}"); let d = unit("d", "line_battalion"); let r = assault(a, d, #{{}}); [a.grade, r.rounds > 0]"#
        );
        let made = host.eval(&mut Scope::new(), &code).unwrap_or_else(|e| panic!("{template}: {e}")).value.to_string();
        assert!(made.ends_with("true]"), "{template}: {made}");
    }
    // A battery's calibre is rule 403's word.
    assert_eq!(shown(&host, r#"unit("b", "horse_battery").marker("calibre")"#), "light");
}
