//! Tests of die bands: every notation, the normalised text, coverage checks and error messages.

use std::collections::HashMap;

use miette::Diagnostic;
use proptest::prelude::*;

use super::*;
use crate::present::diagnostic::render_plain;

const MIN: i64 = i64::MIN;
const MAX: i64 = i64::MAX;

fn band(text: &str) -> Band {
    Band::parse(text).unwrap_or_else(|e| panic!("{text:?}: {}", render_plain(&e)))
}

fn runs(text: &str) -> Vec<(i64, i64)> {
    band(text).intervals().to_vec()
}

fn code(text: &str) -> String {
    let err = Band::parse(text).unwrap_err();
    err.code().map(|c| c.to_string()).unwrap_or_default()
}

// ---- notation, token by token -----------------------------------------------

#[test]
fn reads_single_values() {
    for (text, value) in [
        ("0", 0),
        ("5", 5),
        ("12", 12),
        ("+2", 2),
        ("-3", -3),
        ("–3", -3),
        ("−3", -3),
        ("007", 7),
        ("  5  ", 5),
        ("\t5", 5),
        ("5\u{A0}", 5),
    ] {
        assert_eq!(runs(text), vec![(value, value)], "{text}");
    }
}

#[test]
fn reads_ranges_with_a_dash_or_to() {
    for (text, run) in [
        ("0-10", (0, 10)),
        ("4-6", (4, 6)),
        ("9-11", (9, 11)),
        ("9 - 11", (9, 11)),
        ("9 -11", (9, 11)),
        ("9- 11", (9, 11)),
        ("4–6", (4, 6)),
        ("4 – 6", (4, 6)),
        ("4 to 6", (4, 6)),
        ("4 TO 6", (4, 6)),
        ("4 To 6", (4, 6)),
        ("+1-+3", (1, 3)),
        ("-1 to 2", (-1, 2)),
        ("5-5", (5, 5)),
        ("5 to 5", (5, 5)),
    ] {
        assert_eq!(runs(text), vec![run], "{text}");
    }
}

#[test]
fn reads_negative_and_reversed_ranges_low_to_high() {
    for text in ["-1 to -3", "-3 to -1", "-3--1", "-1--3", "-3 - -1", "-3 -  -1", "–3 to –1", "–3––1", "−3 to −1"]
    {
        assert_eq!(runs(text), vec![(-3, -1)], "{text}");
    }
    assert_eq!(runs("6-4"), vec![(4, 6)]);
    assert_eq!(runs("6 to 4"), vec![(4, 6)]);
    assert_eq!(runs("3--2"), vec![(-2, 3)]);
}

#[test]
fn reads_open_ended_bands_going_up() {
    for text in [
        "11+",
        "11 +",
        "11 or more",
        "11 OR MORE",
        "11 or higher",
        "11 Or Higher",
        "11 and up",
        "11 and over",
        "11 AND OVER",
        "over 10",
        "Over 10",
        "over +10",
        "+11+",
    ] {
        assert_eq!(runs(text), vec![(11, MAX)], "{text}");
    }
    assert_eq!(runs("-2+"), vec![(-2, MAX)]);
    assert_eq!(runs("7 or more"), vec![(7, MAX)]);
    assert_eq!(runs("over -3"), vec![(-2, MAX)]);
}

#[test]
fn reads_open_ended_bands_going_down() {
    for text in [
        "2-",
        "2 -",
        "2–",
        "2 or less",
        "2 or lower",
        "2 OR LESS",
        "2 and under",
        "2 and below",
        "2 AND BELOW",
        "under 3",
        "below 3",
        "Under 3",
        "BELOW 3",
    ] {
        assert_eq!(runs(text), vec![(MIN, 2)], "{text}");
    }
    assert_eq!(runs("1 or less"), vec![(MIN, 1)]);
    assert_eq!(runs("-3-"), vec![(MIN, -3)]);
    assert_eq!(runs("under -1"), vec![(MIN, -2)]);
}

