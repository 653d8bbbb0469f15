//! The `repeats` block of a manifest: a run made `--repeat N` times, each measure's spread over
//! the repeats, and the cases whose pass/fail differed (flaky). The report's cases are the last
//! repeat's; the block is added to its manifest (inline, or the paper layout's sidecar) once
//! every repeat has run (`annotate`).

use crate::error::{Error, Result};
use crate::eval::stats::Spread;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A run repeated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Repeats {
    /// Runs made, each on a fresh store.
    pub n: usize,
    /// Each measure's spread over them (measures defined in every repeat).
    pub measures: Vec<Measured>,
    /// Cases (or turns) that passed in some repeats and failed in others, in report order.
    pub flaky: Vec<Flaky>,
}

/// One measure over the repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Measured {
    /// `passRate`, `meanPrecision`, a rank measure (`nDCG@10`), ...
    pub measure: String,
    /// Its spread.
    #[serde(flatten)]
    pub spread: Spread,
}

/// A case whose outcome differed between repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Flaky {
    /// Case id, or `CASE turn N`.
    pub case: String,
    /// Repeats in which it passed.
    pub passed: usize,
    /// Repeats.
    pub of: usize,
}

/// Add `repeats` to the manifest of the report written at `path` (its sidecar in the paper
/// layout), rewritten atomically.
pub(crate) fn annotate(path: &Path, repeats: &Repeats, unhealthy: Option<&str>) -> Result<()> {
    let sidecar = path.with_extension("manifest.json");
    let (file, inline) = if sidecar.is_file() {
        (sidecar, false)
    } else {
        (path.to_path_buf(), true)
    };
    let bytes = std::fs::read(&file).map_err(|source| Error::Output {
        path: file.clone(),
        source,
    })?;
    let mut value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| Error::input(&file, "$", format!("not the report just written: {e}")))?;
    let manifest = if inline {
        &mut value["manifest"]
    } else {
        &mut value
    };
    let Some(manifest) = manifest.as_object_mut() else {
        return Err(Error::input(
            &file,
            "$.manifest",
            "expected the manifest object",
        ));
    };
    manifest.insert(
        "repeats".into(),
        serde_json::to_value(repeats).expect("repeats serialize"),
    );
    // An earlier repeat's verdict: the report holds the last repeat's rows, and the run is a
    // failed one all the same.
    if let Some(why) = unhealthy {
        manifest
            .entry("unhealthy")
            .or_insert_with(|| serde_json::Value::from(why));
    }
    crate::io::write_atomic(&file, &super::json::to_bytes(&value))
}
