//! Reading rule, script and scenario files: only regular files inside their folder, never a fifo, never a link out.
//!
//! A ruleset or scenario folder comes from someone else. Whatever it holds, a
//! load must not hang (opening a named pipe blocks until someone writes to
//! it), must not read a file outside the folder through a link, and must not
//! tell whether a path outside the folder exists. Every such read goes
//! through [`Confined`]; a file the user names themselves (a saved game, the
//! script given to `grognard run`) goes through [`read_regular`].

use std::fmt;
use std::fs::{FileType, Metadata};
use std::io;
use std::path::{Component, Path, PathBuf};

/// Why a file was not read.
#[derive(Debug)]
pub enum Refusal {
    /// No such file inside the folder (only ever said of paths inside it).
    Missing,
    /// A fifo, socket, device or folder where a file was expected: what it is.
    NotRegular(&'static str),
    /// A file expected but a folder was asked for, or the other way round.
    NotFolder,
    /// The path climbs out of the folder (`..`, an absolute path).
    Outside,
    /// A link that leads outside the folder or to nothing: the two are said
    /// alike, so that a link cannot be used to learn what exists outside.
    LinkOut,
    /// A regular file inside the folder that could not be read (permissions, not UTF-8).
    Unreadable(io::Error),
}

/// A file that was not read: its path as written, relative to its folder, and why.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    /// What the folder is, for the message: "ruleset folder", "scenario folder".
    pub folder: &'static str,
    pub refusal: Refusal,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (path, folder) = (self.path.display(), self.folder);
        match &self.refusal {
            Refusal::Missing => write!(f, "there is no {path} in the {folder}"),
            Refusal::NotRegular(kind) => write!(f, "{path} is not a regular file (it is {kind})"),
            Refusal::NotFolder => write!(f, "{path} is not a folder"),
            Refusal::Outside => write!(f, "{path} leads outside the {folder}"),
            Refusal::LinkOut => write!(f, "{path} is a link that leads outside the {folder} or to nothing"),
            Refusal::Unreadable(err) => write!(f, "cannot read {path}: {err}"),
        }
    }
}

impl std::error::Error for FileError {}

/// One or more folders files may be read from; a path may move between them
/// (an overlay's script importing from the ruleset it extends).
#[derive(Clone, Debug)]
pub struct Confined {
    /// Canonical: every link resolved, so that "inside" is a plain prefix test.
    roots: Vec<PathBuf>,
    folder: &'static str,
}

impl Confined {
    /// The folders `roots` (those that exist), named `folder` in messages.
    pub fn new(roots: impl IntoIterator<Item = PathBuf>, folder: &'static str) -> Self {
        let roots = roots.into_iter().filter_map(|r| r.canonicalize().ok()).collect();
        Confined { roots, folder }
    }

    /// The folder files are read from when no other is given.
    pub fn first_root(&self) -> Option<&Path> {
        self.roots.first().map(PathBuf::as_path)
    }

    /// Whether `real` (a canonical path) is inside one of the folders.
    pub fn contains(&self, real: &Path) -> bool {
        self.roots.iter().any(|r| real.starts_with(r))
    }

    /// Reads the regular file at `path`, relative to the first folder.
    pub fn read(&self, path: &Path) -> Result<String, FileError> {
        let real = self.file(None, path)?;
        std::fs::read_to_string(&real).map_err(|err| self.error(path, Refusal::Unreadable(err)))
    }

    /// The real path of the regular file at `path`, relative to `base` (a
    /// canonical folder inside one of the folders), or to the first folder.
    pub fn file(&self, base: Option<&Path>, path: &Path) -> Result<PathBuf, FileError> {
        let real = self.resolve(base, path)?;
        let meta = std::fs::metadata(&real).map_err(|_| self.error(path, Refusal::Missing))?;
        if !meta.is_file() {
            return Err(self.error(path, Refusal::NotRegular(kind(meta.file_type()))));
        }
        Ok(real)
    }

