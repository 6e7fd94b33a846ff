//! `grognard rules`: the rulesets grognard finds and where they come from; `rules export` writes
//! a copy of one to edit.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use crate::error::{Error, InputError};
use crate::rules::{ManifestFile, did_you_mean, files, resolve, rules_dir_and_origin, search_path};

pub(super) const EXAMPLES: &str = "Examples:
  grognard rules                                # the rulesets, and where they are
  grognard rules export ff-napoleonic myrules   # a copy to edit: myrules/ff-napoleonic
  GROGNARD_RULES=myrules grognard rules         # the rules of another folder";

#[derive(Debug, Args)]
pub struct RulesArgs {
    #[command(subcommand)]
    pub action: Option<RulesAction>,
}

#[derive(Debug, Subcommand)]
pub enum RulesAction {
    /// Write a copy of a ruleset into a folder, to edit (`DIR/ID`); nothing is overwritten.
    Export {
        /// The ruleset, by id.
        id: String,
        /// The folder to write it into.
        dir: PathBuf,
    },
}

pub(super) fn run(args: &RulesArgs, out: &mut dyn Write) -> Result<(), Error> {
    match &args.action {
        None => list(out),
        Some(RulesAction::Export { id, dir: into }) => {
            let found = resolve(id, &rules_dir_and_origin().0);
            let from = found.parent().map(Path::to_path_buf).unwrap_or_default();
            export(&from, id, into, out)
        }
    }
}

/// Each folder of the search path, first first, and each ruleset in it: its id, title, and
/// what it extends; an id an earlier folder has too is marked as hidden by it.
fn list(out: &mut dyn Write) -> Result<(), Error> {
    let mut seen: Vec<String> = Vec::new();
    for (dir, origin) in search_path() {
        writeln!(out, "rules folder: {} ({origin})", dir.display())?;
        let ids = match ids(&dir) {
            Ok(ids) => ids,
            Err(err) => {
                writeln!(out, "  ({err})")?;
                continue;
            }
        };
        for id in ids {
            let hidden = if seen.contains(&id) { "  [hidden: found earlier]" } else { "" };
            match manifest_of(&dir.join(&id)) {
                Some(m) => {
                    let extends = m.extends.map(|e| format!(" (extends {})", e.value)).unwrap_or_default();
                    writeln!(out, "  {id:<20} {}{extends}{hidden}", m.title)?;
                }
                None => writeln!(out, "  {id:<20} (its ruleset.yaml does not read: `grognard check {id}` says why)")?,
            }
            seen.push(id);
        }
    }
    writeln!(
        out,
        "\nAn overlay's `extends:` is found beside it first; `grognard rules export ID DIR` writes a copy to edit."
    )?;
    Ok(())
}

/// A ruleset folder's manifest, when it reads.
fn manifest_of(folder: &Path) -> Option<ManifestFile> {
    let name = folder.join("ruleset.yaml");
    let text = files::read_regular(&name).ok()?;
    crate::rules::parse_yaml(&crate::rules::source_file(&name.display().to_string(), text)).ok()
}

/// The ruleset folders of `dir`, by id.
fn ids(dir: &Path) -> Result<Vec<String>, Error> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| InputError::UnreadableRules { folder: dir.display().to_string(), why: e.to_string() })?;
    let mut ids: Vec<String> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| files::is_ruleset_folder(p))
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    ids.sort();
    Ok(ids)
}

/// Copies the ruleset `id` into `into/id`, refusing to write over anything there.
fn export(dir: &Path, id: &str, into: &Path, out: &mut dyn Write) -> Result<(), Error> {
    let known = ids(dir)?;
    if !known.iter().any(|k| k == id) {
        let hint = did_you_mean(id, known.iter().map(String::as_str));
        return Err(InputError::UnknownRuleset { id: id.to_string(), hint, known: known.join(", ") }.into());
    }
    let target = into.join(id);
    if target.exists() {
        return Err(InputError::WouldOverwrite { path: target.display().to_string() }.into());
    }
    copy_folder(&dir.join(id), &target)?;
    writeln!(out, "wrote {}", target.display())?;
    let extends = manifest_of(&target).and_then(|m| m.extends.map(|e| e.value));
    if let Some(base) = extends {
        writeln!(
            out,
            "it extends {base}: export that too (`grognard rules export {base} {}`) to edit both",
            into.display()
        )?;
    }
    Ok(())
}

/// Copies the regular files of a folder, and its folders, as they are.
fn copy_folder(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let path = entry?.path();
        let target = to.join(path.file_name().unwrap_or_default());
        let meta = std::fs::symlink_metadata(&path)?;
        if meta.is_dir() {
            copy_folder(&path, &target)?;
        } else if meta.is_file() {
            std::fs::copy(&path, &target)?;
        }
    }
    Ok(())
}
