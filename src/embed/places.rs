//! Where embedding stores are looked for and written.
//!
//! Without `--store-dir`, a store name is looked for in `embeddings/` under the current folder
//! (the project's own stores, as git or cargo work in the project folder they are run from),
//! then in the user cache ([`user_cache`]: `$XDG_CACHE_HOME/tenure-eval/embeddings`, or the
//! platform's cache folder), then among the stores compiled into the binary: a model embedded
//! once is found from any folder. New stores go to `embeddings/` when the current folder has
//! one, else to the user cache. With `--store-dir D`, `D` is the only place looked at and
//! written: a user who names a folder gets exactly that folder, never a cached or built-in copy
//! of the same name. Every "not found" names each place looked at.

use super::store::{builtin_names, EmbeddingStore};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The store folder used when `--store-dir` is not given, relative to the current folder.
pub(crate) const DEFAULT_DIR: &str = "embeddings";

/// Where stores are read from and written to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Places<'a> {
    /// `--store-dir`, when given.
    pub given: Option<&'a Path>,
}

impl<'a> Places<'a> {
    /// Places for `--store-dir` (`None`: the default folder, then the built-in stores).
    pub(crate) fn new(given: Option<&'a Path>) -> Places<'a> {
        Places { given }
    }

    /// The folder new stores are written to: `--store-dir`, else the project's `embeddings/`
    /// when the current folder has one, else the user cache.
    pub(crate) fn dir(&self) -> PathBuf {
        match self.given {
            Some(given) => given.to_path_buf(),
            None if Path::new(DEFAULT_DIR).is_dir() => PathBuf::from(DEFAULT_DIR),
            None => user_cache().unwrap_or_else(|| PathBuf::from(DEFAULT_DIR)),
        }
    }

    /// The folder of store `name`: where it is, else where it would be written.
    pub(crate) fn folder(&self, name: &str) -> PathBuf {
        self.searched()
            .into_iter()
            .map(|dir| dir.join(name))
            .find(|f| f.join("manifest.json").is_file())
            .unwrap_or_else(|| self.dir().join(name))
    }

    /// The folders looked in, in order (the built-in stores come after them).
    fn searched(&self) -> Vec<PathBuf> {
        match self.given {
            Some(given) => vec![given.to_path_buf()],
            None => std::iter::once(PathBuf::from(DEFAULT_DIR))
                .chain(user_cache())
                .collect(),
        }
    }

    /// The store `name`, from the first place that has it.
    pub(crate) fn find(&self, name: &str) -> Result<Option<EmbeddingStore>> {
        let folder = self.folder(name);
        if folder.join("manifest.json").is_file() {
            return EmbeddingStore::load(&folder).map(Some);
        }
        if self.given.is_some() {
            return Ok(None);
        }
        EmbeddingStore::builtin(name)
    }

    /// Every place [`Places::find`] looks for `name`, for messages.
    pub(crate) fn looked_at(&self, name: &str) -> String {
        let folder = absolute(&self.folder(name));
        match self.given {
            Some(_) => format!("{} (only there: --store-dir was given)", folder.display()),
            None => format!(
                "{} (the project's stores, under the current folder), {} (the user cache) and \
                 the stores built into the binary ({})",
                absolute(&Path::new(DEFAULT_DIR).join(name)).display(),
                user_cache().map_or(
                    "no user cache (no cache folder on this platform)".into(),
                    |c| { c.join(name).display().to_string() }
                ),
                builtin_names().join(", ")
            ),
        }
    }

    /// The names of the stores these places hold, sorted.
    pub(crate) fn known(&self) -> Vec<String> {
        let mut known: Vec<String> = match self.given {
            Some(_) => Vec::new(),
            None => builtin_names().iter().map(|s| s.to_string()).collect(),
        };
        for searched in self.searched() {
            if let Ok(dir) = std::fs::read_dir(searched) {
                for e in dir.flatten() {
                    if e.path().join("manifest.json").is_file() {
                        known.push(e.file_name().to_string_lossy().into_owned());
                    }
                }
            }
        }
        known.sort();
        known.dedup();
        known
    }
}

/// `--store-name`: a name a store folder can carry. It may name an existing store on purpose
/// (an imported one with no identity, to extend it); the identity checks still refuse a store
/// another model made.
pub(crate) fn check_store_name(name: &str) -> Result<()> {
    let usable = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if !usable {
        return Err(Error::Usage(format!(
            "--store-name {name:?}: expected letters, digits, '.', '_' or '-' (it becomes a \
             folder name and part of every vector's key)"
        )));
    }
    Ok(())
}

/// The user cache of stores: `TENURE_EVAL_CACHE/embeddings` when that is set (tests, CI caches),
/// else `tenure-eval/embeddings` in the platform's cache folder (`$XDG_CACHE_HOME`, else
/// `~/.cache`, on Linux; `~/Library/Caches` on macOS); `None` where there is none.
pub(crate) fn user_cache() -> Option<PathBuf> {
    let root = match std::env::var_os("TENURE_EVAL_CACHE") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => dirs::cache_dir()?.join("tenure-eval"),
    };
    Some(root.join("embeddings"))
}

/// Each store in the user cache: its name, folder, bytes on disk and last change, by name.
pub(crate) fn cached() -> Vec<(String, PathBuf, u64, Option<std::time::SystemTime>)> {
    let Some(cache) = user_cache() else {
        return Vec::new();
    };
    let mut stores: Vec<_> = std::fs::read_dir(&cache)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("manifest.json").is_file())
        .map(|e| {
            // Every file below it, not only its own (a folder inside was counted as nothing).
            let files = files_below(&e.path());
            let bytes = files.iter().map(|m| m.len()).sum();
            let changed = files.iter().filter_map(|m| m.modified().ok()).max();
            (
                e.file_name().to_string_lossy().into_owned(),
                e.path(),
                bytes,
                changed,
            )
        })
        .collect();
    stores.sort_by(|a, b| a.0.cmp(&b.0));
    stores
}

/// The metadata of every file under `folder`, at any depth (links not followed).
fn files_below(folder: &Path) -> Vec<std::fs::Metadata> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
        match entry.file_type() {
            Ok(t) if t.is_dir() => out.extend(files_below(&entry.path())),
            Ok(t) if t.is_file() => out.extend(entry.metadata().ok()),
            _ => {}
        }
    }
    out
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Why the `manifest.json` in `folder` is not a store's manifest, when it is not: `cache list`
/// says so, where it listed such a folder as a store (its vectors are not read).
pub(crate) fn manifest_problem(folder: &Path) -> Option<String> {
    let path = folder.join("manifest.json");
    let parsed = crate::io::read_bytes(&path)
        .and_then(|bytes| crate::io::parse_json::<super::store::Manifest>(&path, &bytes));
    match parsed {
        Err(e) => Some(e.to_string()),
        // A manifest alone holds no vectors: it was listed as a store of its entries.
        Ok(_) if !folder.join("vectors.npy").is_file() => Some(format!(
            "{}: no vectors.npy beside its manifest",
            folder.display()
        )),
        Ok(_) => None,
    }
}
