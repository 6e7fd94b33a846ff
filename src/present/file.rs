//! Output files written whole: a reader sees the old content or the new, never half.

use std::io::Write;
use std::path::Path;

/// Writes a file so that a reader sees the old content or the new, never half:
/// the text goes to a temporary file beside it, created afresh under a name
/// nobody can guess (so never through a link planted there), then renamed over
/// the file (a link at `path` is replaced, not followed). A failed write leaves
/// no temporary file behind.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut temporary = tempfile::Builder::new().prefix(".grognard-").suffix(".tmp").tempfile_in(dir)?;
    temporary.write_all(text.as_bytes())?;
    temporary.as_file().sync_all()?;
    temporary.persist(path).map(|_| ()).map_err(|err| err.error)
}
