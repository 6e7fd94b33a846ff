//! The assault rules, each on and off: 102 crack troops, 403 attached artillery,
//! 501 unopposed overlap (with 105 cavalry lines), 505 lancers, 506 firefights,
//! 507 cavalry escorts, 513 the attrition die, 515 vulnerable units. Each test
//! scripts the dice, works the differential out by hand in a comment, and reads
//! the rule's effect in the trace.

use super::{assert_line, assert_no_line, assert_shown, count, host_with};
use crate::support::{fails, field, int, run, text, unit_in};

/// Two trained infantry regiments of four bases in line, in the open.
const EVEN: &str = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"});
    let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});"#;

// ---- 102 crack troops ------------------------------------------------------

const CRACK: &str = r#"let a = unit(#{name: "Highlanders", arm: "infantry", stands: 4, formation: "line", grade: "crack"});
    let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
    assault(a, d, #{})"#;

#[test]
fn crack_troops_add_three_only_with_rule_102() {
    let err = fails(&host_with(&[], &[]), &[5, 5], CRACK);
    assert!(
        err.contains("assault(attackers, defenders, situation): `attackers` (Highlanders): grade \"crack\" is read only with the optional rule crack_troops: add --with crack_troops"),
        "{err}"
    );
    // 5 + 3 - 5 = 3: the defender retreats.
    let (eval, _) = run(&host_with(&["crack_troops"], &[]), &[5, 5], CRACK);
    assert_line(&eval, &["mod     yes +3", "Crack assault modifier of +3", "rule 102"]);
    assert_eq!(int(&eval, "differential"), 3);
    assert_eq!(text(&eval, "result"), "defender_retreats");
}

#[test]
fn crack_troops_rally_as_elite_in_a_and_as_veteran_in_b() {
    let code = r#"let u = unit(#{name: "Highlanders", arm: "infantry", stands: 4, formation: "line", grade: "crack", order: "routed", markers: #{morale_hits: 2}});
        rally(u)"#;
    // A 4 rallies at the elite level (4+), not at the veteran level (5+).
    let a = host_with(&["crack_troops"], &[("crack_variant", "secondary_elites")]);
    let (eval, scope) = run(&a, &[4], code);
    assert_eq!((text(&eval, "result"), int(&eval, "level")), ("rallied".into(), 4));
    assert_line(&eval, &["rallies as elite (rule 102 A, Secondary Elites)"]);
    assert_eq!((unit_in(&scope, "u").order, count(&scope, "u", "morale_hits")), ("disordered".into(), 1));
    let b = host_with(&["crack_troops"], &[("crack_variant", "crack_veterans")]);
    let (eval, scope) = run(&b, &[4], code);
    assert_eq!((text(&eval, "result"), int(&eval, "level")), ("failed".into(), 5));
    assert_line(&eval, &["rallies as veteran (rule 102 B, Crack Veterans)"]);
    assert_eq!(unit_in(&scope, "u").order, "routed");
}

// ---- 403 attached artillery ------------------------------------------------

#[test]
fn attached_artillery_adds_one_in_attack_and_two_in_defence() {
    let attack = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line", markers: #{attached_artillery: 2}});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        assault(a, d, #{})"#;
    // On: 8 + 2 - 5 = 5. Off: refused naming the switch (it once read 8 - 5 = 3 without a word).
    let (eval, _) = run(&host_with(&["attached_artillery"], &[]), &[8, 5], attack);
    assert_line(&eval, &["mod     yes +1 x2", "+1 assault bonus for attack", "rule 403"]);
    assert_eq!(int(&eval, "differential"), 5);
    let err = fails(&host_with(&[], &[]), &[8, 5], attack);
    assert!(
        err.contains("`attackers` (9e Ligne): marker \"attached_artillery\" is read only with the optional rule attached_artillery: add --with attached_artillery"),
        "{err}"
    );

    let defence = attack.replace("markers: #{attached_artillery: 2}", "").replace(
        r#"stands: 4, formation: "line"});
        assault"#,
        r#"stands: 4, formation: "line", markers: #{attached_artillery: 2}});
        assault"#,
    );
    // On: 10 - (1 + 4) = 5, retreats. Off: refused, on the defending side too.
    let (eval, _) = run(&host_with(&["attached_artillery"], &[]), &[10, 1], &defence);
    assert_line(&eval, &["mod     yes +2 x2", "+2 assault bonus for defense"]);
    assert_eq!(text(&eval, "result"), "defender_retreats");
    let err = fails(&host_with(&[], &[]), &[10, 1], &defence);
    assert!(err.contains("`defenders` (IR 4): marker \"attached_artillery\" is read only"), "{err}");
}

#[test]
fn a_rout_and_a_base_hit_each_cost_a_marker() {
    // An elite attacker: 10 + 4 - (1 + 4) = 9, the defender routs and takes a base hit.
    let code = r#"let a = unit(#{name: "Garde", arm: "infantry", stands: 4, formation: "line", grade: "elite"});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line", markers: #{attached_artillery: 2}});
        assault(a, d, #{})"#;
    let (eval, scope) = run(&host_with(&["attached_artillery"], &[]), &[10, 1], code);
    assert_eq!(text(&eval, "result"), "defender_routed");
    assert_line(&eval, &["IR 4 loses an attached artillery block: a rout (rule 403)"]);
    assert_line(&eval, &["IR 4 loses an attached artillery block: a base hit (rule 403)"]);
    assert_eq!(count(&scope, "d", "attached_artillery"), 0);
    let host = host_with(&["attached_artillery"], &[("marker_loss_same_event", "one")]);
    let (eval, scope) = run(&host, &[10, 1], code);
    assert_line(
        &eval,
        &["IR 4: the rout and its base hit cost one attached artillery block in all (marker_loss_same_event = one)"],
    );
    assert_eq!(count(&scope, "d", "attached_artillery"), 1);
    assert!(!unit_in(&scope, "d").markers.contains_key("markers_lost"), "no count is left on the unit");
}

#[test]
fn more_than_two_markers_on_a_regiment_are_refused_in_an_assault() {
    // Seed l.53: "A maximum of two markers may be assigned to any one regiment."
    let code = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line", markers: #{attached_artillery: 4}});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        assault(a, d, #{})"#;
    let err = fails(&host_with(&["attached_artillery"], &[]), &[5, 5], code);
    assert!(
        err.contains(
            "9e Ligne holds 4 attached artillery markers: at most two may be assigned to any one regiment (rule 403)"
        ),
        "{err}"
    );
    // Two are fine: 6 + 2 - 5 = 3.
    let (eval, _) = run(
        &host_with(&["attached_artillery"], &[]),
        &[6, 5],
        &code.replace("attached_artillery: 4", "attached_artillery: 2"),
    );
    assert_eq!(int(&eval, "differential"), 3);
}

#[test]
fn a_battery_broken_up_once_cannot_be_attached_again() {
    let code = r#"let b = unit(#{name: "12-pdr", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", markers: #{calibre: "heavy"}});
        let r = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"});
        let r2 = unit(#{name: "10e Ligne", arm: "infantry", stands: 4, formation: "line"});
        attach_artillery(b, r);
        attach_artillery(b, r2)"#;
    let err = fails(&host_with(&["attached_artillery"], &[]), &[], code);
    assert!(err.contains("12-pdr has already been broken up into attached artillery markers (rule 403)"), "{err}");
}

#[test]
fn every_calibre_and_arm_of_attached_artillery() {
    let host = host_with(&["attached_artillery"], &[]);
    // Seed l.55-59: Heavy 4, Medium 4, Light 3, Very Light 2; two attached, the rest pooled.
    for (calibre, made, left) in [("medium", 4, 2), ("very_light", 2, 0)] {
        let code = format!(
            r#"let b = unit(#{{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", markers: #{{calibre: "{calibre}"}}}});
            let r = unit(#{{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"}});
            attach_artillery(b, r)"#
        );
        let (eval, scope) = run(&host, &[], &code);
        assert_eq!((int(&eval, "made"), int(&eval, "attached"), int(&eval, "left")), (made, 2, left), "{calibre}");
        assert_eq!(count(&scope, "r", "attached_artillery"), 2, "{calibre}");
    }
    // Foot artillery goes to infantry only.
    let err = fails(
        &host,
        &[],
        r#"let b = unit(#{name: "FA", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", markers: #{calibre: "light"}});
        attach_artillery(b, unit(#{name: "Hussars", arm: "cavalry", type: "light", stands: 4, formation: "line"}))"#,
    );
    assert!(err.contains("FA can only be attached to infantry, not to Hussars"), "{err}");
}

#[test]
fn attached_artillery_input_is_refused_with_a_reason() {
    let host = host_with(&["attached_artillery"], &[]);
    let err = fails(
        &host,
        &[],
        r#"let b = unit(#{name: "FA", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        attach_artillery(b, unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"}))"#,
    );
    assert!(err.contains("FA has no calibre: give it markers: #{calibre: ..}"), "{err}");
    // A very light battery leaves no pool: allotting from it or interdicting it gives 0.
    let code = r#"let b = unit(#{name: "3-pdr", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", markers: #{calibre: "very_light"}});
        let r = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"});
        let r2 = unit(#{name: "10e Ligne", arm: "infantry", stands: 4, formation: "line"});
        let pool = marker_pool(b, attach_artillery(b, r).left);
        let e = unit(#{name: "Chasseurs", arm: "cavalry", type: "light", stands: 2, formation: "line"});
        [allot_markers(pool, r2, 1), interdict_markers(pool, e, #{interdicted: true})]"#;
    let (eval, scope) = run(&host, &[], code);
    let v: Vec<i64> = eval.value.clone().into_array().unwrap().iter().map(|x| x.as_int().unwrap()).collect();
    assert_eq!(v, [0, 0]);
    assert_line(&eval, &["no unassigned markers left to allot to 10e Ligne (rule 403)"]);
    assert_eq!(count(&scope, "r2", "attached_artillery"), 0);
    let err = fails(
        &host,
        &[],
        r#"allot_markers("pool", unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"}), 1)"#,
    );
    assert!(err.contains("allot_markers takes the pool marker_pool(battery, count) made"), "{err}");
}

#[test]
fn cavalry_with_attached_artillery_keeps_its_bonus_against_a_square() {
    let code = r#"let c = unit(#{name: "Cuirassiers", arm: "cavalry", type: "heavy", stands: 4, formation: "column", markers: #{attached_artillery: 1}});
        let s = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "square"});
        assault(c, s, #{})"#;
    // On: 9 + 3 (heavy) + 1 (marker) - (2 + 2 square) = 9, on Defender Advantage: routed.
    let (eval, _) = run(&host_with(&["attached_artillery"], &[]), &[9, 2], code);
    assert_line(&eval, &["assaults the square with the full cavalry bonus (rule 403)"]);
    assert_line(&eval, &["mod     yes +1 x3", "Cavalry bonus"]);
    assert_eq!((text(&eval, "column"), int(&eval, "differential")), ("defender_advantage".into(), 9));
    // Off: the marker is refused naming the switch; without it, no bonus: 9 - 4 = 5,
    // Defender Advantage 5-7: the square retreats.
    let err = fails(&host_with(&[], &[]), &[9, 2], code);
    assert!(
        err.contains("marker \"attached_artillery\" is read only with the optional rule attached_artillery"),
        "{err}"
    );
    let (eval, _) = run(&host_with(&[], &[]), &[9, 2], &code.replace(", markers: #{attached_artillery: 1}", ""));
    assert_line(&eval, &["no cavalry bonus against a square"]);
    assert_eq!((text(&eval, "result"), int(&eval, "differential")), ("defender_retreats".into(), 5));
}

#[test]
fn attaching_a_battery_follows_the_markers_table_and_the_type() {
    let host = host_with(&["attached_artillery"], &[]);
    let code = r#"let b = unit(#{name: "12-pdr", side: "french", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", markers: #{calibre: "heavy"}});
        let r = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"});
        let r2 = unit(#{name: "10e Ligne", arm: "infantry", stands: 4, formation: "line"});
        let out = attach_artillery(b, r);
        let pool = marker_pool(b, out.left);
        let given = allot_markers(pool, r2, 3);
        let shot = fire(b, r2, #{});
        let e = unit(#{name: "Skirmishers", arm: "infantry", stands: 1, formation: "skirmish"});
        let taken = interdict_markers(pool, e, #{interdicted: true});
        [out.made, out.attached, out.left, given, shot.result, taken]"#;
    let (eval, scope) = run(&host, &[], code);
    let v: Vec<String> = eval.value.clone().into_array().unwrap().iter().map(|x| x.to_string()).collect();
    // Heavy: 4 markers; 2 to the regiment, 2 to the pool, 2 of them allotted (at most two),
    // none left to capture; the battery no longer fires.
    assert_eq!(v, ["4", "2", "2", "2", "cannot_fire", "0"]);
    assert_line(&eval, &["no longer fires in the artillery phase (rule 403)"]);
    assert_line(&eval, &["at most two markers: 2 allotted"]);
    assert_eq!(count(&scope, "r2", "attached_artillery"), 2);
    // A light battery leaves one marker; unaccompanied, an enemy base captures it.
    let code = r#"let b = unit(#{name: "6-pdr", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", markers: #{calibre: "light"}});
        let r = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"});
        let pool = marker_pool(b, attach_artillery(b, r).left);
        let e = unit(#{name: "Chasseurs", arm: "cavalry", type: "light", stands: 2, formation: "line"});
        interdict_markers(pool, e, #{interdicted: true})"#;
    let (eval, _) = run(&host, &[], code);
    assert_eq!(eval.value.as_int().unwrap(), 1);
    assert_line(&eval, &["unaccompanied marker blocks interdicted by Chasseurs are captured (rule 403)"]);
    // Horse artillery goes to cavalry only.
    let err = fails(
        &host,
        &[],
        r#"let b = unit(#{name: "HA", arm: "artillery", type: "horse", stands: 1, formation: "unlimbered", markers: #{calibre: "light"}});
        attach_artillery(b, unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"}))"#,
    );
    assert!(err.contains("HA can only be attached to cavalry, not to 9e Ligne"), "{err}");
}

// ---- 501 unopposed overlap and 105 cavalry lines ------------------------------

/// A defender of 4 infantry bases in line facing down the table at (0, 10), and an
/// attacker `spec` facing up the table with its front centred at (`x`, 9).
fn overlap_code(spec: &str, x: f64, defender_formation: &str, situation: &str) -> String {
    format!(
        r#"let a = unit(#{{name: "A", {spec}, placement: #{{x: {x:?}, y: 9.0, facing: 0.0}}}});
        let d = unit(#{{name: "D", arm: "infantry", stands: 4, formation: "{defender_formation}", placement: #{{x: 0.0, y: 10.0, facing: 180.0}}}});
        assault(a, d, {situation})"#
    )
}

const SIX_IN_LINE: &str = r#"arm: "infantry", stands: 6, formation: "line""#;
const DICE: [i64; 6] = [5, 5, 5, 5, 5, 5];

#[test]
fn infantry_a_base_wider_on_an_unsupported_flank_adds_two() {
    // Six bases (9") against four (6"), centred: a base of overlap on each flank.
    let code = overlap_code(SIX_IN_LINE, 0.0, "line", "#{}");
    let (eval, _) = run(&host_with(&["unopposed_overlap"], &[]), &DICE, &code);
    assert_line(
        &eval,
        &["rule 501: overlap 1.0 base widths on the defender's left, 1.0 on its right; frontage 2.0 bases wider"],
    );
    assert_line(&eval, &["mod     yes +2", "Unopposed overlap (rule 501)"]);
    let (eval, _) = run(&host_with(&[], &[]), &DICE, &code);
    assert_line(&eval, &["mod     no  +2", "Unopposed overlap (rule 501)", "option unopposed_overlap is off"]);
    // Both flanks in opposition: no bonus; one flank is enough for it (+2, never +4).
    for (supported, applies) in [("#{left: true, right: true}", false), ("#{left: true, right: false}", true)] {
        let code = overlap_code(SIX_IN_LINE, 0.0, "line", &format!("#{{supported: {supported}}}"));
        let (eval, _) = run(&host_with(&["unopposed_overlap"], &[]), &DICE, &code);
        let yes = if applies { "mod     yes +2" } else { "mod     no  +2" };
        assert_line(&eval, &[yes, "Unopposed overlap"]);
    }
}

#[test]
fn enemy_bases_facing_the_overlap_within_six_inches_oppose_it() {
    // A support battalion 3" beyond each overlapping base, facing it.
    let code = |xs: &[f64]| {
        let supports: Vec<String> = xs
            .iter()
            .enumerate()
            .map(|(i, x)| format!(r#"unit(#{{name: "S{i}", arm: "infantry", stands: 1, formation: "line", placement: #{{x: {x:?}, y: 12.0, facing: 180.0}}}})"#))
            .collect();
        overlap_code(SIX_IN_LINE, 0.0, "line", &format!("#{{supports: [{}]}}", supports.join(", ")))
    };
    let host = host_with(&["unopposed_overlap"], &[]);
    let (eval, _) = run(&host, &DICE, &code(&[3.75, -3.75]));
    assert_line(&eval, &["mod     no  +2", "Unopposed overlap"]);
    assert_line(&eval, &["flank is supported, enemy bases face the overlapping bases within 6\""]);
    let (eval, _) = run(&host, &DICE, &code(&[3.75]));
    assert_line(&eval, &["mod     yes +2", "Unopposed overlap"]);
    // Out of reach (7" away): no opposition.
    let far = code(&[3.75, -3.75]).replace("y: 12.0", "y: 16.0");
    let (eval, _) = run(&host, &DICE, &far);
    assert_line(&eval, &["mod     yes +2", "Unopposed overlap"]);
}

#[test]
fn infantry_width_follows_the_interpretation_and_must_cover_both_flanks() {
    // Five bases against four, centred: half a base on each flank, one base wider in all.
    let five = r#"arm: "infantry", stands: 5, formation: "line""#;
    let code = overlap_code(five, 0.0, "line", "#{}");
    let (eval, _) = run(&host_with(&["unopposed_overlap"], &[]), &DICE, &code);
    assert_line(&eval, &["flank overlap is less than one base width (overlap_width = total_and_flank)"]);
    assert_line(&eval, &["mod     no  +2", "Unopposed overlap"]);
    let (eval, _) = run(&host_with(&["unopposed_overlap"], &[("overlap_width", "total_only")]), &DICE, &code);
    assert_line(&eval, &["mod     yes +2", "Unopposed overlap"]);
    // Six bases shifted 2.25": 2.5 bases past one flank, short of the other.
    let code = overlap_code(SIX_IN_LINE, 2.25, "line", "#{}");
    let (eval, _) = run(&host_with(&["unopposed_overlap"], &[]), &DICE, &code);
    assert_line(&eval, &["overlap on one flank without matching frontage on the other does not qualify"]);
    assert_line(&eval, &["mod     no  +2", "Unopposed overlap"]);
}

#[test]
fn an_overlap_given_with_one_flank_short_is_not_entirely_wider() {
    // Five bases against four, not placed: one base wider in all. Past the left flank by
    // one base and level on the right it qualifies; past the left by two and a base short
    // of the right edge adds up to the same one base, but does not cover the front.
    let code = |overlap: &str| {
        format!(
            r#"let a = unit(#{{name: "A", arm: "infantry", stands: 5, formation: "line"}});
            let d = unit(#{{name: "D", arm: "infantry", stands: 4, formation: "line"}});
            assault(a, d, #{{overlap: {overlap}}})"#
        )
    };
    let host = host_with(&["unopposed_overlap"], &[("overlap_width", "total_only")]);
    let (eval, _) = run(&host, &DICE, &code("#{left: 1, right: 0}"));
    assert_line(&eval, &["mod     yes +2", "Unopposed overlap"]);
    let (eval, _) = run(&host, &DICE, &code("#{left: 2, right: -1}"));
    assert_line(&eval, &["the attacker falls short of the defender's front on one flank"]);
    assert_line(&eval, &["mod     no  +2", "Unopposed overlap"]);
}

#[test]
fn a_spaced_cavalry_line_overlaps_where_a_closed_one_does_not() {
    // Three cavalry bases one base-width apart span 5 widths (7.5") against 6": any
    // overlap counts for cavalry. Closed up, the three bases (4.5") overlap nothing.
    let spaced = r#"arm: "cavalry", type: "medium", stands: 3, formation: "spaced_line""#;
    let closed = r#"arm: "cavalry", type: "medium", stands: 3, formation: "line""#;
    let both = host_with(&["unopposed_overlap", "cavalry_in_line"], &[]);
    let (eval, _) = run(&both, &DICE, &overlap_code(spaced, 0.0, "line", "#{}"));
    assert_line(&eval, &["overlap 0.5 base widths on the defender's left, 0.5 on its right"]);
    assert_line(&eval, &["cavalry overlaps the", "any overlap qualifies"]);
    assert_line(&eval, &["mod     yes +2", "Unopposed overlap"]);
    let (eval, _) = run(&both, &DICE, &overlap_code(closed, 0.0, "line", "#{}"));
    assert_line(&eval, &["rule 501: no overlap"]);
    let err = fails(&host_with(&["unopposed_overlap"], &[]), &DICE, &overlap_code(spaced, 0.0, "line", "#{}"));
    assert!(
        err.contains(
            "formation \"spaced_line\" is read only with the optional rule cavalry_in_line: add --with cavalry_in_line"
        ),
        "{err}"
    );
    // Solo against a square: never; with infantry against a square: allowed.
    let (eval, _) = run(&both, &DICE, &overlap_code(spaced, 0.0, "square", "#{}"));
    assert_line(&eval, &["cannot be used by cavalry assaulting solo against infantry in square"]);
    let mixed = r#"let a = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"});
        let c = unit(#{name: "C", arm: "cavalry", type: "light", stands: 2, formation: "column"});
        let d = unit(#{name: "D", arm: "infantry", stands: 4, formation: "square"});
        assault([a, c], d, #{overlap: #{left: 2, right: 2}})"#;
    let (eval, _) = run(&both, &DICE, mixed);
    assert_no_line(&eval, &["cannot be used by cavalry assaulting solo"]);
    assert_line(&eval, &["mod     yes +2", "Unopposed overlap"]);
    // Buildings: never.
    let (eval, _) = run(&both, &DICE, &overlap_code(SIX_IN_LINE, 0.0, "line", r#"#{cover: "buildings"}"#));
    assert_line(&eval, &["no unopposed overlap assaulting in buildings"]);
}

#[test]
fn an_overlap_given_against_a_square_must_add_up_to_the_frontages() {
    // Six infantry bases in line (9") against four in square: a square's front row is two
    // bases (house), 3", so the attacker is 4 base widths wider. An overlap of one base on
    // each flank (as if the square were four bases wide) describes other units: refused with
    // the true numbers, not read as "overlap on one flank without matching frontage".
    let code = |attackers: &str, overlap: &str| {
        format!(
            r#"let a = unit(#{{name: "9e Ligne", arm: "infantry", stands: 6, formation: "line"}});
            let c = unit(#{{name: "Chasseurs", arm: "cavalry", type: "light", stands: 2, formation: "column"}});
            let d = unit(#{{name: "IR 4", arm: "infantry", stands: 4, formation: "square"}});
            assault({attackers}, d, #{{overlap: {overlap}}})"#
        )
    };
    let host = host_with(&["unopposed_overlap"], &[]);
    for attackers in ["a", "[a, c]"] {
        let err = fails(&host, &DICE, &code(attackers, "#{left: 1, right: 1}"));
        assert!(
            err.contains(
                "situation.overlap gives 1.0 attacker base widths past the defender's left edge and 1.0 past its right, \
                 2.0 in all, but 9e Ligne's front (6 bases in line, 6 bases wide: 9.0 inches, 6.0 attacker base widths) \
                 is 4.0 attacker base widths wider than IR 4's (4 bases in square, 2 bases wide, the front row of a \
                 square (house): 3.0 inches, 2.0 attacker base widths): the overlaps on the two flanks add up to the \
                 difference of the frontages, so give two that add up to 4.0 (rule 501)"
            ),
            "{attackers}: {err}"
        );
        assert!(!err.contains("without matching frontage"), "{err}");
    }
    // Placed units are measured on the table: a given overlap is not read, and the trace says so.
    let placed = overlap_code(SIX_IN_LINE, 0.0, "line", "#{overlap: #{left: 3, right: 3}}");
    let (eval, _) = run(&host, &DICE, &placed);
    assert_line(
        &eval,
        &["the units are placed, so their overlap is measured on the table; situation.overlap is not read"],
    );
    assert_line(
        &eval,
        &["rule 501: overlap 1.0 base widths on the defender's left, 1.0 on its right; frontage 2.0 bases wider"],
    );
    // Solo cavalry against the square: the seed's own reason comes first, whatever is given.
    let solo = code("c", "#{left: 1, right: 1}");
    let (eval, _) = run(&host, &[5, 5, 5, 5, 5, 5, 5, 5], &solo);
    assert_line(
        &eval,
        &["rule 501: unopposed overlap cannot be used by cavalry assaulting solo against infantry in square"],
    );
    assert_line(&eval, &["mod     no  +2", "Unopposed overlap"]);

    // Two bases past each edge add up: infantry alone, Attacker Advantage (no cavalry):
    // 3 + 2 - 2 = 3, the defender retreats (without the +2, 1 would have stalled).
    let (eval, _) = run(&host, &[3, 2], &code("a", "#{left: 2, right: 2}"));
    assert_line(
        &eval,
        &["rule 501: overlap 2.0 base widths on the defender's left, 2.0 on its right; frontage 4.0 bases wider"],
    );
    assert_line(&eval, &["mod     yes +2", "Unopposed overlap (rule 501)"]);
    assert_eq!((text(&eval, "column"), int(&eval, "differential")), ("attacker_advantage".into(), 3));
    assert_eq!(text(&eval, "result"), "defender_retreats");
    // With the cavalry, Defender Advantage (cavalry against a square, house); the square's +2
    // against cavalry is not read, the primary attacker being infantry: 6 + 2 - 2 = 6, which
    // the Defender Advantage column reads 5-7, the defender retreats (4 would have stalled).
    let (eval, _) = run(&host, &[6, 2], &code("[a, c]", "#{left: 2, right: 2}"));
    assert_line(&eval, &["mod     yes +2", "Unopposed overlap (rule 501)"]);
    assert_eq!((text(&eval, "column"), int(&eval, "differential")), ("defender_advantage".into(), 6));
    assert_eq!(text(&eval, "result"), "defender_retreats");
}

#[test]
fn every_assault_result_is_applied_to_both_sides() {
    // Infantry (4) with hussars (1) against two regiments (4 and 2), trained, in the open,
    // Attacker Advantage, no modifier: each result of the Assault Results table in turn.
    let code = |defender_stands: u32| {
        format!(
            r#"let a = unit(#{{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"}});
            let c = unit(#{{name: "Hussars", arm: "cavalry", type: "light", stands: 1, formation: "column"}});
            let d = unit(#{{name: "IR 4", arm: "infantry", stands: {defender_stands}, formation: "line"}});
            let d2 = unit(#{{name: "IR 5", arm: "infantry", stands: 1, formation: "line"}});
            assault([a, c], [d, d2], #{{}}).result"#
        )
    };
    let host = host_with(&[], &[]);
    let fresh = "good_order, 4 bases";
    for (dice, result, after) in [
        // 1 - 10 = -9: "Attacker routs and takes a base hit; the defender holds".
        (
            &[1, 10][..],
            "attacker_routed",
            ["routed, 3 bases, base_hits=1", "routed, 1 bases", fresh, "good_order, 1 bases"],
        ),
        // 3 - 6 = -3: "Attacker repulsed, falls back a full move with a morale hit".
        (
            &[3, 6],
            "attacker_repulsed",
            [
                "good_order, 4 bases, morale_hits=1 retreat=falls back a full move",
                "good_order, 1 bases, retreat=falls back a full move",
                fresh,
                "good_order, 1 bases",
            ],
        ),
        // 8 - 4 = 4: "Defender retreats a full move with a morale hit; the attacker carries position".
        (
            &[8, 4],
            "defender_retreats",
            [
                fresh,
                "good_order, 1 bases",
                "good_order, 4 bases, morale_hits=1 retreat=full move",
                "good_order, 1 bases, retreat=full move",
            ],
        ),
        // 10 - 1 = 9: "Defender routs and takes a base hit; infantry carries position, cavalry
        // must continue its movement against the enemy".
        (
            &[10, 1],
            "defender_routed",
            [
                fresh,
                "good_order, 1 bases, pursuit=mandatory continuance against the enemy",
                "routed, 3 bases, base_hits=1",
                "routed, 1 bases",
            ],
        ),
        // Three rounds of 5 - 5 (with the morale hits, -1, -2 a side): "each side takes a morale
        // hit"; the third demoralizes both, and the attacker falls back (Stalled Assaults, house).
        (
            &[5, 5, 5, 5, 5, 5],
            "stalled",
            [
                "demoralized, 4 bases, morale_hits=3 retreat=falls back a full move",
                "good_order, 1 bases, retreat=falls back a full move",
                "demoralized, 4 bases, morale_hits=3",
                "good_order, 1 bases",
            ],
        ),
    ] {
        let (eval, scope) = run(&host, dice, &code(4));
        assert_eq!(eval.value.clone().into_string().unwrap(), result, "{dice:?}");
        for (name, want) in ["a", "c", "d", "d2"].iter().zip(after) {
            assert_eq!(super::state(&scope, name), want, "{result}: {name}");
        }
        match result {
            "defender_retreats" => assert_line(&eval, &["the attackers carry the position"]),
            "defender_routed" => assert_line(&eval, &["the infantry carries the position"]),
            _ => {}
        }
    }
    // A defender routed off its last base leaves play.
    let (_, scope) = run(&host, &[10, 1], &code(1));
    assert_eq!(super::state(&scope, "d"), "routed, 0 bases, base_hits=1 removed=true");
}

// ---- 505 lancers -----------------------------------------------------------

const LANCERS: &str = r#"let l = unit(#{name: "Vistula Lancers", arm: "cavalry", type: "lancer", stands: 4, formation: "column"});
    let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
    assault(l, d, #{})"#;

#[test]
fn lancers_are_medium_in_the_first_round_and_light_after() {
    // Round 1: 3 + 2 (medium) - 4 = 1, stalled. Round 2: 5 + 1 (light) - 1 (hit) - (5 - 1) = 1,
    // stalled. Round 3: 9 + 1 - 1 - 1 - (1 - 2) = 9, routed.
    let (eval, _) = run(&host_with(&["lancers"], &[]), &[3, 4, 5, 5, 9, 1], LANCERS);
    assert_line(&eval, &["first round of the assault, medium cavalry bonus (rule 505)"]);
    assert_line(&eval, &["round 2, light cavalry bonus (rule 505)"]);
    assert_line(&eval, &["mod     yes +1 x2", "Cavalry bonus"]);
    assert_line(&eval, &["mod     yes +1 x1", "Cavalry bonus"]);
    assert_eq!(int(&eval, "rounds"), 3);
    // Off: light in every round: 3 + 1 - 4 = 0 in the first.
    let (eval, _) = run(&host_with(&[], &[]), &[3, 4, 5, 5, 9, 1], LANCERS);
    assert_line(&eval, &["lancers are light cavalry without rule 505"]);
    assert_no_line(&eval, &["mod     yes +1 x2", "Cavalry bonus"]);
}

#[test]
fn routed_lancers_fight_as_light_cavalry_for_the_rest_of_the_game() {
    // 1 + 2 - (10 + 4 elite) = -11: the lancers rout.
    let code = LANCERS.replace(r#"formation: "line"}"#, r#"formation: "line", grade: "elite"}"#);
    let host = host_with(&["lancers"], &[]);
    let (eval, scope) = run(&host, &[1, 10], &code);
    assert_eq!(text(&eval, "result"), "attacker_routed");
    assert_line(&eval, &["routed or demoralized lancers fight as light cavalry for the rest of the game (rule 505)"]);
    assert!(unit_in(&scope, "l").has_marker("lancer_degraded"));
    // Next turn, rallied, they charge again: light from the first round.
    let again = r#"let l = unit(#{name: "Vistula Lancers", arm: "cavalry", type: "lancer", stands: 3, formation: "column", markers: #{lancer_degraded: true}});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        assault(l, d, #{})"#;
    let (eval, _) = run(&host, &[9, 1], again);
    assert_line(&eval, &["light cavalry for the rest of the game (rule 505)"]);
    assert_eq!(int(&eval, "differential"), 9);
}

#[test]
fn routed_or_demoralized_lancers_without_the_marker_still_fight_as_light() {
    // Seed l.86: "unless the lancer unit is routed or goes demoralized".
    // Demoralized (no marker yet): 9 + 1 (light, not 2) - 1 = 9.
    let code = LANCERS.replace(r#"formation: "column"}"#, r#"formation: "column", order: "demoralized"}"#);
    let (eval, scope) = run(&host_with(&["lancers"], &[]), &[9, 1], &code);
    assert_eq!(int(&eval, "differential"), 9);
    assert_line(&eval, &["mod     yes +1 x1", "Cavalry bonus"]);
    assert_line(
        &eval,
        &["Vistula Lancers: routed or demoralized lancers fight as light cavalry for the rest of the game (rule 505)"],
    );
    assert!(unit_in(&scope, "l").has_marker("lancer_degraded"));
    // Routed lancers defending: 9 - (1 + 1 light) = 7.
    let defend = r#"let a = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        let l = unit(#{name: "Vistula Lancers", arm: "cavalry", type: "lancer", stands: 4, formation: "column", order: "routed"});
        assault(a, l, #{})"#;
    let (eval, scope) = run(&host_with(&["lancers"], &[]), &[9, 1], defend);
    assert_eq!(int(&eval, "differential"), 7);
    assert!(unit_in(&scope, "l").has_marker("lancer_degraded"));
}

// ---- 506 firefights ----------------------------------------------------------

#[test]
fn infantry_firefights_stop_after_one_round_and_resume_next_turn() {
    let code = format!("{EVEN} assault(a, d, #{{}})");
    // 5 - 5 = 0: stalled. On: one round, both left engaged.
    let (eval, scope) = run(&host_with(&["firefights"], &[]), &[5, 5], &code);
    assert_eq!((int(&eval, "rounds"), eval_bool(&eval, "firefight")), (1, true));
    assert_line(&eval, &["rule 506: infantry against infantry fight one round this turn"]);
    assert!(unit_in(&scope, "a").has_marker("firefight") && unit_in(&scope, "d").has_marker("firefight"));
    // Off: the stalled assault is fought again at once (9 - 1 - (1 - 1) = 8, routed).
    let (eval, _) = run(&host_with(&[], &[]), &[5, 5, 9, 1], &code);
    assert_eq!((int(&eval, "rounds"), text(&eval, "result")), (2, "defender_routed".into()));
    // Next player turn: pressed through to completion.
    let resumed = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line", markers: #{firefight: true, morale_hits: 1}});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line", markers: #{firefight: true, morale_hits: 1}});
        assault(a, d, #{resumed: true})"#;
    let (eval, scope) = run(&host_with(&["firefights"], &[]), &[5, 5, 9, 1], resumed);
    assert_line(&eval, &["rule 506: the firefight is pressed through to completion"]);
    assert_eq!(int(&eval, "rounds"), 2);
    assert!(!unit_in(&scope, "a").has_marker("firefight"));
    // Cavalry in the assault: the cap does not apply.
    let mixed = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"});
        let c = unit(#{name: "Hussars", arm: "cavalry", type: "light", stands: 1, formation: "column"});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        assault([a, c], d, #{})"#;
    let (eval, _) = run(&host_with(&["firefights"], &[]), &[5, 5, 9, 1], mixed);
    assert_eq!(int(&eval, "rounds"), 2);
}

fn eval_bool(eval: &grognard::script::Evaluation, key: &str) -> bool {
    field(eval, key).as_bool().unwrap()
}

// ---- 507 cavalry escorts -----------------------------------------------------

const ESCORT: &str = r#"let c = unit(#{name: "Cuirassiers", arm: "cavalry", type: "heavy", stands: 1, formation: "column"});
    let i = unit(#{name: "9e Ligne", arm: "infantry", stands: 3, formation: "column"});
    let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
    assault([c, i], d, #{})"#;

#[test]
fn inferior_cavalry_may_adopt_the_infantry_result() {
    // The seed's example: one cuirassier stand and three line stands score +7 (8 - 1).
    let (eval, scope) = run(&host_with(&["cavalry_escorts"], &[]), &[8, 1], ESCORT);
    assert_eq!((int(&eval, "differential"), text(&eval, "result")), (7, "defender_routed".into()));
    assert_line(
        &eval,
        &[
            "rule 507: the cavalry (1 bases) is numerically inferior to its infantry (3 bases)",
            "carries the position as an escort",
        ],
    );
    assert!(!unit_in(&scope, "c").has_marker("pursuit"));
    let (eval, scope) = run(&host_with(&[], &[]), &[8, 1], ESCORT);
    assert_line(
        &eval,
        &["cavalry escorts (rule 507) are off: the cavalry must continue its movement against the enemy"],
    );
    assert!(unit_in(&scope, "c").has_marker("pursuit"));
    // As many cavalry stands as infantry: not inferior, it must continue.
    let equal = ESCORT.replace("stands: 1, formation: \"column\"", "stands: 3, formation: \"column\"");
    let (_, scope) = run(&host_with(&["cavalry_escorts"], &[]), &[8, 1], &equal);
    assert!(unit_in(&scope, "c").has_marker("pursuit"));
}

// ---- 513 the attrition die ------------------------------------------------------

#[test]
fn a_natural_thirteen_costs_a_base_after_the_result() {
    let code = format!("{EVEN} assault(a, d, #{{}})");
    // 8 - 2 = 6: routed (a base hit); both attrition dice show 13.
    let (eval, _) = run(&host_with(&["attrition_die"], &[]), &[8, 13, 2, 13], &code);
    assert_shown(
        &eval,
        &["roll    attrition die, 9e Ligne (attacker), 1d20 = 13: [13] = 13 = 13: yes  [chance of yes: 1 in 20 (5%)]"],
    );
    assert_eq!((int(&eval, "attacker_lost"), int(&eval, "defender_lost")), (1, 2));
    let lines = eval.trace.lines();
    let routed = lines.iter().position(|l| l.contains("effect  IR 4: routed")).unwrap();
    let attrition = lines.iter().position(|l| l.contains("effect  9e Ligne: loses 1 stand")).unwrap();
    assert!(routed < attrition, "attrition after the competitive results:\n{}", lines.join("\n"));
    // Off: no attrition die.
    let (eval, _) = run(&host_with(&[], &[]), &[8, 2], &code);
    assert_no_line(&eval, &["attrition die"]);
    assert_eq!(int(&eval, "attacker_lost"), 0);
}

#[test]
fn the_attrition_die_rolls_every_round_or_once_per_assault() {
    let code = format!("{EVEN} assault(a, d, #{{}}).attrition.attacker");
    // Round 1: 5 - 5 stalled. Round 2: 9 - 1 - (1 - 1) = 8, routed; the attacker's 13 is in round 2.
    let (eval, _) = run(&host_with(&["attrition_die"], &[]), &[5, 1, 5, 1, 9, 13, 1, 1], &code);
    assert_eq!(eval.value.as_int().unwrap(), 1);
    let once = host_with(&["attrition_die"], &[("attrition_frequency", "per_assault")]);
    let (eval, _) = run(&once, &[5, 1, 5, 1, 9, 1], &code);
    assert_eq!(eval.value.as_int().unwrap(), 0);
    // Die sizes: a d30 still triggers on 13, a d12 on its 12.
    let d30 = host_with(&["attrition_die"], &[("attrition_die_size", "d30")]);
    let (eval, _) = run(&d30, &[8, 13, 2, 30], &format!("{EVEN} assault(a, d, #{{}})"));
    assert_shown(&eval, &["attrition die, 9e Ligne (attacker), 1d30 = 13: [13]", "[chance of yes: 1 in 30 (3%)]"]);
    assert_shown(
        &eval,
        &["attrition die, IR 4 (defender), 1d30 = 13: [30] = 30 = 13: no  [chance of yes: 1 in 30 (3%)]"],
    );
    assert_eq!(int(&eval, "attacker_lost"), 1);
    let d12 = host_with(&["attrition_die"], &[("attrition_die_size", "d12")]);
    let (eval, _) = run(&d12, &[8, 12, 2, 11], &format!("{EVEN} assault(a, d, #{{}})"));
    assert_shown(&eval, &["attrition die, 9e Ligne (attacker), 1d12 = 12: [12]", "[chance of yes: 1 in 12 (8%)]"]);
    assert_line(&eval, &["attrition die: a natural 12"]);
    assert_eq!(int(&eval, "attacker_lost"), 1);
}

#[test]
fn an_attrition_loss_is_a_base_hit_unless_switched() {
    // 4 - 4 = 0, stalled, the firefight ends the round; the attacker's 13 costs a base.
    let code = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line", markers: #{attached_artillery: 1, alert: true}});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        assault(a, d, #{})"#;
    let opts = ["attrition_die", "attached_artillery", "firefights", "alert_infantry"];
    let (eval, scope) = run(&host_with(&opts, &[]), &[3, 13, 4, 1], code);
    assert_line(&eval, &["9e Ligne loses an attached artillery block: a base hit (rule 403)"]);
    assert_eq!((count(&scope, "a", "attached_artillery"), count(&scope, "a", "base_hits")), (0, 1));
    let (eval, scope) = run(&host_with(&opts, &[("attrition_base_hit", "not_a_hit")]), &[3, 13, 4, 1], code);
    assert_no_line(&eval, &["loses an attached artillery block"]);
    assert_eq!((count(&scope, "a", "attached_artillery"), unit_in(&scope, "a").stands), (1, 3));
}

// ---- 515 vulnerable units -------------------------------------------------------

fn column(with: &[&str], set: &[(&str, &str)], code: &str) -> String {
    let (eval, _) = run(&host_with(with, set), &DICE, code);
    text(&eval, "column")
}

#[test]
fn cavalry_assaulting_infantry_in_woods_uses_defender_advantage() {
    // The seed's example.
    let code = r#"let c = unit(#{name: "Dragoons", arm: "cavalry", type: "medium", stands: 4, formation: "column"});
        let i = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        assault(c, i, #{cover: "woods"})"#;
    assert_eq!(column(&[], &[], code), "attacker_advantage");
    assert_eq!(column(&["vulnerable_units"], &[], code), "defender_advantage");
    let (eval, _) = run(&host_with(&["vulnerable_units"], &[]), &DICE, code);
    assert_line(&eval, &["Dragoons: cavalry in woods or buildings is V (rule 515)"]);
    assert_line(&eval, &["Defender Advantage (rule 515)"]);
    // "If cavalry in woods is assaulted by infantry, the attacking infantry gets to use the
    // Attacker Advantage column": in buildings, where the base column is Defender Advantage.
    let code = r#"let i = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "column"});
        let c = unit(#{name: "Dragoons", arm: "cavalry", type: "medium", stands: 4, formation: "column"});
        assault(i, c, #{cover: "buildings"})"#;
    assert_eq!(column(&[], &[], code), "defender_advantage");
    assert_eq!(column(&["vulnerable_units"], &[], code), "attacker_advantage");
}

#[test]
fn river_crossers_limbered_guns_and_both_sides_vulnerable() {
    let river = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "column", markers: #{vulnerable: true}});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        assault(a, d, #{})"#;
    // Off, the V marker is refused naming the switch (it was once read as no marker).
    let err = fails(&host_with(&[], &[]), &DICE, river);
    assert!(err.contains("marker \"vulnerable\" is read only with the optional rule vulnerable_units"), "{err}");
    assert_eq!(column(&["vulnerable_units"], &[], river), "defender_advantage");
    // Limbered guns in buildings (base: Defender Advantage) are disadvantaged, unless a minority.
    let guns = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "column"});
        let g = unit(#{name: "Guns", arm: "artillery", type: "foot", stands: 2, formation: "limbered"});
        assault(a, g, #{cover: "buildings"})"#;
    assert_eq!(column(&["vulnerable_units"], &[], guns), "attacker_advantage");
    let escorted = guns.replace(
        "assault(a, g,",
        r#"let i = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"}); assault(a, [i, g],"#,
    );
    let (eval, _) = run(&host_with(&["vulnerable_units"], &[]), &DICE, &escorted);
    assert_line(&eval, &["limbered guns are a minority element, their V does not count (rule 515)"]);
    assert_eq!(text(&eval, "column"), "defender_advantage");
    // Both sides V: cancel (the normal column) or the attacker's first.
    let both = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "column", markers: #{vulnerable: true}});
        let c = unit(#{name: "Dragoons", arm: "cavalry", type: "medium", stands: 4, formation: "column"});
        assault(a, c, #{cover: "woods"})"#;
    assert_eq!(column(&["vulnerable_units"], &[], both), "attacker_advantage");
    assert_eq!(
        column(&["vulnerable_units"], &[("vulnerable_both_sides", "attacker_first")], both),
        "defender_advantage"
    );
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let host = host_with(&[], &[]);
    let err = fails(&host, &[], &format!("{EVEN} assault(a, d, \"woods\")"));
    // The call is held to assault's contract before the procedure runs.
    assert!(err.contains("`situation` is a map such as #{cover: ...} (its keys: cover, column,"), "{err}");
    assert!(err.contains("not the text \"woods\""), "{err}");
    let err = fails(&host, &[], &format!("{EVEN} assault(a, [], #{{}})"));
    assert!(err.contains("the defender side of an assault needs at least one unit"), "{err}");
    let err = fails(&host, &[], &format!("{EVEN} assault(a, 3, #{{}})"));
    assert!(err.contains("the defender side of an assault holds 3, not a unit"), "{err}");
    let err = fails(&host, &[], &format!("{EVEN} d.stands = 0; assault(a, d, #{{}})"));
    assert!(err.contains("IR 4 has no bases left"), "{err}");
    let err = fails(&host, &[], &format!("{EVEN} assault(a, d, #{{column: \"flank\"}})"));
    assert!(err.contains("situation.column is flank"), "{err}");
    let err = fails(
        &host,
        &[],
        r#"assault(unit(#{name: "Hussars", arm: "cavalry", stands: 2, formation: "column"}), unit(#{name: "D", arm: "infantry", stands: 2, formation: "line"}), #{})"#,
    );
    assert!(err.contains("Hussars is cavalry without a weight"), "{err}");
}

#[test]
fn a_misspelt_ground_is_refused_with_the_known_words() {
    let host = host_with(&["vulnerable_units"], &[]);
    let err = fails(&host, &[5, 5], &format!("{EVEN} assault(a, d, #{{cover: \"wood\"}})"));
    assert!(
        err.contains(r#"situation.cover is wood: the ground is one of ["open", "rough", "woods", "buildings"]"#),
        "{err}"
    );
    let err = fails(&host, &[5, 5], &format!("{EVEN} assault(a, d, #{{attacker_terrain: [\"woods\", \"forest\"]}})"));
    assert!(err.contains("situation.attacker_terrain is forest: the ground is one of"), "{err}");
    // The known words still work: woods gives the defender +1 (5 - (5 + 1) = -1).
    let (eval, _) = run(&host, &[5, 5, 9, 1], &format!("{EVEN} assault(a, d, #{{cover: \"woods\"}})"));
    assert_line(&eval, &["differential: (5 +0) - (5 +1) = -1"]);
}

#[test]
fn a_unit_named_twice_in_an_assault_is_refused() {
    let host = host_with(&[], &[]);
    let err = fails(&host, &[5, 5], &format!("{EVEN} assault(a, a, #{{}})"));
    assert!(err.contains("9e Ligne is named twice in the assault: each unit takes part once, on one side"), "{err}");
    let err = fails(&host, &[5, 5], &format!("{EVEN} assault([a, a], d, #{{}})"));
    assert!(err.contains("9e Ligne is named twice in the assault"), "{err}");
}
