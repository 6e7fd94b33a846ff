//! Output files written whole: a reader sees the old content or the new, never half.

use std::io::Write;
use std::path::Path;

/// Who may read a file written where there was none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fresh {
    /// Its owner alone (mode 0600): a saved game is the player's own.
    Private,
    /// Whoever the umask lets, as any file a program makes (0666 less the umask): a page or a schema.
    Usual,
}

/// What the temporary file's name adds after its prefix: tempfile's random letters and digits.
const RANDOM: usize = 6;
const SUFFIX: &str = ".tmp";
/// The most of the target's name a temporary name repeats: with the rest, it stays within the
/// 255 bytes a file name may have.
const NAME_KEPT: usize = 200;

/// Writes a file so that a reader sees the old content or the new, never half:
/// the text goes to a temporary file beside it, created afresh under a name
/// nobody can guess (so never through a link planted there), then renamed over
/// the file (a link at `path` is replaced, not followed). A failed write leaves
/// no temporary file behind.
///
/// A file already at `path` keeps its permission bits; one its owner may not write
/// (`chmod 444`) is refused and left as it was, whoever runs grognard (root may write
/// anything, so the bits are read, not tried). A new file is made `fresh`. Temporary files a
/// write of the same file left when the process was killed are removed first.
pub fn write_atomically(path: &Path, text: &str, fresh: Fresh) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let Some(name) = path.file_name() else {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "it names a folder, not a file"));
    };
    let kept = kept_permissions(path)?;
    let prefix = temporary_prefix(&name.to_string_lossy());
    remove_stale(dir, &prefix);
    // A file replaced gets its mode once written: until then the new content is private.
    let private = fresh == Fresh::Private || kept.is_some();
    let mut temporary = temporary_in(dir, &prefix, private)?;
    temporary.write_all(text.as_bytes())?;
    if let Some(permissions) = kept {
        temporary.as_file().set_permissions(permissions)?;
    }
    temporary.as_file().sync_all()?;
    temporary.persist(path).map(|_| ()).map_err(|err| err.error)
}

/// A temporary file in `dir` named `prefix`, random letters and digits, `.tmp`; made private
/// (0600, tempfile's own way), or as any program makes a file (0666 less the umask).
fn temporary_in(dir: &Path, prefix: &str, private: bool) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix).suffix(SUFFIX).rand_bytes(RANDOM);
    #[cfg(unix)]
    if !private {
        use std::os::unix::fs::PermissionsExt;
        // The kernel lowers 0666 by the umask, as it does for `File::create`.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    #[cfg(not(unix))]
    let _ = private;
    builder.tempfile_in(dir)
}

/// The permissions of the regular file at `path`, to give the file that replaces it; none
/// when there is no file there (or a link, which is replaced, not written through); an error
/// when the file is one its owner may not write, or `path` is a folder.
fn kept_permissions(path: &Path) -> std::io::Result<Option<std::fs::Permissions>> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err),
    };
    if meta.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "it is a folder"));
    }
    if !meta.is_file() {
        return Ok(None);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o200 == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "it is read-only (mode {mode:o}: its owner may not write it), so it was left as it was; \
                     make it writable (chmod u+w) or write to another file"
                ),
            ));
        }
        // The permission bits only: a set-user-id bit is not carried to new content.
        Ok(Some(std::fs::Permissions::from_mode(mode)))
    }
    #[cfg(not(unix))]
    {
        if meta.permissions().readonly() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "it is read-only, so it was left as it was; make it writable or write to another file",
            ));
        }
        Ok(Some(meta.permissions()))
    }
}

/// How the temporary files of a write of `name` begin: `.battle.yaml.grognard-`. Named after
/// the target, so that a stale one is known for whose it is and nothing else matches.
fn temporary_prefix(name: &str) -> String {
    let mut end = name.len().min(NAME_KEPT);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}.grognard-", &name[..end])
}

