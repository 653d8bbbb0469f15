//! `scale --shard K/N`: the scale study split by size across processes or machines, and its
//! shards merged back into the study's table.
//!
//! The unit is a size: its corpus, index build and searches cannot be split without each part
//! building the whole index. Sizes are dealt by position (the size at position i of `--sizes`
//! goes to shard i mod N + 1), not hashed as case ids are: a study has a few sizes of very
//! different cost, and every shard is given the same `--sizes`, so position is as deterministic
//! and keeps the shards even (`--sizes 1m,2m,5m,10m` on 4 shards: one size each).
//!
//! Each shard writes [`FILE`] into its `--out` folder once all its sizes are measured (so a
//! shard that failed has none): the study's settings, which shard it is, and its rows.
//! `tenure-eval merge` reads them back and refuses (exit 2) shards of different settings (the
//! setting is named), and through the one check of a shard set ([`crate::shard::complete`]) a
//! shard given twice and a missing shard; each row must be of the size its place deals it. The
//! merged rows are the unsharded study's, in `--sizes` order.

use super::vectors::VectorRow;
use super::ScaleRow;
use crate::error::{Error, Result};
use crate::io::{parse_json, parse_value, write_atomic};
use crate::shard::Shard;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The file a shard writes in its `--out` folder.
pub(crate) const FILE: &str = "scale-shard.json";

/// Which study a shard is part of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Study {
    /// BM25 over the suite planted in synthetic stores.
    Bm25,
    /// Exact and HNSW cosine search over synthetic vectors (`--vectors`).
    Vectors,
}

/// A study's rows, of the study's own type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Rows {
    /// The BM25 study's.
    Bm25(Vec<ScaleRow>),
    /// The vector study's.
    Vectors(Vec<VectorRow>),
}

impl Rows {
    /// The study these rows are of.
    pub(crate) fn study(&self) -> Study {
        match self {
            Rows::Bm25(_) => Study::Bm25,
            Rows::Vectors(_) => Study::Vectors,
        }
    }

    fn values(&self) -> serde_json::Result<Vec<Value>> {
        match self {
            Rows::Bm25(rows) => rows.iter().map(serde_json::to_value).collect(),
            Rows::Vectors(rows) => rows.iter().map(serde_json::to_value).collect(),
        }
    }

    /// `study`'s rows from shard files' values, each with its file and JSON path.
    fn parse(study: Study, found: Vec<(&Path, String, Value)>) -> Result<Rows> {
        Ok(match study {
            Study::Bm25 => Rows::Bm25(
                found
                    .into_iter()
                    .map(|(path, at, value)| parse_value(path, &at, value))
                    .collect::<Result<_>>()?,
            ),
            Study::Vectors => Rows::Vectors(
                found
                    .into_iter()
                    .map(|(path, at, value)| parse_value(path, &at, value))
                    .collect::<Result<_>>()?,
            ),
        })
    }
}

/// What makes two shards parts of one study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Settings {
    /// Which study.
    pub study: Study,
    /// The planted suite's label (its name, unit and view).
    pub suite: String,
    /// Its input files' roles and sha256.
    pub inputs: Vec<(String, String)>,
    /// Every size of the study, in the order given.
    pub sizes: Vec<usize>,
    /// Seed of the synthetic corpus and queries.
    pub seed: u64,
    /// Generated queries per size.
    pub queries: usize,
    /// `--case-count`.
    pub case_count: Option<usize>,
    /// `--ef-search` (vectors).
    pub ef_search: Option<usize>,
    /// The table's format.
    pub format: String,
    /// The tool's version.
    pub tool_version: String,
}

/// A shard's file. Its rows are read as the study's type once the shards agree on the study.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ShardFile {
    settings: Settings,
    shard: Shard,
    /// In the order of the shard's sizes.
    rows: Vec<Value>,
}

/// The sizes of `all` that `shard` measures, in order (dealt by position: [`Shard::takes`]).
pub(crate) fn sizes(all: &[usize], shard: Shard) -> Vec<usize> {
    all.iter()
        .enumerate()
        .filter(|(i, _)| shard.takes(*i))
        .map(|(_, &size)| size)
        .collect()
}

