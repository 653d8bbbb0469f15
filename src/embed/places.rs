//! Where embedding stores are looked for and written.
//!
//! Without `--store-dir`, a store name is looked for in `embeddings/` under the current folder
//! (where `embed` writes, as git or cargo work in the project folder they are run from), then
//! among the stores compiled into the binary, which therefore work from any folder. With
//! `--store-dir D`, `D` is the only place looked at: a user who names a folder gets exactly that
//! folder, never a built-in copy of the same name. Every "not found" names each place looked at.

use super::store::{builtin_names, EmbeddingStore};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The store folder used when `--store-dir` is not given, relative to the current folder.
pub(crate) const DEFAULT_DIR: &str = "embeddings";

/// Where stores are read from and written to.
#[derive(Debug, Clone, Copy)]
pub struct Places<'a> {
    /// `--store-dir`, when given.
    pub given: Option<&'a Path>,
}

impl<'a> Places<'a> {
    /// Places for `--store-dir` (`None`: the default folder, then the built-in stores).
    pub fn new(given: Option<&'a Path>) -> Places<'a> {
        Places { given }
    }

    /// The folder stores are written to.
    pub fn dir(&self) -> PathBuf {
        self.given
            .map_or_else(|| PathBuf::from(DEFAULT_DIR), Path::to_path_buf)
    }

    /// The folder of store `name`.
    pub fn folder(&self, name: &str) -> PathBuf {
        self.dir().join(name)
    }

    /// The store `name`, from the first place that has it.
    pub fn find(&self, name: &str) -> Result<Option<EmbeddingStore>> {
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
    pub fn looked_at(&self, name: &str) -> String {
        let folder = absolute(&self.folder(name));
        match self.given {
            Some(_) => format!("{} (only there: --store-dir was given)", folder.display()),
            None => format!(
                "{} (the default --store-dir, under the current folder) and the stores built \
                 into the binary ({})",
                folder.display(),
                builtin_names().join(", ")
            ),
        }
    }

    /// The names of the stores these places hold, sorted.
    pub fn known(&self) -> Vec<String> {
        let mut known: Vec<String> = match self.given {
            Some(_) => Vec::new(),
            None => builtin_names().iter().map(|s| s.to_string()).collect(),
        };
        if let Ok(dir) = std::fs::read_dir(self.dir()) {
            for e in dir.flatten() {
                if e.path().join("manifest.json").is_file() {
                    known.push(e.file_name().to_string_lossy().into_owned());
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

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
