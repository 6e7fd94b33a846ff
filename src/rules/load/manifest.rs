//! A layer's manifest (`ruleset.yaml`): read, and applied over the layers below it: identity,
//! dice conventions, vocabulary, options, interpretations and the choices it sets.

use std::path::Path;

use serde_saphyr::Spanned;

use super::Loader;
use crate::rules::manifest::{ManifestFile, UnitDefaultsDef, UnitFieldDef, UnitFieldType, UnitTemplateDef};
use crate::rules::option_inputs;
use crate::rules::problem::{Problem, SourceFile};
use crate::rules::ruleset::{ConstantInfo, InterpretationInfo, Layer, OptionInfo, Ruleset};
use crate::rules::switch_error::SwitchError;
use crate::rules::unit_template::UnitTemplate;
use crate::rules::yaml::{self, Entries, span_of};
use crate::unit::{FieldFault, FieldKind, FieldSpec, Marker, Unit};

impl Loader {
    pub(super) fn manifest(&mut self, folder: &Path) -> Option<&(SourceFile, ManifestFile)> {
        if !self.manifests.contains_key(folder) {
            let loaded = self.read_manifest(folder);
            self.manifests.insert(folder.to_path_buf(), loaded);
        }
        self.manifests.get(folder).and_then(Option::as_ref)
    }

    fn read_manifest(&mut self, folder: &Path) -> Option<(SourceFile, ManifestFile)> {
        if !folder.is_dir() {
            self.problems.push(
                Problem::general("rules::not_found", format!("no ruleset folder at {}", folder.display()))
                    .with_help("name a ruleset by its id (a folder under rules/) or by its folder's path"),
            );
            return None;
        }
        let file = self.read(folder, Path::new("ruleset.yaml"))?;
        match yaml::parse::<ManifestFile>(&file) {
            Ok(manifest) => {
                let stem = folder.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                if manifest.id.value != stem {
                    self.problems.push(
                        Problem::error(
                            "rules::id_mismatch",
                            format!("the ruleset id `{}` differs from its folder `{stem}`", manifest.id.value),
                            &file,
                            span_of(&file, &manifest.id),
                        )
                        .with_label("not the folder's name")
                        .warning(),
                    );
                }
                Some((file, manifest))
            }
            Err(problem) => {
                self.problems.push(*problem);
                None
            }
        }
    }

    /// The first layer: an empty ruleset with the manifest applied (which sets its id and title).
    pub(super) fn base(&mut self, folder: &Path, file: &SourceFile, m: ManifestFile) -> Ruleset {
        // A d10 read the wrong way shifts every table by one: say which way it is read.
        if !m.dice.as_ref().is_some_and(|d| d.states_d10()) {
            self.problems.push(
                Problem::error(
                    "rules::dice_unstated",
                    format!("ruleset `{}` does not say how its d10 is numbered: it is read 1-10", m.id.value),
                    file,
                    span_of(file, &m.id),
                )
                .with_label("no `dice:` in this ruleset")
                .with_help(
                    "add `dice: { d10: \"1-10\" }` (a printed 0 is a 10) or `dice: { d10: \"0-9\" }` to ruleset.yaml",
                )
                .warning(),
            );
        }
        let mut rs = Ruleset::empty();
        self.overlay(&mut rs, folder, file, m);
        rs
    }

