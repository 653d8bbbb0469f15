//! Which flags were given on the command line, whatever their values: a flag given for a
//! backend not chosen is refused ([`super::backends::BackendFlags::check`]), and a flag at its
//! default is not one given. The config file's flags (`super::config`) are inserted here,
//! before the user's, and remembered apart: they are set, not given. A command that would
//! ignore a flag refuses it when given, and says on stderr when the config file set it
//! ([`given_else_noted`]): one file serves many commands and runs, and a refusal the user
//! could undo only with `--config none` would trap them (docs/config.md).

use clap::parser::ValueSource;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The ids (field names) of the flags given on the command line, of the subcommand run.
static GIVEN: OnceLock<BTreeSet<String>> = OnceLock::new();

/// The ids set by the config file (and not on the command line).
static CONFIGURED: OnceLock<BTreeSet<String>> = OnceLock::new();

/// The config file in force, for manifests and `tenure-eval config`.
static CONFIG: OnceLock<super::config::Config> = OnceLock::new();

/// Why the command line was not taken.
pub(crate) enum Refused {
    /// clap's own error (printed by clap, help and version included).
    Clap(clap::Error),
    /// The config file: exit 2 naming its file, line and key.
    Config(crate::Error),
}

/// Parse the command line, with the config file's flags for the subcommand inserted before the
/// user's own (which win: a flag on the command line keeps the file's out), remembering which
/// flags were given where.
pub(crate) fn parse() -> std::result::Result<super::Cli, Refused> {
    use clap::{CommandFactory, FromArgMatches};
    let mut argv: Vec<String> = std::env::args().collect();
    let root = super::Cli::command();
    let sub = argv
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, a)| root.find_subcommand(a.as_str()).is_some())
        .map(|(i, a)| (i, a.clone()));
    let mut from_file: Vec<(super::config::Setting, Vec<String>)> = Vec::new();
    let mut config = super::config::Config::default();
    if let Some((at, name)) = &sub {
        if let Some(path) = super::config::locate(&argv).map_err(Refused::Config)? {
            let command = root.find_subcommand(name).expect("found above");
            config = super::config::load(&path, command).map_err(Refused::Config)?;
            let mut inserted = Vec::new();
            for setting in &config.settings {
                let arg = command
                    .get_arguments()
                    .find(|a| a.get_long() == Some(setting.key.as_str()))
                    .expect("checked by load");
                if on_command_line(&argv[at + 1..], arg) {
                    continue;
                }
                inserted.extend(setting.args.iter().cloned());
                from_file.push((setting.clone(), setting.args.clone()));
            }
            argv.splice(at + 1..at + 1, inserted);
        }
    }
    let matches = match root.try_get_matches_from(&argv) {
        Ok(m) => m,
        Err(e) => return Err(blame(e, &from_file, &config)),
    };
    let configured: BTreeSet<String> = from_file
        .iter()
        .filter_map(|(s, _)| {
            super::Cli::command()
                .find_subcommand(sub.as_ref()?.1.as_str())?
                .get_arguments()
                .find(|a| a.get_long() == Some(s.key.as_str()))
                .map(|a| a.get_id().as_str().to_string())
        })
        .collect();
    let mut given = BTreeSet::new();
    if let Some((_, sub)) = matches.subcommand() {
        for id in sub.ids() {
            if sub.value_source(id.as_str()) == Some(ValueSource::CommandLine)
                && !configured.contains(id.as_str())
            {
                given.insert(id.as_str().to_string());
            }
        }
    }
    let _ = GIVEN.set(given);
    let _ = CONFIGURED.set(configured);
    let _ = CONFIG.set(config);
    super::Cli::from_arg_matches(&matches).map_err(Refused::Clap)
}

/// Is `arg` among `args` (by its long or short name)?
fn on_command_line(args: &[String], arg: &clap::Arg) -> bool {
    let long = arg.get_long().map(|l| format!("--{l}"));
    let short = arg.get_short().map(|s| format!("-{s}"));
    args.iter().take_while(|a| *a != "--").any(|a| {
        long.as_ref()
            .is_some_and(|l| a == l || a.starts_with(&format!("{l}=")))
            || short.as_ref().is_some_and(|s| a.starts_with(s.as_str()))
    })
}