    /// The real path of the folder at `path`, relative to the first folder.
    pub fn folder(&self, path: &Path) -> Result<PathBuf, FileError> {
        let real = self.resolve(None, path)?;
        match std::fs::metadata(&real) {
            Ok(meta) if meta.is_dir() => Ok(real),
            Ok(_) => Err(self.error(path, Refusal::NotFolder)),
            Err(_) => Err(self.error(path, Refusal::Missing)),
        }
    }

    fn error(&self, path: &Path, refusal: Refusal) -> FileError {
        FileError { path: path.to_path_buf(), folder: self.folder, refusal }
    }

    /// Follows `path` one component at a time, so that nothing outside the
    /// folders is ever looked at: a step that leaves them is refused before
    /// the disk is asked, and a link is followed only when it lands inside.
    /// The result exists, has no links in it, and is inside a folder.
    fn resolve(&self, base: Option<&Path>, path: &Path) -> Result<PathBuf, FileError> {
        let refuse = |refusal| Err(self.error(path, refusal));
        let Some(start) = base.filter(|b| self.contains(b)).or_else(|| self.first_root()) else {
            return refuse(Refusal::Missing);
        };
        let mut here = start.to_path_buf();
        for part in path.components() {
            match part {
                Component::Prefix(_) | Component::RootDir => return refuse(Refusal::Outside),
                Component::CurDir => {}
                // `here` has no links in it, so its parent is where `..` leads.
                Component::ParentDir => {
                    here.pop();
                }
                Component::Normal(name) => {
                    let next = here.join(name);
                    if !self.contains(&next) {
                        // Above every folder: only a step back down towards one is allowed,
                        // and the folders above a root are known to exist.
                        if self.roots.iter().any(|r| r.starts_with(&next)) {
                            here = next;
                            continue;
                        }
                        return refuse(Refusal::Outside);
                    }
                    match std::fs::symlink_metadata(&next) {
                        Err(_) => return refuse(Refusal::Missing),
                        Ok(meta) if meta.file_type().is_symlink() => match next.canonicalize() {
                            Ok(real) if self.contains(&real) => here = real,
                            _ => return refuse(Refusal::LinkOut),
                        },
                        Ok(_) => here = next,
                    }
                }
            }
        }
        if !self.contains(&here) {
            return refuse(Refusal::Outside);
        }
        Ok(here)
    }
}

/// Reads a file the user named themselves (a saved game, a script): any
/// path will do, but only a regular file is opened, so that a fifo is
/// refused instead of hanging the read.
pub fn read_regular(path: &Path) -> Result<String, FileError> {
    let error = |refusal| FileError { path: path.to_path_buf(), folder: "", refusal };
    let meta = std::fs::metadata(path).map_err(|err| error(Refusal::Unreadable(err)))?;
    if !meta.is_file() {
        return Err(error(Refusal::NotRegular(kind(meta.file_type()))));
    }
    std::fs::read_to_string(path).map_err(|err| error(Refusal::Unreadable(err)))
}

/// Whether `path` is a ruleset folder: a folder holding a regular `ruleset.yaml`.
/// Only metadata is asked for, so a fifo among the rulesets is passed over.
pub fn is_ruleset_folder(path: &Path) -> bool {
    let regular = |p: &Path| std::fs::metadata(p).as_ref().is_ok_and(Metadata::is_file);
    std::fs::metadata(path).is_ok_and(|m| m.is_dir()) && regular(&path.join("ruleset.yaml"))
}

