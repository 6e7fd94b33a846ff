//! Lengths and table geometry for Rhai: `length("1-1/2\"")`, a unit's `footprint`, `distance`, `in_arc`, `aspect`, `overlap`, `contact`, `run_in`.

use rhai::{Array, Dynamic, Engine, EvalAltResult, Map};

use crate::measure::{
    Footprint, Point, aspect, contact_length, distance, in_arc, overlap, parse_length, run_in, within,
};
use crate::script::error::fail;
use crate::script::handles::UnitRef;
use crate::script::state::Shared;
use crate::unit::{Placement, Unit};

/// The most stands a footprint lays out: more is a slip of the keyboard, not a unit.
const MAX_STANDS: u32 = 1_000;

pub fn register(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    engine.register_fn("length", move |text: &str| -> Result<f64, Box<EvalAltResult>> {
        let scale = st.borrow().ruleset.scale;
        parse_length(text, &scale).map(|l| l.inches()).map_err(|e| e.to_string().into())
    });
    let st = state.clone();
    engine.register_fn("on_table", move |text: &str| -> Result<f64, Box<EvalAltResult>> {
        let scale = st.borrow().ruleset.scale;
        parse_length(text, &scale).map(|l| scale.on_table(l).inches()).map_err(|e| e.to_string().into())
    });
    engine.register_fn("within", |distance: f64, limit: f64| within(distance, limit));
    engine.register_fn("within", |distance: i64, limit: i64| within(distance as f64, limit as f64));
    engine.register_fn("within", |distance: f64, limit: i64| within(distance, limit as f64));

    engine
        .register_type_with_name::<Footprint>("Footprint")
        .register_get("count", |f: &mut Footprint| f.stands.len() as i64)
        .register_fn("to_string", |f: &mut Footprint| format!("{} stand(s)", f.stands.len()));
    engine.register_get("placed", |u: &mut UnitRef| placed(&u.0.borrow()));

    // footprint(unit, frontage, depth, wide): the unit's stands as laid out on the
    // table, from its placement (the centre of its front edge, and its facing), in
    // rows of `wide` stands of `frontage` by `depth` inches.
    engine.register_fn(
        "footprint",
        |unit: UnitRef, frontage: f64, depth: f64, wide: i64| -> Result<Footprint, Box<EvalAltResult>> {
            let u = unit.0.borrow();
            let Some(place) = u.placement else {
                return fail(format!(
                    "{} has no placement on the table: give it placement: #{{x: .., y: .., facing: ..}}",
                    u.name
                ));
            };
            lay_out(&u, place, frontage, depth, wide)
        },
    );
    // footprint(unit, frontage, depth, wide, at): the same laid out at `at`
    // (#{x, y, facing}) instead of where the unit stands: a unit along its path.
    engine.register_fn(
        "footprint",
        |unit: UnitRef, frontage: f64, depth: f64, wide: i64, at: Map| -> Result<Footprint, Box<EvalAltResult>> {
            let u = unit.0.borrow();
            lay_out(&u, place_from(&at)?, frontage, depth, wide)
        },
    );
    engine.register_fn("stands", |f: Footprint| -> Array {
        f.stands.iter().map(|s| Dynamic::from(Footprint::new(vec![*s]))).collect()
    });
    engine.register_fn("front", |f: Footprint, n: i64| f.front(n.max(0) as usize));
    engine.register_fn("distance", |a: Footprint, b: Footprint| distance(&a, &b));
    // in_arc(stand, degrees, target): whether the target lies in the arc projected from the
    // stand's front edge (the first stand of `stand`).
    engine.register_fn(
        "in_arc",
        |stand: Footprint, degrees: f64, target: Footprint| -> Result<bool, Box<EvalAltResult>> {
            match stand.stands.first() {
                Some(base) => Ok(in_arc(base, degrees, &target)),
                None => fail("in_arc needs a stand to fire from"),
            }
        },
    );
    engine.register_fn(
        "in_arc",
        |stand: Footprint, degrees: i64, target: Footprint| -> Result<bool, Box<EvalAltResult>> {
            match stand.stands.first() {
                Some(base) => Ok(in_arc(base, degrees as f64, &target)),
                None => fail("in_arc needs a stand to fire from"),
            }
        },
    );
    // contact(a, b): inches of boundary the two footprints share (0 at a corner or apart).
    engine.register_fn("contact", |a: Footprint, b: Footprint| contact_length(&a, &b));
    // run_in([#{x: 0, y: 0}, #{x: 0, y: 7}]): the last straight stretch of a charge's path, in inches.
    engine.register_fn("run_in", |path: Array| -> Result<f64, Box<EvalAltResult>> {
        let mut points = Vec::with_capacity(path.len());
        for (i, p) in path.into_iter().enumerate() {
            let map =
                p.try_cast::<Map>().ok_or_else(|| format!("run_in: point {i} of the path is not #{{x: .., y: ..}}"))?;
            let coord = |key: &str| -> Result<f64, Box<EvalAltResult>> {
                let v = map.get(key).cloned().unwrap_or(Dynamic::UNIT);
                v.as_float()
                    .or_else(|_| v.as_int().map(|n| n as f64))
                    .map_err(|_| format!("run_in: point {i} of the path needs a number `{key}`").into())
            };
            points.push(Point::new(coord("x")?, coord("y")?));
        }
        Ok(run_in(&points))
    });
    // overlap(defender, attacker, base_width): how far the attacker's frontage passes the
    // defender's on each flank, in base widths: #{left, right} (Republique rule 501).
    engine.register_fn(
        "overlap",
        |defender: Footprint, attacker: Footprint, base_width: f64| -> Result<Map, Box<EvalAltResult>> {
            let Some(first) = defender.stands.first() else { return fail("overlap needs a defender with stands") };
            let o = overlap(&defender, first.facing, &attacker, base_width);
            let mut map = Map::new();
            map.insert("left".into(), Dynamic::from(o.left));
            map.insert("right".into(), Dynamic::from(o.right));
            Ok(map)
        },
    );
    // aspect(target, viewer): "front", "left_flank", "right_flank" or "rear" of the target as the viewer sees it.
    engine.register_fn("aspect", |target: Footprint, viewer: Footprint| -> Result<String, Box<EvalAltResult>> {
        let Some(first) = target.stands.first() else { return fail("aspect needs a target with stands") };
        let seen = aspect(&target, first.facing, &viewer);
        Ok(serde_json::to_value(seen).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default())
    });
}

