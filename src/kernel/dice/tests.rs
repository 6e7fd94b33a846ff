//! Tests of the dice layer: grammar, sources, rolls and exact odds against
//! values computed independently here.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

use super::*;
use crate::present::diagnostic::render_plain;

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

fn totals(expr: &str) -> Distribution<i64> {
    match exact_odds(&parse(expr).unwrap(), &DiceLimits::default()).unwrap() {
        Odds::Totals(d) => d,
        Odds::Chance(_) => panic!("{expr} is not a sum"),
    }
}

fn chance(expr: &str, conventions: &DiceConventions) -> BigRational {
    let parsed = parse_with(expr, conventions, &DiceLimits::default()).unwrap();
    match exact_odds(&parsed, &DiceLimits::default()).unwrap() {
        Odds::Chance(d) => d.probability(&true),
        Odds::Totals(_) => panic!("{expr} is not a comparison"),
    }
}

/// Every ordered roll of `count` dice with faces `first..first+sides`, by brute force.
fn all_rolls(count: u32, sides: i64, first: i64) -> Vec<Vec<i64>> {
    let mut rolls = vec![vec![]];
    for _ in 0..count {
        rolls = rolls
            .into_iter()
            .flat_map(|r| {
                (first..first + sides).map(move |f| {
                    let mut r = r.clone();
                    r.push(f);
                    r
                })
            })
            .collect();
    }
    rolls
}

// ---- grammar -------------------------------------------------------------

#[test]
fn reads_the_notations_wargamers_write() {
    for (text, shown) in [
        ("d6", "1d6"),
        ("1d10", "1d10"),
        ("2d6+1", "2d6+1"),
        ("3d6-1d4+2", "3d6-1d4+2"),
        ("d%", "1d%"),
        ("4d6kh3", "4d6kh3"),
        ("4d6k3", "4d6kh3"),
        ("4d6kl1", "4d6kl1"),
        ("4d6dh1", "4d6dh1"),
        ("4d6dl1", "4d6dl1"),
        ("4d6d1", "4d6dl1"),
        ("4D6KH3", "4d6kh3"),
        (" 2d6  >=  8 ", "2d6 >= 8"),
        ("1d10<=3", "1d10 <= 3"),
        ("1d10 > 1d10", "1d10 > 1d10"),
        ("2d6 == 7", "2d6 = 7"),
        ("2d6 != 7", "2d6 != 7"),
        ("-1d4 + 2", "-1d4+2"),
        ("7", "7"),
    ] {
        let expr = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(expr.to_string(), shown, "{text}");
    }
}

#[test]
fn a_pool_knows_its_parts() {
    let expr = parse("4d6kh3").unwrap();
    let pool = expr.pools().next().unwrap();
    assert_eq!(pool.count, 4);
    assert_eq!(pool.die, Die::standard(6));
    assert_eq!(pool.keep, Some(Keep::Highest(3)));
    assert_eq!((pool.min(), pool.max()), (3, 18));
    assert_eq!(parse("3d6-1d4+2").unwrap().left.min(), 3 - 4 + 2);
    assert_eq!(parse("3d6-1d4+2").unwrap().left.max(), 18 - 1 + 2);
}

#[test]
fn d10_is_read_by_the_rulesets_convention() {
    let zero = DiceConventions { d10: D10Reading::ZeroToNine, ..Default::default() };
    let d10 = parse_with("d10", &zero, &DiceLimits::default()).unwrap();
    let die = d10.pools().next().unwrap().die;
    assert_eq!((die.min_face(), die.max_face()), (0, 9));
    // Only the d10 changes: a d6 still reads 1-6.
    let d6 = parse_with("d6", &zero, &DiceLimits::default()).unwrap();
    assert_eq!(d6.pools().next().unwrap().die.min_face(), 1);
    // The 18th-century fallen leader band "0-4" is a half chance on a 0-9 die...
    assert_eq!(chance("1d10 <= 4", &zero), ratio(1, 2));
    // ...and only 4 in 10 on a 1-10 die.
    assert_eq!(chance("1d10 <= 4", &DiceConventions::default()), ratio(2, 5));
}

fn rendered(text: &str) -> String {
    render_plain(&parse(text).unwrap_err())
}

#[test]
fn errors_underline_the_mistake() {
    insta::assert_snapshot!("missing_faces", rendered("2d"));
    insta::assert_snapshot!("zero_faces", rendered("d0"));
    insta::assert_snapshot!("one_face", rendered("d1"));
    insta::assert_snapshot!("keep_more_than_rolled", rendered("1d6kh7"));
    insta::assert_snapshot!("too_many_dice", rendered("99999999d99999999"));
    insta::assert_snapshot!("dangling_plus", rendered("1d6+"));
    insta::assert_snapshot!("stray_word", rendered("2d6 plus 1"));
    insta::assert_snapshot!("empty", rendered(""));
}

#[test]
fn limits_are_named_when_refused() {
    let err = parse("600d6+600d6").unwrap_err();
    assert!(matches!(err, DiceError::Limit { .. }), "{err:?}");
    assert_eq!(err.to_string(), "too many dice: 1200 in all");
    let err = parse("1d100000").unwrap_err();
    assert_eq!(err.to_string(), "too many faces: d100000");
    let err = parse("2d6+99999999999999999999").unwrap_err();
    assert_eq!(err.to_string(), "the constant 99999999999999999999 is too large");
    let err = parse("0d6").unwrap_err();
    assert_eq!(err.to_string(), "a pool needs at least one die");
    let err = parse("4d6dl4").unwrap_err();
    assert_eq!(err.to_string(), "`dl4` leaves none of 4 dice to count");
}

// ---- sources -------------------------------------------------------------

#[test]
fn a_fixed_seed_gives_pinned_rolls() {
    // Golden values: if these change, every saved seed in the world rolls differently.
    let mut source = Seeded::new(20_261_129);
    let d6: Vec<i64> = (0..12).map(|_| source.face(Die::standard(6)).unwrap()).collect();
    assert_eq!(d6, [6, 4, 5, 2, 2, 2, 4, 6, 3, 4, 2, 3]);
    let d10: Vec<i64> = (0..8).map(|_| source.face(Die::standard(10)).unwrap()).collect();
    assert_eq!(d10, [10, 7, 8, 1, 4, 4, 2, 9]);
    let d20 = source.face(Die::standard(20)).unwrap();
    assert_eq!(d20, 6);
}

