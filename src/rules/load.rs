//! Loading a ruleset folder (and the overlays stacked on it) into a checked `Ruleset`, reporting every problem at once.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::SourceSpan;
use serde_saphyr::Spanned;

use super::band::{Band, check_bands};
use super::contract::{self, ContractFile};
use super::files::{self, Confined, FileError, Refusal};
use super::manifest::ManifestFile;
use super::modifier::{
    GroupDef, GroupRule, ListSituation, ModEffect, Modifier, ModifierDef, ModifierFile, ModifierList,
};
use super::problem::{Origin, did_you_mean};
use super::problem::{Problem, Problems, SourceFile, source_file};
use super::ruleset::{InterpretationInfo, Layer, OptionInfo, Procedure, Ruleset};
use super::source::Source;
use super::table::{Edge, GridRow, LookupValue, ResultDef, Table, TableBody, TableFile, TableResult};
use super::yaml::{self, span_of};
use crate::dice::{DiceConventions, parse_with};

/// A loaded ruleset and the warnings found on the way (errors stop the load).
#[derive(Debug)]
pub struct Loaded {
    pub ruleset: Ruleset,
    pub warnings: Vec<Problem>,
}

/// Where ruleset ids are looked up: `$GROGNARD_RULES`, else `./rules` when it
/// exists, else the `rules/` folder grognard was built with.
pub fn default_rules_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("GROGNARD_RULES") {
        return PathBuf::from(dir);
    }
    let here = PathBuf::from("rules");
    if here.join(".").is_dir()
        && here.read_dir().is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| files::is_ruleset_folder(&e.path()))))
    {
        return here;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// The folder for `--rules ID|DIR`: a path when it names a folder, else `rules_dir/ID`.
pub fn resolve(spec: &str, rules_dir: &Path) -> PathBuf {
    let as_path = PathBuf::from(spec);
    if spec.contains(std::path::MAIN_SEPARATOR)
        || spec.contains('/')
        || (as_path.is_dir() && as_path.join("ruleset.yaml").is_file())
    {
        as_path
    } else {
        rules_dir.join(spec)
    }
}

/// Loads the rulesets named by `specs` (ids or folders), each overlay on top
/// of the ruleset it extends (loaded first when not named). Every problem in
/// every file is reported; the load fails when any of them is an error.
pub fn load(specs: &[String], rules_dir: &Path) -> Result<Loaded, Problems> {
    match load_partial(specs, rules_dir) {
        (Some(ruleset), problems) if !problems.iter().any(Problem::is_error) => {
            Ok(Loaded { ruleset, warnings: problems })
        }
        (_, problems) => Err(Problems(problems)),
    }
}

/// Like [`load`], but returns what could be loaded along with every problem,
/// errors included: `grognard check` goes on to check the scripts of a
/// ruleset whose files have mistakes, so that one run reports everything.
pub fn load_partial(specs: &[String], rules_dir: &Path) -> (Option<Ruleset>, Vec<Problem>) {
    let mut loader = Loader { problems: Vec::new(), manifests: HashMap::new() };
    let ruleset = loader.load(specs, rules_dir);
    (ruleset, loader.problems)
}

struct Loader {
    problems: Vec<Problem>,
    manifests: HashMap<PathBuf, Option<(SourceFile, ManifestFile)>>,
}

impl Loader {
    fn load(&mut self, specs: &[String], rules_dir: &Path) -> Option<Ruleset> {
        if specs.is_empty() {
            self.problems.push(
                Problem::general("rules::none", "no ruleset was named")
                    .with_help("name one with `--rules ID` or `--rules path/to/folder`"),
            );
            return None;
        }
        let mut folders: Vec<PathBuf> = Vec::new();
        for spec in specs {
            let folder = resolve(spec, rules_dir);
            for f in self.chain(&folder, rules_dir, &mut Vec::new())? {
                if !folders.contains(&f) {
                    folders.push(f);
                }
            }
        }
        let mut ruleset: Option<Ruleset> = None;
        for folder in folders {
            let (file, manifest) = self.manifests.remove(&folder).flatten()?;
            ruleset = Some(match ruleset {
                None => self.base(&folder, &file, manifest),
                Some(mut rs) => {
                    self.overlay(&mut rs, &folder, &file, manifest);
                    rs
                }
            });
            let rs = ruleset.as_mut().expect("just set");
            self.tables(rs, &folder);
            self.modifier_lists(rs, &folder);
            self.procedures(rs, &folder);
            self.contracts(rs, &folder);
        }
        let ruleset = ruleset?;
        self.cross_check(&ruleset);
        Some(ruleset)
    }

    /// The folders to load for `folder`: the bases it extends, then itself.
    fn chain(&mut self, folder: &Path, rules_dir: &Path, seen: &mut Vec<PathBuf>) -> Option<Vec<PathBuf>> {
        if seen.iter().any(|s| s == folder) {
            let names: Vec<String> = seen.iter().map(|p| p.display().to_string()).collect();
            self.problems.push(Problem::general(
                "rules::extends_cycle",
                format!("rulesets extend each other in a circle: {} > {}", names.join(" > "), folder.display()),
            ));
            return None;
        }
        seen.push(folder.to_path_buf());
        let extends = self.manifest(folder)?.1.extends.as_ref().map(|e| e.value.clone());
        let mut chain = match extends {
            Some(base) => self.chain(&resolve(&base, rules_dir), rules_dir, seen)?,
            None => Vec::new(),
        };
        chain.push(folder.to_path_buf());
        Some(chain)
    }

    fn manifest(&mut self, folder: &Path) -> Option<&(SourceFile, ManifestFile)> {
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

    /// Reads `path` inside `folder`: only a regular file inside it, so that a
    /// fifo cannot hang the load and a link cannot read a file elsewhere.
    fn read(&mut self, folder: &Path, path: &Path) -> Option<SourceFile> {
        let name = folder.join(path).display().to_string();
        match Confined::new([folder.to_path_buf()], "ruleset folder").read(path) {
            Ok(text) => Some(source_file(&name, text)),
            Err(err) => {
                self.problems.push(file_problem(folder, err));
                None
            }
        }
    }

    /// The first layer: an empty ruleset with the manifest applied (which sets its id and title).
    fn base(&mut self, folder: &Path, file: &SourceFile, m: ManifestFile) -> Ruleset {
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
    fn overlay(&mut self, rs: &mut Ruleset, folder: &Path, file: &SourceFile, m: ManifestFile) {
        rs.id = m.id.value.clone();
        rs.title = m.title.clone();
        rs.source = m.source.clone();
        rs.layers.push(Layer {
            id: m.id.value.clone(),
            title: m.title.clone(),
            folder: folder.to_path_buf(),
            extends: m.extends.as_ref().map(|e| e.value.clone()),
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
            (&mut rs.vocabulary.markers, v.markers),
        ] {
            into.extend(from);
        }
        for (name, def) in m.options.0 {
            rs.settings.options.insert(name.value.clone(), def.default);
            rs.options.insert(
                name.value,
                OptionInfo {
                    text: def.text.trim().to_string(),
                    default: def.default,
                    number: def.number,
                    source: def.source,
                },
            );
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
                if let Err(message) = rs.set_option(&name.value, on) {
                    self.problems.push(
                        Problem::error("rules::unknown_option", message, file, span_of(file, name))
                            .with_label("no such option"),
                    );
                }
            }
        }
        for (name, choice) in &m.set.0 {
            if let Err(message) = rs.set_interpretation(&name.value, &choice.value) {
                let span = if rs.interpretations.contains_key(&name.value) {
                    span_of(file, choice)
                } else {
                    span_of(file, name)
                };
                self.problems.push(Problem::error("rules::unknown_interpretation", message, file, span));
            }
        }
    }

    /// The files of a sub-folder ending in `extension`, sorted, as paths
    /// relative to `folder`; other files there are reported. A sub-folder
    /// that is not a folder inside the ruleset (a fifo, a link out) is an error.
    fn yaml_files(&mut self, folder: &Path, sub: &str, extension: &str) -> Vec<PathBuf> {
        let dir = match Confined::new([folder.to_path_buf()], "ruleset folder").folder(Path::new(sub)) {
            Ok(dir) => dir,
            // A ruleset need not have every kind of file.
            Err(FileError { refusal: Refusal::Missing, .. }) => return Vec::new(),
            Err(err) => {
                self.problems.push(file_problem(folder, err));
                return Vec::new();
            }
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut files = Vec::new();
        for entry in entries.flatten() {
            let path = Path::new(sub).join(entry.file_name());
            if path.extension().is_some_and(|e| e == extension) {
                // Read (or refused by name) later, whatever it turns out to be.
                files.push(path);
            } else if std::fs::metadata(entry.path()).map_or(true, |m| !m.is_dir()) {
                self.problems.push(
                    Problem::general(
                        "rules::stray_file",
                        format!("{} is not read: files in {sub}/ end in .{extension}", folder.join(&path).display()),
                    )
                    .warning(),
                );
            }
        }
        files.sort();
        files
    }

    fn tables(&mut self, rs: &mut Ruleset, folder: &Path) {
        for path in self.yaml_files(folder, "tables", "yaml") {
            let Some(file) = self.read(folder, &path) else {
                continue;
            };
            let parsed = match yaml::parse::<TableFile>(&file) {
                Ok(t) => t,
                Err(p) => {
                    self.problems.push(*p);
                    continue;
                }
            };
            let stem = stem(&path);
            if let Some(target) = &parsed.patch {
                match rs.tables.get(&target.value).cloned() {
                    Some(base) => {
                        if let Some(table) = TableBuilder::new(self, &file, rs.dice.clone()).patch(base, parsed) {
                            rs.tables.insert(table.id.to_string(), table);
                        }
                    }
                    None => {
                        let known: Vec<&str> = rs.tables.keys().map(String::as_str).collect();
                        let hint = did_you_mean(&target.value, known.iter().copied());
                        self.problems.push(
                            Problem::error(
                                "rules::unknown_table",
                                format!("there is no table `{}` to patch{hint}", target.value),
                                &file,
                                span_of(&file, target),
                            )
                            .with_label("no such table"),
                        );
                    }
                }
                continue;
            }
            if let Some(table) = TableBuilder::new(self, &file, rs.dice.clone()).build(&stem, parsed) {
                rs.tables.insert(table.id.to_string(), table);
            }
        }
    }

    fn modifier_lists(&mut self, rs: &mut Ruleset, folder: &Path) {
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
                let keys = parsed.situation.0.into_iter().filter_map(|(name, def)| {
                    let what = format!("situation key `{}` of `{id}`", name.value);
                    contract::build_key(&file, &what, name, def, &rs.vocabulary, &mut self.problems)
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

    fn procedures(&mut self, rs: &mut Ruleset, folder: &Path) {
        for path in self.yaml_files(folder, "procedures", "rhai") {
            if let Some(file) = self.read(folder, &path) {
                rs.procedures.push(Procedure { name: stem(&path), file, folder: folder.to_path_buf() });
            }
        }
    }

    /// `contracts/*.yaml`: a later layer's contract for a procedure replaces an earlier one.
    fn contracts(&mut self, rs: &mut Ruleset, folder: &Path) {
        let mut this_layer: BTreeMap<String, SourceFile> = BTreeMap::new();
        for path in self.yaml_files(folder, "contracts", "yaml") {
            let Some(file) = self.read(folder, &path) else {
                continue;
            };
            match yaml::parse::<ContractFile>(&file) {
                Ok(parsed) => {
                    for contract in contract::build(&file, parsed, &rs.source, &rs.vocabulary, &mut self.problems) {
                        if let Some(first) = this_layer.insert(contract.name.clone(), file.clone()) {
                            self.problems.push(
                                Problem::error(
                                    "rules::duplicate_id",
                                    format!(
                                        "a second contract for `{}` (the first is in {})",
                                        contract.name,
                                        first.name()
                                    ),
                                    &contract.origin.file,
                                    contract.origin.span,
                                )
                                .with_label("again here")
                                .with_help("one contract per procedure; an overlay's contract replaces its base's"),
                            );
                        }
                        rs.contracts.insert(contract.name.clone(), contract);
                    }
                }
                Err(p) => self.problems.push(*p),
            }
        }
    }

    /// The id a file declares, checked against its file name.
    fn file_id(&mut self, file: &SourceFile, stem: &str, declared: Option<&Spanned<String>>) -> String {
        if let Some(id) = declared
            && id.value != stem
        {
            self.problems.push(
                Problem::error(
                    "rules::id_mismatch",
                    format!("the id `{}` differs from the file name `{stem}`", id.value),
                    file,
                    span_of(file, id),
                )
                .with_label("not the file's name")
                .with_help("an id is its file's name without `.yaml`; leave `id:` out or make them the same"),
            );
        }
        stem.to_string()
    }

    /// Checks that need the whole ruleset: modifiers' options and
    /// interpretations, and the words effects use.
    fn cross_check(&mut self, rs: &Ruleset) {
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

/// Where `word` first stands as a whole word in `text`.
fn find_word(text: &str, word: &str) -> Option<SourceSpan> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word)
        .find(|(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
        .map(|(at, _)| (at, word.len()).into())
}

/// A file of the ruleset that was not read, named by its path under the ruleset's folder.
fn file_problem(folder: &Path, mut err: FileError) -> Problem {
    err.path = folder.join(&err.path);
    let help = match err.refusal {
        Refusal::Missing | Refusal::Unreadable(_) => None,
        _ => Some("only regular files inside the ruleset folder are read"),
    };
    let problem = Problem::general("rules::io", err.to_string());
    match help {
        Some(help) => problem.with_help(help),
        None => problem,
    }
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default()
}

fn missing_source(file: &SourceFile, what: &str) -> Problem {
    Problem::error("rules::missing_source", format!("{what} does not name its source"), file, (0, 0).into()).with_help(
        "add `source: { seed: \"004\", section: \"...\" }`, or `source: house` for a value the seeds do not give",
    )
}

/// Builds one table from its file, pushing every problem found.
struct TableBuilder<'a> {
    loader: &'a mut Loader,
    file: &'a SourceFile,
    dice: DiceConventions,
    /// Where each band was written: (row label, or none for a bands table; band text).
    spans: HashMap<(Option<String>, String), SourceSpan>,
    /// The source of rows written by an overlay's patch.
    row_source: Option<Source>,
}

impl<'a> TableBuilder<'a> {
    fn new(loader: &'a mut Loader, file: &'a SourceFile, dice: DiceConventions) -> Self {
        TableBuilder { loader, file, dice, spans: HashMap::new(), row_source: None }
    }

    fn push(&mut self, problem: Problem) {
        self.loader.problems.push(problem);
    }

    fn error(&mut self, code: &'static str, message: String, span: SourceSpan, label: &str) {
        let problem = Problem::error(code, message, self.file, span).with_label(label);
        self.push(problem);
    }

    fn band(&mut self, text: &Spanned<String>) -> Option<Band> {
        match Band::parse(&text.value) {
            Ok(band) => Some(band),
            Err(err) => {
                let problem = Problem::within(self.file, "rules::band", span_of(self.file, text), &err);
                self.push(problem);
                None
            }
        }
    }

    fn build(mut self, stem: &str, t: TableFile) -> Option<Table> {
        let id = self.loader.file_id(self.file, stem, t.id.as_ref());
        // A missing title or source is reported, and the table still checked.
        let title = t.title.clone().unwrap_or_else(|| {
            self.error("rules::missing_title", format!("table `{id}` has no title"), (0, 0).into(), "");
            id.clone()
        });
        let source = t.source.clone().unwrap_or_else(|| {
            let problem = missing_source(self.file, &format!("table `{id}`"));
            self.push(problem);
            Source::House
        });
        let mut table = Table {
            id: id.into(),
            title,
            source,
            roll: None,
            reach: None,
            below: Edge::Error,
            above: Edge::Error,
            body: TableBody::Bands(Vec::new()),
            results: BTreeMap::new(),
            result_order: Vec::new(),
            notes: Vec::new(),
            file: Some(self.file.clone()),
        };
        let bodies = [t.bands.is_some(), t.rows.is_some() || t.columns.is_some(), t.values.is_some()];
        match bodies.iter().filter(|b| **b).count() {
            1 => {}
            0 => {
                let message =
                    format!("table `{}` has no body: give `bands`, `rows` with `columns`, or `values`", table.id);
                self.error("rules::table_body", message, (0, 0).into(), "");
                return None;
            }
            _ => {
                let message = format!("table `{}` gives more than one of `bands`, `rows` and `values`", table.id);
                self.error("rules::table_body", message, (0, 0).into(), "");
                return None;
            }
        }
        self.fill(&mut table, t);
        Some(table)
    }

    /// An overlay's patch: rows, bands, results and values replace those of the same name.
    fn patch(mut self, mut table: Table, t: TableFile) -> Option<Table> {
        // The table keeps its own source; the rows a patch writes carry the patch's.
        let Some(source) = t.source.clone() else {
            let problem = missing_source(self.file, &format!("the patch of table `{}`", table.id));
            self.push(problem);
            return None;
        };
        if let Some(title) = t.title.clone() {
            table.title = title;
        }
        self.row_source = Some(source.clone());
        let changed: Vec<String> = t.rows.iter().flat_map(|r| r.0.iter().map(|(l, _)| l.value.clone())).collect();
        if !changed.is_empty() {
            table.notes.push(format!("rows {} changed by {} ({source})", changed.join(", "), self.file.name()));
        }
        self.fill(&mut table, t);
        Some(table)
    }

    /// Reads the parts a file gives into `table` (new or patched), then checks it whole.
    fn fill(&mut self, table: &mut Table, t: TableFile) {
        table.notes.extend(t.notes.iter().map(|n| n.trim().to_string()));
        if let Some(below) = t.below {
            table.below = below;
        }
        if let Some(above) = t.above {
            table.above = above;
        }
        // A patch that says no roll or reach keeps the table's.
        let mut reach: Option<(i64, i64)> = table.reach;
        if let Some(roll) = &t.roll {
            match parse_with(&roll.value, &self.dice, &Default::default()) {
                Ok(expr) => {
                    reach = Some((expr.left.min(), expr.left.max()));
                    table.roll = Some(expr.to_string());
                }
                Err(err) => {
                    let problem = Problem::within(self.file, "rules::roll", span_of(self.file, roll), &err);
                    self.push(problem);
                }
            }
        }
        if let Some(text) = &t.reach
            && let Some(band) = self.band(text)
        {
            reach = Some((band.min().unwrap_or(i64::MIN), band.max().unwrap_or(i64::MAX)));
        }
        for (id, def) in &t.results.0 {
            let ResultDef { text, effects, source } = def.clone();
            let source = source.unwrap_or_else(|| table.source.clone());
            if !table.result_order.contains(&id.value) {
                table.result_order.push(id.value.clone());
            }
            let text = text.trim().to_string();
            let result = TableResult { id: id.value.clone(), text, effects, source };
            table.results.insert(id.value.clone(), Arc::new(result));
        }
        let mut used: Vec<&Spanned<String>> = Vec::new();
        if let Some(bands) = &t.bands {
            let mut rows: Vec<(Band, String)> = match &table.body {
                TableBody::Bands(existing) => existing.clone(),
                _ => Vec::new(),
            };
            // Where each band is among the rows: looking each one up by scanning
            // the rows would take minutes for a table of many thousands of bands.
            let mut index: HashMap<Band, usize> = rows.iter().enumerate().map(|(i, (b, _))| (b.clone(), i)).collect();
            for (band_text, result) in &bands.0 {
                if let Some(band) = self.band(band_text) {
                    self.spans.insert((None, band.to_string()), span_of(self.file, band_text));
                    used.push(result);
                    let written = index.get(&band).copied();
                    if let (Some(_), None) = (written, &self.row_source) {
                        // Outside a patch, the same band twice is a mistake, not a change.
                        let message = format!("table `{}` has the band `{band}` twice", table.id);
                        self.error("rules::band_overlap", message, span_of(self.file, band_text), "written again here");
                        continue;
                    }
                    match written {
                        Some(i) => rows[i].1 = result.value.clone(),
                        None => {
                            index.insert(band.clone(), rows.len());
                            rows.push((band, result.value.clone()));
                        }
                    }
                }
            }
            table.body = TableBody::Bands(rows);
        }
        if t.rows.is_some() || t.columns.is_some() {
            self.grid(table, &t);
        }
        if let Some(values) = &t.values {
            self.lookup(table, &t, values);
        }
        for result in used {
            if !table.results.contains_key(&result.value) {
                let hint = did_you_mean(&result.value, table.results.keys().map(String::as_str));
                let message = format!(
                    "table `{}` reads a result `{}` that its `results` do not define{hint}",
                    table.id, result.value
                );
                self.error("rules::unknown_result", message, span_of(self.file, result), "no such result");
            }
        }
        table.reach = reach;
        self.check_coverage(table, reach);
    }

    fn grid(&mut self, table: &mut Table, t: &TableFile) {
        let (mut row_key, mut columns, mut rows) = match &table.body {
            TableBody::Grid { row_key, columns, rows } => (Some(row_key.clone()), columns.clone(), rows.clone()),
            _ => (None, Vec::new(), Vec::new()),
        };
        if let Some(key) = &t.row_key {
            row_key = Some(key.clone());
        }
        let Some(row_key) = row_key else {
            self.error(
                "rules::table_body",
                format!("grid `{}` has rows but no `row_key` saying what chooses a row", table.id),
                (0, 0).into(),
                "",
            );
            return;
        };
        if let Some(cols) = &t.columns {
            columns = cols.iter().map(|c| c.value.clone()).collect();
            for c in cols {
                if !table.results.contains_key(&c.value) {
                    let hint = did_you_mean(&c.value, table.results.keys().map(String::as_str));
                    self.error(
                        "rules::unknown_result",
                        format!("column `{}` of grid `{}` has no entry in `results`{hint}", c.value, table.id),
                        span_of(self.file, c),
                        "no such result",
                    );
                }
            }
        }
        // Where each row is, by label, so that a patched row is found without scanning them all.
        let mut labels: HashMap<Arc<str>, usize> = rows.iter().enumerate().map(|(i, r)| (r.label.clone(), i)).collect();
        for (label, cells) in t.rows.iter().flat_map(|r| &r.0) {
            // A row label is a band of the row key (`6,7`, `51+`), or a plain
            // label: a word (`excellent`) or a fraction (`1/2`).
            let plain = label.value.contains('/') || label.value.starts_with(|c: char| c.is_alphabetic());
            let band = if plain { None } else { self.band(label) };
            if cells.len() != columns.len() {
                let message = format!(
                    "row `{}` of grid `{}` has {} cells for {} columns",
                    label.value,
                    table.id,
                    cells.len(),
                    columns.len()
                );
                self.error("rules::row_length", message, span_of(self.file, label), "this row");
                continue;
            }
            let cells: Vec<Option<Band>> = cells
                .iter()
                .map(|c| {
                    let band = c.as_ref().and_then(|c| self.band(c))?;
                    let at = span_of(self.file, c.as_ref()?);
                    self.spans.insert((Some(label.value.clone()), band.to_string()), at);
                    Some(band)
                })
                .collect();
            let row = GridRow { label: label.value.as_str().into(), band, cells, source: self.row_source.clone() };
            match labels.get(&row.label).copied() {
                Some(i) => rows[i] = row,
                None => {
                    labels.insert(row.label.clone(), rows.len());
                    rows.push(row);
                }
            }
        }
        table.body = TableBody::Grid { row_key, columns, rows };
    }

    fn lookup(&mut self, table: &mut Table, t: &TableFile, values: &LookupValue) {
        let (keys, merged) = match &table.body {
            TableBody::Lookup { keys, values: base } => {
                (t.keys.clone().unwrap_or_else(|| keys.clone()), merge(base.clone(), values.clone()))
            }
            _ => (t.keys.clone().unwrap_or_default(), values.clone()),
        };
        if keys.is_empty() {
            self.error(
                "rules::table_body",
                format!("lookup `{}` has `values` but no `keys` naming what they are looked up by", table.id),
                (0, 0).into(),
                "",
            );
        }
        if let Some(path) = wrong_depth(&merged, keys.len(), &mut Vec::new()) {
            let message = format!(
                "lookup `{}` is keyed by {} ({} levels), but the entry at `{}` is not",
                table.id,
                keys.join(", "),
                keys.len(),
                path
            );
            self.error("rules::lookup_depth", message, (0, 0).into(), "");
        }
        table.body = TableBody::Lookup { keys, values: merged };
    }

    /// Gaps, overlaps, unreachable bands and unstated edges.
    fn check_coverage(&mut self, table: &Table, reach: Option<(i64, i64)>) {
        if let TableBody::Grid { rows, columns, .. } = &table.body {
            // A patch may change the columns: every row must still fit them.
            for row in rows.iter().filter(|r| r.cells.len() != columns.len()) {
                let message = format!(
                    "row `{}` of grid `{}` has {} cells for {} columns",
                    row.label,
                    table.id,
                    row.cells.len(),
                    columns.len()
                );
                self.push(Problem::general("rules::row_length", message));
            }
            // Row labels that are bands must not overlap: a row key would read two rows.
            let labels: Vec<Option<&Band>> = rows.iter().map(|r| r.band.as_ref()).collect();
            for (i, j, low, high) in check_bands(&labels, (i64::MIN, i64::MAX)).overlaps {
                let values = if low == high { format!("{low}") } else { format!("{low} to {high}") };
                let message = format!(
                    "rows `{}` and `{}` of grid `{}` both hold {} = {values}",
                    rows[i].label,
                    rows[j].label,
                    table.id,
                    match &table.body {
                        TableBody::Grid { row_key, .. } => row_key.as_str(),
                        _ => "the key",
                    }
                );
                self.push(Problem::general("rules::band_overlap", message));
            }
        }
        let full = reach.unwrap_or((i64::MIN, i64::MAX));
        let rows: Vec<BandRow<'_>> = match &table.body {
            TableBody::Bands(bands) => vec![(
                None,
                bands.iter().map(|(b, _)| Some(b)).collect(),
                bands.iter().map(|(_, r)| r.as_str()).collect(),
            )],
            TableBody::Grid { rows, columns, .. } => rows
                .iter()
                .map(|r| {
                    (
                        Some(&*r.label),
                        r.cells.iter().map(Option::as_ref).collect(),
                        columns.iter().map(String::as_str).collect(),
                    )
                })
                .collect(),
            TableBody::Lookup { .. } => Vec::new(),
        };
        for (row, bands, names) in rows {
            let at = row.map(|r| format!(" in row `{r}`")).unwrap_or_default();
            let check = check_bands(&bands, full);
            let span_of_band = |band: &Band| self.spans.get(&(row.map(str::to_string), band.to_string())).copied();
            let mut problems = Vec::new();
            // The first band ending and starting at each value, so that finding the
            // band beside each gap does not scan every band again.
            let (mut ending, mut starting) = (HashMap::new(), HashMap::new());
            for band in bands.iter().flatten() {
                if let Some(max) = band.max() {
                    ending.entry(max).or_insert(*band);
                }
                if let Some(min) = band.min() {
                    starting.entry(min).or_insert(*band);
                }
            }
            for (low, high) in check.gaps {
                let values = if low == high { format!("{low}") } else { format!("{low} to {high}") };
                let message = format!("table `{}` reads nothing for {values}{at}: no band covers it", table.id);
                // Point at the band just below the gap, or else just above it.
                let near = low
                    .checked_sub(1)
                    .and_then(|below| ending.get(&below))
                    .or_else(|| high.checked_add(1).and_then(|above| starting.get(&above)))
                    .copied();
                let label = format!("nothing covers {values} next to this band");
                problems.push(
                    self.at(near.and_then(&span_of_band), "rules::band_gap", message, &label)
                        .with_help("widen a neighbouring band or add one"),
                );
            }
            for (i, j, low, high) in check.overlaps {
                let values = if low == high { format!("{low}") } else { format!("{low} to {high}") };
                let message = format!(
                    "table `{}` reads both `{}` and `{}` for {values}{at}: bands overlap",
                    table.id,
                    names.get(i).unwrap_or(&"?"),
                    names.get(j).unwrap_or(&"?")
                );
                let label = format!("overlaps the band of `{}`", names.get(i).unwrap_or(&"?"));
                problems.push(self.at(bands[j].and_then(&span_of_band), "rules::band_overlap", message, &label));
            }
            for i in check.unreachable {
                if let Some(band) = bands[i] {
                    let (low, high) = full;
                    let message = format!(
                        "no roll can reach band `{band}` (`{}`) of table `{}`{at}: totals run from {low} to {high}",
                        names.get(i).unwrap_or(&"?"),
                        table.id
                    );
                    problems
                        .push(self.at(span_of_band(band), "rules::band_unreachable", message, "never read").warning());
                }
            }
            if let Some((low, high)) = reach {
                let lowest = bands
                    .iter()
                    .flatten()
                    .map(|b| b.min())
                    .collect::<Option<Vec<i64>>>()
                    .and_then(|v| v.into_iter().min());
                let highest = bands
                    .iter()
                    .flatten()
                    .map(|b| b.max())
                    .collect::<Option<Vec<i64>>>()
                    .and_then(|v| v.into_iter().max());
                if lowest.is_some_and(|l| low < l) && table.below == Edge::Error {
                    problems.push(Problem::general("rules::unstated_edge", format!("table `{}` can be read at {low}{at}, below its lowest band, and reads that as an error", table.id)).with_help("say what such a total reads with `below: clamp` (the nearest band) or `below: none`").warning());
                }
                if highest.is_some_and(|h| high > h) && table.above == Edge::Error {
                    problems.push(Problem::general("rules::unstated_edge", format!("table `{}` can be read at {high}{at}, above its highest band, and reads that as an error", table.id)).with_help("say what such a total reads with `above: clamp` (the nearest band) or `above: none`").warning());
                }
            }
            for problem in problems {
                self.push(problem);
            }
        }
    }

    /// A problem at `span` in this file when known (a patched table may not know it), else a general one.
    fn at(&self, span: Option<SourceSpan>, code: &'static str, message: String, label: &str) -> Problem {
        match span {
            Some(span) => Problem::error(code, message, self.file, span).with_label(label),
            None => Problem::general(code, message),
        }
    }
}

/// One row of bands to check: its label (none for a bands table), its bands, and each band's result.
type BandRow<'a> = (Option<&'a str>, Vec<Option<&'a Band>>, Vec<&'a str>);

/// Overlays `patch` onto `base`, mapping by mapping.
fn merge(base: LookupValue, patch: LookupValue) -> LookupValue {
    match (base, patch) {
        (LookupValue::Map(mut b), LookupValue::Map(p)) => {
            for (k, v) in p {
                let merged = match b.remove(&k) {
                    Some(old) => merge(old, v),
                    None => v,
                };
                b.insert(k, merged);
            }
            LookupValue::Map(b)
        }
        (_, p) => p,
    }
}

/// The path of the first entry not nested exactly `depth` mappings deep.
fn wrong_depth(value: &LookupValue, depth: usize, path: &mut Vec<String>) -> Option<String> {
    match (value, depth) {
        (LookupValue::Map(_), 0) => Some(path.join(".")),
        (LookupValue::Map(m), _) => {
            for (k, v) in m {
                path.push(k.clone());
                if let Some(found) = wrong_depth(v, depth - 1, path) {
                    return Some(found);
                }
                path.pop();
            }
            None
        }
        (_, 0) => None,
        _ => Some(if path.is_empty() { "the top".to_string() } else { path.join(".") }),
    }
}