#[test]
fn reads_lists_of_any_form() {
    assert_eq!(runs("3,4"), vec![(3, 4)]);
    assert_eq!(runs("2,3"), vec![(2, 3)]);
    assert_eq!(runs("2, 5-6"), vec![(2, 2), (5, 6)]);
    assert_eq!(runs("2 , 5-6"), vec![(2, 2), (5, 6)]);
    assert_eq!(runs("1,3,5"), vec![(1, 1), (3, 3), (5, 5)]);
    assert_eq!(runs("2 or less, 11+"), vec![(MIN, 2), (11, MAX)]);
    assert_eq!(runs("-3--1,1-3"), vec![(-3, -1), (1, 3)]);
    assert_eq!(runs("over 10, under 3"), vec![(MIN, 2), (11, MAX)]);
    // Order and overlap do not matter: a band is a set.
    assert_eq!(runs("5-6, 2"), vec![(2, 2), (5, 6)]);
    assert_eq!(runs("1-4, 3-6"), vec![(1, 6)]);
    assert_eq!(runs("4,3"), vec![(3, 4)]);
    assert_eq!(runs("5+, 4 or less"), vec![(MIN, MAX)]);
}

#[test]
fn reads_or_between_values_as_a_list() {
    assert_eq!(runs("5 or 6"), vec![(5, 6)]);
    assert_eq!(runs("1 or 3"), vec![(1, 1), (3, 3)]);
    assert_eq!(runs("1, 2 or 3"), vec![(1, 3)]);
    assert_eq!(runs("1 or more or -5"), vec![(-5, -5), (1, MAX)]);
    assert_eq!(runs("2 or under 0"), vec![(MIN, -1), (2, 2)]);
}

#[test]
fn reads_every_seed_table_cell() {
    for (text, expected) in [
        // F&F musketry.
        ("0-10", vec![(0, 10)]),
        ("11+", vec![(11, MAX)]),
        ("9-11", vec![(9, 11)]),
        ("12+", vec![(12, MAX)]),
        ("0", vec![(0, 0)]),
        // Maneuver.
        ("1 or less", vec![(MIN, 1)]),
        ("2,3", vec![(2, 3)]),
        ("4-6", vec![(4, 6)]),
        // Melee differentials.
        ("-1 to -3", vec![(-3, -1)]),
        ("7 or more", vec![(7, MAX)]),
        // 18th-century fallen leader.
        ("0-4", vec![(0, 4)]),
        ("5", vec![(5, 5)]),
        ("9-10", vec![(9, 10)]),
        ("2 or less", vec![(MIN, 2)]),
        ("3,4", vec![(3, 4)]),
    ] {
        assert_eq!(runs(text), expected, "{text}");
    }
}

#[test]
fn equal_sets_are_equal_bands_however_written() {
    assert_eq!(band("3,4"), band("3-4"));
    assert_eq!(band("3,4"), band("4 to 3"));
    assert_eq!(band("11+"), band("over 10"));
    assert_eq!(band("2 or less"), band("below 3"));
    assert_eq!(band("5-5"), band("5"));
    assert_ne!(band("3,5"), band("3-5"));
}

// ---- the normalised text --------------------------------------------------

#[test]
fn writes_the_seed_notation_one_way() {
    for (text, shown) in [
        ("0-10", "0-10"),
        ("11+", "11+"),
        ("11 or more", "11+"),
        ("11 and up", "11+"),
        ("over 10", "11+"),
        ("2 or less", "2 or less"),
        ("2-", "2 or less"),
        ("2 and under", "2 or less"),
        ("under 3", "2 or less"),
        ("3,4", "3,4"),
        ("3-4", "3,4"),
        ("9-10", "9,10"),
        ("-1 to -3", "-3 to -1"),
        ("-3--1", "-3 to -1"),
        ("-2 to 3", "-2 to 3"),
        ("-2,-1", "-2,-1"),
        ("5", "5"),
        ("+5", "5"),
        ("5-5", "5"),
        ("  4 TO 6 ", "4-6"),
        ("2, 5-7", "2,5-7"),
        ("1 or less, 5 or 6, 9+", "1 or less,5,6,9+"),
        ("5+, 4 or less", "0 or less,1+"),
    ] {
        assert_eq!(band(text).text(), shown, "{text}");
        assert_eq!(band(text).to_string(), shown, "{text}");
        assert_eq!(band(shown), band(text), "{shown} reads back");
    }
}

#[test]
fn parses_through_from_str() {
    let parsed: Band = "4-6".parse().unwrap();
    assert_eq!(parsed.intervals(), &[(4, 6)]);
    assert!("4-".parse::<Band>().is_ok());
    assert!("4 -".parse::<Band>().is_ok());
    assert!("abc".parse::<Band>().is_err());
}

// ---- queries ----------------------------------------------------------------

