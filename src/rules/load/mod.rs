//! Loading a ruleset: its folder found (`--rules ID|DIR`), the chain of layers it extends read
//! base first, each layer's files read inside its folder, and every problem found on the way.
//!
//! One `impl Loader` block per part of a layer, each in its file: the manifest (`manifest`),
//! tables (`tables`, their coverage in `coverage`), modifier lists (`modifiers`), and the
//! checks that need the whole ruleset (`cross_check`).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use miette::SourceSpan;
use serde_saphyr::Spanned;

use crate::rules::contract::{self, ContractFile};
use crate::rules::files::{self, Confined, FileError, Refusal};
use crate::rules::manifest::ManifestFile;
use crate::rules::problem::{Problem, Problems, SourceFile, source_file};
use crate::rules::ruleset::{Procedure, Ruleset};
use crate::rules::yaml::{self, span_of};

mod coverage;
mod cross_check;
mod manifest;
mod modifiers;
mod table_builder;
mod tables;

/// A loaded ruleset and the warnings found on the way (errors stop the load).
#[derive(Debug)]
pub struct Loaded {
    pub ruleset: Ruleset,
    pub warnings: Vec<Problem>,
}

/// The first folder ruleset ids are looked up in (see `search_path` for the rest).
pub fn default_rules_dir() -> PathBuf {
    rules_dir_and_origin().0
}

/// Why a rules folder is on the search path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesOrigin {
    /// `--rules-path` names it.
    Flag,
    /// `$GROGNARD_RULES` names it.
    Environment,
    /// `./rules`, in the folder grognard runs in.
    Here,
    /// The user's rules folder (`$XDG_DATA_HOME/grognard/rules`, `~/.local/share/grognard/rules`).
    User,
    /// The shipped rulesets built into grognard, written out to a folder of their own.
    BuiltIn,
    /// The source tree grognard was built from (where the built-in ones cannot be written out).
    SourceTree,
}

impl std::fmt::Display for RulesOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RulesOrigin::Flag => "named by --rules-path",
            RulesOrigin::Environment => "named by GROGNARD_RULES",
            RulesOrigin::Here => "./rules, in the current folder",
            RulesOrigin::User => "your rules folder",
            RulesOrigin::BuiltIn => "the rulesets built into grognard",
            RulesOrigin::SourceTree => "the source tree grognard was built from",
        })
    }
}

/// The folders `--rules-path` named, looked in before any other.
static RULES_PATH: std::sync::RwLock<Vec<PathBuf>> = std::sync::RwLock::new(Vec::new());

/// Puts `folders` (`--rules-path`) first on the search path of this process.
pub fn set_rules_path(folders: Vec<PathBuf>) {
    if let Ok(mut path) = RULES_PATH.write() {
        *path = folders;
    }
}

/// The user's rules folder: `$XDG_DATA_HOME/grognard/rules`, else `~/.local/share/grognard/rules`.
pub fn user_rules_dir() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()).map(PathBuf::from).or_else(|| {
        std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".local/share"))
    })?;
    Some(data.join("grognard").join("rules"))
}

/// Where ruleset ids are looked up, in order: each `--rules-path`, each folder of
/// `$GROGNARD_RULES` (separated as `PATH` is), `./rules` when it holds a ruleset, the user's
/// rules folder when it exists, then the shipped rulesets built into grognard, so that a binary
/// works wherever it is installed. Never empty.
pub fn search_path() -> Vec<(PathBuf, RulesOrigin)> {
    let mut path: Vec<(PathBuf, RulesOrigin)> = Vec::new();
    if let Ok(flagged) = RULES_PATH.read() {
        path.extend(flagged.iter().map(|f| (f.clone(), RulesOrigin::Flag)));
    }
    if let Some(dirs) = std::env::var_os("GROGNARD_RULES") {
        path.extend(
            std::env::split_paths(&dirs).filter(|d| !d.as_os_str().is_empty()).map(|d| (d, RulesOrigin::Environment)),
        );
    }
    let here = PathBuf::from("rules");
    if here.join(".").is_dir()
        && here.read_dir().is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| files::is_ruleset_folder(&e.path()))))
    {
        path.push((here, RulesOrigin::Here));
    }
    if let Some(user) = user_rules_dir().filter(|u| u.is_dir()) {
        path.push((user, RulesOrigin::User));
    }
    path.push(match crate::rules::shipped::shipped_rules_dir() {
        Ok(dir) => (dir, RulesOrigin::BuiltIn),
        Err(_) => (PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules"), RulesOrigin::SourceTree),
    });
    path
}

