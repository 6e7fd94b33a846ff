//! Units and leaders for Rhai: `unit(#{...})`, `leader(#{...})`, their properties and what can happen to them.

use std::collections::BTreeSet;

use rhai::{Array, Dynamic, Engine, EvalAltResult, Map};

use crate::script::error::fail;
use crate::script::handles::{LeaderRef, UnitRef};
use crate::script::properties::{LEADER_PROPERTIES, UNIT_PROPERTIES, leader_property, marker_to, unit_property};
use crate::script::state::{Shared, UnitMade};
use crate::unit::{Leader, Marker, Unit, Vocabulary};

pub fn register(engine: &mut Engine, state: &Shared) {
    register_unit_type(engine, state);
    register_leader_type(engine, state);

    let st = state.clone();
    engine.register_fn("unit", move |spec: Map| make_unit(&st, spec));
    // `unit("54th Foot", "british_line")`, and with what differs: `unit("54th Foot", "british_line", #{stands: 4})`.
    let st = state.clone();
    engine.register_fn("unit", move |name: &str, template: &str| {
        let spec = from_template(&st, name, template, Map::new())?;
        make_unit(&st, spec)
    });
    let st = state.clone();
    engine.register_fn("unit", move |name: &str, template: &str, over: Map| {
        let spec = from_template(&st, name, template, over)?;
        make_unit(&st, spec)
    });
    let st = state.clone();
    engine.register_fn("leader", move |spec: Map| -> Result<LeaderRef, Box<EvalAltResult>> {
        let leader = leader_from(spec, &st.borrow().ruleset.vocabulary)?;
        let handle = LeaderRef::new(leader);
        st.borrow_mut().add_leader(handle.clone());
        Ok(handle)
    });
}

/// The spec of a unit `name` made from a template of the ruleset, `over` written over it (its
/// `markers` and `fields` entry by entry).
fn from_template(st: &Shared, name: &str, template: &str, over: Map) -> Result<Map, Box<EvalAltResult>> {
    let st = st.borrow();
    let found = crate::rules::unit_template::find(&st.ruleset.unit_templates, template)?;
    let mut spec: Map = rhai::serde::to_dynamic(serde_json::Value::Object(found.unit.clone()))?
        .try_cast::<Map>()
        .ok_or("a unit template is a map")?;
    spec.insert("name".into(), Dynamic::from(name.to_string()));
    for (key, value) in over {
        let merged = match (spec.get(key.as_str()).and_then(|v| v.read_lock::<Map>().map(|m| m.clone())), &value) {
            (Some(mut base), value) if matches!(key.as_str(), "markers" | "fields") && value.is_map() => {
                base.extend(value.clone().cast::<Map>());
                Dynamic::from_map(base)
            }
            _ => value,
        };
        spec.insert(key, merged);
    }
    Ok(spec)
}

/// Most unit specifications kept (see `State::units_made`): a study that names a new unit in
/// every trial makes the rest afresh rather than keep them all.
const MOST_UNITS_KEPT: usize = 1_000;

/// Most handles kept for one specification in a study: the units of that specification one
/// trial makes at once.
const MOST_HANDLES_KEPT: usize = 8;

/// `unit(spec)`: the unit made, known to the session.
fn make_unit(st: &Shared, spec: Map) -> Result<UnitRef, Box<EvalAltResult>> {
    let mut st = st.borrow_mut();
    // An `odds` walk makes the same units once a replay, and a study once a trial: each is
    // read from its specification once. A study's trial is handed the very unit an earlier
    // trial was, put back as it was made (one trial never gets the same one twice), so its
    // calls kept by their dice find the same handles (see `dice_paths`).
    let key = st.units_made.as_ref().and_then(|_| plain_hash(&spec));
    let (studying, trial) = (st.mode.studying(), st.trial);
    let known = key.and_then(|k| {
        let made = st.units_made.as_mut()?.get_mut(&k)?.iter_mut().find(|m| same_plain_map(&m.spec, &spec))?;
        let free = made.handles.iter_mut().find(|(_, given)| *given != trial);
        Some(match free {
            Some((handle, given)) if studying => {
                *given = trial;
                let handle = handle.clone();
                handle.edit().clone_from(&made.unit);
                handle
            }
            _ => {
                let handle = UnitRef::new((*made.unit).clone());
                if studying && made.handles.len() < MOST_HANDLES_KEPT {
                    made.handles.push((handle.clone(), trial));
                }
                handle
            }
        })
    });
    let handle = match known {
        Some(handle) => handle,
        None => {
            let kept = key.map(|_| spec.clone());
            let unit = unit_from(spec, &st.ruleset.vocabulary)?;
            let handle = UnitRef::new(unit.clone());
            if let (Some(key), Some(spec), Some(made)) = (key, kept, st.units_made.as_mut())
                && made.len() < MOST_UNITS_KEPT
            {
                let handles = if studying { vec![(handle.clone(), trial)] } else { Vec::new() };
                made.entry(key).or_default().push(UnitMade { spec, unit: Box::new(unit), handles });
            }
            handle
        }
    };
    st.add_unit(handle.clone());
    Ok(handle)
}

