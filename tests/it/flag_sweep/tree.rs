//! The command tree as `--help` prints it: every command path, and each one's flags with
//! whether they take a value, their possible values and default; a flag set on an invocation.

use crate::common::cli;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// A flag as `-h` prints it: its name, whether it takes a value, its possible values and
/// default.
#[derive(Debug, Clone)]
pub(super) struct Flag {
    pub(super) name: String,
    pub(super) takes_value: bool,
    pub(super) possible: Vec<String>,
    pub(super) default: Option<String>,
}

pub(super) fn help(path: &[&str]) -> String {
    let out = cli(&[path, &["-h"]].concat()).output().unwrap();
    assert!(out.status.success(), "{path:?} -h");
    String::from_utf8(out.stdout).unwrap()
}

/// Every command path of the tree: `run`, ..., `cache list`, `temporal eval`.
pub(super) fn commands() -> Vec<Vec<String>> {
    fn children(path: &[String]) -> Vec<String> {
        crate::common::subcommands(&path.iter().map(String::as_str).collect::<Vec<_>>())
    }
    let mut out = Vec::new();
    let mut todo: Vec<Vec<String>> = children(&[]).into_iter().map(|c| vec![c]).collect();
    while let Some(path) = todo.pop() {
        let kids = children(&path);
        if kids.is_empty() {
            out.push(path);
        } else {
            todo.extend(kids.into_iter().map(|k| [path.clone(), vec![k]].concat()));
        }
    }
    out.sort();
    out
}

static FLAG_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s+(?:-\w, )?(--[a-z0-9-]+)( <[^>]+>)?").unwrap());
static POSSIBLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[possible values: ([^\]]+)\]").unwrap());
static DEFAULT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[default: ([^\]]+)\]").unwrap());

/// The flags of a command, from its `-h` (an entry's wrapped lines joined).
pub(super) fn flags(path: &[String]) -> Vec<Flag> {
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let text = help(&path);
    let mut entries: Vec<String> = Vec::new();
    for line in text.lines() {
        if FLAG_LINE.is_match(line) {
            entries.push(line.to_string());
        } else if line.starts_with("  ") && !line.trim().is_empty() {
            if let Some(last) = entries.last_mut() {
                last.push(' ');
                last.push_str(line.trim());
            }
        } else {
            entries.push(String::new());
        }
    }
    let mut seen = BTreeSet::new();
    entries
        .iter()
        .filter_map(|e| {
            let c = FLAG_LINE.captures(e)?;
            let name = c[1].to_string();
            seen.insert(name.clone()).then(|| Flag {
                name,
                takes_value: c.get(2).is_some(),
                possible: POSSIBLE
                    .captures(e)
                    .map(|p| p[1].split(", ").map(String::from).collect())
                    .unwrap_or_default(),
                default: DEFAULT.captures(e).map(|d| d[1].to_string()),
            })
        })
        .collect()
}

/// The args of `base` with `flag` (and its value) in place of the base's own; a switch the
/// base gives is taken away instead.
pub(super) fn with_flag(base: &[String], flag: &Flag, value: Option<&str>) -> Vec<String> {
    if !flag.takes_value && base.contains(&flag.name) {
        return base.iter().filter(|a| **a != flag.name).cloned().collect();
    }
    let mut args = Vec::new();
    let mut skip = false;
    for a in base {
        if skip {
            skip = false;
        } else if *a == flag.name {
            skip = flag.takes_value;
        } else {
            args.push(a.clone());
        }
    }
    args.push(flag.name.clone());
    args.extend(value.map(String::from));
    args
}
