//! Why a modifier's `when:` did not hold, in the words of the condition and the values it
//! read: `unit.arm is "infantry"`, `unit has no breakthrough marker`. Worked out only for a
//! trace, off the condition's native form; a condition Rhai evaluates is quoted whole.

use rhai::Dynamic;

use super::condition::{Access, CONDITION_NAMES, Leaders, Native};
use super::handles::{LeaderRef, UnitRef};
use super::value_compare::Op;

/// Why `when` (written `text`) was false for `vars`: the parts that failed and what they read.
pub fn why_false(native: Option<&Native>, text: &str, vars: &[&Dynamic], leaders: &Leaders) -> String {
    native
        .and_then(|n| n.why_false(vars, leaders))
        .unwrap_or_else(|| format!("not so: {}", text.split_whitespace().collect::<Vec<_>>().join(" ")))
}

impl Native {
    /// The parts of this condition that made it false, worded; none when it is not plainly false.
    fn why_false(&self, vars: &[&Dynamic], leaders: &Leaders) -> Option<String> {
        if self.truth(vars, leaders)? {
            return None;
        }
        Some(match self {
            Native::And(terms) => terms.iter().find_map(|t| t.why_false(vars, leaders))?,
            Native::Or(terms) => {
                let mut parts = terms.iter().map(|t| t.why_false(vars, leaders)).collect::<Option<Vec<_>>>()?;
                // `cover == "woods" || cover == "rough"` fails on one reading: say it once.
                parts.dedup();
                parts.join(" and ")
            }
            Native::Not(inner) => format!("{} holds", inner.text()),
            Native::Compare(_, a, b) => match (a.as_ref(), b.as_ref()) {
                (Native::Literal(_), other) | (other, Native::Literal(_)) => {
                    format!("{} is {}", other.text(), shown(&other.eval(vars, leaders)?))
                }
                _ => format!(
                    "{} is {}, {} is {}",
                    a.text(),
                    shown(&a.eval(vars, leaders)?),
                    b.text(),
                    shown(&b.eval(vars, leaders)?)
                ),
            },
            Native::In(value, _) | Native::HasAny(value, _) => {
                format!("{} is {}", value.text(), shown(&value.eval(vars, leaders)?))
            }
            Native::AnyMarker(list, marker) => format!("no one in {} has a {marker} marker", list.text()),
            Native::Chain(base, accesses) => match accesses.last() {
                Some(Access::Method(name, marker)) if name == "has_marker" => {
                    let owner = Native::Chain(base.clone(), accesses[..accesses.len() - 1].to_vec());
                    let owner = if accesses.len() == 1 { base.text() } else { owner.text() };
                    format!("{owner} has no {marker} marker")
                }
                _ => format!("{} is {}", self.text(), shown(&self.eval(vars, leaders)?)),
            },
            Native::Var(_) => format!("{} is {}", self.text(), shown(&self.eval(vars, leaders)?)),
            Native::Literal(_) => "it never applies".to_string(),
        })
    }

    /// The condition as written (near enough: spacing and brackets are the reader's).
    fn text(&self) -> String {
        match self {
            Native::Var(i) => CONDITION_NAMES.get(*i).copied().unwrap_or("?").to_string(),
            Native::Literal(value) => shown(value),
            Native::Chain(base, accesses) => {
                let mut text = base.text();
                for access in accesses {
                    match access {
                        Access::Property(name, _) => text = format!("{text}.{name}"),
                        Access::Method(name, arg) => text = format!("{text}.{name}(\"{arg}\")"),
                        Access::Len => text += ".len()",
                    }
                }
                text
            }
            Native::Compare(op, a, b) => format!("{} {} {}", a.text(), Op::syntax(*op), b.text()),
            Native::In(value, list) => format!("{} in {}", value.text(), shown(&Dynamic::from_array(list.clone()))),
            Native::HasAny(value, list) => {
                format!("has_any({}, {})", value.text(), shown(&Dynamic::from_array(list.clone())))
            }
            Native::AnyMarker(list, marker) => format!("any_marker({}, \"{marker}\")", list.text()),
            Native::Not(inner) => format!("!({})", inner.text()),
            Native::And(terms) => terms.iter().map(Native::text).collect::<Vec<_>>().join(" && "),
            Native::Or(terms) => terms.iter().map(Native::text).collect::<Vec<_>>().join(" || "),
        }
    }
}

/// A value as a condition reads it: words quoted, `()` as "not given", units by name.
fn shown(value: &Dynamic) -> String {
    if value.is_unit() {
        return "not given".to_string();
    }
    if let Ok(text) = value.as_immutable_string_ref() {
        return format!("\"{}\"", text.as_str());
    }
    if let Some(list) = value.read_lock::<rhai::Array>() {
        return format!("[{}]", list.iter().map(shown).collect::<Vec<_>>().join(", "));
    }
    if let Some(unit) = value.read_lock::<UnitRef>() {
        return unit.0.borrow().name.clone();
    }
    if let Some(leader) = value.read_lock::<LeaderRef>() {
        return leader.0.borrow().name.clone();
    }
    if let Ok(x) = value.as_float() {
        // `0.833`, not `0.8333333333333334`: a reason is read, not computed with.
        let text = format!("{x:.3}");
        return text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::condition::Condition;

    fn reason(condition: &str, vars: [Dynamic; 9]) -> String {
        let engine = rhai::Engine::new_raw();
        let ast = engine.compile_expression(condition).unwrap();
        let c = Condition::new(ast, &|_| false);
        let refs = vars.each_ref();
        let values: Vec<&Dynamic> = refs.to_vec();
        assert_eq!(c.native.as_ref().unwrap().truth(&values, &Leaders::new()), Some(false), "{condition}");
        why_false(c.native.as_ref(), condition, &values, &Leaders::new())
    }

    fn situation(entries: &[(&str, Dynamic)]) -> [Dynamic; 9] {
        let mut map = rhai::Map::new();
        for (k, v) in entries {
            map.insert((*k).into(), v.clone());
        }
        let mut vars: [Dynamic; 9] = Default::default();
        vars[7] = Dynamic::from_map(map);
        vars
    }

    #[test]
    fn each_failing_part_is_worded_with_what_it_read() {
        let s =
            situation(&[("fresh", Dynamic::FALSE), ("side", "defender".into()), ("ratio", Dynamic::from(1.0 / 1.5))]);
        assert_eq!(reason("situation.fresh == true", s.clone()), "situation.fresh is false");
        assert_eq!(reason("situation.fresh", s.clone()), "situation.fresh is false");
        assert_eq!(reason("situation.side == \"attacker\"", s.clone()), "situation.side is \"defender\"");
        assert_eq!(
            reason("situation.ratio >= 2.0 && situation.side == \"defender\"", s.clone()),
            "situation.ratio is 0.667"
        );
        assert_eq!(
            reason("situation.woods == true || situation.side == \"attacker\"", s.clone()),
            "situation.woods is not given and situation.side is \"defender\""
        );
        assert_eq!(reason("has_any(situation.cover, [\"woods\"])", s.clone()), "situation.cover is not given");
        assert_eq!(reason("!(situation.side == \"defender\")", s), "situation.side == \"defender\" holds");
    }

    #[test]
    fn a_condition_rhai_evaluates_is_quoted() {
        assert_eq!(
            why_false(None, "situation.range * 2 >\n  8", &[], &Leaders::new()),
            "not so: situation.range * 2 > 8"
        );
    }
}