#[test]
fn trials_get_their_own_streams() {
    let faces = |mut s: Seeded| -> Vec<i64> { (0..20).map(|_| s.face(Die::standard(6)).unwrap()).collect() };
    assert_eq!(faces(Seeded::for_trial(5, 3)), faces(Seeded::for_trial(5, 3)));
    assert_ne!(faces(Seeded::for_trial(5, 3)), faces(Seeded::for_trial(5, 4)));
    assert_ne!(faces(Seeded::for_trial(5, 0)), faces(Seeded::new(5)));
    // A generator made anew in place for the next trial (as a study's worker does) is that
    // trial's, wherever in its stream it stood.
    let mut reused = Seeded::for_trial(5, 3);
    reused.face(Die::standard(6)).unwrap();
    assert!(reused.become_trial(5, 4));
    assert_eq!(faces(reused), faces(Seeded::for_trial(5, 4)));
    // Faces given in advance are not a generator, and stay as they were.
    let mut given = Supplied::new(vec![3]);
    assert!(!given.become_trial(5, 4));
    assert_eq!(given.face(Die::standard(6)).unwrap(), 3);
}

#[test]
fn seeded_faces_are_uniform() {
    let mut source = Seeded::new(1);
    let mut seen = [0u32; 10];
    for _ in 0..100_000 {
        seen[(source.face(Die::standard(10)).unwrap() - 1) as usize] += 1;
    }
    // 10,000 expected per face; 5 standard deviations is about 475.
    for count in seen {
        assert!((9_525..=10_475).contains(&count), "{seen:?}");
    }
}

#[test]
fn supplied_faces_are_used_in_order_and_checked() {
    let mut source = Supplied::new([3, 5, 12]);
    let roll = parse("2d6+1").unwrap().roll(&mut source).unwrap();
    assert_eq!(roll.total, 9);
    assert_eq!(roll.naturals().collect::<Vec<_>>(), [3, 5]);
    assert_eq!(source.remaining(), [12]);
    let err = parse("1d6").unwrap().roll(&mut source).unwrap_err();
    assert_eq!(err, DiceError::BadFace { face: 12, die: "d6 (1-6)".into(), position: 3, what: String::new() });
    let err = parse("1d6").unwrap().roll(&mut Supplied::new([])).unwrap_err();
    assert_eq!(err.to_string(), "no face left for a d6 (1-6): all 0 supplied faces were used");
    assert_eq!(Supplied::parse_list("8, 4 10").unwrap().remaining(), [8, 4, 10]);
    assert_eq!(Supplied::parse_list("8,x").unwrap_err(), "`x` is not a die face");
}

#[test]
fn a_zero_based_d10_accepts_a_typed_zero() {
    let zero = DiceConventions { d10: D10Reading::ZeroToNine, ..Default::default() };
    let expr = parse_with("1d10", &zero, &DiceLimits::default()).unwrap();
    assert_eq!(expr.roll(&mut Supplied::new([0])).unwrap().total, 0);
    assert!(parse("1d10").unwrap().roll(&mut Supplied::new([0])).is_err());
}

// ---- rolls ---------------------------------------------------------------

#[test]
fn keep_highest_drops_the_lowest() {
    let roll = parse("4d6kh3").unwrap().roll(&mut Supplied::new([3, 1, 6, 4])).unwrap();
    assert_eq!(roll.total, 13);
    let kept: Vec<bool> = roll.dice.iter().map(|d| d.kept).collect();
    assert_eq!(kept, [true, false, true, true]);
    assert_eq!(roll.to_string(), "4d6kh3: [3 (1) 6 4] = 13");
}

#[test]
fn keep_and_drop_choose_the_right_dice() {
    let faces = [2, 5, 5, 1];
    for (expr, total, kept) in [
        ("4d6kl1", 1, [false, false, false, true]),
        ("4d6dh1", 8, [true, true, false, true]),
        ("4d6dl1", 12, [true, true, true, false]),
        // Equal faces: the later one is dropped first.
        ("4d6kh1", 5, [false, true, false, false]),
    ] {
        let roll = parse(expr).unwrap().roll(&mut Supplied::new(faces)).unwrap();
        assert_eq!(roll.total, total, "{expr}");
        assert_eq!(roll.dice.iter().map(|d| d.kept).collect::<Vec<_>>(), kept, "{expr}");
    }
}

#[test]
fn a_roll_keeps_natural_faces_for_triggers() {
    let roll = parse("1d10+1d20").unwrap().roll(&mut Supplied::new([10, 13])).unwrap();
    assert!(roll.has_natural(10, 10));
    assert!(roll.has_natural(20, 13));
    assert!(!roll.has_natural(20, 10));
}

#[test]
fn comparisons_answer_yes_or_no() {
    let roll = parse("2d6 >= 8").unwrap().roll(&mut Supplied::new([3, 5])).unwrap();
    assert_eq!(roll.success, Some(true));
    assert_eq!(roll.to_string(), "2d6 >= 8: [3 5] = 8 >= 8: yes");
    let roll = parse("1d10 > 1d10").unwrap().roll(&mut Supplied::new([4, 4])).unwrap();
    assert_eq!((roll.total, roll.against, roll.success), (4, Some(4), Some(false)));
    assert_eq!(roll.to_string(), "1d10 > 1d10: [4] = 4 > [4] = 4: no");
    let roll = parse("3d6-1d4+2").unwrap().roll(&mut Supplied::new([3, 1, 4, 4])).unwrap();
    assert_eq!(roll.to_string(), "3d6-1d4+2: [3 1 4] - [4] + 2 = 6");
}

// ---- exact odds ----------------------------------------------------------

#[test]
fn two_d6_by_counting() {
    let dist = totals("2d6");
    for total in 2..=12 {
        let ways = all_rolls(2, 6, 1).iter().filter(|r| r.iter().sum::<i64>() == total).count();
        assert_eq!(dist.probability(&total), ratio(ways as i64, 36), "total {total}");
    }
    assert_eq!(dist.mean(), ratio(7, 1));
    assert_eq!(dist.total(), BigRational::one());
    assert_eq!(dist.at_least(8), ratio(15, 36));
    assert_eq!(dist.at_most(4), ratio(6, 36));
}

#[test]
fn four_d6_keep_highest_three() {
    let dist = totals("4d6kh3");
    assert_eq!(dist.mean(), ratio(15869, 1296));
    let mut by_hand: BTreeMap<i64, i64> = BTreeMap::new();
    for mut r in all_rolls(4, 6, 1) {
        r.sort();
        *by_hand.entry(r[1..].iter().sum()).or_default() += 1;
    }
    for (total, ways) in by_hand {
        assert_eq!(dist.probability(&total), ratio(ways, 1296), "total {total}");
    }
}

#[test]
fn every_keep_kind_matches_brute_force() {
    for (expr, count, sides, keep_low, keep_n) in
        [("5d4kl2", 5, 4, true, 2), ("5d4dh3", 5, 4, true, 2), ("5d4dl1", 5, 4, false, 4), ("3d10kh1", 3, 10, false, 1)]
    {
        let dist = totals(expr);
        let mut by_hand: BTreeMap<i64, i64> = BTreeMap::new();
        for mut r in all_rolls(count, sides, 1) {
            r.sort();
            let kept: i64 = if keep_low { r[..keep_n].iter().sum() } else { r[r.len() - keep_n..].iter().sum() };
            *by_hand.entry(kept).or_default() += 1;
        }
        let all = sides.pow(count);
        for (total, ways) in by_hand {
            assert_eq!(dist.probability(&total), ratio(ways, all), "{expr} total {total}");
        }
    }
}