/// A hash of `spec` when it holds only plain values (numbers, words, flags, lists and maps
/// of them); none otherwise.
fn plain_hash(spec: &Map) -> Option<u64> {
    use std::hash::Hasher;
    let mut hasher = ahash::AHasher::default();
    crate::script::plain::hash_map(spec, &mut hasher, &|_, _| false).then(|| hasher.finish())
}

/// Whether two plain specifications (see `plain_hash`) hold the same values, of the same kinds.
fn same_plain_map(a: &Map, b: &Map) -> bool {
    crate::script::plain::same_map(a, b, &|_, _| false)
}

/// A unit from a Rhai map, with the conveniences a player at the REPL expects:
/// `id` from the name, `side` and `nation` blank, `order` in good order.
fn unit_from(mut spec: Map, vocabulary: &crate::unit::Vocabulary) -> Result<Unit, Box<EvalAltResult>> {
    let name = spec.get("name").map(|n| n.to_string()).unwrap_or_default();
    if name.is_empty() {
        return fail(
            "a unit needs a `name`, e.g. unit(#{name: \"4e Ligne\", arm: \"infantry\", stands: 6, formation: \"column\"})",
        );
    }
    if slug(&name).is_empty() && !spec.contains_key("id") {
        return fail(format!("a unit's name needs a letter or a digit, not `{name}`"));
    }
    known_keys("unit", &name, &spec, &Unit::KEYS)?;
    let words: [(&str, Option<&BTreeSet<String>>); 10] = [
        ("id", None),
        ("side", None),
        ("nation", Some(&vocabulary.nations)),
        ("arm", Some(&vocabulary.arms)),
        ("type", Some(&vocabulary.types)),
        ("grade", Some(&vocabulary.grades)),
        ("formation", Some(&vocabulary.formations)),
        ("order", Some(&vocabulary.orders)),
        ("command", None),
        ("name", None),
    ];
    words_given("unit", &name, &spec, &words)?;
    spec.entry("id".into()).or_insert_with(|| Dynamic::from(slug(&name)));
    for key in ["side", "nation"] {
        spec.entry(key.into()).or_insert_with(|| Dynamic::from(String::new()));
    }
    let default_order = if vocabulary.orders.is_empty() || vocabulary.orders.contains("good_order") {
        "good_order".to_string()
    } else {
        vocabulary.orders.iter().next().cloned().unwrap_or_default()
    };
    spec.entry("order".into()).or_insert_with(|| Dynamic::from(default_order));
    // A placement as a player writes it (`#{x: 0, y: 3}`): whole numbers too, facing 0 if not given.
    if let Some(at) = spec.get("placement").and_then(|p| p.read_lock::<Map>().map(|m| m.clone())) {
        let place = super::measure::place_from(&at).map_err(|e| format!("unit `{name}`: {e}"))?;
        spec.insert("placement".into(), rhai::serde::to_dynamic(place)?);
    }
    let mut unit: Unit = rhai::serde::from_dynamic(&Dynamic::from_map(spec))
        .map_err(|e| format!("unit `{name}`: {}", unknown_field(&e)))?;
    let mut problems = vocabulary.complete(&mut unit);
    problems.extend(vocabulary.check_unit(&unit));
    if let Some(problem) = problems.into_iter().next() {
        return fail(with_help(&problem));
    }
    Ok(unit)
}