/// The first folder of the search path (see `search_path`) and why it is there.
pub fn rules_dir_and_origin() -> (PathBuf, RulesOrigin) {
    search_path().swap_remove(0)
}

/// The folder for `--rules ID|DIR`: a path when it names a folder, else `rules_dir/ID` when
/// that is a ruleset, else the first folder of the search path that holds `ID` (`rules_dir/ID`,
/// to be reported missing, when none does).
pub fn resolve(spec: &str, rules_dir: &Path) -> PathBuf {
    let as_path = PathBuf::from(spec);
    if spec.contains(std::path::MAIN_SEPARATOR)
        || spec.contains('/')
        || (as_path.is_dir() && as_path.join("ruleset.yaml").is_file())
    {
        return as_path;
    }
    let first = rules_dir.join(spec);
    if files::is_ruleset_folder(&first) {
        return first;
    }
    search_path().into_iter().map(|(dir, _)| dir.join(spec)).find(|f| files::is_ruleset_folder(f)).unwrap_or(first)
}

/// The folder of the ruleset an overlay at `overlay` extends (`extends: base`): a ruleset folder
/// of that name beside the overlay first, so that a copied set of rules and an overlay kept with
/// it go together; else `base` looked up as a `--rules` id is. A path (`extends: ../x/base`) is
/// taken from the folder the overlay is in.
pub fn base_of(overlay: &Path, base: &str, rules_dir: &Path) -> PathBuf {
    let beside = overlay.parent().unwrap_or(Path::new(".")).join(base);
    let is_path = base.contains('/') || base.contains(std::path::MAIN_SEPARATOR);
    if is_path || (beside.as_path() != overlay && files::is_ruleset_folder(&beside)) {
        return beside;
    }
    resolve(base, rules_dir)
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

/// Where `word` first stands as a whole word in `text`.
pub(super) fn find_word(text: &str, word: &str) -> Option<SourceSpan> {
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

pub(super) fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default()
}

pub(super) fn missing_source(file: &SourceFile, what: &str) -> Problem {
    Problem::error("rules::missing_source", format!("{what} does not name its source"), file, (0, 0).into()).with_help(
        "add `source: { seed: \"004\", section: \"...\" }`, or `source: house` for a value the seeds do not give",
    )
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
        // A folder named twice, by two spellings of its path, is loaded once.
        let mut seen: Vec<PathBuf> = Vec::new();
        for spec in specs {
            let folder = resolve(spec, rules_dir);
            for f in self.chain(&folder, rules_dir, &mut Vec::new())? {
                let same = std::fs::canonicalize(&f).unwrap_or_else(|_| f.clone());
                if !seen.contains(&same) {
                    seen.push(same);
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
        let mut ruleset = ruleset?;
        contract::resolve(&mut ruleset.contracts, &mut self.problems);
        // A later layer's `set:` may have chosen otherwise than a switched patch's layer knew.
        ruleset.select_tables();
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
            Some(base) => self.chain(&base_of(folder, &base, rules_dir), rules_dir, seen)?,
            None => Vec::new(),
        };
        chain.push(folder.to_path_buf());
        Some(chain)
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

    fn procedures(&mut self, rs: &mut Ruleset, folder: &Path) {
        for path in self.yaml_files(folder, "procedures", "rhai") {
            if let Some(file) = self.read(folder, &path) {
                let layer = rs.layers.len().saturating_sub(1);
                rs.procedures.push(Procedure { name: stem(&path), file, folder: folder.to_path_buf(), layer });
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
                    let options: Vec<String> = rs.options.keys().cloned().collect();
                    for contract in
                        contract::build(&file, parsed, &rs.source, &rs.vocabulary, &options, &mut self.problems)
                    {
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
}
