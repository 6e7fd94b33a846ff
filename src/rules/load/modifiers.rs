//! Modifier lists: each modifier, its gating, group and `per:` count checked against the ruleset.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::{Loader, missing_source, stem};
use crate::rules::contract::{self};
use crate::rules::modifier::{
    GroupDef, GroupRule, ListSituation, ModEffect, Modifier, ModifierDef, ModifierFile, ModifierList,
};
use crate::rules::problem::{Origin, did_you_mean};
use crate::rules::problem::{Problem, SourceFile};
use crate::rules::ruleset::Ruleset;
use crate::rules::source::Source;
use crate::rules::yaml::{self, span_of};

impl Loader {
    pub(super) fn modifier_lists(&mut self, rs: &mut Ruleset, folder: &Path) {
        for path in self.yaml_files(folder, "modifiers", "yaml") {
            let Some(file) = self.read(folder, &path) else {
                continue;
            };
            let parsed = match yaml::parse::<ModifierFile>(&file) {
                Ok(m) => m,
                Err(p) => {
                    self.problems.push(*p);
                    continue;
                }
            };
            let id = self.file_id(&file, &stem(&path), parsed.id.as_ref());
            let existing = rs.modifiers.remove(&id);
            let source = parsed.source.clone().or_else(|| existing.as_ref().map(|e| e.source.clone()));
            let mut list = existing.unwrap_or_else(|| ModifierList {
                id: id.clone(),
                title: String::new(),
                source: Source::House,
                table: None,
                groups: BTreeMap::new(),
                situation: None,
                modifiers: Vec::new(),
                file: file.clone(),
            });
            match (parsed.title, list.title.is_empty()) {
                (Some(title), _) => list.title = title,
                (None, true) => self.problems.push(
                    Problem::error(
                        "rules::missing_title",
                        format!("modifier list `{id}` has no title"),
                        &file,
                        (0, 0).into(),
                    )
                    .with_help("add `title:` as the chart prints it"),
                ),
                (None, false) => {}
            }
            match source {
                Some(s) => list.source = s,
                None => self.problems.push(missing_source(&file, &format!("modifier list `{id}`"))),
            }
            if let Some(table) = parsed.table {
                list.table = Some(table.value.clone());
                if !rs.tables.contains_key(&table.value) {
                    let hint = did_you_mean(&table.value, rs.tables.keys().map(String::as_str));
                    self.problems.push(
                        Problem::error(
                            "rules::unknown_table",
                            format!("modifier list `{id}` names table `{}`, which does not exist{hint}", table.value),
                            &file,
                            span_of(&file, &table),
                        )
                        .with_label("no such table"),
                    );
                }
            }
            if let Some(name) = parsed.situation_of {
                let origin = Origin { file: file.clone(), span: span_of(&file, &name) };
                list.situation = Some(ListSituation::Of(name.value, origin));
            }
            if !parsed.situation.is_empty() {
                let options: Vec<String> = rs.options.keys().cloned().collect();
                let keys = parsed.situation.0.into_iter().filter_map(|(name, def)| {
                    let what = format!("situation key `{}` of `{id}`", name.value);
                    contract::build_key(&file, &what, name, def, &rs.vocabulary, &options, &mut self.problems)
                });
                list.situation = Some(ListSituation::Keys(keys.collect()));
            }
            for (name, def) in &parsed.groups.0 {
                if let Some(rule) = self.group_rule(&file, rs, def) {
                    list.groups.insert(name.value.clone(), rule);
                }
            }
            let mut seen = BTreeSet::new();
            for def in parsed.modifiers {
                if !seen.insert(def.id.value.clone()) {
                    self.problems.push(
                        Problem::error(
                            "rules::duplicate_id",
                            format!("two modifiers in `{id}` share the id `{}`", def.id.value),
                            &file,
                            span_of(&file, &def.id),
                        )
                        .with_label("used again here"),
                    );
                    continue;
                }
                let position = list.modifiers.iter().position(|m| m.id == def.id.value);
                if def.remove {
                    match position {
                        Some(i) => {
                            list.modifiers.remove(i);
                        }
                        None => self.problems.push(
                            Problem::error(
                                "rules::unknown_modifier",
                                format!("there is no modifier `{}` in `{id}` to remove", def.id.value),
                                &file,
                                span_of(&file, &def.id),
                            )
                            .with_label("no such modifier"),
                        ),
                    }
                    continue;
                }
                if let Some(modifier) = self.modifier(&file, &list, def) {
                    match position {
                        Some(i) => list.modifiers[i] = modifier,
                        None => list.modifiers.push(modifier),
                    }
                }
            }
            rs.modifiers.insert(id, list);
        }
    }

