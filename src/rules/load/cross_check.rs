//! Checks that need the whole ruleset loaded: what modifiers, contracts and tables name.

use super::{Loader, find_word};
use crate::rules::modifier::ListSituation;
use crate::rules::problem::Problem;
use crate::rules::problem::did_you_mean;
use crate::rules::ruleset::Ruleset;
use crate::rules::table::{Table, TableResult};
use miette::SourceSpan;

impl Loader {
    /// Checks that need the whole ruleset: modifiers' options and
    /// interpretations, and the words effects use.
    pub(super) fn cross_check(&mut self, rs: &Ruleset) {
        // What a contract's outcomes group are results of the ruleset's tables.
        let results: std::collections::BTreeSet<&str> =
            rs.tables.values().flat_map(|t| t.results.keys().map(String::as_str)).collect();
        for contract in rs.contracts.values() {
            for (meaning, each) in &contract.outcomes {
                for (result, at) in each {
                    if !results.contains(result.as_str()) {
                        let hint = did_you_mean(result, results.iter().copied());
                        self.problems.push(
                            Problem::error(
                                "rules::contract",
                                format!(
                                    "`{meaning}` in the outcomes of `{}` counts `{result}`, which is no table's result{hint}",
                                    contract.name
                                ),
                                &at.file,
                                at.span,
                            )
                            .with_label("no such result"),
                        );
                    }
                }
            }
        }
        // The sequence's end of a player turn is a procedure given that side's units, its
        // start of a turn one given every unit.
        let hooks = rs.sequence.iter().flat_map(|s| {
            [("end_of_player_turn", &s.end_of_player_turn), ("start_of_turn", &s.start_of_turn)]
                .into_iter()
                .filter_map(|(hook, p)| p.as_ref().map(|p| (hook, p)))
        });
        for (hook, (name, origin)) in hooks {
            let takes_units = |c: &crate::rules::contract::Contract| matches!(c.params.as_slice(), [one] if one.kind == crate::rules::contract::Kind::Units);
            let fault = match rs.contracts.get(name) {
                None => Some(format!(
                    "the sequence's {hook} is `{name}`, which has no contract{}",
                    did_you_mean(name, rs.contracts.keys().map(String::as_str))
                )),
                Some(c) if !takes_units(c) => Some(format!(
                    "the sequence's {hook}, `{}`, is given one thing, the units: its contract takes {}",
                    c.signature(),
                    c.params
                        .iter()
                        .map(|p| format!("`{}` ({})", p.name, p.kind.wanted()))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                Some(_) => None,
            };
            if let Some(message) = fault {
                self.problems.push(
                    Problem::error("rules::sequence", message, &origin.file, origin.span).with_label("this procedure"),
                );
            }
        }
        // An option's `brings: ... in:` names procedures with contracts.
        for (option, info) in &rs.options {
            for (name, origin) in info.brings.iter().flat_map(|b| &b.procedures) {
                if !rs.contracts.contains_key(name) {
                    let hint = did_you_mean(name, rs.contracts.keys().map(String::as_str));
                    self.problems.push(
                        Problem::error(
                            "rules::option_brings",
                            format!("option `{option}` brings words read in `{name}`, which has no contract{hint}"),
                            &origin.file,
                            origin.span,
                        )
                        .with_label("no such contract"),
                    );
                }
            }
        }
        for list in rs.modifiers.values() {
            if let Some(ListSituation::Of(name, origin)) = &list.situation
                && rs.contracts.get(name).is_none_or(|c| c.situation.is_empty())
            {
                let with_keys = rs.contracts.values().filter(|c| !c.situation.is_empty());
                let hint = did_you_mean(name, with_keys.map(|c| c.name.as_str()));
                self.problems.push(
                    Problem::error(
                        "rules::contract",
                        format!("modifier list `{}` reads the situation of `{name}`, which has no contract with situation keys{hint}", list.id),
                        &origin.file,
                        origin.span,
                    )
                    .with_label("no such contract")
                    .with_help("name a procedure whose contract lists situation keys, or list the keys here"),
                );
            }
            for m in &list.modifiers {
                let here = |code, message: String| Problem::error(code, message, &m.origin.file, m.origin.span);
                if let Some(option) = &m.option
                    && !rs.options.contains_key(option)
                {
                    let hint = did_you_mean(option, rs.options.keys().map(String::as_str));
                    self.problems.push(here(
                        "rules::unknown_option",
                        format!("modifier `{}` depends on option `{option}`, which does not exist{hint}", m.id),
                    ));
                }
                for (name, choices) in &m.interpretation {
                    match rs.interpretations.get(name) {
                        None => {
                            let hint = did_you_mean(name, rs.interpretations.keys().map(String::as_str));
                            self.problems.push(here(
                                "rules::unknown_interpretation",
                                format!(
                                    "modifier `{}` depends on interpretation `{name}`, which does not exist{hint}",
                                    m.id
                                ),
                            ));
                        }
                        Some(info) => {
                            for choice in choices.iter().filter(|c| !info.choices.iter().any(|(known, _)| known == *c))
                            {
                                let hint = did_you_mean(choice, info.choices.iter().map(|(c, _)| c.as_str()));
                                self.problems.push(here(
                                    "rules::unknown_choice",
                                    format!(
                                        "modifier `{}` depends on `{name}` being `{choice}`, which is not one of its choices{hint}",
                                        m.id
                                    ),
                                ));
                            }
                        }
                    }
                }
            }
        }
        let orders = &rs.vocabulary.orders;
        let markers = &rs.vocabulary.markers;
        for table in rs.tables.values() {
            for result in table.results.values() {
                let mut unknown: Vec<(&str, &str, &std::collections::BTreeSet<String>)> = Vec::new();
                if let Some(order) = &result.effects.order
                    && !orders.is_empty()
                    && !orders.contains(order)
                {
                    unknown.push(("order", order, orders));
                }
                if !markers.is_empty() {
                    for marker in result.effects.markers.keys().chain(&result.effects.clear_markers) {
                        if !markers.contains(marker) {
                            unknown.push(("marker", marker, markers));
                        }
                    }
                }
                self.check_marker_kinds(rs, table, result);
                for (kind, word, known) in unknown {
                    let hint = did_you_mean(word, known.iter().map(String::as_str));
                    let message = format!(
                        "result `{}` of table `{}` uses {kind} `{word}`, which the vocabulary of `{}` does not list{hint}",
                        result.id, table.id, rs.id
                    );
                    // Effects carry no spans: find the word in the file that wrote the result.
                    let place = table.file.as_ref().and_then(|f| find_word(f.inner(), word).map(|at| (f, at)));
                    let problem = match place {
                        Some((file, at)) => Problem::error("rules::unknown_word", message, file, at)
                            .with_label(format!("not a known {kind}")),
                        None => Problem::general("rules::unknown_word", message),
                    };
                    self.problems.push(
                        problem.with_help(format!(
                            "add it to `vocabulary: {kind}s:` in ruleset.yaml, or fix the spelling"
                        )),
                    );
                }
            }
        }
    }
}

impl Loader {
    /// Each marker a table result sets, against the kind the vocabulary gives it
    /// (`silenced: "no"` for a flag): located at the marker under the result that sets it.
    fn check_marker_kinds(&mut self, rs: &Ruleset, table: &Table, result: &TableResult) {
        for (name, value) in &result.effects.markers {
            let Some(why) = rs.vocabulary.marker_kind(name).and_then(|kind| kind.fault(name, value)) else {
                continue;
            };
            let message =
                format!("result `{}` of table `{}` sets a marker of the wrong kind: {why}", result.id, table.id);
            // Effects carry no spans: the marker's name after the result's id in the file that wrote it.
            let place = table.file.as_ref().and_then(|f| {
                let text = f.inner();
                // The result as defined under `results:`, not as named in a band before it.
                let results = find_word(text, "results").map_or(0, |at| at.offset());
                let from = find_word(&text[results..], &result.id).map_or(results, |at| results + at.offset());
                find_word(&text[from..], name).map(|at| (f, SourceSpan::from((at.offset() + from, at.len()))))
            });
            let problem = match place {
                Some((file, at)) => Problem::error("rules::marker_kind", message, file, at)
                    .with_label(format!("{} here", crate::unit::shown_marker(value))),
                None => Problem::general("rules::marker_kind", message),
            };
            self.problems
                .push(problem.with_help("each marker takes the kind `vocabulary: markers:` gives it in ruleset.yaml"));
        }
    }
}
