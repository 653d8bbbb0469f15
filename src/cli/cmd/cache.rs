//! `tenure-eval cache`: the user cache of embedding stores (`embed::places::user_cache`), found
//! from any folder: list them, or prune some or all.

use crate::embed::places::{cached, user_cache};
use crate::{Error, Result};
use clap::{Args, Subcommand};
use std::process::ExitCode;

/// `tenure-eval cache`.
#[derive(Debug, Args)]
pub(crate) struct CacheArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: Option<CacheAction>,
}

/// `cache` actions.
#[derive(Debug, Subcommand)]
pub(crate) enum CacheAction {
    /// Each cached store: name, size, last change, folder (the default).
    List,
    /// Remove the named stores, or every one with --all.
    Prune {
        /// Stores to remove.
        names: Vec<String>,
        /// Remove every cached store.
        #[arg(long, conflicts_with = "names")]
        all: bool,
    },
}

/// Run `cache`.
pub(crate) fn run(args: CacheArgs) -> Result<ExitCode> {
    let Some(cache) = user_cache() else {
        return Err(Error::Usage(
            "no user cache on this platform (set TENURE_EVAL_CACHE to a folder)".into(),
        ));
    };
    let stores = cached();
    match args.action.unwrap_or(CacheAction::List) {
        CacheAction::List => {
            let problems: Vec<Option<String>> = (stores.iter())
                .map(|(_, folder, _, _)| crate::embed::places::manifest_problem(folder))
                .collect();
            let real = problems.iter().filter(|p| p.is_none()).count();
            let plural = if real == 1 { "" } else { "s" };
            let mut text = format!("{} ({real} store{plural})\n", cache.display());
            for ((name, folder, bytes, changed), problem) in stores.iter().zip(&problems) {
                if let Some(problem) = problem {
                    text.push_str(&format!("  {name:<32} not a store: {problem}\n"));
                    continue;
                }
                let when = changed
                    .map(|t| {
                        chrono::DateTime::<chrono::Utc>::from(t)
                            .format("%Y-%m-%d %H:%M")
                            .to_string()
                    })
                    .unwrap_or_else(|| "?".into());
                text.push_str(&format!(
                    "  {name:<32} {:>10.1} MB  {when}  {}\n",
                    *bytes as f64 / 1e6,
                    folder.display()
                ));
            }
            crate::cli::write_stdout(&text)?;
        }
        CacheAction::Prune { names, all } => {
            if !all && names.is_empty() {
                return Err(Error::Usage(
                    "cache prune: name the stores, or give --all".into(),
                ));
            }
            for name in &names {
                if !stores.iter().any(|s| &s.0 == name) {
                    return Err(Error::Usage(format!(
                        "cache prune: no cached store {name:?} (`tenure-eval cache list`)"
                    )));
                }
            }
            for (name, folder, bytes, _) in &stores {
                if all || names.contains(name) {
                    let output = |source| Error::Output {
                        path: folder.clone(),
                        source,
                    };
                    // A store linked into the cache: the link goes, the store it names stays
                    // (remove_dir_all does not follow it), and its size was not freed.
                    if let Ok(target) = std::fs::read_link(folder) {
                        std::fs::remove_file(folder).map_err(output)?;
                        say!(
                            "removed the link {} (the store it named, {}, is left)",
                            folder.display(),
                            target.display()
                        );
                        continue;
                    }
                    std::fs::remove_dir_all(folder).map_err(output)?;
                    say!(
                        "removed {} ({:.1} MB)",
                        folder.display(),
                        *bytes as f64 / 1e6
                    );
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