/// A unit's stands laid out at `place`, in rows of `wide` stands of `frontage` by `depth` inches.
fn lay_out(u: &Unit, place: Placement, frontage: f64, depth: f64, wide: i64) -> Result<Footprint, Box<EvalAltResult>> {
    if u.stands > MAX_STANDS {
        return fail(format!("{} has {} stands: a footprint is laid out for at most {MAX_STANDS}", u.name, u.stands));
    }
    if !(frontage > 0.0 && depth > 0.0) || wide < 1 {
        return fail(format!(
            "a stand is some inches wide and deep, and a row at least 1 stand: not {frontage} x {depth}, {wide} wide"
        ));
    }
    if !(place.x.is_finite() && place.y.is_finite() && place.facing.is_finite()) {
        return fail(format!("a place on the table is finite inches and degrees, not {place:?}"));
    }
    let front = Point::new(place.x, place.y);
    Ok(Footprint::block(u.stands as usize, wide as usize, front, place.facing, frontage, depth))
}

/// A place on the table from `#{x: 3, y: 4.5, facing: 90}`: numbers whole or
/// not, in inches and degrees; `facing` 0 when not given.
pub(crate) fn place_from(at: &Map) -> Result<Placement, String> {
    let number = |key: &str, default: Option<f64>| -> Result<f64, String> {
        match at.get(key) {
            None => default.ok_or_else(|| format!("a place on the table needs `{key}`: #{{x: .., y: .., facing: ..}}")),
            Some(v) => v
                .as_float()
                .or_else(|_| v.as_int().map(|n| n as f64))
                .map_err(|t| format!("`{key}` of a place on the table is a number, not {t}")),
        }
    };
    if let Some(key) = at.keys().find(|k| !matches!(k.as_str(), "x" | "y" | "facing")) {
        return Err(format!("a place on the table has x, y and facing, not `{key}`"));
    }
    Ok(Placement { x: number("x", None)?, y: number("y", None)?, facing: number("facing", Some(0.0))? })
}

/// `unit.placed`: whether the unit stands on the table.
pub(crate) fn placed(u: &Unit) -> bool {
    u.placement.is_some()
}
