//! `grognard schema`: JSON Schemas for the rule files, so an editor checks them as they are typed.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::error::{Error, InputError};
use crate::present::file::{Fresh, write_atomically};
use crate::rules::contract::ContractFile;
use crate::rules::{ManifestFile, ModifierFile, TableFile};

pub(super) const EXAMPLES: &str = "Examples:
  grognard schema table                 # print the schema of tables/*.yaml
  grognard schema all --out schema/     # write ruleset, table, modifiers and contracts schemas";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaKind {
    /// `ruleset.yaml`
    Ruleset,
    /// `tables/*.yaml`
    Table,
    /// `modifiers/*.yaml`
    Modifiers,
    /// `contracts/*.yaml`
    Contracts,
    /// All four (with `--out`).
    All,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which file's schema.
    #[arg(value_enum)]
    pub kind: SchemaKind,
    /// Write `<kind>.schema.json` files into this folder instead of printing.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// The schema of one kind of rule file, as pretty JSON.
pub fn schema_text(kind: SchemaKind) -> String {
    let schema = match kind {
        SchemaKind::Ruleset => schemars::schema_for!(ManifestFile),
        SchemaKind::Table => schemars::schema_for!(TableFile),
        SchemaKind::Modifiers | SchemaKind::All => schemars::schema_for!(ModifierFile),
        SchemaKind::Contracts => schemars::schema_for!(ContractFile),
    };
    serde_json::to_string_pretty(&schema).expect("a schema serializes") + "\n"
}

pub(super) fn run(args: &SchemaArgs, out: &mut dyn Write) -> Result<(), Error> {
    let kinds = match args.kind {
        SchemaKind::All => vec![SchemaKind::Ruleset, SchemaKind::Table, SchemaKind::Modifiers, SchemaKind::Contracts],
        one => vec![one],
    };
    match &args.out {
        None if kinds.len() > 1 => Err(InputError::SchemaNeedsOut.into()),
        None => Ok(out.write_all(schema_text(kinds[0]).as_bytes())?),
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            for kind in kinds {
                let name = format!("{}.schema.json", kind.to_possible_value().expect("named").get_name());
                let path = dir.join(name);
                write_atomically(&path, &schema_text(kind), Fresh::Usual)
                    .map_err(|e| InputError::Write { path: path.clone(), why: e.to_string() })?;
                writeln!(out, "wrote {}", path.display())?;
            }
            Ok(())
        }
    }
}
