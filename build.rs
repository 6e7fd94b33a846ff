//! The shipped rulesets are built into the binary (`rules::shipped`): rebuild when they change,
//! and name their content by a hash worked out here, once, rather than at every start.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

fn hash_folder(dir: &Path, hasher: &mut DefaultHasher) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("rules/ is readable").flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&path).hash(hasher);
        if path.is_dir() {
            hash_folder(&path, hasher);
        } else {
            std::fs::read(&path).expect("a rules file is readable").hash(hasher);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=build.rs");
    let mut hasher = DefaultHasher::new();
    hash_folder(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"), &mut hasher);
    println!("cargo:rustc-env=GROGNARD_RULES_HASH={:016x}", hasher.finish());
}