#[test]
fn large_keep_pools_by_formula() {
    // The highest of 20 d20 is at most k with chance (k/20)^20.
    let dist = totals("20d20kh1");
    let below = |k: i64| BigRational::new(BigInt::from(k).pow(20), BigInt::from(20).pow(20));
    for k in 1..=20 {
        assert_eq!(dist.probability(&k), below(k) - below(k - 1), "highest {k}");
    }
    // The lowest of 12 d10 is at least k with chance ((11-k)/10)^12.
    let dist = totals("12d10kl1");
    let above = |k: i64| BigRational::new(BigInt::from(11 - k).pow(12), BigInt::from(10).pow(12));
    for k in 1..=10 {
        assert_eq!(dist.at_least(k), above(k), "lowest at least {k}");
    }
}

#[test]
fn d10_differences_for_opposed_rolls() {
    // F&F melee reads the difference of two d10s.
    let dist = totals("1d10 - 1d10");
    for diff in -9..=9i64 {
        assert_eq!(dist.probability(&diff), ratio(10 - diff.abs(), 100), "difference {diff}");
    }
    assert_eq!(dist.mean(), BigRational::zero());
    // The attacker wins outright (higher die) 45 times in 100.
    assert_eq!(chance("1d10 > 1d10", &DiceConventions::default()), ratio(45, 100));
}

#[test]
fn chances_of_comparisons() {
    let d = DiceConventions::default();
    assert_eq!(chance("2d6 >= 8", &d), ratio(15, 36));
    assert_eq!(chance("1d10 <= 3", &d), ratio(3, 10));
    assert_eq!(chance("2d6 = 7", &d), ratio(1, 6));
    assert_eq!(chance("2d6 != 7", &d), ratio(5, 6));
    assert_eq!(chance("1d20 < 2", &d), ratio(1, 20));
    // b - a <= 1 misses only the 4+3+2+1 ways of b - a >= 2.
    assert_eq!(chance("1d6+2 > 1d6", &d), ratio(26, 36));
}

#[test]
fn percentile_and_constants() {
    let dist = totals("d%");
    assert_eq!(dist.len(), 100);
    assert_eq!(dist.probability(&100), ratio(1, 100));
    let dist = totals("7");
    assert_eq!(dist.probability(&7), BigRational::one());
    let dist = totals("-1d4+2");
    assert_eq!((dist.min(), dist.max()), (Some(-2), Some(1)));
}

#[test]
fn exact_work_is_refused_past_its_limit() {
    let expr = parse("1000d1000").unwrap();
    let err = exact_odds(&expr, &DiceLimits::default()).unwrap_err();
    assert!(matches!(err, DiceError::ExactTooBig { .. }), "{err:?}");
    // Within the limit is fine, and the mean is exact.
    assert_eq!(totals("100d6").mean(), ratio(350, 1));
}

// ---- pools that count hits -----------------------------------------------

/// C(n, k), computed here and not by the code under test.
fn choose(n: u32, k: u32) -> BigInt {
    (0..k).fold(BigInt::one(), |acc, i| acc * BigInt::from(n - i) / BigInt::from(i + 1))
}

#[test]
fn a_pool_that_counts_hits_is_binomial() {
    for n in 1..=8u32 {
        for at in 1..=6i64 {
            let dist = totals(&format!("{n}d6 hits {at}+"));
            let p = ratio(7 - at, 6);
            let q = BigRational::one() - &p;
            for k in 0..=n {
                let expected = BigRational::from(choose(n, k))
                    * num_traits::pow(p.clone(), k as usize)
                    * num_traits::pow(q.clone(), (n - k) as usize);
                assert_eq!(dist.probability(&i64::from(k)), expected, "{n}d6 hits {at}+ at {k}");
            }
        }
    }
    // 24 dice: a binomial of 2^24 outcomes, exact.
    let dist = totals("24d6 hits 4+");
    assert_eq!(dist.probability(&24), ratio(1, 1 << 24));
    assert_eq!(dist.probability(&12), BigRational::new(choose(24, 12), BigInt::from(1i64 << 24)));
    assert_eq!(dist.mean(), ratio(12, 1));
}

#[test]
fn hits_among_kept_dice_agree_with_every_roll_counted_by_hand() {
    for (text, n, keep_highest, kept, at) in
        [("4d6kh2 hits 5+", 4, true, 2, 5), ("4d6kl3 hits 3+", 4, false, 3, 3), ("3d6dl1 hits 4+", 3, true, 2, 4)]
    {
        let mut counts: BTreeMap<i64, i64> = BTreeMap::new();
        let rolls = all_rolls(n, 6, 1);
        for roll in &rolls {
            let mut faces = roll.clone();
            faces.sort_unstable();
            let kept_faces = if keep_highest { &faces[faces.len() - kept..] } else { &faces[..kept] };
            *counts.entry(kept_faces.iter().filter(|&&f| f >= at).count() as i64).or_default() += 1;
        }
        let dist = totals(text);
        for (hits, ways) in counts {
            assert_eq!(dist.probability(&hits), ratio(ways, rolls.len() as i64), "{text} at {hits}");
        }
    }
}

#[test]
fn hits_are_written_two_ways_and_read_back() {
    assert_eq!(parse("6d6cs>=4").unwrap(), parse("6d6 hits 4+").unwrap());
    assert_eq!(parse("6D6 HITS 4+").unwrap().to_string(), "6d6 hits 4+");
    let both = parse("6d6 hits 4+ - 3d6 hits 5+ >= 1").unwrap();
    assert_eq!(both.to_string(), "6d6 hits 4+ - 3d6 hits 5+ >= 1");
    assert_eq!(parse(&both.to_string()).unwrap(), both);
    assert_eq!(parse("2d6+1").unwrap().to_string(), "2d6+1");
}

#[test]
fn a_roll_shows_every_natural_face_and_its_hits() {
    let roll = parse("6d6 hits 4+").unwrap().roll(&mut Supplied::new([6, 5, 2, 4, 1, 3])).unwrap();
    assert_eq!(roll.to_string(), "6d6 hits 4+: [6 5 2 4 1 3 → 3 hits] = 3");
    assert_eq!((roll.total, roll.hits), (3, Some(3)));
    assert_eq!(roll.naturals().collect::<Vec<_>>(), [6, 5, 2, 4, 1, 3]);
    let roll = parse("2d6 hits 5+ - 1d6 hits 6+").unwrap().roll(&mut Supplied::new([5, 1, 6])).unwrap();
    assert_eq!(roll.to_string(), "2d6 hits 5+ - 1d6 hits 6+: [5 1 → 1 hit] - [6 → 1 hit] = 0");
    let roll = parse("4d6kh2 hits 5+").unwrap().roll(&mut Supplied::new([2, 5, 2, 6])).unwrap();
    assert_eq!(roll.to_string(), "4d6kh2 hits 5+: [(2) 5 (2) 6 → 2 hits] = 2");
    assert_eq!(parse("2d6").unwrap().roll(&mut Supplied::new([2, 5])).unwrap().hits, None);
}

