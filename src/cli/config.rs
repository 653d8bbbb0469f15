//! `tenure-eval.toml`: a command's flags kept in one checked-in file, as cargo, ruff and nextest
//! users keep theirs. Found in the current folder or the nearest parent that has one, or named
//! with `--config FILE` (`--config none`: no file). One table per command (`[run]`, `[static]`,
//! `[models]`, ...) and `[defaults]` for every command; keys are the long flag names, values a
//! string, number, boolean (a switch) or array (a flag given once per item). A flag on the
//! command line wins over the file; `[run]` wins over `[defaults]`.
//!
//! The file's flags become command-line arguments that clap parses like any other, so a value
//! a flag would refuse is refused the same way; an unknown key, a wrong type or a refused value
//! is exit 2 naming the file, the line and the key (docs/config.md).

use crate::{Error, Result};
use clap::Command;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file's name, looked for from the current folder up.
pub(crate) const FILE_NAME: &str = "tenure-eval.toml";

/// The table that applies to every command.
const DEFAULTS: &str = "defaults";

/// A value from the file, with where it was.
#[derive(Debug, Clone)]
pub(crate) struct Setting {
    /// The flag's long name.
    pub key: String,
    /// `[run]` or `[defaults]`.
    pub table: String,
    /// 1-based line of the value.
    pub line: usize,
    /// The arguments it becomes (`--backend bm25 --backend cosine`).
    pub args: Vec<String>,
    /// As written, for `tenure-eval config`.
    pub shown: String,
}

/// The file in force and its settings for one command.
#[derive(Debug, Clone, Default)]
pub(crate) struct Config {
    /// Where it was read from.
    pub path: Option<PathBuf>,
    /// Hex sha256 of its bytes (recorded in every report's manifest).
    pub sha256: Option<String>,
    /// The settings of the command's table, then `[defaults]`' that it does not set.
    pub settings: Vec<Setting>,
}

type Tables = BTreeMap<String, BTreeMap<String, toml::Spanned<toml::Value>>>;

/// The config file for `argv`: `--config FILE` (`none` for none), else the nearest
/// `tenure-eval.toml` from the current folder up.
pub(crate) fn locate(argv: &[String]) -> Result<Option<PathBuf>> {
    let given = argv.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix("--config=")
            .map(str::to_string)
            .or_else(|| (a == "--config").then(|| argv.get(i + 1).cloned().unwrap_or_default()))
    });
    match given.as_deref() {
        Some("none") => return Ok(None),
        Some("") => return Err(Error::Usage("--config needs a FILE (or `none`)".into())),
        Some(file) => {
            let path = PathBuf::from(file);
            if !path.is_file() {
                return Err(Error::input(&path, "file", "no such config file"));
            }
            return Ok(Some(path));
        }
        None => {}
    }
    let mut dir = std::env::current_dir().ok();
    while let Some(d) = dir {
        let candidate = d.join(FILE_NAME);
        if candidate.is_file() {
            return Ok(Some(candidate));
        }
        dir = d.parent().map(Path::to_path_buf);
    }
    Ok(None)
}

