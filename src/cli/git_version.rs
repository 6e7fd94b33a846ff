//! A rules folder as a git revision holds it (`git:REV:PATH`, as `compare` versions take
//! it): the folder's files at that revision, written to a temporary folder to load from.

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
    let listed = git(&root, &["ls-tree", "-r", "--name-only", "-z", revision, "--", &relative])?;
    let files: Vec<&str> = listed.split('\0').filter(|f| !f.is_empty()).collect();
    if files.is_empty() {
        return Err(format!("revision `{revision}` has no folder `{relative}`"));
    }
    let name = Path::new(&relative).file_name().map(|n| n.to_os_string()).unwrap_or_else(|| "rules".into());
    let target = into.join(name);
    for file in files {
        let inside = file.strip_prefix(relative.as_str()).unwrap_or(file).trim_start_matches('/');
        let bytes = git_bytes(&root, &["show", &format!("{revision}:{file}")])?;
        let out = target.join(inside);
        if let Some(parent) = out.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot write {}: {e}", parent.display()))?;
        }
        std::fs::write(&out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    Ok(target)
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
