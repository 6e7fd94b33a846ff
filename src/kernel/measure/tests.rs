//! Tests of measurement: length notation, scale, and table geometry against values worked by hand.

use proptest::prelude::*;

use super::*;
use crate::present::diagnostic::render_plain;

/// The 18th-century set's ground scale: one inch is 30 yards, figures at base size.
fn ground() -> Scale {
    Scale::new(30.0, 1.0).unwrap()
}

fn inches(text: &str) -> f64 {
    parse_length(text, &ground()).unwrap_or_else(|e| panic!("{text}: {e:?}")).inches()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

// ---- lengths ---------------------------------------------------------------

#[test]
fn reads_inches_in_every_spelling() {
    for (text, value) in [
        ("12", 12.0),
        ("12\"", 12.0),
        ("12″", 12.0),
        ("6in", 6.0),
        ("6 in", 6.0),
        ("6 inch", 6.0),
        ("6 inches", 6.0),
        ("6 INCHES", 6.0),
        ("1.5\"", 1.5),
        (".5\"", 0.5),
        ("1-1/2\"", 1.5),
        ("1 1/2\"", 1.5),
        ("1 1/2 inches", 1.5),
        ("3/4\"", 0.75),
        ("3/4", 0.75),
        ("0", 0.0),
        ("  12\"  ", 12.0),
    ] {
        assert_eq!(inches(text), value, "{text}");
    }
}

#[test]
fn reads_metric_exactly() {
    assert_eq!(inches("30cm"), 30.0 / 2.54);
    assert_eq!(inches("30 cm"), 30.0 / 2.54);
    assert_eq!(inches("15mm"), 1.5 / 2.54);
    assert_eq!(inches("15 millimetres"), 1.5 / 2.54);
}

#[test]
fn reads_ground_units_through_the_scale() {
    for text in ["90 yards", "90yd", "90 yds", "90 yard", "90yards"] {
        assert_eq!(inches(text), 3.0, "{text}");
    }
    // 100 paces of 0.8 yards is 80 yards, at 30 yards to the inch.
    assert_eq!(inches("100 paces"), 100.0 * 0.8 / 30.0);
    assert!(close(inches("100 paces"), 8.0 / 3.0));
    let long_pace = ground().with_yards_per_pace(1.0).unwrap();
    assert_eq!(parse_length("90 paces", &long_pace).unwrap().inches(), 3.0);
}

#[test]
fn displays_sixteenths_as_fractions_and_the_rest_as_decimals() {
    for (value, shown) in [
        (12.0, "12\""),
        (1.5, "1-1/2\""),
        (0.75, "3/4\""),
        (0.0, "0\""),
        (1.0 / 16.0, "1/16\""),
        (2.125, "2-1/8\""),
        (30.0 / 2.54, "11.81\""),
        (8.0 / 3.0, "2.67\""),
    ] {
        assert_eq!(Length::from_inches(value).unwrap().to_string(), shown, "{value}");
    }
}

#[test]
fn display_round_trips() {
    for sixteenths in 0..=400 {
        let length = Length::from_inches(f64::from(sixteenths) / 16.0).unwrap();
        let back: Length = length.to_string().parse().unwrap();
        assert_eq!(back, length, "{length}");
    }
    // Decimals are shown to the hundredth, so they come back to within half of one.
    let metric = parse_length("30cm", &Scale::table_only()).unwrap();
    let back: Length = metric.to_string().parse().unwrap();
    assert!((back.inches() - metric.inches()).abs() <= 0.005);
}

#[test]
fn lengths_are_numbers_of_inches_in_serde() {
    let length = Length::from_inches(1.5).unwrap();
    assert_eq!(serde_json::to_string(&length).unwrap(), "1.5");
    assert_eq!(serde_json::from_str::<Length>("12").unwrap().inches(), 12.0);
    assert!(serde_json::from_str::<Length>("-1").is_err());
    assert_eq!(Length::from_inches(-1.0), None);
    assert_eq!(Length::from_inches(f64::NAN), None);
    assert!(Length::from_inches(1.0) < Length::from_inches(2.0));
}

#[test]
fn refusals_are_the_right_kind() {
    let syntax = |text: &str| matches!(parse_length(text, &ground()), Err(MeasureError::Syntax { .. }));
    let invalid = |text: &str| matches!(parse_length(text, &ground()), Err(MeasureError::Invalid { .. }));
    for text in ["", "   ", "3/0\"", "-2\"", "12 furlongs", "200000\"", "1-3/2\""] {
        assert!(invalid(text), "{text}");
    }
    for text in ["abc", "1/", "12 3", "1.5.2", "\"", "1/2/3", "12\"\""] {
        assert!(syntax(text), "{text}");
    }
    // Yards are well formed, but a table-only scale cannot read them.
    assert!(matches!(parse_length("90 yards", &Scale::table_only()), Err(MeasureError::Invalid { .. })));
    assert!(parse_length("100 paces", &Scale::table_only()).is_err());
    // A number too long for an f64 is refused, not turned into infinity.
    let huge = "9".repeat(400);
    assert!(invalid(&huge));
    assert!(invalid(&format!("{huge}/{huge}")));
}

fn rendered(text: &str) -> String {
    render_plain(&parse_length(text, &ground()).unwrap_err())
}

#[test]
fn errors_underline_the_mistake() {
    insta::assert_snapshot!("empty", rendered(""));
    insta::assert_snapshot!("zero_denominator", rendered("3/0\""));
    insta::assert_snapshot!("negative", rendered("-2\""));
    insta::assert_snapshot!("unknown_unit", rendered("12 furlongs"));
    insta::assert_snapshot!("too_long", rendered("200000\""));
    insta::assert_snapshot!("too_long_on_the_ground", rendered("4000000 yards"));
    insta::assert_snapshot!("improper_mixed", rendered("1-3/2\""));
    insta::assert_snapshot!("no_denominator", rendered("1/"));
    insta::assert_snapshot!("not_a_number", rendered("six inches"));
    insta::assert_snapshot!("trailing_number", rendered("12 3"));
    insta::assert_snapshot!("two_points", rendered("1.5.2\""));
    insta::assert_snapshot!(
        "yards_without_ground_scale",
        render_plain(&parse_length("90 yards", &Scale::table_only()).unwrap_err())
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_any_string(text in "\\PC{0,40}") {
        let _ = parse_length(&text, &ground());
        let _ = parse_length(&text, &Scale::table_only());
    }

    #[test]
    fn length_like_strings_give_lengths_in_range(text in "[0-9 ./\"\\-inchesydpamr]{0,16}") {
        if let Ok(length) = parse_length(&text, &ground()) {
            prop_assert!(length.inches().is_finite());
            prop_assert!(length.inches() >= 0.0);
            prop_assert!(length.inches() <= MAX_INCHES);
        }
    }

    #[test]
    fn sixteenths_round_trip_exactly(sixteenths in 0u32..1_600_000) {
        let length = Length::from_inches(f64::from(sixteenths) / 16.0).unwrap();
        let back: Length = length.to_string().parse().unwrap();
        prop_assert_eq!(back, length);
    }
}

// ---- scale -----------------------------------------------------------------

#[test]
fn figure_scale_doubles_distances_on_the_table() {
    let scale = Scale::new(30.0, 2.0).unwrap();
    let rule = parse_length("6\"", &scale).unwrap();
    assert_eq!(scale.on_table(rule).inches(), 12.0);
    // 90 yards is 3 rule inches, 6 table inches for 25mm figures.
    let ground_rule = parse_length("90 yards", &scale).unwrap();
    assert_eq!(ground_rule.inches(), 3.0);
    assert_eq!(scale.on_table(ground_rule).inches(), 6.0);
    assert_eq!(scale.to_ground_yards(ground_rule), Some(90.0));
    assert_eq!(Scale::table_only().on_table(rule), rule);
    assert_eq!(Scale::table_only().to_ground_yards(rule), None);
}

#[test]
fn scales_refuse_nonsense_numbers() {
    assert!(Scale::new(0.0, 1.0).is_err());
    assert!(Scale::new(-30.0, 1.0).is_err());
    assert!(Scale::new(30.0, f64::NAN).is_err());
    assert!(Scale::table_only().with_yards_per_pace(0.0).is_err());
    assert_eq!(Scale::default(), Scale::table_only());
    assert_eq!(Scale::table_only().yards_per_pace(), DEFAULT_YARDS_PER_PACE);
}

#[test]
fn rulesets_declare_scales_in_serde() {
    let scale: Scale = serde_json::from_str(r#"{"yards_per_inch": 30, "figure_factor": 2}"#).unwrap();
    assert_eq!(scale.yards_per_inch(), Some(30.0));
    assert_eq!(scale.yards_per_pace(), 0.8);
    assert_eq!(scale.figure_factor(), 2.0);
    let table: Scale = serde_json::from_str("{}").unwrap();
    assert_eq!(table, Scale::table_only());
    assert!(serde_json::from_str::<Scale>(r#"{"yards_per_inches": 30}"#).is_err());
    assert!(serde_json::from_str::<Scale>(r#"{"figure_factor": 0}"#).is_err());
    let json = serde_json::to_string(&scale).unwrap();
    assert_eq!(serde_json::from_str::<Scale>(&json).unwrap(), scale);
}

// ---- geometry --------------------------------------------------------------

/// A 1" square stand facing up the table whose centre is at (x, y).
fn blob(x: f64, y: f64) -> Footprint {
    Footprint::new(vec![Stand::new(1.0, 1.0, Point::new(x, y + 0.5), 0.0)])
}

#[test]
fn stands_have_their_corners_where_the_facing_says() {
    let stand = Stand::new(2.0, 1.0, Point::new(0.0, 0.0), 0.0);
    assert_eq!(
        stand.corners(),
        [Point::new(-1.0, 0.0), Point::new(1.0, 0.0), Point::new(1.0, -1.0), Point::new(-1.0, -1.0)]
    );
    // Facing +x: the front-left corner is up the table.
    let east = Stand::new(2.0, 1.0, Point::new(0.0, 0.0), 90.0).corners();
    let expected = [(0.0, 1.0), (0.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)];
    for (corner, (x, y)) in east.iter().zip(expected) {
        assert!(close(corner.x, x) && close(corner.y, y), "{corner:?} vs ({x}, {y})");
    }
    let line = Footprint::line(3, Point::new(0.0, 0.0), 0.0, 1.0, 0.5);
    let xs: Vec<f64> = line.stands.iter().map(|s| s.position.x).collect();
    assert_eq!(xs, [-1.0, 0.0, 1.0]);
    let column = Footprint::column(3, Point::new(0.0, 0.0), 0.0, 1.0, 0.5);
    let ys: Vec<f64> = column.stands.iter().map(|s| s.position.y).collect();
    assert_eq!(ys, [0.0, -0.5, -1.0]);
    assert_eq!(column.centre(), Some(Point::new(0.0, -0.75)));
    assert_eq!(Footprint::default().centre(), None);
}

#[test]
fn distance_is_nearest_stand_to_stand() {
    let us = Footprint::line(2, Point::new(0.0, 0.0), 0.0, 1.0, 0.5);
    // Facing us, 6" away front to front.
    let them = Footprint::line(2, Point::new(0.0, 6.0), 180.0, 1.0, 0.5);
    assert_eq!(distance(&us, &them), 6.0);
    assert_eq!(distance(&them, &us), 6.0);
    // Front edges touching.
    let touching = Footprint::line(2, Point::new(0.0, 0.0), 180.0, 1.0, 0.5);
    assert_eq!(distance(&us, &touching), 0.0);
    // One stand inside another's footprint.
    assert_eq!(distance(&us, &blob(0.3, -0.2)), 0.0);
    // Corner to corner on the diagonal: 3-4-5.
    assert_eq!(distance(&us, &blob(1.0 + 3.0 + 0.5, 4.0 + 0.5)), 5.0);
    assert_eq!(distance(&us, &Footprint::default()), f64::INFINITY);
}

#[test]
fn distance_to_a_stand_turned_45_degrees() {
    // A 2x1 stand at the origin facing up; a 1" square turned 45 degrees whose
    // front edge is centred on (0, 5). Its lowest corner is the rear-right one,
    // 1/2 a diagonal sideways and 3/2 of one down from (0, 5) in the turned
    // frame: (-s/2, 5 - 3s/2) with s = sin 45. That is above our front edge
    // (x within -1..1), so the distance is 5 - 3s/2.
    let us = Footprint::new(vec![Stand::new(2.0, 1.0, Point::new(0.0, 0.0), 0.0)]);
    let turned = Footprint::new(vec![Stand::new(1.0, 1.0, Point::new(0.0, 5.0), 45.0)]);
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let expected = 5.0 - 1.5 * s; // 3.93934 inches
    assert!(close(distance(&us, &turned), expected), "{}", distance(&us, &turned));
}

/// A 2" wide infantry stand at the origin facing up the table: front corners (-1, 0) and (1, 0).
fn firer() -> Stand {
    Stand::new(2.0, 1.0, Point::new(0.0, 0.0), 0.0)
}

#[test]
fn arcs_reach_ahead_and_not_beside_or_behind() {
    let base = firer();
    let ahead = Footprint::line(2, Point::new(0.0, 10.0), 180.0, 1.0, 0.5);
    assert!(in_arc(&base, 45.0, &ahead));
    // Level with us, off to the side.
    assert!(!in_arc(&base, 45.0, &Footprint::new(vec![Stand::new(1.0, 1.0, Point::new(4.0, 0.0), 0.0)])));
    assert!(!in_arc(&base, 45.0, &blob(0.0, -5.0)));
    assert!(!in_arc(&base, 45.0, &Footprint::default()));
    // Touching the front edge's line counts.
    let against = Footprint::new(vec![Stand::new(1.0, 1.0, Point::new(0.0, 1.0), 0.0)]);
    assert!(in_arc(&base, 45.0, &against));
}

#[test]
fn a_target_on_the_arc_edge_is_in_and_just_past_it_is_out() {
    // The left edge runs from (-1, 0) up and left at 45 degrees, through (-4, 3).
    // This 1" square lies below-left of it, touching it only at its
    // front-right corner (-4, 3).
    let on_edge = Footprint::new(vec![Stand::new(1.0, 1.0, Point::new(-4.5, 3.0), 0.0)]);
    assert!(in_arc(&firer(), 45.0, &on_edge));
    let past = Footprint::new(vec![Stand::new(1.0, 1.0, Point::new(-4.5 - 1e-6, 3.0), 0.0)]);
    assert!(!in_arc(&firer(), 45.0, &past));
    // The same on the right edge, mirrored.
    let on_right = Footprint::new(vec![Stand::new(1.0, 1.0, Point::new(4.5, 3.0), 0.0)]);
    assert!(in_arc(&firer(), 45.0, &on_right));
    let past_right = Footprint::new(vec![Stand::new(1.0, 1.0, Point::new(4.5 + 1e-6, 3.0), 0.0)]);
    assert!(!in_arc(&firer(), 45.0, &past_right));
}

#[test]
fn artillery_arcs_are_narrower_than_infantry() {
    // A small target 10" out from the front-right corner, 40 degrees off straight ahead.
    let angle = 40f64.to_radians();
    let at = Point::new(1.0 + 10.0 * angle.sin(), 10.0 * angle.cos());
    let target = Footprint::new(vec![Stand::new(0.2, 0.2, at, 0.0)]);
    assert!(in_arc(&firer(), 45.0, &target));
    assert!(!in_arc(&firer(), 30.0, &target));
}

#[test]
fn arcs_turn_with_the_firer() {
    let east = Stand::new(2.0, 1.0, Point::new(0.0, 0.0), 90.0);
    assert!(in_arc(&east, 45.0, &blob(10.0, 0.0)));
    assert!(!in_arc(&east, 45.0, &blob(0.0, 10.0)));
    assert!(!in_arc(&east, 45.0, &blob(-10.0, 0.0)));
}

#[test]
fn aspect_is_judged_from_the_viewers_centre() {
    // Three stands in line facing up: front line y = 0, rear line y = -0.5.
    let target = Footprint::line(3, Point::new(0.0, 0.0), 0.0, 1.0, 0.5);
    assert_eq!(aspect(&target, 0.0, &blob(0.0, 5.0)), Aspect::Front);
    assert_eq!(aspect(&target, 0.0, &blob(-5.0, -0.25)), Aspect::LeftFlank);
    assert_eq!(aspect(&target, 0.0, &blob(5.0, -0.25)), Aspect::RightFlank);
    assert_eq!(aspect(&target, 0.0, &blob(0.0, -5.0)), Aspect::Rear);
    // Exactly on the front line is front; exactly on the rear line is rear.
    assert_eq!(aspect(&target, 0.0, &blob(5.0, 0.0)), Aspect::Front);
    assert_eq!(aspect(&target, 0.0, &blob(5.0, -0.5)), Aspect::Rear);
    assert_eq!(serde_json::to_string(&Aspect::LeftFlank).unwrap(), "\"left_flank\"");
}

#[test]
fn aspect_turns_with_the_target() {
    // Facing +x: front line x = 0, rear line x = -0.5, its left is up the table.
    let target = Footprint::line(3, Point::new(0.0, 0.0), 90.0, 1.0, 0.5);
    assert_eq!(aspect(&target, 90.0, &blob(5.0, 0.0)), Aspect::Front);
    assert_eq!(aspect(&target, 90.0, &blob(-5.0, 0.0)), Aspect::Rear);
    assert_eq!(aspect(&target, 90.0, &blob(-0.25, 5.0)), Aspect::LeftFlank);
    assert_eq!(aspect(&target, 90.0, &blob(-0.25, -5.0)), Aspect::RightFlank);
}

#[test]
fn overlap_counts_frontage_beyond_each_flank() {
    let defender = Footprint::line(4, Point::new(0.0, 0.0), 0.0, 1.0, 0.5);
    let equal = Footprint::line(4, Point::new(0.0, 0.5), 180.0, 1.0, 0.5);
    assert_eq!(overlap(&defender, 0.0, &equal, 1.0), Overlap { left: 0.0, right: 0.0 });
    // Six stands to our four, the extra two off our left (-x as we face up).
    let wider = Footprint::line(6, Point::new(-1.0, 0.5), 180.0, 1.0, 0.5);
    let o = overlap(&defender, 0.0, &wider, 1.0);
    assert_eq!(o, Overlap { left: 2.0, right: 0.0 });
    assert_eq!(o.whole_bases(), (2, 0));
    // Measured in bases of 2": the same overlap is one base.
    assert_eq!(overlap(&defender, 0.0, &wider, 2.0).whole_bases(), (1, 0));
    // Half a base past our right.
    let shifted = Footprint::line(4, Point::new(0.5, 0.5), 180.0, 1.0, 0.5);
    let o = overlap(&defender, 0.0, &shifted, 1.0);
    assert_eq!(o, Overlap { left: 0.0, right: 0.5 });
    assert_eq!(o.whole_bases(), (0, 0));
    // Wholly off to one side: only the attacker's own frontage counts.
    let aside = Footprint::line(2, Point::new(6.0, 0.5), 180.0, 1.0, 0.5);
    assert_eq!(overlap(&defender, 0.0, &aside, 1.0), Overlap { left: 0.0, right: 2.0 });
    assert_eq!(overlap(&defender, 0.0, &wider, 0.0), Overlap::default());
}

#[test]
fn overlap_turns_with_the_defender() {
    // Facing +x the defender's left is up the table; it spans y -1..1.
    let defender = Footprint::line(2, Point::new(0.0, 0.0), 90.0, 1.0, 0.5);
    let attacker = Footprint::line(3, Point::new(0.5, 0.5), 270.0, 1.0, 0.5);
    let o = overlap(&defender, 90.0, &attacker, 1.0);
    assert!(close(o.left, 1.0) && close(o.right, 0.0), "{o:?}");
    assert_eq!(o.whole_bases(), (1, 0));
}

#[test]
fn whole_bases_forgive_rounding_either_way() {
    assert_eq!(Overlap { left: 2.0000000001, right: 1.9999999999 }.whole_bases(), (2, 2));
    assert_eq!(Overlap { left: 1.99, right: 2.5 }.whole_bases(), (1, 2));
    assert_eq!(Overlap { left: f64::NAN, right: 0.0 }.whole_bases(), (0, 0));
}

#[test]
fn contact_is_the_shared_boundary() {
    // Two stands face to face, 1" wide, offset by 0.25": they share 0.75".
    let a = Footprint::line(1, Point::new(0.0, 0.0), 0.0, 1.0, 1.0);
    let b = Footprint::line(1, Point::new(0.25, 0.0), 180.0, 1.0, 1.0);
    assert!(close(contact_length(&a, &b), 0.75));
    // Side by side in one line: the shared flank is the depth.
    let line = Footprint::line(2, Point::new(0.0, 0.0), 0.0, 1.0, 0.5);
    assert!(close(contact_length(&line.front(1), &Footprint::new(vec![line.stands[1]])), 0.5));
    // Corner to corner, or a gap: nothing shared.
    let corner = Footprint::line(1, Point::new(1.0, 0.0), 180.0, 1.0, 1.0);
    assert_eq!(contact_length(&a, &corner), 0.0);
    let apart = Footprint::line(1, Point::new(0.0, 0.1), 180.0, 1.0, 1.0);
    assert_eq!(contact_length(&a, &apart), 0.0);
    // At an angle the rounding of sines and cosines still touches.
    let c = Footprint::line(1, Point::new(0.0, 0.0), 30.0, 1.0, 1.0);
    let d = Footprint::line(1, c.stands[0].position, 210.0, 1.0, 1.0);
    assert!(close(contact_length(&c, &d), 1.0));
    assert_eq!(contact_length(&Footprint::default(), &a), 0.0);
}

#[test]
fn run_in_is_the_last_straight_stretch() {
    let p = Point::new;
    assert_eq!(run_in(&[p(0.0, 0.0), p(0.0, 7.0)]), 7.0);
    // A wheel, then 3-4-5 straight in.
    assert_eq!(run_in(&[p(0.0, 0.0), p(0.0, 4.0), p(3.0, 8.0)]), 5.0);
    // Several legs along one line are one run.
    assert_eq!(run_in(&[p(5.0, 5.0), p(0.0, 0.0), p(0.0, 2.0), p(0.0, 5.0), p(0.0, 9.0)]), 9.0);
    // A point repeated mid-path changes nothing.
    assert_eq!(run_in(&[p(0.0, 0.0), p(0.0, 3.0), p(0.0, 3.0), p(0.0, 6.0)]), 6.0);
    // Going back along the same line is a new run.
    assert_eq!(run_in(&[p(0.0, 0.0), p(0.0, 5.0), p(0.0, 2.0)]), 3.0);
    // A kink finer than EPS is still straight; a visible one is not.
    assert_eq!(run_in(&[p(0.0, 0.0), p(1e-12, 2.0), p(0.0, 4.0)]), 4.0);
    assert_eq!(run_in(&[p(0.0, 0.0), p(0.01, 2.0), p(0.01, 4.0)]), 2.0);
    assert_eq!(run_in(&[]), 0.0);
    assert_eq!(run_in(&[p(1.0, 1.0)]), 0.0);
    assert_eq!(run_in(&[p(1.0, 1.0), p(1.0, 1.0)]), 0.0);
}

#[test]
fn a_range_band_includes_its_limit() {
    assert!(within(6.0, 6.0));
    assert!(within(6.0 + 1e-10, 6.0));
    assert!(!within(6.001, 6.0));
    let us = Footprint::line(2, Point::new(0.0, 0.0), 0.0, 1.0, 0.5);
    let them = Footprint::line(2, Point::new(0.0, 6.0), 180.0, 1.0, 0.5);
    assert!(within(distance(&us, &them), 6.0));
    assert!(!within(distance(&us, &them), 5.99));
}

#[test]
fn a_block_is_rows_of_stands_front_row_first() {
    // Five stands two wide, facing up the table from (0, 0): rows at y = 0, -1, -2.
    let block = Footprint::block(5, 2, Point::new(0.0, 0.0), 0.0, 1.0, 1.0);
    let fronts: Vec<(f64, f64)> = block.stands.iter().map(|s| (s.position.x, s.position.y)).collect();
    assert_eq!(fronts, [(-0.5, 0.0), (0.5, 0.0), (-0.5, -1.0), (0.5, -1.0), (0.0, -2.0)]);
    assert_eq!(block.front(2).stands.len(), 2);
    // One row is a line.
    assert_eq!(
        Footprint::block(3, 3, Point::new(0.0, 0.0), 90.0, 1.0, 0.5),
        Footprint::line(3, Point::new(0.0, 0.0), 90.0, 1.0, 0.5)
    );
}