    /// Applies a manifest: identity, conventions, vocabulary, new options and
    /// interpretations, and the switches it sets.
    pub(super) fn overlay(&mut self, rs: &mut Ruleset, folder: &Path, file: &SourceFile, m: ManifestFile) {
        rs.id = m.id.value.clone();
        rs.title = m.title.clone();
        rs.source = m.source.clone();
        rs.layers.push(Layer {
            id: m.id.value.clone(),
            title: m.title.clone(),
            folder: folder.to_path_buf(),
            extends: m.extends.as_ref().map(|e| e.value.clone()),
            manifest: file.clone(),
        });
        if let Some(dice) = &m.dice {
            dice.apply(&mut rs.dice, file, &mut self.problems);
        }
        if let Some(scale) = m.scale {
            rs.scale = scale;
        }
        let v = m.vocabulary;
        for (into, from) in [
            (&mut rs.vocabulary.arms, v.arms),
            (&mut rs.vocabulary.types, v.types),
            (&mut rs.vocabulary.grades, v.grades),
            (&mut rs.vocabulary.formations, v.formations),
            (&mut rs.vocabulary.orders, v.orders),
            (&mut rs.vocabulary.nations, v.nations),
        ] {
            into.extend(from);
        }
        rs.vocabulary.declare_markers(v.marker_kinds);
        // The facts of the sequence of play are markers too, each a count.
        // (A layer's sequence takes the place of the one below, whose facts it may name again.)
        let markers: std::collections::BTreeMap<String, crate::unit::MarkerKind> = rs
            .vocabulary
            .marker_kinds
            .iter()
            .filter(|(name, _)| !rs.sequence.as_ref().is_some_and(|s| s.facts.contains_key(*name)))
            .map(|(name, kind)| (name.clone(), kind.clone()))
            .collect();
        if let Some(def) = m.sequence
            && let Some(sequence) = crate::rules::sequence::build(def, file, &markers, &mut self.problems)
        {
            let facts = sequence.facts.keys().map(|name| (name.clone(), crate::unit::MarkerKind::Count));
            rs.vocabulary.declare_markers(facts.collect());
            rs.sequence = Some(sequence);
        }
        let mut brings = Vec::new();
        for (name, def) in m.options.0 {
            rs.settings.options.insert(name.value.clone(), def.default);
            brings.push((name.value.clone(), def.brings));
            rs.options.insert(
                name.value,
                OptionInfo {
                    text: def.text.trim().to_string(),
                    default: def.default,
                    number: def.number,
                    brings: Vec::new(),
                    source: def.source,
                },
            );
        }
        self.unit_fields(rs, file, m.unit_fields, m.unit_defaults);
        // What an option brings is checked against the vocabulary and the unit fields, all read.
        for (name, defs) in brings {
            let built = option_inputs::build(file, &name, defs, &rs.vocabulary, &mut self.problems);
            if let Some(info) = rs.options.get_mut(&name) {
                info.brings = built;
            }
        }
        self.unit_templates(rs, file, m.unit_templates);
        crate::rules::unused::add(&mut rs.unused, m.unused, file, &mut self.problems);
        for (name, def) in m.constants.0 {
            let info = ConstantInfo {
                value: def.value,
                text: def.text.trim().to_string(),
                source: def.source,
                written: crate::rules::problem::Origin { file: file.clone(), span: span_of(file, &name) },
                replaces_below: rs.constants.contains_key(&name.value),
            };
            rs.constants.insert(name.value, info);
        }
        for (name, def) in m.interpretations.0 {
            let choices: Vec<(String, String)> =
                def.choices.0.iter().map(|(c, t)| (c.value.clone(), t.trim().to_string())).collect();
            if !choices.iter().any(|(c, _)| *c == def.default.value) {
                let known: Vec<&str> = choices.iter().map(|(c, _)| c.as_str()).collect();
                self.problems.push(
                    Problem::error(
                        "rules::unknown_choice",
                        format!("the default `{}` is not one of the choices of `{}`", def.default.value, name.value),
                        file,
                        span_of(file, &def.default),
                    )
                    .with_label("not a choice")
                    .with_help(format!("choices: {}", known.join(", "))),
                );
            }
            rs.settings.interpretations.insert(name.value.clone(), def.default.value.clone());
            rs.interpretations.insert(
                name.value,
                InterpretationInfo {
                    text: def.text.trim().to_string(),
                    inventory: def.inventory,
                    choices,
                    default: def.default.value,
                    source: def.source,
                },
            );
        }
        for (names, on) in [(&m.with, true), (&m.without, false)] {
            for name in names {
                if let Err(err) = rs.set_option(&name.value, on) {
                    self.problems.push(
                        Problem::error("rules::unknown_option", err.to_string(), file, span_of(file, name))
                            .with_label("no such option"),
                    );
                }
            }
        }
        for (name, choice) in &m.set.0 {
            if let Err(err) = rs.set_interpretation(&name.value, &choice.value) {
                // Underlined where it went wrong: the choice the interpretation lacks, or its name.
                let span = match err {
                    SwitchError::NoSuchChoice { .. } => span_of(file, choice),
                    SwitchError::Unknown { .. } => span_of(file, name),
                };
                self.problems.push(Problem::error("rules::unknown_interpretation", err.to_string(), file, span));
            }
        }
    }
}

