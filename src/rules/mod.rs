//! Rulesets as data: a folder of YAML tables, modifier lists and Rhai procedures, loaded and checked.
//!
//! `load` reads a ruleset folder and the overlays stacked on it into a
//! `Ruleset`, reporting every problem at once, each pointing into its file.

pub mod band;
mod content_hash;
pub mod contract;
mod dice_section;
mod difference;
mod effects;
pub mod files;
mod load;
mod manifest;
mod modifier;
pub mod option_inputs;
mod problem;
mod ruleset;
pub mod sequence;
mod settings;
pub mod shipped;
mod source;
mod switch_error;
mod switched_table;
mod table;
pub mod unit_problem;
pub mod unit_template;
mod unused;
mod yaml;

pub use content_hash::content_hash;
pub use difference::{Difference, Part, differences};
pub use effects::Effects;
pub use load::{
    Loaded, RulesOrigin, base_of, default_rules_dir, load, load_partial, resolve, rules_dir_and_origin, search_path,
    set_rules_path, user_rules_dir,
};
pub use manifest::{ConstantDef, InterpretationDef, ManifestFile, OptionDef};
pub use modifier::{
    GroupDef, GroupRule, ListSituation, ModEffect, Modifier, ModifierDef, ModifierFile, ModifierList, Pick, Verdict,
    WhyNot, apply_groups, gate,
};
pub use problem::{Origin, Problem, Problems, SHOWN_PROBLEMS, SourceFile, did_you_mean, source_file};
pub use ruleset::{ConstantInfo, InterpretationInfo, Layer, OptionInfo, Procedure, Ruleset};
pub use settings::{Settings, Switches};
pub use source::{SeedRef, Source};
pub use switch_error::{SwitchError, SwitchKind};
pub use switched_table::{PatchGate, SwitchedTable};
pub use table::{
    Cell, Edge, GridRow, LookupValue, ReadError, ResultDef, RowKey, Table, TableBody, TableFile, TableResult,
};
pub use unused::{Unused, UnusedEntry, UnusedKind};
pub use yaml::{Entries, parse as parse_yaml, parse_with_budget as parse_yaml_with_budget, span_of};
