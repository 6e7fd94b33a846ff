//! The flags every command that loads rules shares: `--rules`, `--with`, `--without`, `--set`.

use clap::Args;

use crate::error::Error;
use crate::rules::{Problem, Problems, Ruleset, Switches, default_rules_dir, load};

#[derive(Debug, Args, Clone, Default)]
pub struct RulesFlags {
    /// A ruleset by id (a folder under rules/) or by folder; repeat to stack overlays in order.
    #[arg(long = "rules", value_name = "ID|DIR")]
    pub rules: Vec<String>,
    /// Switch an optional rule on.
    #[arg(long = "with", value_name = "OPTION")]
    pub with: Vec<String>,
    /// Switch an optional rule off.
    #[arg(long = "without", value_name = "OPTION")]
    pub without: Vec<String>,
    /// Choose an interpretation: `--set musketry_below_zero=desultory`.
    #[arg(long = "set", value_name = "NAME=CHOICE", value_parser = parse_choice)]
    pub set: Vec<(String, String)>,
}

fn parse_choice(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, choice)) if !name.trim().is_empty() && !choice.trim().is_empty() => {
            Ok((name.trim().to_string(), choice.trim().to_string()))
        }
        _ => Err(format!("`{text}` is not NAME=CHOICE")),
    }
}

impl RulesFlags {
    /// Whether any ruleset was named.
    pub fn given(&self) -> bool {
        !self.rules.is_empty()
    }

    /// The switches as the rules layer takes them.
    pub fn switches(&self) -> Switches {
        Switches { with: self.with.clone(), without: self.without.clone(), set: self.set.clone() }
    }

    /// Loads the named rulesets and applies the switches; warnings are returned, errors fail.
    pub fn load(&self) -> Result<(Ruleset, Vec<Problem>), Error> {
        let loaded = load(&self.rules, &default_rules_dir())?;
        let mut ruleset = loaded.ruleset;
        ruleset.apply(&self.switches()).map_err(Problems)?;
        Ok((ruleset, loaded.warnings))
    }
}
