//! Short resolutions at the table: `fire 54th 4e range 1 enfiladed` is the call
//! `fire(foot_54th, ligne_4e, #{range: 1, enfiladed: true})`, read off the procedure's contract:
//! its units by a piece of their names, then its situation by keys and words.

use crate::rules::contract::{Contract, Key, Kind};
use crate::rules::did_you_mean;

/// A unit or leader a short form may name: the variable that holds it, its id and its name.
#[derive(Clone, Debug)]
pub struct Named {
    pub variable: String,
    pub id: String,
    pub name: String,
    pub leader: bool,
    /// A list of units or leaders held in a variable (its id and name are empty).
    pub list: bool,
}

/// The contract of the procedure `line` resolves in short form, if it is one: its first word
/// names a contracted procedure, and what follows is not a Rhai call (`fire(`).
pub fn contract_of<'a>(
    line: &str,
    contracts: &'a std::collections::BTreeMap<String, Contract>,
) -> Option<&'a Contract> {
    let line = line.trim_start();
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    let contract = contracts.get(&line[..end])?;
    let rest = line[end..].trim_start();
    let rhai = rest.starts_with(['(', '=', '.', '[', '+', '-', '*', '/', '<', '>', '!', '&', '|', ';']);
    (!rhai).then_some(contract)
}

/// A unit's standing ground for a situation key (`:at`): given the variable that holds the
/// unit and the key, the key's value as Rhai writes it, none, or why it cannot be.
pub type Ground<'a> = &'a dyn Fn(&str, &Key) -> Result<Option<String>, String>;

/// The Rhai call a short form stands for, or what is wrong with it, said for the player. A
/// situation key that is a unit's ground (`of:`) and is not given on the line is the ground
/// the unit stands on, when it has one (`ground`).
pub fn expand(line: &str, contract: &Contract, named: &[Named], ground: Ground) -> Result<String, String> {
    let mut words = split(line)?.into_iter();
    words.next();
    let usage = usage(contract);
    let mut args = Vec::new();
    // Where the situation goes among the arguments, and what the line gave of it.
    let mut situation_at: Option<(usize, Vec<(String, String)>)> = None;
    for param in &contract.params {
        if param.kind == Kind::Situation {
            situation_at = Some((args.len(), situation(contract, &mut words, named)?));
            args.push(String::new());
            continue;
        }
        let Some(word) = words.next() else {
            if param.optional {
                args.push("()".to_string());
                continue;
            }
            return Err(format!("{} needs its {} ({}): {usage}", contract.name, param.name, param.text));
        };
        args.push(argument(param, &word, named).map_err(|e| format!("{e}\n  {usage}"))?);
    }
    if let Some(extra) = words.next() {
        return Err(format!("{} takes no more than {usage}; `{extra}` is one too many", contract.name));
    }
    if let Some((at, mut given)) = situation_at {
        for key in contract.situation.iter().filter(|k| k.of.is_some()) {
            if given.iter().any(|(g, _)| *g == key.name) {
                continue;
            }
            let Some(whose) = contract.params.iter().position(|p| Some(&p.name) == key.of.as_ref()) else { continue };
            // The unit's variable (the first of a list); a unit not held by a variable has no ground here.
            let variable = args[whose].trim_start_matches('[').split([',', ']']).next().unwrap_or("").trim();
            if let Some(value) = ground(variable, key)? {
                given.push((key.name.clone(), value));
            }
        }
        let entries: Vec<String> = given.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        args[at] = format!("#{{{}}}", entries.join(", "));
    }
    Ok(format!("{}({})", contract.name, args.join(", ")))
}

/// `fire FIRER TARGET [range N] [enfiladed] ...`: how the procedure is written short.
pub fn usage(contract: &Contract) -> String {
    let mut parts = vec![contract.name.clone()];
    for param in &contract.params {
        match param.kind {
            Kind::Situation => parts.push("[situation keys and words]".into()),
            _ if param.optional => parts.push(format!("[{}]", param.name.to_uppercase())),
            _ => parts.push(param.name.to_uppercase()),
        }
    }
    parts.join(" ")
}

/// The words of a line, a `"double quoted"` stretch as one word.
fn split(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let Some(end) = quoted.find('"') else {
                return Err(format!("a quote is not closed: `{rest}`"));
            };
            words.push(quoted[..end].to_string());
            rest = quoted[end + 1..].trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            words.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    Ok(words)
}