#[test]
fn a_threshold_no_face_reaches_is_refused() {
    let err = parse("6d6 hits 7+").unwrap_err();
    assert!(err.to_string().contains("no face of a d6 (1-6) shows 7 or more"), "{err}");
    let err = parse("6d6cs>=4 hits 4+").unwrap_err();
    assert!(err.to_string().contains("already count hits"), "{err}");
    assert!(matches!(parse("6d6 hits 4").unwrap_err(), DiceError::Syntax { .. }));
}

#[test]
fn a_comparison_the_dice_cannot_change_says_so() {
    let note = parse("6d6>=4").unwrap().certainty_note().unwrap();
    assert_eq!(
        note,
        "`6d6 >= 4` compares the total of `6d6` with `4`: it always holds; \
         to count the dice that show 4 or more, write `6d6 hits 4+`"
    );
    assert_eq!(
        parse("1d6 > 7").unwrap().certainty_note().unwrap(),
        "`1d6 > 7` compares the total of `1d6` with `7`: it never holds"
    );
    for undecided in ["2d6 >= 8", "1d6 = 3", "2d6", "1d6 != 1d6"] {
        assert_eq!(parse(undecided).unwrap().certainty_note(), None, "{undecided}");
    }
    assert_eq!(parse("1d6 != 7").unwrap().certain(), Some(true));
    assert_eq!(parse("1d6 <= 6").unwrap().certain(), Some(true));
    assert_eq!(parse("1d6 < 1").unwrap().certain(), Some(false));
}

// ---- re-rolls ---------------------------------------------------------------

/// The chance of each face a d6 ends on when the faces `taken` are rolled again
/// once, counted here over every pair of rolls.
fn once_by_hand(taken: &[i64]) -> BTreeMap<i64, BigRational> {
    let mut ways: BTreeMap<i64, i64> = BTreeMap::new();
    for first in 1..=6 {
        for second in 1..=6 {
            let end = if taken.contains(&first) { second } else { first };
            *ways.entry(end).or_default() += 1;
        }
    }
    ways.into_iter().map(|(f, w)| (f, ratio(w, 36))).collect()
}

#[test]
fn a_die_rolled_again_once_ends_where_every_pair_of_rolls_says() {
    for (text, taken) in [("1d6r1", vec![1]), ("1d6r<3", vec![1, 2]), ("1d6r>=5", vec![5, 6]), ("1d6r<=1", vec![1])] {
        let dist = totals(text);
        for (face, p) in once_by_hand(&taken) {
            assert_eq!(dist.probability(&face), p, "{text} at {face}");
        }
    }
    // Until none: the faces it does not take, alike.
    let dist = totals("1d6rr<3");
    assert_eq!(
        (dist.probability(&1), dist.probability(&3), dist.probability(&6)),
        (ratio(0, 1), ratio(1, 4), ratio(1, 4))
    );
}

#[test]
fn re_rolled_dice_kept_or_counted_agree_with_every_roll_counted_by_hand() {
    // Each die ends on a face with the chance `once_by_hand` gives; three such dice, the highest two kept.
    let one = once_by_hand(&[1]);
    let mut expected: BTreeMap<i64, BigRational> = BTreeMap::new();
    for a in 1..=6i64 {
        for b in 1..=6i64 {
            for c in 1..=6i64 {
                let mut faces = [a, b, c];
                faces.sort_unstable();
                let p = &one[&a] * &one[&b] * &one[&c];
                *expected.entry(faces[1] + faces[2]).or_insert_with(BigRational::zero) += p;
            }
        }
    }
    let dist = totals("3d6r1kh2");
    for (total, p) in &expected {
        assert_eq!(&dist.probability(total), p, "3d6r1kh2 at {total}");
    }
    // Misses rolled again once: a hit is a 4+ at the first roll or the second, 1 - (1/2)^2.
    let dist = totals("5d6 hits 4+ reroll misses");
    let p = ratio(3, 4);
    for k in 0..=5u32 {
        let expected = BigRational::from(choose(5, k))
            * num_traits::pow(p.clone(), k as usize)
            * num_traits::pow(BigRational::one() - &p, (5 - k) as usize);
        assert_eq!(dist.probability(&i64::from(k)), expected, "at {k}");
    }
}

#[test]
fn re_rolls_are_written_as_dice_rollers_write_them_and_read_back() {
    for text in ["2d6r1", "2d6rr1", "2d6r<3", "1d6r>=5", "4d6r1kh3", "6d6 hits 4+ reroll misses", "3d6rr<2 hits 5+"] {
        let expr = parse(text).unwrap();
        assert_eq!(expr.to_string(), text);
        assert_eq!(parse(&expr.to_string()).unwrap(), expr);
    }
    // The misses of a count, re-rolled once, are one re-roll however written.
    assert_eq!(parse("6d6r<4 hits 4+").unwrap().to_string(), "6d6 hits 4+ reroll misses");
}

#[test]
fn a_re_roll_that_takes_no_face_or_never_ends_is_refused() {
    let cases = [
        ("1d6r7", "`r7` re-rolls no face of a d6 (1-6)"),
        ("1d6rr<7", "re-rolls every face of a d6 (1-6): the roll would never end"),
        ("6d6r1 hits 4+ reroll misses", "the dice already have a re-roll"),
        ("6d6 hits 1+ reroll misses", "there is no miss to re-roll"),
    ];
    for (text, message) in cases {
        let err = parse(text).unwrap_err();
        assert!(err.to_string().contains(message), "{text}: {err}");
    }
    // Supplied faces that never stop showing a re-rolled face end with an error, not a hang.
    let expr = parse("1d6rr1").unwrap();
    let err = expr.roll(&mut Supplied::new(vec![1; 2_000])).unwrap_err();
    assert!(matches!(err, DiceError::EndlessReroll { times: 1_000, .. }), "{err:?}");
}

/// A source that answers from a list and keeps what each die was asked for.
struct Asked(Vec<i64>, Vec<String>);

impl RollSource for Asked {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        self.face_for(die, "")
    }
    fn face_for(&mut self, _die: Die, what: &str) -> Result<i64, DiceError> {
        self.1.push(what.to_string());
        Ok(self.0.remove(0))
    }
    fn shows_purpose(&self) -> bool {
        true
    }
}