#[test]
fn contains_both_edges_of_each_band_and_nothing_past_them() {
    for (text, low, high) in [("0-10", 0, 10), ("9-11", 9, 11), ("-1 to -3", -3, -1), ("5", 5, 5), ("3,4", 3, 4)] {
        let b = band(text);
        assert!(b.contains(low) && b.contains(high), "{text}");
        assert!(!b.contains(low - 1) && !b.contains(high + 1), "{text}");
        assert_eq!((b.min(), b.max()), (Some(low), Some(high)), "{text}");
    }
    let up = band("11+");
    assert!(up.contains(11) && up.contains(MAX) && !up.contains(10));
    assert_eq!((up.min(), up.max()), (Some(11), None));
    let down = band("2 or less");
    assert!(down.contains(2) && down.contains(MIN) && !down.contains(3));
    assert_eq!((down.min(), down.max()), (None, Some(2)));
    let list = band("2, 5-6");
    assert!(list.contains(2) && list.contains(5) && list.contains(6));
    assert!(!list.contains(3) && !list.contains(4) && !list.contains(7));
    assert_eq!((list.min(), list.max()), (Some(2), Some(6)));
}

#[test]
fn intersects_only_when_a_value_is_shared() {
    assert!(band("0-6").intersects(&band("6-8")));
    assert!(!band("0-5").intersects(&band("6-8")));
    assert!(band("2 or less").intersects(&band("-5")));
    assert!(band("11+").intersects(&band("2, 20")));
    assert!(!band("1,3,5").intersects(&band("2,4,6")));
    assert!(band("1,3,5").intersects(&band("2,4,5")));
    assert!(!band("2 or less").intersects(&band("3+")));
}

#[test]
fn find_returns_the_first_band_holding_the_value() {
    let row = [band("0-5"), band("6-8"), band("9-11"), band("12+")];
    let mut cells: Vec<Option<&Band>> = row.iter().map(Some).collect();
    assert_eq!(find(&cells, 0), Some(0));
    assert_eq!(find(&cells, 5), Some(0));
    assert_eq!(find(&cells, 6), Some(1));
    assert_eq!(find(&cells, 11), Some(2));
    assert_eq!(find(&cells, 40), Some(3));
    assert_eq!(find(&cells, -1), None);
    cells[1] = None;
    assert_eq!(find(&cells, 7), None);
    let overlapping = [band("0-6"), band("6-8")];
    let cells: Vec<Option<&Band>> = overlapping.iter().map(Some).collect();
    assert_eq!(find(&cells, 6), Some(0));
}

// ---- coverage -----------------------------------------------------------------

fn check(texts: &[&str], reach: (i64, i64)) -> BandCheck {
    let bands: Vec<Option<Band>> = texts.iter().map(|t| (!t.is_empty()).then(|| band(t))).collect();
    let cells: Vec<Option<&Band>> = bands.iter().map(Option::as_ref).collect();
    check_bands(&cells, reach)
}

#[test]
fn the_musketry_row_covers_every_roll_once() {
    let found = check(&["0-5", "6-8", "9-11", "12+"], (-6, 16));
    assert_eq!(found, BandCheck::default());
    assert!(found.is_clean());
}

#[test]
fn finds_a_gap() {
    let found = check(&["0-5", "7+"], (-6, 16));
    assert_eq!(found.gaps, vec![(6, 6)]);
    assert!(found.overlaps.is_empty() && found.unreachable.is_empty());
    assert_eq!(check(&["0-1", "4-5", "9"], (0, 9)).gaps, vec![(2, 3), (6, 8)]);
}

#[test]
fn finds_an_overlap() {
    let found = check(&["0-6", "6-8"], (0, 10));
    assert_eq!(found.overlaps, vec![(0, 1, 6, 6)]);
    assert!(found.gaps.is_empty() && found.unreachable.is_empty());
    // Every pair, each with its first shared run.
    let found = check(&["0-6", "5-8", "1,6+"], (0, 10));
    assert_eq!(found.overlaps, vec![(0, 1, 5, 6), (0, 2, 1, 1), (1, 2, 6, 8)]);
}

