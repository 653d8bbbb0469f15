//! `tenure-eval config [COMMAND]`: the flags a command takes from the config file in force, and
//! the defaults of the rest, each with where it comes from (docs/config.md).

use crate::{Error, Result};
use clap::{Args, CommandFactory};
use std::process::ExitCode;

/// `tenure-eval config`.
#[derive(Debug, Args)]
pub(crate) struct ConfigArgs {
    /// The command whose settings to show.
    #[arg(default_value = "run")]
    pub command: String,
}

/// Print the settings of `args.command`.
pub(crate) fn run(args: ConfigArgs) -> Result<ExitCode> {
    let root = crate::cli::Cli::command();
    let Some(command) = root.find_subcommand(&args.command) else {
        let names: Vec<&str> = root.get_subcommands().map(|c| c.get_name()).collect();
        return Err(Error::Usage(format!(
            "no command {:?} (commands: {})",
            args.command,
            names.join(", ")
        )));
    };
    let argv: Vec<String> = std::env::args().collect();
    let config = match crate::cli::config::locate(&argv)? {
        Some(path) => crate::cli::config::load(&path, command)?,
        None => crate::cli::config::Config::default(),
    };
    let mut text = match (&config.path, &config.sha256) {
        (Some(path), Some(sha)) => format!("config file: {} (sha256 {sha})\n", path.display()),
        _ => format!(
            "config file: none ({} in this folder or a parent, or --config FILE)\n",
            crate::cli::config::FILE_NAME
        ),
    };
    text.push_str(&format!("settings of `{}`:\n", args.command));
    let mut rows: Vec<(String, String)> = Vec::new();
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if matches!(long, "help" | "version" | "config") {
            continue;
        }
        let file = config
            .path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let row = match config.settings.iter().find(|s| s.key == long) {
            Some(s) => (
                format!("{long} = {}", s.shown),
                format!("{file}:{} [{}]", s.line, s.table),
            ),
            None => {
                let defaults: Vec<String> = arg
                    .get_default_values()
                    .iter()
                    .map(|v| v.to_string_lossy().into_owned())
                    .collect();
                if defaults.is_empty() {
                    continue;
                }
                (
                    format!("{long} = {}", defaults.join(",")),
                    "default".to_string(),
                )
            }
        };
        rows.push(row);
    }
    let width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    for (setting, from) in rows {
        text.push_str(&format!("  {setting:<width$}  {from}\n"));
    }
    crate::cli::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
