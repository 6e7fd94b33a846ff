//! Rules read as the seed says (issue 39): a marker set is read where the seed
//! says it matters, a number that is in a table is read from it, and a rule in
//! the data is applied. Each test is worked by hand with real values.

use crate::support::{error_debug, fails, map_and_trace, run, lw};

/// Seed 003, L203 (RETREAT).
const SEED_RETREAT_GUNS: &str = "Gunners abandon their guns in a retreat.";
/// Seed 003, L183 (Civilian Teams and Drivers for Limbers).
const SEED_TEAMS: &str = "taking their hired teams with them and stranding your guns";

const BATTERY: &str = r#"let b = unit(#{name: "Bty", nation: "austria", arm: "artillery", type: "light", grade: "4", stands: 2, formation: "unlimbered"});
    let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "line"});"#;

#[test]
fn abandoned_guns_neither_fire_nor_limber() {
    assert!(SEED_RETREAT_GUNS.contains("abandon their guns"));
    let host = lw();
    // Before the Retreat: 2 light stands at 4" (close, 4 FP a stand) = 8 fire points, one die.
    let (v, lines, _) = map_and_trace(run(&host, &[1], &format!("{BATTERY} fire(b, t, #{{range: 4}})")));
    assert_eq!(v["fire_points"].as_float().unwrap(), 8.0, "{lines:#?}");
    // A Retreat marks the guns abandoned (no die: a Retreat moves at its full rate):
    // the battery cannot fire, and no die is rolled.
    let (v, lines, _) = map_and_trace(run(
        &host,
        &[],
        &format!(r#"{BATTERY} mandatory_move(b, "retreat", #{{}}); fire(b, t, #{{range: 4}})"#),
    ));
    assert_eq!((v["result"].to_string(), v["reason"].to_string()), ("no_fire".into(), "guns_abandoned".into()));
    assert!(lines.iter().any(|l| l.contains("abandoned their guns in a retreat")), "{lines:#?}");
    // Nor limber (or unlimber) them.
    for change in ["limber", "unlimber"] {
        let formation = if change == "limber" { "unlimbered" } else { "limbered" };
        let e = error_debug(
            &host,
            &format!(
                r#"let b = unit(#{{name: "Bty", arm: "artillery", type: "light", grade: "4", stands: 2, formation: "{formation}"}});
                mandatory_move(b, "retreat", #{{}}); formation_change(b, "{change}", #{{}})"#
            ),
        );
        assert!(e.contains("Bty's gunners abandoned their guns in a retreat") && e.contains(change), "{e}");
    }
}

#[test]
fn guns_whose_teams_fled_cannot_limber() {
    assert!(SEED_TEAMS.contains("stranding your guns"));
    let host = lw();
    // Grade 4 light guns limber in 25% of their 12" limbered move: 3".
    let (v, _, _) = map_and_trace(run(&host, &[], &format!(r#"{BATTERY} formation_change(b, "limber", #{{}})"#)));
    assert_eq!((v["done"].as_bool().unwrap(), v["cost"].as_float().unwrap()), (true, 3.0));
    // Austrian drivers in 1745 are civilian: as Disordered Militia a 3 reads 2, Retreat:
    // the teams flee, and the guns can no longer limber.
    let e = fails(
        &host,
        &[3],
        &format!(r#"{BATTERY} let d = drivers_under_fire(b, 1745); if !d.teams_fled {{ throw "no flight"; }} formation_change(b, "limber", #{{}})"#),
    );
    assert!(e.contains("Bty's civilian drivers fled with the teams") && e.contains(SEED_TEAMS), "{e}");
}