/// clap's error, or, when it is about a flag the config file set, the file's: its line and key.
fn blame(
    e: clap::Error,
    from_file: &[(super::config::Setting, Vec<String>)],
    config: &super::config::Config,
) -> Refused {
    use clap::error::{ContextKind, ContextValue};
    let invalid = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => s.clone(),
        _ => String::new(),
    };
    let flag = invalid
        .split([' ', '='])
        .next()
        .unwrap_or_default()
        .to_string();
    match (
        from_file
            .iter()
            .find(|(s, _)| format!("--{}", s.key) == flag),
        &config.path,
    ) {
        (Some((setting, _)), Some(path)) => {
            let message = e.kind().as_str().unwrap_or("refused").to_string();
            let detail = e
                .to_string()
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches("error: ")
                .to_string();
            Refused::Config(crate::Error::input(
                path,
                format!("line {}, [{}] {}", setting.line, setting.table, setting.key),
                format!("{message}: {detail}"),
            ))
        }
        _ => Refused::Clap(e),
    }
}

/// The config file in force (empty when there is none).
pub(crate) fn config() -> Option<&'static super::config::Config> {
    CONFIG.get()
}

/// Was the flag whose field is `id` set, on the command line or by the config file?
pub(crate) fn set(id: &str) -> bool {
    given(id) || CONFIGURED.get().is_some_and(|c| c.contains(id))
}

/// The first of the flags whose fields are `ids` given on the command line, as its flag
/// (`--max-errors`): what a command refuses, named, when it would ignore it. Those the config
/// file set are said (`why` the command does not use them, [`given_else_noted`]).
pub(crate) fn first_given<S: AsRef<str>>(
    ids: impl IntoIterator<Item = S>,
    why: &str,
) -> Option<String> {
    (ids.into_iter())
        .find(|id| given_else_noted(id.as_ref(), || why.to_string()))
        .map(|id| format!("--{}", id.as_ref().replace('_', "-")))
}

/// Refuse the first of `rules` (a flag's field, why the command would ignore it) given on the
/// command line, with its why as the message; say those the config file set
/// ([`given_else_noted`]).
pub(crate) fn refuse_ignored(rules: &[(&str, &str)]) -> crate::Result<()> {
    match rules
        .iter()
        .find(|(id, why)| given_else_noted(id, || why.to_string()))
    {
        Some((_, why)) => Err(crate::Error::Usage(why.to_string())),
        None => Ok(()),
    }
}

/// For a flag the command would ignore: was it given on the command line (the caller refuses
/// it)? When the config file set it instead, say so on stderr, once, with the file's line, its
/// table and `why` the command does not use it, and answer no: the setting is left, not
/// silently (an audit found `[run] backend` ignored by `run --replay` without a word).
pub(crate) fn given_else_noted(id: &str, why: impl FnOnce() -> String) -> bool {
    if given(id) {
        return true;
    }
    if !CONFIGURED.get().is_some_and(|c| c.contains(id)) {
        return false;
    }
    static NOTED: std::sync::Mutex<BTreeSet<String>> = std::sync::Mutex::new(BTreeSet::new());
    let first = NOTED.lock().map(|mut n| n.insert(id.to_string()));
    if let (Ok(true), Some(at)) = (first, from_config(id)) {
        say!("note: {at}: not used by this command ({})", why());
    }
    false
}

/// Where the config file set the flag whose field is `id`, when it did and the command line
/// did not (`FILE line N, [table] key = value`): a refusal of a value the file gave names the
/// file's line.
pub(crate) fn from_config(id: &str) -> Option<String> {
    if given(id) {
        return None;
    }
    let config = CONFIG.get()?;
    let key = id.replace('_', "-");
    let setting = config.settings.iter().find(|s| s.key == key)?;
    let file = config.path.as_deref().unwrap_or(std::path::Path::new(""));
    Some(format!(
        "{} line {}, [{}] {} = {}",
        file.display(),
        setting.line,
        setting.table,
        setting.key,
        setting.shown
    ))
}

/// Was the flag whose field is `id` given on the command line?
pub(crate) fn given(id: &str) -> bool {
    GIVEN.get().is_some_and(|g| g.contains(id))
}