/// Read `path` for `command` (its clap definition, whose long flags are the valid keys).
pub(crate) fn load(path: &Path, command: &Command) -> Result<Config> {
    let bytes =
        std::fs::read(path).map_err(|e| Error::input(path, "file", format!("cannot read: {e}")))?;
    let text = String::from_utf8(bytes.clone())
        .map_err(|_| Error::input(path, "file", "not UTF-8 text"))?;
    let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let tables: Tables = toml::from_str(&text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(s.start));
        Error::input(
            path,
            format!("line {line}"),
            format!(
                "{} (expected tables of flags: [run] backend = [\"bm25\"])",
                e.message()
            ),
        )
    })?;
    let name = command.get_name().to_string();
    let mut settings = Vec::new();
    for table in [name.as_str(), DEFAULTS] {
        let Some(entries) = tables.get(table) else {
            continue;
        };
        for (key, value) in entries {
            let line = line_of(value.span().start);
            let at =
                |what: String| Error::input(path, format!("line {line}, [{table}] {key}"), what);
            // A hidden flag is the program's own (`scale --one`, how a size's process is
            // called): a file setting it turned `scale` into that process.
            let Some(arg) = command
                .get_arguments()
                .find(|a| a.get_long() == Some(key.as_str()) && !a.is_hide_set())
            else {
                // A default for other commands; a key no command has is a typo that would be
                // ignored by every command (an audit found `min_score` and `bakend` so).
                if table == DEFAULTS && any_command_has(key) {
                    // A command with subcommands (`temporal`, `cache`) has no flags of its own:
                    // a default its subcommands take is not set for them, and is said.
                    if sub_has(command, key) {
                        say!(
                            "note: {} line {line}, [defaults] {key}: not used by `{name}` (a \
                             config file sets the flags of top-level commands, not of {name}'s \
                             subcommands)",
                            path.display()
                        );
                    }
                    continue;
                }
                if table != DEFAULTS && command.has_subcommands() {
                    return Err(at(format!(
                        "`{name}` takes its flags in its subcommands ({}), which a config file \
                         does not set: give them on the command line",
                        command
                            .get_subcommands()
                            .map(|c| c.get_name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
                if table == DEFAULTS {
                    return Err(at(format!(
                        "`{key}` is not a flag of any command (a [defaults] key is a long flag \
                         name, such as min-score)"
                    )));
                }
                return Err(at(format!(
                    "`{key}` is not a flag of `{name}`{} ({})",
                    near_flag(command, key)
                        .map_or(String::new(), |f| format!("; did you mean `{f}`?")),
                    flags(command)
                )));
            };
            if settings.iter().any(|s: &Setting| s.key == *key) {
                continue; // the command's table wins over [defaults]
            }
            // `models` keeps its reports in a folder of its own (reports/models) so that a run's
            // are never written over: a shared `[defaults] out` put them over the run's, a
            // report of other measures in place of the run's (a thirteenth audit). Only
            // `[models] out` moves them.
            if table == DEFAULTS && name == "models" && key == "out" {
                say!(
                    "note: {} line {line}, [defaults] out: not used by `models`, whose reports                      go to a folder of their own (reports/models) so that a run's are never                      written over; set [models] out to move them",
                    path.display()
                );
                continue;
            }
            let switch = !arg.get_action().takes_values();
            let args = as_args(key, value.get_ref(), switch).map_err(at)?;
            settings.push(Setting {
                key: key.clone(),
                table: table.to_string(),
                line,
                args,
                shown: value.get_ref().to_string(),
            });
        }
    }
    for table in tables.keys() {
        if table != DEFAULTS && !command_names().contains(table) {
            return Err(Error::input(
                path,
                format!("[{table}]"),
                format!(
                    "not a command (tables: [defaults], {})",
                    command_names().join(", ")
                ),
            ));
        }
    }
    Ok(Config {
        path: Some(path.to_path_buf()),
        sha256: Some(crate::io::sha256_hex(&bytes)),
        settings,
    })
}

/// The arguments `key = value` stands for: a switch's `true` is the flag, `false` nothing; an
/// array one flag per item; anything else one flag with its text.
fn as_args(
    key: &str,
    value: &toml::Value,
    switch: bool,
) -> std::result::Result<Vec<String>, String> {
    let flag = format!("--{key}");
    let scalar = |v: &toml::Value| match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!(
            "expected a string, number or boolean, found {}",
            other.type_str()
        )),
    };
    match (value, switch) {
        (toml::Value::Boolean(true), true) => Ok(vec![flag]),
        (toml::Value::Boolean(false), true) => Ok(Vec::new()),
        (other, true) => Err(format!(
            "`{key}` is a switch: expected true or false, found {}",
            other.type_str()
        )),
        (toml::Value::Array(items), false) => items
            .iter()
            .map(|v| scalar(v).map(|s| [flag.clone(), s]))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map(|pairs| pairs.concat()),
        (v, false) => Ok(vec![flag, scalar(v)?]),
    }
}

/// The long flags of `command`, for an unknown key's message.
fn flags(command: &Command) -> String {
    let mut names: Vec<String> = command
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .filter(|l| l != "--help" && l != "--version")
        .collect();
    names.sort();
    format!("its flags: {}", names.join(" "))
}

/// Whether a subcommand of `command` has the long flag `key`.
fn sub_has(command: &Command, key: &str) -> bool {
    (command.get_subcommands()).any(|c| c.get_arguments().any(|a| is_flag(a, key)))
}

/// Whether some command, or a subcommand of one (`temporal eval --livechat`), has the long
/// flag `key`.
fn any_command_has(key: &str) -> bool {
    use clap::CommandFactory;
    super::Cli::command()
        .get_subcommands()
        .any(|c| c.get_arguments().any(|a| is_flag(a, key)) || sub_has(c, key))
}

/// Is `arg` the long flag `key` a config file may set (hidden flags are the program's own)?
fn is_flag(arg: &clap::Arg, key: &str) -> bool {
    arg.get_long() == Some(key) && !arg.is_hide_set()
}

/// Every command's name.
fn command_names() -> Vec<String> {
    use clap::CommandFactory;
    super::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// The flag of `command` nearest `key` by Jaro-Winkler similarity (clap's measure for its own
/// "a similar argument exists"), if any is near (above 0.8; ties to the first in clap's order).
fn near_flag<'c>(command: &'c clap::Command, key: &str) -> Option<&'c str> {
    command
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long())
        .map(|long| (strsim::jaro_winkler(key, long), long))
        .filter(|(score, _)| *score > 0.8)
        .fold(
            None,
            |best: Option<(f64, &str)>, (score, long)| match best {
                Some((b, _)) if b >= score => best,
                _ => Some((score, long)),
            },
        )
        .map(|(_, long)| long)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_become_the_flags_they_name() {
        let v = |s: &str| toml::from_str::<toml::Table>(&format!("x = {s}")).unwrap()["x"].clone();
        assert_eq!(
            as_args("backend", &v("[\"bm25\", \"cosine\"]"), false).unwrap(),
            ["--backend", "bm25", "--backend", "cosine"]
        );
        assert_eq!(as_args("quiet", &v("true"), true).unwrap(), ["--quiet"]);
        assert!(as_args("quiet", &v("false"), true).unwrap().is_empty());
        assert_eq!(
            as_args("concurrency", &v("4"), false).unwrap(),
            ["--concurrency", "4"]
        );
        let e = as_args("quiet", &v("\"yes\""), true).unwrap_err();
        assert!(e.contains("is a switch"), "{e}");
        let e = as_args("suite", &v("{ a = 1 }"), false).unwrap_err();
        assert!(e.contains("found table"), "{e}");
    }
}
