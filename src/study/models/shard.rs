//! `models --shard K/N`: what a shard's `--out` folder says of the table it is part of, so that
//! `tenure-eval merge` makes the whole run's table (each row tested against chance over every
//! case), not only its reports, and puts those reports where `models` puts them.
//!
//! The cases are split as a run's are (by id, `crate::shard`), and the journals say what each
//! pass answered; what the journals do not say is the table: which passes make a row, which
//! row is a row's chance, the measures and the test's settings. Each shard writes them, with
//! the table's title, to [`FILE`] in its `--out` folder once its passes are done. A merge reads
//! them back: every shard must have one, all alike (a difference is named), and the merged
//! passes are put in the table's order by their report names.

use super::Ran;
use crate::analysis::compare::significance::TestSettings;
use crate::error::{Error, Result};
use crate::eval::rank::Measure;
use crate::io::{parse_json, write_atomic};
use crate::job::JobOutcome;
use crate::shard::Shard;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file a `models` shard writes in its `--out` folder.
pub(crate) const FILE: &str = "models-shard.json";

/// The table a shard is part of: alike in every shard of one `models` run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Layout {
    /// The table's title, without the shard (`Embedding models · suite pmb (...)`).
    pub title: String,
    /// Each pass's report file name in the table's order: each row's static then session
    /// pass, the chance rows last.
    pub passes: Vec<String>,
    /// Passes per row.
    pub per_row: usize,
    /// Each row's chance row (an index into the rows), if it is tested.
    pub chance_of: Vec<Option<usize>>,
    /// The rank measures, ir_measures names; the test reads the first.
    pub measures: Vec<String>,
    /// The test against chance: Holm-adjusted level, sampled sign patterns, their seed.
    pub alpha: f64,
    /// See `alpha`.
    pub resamples: usize,
    /// See `alpha`.
    pub seed: u64,
    /// The tool's version.
    pub tool_version: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ShardFile {
    layout: Layout,
    shard: Shard,
}

impl Ran {
    /// The table this run's passes make, titled `title`.
    pub(crate) fn layout(&self, title: &str) -> Layout {
        Layout {
            title: title.to_string(),
            passes: (self.outcome.passes.iter())
                .map(|p| p.report.file_name())
                .collect(),
            per_row: self.per_row,
            chance_of: self.chance_of.clone(),
            measures: self.measures.iter().map(ToString::to_string).collect(),
            alpha: self.settings.alpha,
            resamples: self.settings.resamples,
            seed: self.settings.seed,
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// A merged run's passes as the table `layout` says: each pass found by its report's name.
    pub(crate) fn merged(mut outcome: JobOutcome, layout: &Layout) -> Result<Ran> {
        let mut ordered = Vec::with_capacity(layout.passes.len());
        for name in &layout.passes {
            let at = (outcome.passes.iter())
                .position(|p| &p.report.file_name() == name)
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "merge: the models table's pass {name} is in no shard's journals"
                    ))
                })?;
            ordered.push(outcome.passes.remove(at));
        }
        if let Some(extra) = outcome.passes.first() {
            return Err(Error::Usage(format!(
                "merge: {} is in the shards' journals and not in their models table",
                extra.report.file_name()
            )));
        }
        outcome.passes = ordered;
        let measures = (layout.measures.iter())
            .map(|m| m.parse::<Measure>().map_err(Error::Usage))
            .collect::<Result<Vec<_>>>()?;
        Ok(Ran {
            outcome,
            chance_of: layout.chance_of.clone(),
            measures,
            per_row: layout.per_row,
            settings: TestSettings {
                alpha: layout.alpha,
                resamples: layout.resamples,
                seed: layout.seed,
            },
        })
    }
}

/// Write shard `shard`'s `layout` into `dir` (through a temporary file).
pub(crate) fn write(dir: &Path, layout: &Layout, shard: Shard) -> Result<()> {
    let file = ShardFile {
        layout: layout.clone(),
        shard,
    };
    let text = serde_json::to_string_pretty(&file).map_err(|e| Error::backend("models", e))?;
    write_atomic(&dir.join(FILE), format!("{text}\n").as_bytes())
}

/// The table of the `models` shards in `dirs`: `None` when none is a `models` shard; refused
/// (exit 2) when some are and some are not, or when two differ (what differs is named).
pub(crate) fn read(dirs: &[PathBuf]) -> Result<Option<Layout>> {
    let files: Vec<PathBuf> = dirs.iter().map(|d| d.join(FILE)).collect();
    let Some(first) = files.iter().position(|f| f.is_file()) else {
        return Ok(None);
    };
    if let Some(other) = files.iter().position(|f| !f.is_file()) {
        return Err(Error::Usage(format!(
            "merge: {} is a `models` shard ({FILE}) and {} is not: merge the shards of one run",
            dirs[first].display(),
            dirs[other].display()
        )));
    }
    let mut layout: Option<Layout> = None;
    for (dir, path) in dirs.iter().zip(&files) {
        let file: ShardFile = parse_json(path, &crate::io::read_bytes(path)?)?;
        match &layout {
            None => layout = Some(file.layout),
            Some(l) if *l != file.layout => {
                return Err(Error::Usage(format!(
                    "merge: {} and {} are `models` shards of different tables ({})",
                    dirs[first].display(),
                    dir.display(),
                    crate::shard::differing(l, &file.layout)
                        .unwrap_or_else(|| "their files".into())
                )))
            }
            Some(_) => {}
        }
    }
    Ok(layout)
}
