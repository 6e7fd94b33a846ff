//! The shipped rulesets, built into the binary: written out once to a folder of their own, so
//! that a binary moved away from its source tree, or installed, finds them.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};

/// `rules/` as it was when grognard was built.
static SHIPPED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/rules");

/// A folder holding the shipped rulesets: written out under the system's temporary folder the
/// first time, named by grognard's version and a hash of the rules' content, so that two builds
/// never share one and a folder written whole is used again as it is.
pub fn shipped_rules_dir() -> std::io::Result<PathBuf> {
    let mut hasher = DefaultHasher::new();
    hash_dir(&SHIPPED, &mut hasher);
    let name = format!("grognard-rules-{}-{:016x}", env!("CARGO_PKG_VERSION"), hasher.finish());
    let dir = std::env::temp_dir().join(name);
    if dir.join(".complete").is_file() {
        return Ok(dir);
    }
    // Written beside, then renamed into place: another grognard starting at the same moment
    // sees the folder whole or not at all.
    let partial = tempfile::Builder::new().prefix(".grognard-rules-").tempdir_in(std::env::temp_dir())?;
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

fn hash_dir(dir: &Dir<'_>, hasher: &mut DefaultHasher) {
    for file in dir.files() {
        file.path().hash(hasher);
        file.contents().hash(hasher);
    }
    for sub in dir.dirs() {
        hash_dir(sub, hasher);
    }
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