#[test]
fn many_overlapping_bands_are_compared_as_neighbours() {
    // Each band overlaps the next: all 19,999 overlaps are found, and no
    // pair that shares nothing, comparing each band with its neighbours only.
    let texts: Vec<String> = (0..20_000).map(|n| format!("{}-{}", n + 1, n + 2)).collect();
    let bands: Vec<Band> = texts.iter().map(|t| band(t)).collect();
    let cells: Vec<Option<&Band>> = bands.iter().map(Some).collect();
    let found = check_bands(&cells, (1, 20_001));
    let expected: Vec<(usize, usize, i64, i64)> = (0..19_999).map(|n| (n, n + 1, n as i64 + 2, n as i64 + 2)).collect();
    assert_eq!(found.overlaps, expected);
    // The same band 20,000 times: the first is paired with every other, once each.
    let same = vec![band("1-10"); 20_000];
    let cells: Vec<Option<&Band>> = same.iter().map(Some).collect();
    let found = check_bands(&cells, (1, 10));
    assert_eq!(found.overlaps, (1..20_000).map(|j| (0, j, 1, 10)).collect::<Vec<_>>());
}

#[test]
fn finds_an_unreachable_band() {
    let found = check(&["0-4", "5-10", "11-12"], (1, 10));
    assert_eq!(found.unreachable, vec![2]);
    assert!(found.gaps.is_empty() && found.overlaps.is_empty());
    assert_eq!(check(&["2 or less", "3+"], (5, 10)).unreachable, vec![0]);
}

#[test]
fn open_ends_stop_at_the_reach() {
    // Nothing below 0 is a gap when the lowest band starts at 0...
    assert!(check(&["0-5", "6+"], (-6, 16)).gaps.is_empty());
    // ...but an open-ended row is measured out to the reach.
    assert_eq!(check(&["2 or less", "5+"], (-6, 16)).gaps, vec![(3, 4)]);
    assert_eq!(check(&["3 or less"], (1, 6)).gaps, Vec::new());
    assert_eq!(check(&["3 or less"], (5, 6)).gaps, Vec::new());
    // A reach with no ends at all: no overflow at i64's edges.
    assert_eq!(check(&["2 or less", "5+"], (MIN, MAX)).gaps, vec![(3, 4)]);
    assert!(check(&["0 or less", "1+"], (MIN, MAX)).is_clean());
}

#[test]
fn empty_cells_are_skipped_but_keep_their_index() {
    let found = check(&["0-5", "", "5-8", ""], (0, 8));
    assert_eq!(found.overlaps, vec![(0, 2, 5, 5)]);
    let found = check(&["", "0-4", "20"], (0, 10));
    assert_eq!(found.unreachable, vec![2]);
    assert_eq!(found.gaps, vec![(5, 19)]);
    assert_eq!(check(&["", ""], (0, 10)), BandCheck::default());
    assert_eq!(check(&[], (0, 10)), BandCheck::default());
}

// ---- serde ----------------------------------------------------------------------