/// What a file that is not regular is, in words.
fn kind(file_type: FileType) -> &'static str {
    if file_type.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a named pipe";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    "not a file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn confined(dir: &Path) -> Confined {
        Confined::new([dir.to_path_buf()], "ruleset folder")
    }

    #[test]
    fn a_regular_file_inside_is_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("tables")).unwrap();
        std::fs::write(dir.path().join("tables/a.yaml"), "x: 1").unwrap();
        assert_eq!(confined(dir.path()).read(Path::new("tables/a.yaml")).unwrap(), "x: 1");
        assert_eq!(confined(dir.path()).read(Path::new("tables/../tables/./a.yaml")).unwrap(), "x: 1");
    }

    #[test]
    fn a_fifo_is_refused_without_opening_it() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.yaml");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let root = dir.path().to_path_buf();
        let err = within_seconds(move || confined(&root).read(Path::new("pipe.yaml")).unwrap_err());
        assert_eq!(err.to_string(), "pipe.yaml is not a regular file (it is a named pipe)");
        let err = within_seconds(move || read_regular(&fifo).unwrap_err());
        assert!(err.to_string().ends_with("pipe.yaml is not a regular file (it is a named pipe)"), "{err}");
    }

    #[test]
    fn a_folder_named_like_a_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("a.yaml")).unwrap();
        let err = confined(dir.path()).read(Path::new("a.yaml")).unwrap_err();
        assert_eq!(err.to_string(), "a.yaml is not a regular file (it is a folder)");
    }

    #[test]
    fn what_lies_outside_is_not_told() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "root:x:0:0").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let folder = confined(dir.path());
        // Climbing out: the same words whether the file there exists or not.
        let up = |name: &str| {
            let mut path = PathBuf::new();
            for _ in dir.path().components().skip(1) {
                path.push("..");
            }
            path.join(outside.path().strip_prefix("/").unwrap()).join(name)
        };
        let there = folder.read(&up("secret")).unwrap_err().to_string();
        let absent = folder.read(&up("absent")).unwrap_err().to_string();
        assert!(there.ends_with("secret leads outside the ruleset folder"), "{there}");
        assert_eq!(there.replace("secret", "absent"), absent);
        assert!(!there.contains("root:"));
        // Links out: the same words again, for a file there and for none.
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("a.yaml")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("absent"), dir.path().join("b.yaml")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("sub")).unwrap();
        let a = folder.read(Path::new("a.yaml")).unwrap_err().to_string();
        let b = folder.read(Path::new("b.yaml")).unwrap_err().to_string();
        assert_eq!(a, "a.yaml is a link that leads outside the ruleset folder or to nothing");
        assert_eq!(a.replace("a.yaml", "b.yaml"), b);
        let through = folder.read(Path::new("sub/secret")).unwrap_err().to_string();
        let through_absent = folder.read(Path::new("sub/absent")).unwrap_err().to_string();
        assert_eq!(through, "sub/secret is a link that leads outside the ruleset folder or to nothing");
        assert_eq!(through.replace("secret", "absent"), through_absent);
        assert!(!format!("{a}{b}{through}").contains(&outside.path().display().to_string()));
    }

    #[test]
    fn a_link_inside_the_folder_is_followed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("real.yaml"), "ok").unwrap();
        std::os::unix::fs::symlink("real.yaml", dir.path().join("alias.yaml")).unwrap();
        assert_eq!(confined(dir.path()).read(Path::new("alias.yaml")).unwrap(), "ok");
    }

    #[test]
    fn a_path_may_pass_between_folders() {
        let rules = tempfile::tempdir().unwrap();
        for id in ["base", "overlay"] {
            std::fs::create_dir(rules.path().join(id)).unwrap();
        }
        std::fs::write(rules.path().join("base/lib.rhai"), "1").unwrap();
        std::fs::write(rules.path().join("secret"), "2").unwrap();
        let both = Confined::new([rules.path().join("overlay"), rules.path().join("base")], "ruleset folder");
        let overlay = both.first_root().unwrap().to_path_buf();
        assert!(both.file(Some(&overlay), Path::new("../base/lib.rhai")).is_ok());
        let err = both.file(Some(&overlay), Path::new("../secret")).unwrap_err();
        assert_eq!(err.to_string(), "../secret leads outside the ruleset folder");
    }

    /// Runs `f` on a thread and fails the test if it has not finished within
    /// a few seconds: a read that opens a fifo blocks forever.
    fn within_seconds<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || send.send(f()));
        receive.recv_timeout(std::time::Duration::from_secs(5)).expect("the read hung")
    }
}
