//! `grognard completions SHELL` and `grognard man`: what a shell and `man` read, made from the
//! command line's own definition (clap_complete, clap_mangen), so they never fall behind it.

use std::io::Write;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::error::{Error, InputError};

pub(super) const COMPLETIONS_EXAMPLES: &str = "Examples:
  grognard completions bash > ~/.local/share/bash-completion/completions/grognard
  grognard completions zsh > ~/.zfunc/_grognard       # with fpath+=~/.zfunc before compinit
  grognard completions fish > ~/.config/fish/completions/grognard.fish";

pub(super) const MAN_EXAMPLES: &str = "Examples:
  grognard man > ~/.local/share/man/man1/grognard.1 && man grognard
  grognard man run > ~/.local/share/man/man1/grognard-run.1
  grognard man | man -l -";

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A command's own page (`grognard-run(1)`), rather than grognard's.
    pub command: Option<String>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: Shell,
}

/// The completion script for `args.shell`.
pub(super) fn completions(args: &CompletionsArgs, out: &mut dyn Write) -> Result<(), Error> {
    let mut command = super::Cli::command();
    clap_complete::generate(args.shell, &mut command, "grognard", out);
    Ok(())
}

/// The manual page, in roff: grognard's, or one command's (`grognard-run`).
pub(super) fn man(args: &ManArgs, out: &mut dyn Write) -> Result<(), Error> {
    let grognard = super::Cli::command();
    let command = match &args.command {
        None => grognard,
        Some(name) => {
            let Some(sub) = grognard.find_subcommand(name) else {
                let names: Vec<String> = grognard.get_subcommands().map(|c| c.get_name().to_string()).collect();
                let hint = crate::rules::did_you_mean(name, names.iter().map(String::as_str));
                return Err(InputError::UnknownCommand { name: name.clone(), hint, known: names.join(", ") }.into());
            };
            sub.clone().name(format!("grognard-{name}"))
        }
    };
    clap_mangen::Man::new(command).render(out)?;
    Ok(())
}