#[test]
fn a_roll_shows_the_faces_rolled_again_and_asks_for_them_by_name() {
    // The pool first, as at the table, then each die re-rolled in turn.
    let mut asked = Asked(vec![1, 4, 1, 5, 3, 1], Vec::new());
    let roll = parse("4d6r1").unwrap().roll_for(&mut asked, "volley").unwrap();
    assert_eq!(roll.to_string(), "4d6r1: [1↻3 4 1↻1 5] = 13");
    assert_eq!(
        asked.1,
        [
            "volley, die 1 of 4",
            "volley, die 2 of 4",
            "volley, die 3 of 4",
            "volley, die 4 of 4",
            "volley, re-roll of die 1 of 4",
            "volley, re-roll of die 3 of 4"
        ]
    );
    // The faces that count are the ones the dice ended on.
    assert_eq!(roll.naturals().collect::<Vec<_>>(), [3, 4, 1, 5]);
    assert!(roll.has_natural(6, 1) && !roll.has_natural(6, 6));
    let roll = parse("2d6rr1kh1").unwrap().roll(&mut Supplied::new([1, 6, 1, 2])).unwrap();
    assert_eq!(roll.to_string(), "2d6rr1kh1: [1↻1↻(2) 6] = 6");
}

// ---- dice with faces of their own ---------------------------------------------

/// The chance of each total of `count` dice showing `faces`, keeping the highest `kept`, by hand.
fn custom_by_hand(faces: &[i64], count: u32, kept: usize) -> BTreeMap<i64, BigRational> {
    let rolls = all_rolls(count, faces.len() as i64, 0);
    let mut ways: BTreeMap<i64, i64> = BTreeMap::new();
    for roll in &rolls {
        let mut shown: Vec<i64> = roll.iter().map(|&i| faces[i as usize]).collect();
        shown.sort_unstable();
        *ways.entry(shown[shown.len() - kept..].iter().sum()).or_default() += 1;
    }
    ways.into_iter().map(|(t, w)| (t, ratio(w, rolls.len() as i64))).collect()
}

#[test]
fn a_die_with_faces_of_its_own_agrees_with_every_roll_counted_by_hand() {
    let average = [2, 3, 3, 4, 4, 5];
    for (text, faces, count, kept) in [
        ("d{2,3,3,4,4,5}", &average[..], 1, 1),
        ("3d{2,3,3,4,4,5}", &average[..], 3, 3),
        ("3d{2,3,3,4,4,5}kh2", &average[..], 3, 2),
        ("4d{-1,-1,0,0,1,1}", &[-1, -1, 0, 0, 1, 1][..], 4, 4),
        ("2d{1,1,10}", &[1, 1, 10][..], 2, 2),
    ] {
        let dist = totals(text);
        let expected = custom_by_hand(faces, count, kept);
        assert_eq!(dist.len(), expected.len(), "{text}");
        for (total, p) in &expected {
            assert_eq!(&dist.probability(total), p, "{text} at {total}");
        }
    }
    // Counted, re-rolled and exploding as any die: the average die hits 4+ on 3 sides of 6.
    assert_eq!(totals("2d{2,3,3,4,4,5} hits 4+").probability(&2), ratio(1, 4));
    assert_eq!(totals("d{2,3,3,4,4,5}r2").probability(&2), ratio(1, 36));
    assert_eq!(totals("d{1,2,3,3}!1").probability(&6), ratio(1, 4));
}

#[test]
fn a_die_with_faces_of_its_own_is_written_read_back_rolled_and_checked() {
    for text in ["1d{2,3,3,4,4,5}", "2d{-1,0,1}", "3d{2,3,3,4,4,5}kh2 hits 4+", "1d{1,1,2}r1"] {
        let expr = parse(text).unwrap();
        assert_eq!(expr.to_string(), text);
        assert_eq!(parse(&expr.to_string()).unwrap(), expr);
    }
    // Faces are kept in order, whatever order they are written in.
    assert_eq!(parse("d{5,2,3,4,3,4}").unwrap(), parse("d{2,3,3,4,4,5}").unwrap());
    let roll = parse("2d{-1,0,1}").unwrap().roll(&mut Supplied::new([1, -1])).unwrap();
    assert_eq!(roll.to_string(), "2d{-1,0,1}: [1 -1] = 0");
    let err = parse("d{2,3,3,4,4,5}").unwrap().roll(&mut Supplied::new([6])).unwrap_err();
    assert!(err.to_string().contains("face 6 cannot be rolled on a d{2,3,3,4,4,5}"), "{err}");
    assert!(parse("d{3}").unwrap_err().to_string().contains("at least 2 sides"));
    assert!(parse("d{99999999999}").unwrap_err().to_string().contains("a face is at most"));
    assert!(matches!(parse("d{}").unwrap_err(), DiceError::Syntax { .. }));
    assert!(parse("d{2,3,3,4,4,5} hits 6+").unwrap_err().to_string().contains("no face of a d{2,3,3,4,4,5} shows 6"));
}

// ---- dice a ruleset names, and the d66 ----------------------------------------

fn named_totals(expr: &str) -> Distribution<i64> {
    match exact_odds(&read(expr), &DiceLimits::default()).unwrap() {
        Odds::Totals(d) => d,
        Odds::Chance(_) => panic!("{expr} is not a sum"),
    }
}

#[test]
fn a_named_die_is_its_faces_counted_by_hand() {
    let average = [2, 3, 3, 4, 4, 5];
    for (text, count, kept) in [("avg", 1, 1), ("3avg", 3, 3), ("3d{avg}kh2", 3, 2)] {
        let dist = named_totals(text);
        let expected = custom_by_hand(&average, count, kept);
        assert_eq!(dist.len(), expected.len(), "{text}");
        for (total, p) in &expected {
            assert_eq!(&dist.probability(total), p, "{text} at {total}");
        }
    }
    // Three sides of six hit on 4+: two dice both hit a quarter of the time.
    assert_eq!(named_totals("2avg hits 4+").probability(&2), ratio(1, 4));
    // The same die written by its faces has the same odds.
    assert_eq!(named_totals("2avg + 1"), named_totals("2d{2,3,3,4,4,5}+1"));
}

#[test]
fn a_named_die_is_written_read_back_and_rolled_by_its_name() {
    for text in ["avg", "2avg", "2d{avg}kh1", "3avg hits 4+", "2d{avg}r2+1", "1d66", "2d66r11"] {
        let expr = read(text);
        assert_eq!(expr.to_string(), text);
        assert_eq!(read(&expr.to_string()), expr);
    }
    // `1avg` is `avg`; braces without a modifier print bare.
    assert_eq!(read("1avg").to_string(), "avg");
    assert_eq!(read("d{avg}").to_string(), "avg");
    let roll = read("2avg").roll(&mut Supplied::new([5, 2])).unwrap();
    assert_eq!(roll.to_string(), "2avg: [5 2] = 7");
    let err = read("avg").roll(&mut Supplied::new([6])).unwrap_err();
    assert!(err.to_string().contains("face 6 cannot be rolled on a avg (2,3,3,4,4,5)"), "{err}");
}

