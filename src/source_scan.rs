//! The crate's own source, read by tests that hold it to rules of the house: every module by
//! its path, and its code without comments and without its `#[cfg(test)]` items.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The modules compiled only for tests, as these checks are.
const TEST_ONLY: [&str; 3] = ["floors", "codes", "source_scan"];

/// The crate's `src/` folder.
pub fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every source file under `src/`, by its module path (`script::bindings::rules`), tests left out.
pub fn modules() -> BTreeMap<Vec<String>, PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&src(), &mut files);
    let mut modules = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src()).expect("under src").with_extension("");
        let mut path: Vec<String> = relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
        let last = path.last().expect("a name").clone();
        if last == "tests"
            || TEST_ONLY.contains(&last.as_str())
            || last.ends_with("_tests")
            || path.iter().any(|p| p == "snapshots")
        {
            continue;
        }
        if ["mod", "lib", "main"].contains(&last.as_str()) {
            path.pop();
        }
        modules.insert(path, file);
    }
    modules
}

/// The text of a source file without comments and without its `#[cfg(test)]` modules.
pub fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("a readable source file");
    let mut code: String =
        text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    while let Some(at) = code.find("#[cfg(test)]") {
        // Drop the item that follows, up to its closing brace (or semicolon).
        let rest = &code[at..];
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        code.replace_range(at..at + end, "");
    }
    code
}