/// Write shard `shard`'s `rows` of the study `settings` describes into `dir` (through a
/// temporary file).
pub(crate) fn write(dir: &Path, settings: &Settings, shard: Shard, rows: &Rows) -> Result<()> {
    if settings.study != rows.study() {
        return Err(Error::backend(
            "scale",
            "a shard's rows are of another study",
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::Output {
        path: dir.to_path_buf(),
        source: e,
    })?;
    let file = ShardFile {
        settings: settings.clone(),
        shard,
        rows: rows.values().map_err(|e| Error::backend("scale", e))?,
    };
    let text = serde_json::to_string_pretty(&file).map_err(|e| Error::backend("scale", e))?;
    write_atomic(&dir.join(FILE), format!("{text}\n").as_bytes())
}

/// Does `dir` hold a scale shard?
pub(crate) fn is_shard(dir: &Path) -> bool {
    dir.join(FILE).is_file()
}

/// The shards in `dirs` merged: the study's settings and every row, in `--sizes` order.
pub(crate) fn merge(dirs: &[PathBuf]) -> Result<(Settings, Rows)> {
    let mut files: Vec<(PathBuf, ShardFile)> = Vec::new();
    for dir in dirs {
        let path = dir.join(FILE);
        let bytes = std::fs::read(&path).map_err(|e| {
            Error::Usage(format!(
                "merge: {} holds no scale shard ({FILE}: {e}); give the --out folder of each \
                 `scale --shard K/N`, or of each `run --shard K/N` but not both",
                dir.display()
            ))
        })?;
        let file: ShardFile = parse_json(&path, &bytes)?;
        files.push((path, file));
    }
    let (first_path, first) = &files[0];
    for (path, file) in &files[1..] {
        if let Some(field) = crate::shard::differing(&first.settings, &file.settings) {
            return Err(Error::Usage(format!(
                "merge: {} and {} are shards of different studies ({field} differs)",
                first_path.display(),
                path.display()
            )));
        }
    }
    let n = first.shard.n;
    let settings = first.settings.clone();
    let given = files
        .iter()
        .map(|entry| (entry.1.shard, entry.0.display().to_string(), entry))
        .collect();
    let by_k = crate::shard::complete(given, "")?;
    // Each shard's rows in the order of its sizes; deal them back by position.
    let mut queues = Vec::new();
    for (k, (path, file)) in by_k.into_iter().enumerate() {
        let expected = sizes(&settings.sizes, Shard { k: k as u32 + 1, n }).len();
        if file.rows.len() != expected {
            return Err(Error::input(
                path,
                "$.rows",
                format!(
                    "{} rows; expected {expected}, one per size",
                    file.rows.len()
                ),
            ));
        }
        let rows = file.rows.iter().enumerate();
        queues.push(rows.map(|(j, row)| (path.as_path(), format!("$.rows[{j}]"), row.clone())));
    }
    let found: Vec<(&Path, String, Value)> = (0..settings.sizes.len())
        .filter_map(|i| queues[i % n as usize].next())
        .collect();
    // Each row is of the size its place deals it: a shard's rows were counted, not read, and a
    // row of another size merged as the size it stood in for (a fifteenth audit).
    let key = match settings.study {
        Study::Bm25 => "beliefs",
        Study::Vectors => "vectors",
    };
    for ((path, at, row), size) in found.iter().zip(&settings.sizes) {
        if row.get(key).and_then(Value::as_u64) != Some(*size as u64) {
            return Err(Error::input(
                path,
                format!("{at}.{key}"),
                format!(
                    "{}; expected {size}, the size the shard's settings deal to this row",
                    row.get(key).unwrap_or(&Value::Null)
                ),
            ));
        }
    }
    let rows = Rows::parse(settings.study, found)?;
    Ok((settings, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_dealt_by_position_each_to_one_shard() {
        let all = [1_000, 10_000, 100_000, 1_000_000, 2_000_000];
        let dealt: Vec<Vec<usize>> = (1..=2).map(|k| sizes(&all, Shard { k, n: 2 })).collect();
        assert_eq!(dealt[0], [1_000, 100_000, 2_000_000]);
        assert_eq!(dealt[1], [10_000, 1_000_000]);
        assert!(sizes(&all[..1], Shard { k: 2, n: 2 }).is_empty());
    }
}
