//! A ruleset's content hash: SHA-256 over every file of every layer, each named by its path in
//! its layer's folder, so a result file can say exactly which rules made it.

use std::path::Path;

use sha2::{Digest, Sha256};

use super::ruleset::Ruleset;

/// `sha256:` and 64 hex digits over the ruleset's layers, base first; the same files give the
/// same hash wherever the folders are.
pub fn content_hash(ruleset: &Ruleset) -> String {
    let mut hasher = Sha256::new();
    for layer in &ruleset.layers {
        hasher.update(layer.id.as_bytes());
        hasher.update([0]);
        let mut files = Vec::new();
        collect(&layer.folder, &layer.folder, &mut files);
        files.sort();
        for (relative, path) in files {
            let Ok(bytes) = std::fs::read(&path) else { continue };
            hasher.update(relative.as_bytes());
            hasher.update([0]);
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(&bytes);
        }
    }
    let digest = hasher.finalize();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// Every regular file under `dir`, with its path from `root` written with `/`.
fn collect(root: &Path, dir: &Path, into: &mut Vec<(String, std::path::PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        // Links are not followed: a rules folder holds its own files.
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            collect(root, &path, into);
        } else if kind.is_file() {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let relative = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            into.push((relative, path));
        }
    }
}