/// A leader from a Rhai map, `id` from the name and `side` blank as for a unit, his markers
/// checked against the ruleset's as a unit's are.
fn leader_from(mut spec: Map, vocabulary: &Vocabulary) -> Result<Leader, Box<EvalAltResult>> {
    let name = spec.get("name").map(|n| n.to_string()).unwrap_or_default();
    if name.is_empty() {
        return fail("a leader needs a `name`, e.g. leader(#{name: \"Ney\", rating: \"excellent\"})");
    }
    known_keys("leader", &name, &spec, &Leader::KEYS)?;
    let words = ["id", "name", "side", "rating", "commands", "attached_to"].map(|key| (key, None));
    words_given("leader", &name, &spec, &words)?;
    spec.entry("id".into()).or_insert_with(|| Dynamic::from(slug(&name)));
    spec.entry("side".into()).or_insert_with(|| Dynamic::from(String::new()));
    let leader: Leader = rhai::serde::from_dynamic(&Dynamic::from_map(spec))
        .map_err(|e| format!("leader `{name}`: {}", unknown_field(&e)))?;
    match vocabulary.check_leader(&leader).into_iter().next() {
        Some(problem) => fail(with_help(&problem)),
        None => Ok(leader),
    }
}

/// Refuses a key of `spec` that a unit or leader (`what`) is not written with, naming the
/// nearest: serde's own refusal lists the keys but says nothing of which was meant.
fn known_keys(what: &str, name: &str, spec: &Map, keys: &[&str]) -> Result<(), Box<EvalAltResult>> {
    match spec.keys().find(|k| !keys.contains(&k.as_str())) {
        Some(key) => {
            let hint = crate::rules::did_you_mean(key, keys.iter().copied());
            fail(format!("{what} `{name}` has no key `{key}`{hint}; a {what} gives {}", keys.join(", ")))
        }
        None => Ok(()),
    }
}

/// Refuses a key of `spec` that is a word in a unit or leader (`what`) but is given another
/// kind of value (`grade: 2` for `grade: "2"`), naming the key and the words it takes: serde's
/// own refusal ("Output type incorrect: i64 (expecting String)") names neither.
fn words_given(
    what: &str,
    name: &str,
    spec: &Map,
    keys: &[(&str, Option<&BTreeSet<String>>)],
) -> Result<(), Box<EvalAltResult>> {
    for (key, allowed) in keys {
        let Some(value) = spec.get(*key) else { continue };
        if value.is_string() || value.is_unit() {
            continue;
        }
        return fail(format!("{what} `{name}`: {}", not_a_word(key, value, *allowed)));
    }
    Ok(())
}

/// "`grade` is a word, one of "1", "2", "3", "4", not the number 2 (did you mean "2"?)": a
/// value of another kind given where a word is written, with the word it likely meant.
fn not_a_word(key: &str, value: &Dynamic, allowed: Option<&BTreeSet<String>>) -> String {
    let kind = match value.type_name() {
        "i64" | "i32" => "number",
        "f64" | "f32" => "decimal",
        "bool" => "flag",
        "array" => "list",
        "map" => "map",
        other => other,
    };
    let text = value.to_string();
    let allowed = allowed.filter(|words| !words.is_empty());
    let words = match allowed {
        Some(words) => {
            format!("a word, one of {}", words.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(", "))
        }
        None => "a word".to_string(),
    };
    let meant = match allowed {
        Some(words) if words.contains(&text) => Some(text.as_str()),
        // A whole number is not "near" another: 5 is no misspelling of "4".
        Some(_) if kind == "number" => None,
        Some(words) => Vocabulary::closest(words, &text),
        None if matches!(kind, "number" | "decimal" | "flag") => Some(text.as_str()),
        None => None,
    };
    let hint = meant.map(|w| format!(" (did you mean \"{w}\"?)")).unwrap_or_default();
    format!("`{key}` is {words}, not the {kind} {text}{hint}")
}

/// A problem with its help, in one line, for a script's error.
fn with_help(problem: &crate::unit::UnitError) -> String {
    let help = match problem {
        crate::unit::UnitError::UnknownWord { help: Some(h), .. }
        | crate::unit::UnitError::UnknownFieldWord { help: Some(h), .. }
        | crate::unit::UnitError::UnknownField { help: h, .. } => format!(" ({h})"),
        _ => String::new(),
    };
    format!("{problem}{help}")
}

/// `4e Ligne` -> `4e_ligne`: an id from a name.
fn slug(name: &str) -> String {
    let mut id = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            id.extend(c.to_lowercase());
        } else if !id.ends_with('_') && !id.is_empty() {
            id.push('_');
        }
    }
    id.trim_end_matches('_').to_string()
}