impl Loader {
    /// A layer's unit templates, each checked as a unit made from it would be.
    fn unit_templates(
        &mut self,
        rs: &mut Ruleset,
        file: &SourceFile,
        templates: Entries<Spanned<String>, UnitTemplateDef>,
    ) {
        for (name, def) in templates.0 {
            if let Some(wrong) = crate::rules::unit_template::fault(&def.unit, &rs.vocabulary) {
                let message = format!("unit template `{}`: {wrong}", name.value);
                self.problems.push(
                    Problem::error("rules::unit_template", message, file, span_of(file, &name))
                        .with_label("this template"),
                );
                continue;
            }
            let template = UnitTemplate { text: def.text.trim().to_string(), source: def.source, unit: def.unit };
            rs.unit_templates.insert(name.value, template);
        }
    }

    /// A layer's own unit fields and kernel defaults, into the vocabulary: each field's name
    /// free (not a property every unit has), its default of its type and among its words.
    fn unit_fields(
        &mut self,
        rs: &mut Ruleset,
        file: &SourceFile,
        fields: Entries<Spanned<String>, UnitFieldDef>,
        defaults: Option<UnitDefaultsDef>,
    ) {
        for (name, def) in fields.0 {
            if Unit::is_kernel_name(&name.value) {
                let message = format!(
                    "`{}` is a property every unit has; a field of the ruleset's own needs another name",
                    name.value
                );
                self.problems
                    .push(Problem::error("rules::unit_field", message, file, span_of(file, &name)).with_label("taken"));
                continue;
            }
            let kind = match def.kind {
                UnitFieldType::Bool => FieldKind::Flag,
                UnitFieldType::Int => FieldKind::Count,
                UnitFieldType::Word => FieldKind::Word,
            };
            let words = def.words.iter().cloned().collect();
            let (text, source) = (def.text.trim().to_string(), def.source.to_string());
            let spec = FieldSpec { kind, default: def.default.value.clone(), words, text, source };
            // The default is checked as any unit's value is; the words are named as written.
            let wrong = match (spec.fault(&spec.default), &spec.default) {
                (None, _) => None,
                (Some(FieldFault::Word), Marker::Text(word)) => {
                    Some(format!(", `{word}`, is not one of its words: {}", def.words.join(", ")))
                }
                _ => Some(format!(" is not of type {}", kind.name())),
            };
            if let Some(wrong) = wrong {
                let message = format!("the default of unit field `{}`{wrong}", name.value);
                self.problems.push(
                    Problem::error("rules::unit_field", message, file, span_of(file, &def.default))
                        .with_label("this default"),
                );
                continue;
            }
            rs.vocabulary.unit_fields.insert(name.value, spec);
        }
        if let Some(d) = defaults {
            let into = &mut rs.vocabulary.unit_defaults;
            into.stands = d.stands.or(into.stands);
            into.arm = d.arm.or(into.arm.take());
            into.formation = d.formation.or(into.formation.take());
        }
    }
}
