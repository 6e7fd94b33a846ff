//! The header every JSON and CSV output carries, so a result file says how to make it again:
//! grognard's version, the command line, the rules with their content hash, the switches, the
//! seed and the trials.

use serde_json::{Value, json};

use crate::rules::{Ruleset, Switches, content_hash};

/// How an output was made.
pub struct Provenance {
    /// The layers, base first; none for dice alone.
    rules: Vec<String>,
    rules_hash: Option<String>,
    switches: Switches,
    seed: Option<u64>,
    trials: Option<u64>,
}

impl Provenance {
    /// An output of `ruleset` (none: dice alone) under `switches`.
    pub fn new(ruleset: Option<&Ruleset>, switches: Switches, seed: Option<u64>, trials: Option<u64>) -> Self {
        Provenance {
            rules: ruleset.map(|rs| rs.layers.iter().map(|l| l.id.clone()).collect()).unwrap_or_default(),
            rules_hash: ruleset.map(content_hash),
            switches,
            seed,
            trials,
        }
    }

    /// The same header, with the seed a sampled output was drawn with.
    pub fn with_seed(self, seed: Option<u64>) -> Self {
        Provenance { seed, ..self }
    }

    /// The header as JSON: `{"grognard": "0.1.0", "command": [...], "rules": [...], ...}`.
    pub fn json(&self) -> Value {
        let set: serde_json::Map<String, Value> =
            self.switches.set.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
        json!({
            "grognard": env!("CARGO_PKG_VERSION"),
            "command": command_line(),
            "rules": self.rules,
            "rules_hash": self.rules_hash,
            "with": self.switches.with,
            "without": self.switches.without,
            "set": set,
            "seed": self.seed,
            "trials": self.trials,
        })
    }

    /// The header as CSV comment lines (`# key: value`), which CSV readers skip when told to
    /// (`comment="#"`).
    pub fn csv_comments(&self) -> String {
        let mut s = format!("# grognard: {}\n", env!("CARGO_PKG_VERSION"));
        s += &format!("# command: {}\n", shell_words(&command_line()));
        if !self.rules.is_empty() {
            s += &format!("# rules: {}\n", self.rules.join(" + "));
        }
        if let Some(hash) = &self.rules_hash {
            s += &format!("# rules_hash: {hash}\n");
        }
        let mut switches: Vec<String> = Vec::new();
        switches.extend(self.switches.with.iter().map(|o| format!("--with {o}")));
        switches.extend(self.switches.without.iter().map(|o| format!("--without {o}")));
        switches.extend(self.switches.set.iter().map(|(k, v)| format!("--set {k}={v}")));
        if !switches.is_empty() {
            s += &format!("# switches: {}\n", switches.join(" "));
        }
        if let Some(seed) = self.seed {
            s += &format!("# seed: {seed}\n");
        }
        if let Some(trials) = self.trials {
            s += &format!("# trials: {trials}\n");
        }
        s
    }
}

/// The command line as given, the program named `grognard` wherever it was run from.
fn command_line() -> Vec<String> {
    let mut args: Vec<String> = std::env::args().collect();
    if let Some(first) = args.first_mut() {
        *first = "grognard".into();
    }
    args
}

/// Words joined as a shell would read them back: a word with spaces or quotes single-quoted.
fn shell_words(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c)) {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