/// The marker `name`'s value from Rhai, checked against the kind the ruleset gives it: `what`
/// names the call it is given to (`set_marker on \`4e Ligne\``), made only for an error.
pub(crate) fn checked_marker(
    vocabulary: &Vocabulary,
    what: &dyn Fn() -> String,
    name: &str,
    value: Dynamic,
) -> Result<Marker, Box<EvalAltResult>> {
    let marker = match marker_of(value) {
        Ok(marker) => marker,
        // A value no marker takes (a decimal, a list): said with what this one takes.
        Err(value) => {
            let type_name = match value.type_name() {
                "f64" | "f32" => "decimal",
                "array" => "list",
                other => other,
            };
            return match vocabulary.marker_kind(name) {
                Some(kind) => fail(format!("{}: `{name}` is {}, not the {type_name} {value}", what(), kind.describe())),
                None => fail(format!("a marker is true/false, a whole number or a word, not {type_name}")),
            };
        }
    };
    match vocabulary.marker_fault(name, &marker) {
        Some(fault) => fail(format!("{}: {}", what(), fault.sentence(name))),
        None => Ok(marker),
    }
}

/// A marker's value from Rhai: a flag, a count or a word.
pub(crate) fn marker_from(value: Dynamic) -> Result<Marker, Box<EvalAltResult>> {
    marker_of(value)
        .or_else(|value| fail(format!("a marker is true/false, a whole number or a word, not {}", value.type_name())))
}

/// A flag, a count or a word as a marker's value; any other value given back.
fn marker_of(value: Dynamic) -> Result<Marker, Dynamic> {
    if let Ok(b) = value.as_bool() {
        Ok(Marker::Flag(b))
    } else if let Ok(n) = value.as_int() {
        Ok(Marker::Count(n))
    } else if value.is_string() {
        Ok(Marker::Text(value.into_string().unwrap_or_default()))
    } else {
        Err(value)
    }
}