#[test]
fn a_name_no_ruleset_gave_is_refused_with_the_nearest() {
    let conventions = named_conventions();
    let err = |text: &str| parse_with(text, &conventions, &DiceLimits::default()).unwrap_err();
    let avgg = render_plain(&err("2avgg"));
    assert!(avgg.contains("no die is named `avgg` (did you mean `avg`?)"), "{avgg}");
    assert!(avgg.contains("the dice this ruleset names: `avg`"), "{avgg}");
    // A modifier glued to a bare name is read as part of it: the hint shows the braces.
    let glued = render_plain(&err("2avgkh1"));
    assert!(glued.contains("`2d{avg}kh1`"), "{glued}");
    // Without named dice, a word is not dice at all, and a `d` wants its faces.
    let plain = format!("{:?}", parse("avg").unwrap_err());
    assert!(plain.contains("`avg` is not dice notation, nor a die the rules in use name"), "{plain}");
    assert!(plain.contains("`dice: { avg: [2,3,3,4,4,5] }`"), "{plain}");
    let dx = render_plain(&parse("2dx").unwrap_err());
    assert!(dx.contains("a `d` is followed by its number of faces"), "{dx}");
    assert!(parse("d{avg}").unwrap_err().to_string().contains("`avg` is not dice notation"));
}

#[test]
fn a_d66_is_tens_and_units_when_the_rules_say_so() {
    // Unsaid, `d66` is refused: games read it two ways.
    let refused = format!("{:?}", parse("d66").unwrap_err());
    assert!(refused.contains("a d66 is read two ways"), "{refused}");
    assert!(refused.contains("`dice: { d66: tens-and-units }`"), "{refused}");
    // Tens and units: 36 results, each 1 in 36, from 11 to 66 with no 17-20, 27-30...
    let dist = named_totals("d66");
    assert_eq!(dist.len(), 36);
    for tens in 1..=6 {
        for units in 1..=6 {
            assert_eq!(dist.probability(&(tens * 10 + units)), ratio(1, 36));
        }
    }
    assert!(dist.probability(&20).is_zero() && dist.probability(&17).is_zero());
    // 41 or more: tens of 4, 5 or 6 (18 of 36); 35 or less: tens below 3, or 31-35 (17).
    let chance = |text: &str| match exact_odds(&read(text), &DiceLimits::default()).unwrap() {
        Odds::Chance(d) => d.probability(&true),
        Odds::Totals(_) => panic!("{text}"),
    };
    assert_eq!(chance("d66 >= 41"), ratio(1, 2));
    assert_eq!(chance("d66 <= 35"), ratio(17, 36));
    // A d66 is typed at the table as its two digits, tens first.
    let roll = read("d66").roll(&mut Supplied::new([35])).unwrap();
    assert_eq!(roll.to_string(), "1d66: [35] = 35");
    assert!(read("d66").roll(&mut Supplied::new([37])).is_err());
    // Read as one die of 66 faces, it is that.
    let sides = DiceConventions { d66: Some(D66Reading::Sides), ..Default::default() };
    let expr = parse_with("d66", &sides, &DiceLimits::default()).unwrap();
    assert_eq!(expr.left.max(), 66);
    assert_eq!(expr.left.min(), 1);
}

#[test]
fn a_name_that_would_read_as_notation_cannot_name_a_die() {
    assert_eq!(die_name_problem("avg"), None);
    assert_eq!(die_name_problem("dF"), None);
    assert!(die_name_problem("d6").unwrap().contains("already dice notation"));
    assert!(die_name_problem("hits").unwrap().contains("a word of dice notation"));
    assert!(die_name_problem("2avg").unwrap().contains("a letter, then letters"));
    assert!(die_name_problem("av-g").unwrap().contains("a letter, then letters"));
}

// ---- exploding dice ---------------------------------------------------------

/// Every way one d6 exploding on `takes` at most `depth` times can go, with its chance, by hand.
fn explosions_by_hand(takes: fn(i64) -> bool, depth: u32) -> BTreeMap<i64, BigRational> {
    let mut out: BTreeMap<i64, BigRational> = BTreeMap::new();
    fn go(total: i64, p: BigRational, left: u32, takes: fn(i64) -> bool, out: &mut BTreeMap<i64, BigRational>) {
        for face in 1..=6 {
            let p = &p * ratio(1, 6);
            if takes(face) && left > 0 {
                go(total + face, p, left - 1, takes, out);
            } else {
                *out.entry(total + face).or_insert_with(BigRational::zero) += p;
            }
        }
    }
    go(0, BigRational::one(), depth, takes, &mut out);
    out
}

#[test]
fn an_exploding_die_agrees_with_every_chain_of_rolls_counted_by_hand() {
    for (text, takes, depth) in [
        ("1d6!", (|f| f == 6) as fn(i64) -> bool, DEFAULT_EXPLODE_DEPTH),
        ("1d6!2", |f| f == 6, 2),
        ("1d6!>=5", |f| f >= 5, DEFAULT_EXPLODE_DEPTH),
        ("1d6!>4", |f| f > 4, DEFAULT_EXPLODE_DEPTH),
    ] {
        let dist = totals(text);
        let expected = explosions_by_hand(takes, depth);
        assert_eq!(dist.len(), expected.len(), "{text}");
        for (total, p) in &expected {
            assert_eq!(&dist.probability(total), p, "{text} at {total}");
        }
    }
    // The mean of a d6 exploding on 6 at most n times: 3.5 (1 + 1/6 + ... + 1/6^n).
    let mean: BigRational = (0..=2).map(|k| ratio(7, 2) * num_traits::pow(ratio(1, 6), k)).sum();
    assert_eq!(totals("1d6!2").mean(), mean);
    // Two dice: the convolution of two.
    let one = explosions_by_hand(|f| f == 6, 1);
    let two = totals("2d6!1");
    for (a, pa) in &one {
        for (b, pb) in &one {
            assert!(two.probability(&(a + b)) >= pa * pb);
        }
    }
    assert_eq!(two.total(), BigRational::one());
}