/// One parameter written as a word: a unit or leader by a piece of its name, a number, a word.
fn argument(param: &Key, word: &str, named: &[Named]) -> Result<String, String> {
    match param.kind {
        Kind::Unit | Kind::Leader => {
            if param.optional && matches!(word, "-" | "none") {
                return Ok("()".into());
            }
            let leader = param.kind == Kind::Leader;
            Ok(find(word, named, leader)?.variable.clone())
        }
        Kind::Units | Kind::Leaders => {
            let leader = param.kind == Kind::Leaders;
            // A list held in a variable, or names joined by commas.
            if let Some(list) = named.iter().find(|n| n.variable == word && n.list) {
                return Ok(list.variable.clone());
            }
            let each: Result<Vec<String>, String> = word
                .split(',')
                .filter(|w| !w.is_empty())
                .map(|w| Ok(find(w, named, leader)?.variable.clone()))
                .collect();
            Ok(format!("[{}]", each?.join(", ")))
        }
        _ => value(param, word, named),
    }
}

/// A value of a non-unit kind written as a word.
fn value(key: &Key, word: &str, named: &[Named]) -> Result<String, String> {
    let wrong = || format!("{} takes {}, not `{word}`", key.name, key.kind.wanted());
    match key.kind {
        Kind::Int => word.parse::<i64>().map(|n| n.to_string()).map_err(|_| wrong()),
        Kind::Number => match word.parse::<i64>() {
            Ok(n) => Ok(n.to_string()),
            Err(_) => word.parse::<f64>().ok().filter(|x| x.is_finite()).map(|x| format!("{x:?}")).ok_or_else(wrong),
        },
        Kind::Bool => match word {
            "true" | "yes" | "y" => Ok("true".into()),
            "false" | "no" | "n" => Ok("false".into()),
            _ => Err(wrong()),
        },
        Kind::Word => one_word(key, word),
        Kind::Words => {
            let each: Result<Vec<String>, String> =
                word.split(',').filter(|w| !w.is_empty()).map(|w| one_word(key, w)).collect();
            let each = each?;
            Ok(if each.len() == 1 { each[0].clone() } else { format!("[{}]", each.join(", ")) })
        }
        Kind::Text => Ok(quoted(word)),
        // Anything else is a variable of the session, a number, or a word.
        _ => Ok(if named.iter().any(|n| n.variable == word) || word.parse::<f64>().is_ok_and(f64::is_finite) {
            word.to_string()
        } else {
            quoted(word)
        }),
    }
}

/// A word a key allows, quoted for Rhai.
fn one_word(key: &Key, word: &str) -> Result<String, String> {
    if !key.words.is_empty() && !key.words.contains(word) {
        let hint = did_you_mean(word, key.words.iter().map(String::as_str));
        let all: Vec<&str> = key.words.iter().map(String::as_str).collect();
        return Err(format!("`{word}` is not a word of {}{hint}; it takes {}", key.name, all.join(", ")));
    }
    Ok(quoted(word))
}

/// `word` as a Rhai string literal, its quotes and backslashes escaped.
pub(super) fn quoted(word: &str) -> String {
    format!("\"{}\"", word.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The situation map from the words left: `key value`, `key=value`, a true-or-false key alone
/// (it is true), or a word only one key takes (`hedge` is `cover: "hedge"`).
fn situation(
    contract: &Contract,
    words: &mut impl Iterator<Item = String>,
    named: &[Named],
) -> Result<Vec<(String, String)>, String> {
    let mut given: Vec<(String, String)> = Vec::new();
    let mut words = words.peekable();
    while let Some(word) = words.next() {
        let (key, value) = match word.split_once(['=', ':']) {
            Some((key, value)) => (key_named(contract, key)?, Some(value.to_string())),
            None => match contract.situation_key(&word) {
                Some(key) if key.kind == Kind::Bool => {
                    // `enfiladed` alone is true; `enfiladed no` says it is not.
                    let said = words.next_if(|w| matches!(w.as_str(), "true" | "false" | "yes" | "no"));
                    (key, Some(said.unwrap_or_else(|| "true".into())))
                }
                Some(key) => {
                    let Some(value) = words.next() else {
                        return Err(format!("{} needs a value: {} ({})", key.name, key.kind.wanted(), key.text));
                    };
                    (key, Some(value))
                }
                None => (key_of_word(contract, &word)?, None),
            },
        };
        let value = match value {
            Some(value) => value,
            None => word.clone(),
        };
        let written = self::value(key, &value, named)?;
        if key.kind == Kind::Words
            && let Some((_, before)) = given.iter_mut().find(|(k, _)| *k == key.name)
        {
            // Two words of one key: a list of both.
            let inner = |v: &str| v.trim_start_matches('[').trim_end_matches(']').to_string();
            *before = format!("[{}, {}]", inner(before), inner(&written));
            continue;
        }
        if given.iter().any(|(k, _)| *k == key.name) {
            return Err(format!("{} is given twice", key.name));
        }
        given.push((key.name.clone(), written));
    }
    Ok(given)
}

/// The situation key `name`, or a did-you-mean.
fn key_named<'c>(contract: &'c Contract, name: &str) -> Result<&'c Key, String> {
    contract.situation_key(name).ok_or_else(|| {
        let hint = did_you_mean(name, contract.situation.iter().map(|k| k.name.as_str()));
        format!("{} has no situation key `{name}`{hint}; it takes {}", contract.name, keys(contract))
    })
}