    /// A group's rule, its interpretation and choices checked.
    fn group_rule(&mut self, file: &SourceFile, rs: &Ruleset, def: &GroupDef) -> Option<GroupRule> {
        let (interpretation, choices) = match def {
            GroupDef::Fixed(pick) => return Some(GroupRule::Fixed(*pick)),
            GroupDef::ByInterpretation { interpretation, choices } => (interpretation, choices),
        };
        let Some(info) = rs.interpretations.get(&interpretation.value) else {
            let hint = did_you_mean(&interpretation.value, rs.interpretations.keys().map(String::as_str));
            let message = format!("there is no interpretation `{}`{hint}", interpretation.value);
            self.problems.push(
                Problem::error("rules::unknown_interpretation", message, file, span_of(file, interpretation))
                    .with_label("no such interpretation"),
            );
            return None;
        };
        let known: Vec<&str> = info.choices.iter().map(|(c, _)| c.as_str()).collect();
        let missing: Vec<&str> = known.iter().copied().filter(|c| !choices.contains_key(*c)).collect();
        let extra: Vec<&str> = choices.keys().map(String::as_str).filter(|c| !known.contains(c)).collect();
        if !missing.is_empty() || !extra.is_empty() {
            let message = format!(
                "the group's choices must be those of `{}` ({}); missing: {}; unknown: {}",
                interpretation.value,
                known.join(", "),
                if missing.is_empty() { "none".to_string() } else { missing.join(", ") },
                if extra.is_empty() { "none".to_string() } else { extra.join(", ") },
            );
            self.problems.push(
                Problem::error("rules::group_choices", message, file, span_of(file, interpretation))
                    .with_label("for this interpretation"),
            );
            return None;
        }
        Some(GroupRule::ByInterpretation { interpretation: interpretation.value.clone(), choices: choices.clone() })
    }

    fn modifier(&mut self, file: &SourceFile, list: &ModifierList, def: ModifierDef) -> Option<Modifier> {
        let id_span = span_of(file, &def.id);
        let effects: Vec<ModEffect> = [
            def.value.as_ref().map(|v| ModEffect::Add(v.value)),
            def.halve.as_ref().map(|q| ModEffect::Halve(q.value.clone())),
            def.double.as_ref().map(|q| ModEffect::Double(q.value.clone())),
        ]
        .into_iter()
        .flatten()
        .collect();
        let effect = match <[ModEffect; 1]>::try_from(effects) {
            Ok([effect]) => effect,
            Err(effects) => {
                let message = if effects.is_empty() {
                    format!("modifier `{}` says neither `value`, `halve` nor `double`", def.id.value)
                } else {
                    format!("modifier `{}` gives more than one of `value`, `halve` and `double`", def.id.value)
                };
                self.problems.push(
                    Problem::error("rules::modifier_effect", message, file, id_span)
                        .with_label("here")
                        .with_help("give exactly one: `value: -1`, `halve: fire_points` or `double: fire_points`"),
                );
                return None;
            }
        };
        let Some(text) = def.text else {
            self.problems.push(
                Problem::error(
                    "rules::missing_text",
                    format!("modifier `{}` has no `text`", def.id.value),
                    file,
                    id_span,
                )
                .with_label("here")
                .with_help("give the modifier as the chart prints it"),
            );
            return None;
        };
        let source = def.source.unwrap_or_else(|| list.source.clone());
        let origin_span = def.when.as_ref().map_or(id_span, |w| span_of(file, w));
        let group = match def.group {
            Some(group) if !list.groups.contains_key(&group.value) => {
                let hint = did_you_mean(&group.value, list.groups.keys().map(String::as_str));
                let message = format!(
                    "modifier `{}` is in group `{}`, which `groups:` does not define{hint}",
                    def.id.value, group.value
                );
                self.problems.push(
                    Problem::error("rules::unknown_group", message, file, span_of(file, &group))
                        .with_label("no such group"),
                );
                return None;
            }
            group => group.map(|g| g.value),
        };
        if let (Some(per), false) = (&def.per, matches!(effect, ModEffect::Add(_))) {
            let message = format!("modifier `{}` has `per:`, which only goes with `value:`", def.id.value);
            self.problems
                .push(Problem::error("rules::modifier_effect", message, file, span_of(file, per)).with_label("here"));
            return None;
        }
        let per = def.per.map(|p| {
            let origin = Origin { file: file.clone(), span: span_of(file, &p) };
            (p.value, origin)
        });
        Some(Modifier {
            per,
            id: def.id.value,
            effect,
            when: def.when.map(|w| w.value),
            group,
            option: def.option.map(|o| o.value),
            interpretation: def.interpretation.0.into_iter().map(|(n, c)| (n.value, c.into_words())).collect(),
            text: text.trim().to_string(),
            source,
            origin: Origin { file: file.clone(), span: origin_span },
        })
    }
}
