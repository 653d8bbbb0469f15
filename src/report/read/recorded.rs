//! The manifest as read back: what a report says produced it. [`crate::report::Manifest`] is what a run
//! writes; this is the same record read from a file, where every field may be missing (a
//! report of an older tenure-eval, a hand-made one) but a field that is there must have its
//! type, or the read fails naming the file and the JSON path.

use serde::Deserialize;
use serde_json::Value;
use std::path::Path;

use crate::error::Result;

/// A report's manifest (inline under `manifest`, or the paper layout's sidecar file).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedManifest {
    /// `tenure-eval` for our own files.
    #[serde(default)]
    pub tool: Option<String>,
    /// The tool's version.
    #[serde(default)]
    pub version: Option<String>,
    /// The suite's name: `paper`, `pmb`, `bitemporal` or a custom suite's.
    #[serde(default)]
    pub suite: Option<String>,
    /// The pipeline profile (`paper`, `head`).
    #[serde(default)]
    pub profile: Option<String>,
    /// The backend's id (`bm25`, `cosine`, `rrf`, `http`, ...).
    #[serde(default)]
    pub backend: Option<String>,
    /// The backend's description of itself, as the writing version serialised it. Kept as JSON:
    /// one written by an older version that no longer parses falls back to [`Self::backend`]
    /// (`origin::manifest_info`).
    #[serde(default)]
    pub backend_info: Option<Value>,
    /// The backend's settings (their keys are each backend's own).
    #[serde(default)]
    pub backend_settings: Option<Value>,
    /// The run's label (`report::label`): `--label`, or the backend's label and its tag.
    #[serde(default)]
    pub run_label: Option<String>,
    /// The label was given with `--label`: readers name the report by it.
    #[serde(default)]
    pub run_label_given: bool,
    /// A memory system's provider name (`--name`).
    #[serde(default)]
    pub name: Option<String>,
    /// Which copy of a suite's files ran, when a suite has several (`pmb`).
    #[serde(default)]
    pub suite_copy: Option<String>,
    /// The input files and their sha256.
    #[serde(default)]
    pub inputs: Option<Vec<RecordedInput>>,
    /// When the run started (measured).
    #[serde(default)]
    pub started_at: Option<String>,
    /// A sidecar's record of the report it describes.
    #[serde(default)]
    pub report: Option<RecordedReport>,
    /// The run stopped before its end: the last case it finished and why.
    #[serde(default)]
    pub stopped: Option<crate::run::journal::Stopped>,
    /// The run was repeated (`--repeat N`): each measure's spread, the flaky cases.
    #[serde(default)]
    pub repeats: Option<crate::report::repeats::Repeats>,
    /// The run was shard K of N (`--shard K/N`): that shard's cases only.
    #[serde(default)]
    pub shard: Option<crate::shard::Shard>,
    /// The run chose some of the cases (`--case`, `--category`, `--limit`): those only.
    #[serde(default)]
    pub selection: Option<crate::suite::select::Selection>,
    /// Why the system's answers make no good run (compat mode), when they do not.
    #[serde(default)]
    pub unhealthy: Option<String>,
    /// A `--rerun-failed` run: the cases taken as passed and sent again.
    #[serde(default)]
    pub rerun_failed: Option<crate::run::journal::Rerun>,
}

/// One input file of a run.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct RecordedInput {
    /// As given (or a built-in suite's path).
    #[serde(default)]
    pub path: Option<String>,
    /// Of its bytes.
    #[serde(default)]
    pub sha256: Option<String>,
}

/// The report a paper-layout sidecar manifest belongs to.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct RecordedReport {
    /// Of the report file's bytes.
    #[serde(default)]
    pub sha256: Option<String>,
}

impl RecordedManifest {
    /// `value` (found at `json_path` of `file`) read as a manifest.
    pub(crate) fn read(file: &Path, json_path: &str, value: Value) -> Result<RecordedManifest> {
        crate::io::parse_value(file, json_path, value)
    }

    /// The label the user gave the run (`--label`), if any: what readers name the report by
    /// (`report::label`).
    pub(crate) fn given_label(&self) -> Option<&str> {
        self.run_label.as_deref().filter(|_| self.run_label_given)
    }
}