/// Whether `file` is a temporary file a write with `prefix` makes: the prefix, tempfile's
/// random letters and digits, `.tmp`.
fn is_temporary(file: &str, prefix: &str) -> bool {
    file.strip_prefix(prefix)
        .and_then(|rest| rest.strip_suffix(SUFFIX))
        .is_some_and(|random| random.len() == RANDOM && random.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Removes the temporary files a killed write of the same target left in `dir`: regular files
/// only (never a link or a folder), named as `is_temporary` says. What cannot be removed is left:
/// it does not stop the write.
fn remove_stale(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if regular && is_temporary(&file.to_string_lossy(), prefix) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_file_is_private_or_usual_as_asked() {
        let dir = tempfile::tempdir().unwrap();
        let saved = dir.path().join("game.yaml");
        write_atomically(&saved, "a", Fresh::Private).unwrap();
        assert_eq!(mode(&saved), 0o600);
        let page = dir.path().join("page.html");
        write_atomically(&page, "<p>", Fresh::Usual).unwrap();
        assert_eq!(std::fs::read_to_string(&page).unwrap(), "<p>");
        // 0666 less the umask: read by the group and others under the usual umasks, never executable.
        let page_mode = mode(&page);
        assert_eq!(page_mode & 0o600, 0o600, "{page_mode:o}");
        assert_eq!(page_mode & 0o111, 0, "{page_mode:o}");
        assert_eq!(names(dir.path()), ["game.yaml", "page.html"]);
    }

    #[test]
    fn a_file_replaced_keeps_its_permission_bits() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.yaml");
        for (before, fresh) in
            [(0o644, Fresh::Private), (0o640, Fresh::Usual), (0o600, Fresh::Usual), (0o246, Fresh::Private)]
        {
            std::fs::write(&file, "old").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(before)).unwrap();
            write_atomically(&file, "new", fresh).unwrap();
            assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
            assert_eq!(mode(&file), before, "{before:o} under {fresh:?}");
        }
        // A set-user-id bit is not carried over.
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o4755)).unwrap();
        write_atomically(&file, "again", Fresh::Private).unwrap();
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o7777, 0o755);
    }

    #[test]
    fn a_file_its_owner_may_not_write_is_refused_and_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.yaml");
        for before in [0o444, 0o400, 0o044, 0o000] {
            std::fs::write(&file, "old").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(before)).unwrap();
            // Tests may run as root, whom open() would let write: the bits decide.
            let err = write_atomically(&file, "new", Fresh::Private).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::PermissionDenied);
            assert_eq!(
                err.to_string(),
                format!(
                    "it is read-only (mode {before:o}: its owner may not write it), so it was left as it was; \
                     make it writable (chmod u+w) or write to another file"
                )
            );
            assert_eq!(std::fs::read_to_string(&file).unwrap(), "old");
            assert_eq!(mode(&file), before);
            assert_eq!(names(dir.path()), ["game.yaml"], "no temporary file is left");
        }
        let folder = dir.path().join("sub");
        std::fs::create_dir(&folder).unwrap();
        assert_eq!(write_atomically(&folder, "new", Fresh::Private).unwrap_err().to_string(), "it is a folder");
    }

    #[test]
    fn temporary_files_a_killed_write_left_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.yaml");
        let stale = [".game.yaml.grognard-a1B2c3.tmp", ".game.yaml.grognard-ZZZZZZ.tmp"];
        // Alike but not a temporary file of this target: another target's, another shape, a
        // folder, a link, the file itself.
        let kept = [
            ".game.yaml.grognard-abc.tmp",
            ".game.yaml.grognard-abcdefg.tmp",
            ".game.yaml.grognard-ab_cde.tmp",
            ".game.yaml.grognard-abcdef.tmp.bak",
            ".other.yaml.grognard-abcdef.tmp",
            ".grognard-abcdef.tmp",
            "game.yaml.grognard-abcdef.tmp",
        ];
        // One left as a killed write leaves it: made by the writer, never renamed.
        let (_, left) = temporary_in(dir.path(), &temporary_prefix("game.yaml"), true).unwrap().keep().unwrap();
        assert!(left.exists());
        for name in stale.iter().chain(&kept) {
            std::fs::write(dir.path().join(name), "half").unwrap();
        }
        std::fs::create_dir(dir.path().join(".game.yaml.grognard-folder.tmp")).unwrap();
        std::fs::create_dir(dir.path().join(".game.yaml.grognard-dirdir.tmp")).unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "keep").unwrap();
        std::os::unix::fs::symlink(&outside, dir.path().join(".game.yaml.grognard-linkln.tmp")).unwrap();
        write_atomically(&file, "new", Fresh::Private).unwrap();
        assert!(!left.exists());
        let mut expected: Vec<String> = kept.iter().map(|n| n.to_string()).collect();
        expected.extend(
            [
                ".game.yaml.grognard-dirdir.tmp",
                ".game.yaml.grognard-folder.tmp",
                ".game.yaml.grognard-linkln.tmp",
                "game.yaml",
                "outside.txt",
            ]
            .map(String::from),
        );
        expected.sort();
        assert_eq!(names(dir.path()), expected);
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
    }

    #[test]
    fn a_long_name_gives_a_temporary_name_a_folder_can_hold() {
        let dir = tempfile::tempdir().unwrap();
        // 250 bytes, two to a letter: the prefix is cut at a letter's edge.
        let name: String = std::iter::repeat_n('é', 125).collect();
        let prefix = temporary_prefix(&name);
        assert_eq!(prefix.len(), 1 + NAME_KEPT + ".grognard-".len());
        assert!(prefix.len() + RANDOM + SUFFIX.len() <= 255);
        write_atomically(&dir.path().join(&name), "new", Fresh::Private).unwrap();
        assert_eq!(names(dir.path()), [name]);
        assert!(is_temporary(&format!("{prefix}Ab9xY0.tmp"), &prefix));
    }
}