#[test]
fn reads_bands_from_strings_and_integers() {
    let bands: Vec<Band> = serde_json::from_str(r#"["0-10", "11+", 5, -2, "3,4"]"#).unwrap();
    let texts: Vec<String> = bands.iter().map(Band::text).collect();
    assert_eq!(texts, ["0-10", "11+", "5", "-2", "3,4"]);
    assert_eq!(serde_json::to_string(&bands).unwrap(), r#"["0-10","11+","5","-2","3,4"]"#);
}

#[test]
fn reads_bands_from_yaml_cells_and_keys() {
    let cells: Vec<Option<Band>> =
        serde_saphyr::from_str("- 0-10\n- 11+\n- 5\n- ~\n- -1 to -3\n- 2,3\n- +2\n").unwrap();
    assert_eq!(
        cells,
        vec![
            Some(band("0-10")),
            Some(band("11+")),
            Some(band("5")),
            None,
            Some(band("-3 to -1")),
            Some(band("2,3")),
            Some(band("2")),
        ]
    );
    let table: HashMap<Band, String> = serde_saphyr::from_str("5: rally\n0-4: rout\n9-10: steady\n").unwrap();
    assert_eq!(table[&band("5")], "rally");
    assert_eq!(table[&band("0-4")], "rout");
    assert_eq!(table[&band("9,10")], "steady");
}

#[test]
fn serde_errors_keep_the_text() {
    let err = serde_json::from_str::<Band>(r#""3,,4""#).unwrap_err().to_string();
    assert!(err.contains("`3,,4`") && err.contains("empty item"), "{err}");
    let err = serde_json::from_str::<Band>(r#""5 or""#).unwrap_err().to_string();
    assert!(err.contains("`5 or`") && err.contains("at the end"), "{err}");
    let err = serde_json::from_str::<Band>("99999999999").unwrap_err().to_string();
    assert!(err.contains("99999999999") && err.contains("out of range"), "{err}");
    let err = serde_json::from_str::<Band>("2.5").unwrap_err().to_string();
    assert!(err.contains("a die band"), "{err}");
}

// ---- errors ---------------------------------------------------------------------

#[test]
fn refuses_what_is_not_a_band() {
    for text in [
        "",
        " ",
        "-",
        " - ",
        "–",
        "~",
        ",",
        "3,",
        ",3",
        "3,,4",
        "3, ,4",
        "5 or",
        "5 to",
        "5 and",
        "abc",
        "5x",
        "- 3",
        "5 6",
        "5++",
        "3-4-5",
        "over",
        "over 5+",
        "11 or mores",
        "5 ormore",
        "d6",
        "1.5",
        "99999999999999999999",
        "-99999999999999999999",
        "1000000001",
    ] {
        assert!(Band::parse(text).is_err(), "{text:?}");
    }
    assert_eq!(code("abc"), "band::syntax");
    assert_eq!(code("5 or"), "band::syntax");
    for text in ["", "-", "~", "3,,4", "3,", ",3", "99999999999999999999"] {
        assert_eq!(code(text), "band::invalid", "{text:?}");
    }
}

#[test]
fn numbers_stop_a_long_way_from_i64s_ends() {
    assert_eq!(runs("1000000000"), vec![(MAX_MAGNITUDE, MAX_MAGNITUDE)]);
    assert_eq!(runs("-1000000000"), vec![(-MAX_MAGNITUDE, -MAX_MAGNITUDE)]);
    assert_eq!(runs("over 1000000000"), vec![(MAX_MAGNITUDE + 1, MAX)]);
    assert_eq!(runs("under -1000000000"), vec![(MIN, -MAX_MAGNITUDE - 1)]);
    assert_eq!(band("1000000000").max(), Some(MAX_MAGNITUDE));
}

fn rendered(text: &str) -> String {
    render_plain(&Band::parse(text).unwrap_err())
}

#[test]
fn errors_underline_the_mistake() {
    insta::assert_snapshot!("empty_item", rendered("3,,4"));
    insta::assert_snapshot!("trailing_comma", rendered("3,"));
    insta::assert_snapshot!("unfinished_or", rendered("5 or"));
    insta::assert_snapshot!("unfinished_range", rendered("5 to"));
    insta::assert_snapshot!("not_a_band", rendered("abc"));
    insta::assert_snapshot!("stray_word", rendered("5 x"));
    insta::assert_snapshot!("too_large", rendered("99999999999999999999"));
    insta::assert_snapshot!("lone_dash", rendered("-"));
    insta::assert_snapshot!("lone_tilde", rendered("~"));
    insta::assert_snapshot!("empty", rendered(""));
}

// ---- properties -------------------------------------------------------------------

/// One band written in one of its notations, with the test for membership it stands for.
#[derive(Clone, Debug)]
struct Written {
    text: String,
    low: i64,
    high: i64,
}

fn written_item() -> impl Strategy<Value = Written> {
    let n = -20i64..20;
    prop_oneof![
        (n.clone(), any::<bool>()).prop_map(|(a, plus)| Written {
            text: if plus && a >= 0 { format!("+{a}") } else { format!("{a}") },
            low: a,
            high: a,
        }),
        (n.clone(), n.clone(), prop::sample::select(vec!["-", " - ", "–", " to ", " TO "]))
            .prop_map(|(a, b, dash)| Written { text: format!("{a}{dash}{b}"), low: a.min(b), high: a.max(b) }),
        (n.clone(), prop::sample::select(vec!["+", " or more", " or higher", " and up", " And Over"]))
            .prop_map(|(a, word)| Written { text: format!("{a}{word}"), low: a, high: MAX }),
        (n.clone(), prop::sample::select(vec!["-", " or less", " or lower", " and under", " and BELOW"]))
            .prop_map(|(a, word)| Written { text: format!("{a}{word}"), low: MIN, high: a }),
        n.clone().prop_map(|a| Written { text: format!("over {a}"), low: a + 1, high: MAX }),
        (n, prop::sample::select(vec!["under", "below"])).prop_map(|(a, word)| Written {
            text: format!("{word} {a}"),
            low: MIN,
            high: a - 1,
        }),
    ]
}

fn written_band() -> impl Strategy<Value = (String, Vec<Written>)> {
    prop::collection::vec((written_item(), prop::sample::select(vec![",", ", ", " , ", " or "])), 1..5).prop_map(
        |items| {
            let mut text = String::new();
            for (n, (item, separator)) in items.iter().enumerate() {
                if n > 0 {
                    text.push_str(separator);
                }
                text.push_str(&item.text);
            }
            (text, items.into_iter().map(|(item, _)| item).collect())
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_any_string(text in "\\PC{0,40}") {
        let _ = Band::parse(&text);
    }

    #[test]
    fn never_panics_on_band_like_strings(text in "[0-9 ,+\\-–−~toramhiglwsdunbevTOR]{0,24}") {
        if let Ok(b) = Band::parse(&text) {
            prop_assert!(!b.intervals().is_empty());
            prop_assert_eq!(Band::parse(&b.text()).unwrap(), b);
        }
    }

    #[test]
    fn every_notation_holds_exactly_its_values((text, items) in written_band()) {
        let b = Band::parse(&text).map_err(|e| TestCaseError::fail(render_plain(&e)))?;
        for value in (-45..45).chain([MIN, MAX]) {
            let expected = items.iter().any(|w| w.low <= value && value <= w.high);
            prop_assert_eq!(b.contains(value), expected, "{} at {}", text, value);
        }
        // The runs are sorted and merged: apart by at least one missing value.
        for pair in b.intervals().windows(2) {
            prop_assert!(pair[0].1 < pair[1].0 - 1, "{:?}", b.intervals());
        }
    }

    /// Every value two bands hold is in a reported run of two bands holding
    /// it, every reported run is held by both its bands, and none is reported twice.
    #[test]
    fn every_shared_value_is_reported(rows in prop::collection::vec(prop::collection::vec((-12i64..12, 0i64..4), 1..3), 0..7)) {
        let bands: Vec<Band> =
            rows.iter().map(|runs| band(&runs.iter().map(|(s, l)| format!("{s} to {}", s + l)).collect::<Vec<_>>().join(", "))).collect();
        let cells: Vec<Option<&Band>> = bands.iter().map(Some).collect();
        let found = check_bands(&cells, (MIN, MAX)).overlaps;
        for &(i, j, low, high) in &found {
            prop_assert!(i < j && low <= high);
            prop_assert!((low..=high).all(|v| bands[i].contains(v) && bands[j].contains(v)), "{:?}", found);
        }
        let mut unique = found.clone();
        unique.dedup();
        prop_assert_eq!(&unique, &found);
        for value in -12..16 {
            let holders: Vec<usize> = (0..bands.len()).filter(|&i| bands[i].contains(value)).collect();
            if holders.len() > 1 {
                prop_assert!(
                    found.iter().any(|&(i, j, low, high)| low <= value && value <= high && holders.contains(&i) && holders.contains(&j)),
                    "{} held by {:?}, not reported in {:?}", value, holders, found
                );
            }
        }
    }

    #[test]
    fn the_text_reads_back_as_the_same_band((text, _) in written_band()) {
        let b = Band::parse(&text).unwrap();
        let shown = b.to_string();
        prop_assert_eq!(Band::parse(&shown).unwrap(), b.clone(), "{} shown as {}", text, shown);
        prop_assert_eq!(Band::parse(&shown).unwrap().to_string(), shown);
    }
}

#[test]
fn a_band_without_another_keeps_exactly_the_values_the_other_lacks() {
    assert_eq!(band("5-10").without(&band("7")).unwrap().text(), "5,6,8-10");
    assert_eq!(band("5-10").without(&band("9+")).unwrap().text(), "5-8");
    assert_eq!(band("2 or less").without(&band("0-1")).unwrap().text(), "-1 or less,2");
    assert_eq!(band("11+").without(&band("12")).unwrap().text(), "11,13+");
    assert!(band("3,4").without(&band("1-6")).is_none());
    assert!(band("11+").without(&band("5+")).is_none());
    // Value by value, against `contains`, open ends included.
    let texts = ["5", "4-6", "-1 to -3", "11+", "2 or less", "3,4", "2, 5-6", "0-10", "0 or less,1+"];
    for a in texts {
        for b in texts {
            let (a, b) = (band(a), band(b));
            let left = a.without(&b);
            for value in [-30, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 30, i64::MIN, i64::MAX] {
                let expected = a.contains(value) && !b.contains(value);
                assert_eq!(left.as_ref().is_some_and(|l| l.contains(value)), expected, "{a} without {b} at {value}");
            }
        }
    }
}