fn register_unit_type(engine: &mut Engine, state: &Shared) {
    engine.register_type_with_name::<UnitRef>("Unit");
    for name in UNIT_PROPERTIES {
        engine.register_get(name, move |u: &mut UnitRef| unit_property(&u.0.borrow(), name).unwrap_or_default());
    }
    // The ruleset's own fields, read and written by name; a value written is checked as one given.
    let fields: Vec<String> = state.borrow().ruleset.vocabulary.unit_fields.keys().cloned().collect();
    for name in fields {
        let field = name.clone();
        engine.register_get(&name, move |u: &mut UnitRef| unit_property(&u.0.borrow(), &field).unwrap_or_default());
        let st = state.clone();
        let field = name.clone();
        engine.register_set(&name, move |u: &mut UnitRef, value: Dynamic| -> Result<(), Box<EvalAltResult>> {
            let mut copy = u.0.borrow().clone();
            copy.fields.insert(field.clone(), marker_from(value)?);
            if let Some(problem) = st.borrow().ruleset.vocabulary.check_unit(&copy).into_iter().next() {
                return fail(problem.to_string());
            }
            *u.edit() = copy;
            Ok(())
        });
    }
    engine
        .register_fn("has_marker", |u: &mut UnitRef, name: &str| u.0.borrow().has_marker(name))
        .register_fn("marker", |u: &mut UnitRef, name: &str| marker_to(u.0.borrow().markers.get(name)))
        .register_fn("clear_marker", |u: &mut UnitRef, name: &str| u.edit().clear_marker(name))
        .register_fn("to_string", |u: &mut UnitRef| u.to_string())
        .register_fn("to_debug", |u: &mut UnitRef| u.to_string());

    // Setters check the word against the ruleset's vocabulary.
    for field in ["formation", "order", "grade"] {
        let st = state.clone();
        engine.register_set(field, move |u: &mut UnitRef, word: &str| -> Result<(), Box<EvalAltResult>> {
            let mut copy = u.0.borrow().clone();
            match field {
                "formation" => copy.formation = word.to_string(),
                "order" => copy.order = word.to_string(),
                _ => copy.grade = Some(word.to_string()),
            }
            if let Some(problem) = st.borrow().ruleset.vocabulary.check_unit(&copy).into_iter().next() {
                return fail(problem.to_string());
            }
            *u.edit() = copy;
            Ok(())
        });
    }
    // A number written for one of those words (`u.grade = 2`): refused naming the words.
    for field in ["formation", "order", "grade"] {
        let st = state.clone();
        engine.register_set(field, move |_: &mut UnitRef, n: i64| -> Result<(), Box<EvalAltResult>> {
            let st = st.borrow();
            let vocabulary = &st.ruleset.vocabulary;
            let allowed = match field {
                "formation" => &vocabulary.formations,
                "order" => &vocabulary.orders,
                _ => &vocabulary.grades,
            };
            fail(not_a_word(field, &Dynamic::from(n), Some(allowed)))
        });
    }
    // A unit's side is the scenario's own word (any): what the turn's sides are read from.
    engine.register_set("side", |u: &mut UnitRef, side: &str| u.edit().side = side.to_string());
    // Stands lost however they are lost count into the sequence's facts (stands lost this phase).
    let st = state.clone();
    engine.register_fn("lose_stands", move |u: &mut UnitRef, n: i64| {
        let lost = u.edit().lose_stands(n.clamp(0, i64::from(u32::MAX)) as u32);
        st.borrow().count_stands_lost(u, lost);
        i64::from(lost)
    });
    let st = state.clone();
    engine.register_set("stands", move |u: &mut UnitRef, n: i64| -> Result<(), Box<EvalAltResult>> {
        let Ok(n) = u32::try_from(n) else {
            return fail(format!("a unit cannot have {n} stands"));
        };
        let lost = {
            let mut unit = u.edit();
            if unit.stands_at_start.is_none() {
                unit.stands_at_start = Some(unit.stands.max(n));
            }
            let lost = unit.stands.saturating_sub(n);
            unit.stands = n;
            lost
        };
        st.borrow().count_stands_lost(u, lost);
        Ok(())
    });
    let st = state.clone();
    engine.register_fn(
        "set_marker",
        move |u: &mut UnitRef, name: &str, value: Dynamic| -> Result<(), Box<EvalAltResult>> {
            let what = || format!("set_marker on `{}`", u.name());
            let marker = checked_marker(&st.borrow().ruleset.vocabulary, &what, name, value)?;
            u.edit().set_marker(name, marker);
            Ok(())
        },
    );
    let st = state.clone();
    engine.register_get("leaders", move |u: &mut UnitRef| -> Array {
        let st = st.borrow();
        u.0.borrow().leaders.iter().filter_map(|id| st.leaders.get(id)).map(|l| Dynamic::from(l.clone())).collect()
    });
    engine.register_fn("attach", |u: &mut UnitRef, l: LeaderRef| {
        let id = l.0.borrow().id.clone();
        let mut unit = u.edit();
        if !unit.leaders.contains(&id) {
            unit.leaders.push(id);
        }
        l.edit().attached_to = Some(unit.id.clone());
    });
    engine.register_fn("detach", |u: &mut UnitRef, l: LeaderRef| {
        let id = l.0.borrow().id.clone();
        u.edit().leaders.retain(|x| *x != id);
        l.edit().attached_to = None;
    });
}

fn register_leader_type(engine: &mut Engine, state: &Shared) {
    for name in LEADER_PROPERTIES {
        engine.register_get(name, move |l: &mut LeaderRef| leader_property(&l.0.borrow(), name).unwrap_or_default());
    }
    engine
        .register_type_with_name::<LeaderRef>("Leader")
        .register_fn("has_marker", |l: &mut LeaderRef, name: &str| l.0.borrow().has_marker(name))
        .register_fn("marker", |l: &mut LeaderRef, name: &str| marker_to(l.0.borrow().markers.get(name)))
        .register_fn("to_string", |l: &mut LeaderRef| l.to_string())
        .register_fn("to_debug", |l: &mut LeaderRef| l.to_string());
    let st = state.clone();
    engine.register_fn(
        "set_marker",
        move |l: &mut LeaderRef, name: &str, value: Dynamic| -> Result<(), Box<EvalAltResult>> {
            let what = || format!("set_marker on `{}`", l.name());
            let marker = checked_marker(&st.borrow().ruleset.vocabulary, &what, name, value)?;
            l.edit().markers.insert(name.to_string(), marker);
            Ok(())
        },
    );
}

/// A map made into a unit or leader refused for a key it may not hold: serde's words with
/// "did you mean" put after the key.
fn unknown_field(err: &EvalAltResult) -> String {
    let text = err.to_string();
    match text.find("unknown field `") {
        Some(i) => format!("{}{}", &text[..i], crate::kernel::spelling::hint_unknown_field(&text[i..])),
        None => text,
    }
}
