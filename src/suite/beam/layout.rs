//! Where BEAM's files are: a folder of tiers (`100K/`, `500K/`, ...), each a folder of
//! numbered chats (`1/chat.json`, `1/probing_questions/probing_questions.json`), as the
//! repository's `chats/` lays them out.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// A tier's folder name by the size it names (`100K` < `500K` < `1M` < `10M`); names of no
/// size sort after, by name.
fn tier_order(name: &str) -> (u64, String) {
    let (digits, scale) = match name.as_bytes().last() {
        Some(b'K' | b'k') => (&name[..name.len() - 1], 1_000),
        Some(b'M' | b'm') => (&name[..name.len() - 1], 1_000_000),
        _ => (name, 1),
    };
    let size = digits.parse::<u64>().map_or(u64::MAX, |n| n * scale);
    (size, name.to_string())
}

/// The sub-folders of `dir` whose names `keep` accepts, as (name, path).
fn folders(dir: &Path, keep: impl Fn(&str) -> bool) -> Result<Vec<(String, PathBuf)>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Error::input(
            dir,
            "folder",
            format!("{e}; expected BEAM's chats/ folder (100K/1/chat.json, ...)"),
        )
    })?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && keep(&name) {
            out.push((name, entry.path()));
        }
    }
    Ok(out)
}

/// The tiers of `data` to run: every tier folder (one holding numbered chat folders), or the
/// ones `wanted` names, in size order.
pub(super) fn tiers(data: &Path, wanted: &[String]) -> Result<Vec<(String, PathBuf)>> {
    let is_chat = |name: &str| !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit());
    let mut found = folders(data, |_| true)?;
    found.retain(|(_, path)| {
        folders(path, is_chat).is_ok_and(|chats| chats.iter().any(|(_, p)| p.is_dir()))
    });
    found.sort_by_key(|(name, _)| tier_order(name));
    if found.is_empty() {
        let hint = if data.join("chat.json").is_file() || !folders(data, is_chat)?.is_empty() {
            " (this looks like one tier's folder: give its parent, with --tier NAME)"
        } else {
            ""
        };
        return Err(Error::input(
            data,
            "folder",
            format!("no tier folders (100K/, 500K/, ...) holding numbered chats{hint}"),
        ));
    }
    for tier in wanted {
        if !found.iter().any(|(name, _)| name == tier) {
            let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
            return Err(Error::Usage(format!(
                "--tier {tier}: {} holds no such tier; it holds {}",
                data.display(),
                names.join(", ")
            )));
        }
    }
    if !wanted.is_empty() {
        found.retain(|(name, _)| wanted.contains(name));
    }
    Ok(found)
}

/// The chats of a tier's folder, in number order. A sub-folder that is no numbered chat is
/// refused: `21b/` beside `20/` was left unread, and the run still presented as the release's
/// (a seventeenth audit).
pub(super) fn chats(tier: &Path) -> Result<Vec<(String, PathBuf)>> {
    let numbered = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    if let Some((name, path)) = folders(tier, |n| !numbered(n) && !n.starts_with('.'))?.first() {
        return Err(Error::input(
            path,
            "folder",
            format!("{name:?} in a tier's folder; expected its numbered chats only (1/, 2/, ...)"),
        ));
    }
    let mut chats = folders(tier, numbered)?;
    chats.sort_by_key(|(name, _)| name.parse::<u64>().unwrap_or(u64::MAX));
    Ok(chats)
}

#[cfg(test)]
mod tests {
    #[test]
    fn tiers_sort_by_the_size_they_name() {
        let mut names = ["1M", "500K", "10M", "100K", "other"];
        names.sort_by_key(|n| super::tier_order(n));
        assert_eq!(names, ["100K", "500K", "1M", "10M", "other"]);
    }
}