/// The one key that takes `word` as a word, or what the word might have meant.
fn key_of_word<'c>(contract: &'c Contract, word: &str) -> Result<&'c Key, String> {
    let takers: Vec<&Key> = contract
        .situation
        .iter()
        .filter(|k| matches!(k.kind, Kind::Word | Kind::Words) && k.words.contains(word))
        .collect();
    match takers[..] {
        [key] => Ok(key),
        [] => {
            let known = contract
                .situation
                .iter()
                .map(|k| k.name.as_str())
                .chain(contract.situation.iter().flat_map(|k| k.words.iter().map(String::as_str)));
            let hint = did_you_mean(word, known);
            Err(format!(
                "`{word}` is not a situation key or word of {}{hint}; it takes {}",
                contract.name,
                keys(contract)
            ))
        }
        _ => {
            let names: Vec<&str> = takers.iter().map(|k| k.name.as_str()).collect();
            Err(format!("`{word}` is a word of {}: say which, as `{}={word}`", names.join(" and "), names[0]))
        }
    }
}

fn keys(contract: &Contract) -> String {
    if contract.situation.is_empty() {
        return "none".into();
    }
    contract.situation.iter().map(|k| k.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// The unit (or leader) `word` names: its variable, its id, or a piece of its name
/// (`54th` is `54th Foot`, `1/4e` is `1/4e Ligne`), when only one fits.
/// The unit `word` names (a variable, an id, a name, or a piece of one only one unit has).
pub fn find_unit<'n>(word: &str, named: &'n [Named]) -> Result<&'n Named, String> {
    find(word, named, false)
}

fn find<'n>(word: &str, named: &'n [Named], leader: bool) -> Result<&'n Named, String> {
    let what = if leader { "leader" } else { "unit" };
    let of_kind: Vec<&Named> = named.iter().filter(|n| n.leader == leader && !n.list).collect();
    if let Some(exact) = of_kind.iter().find(|n| n.variable == word) {
        return Ok(exact);
    }
    let low = word.to_lowercase();
    let same: Vec<&&Named> = of_kind
        .iter()
        .filter(|n| n.variable.to_lowercase() == low || n.id.to_lowercase() == low || n.name.to_lowercase() == low)
        .collect();
    if let [one] = same[..] {
        return Ok(one);
    }
    let pieces = |name: &str| -> bool {
        let name = name.to_lowercase();
        name.starts_with(&low) || name.split([' ', '/', '-', '_']).any(|piece| piece.starts_with(&low))
    };
    let fits: Vec<&&Named> = of_kind.iter().filter(|n| pieces(&n.name) || pieces(&n.variable)).collect();
    match fits[..] {
        [one] => Ok(one),
        [] if of_kind.is_empty() => Err(format!("there is no {what} in the session to call `{word}`")),
        [] => {
            let hint = did_you_mean(word, of_kind.iter().map(|n| n.variable.as_str()));
            let all: Vec<String> = of_kind.iter().map(|n| describe(n)).collect();
            Err(format!("no {what} is called `{word}`{hint}; the {what}s: {}", all.join(", ")))
        }
        _ => {
            let all: Vec<String> = fits.iter().map(|n| describe(n)).collect();
            Err(format!("`{word}` could be {}: type more of the name, or the variable", all.join(" or ")))
        }
    }
}