#[test]
fn exploding_dice_are_written_read_back_rolled_and_asked_for_by_name() {
    for text in ["1d6!", "3d6!", "1d6!3", "2d6!>=5", "1d10!>8+2", "1d6! != 3"] {
        let expr = parse(text).unwrap();
        assert_eq!(expr.to_string(), text);
        assert_eq!(parse(&expr.to_string()).unwrap(), expr);
    }
    assert_eq!(parse("1d6!>=6").unwrap(), parse("1d6!").unwrap());
    // `!=` is still a comparison.
    assert!(parse("1d6!=3").unwrap().is_chance());
    let mut asked = Asked(vec![6, 3, 6, 2], Vec::new());
    let roll = parse("2d6!").unwrap().roll_for(&mut asked, "charge").unwrap();
    assert_eq!(roll.to_string(), "2d6!: [6!6!2 3] = 17");
    assert_eq!(
        asked.1,
        [
            "charge, die 1 of 2",
            "charge, die 2 of 2",
            "charge, explosion of die 1 of 2",
            "charge, explosion of die 1 of 2"
        ]
    );
    assert_eq!(roll.naturals().collect::<Vec<_>>(), [6, 6, 2, 3]);
    // At most the stated number of times: the last 6 stops.
    assert_eq!(parse("1d6!1").unwrap().roll(&mut Supplied::new([6, 6])).unwrap().total, 12);
}

#[test]
fn explosions_that_cannot_happen_or_mean_different_things_are_refused() {
    for (text, message) in [
        ("1d6!>=7", "explodes on no face of a d6 (1-6)"),
        ("1d6!>=1", "explodes on every face"),
        ("1d6!0", "would never explode"),
        ("1d6!101", "at most 100 times"),
        ("4d6!kh3", "cannot also be kept or dropped"),
        ("2d6!r1", "cannot also be re-rolled"),
        ("6d6! hits 4+", "cannot also be counted as hits"),
        ("6d6!cs>=4", "cannot also be counted as hits"),
    ] {
        let err = parse(text).unwrap_err();
        assert!(err.to_string().contains(message), "{text}: {err}");
    }
}

// ---- multiplied and divided ------------------------------------------------

#[test]
fn a_term_multiplied_or_divided_agrees_with_every_roll_counted_by_hand() {
    for (text, f) in [("2d6*2", (|t: i64| t * 2) as fn(i64) -> i64), ("2d6/3", |t| t / 3), ("2d6/2+1", |t| t / 2 + 1)] {
        let mut ways: BTreeMap<i64, i64> = BTreeMap::new();
        for roll in all_rolls(2, 6, 1) {
            *ways.entry(f(roll.iter().sum())).or_default() += 1;
        }
        let dist = totals(text);
        assert_eq!(dist.len(), ways.len(), "{text}");
        for (total, w) in ways {
            assert_eq!(dist.probability(&total), ratio(w, 36), "{text} at {total}");
        }
    }
    // Counts scale as totals do: two points a hit, less half a d6 rounded down.
    let dist = totals("2d6 hits 4+ * 2 - 1d6/2");
    assert_eq!(dist.probability(&4), ratio(1, 4) * ratio(1, 6));
    assert_eq!((dist.min(), dist.max()), (Some(-3), Some(4)));
}

#[test]
fn scales_are_written_read_back_and_rolled() {
    for text in ["2d6*2", "1d6/2", "3d6-1d4*2+2", "2d6*2 >= 8", "6d6 hits 4+ * 2 - 1d6 / 2"] {
        let expr = parse(text).unwrap();
        assert_eq!(expr.to_string(), text);
        assert_eq!(parse(&expr.to_string()).unwrap(), expr);
    }
    assert_eq!(parse("2d6 * 2").unwrap().to_string(), "2d6*2");
    let roll = parse("2d6*2+1").unwrap().roll(&mut Supplied::new([3, 5])).unwrap();
    assert_eq!((roll.to_string().as_str(), roll.total), ("2d6*2+1: [3 5]*2 + 1 = 17", 17));
    assert_eq!(parse("1d6/2").unwrap().roll(&mut Supplied::new([5])).unwrap().total, 2);
    assert!(parse("1d6/0").unwrap_err().to_string().contains("division by 0"));
    assert!(parse("1d6*0").unwrap_err().to_string().contains("multiplying by 0"));
}

// ---- the enumerator ------------------------------------------------------

#[test]
fn enumerating_an_expression_matches_its_exact_odds() {
    for text in
        ["2d6", "4d6kh3", "3d6-1d4+2", "1d10 - 1d10", "2d6 >= 8", "1d8dl0", "4d6 hits 4+", "3d6kl2 hits 3+ - 1d6"]
    {
        let Ok(expr) = parse(text) else { continue };
        let walked = enumerate(EnumLimits::default(), |src| expr.value(src)).unwrap();
        match exact_odds(&expr, &DiceLimits::default()).unwrap() {
            Odds::Totals(dist) => {
                assert_eq!(walked.len(), dist.len(), "{text}");
                for (v, p) in dist.iter() {
                    assert_eq!(walked.probability(v), p, "{text} at {v}");
                }
            }
            Odds::Chance(dist) => {
                assert_eq!(walked.probability(&1), dist.probability(&true), "{text}")
            }
        }
    }
}

#[test]
fn enumerating_a_varying_number_of_dice() {
    // Roll a d6; on a 6 roll again and add (once). Each branch weighs what its dice weigh.
    let dist = enumerate(EnumLimits::default(), |src| {
        let first = src.face(Die::standard(6))?;
        if first == 6 { Ok::<_, DiceError>(6 + src.face(Die::standard(6))?) } else { Ok(first) }
    })
    .unwrap();
    assert_eq!(dist.probability(&5), ratio(1, 6));
    assert_eq!(dist.probability(&7), ratio(1, 36));
    assert_eq!(dist.probability(&6), BigRational::zero());
    assert_eq!(dist.total(), BigRational::one());
}

#[test]
fn a_loop_cut_off_leaves_a_residual() {
    // "Re-roll ties": two d6 until they differ. Cut at 4 dice (two rounds).
    let limits = EnumLimits { max_depth: 4, ..EnumLimits::default() };
    let dist = enumerate(limits, |src| {
        loop {
            let a = src.face(Die::standard(6))?;
            let b = src.face(Die::standard(6))?;
            if a != b {
                return Ok::<_, DiceError>(a > b);
            }
        }
    })
    .unwrap();
    // Ties twice in a row: (1/6)^2 is cut off; the rest splits evenly.
    assert_eq!(dist.residual(), ratio(1, 36));
    assert_eq!(dist.probability(&true), ratio(35, 72));
    assert_eq!(dist.total() + dist.residual(), BigRational::one());
}

#[test]
fn a_swallowed_cut_off_still_counts_as_residual() {
    let limits = EnumLimits { max_depth: 1, ..EnumLimits::default() };
    let dist = enumerate(limits, |src| {
        let a = src.face(Die::standard(2))?;
        // The computation ignores the refusal and answers anyway.
        let b = src.face(Die::standard(2)).unwrap_or(0);
        Ok::<_, DiceError>(a + b)
    })
    .unwrap();
    assert_eq!(dist.residual(), BigRational::one());
}

#[test]
fn too_many_outcomes_is_an_error() {
    let limits = EnumLimits { max_outcomes: 100, ..EnumLimits::default() };
    let expr = parse("3d6").unwrap();
    let err = enumerate(limits, |src| expr.value(src)).unwrap_err();
    assert_eq!(err, DiceError::TooManyOutcomes { limit: 100 });
}

