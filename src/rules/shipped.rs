//! The shipped rulesets, built into the binary: written out once to a folder of their own, so
//! that a binary moved away from its source tree, or installed, finds them.

use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};

/// `rules/` as it was when grognard was built.
static SHIPPED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/rules");

/// A folder holding the shipped rulesets: written out the first time under the user's cache
/// folder (`$XDG_CACHE_HOME/grognard`, else `~/.cache/grognard`, else the system's temporary
/// folder), named by grognard's version and a hash of the rules' content (worked out when
/// grognard was built), so that two builds never share one and a folder written whole is used
/// again as it is.
pub fn shipped_rules_dir() -> std::io::Result<PathBuf> {
    let base = cache_folder();
    let dir = base.join(format!("rules-{}-{}", env!("CARGO_PKG_VERSION"), env!("GROGNARD_RULES_HASH")));
    if dir.join(".complete").is_file() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&base)?;
    // Written beside, then renamed into place: another grognard starting at the same moment
    // sees the folder whole or not at all.
    let partial = tempfile::Builder::new().prefix(".rules-").tempdir_in(&base)?;
    write_dir(&SHIPPED, partial.path())?;
    std::fs::write(partial.path().join(".complete"), "")?;
    let written = partial.keep();
    match std::fs::rename(&written, &dir) {
        Ok(()) => Ok(dir),
        // Another process was first: its folder is as good as ours.
        Err(_) if dir.join(".complete").is_file() => {
            let _ = std::fs::remove_dir_all(&written);
            Ok(dir)
        }
        Err(err) => Err(err),
    }
}

/// The user's own cache folder for grognard: not a folder every user of the machine shares,
/// so that nobody else can put rules there first.
fn cache_folder() -> PathBuf {
    let home_cache = || std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".cache"));
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|c| !c.is_empty())
        .map(PathBuf::from)
        .or_else(home_cache)
        .unwrap_or_else(std::env::temp_dir)
        .join("grognard")
}

fn write_dir(dir: &Dir<'_>, to: &Path) -> std::io::Result<()> {
    for file in dir.files() {
        let path = to.join(file.path());
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, file.contents())?;
    }
    for sub in dir.dirs() {
        std::fs::create_dir_all(to.join(sub.path()))?;
        write_dir(sub, to)?;
    }
    Ok(())
}