fn describe(n: &Named) -> String {
    if n.name == n.variable { n.name.clone() } else { format!("{} ({})", n.variable, n.name) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn key(name: &str, kind: Kind, words: &[&str]) -> Key {
        Key {
            name: name.into(),
            kind,
            words: words.iter().map(|w| w.to_string()).collect::<BTreeSet<_>>(),
            default: None,
            optional: false,
            keys: None,
            items: None,
            option: None,
            situation_of: None,
            of: None,
            text: format!("the {name}"),
            source: None,
        }
    }

    fn fire() -> Contract {
        Contract {
            name: "fire".into(),
            text: "fires".into(),
            source: crate::rules::Source::House,
            params: vec![
                key("firer", Kind::Unit, &[]),
                key("target", Kind::Unit, &[]),
                key("situation", Kind::Situation, &[]),
            ],
            situation: vec![
                key("range", Kind::Number, &[]),
                key("enfiladed", Kind::Bool, &[]),
                key("cover", Kind::Words, &["woods", "hedge", "higher"]),
            ],
            origin: crate::rules::Origin {
                file: crate::rules::source_file("contracts/fire.yaml", String::new()),
                span: (0, 0).into(),
            },
            entry: true,
            outcomes: Vec::new(),
        }
    }

    fn named() -> Vec<Named> {
        let unit = |variable: &str, name: &str| Named {
            variable: variable.into(),
            id: variable.into(),
            name: name.into(),
            leader: false,
            list: false,
        };
        vec![unit("brits", "54th Foot"), unit("ligne_1", "1/4e Ligne"), unit("ligne_2", "2/4e Ligne")]
    }

    fn expanded(line: &str) -> Result<String, String> {
        expand(line, &fire(), &named(), &|_, _| Ok(None))
    }

    #[test]
    fn units_by_a_piece_of_their_names_and_the_situation_by_keys_and_words() {
        assert_eq!(
            expanded("fire 54th 1/4e range 1 enfiladed").unwrap(),
            "fire(brits, ligne_1, #{range: 1, enfiladed: true})"
        );
        assert_eq!(
            expanded("fire brits ligne_2 range=2.5 hedge higher").unwrap(),
            "fire(brits, ligne_2, #{range: 2.5, cover: [\"hedge\", \"higher\"]})"
        );
        assert_eq!(
            expanded("fire \"54th Foot\" 2/4e enfiladed no").unwrap(),
            "fire(brits, ligne_2, #{enfiladed: false})"
        );
        assert_eq!(expanded("fire 54 ligne_1 cover woods").unwrap(), "fire(brits, ligne_1, #{cover: \"woods\"})");
    }

    #[test]
    fn a_mistake_is_refused_with_what_was_meant() {
        let err = expanded("fire 54th 4e range 1").unwrap_err();
        assert!(err.contains("`4e` could be ligne_1 (1/4e Ligne) or ligne_2 (2/4e Ligne)"), "{err}");
        let err = expanded("fire 54th 1/4e enfilade").unwrap_err();
        assert!(err.contains("did you mean `enfiladed`"), "{err}");
        let err = expanded("fire 54th 1/4e cover wood").unwrap_err();
        assert!(err.contains("did you mean `woods`"), "{err}");
        let err = expanded("fire 54th 1/4e range far").unwrap_err();
        assert!(err.contains("range takes a number, not `far`"), "{err}");
        let err = expanded("fire 54th").unwrap_err();
        assert!(err.contains("needs its target") && err.contains("fire FIRER TARGET"), "{err}");
        let err = expanded("fire 54th 1/4e range 1 range 2").unwrap_err();
        assert!(err.contains("range is given twice"), "{err}");
        let err = expanded("fire 55th 1/4e").unwrap_err();
        assert!(err.contains("no unit is called `55th`"), "{err}");
    }

    #[test]
    fn only_a_line_that_is_not_rhai_is_short() {
        let contracts = std::collections::BTreeMap::from([("fire".to_string(), fire())]);
        assert!(contract_of("fire 54th 4e", &contracts).is_some());
        assert!(contract_of("fire", &contracts).is_some());
        assert!(contract_of("fire(a, b, #{})", &contracts).is_none());
        assert!(contract_of("fire (a, b, #{})", &contracts).is_none());
        assert!(contract_of("melee a b", &contracts).is_none());
    }
}