#[test]
fn a_computation_that_is_not_a_function_of_its_dice_is_caught() {
    let mut calls = 0;
    let err = enumerate(EnumLimits::default(), |src| {
        calls += 1;
        let sides = if calls == 1 { 6 } else { 8 };
        src.face(Die::standard(sides))
    })
    .unwrap_err();
    assert!(matches!(err, DiceError::Nondeterministic { .. }), "{err:?}");
}

// ---- properties ----------------------------------------------------------

fn small_expr() -> impl Strategy<Value = String> {
    let pool = (1u32..4, prop::sample::select(vec![2u32, 3, 4, 6, 8, 10]), 0u8..5, 0u8..4, 1u32..11).prop_map(
        |(n, s, k, h, at)| {
            let keep = match k {
                1 => format!("kh{}", n.max(1)),
                2 => "kl1".to_string(),
                3 if n > 1 => "dl1".to_string(),
                _ => String::new(),
            };
            // Some pools count the dice that hit, written either way; some re-roll.
            let at = at.min(s);
            let reroll = match (at % 4, h) {
                (0, _) => "r1",
                (1, 0) => "rr<2",
                (2, 1) => "r>=2",
                _ => "",
            };
            // Plain pools sometimes explode, at most twice (a d2 explodes often).
            let explode = if keep.is_empty() && reroll.is_empty() && h < 2 && at % 3 == 0 { "!2" } else { "" };
            match h {
                2 => format!("{n}d{s}{reroll}{keep} hits {at}+"),
                3 => format!("{n}d{s}{reroll}{keep}cs>={at}"),
                _ => format!("{n}d{s}{explode}{reroll}{keep}"),
            }
        },
    );
    let pool = (pool, 0u8..6).prop_map(|(p, k)| match k {
        0 => format!("{p}*2"),
        1 => format!("{p}/3"),
        _ => p,
    });
    let term = prop_oneof![3 => pool, 1 => (0i64..20).prop_map(|c| c.to_string())];
    let sum = (term.clone(), prop::collection::vec((any::<bool>(), term), 0..2)).prop_map(|(first, rest)| {
        let mut s = first;
        for (neg, t) in rest {
            s += if neg { " - " } else { " + " };
            s += &t;
        }
        s
    });
    let cmp = prop::option::of((prop::sample::select(vec![">=", "<=", ">", "<", "=", "!="]), 0i64..15));
    (sum, cmp).prop_map(|(s, c)| match c {
        Some((op, v)) => format!("{s} {op} {v}"),
        None => s,
    })
}

/// Conventions that name the average die `avg` and read `d66` as tens and units.
fn named_conventions() -> DiceConventions {
    let mut conventions = DiceConventions { d66: Some(D66Reading::TensAndUnits), ..Default::default() };
    conventions.named.insert("avg".into(), Die::named("avg", &[2, 3, 3, 4, 4, 5]).unwrap());
    conventions
}

/// Reads `text` with the named dice of `named_conventions`.
fn read(text: &str) -> DiceExpr {
    parse_with(text, &named_conventions(), &DiceLimits::default()).unwrap()
}

/// Expressions of named dice and d66s, each form they may take.
fn named_expr() -> impl Strategy<Value = String> {
    (1u32..4, 0u8..8, 2i64..6, 11i64..67, prop::option::of((any::<bool>(), 1u32..3))).prop_map(
        |(n, form, at, at66, extra)| {
            let pool = match form {
                0 => format!("{n}avg"),
                1 => format!("{n}d{{avg}}kh1"),
                2 => format!("{n}avg hits {at}+"),
                3 => format!("{n}d{{avg}}r<3"),
                4 => format!("{n}d{{avg}}!>=5"),
                5 => format!("{n}d66"),
                6 => format!("{n}d66 hits {at66}+"),
                _ => format!("{n}d66r11"),
            };
            match extra {
                Some((true, m)) => format!("{pool} + {m}avg"),
                Some((false, m)) => format!("{pool} >= {}", m * 4),
                None => pool,
            }
        },
    )
}

/// Any expression the properties hold for: plain dice, and named ones.
fn any_expr() -> impl Strategy<Value = String> {
    prop_oneof![4 => small_expr(), 1 => named_expr()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_any_string(text in "\\PC{0,40}") {
        let _ = parse(&text);
    }

    #[test]
    fn never_panics_on_dice_like_strings(text in "[0-9dDkKhHlLrRcsitm%+\\- <>=!]{0,24}") {
        if let Ok(expr) = parse(&text) {
            let _ = expr.roll(&mut Seeded::new(1));
        }
    }

    #[test]
    fn printing_and_reparsing_gives_the_same_expression(text in any_expr()) {
        let expr = read(&text);
        prop_assert_eq!(read(&expr.to_string()), expr);
    }

    #[test]
    fn rolls_stay_within_min_and_max(text in any_expr(), seed in any::<u64>()) {
        let expr = read(&text);
        let mut source = Seeded::new(seed);
        for _ in 0..20 {
            let roll = expr.roll(&mut source).unwrap();
            prop_assert!(expr.left.min() <= roll.total && roll.total <= expr.left.max(), "{roll}");
            for d in &roll.dice {
                prop_assert!(d.die.has_face(d.natural));
            }
        }
    }

    #[test]
    fn exact_odds_sum_to_one(text in any_expr()) {
        let expr = read(&text);
        let total = match exact_odds(&expr, &DiceLimits::default()).unwrap() {
            Odds::Totals(d) => d.total(),
            Odds::Chance(d) => d.total(),
        };
        prop_assert_eq!(total, BigRational::one());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn exact_odds_agree_with_sampling(text in any_expr(), seed in any::<u64>()) {
        let expr = read(&text);
        let dist = match exact_odds(&expr, &DiceLimits::default()).unwrap() {
            Odds::Totals(d) => d,
            Odds::Chance(d) => d.map(i64::from),
        };
        let n = 4_000;
        let mut seen: BTreeMap<i64, u32> = BTreeMap::new();
        let mut source = Seeded::new(seed);
        for _ in 0..n {
            *seen.entry(expr.value(&mut source).unwrap()).or_default() += 1;
        }
        for (value, p) in dist.iter() {
            let p = to_f64(&p);
            let observed = f64::from(seen.get(value).copied().unwrap_or(0)) / f64::from(n);
            // Six standard errors, plus a little for the tiniest chances.
            let tolerance = 6.0 * (p * (1.0 - p) / f64::from(n)).sqrt() + 1e-3;
            prop_assert!((observed - p).abs() <= tolerance, "{} at {}: exact {} sampled {}", text, value, p, observed);
        }
        for value in seen.keys() {
            prop_assert!(!dist.probability(value).is_zero(), "{} sampled impossible {}", text, value);
        }
    }
}
