//! A rules folder as a git revision holds it (`git:REV:PATH`, as `compare` versions take
//! it): the folder's files at that revision, and those of the rulesets it extends that lie
//! beside it, written to a temporary folder to load from. A ruleset it names that the
//! revision does not hold beside it (a shipped one, by id) is loaded as it is now.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The word that asks for a folder at a git revision.
pub const PREFIX: &str = "git:";

/// The folder `git:REV:PATH` stands for, written out under `into`; PATH is a rules folder
/// relative to the current folder. Why not, in words, when git cannot give it.
pub fn check_out(word: &str, into: &Path) -> Result<PathBuf, String> {
    let spec = word.strip_prefix(PREFIX).unwrap_or(word);
    let Some((revision, path)) = spec.split_once(':').filter(|(r, p)| !r.is_empty() && !p.is_empty()) else {
        return Err(
            "write a folder at a git revision as git:REVISION:FOLDER, such as `git:HEAD~1:rules/my-house`".into()
        );
    };
    let here = std::env::current_dir().map_err(|e| format!("cannot tell the current folder: {e}"))?;
    let folder = here.join(path);
    // The repository is found from the folder, or the nearest folder above it that is there now.
    let near = folder.ancestors().find(|p| p.is_dir()).unwrap_or(&here);
    let root = git(near, &["rev-parse", "--show-toplevel"])?;
    let root = PathBuf::from(root.trim());
    let canonical_near = near.canonicalize().unwrap_or(near.to_path_buf());
    let below = folder.strip_prefix(near).unwrap_or(Path::new(""));
    let relative = canonical_near
        .join(below)
        .strip_prefix(root.canonicalize().unwrap_or(root.clone()))
        .map(Path::to_path_buf)
        .map_err(|_| format!("{} is not inside the git repository at {}", folder.display(), root.display()))?;
    let relative = relative.to_string_lossy().replace('\\', "/");
    git(&root, &["rev-parse", "--verify", "--quiet", &format!("{revision}^{{commit}}")])
        .map_err(|_| format!("the repository at {} has no revision `{revision}`", root.display()))?;
    if !write_folder(&root, revision, &relative, into)? {
        return Err(format!("revision `{revision}` has no folder `{relative}`"));
    }
    // The rulesets it extends that lie beside it (or at a path from it) come from the same
    // revision, each in its place, so the old overlay is not read over today's base.
    let mut folder = relative.clone();
    for _ in 0..MAX_CHAIN {
        let Some(base) = extends(&into.join(&folder)) else { break };
        let Some(next) = joined(parent_of(&folder), &base) else { break };
        if into.join(&next).exists() || !write_folder(&root, revision, &next, into)? {
            break;
        }
        folder = next;
    }
    Ok(into.join(&relative))
}

/// How many rulesets below one a chain of `extends:` may take from a revision.
const MAX_CHAIN: usize = 8;

/// Writes the files of `relative` at `revision` under `into`, in their place; whether it has any.
fn write_folder(root: &Path, revision: &str, relative: &str, into: &Path) -> Result<bool, String> {
    let listed = git(root, &["ls-tree", "-r", "--name-only", "-z", revision, "--", relative])?;
    let files: Vec<&str> = listed.split('\0').filter(|f| !f.is_empty()).collect();
    for file in &files {
        let bytes = git_bytes(root, &["show", &format!("{revision}:{file}")])?;
        let out = into.join(file);
        if let Some(parent) = out.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot write {}: {e}", parent.display()))?;
        }
        std::fs::write(&out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    Ok(!files.is_empty())
}

/// The `extends:` of the ruleset in `folder`, when it names one.
fn extends(folder: &Path) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Head {
        extends: Option<String>,
    }
    let text = crate::rules::files::read_regular(&folder.join("ruleset.yaml")).ok()?;
    serde_saphyr::from_str::<Head>(&text).ok()?.extends
}

/// The folder holding `folder` (`rules` for `rules/house`; empty at the top).
fn parent_of(folder: &str) -> &str {
    folder.rsplit_once('/').map_or("", |(parent, _)| parent)
}

/// `base` read from `parent` as the loader reads `extends:` (a name beside the overlay, or a
/// path from it), as a path in the repository; none when it climbs out of it.
fn joined(parent: &str, base: &str) -> Option<String> {
    let mut parts: Vec<&str> = parent.split('/').filter(|p| !p.is_empty()).collect();
    for part in base.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// What git printed, as text.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    git_bytes(dir, args).map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// What git printed; its first line of complaint when it failed.
fn git_bytes(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let output =
        Command::new("git").arg("-C").arg(dir).args(args).output().map_err(|e| format!("cannot run git: {e}"))?;
    if output.status.success() {
        return Ok(output.stdout);
    }
    let said = String::from_utf8_lossy(&output.stderr);
    let line = said.lines().find(|l| !l.trim().is_empty()).unwrap_or("git failed").trim();
    Err(format!("git says: {}", line.trim_start_matches("fatal: ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extends_is_read_from_the_overlay_s_folder() {
        assert_eq!(joined("rules", "ff-napoleonic").as_deref(), Some("rules/ff-napoleonic"));
        assert_eq!(joined("rules/house", "../base").as_deref(), Some("rules/base"));
        assert_eq!(joined("", "base").as_deref(), Some("base"));
        assert_eq!(joined("", "../base"), None);
        assert_eq!(parent_of("rules/house"), "rules");
        assert_eq!(parent_of("house"), "");
    }
}
