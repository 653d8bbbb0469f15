//! Reading any report file this tool or upstream writes: PrecisionMemBench's wrapper object,
//! the paper tag's bare array, static or session, through the same typed schema the writer
//! uses ([`crate::report::schema`]). Third-party reports lack some fields (expandedQuery,
//! searchScores, latency): only what the tables need is required.

use crate::backend::{BackendInfo, Workload};
use crate::error::Result;
use crate::eval::stats::mean;
use crate::eval::summary::{summarise, Outcome, Summary};
pub use crate::io::same_json;
use crate::report::read::origin::{manifest_info, recorded, sidecar_manifest, upstream_info};
use crate::report::read::parse::{not_a_report, Parsed};
use crate::report::read::recorded::RecordedManifest;
pub(crate) use crate::report::read::row::Row;
use crate::report::read::row::{case_row, turn_row};
use crate::report::schema::PmbReport;
use crate::suite::Suite;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A report file, loaded.
#[derive(Debug, Clone)]
pub struct LoadedReport {
    /// Where it was read from.
    pub path: PathBuf,
    /// The run's label as tables, `compare`, legends, JUnit and TREC name it
    /// (`report::label`): the label given with `--label`, else the backend's model when it has
    /// one, else its provider (`provider` of upstream files, or the file stem), then the tag of
    /// its result-changing settings.
    pub provider: String,
    /// Who the backend was: from the manifest, or inferred for files without one (see
    /// `upstream_info`).
    pub backend: BackendInfo,
    /// Static or session.
    pub kind: Workload,
    /// Per-case (per-turn) rows.
    pub rows: Vec<Row>,
    /// The report's own summary block, if it has one.
    pub published_summary: Option<Value>,
    /// `ingestion.totalMs`, if present.
    pub ingestion_ms: Option<f64>,
    /// Session cases (distinct case ids) or static cases.
    pub case_count: usize,
    /// The manifest (inline, or the paper shape's sidecar), if there is one.
    pub manifest: Option<RecordedManifest>,
    /// Its rows carry the suite's pass/fail and set precision: false for a TREC run made
    /// elsewhere ([`super::trec_run`]), which holds rankings only.
    pub pass_fail: bool,
    /// Read from the paper layout's bare array (`$[i]`), not an object's `cases` (`$.cases[i]`):
    /// how messages name an entry's JSON path.
    pub(crate) bare_array: bool,
}

impl LoadedReport {
    /// Read and interpret `path`.
    pub fn load(path: &Path) -> Result<LoadedReport> {
        LoadedReport::from_parsed(path, read_report(path)?)
    }

    /// The shard of a run this report is (`--shard K/N`), if it is one.
    pub(crate) fn shard(&self) -> Option<crate::shard::Shard> {
        self.manifest.as_ref()?.shard
    }

    /// Whether its suite is judged by qrels ([`Suite::label_judged_by_qrels`]).
    pub(crate) fn judged_by_qrels(&self) -> bool {
        self.suite().is_some_and(Suite::label_judged_by_qrels)
    }

    /// A report read in one pass ([`crate::report::read::parse`]).
    pub(crate) fn from_parsed(path: &Path, parsed: Parsed) -> Result<LoadedReport> {
        if !parsed.array && !parsed.has_cases {
            return Err(not_a_report(path));
        }
        let sidecar = sidecar_manifest(path, parsed.manifest.is_some());
        let manifest = recorded(path, parsed.manifest, sidecar)?;
        let mut report = LoadedReport::assemble(
            path,
            parsed.kind.unwrap_or(Workload::Static),
            parsed.rows,
            parsed.provider,
            parsed.summary,
            parsed
                .ingestion
                .as_ref()
                .and_then(|i| i.get("totalMs"))
                .and_then(Value::as_f64),
            manifest,
        );
        report.bare_array = parsed.array;
        report.rows_checked()
    }

    /// The report, if its rows can be one run's: each case (a session's turn) once, and every
    /// share (precision, recall, a rank measure) in [0, 1]. Both ways of reading a report end
    /// here. A case twice was counted twice by `compare` (flips, McNemar's p, "358 cases" of
    /// 355) and `html`, and a hand-edited nDCG@10 of 355 or precision of −40 averaged into
    /// their means, exit 0 (an eleventh audit).
    fn rows_checked(self) -> Result<LoadedReport> {
        let mut seen = std::collections::HashMap::new();
        for (i, row) in self.rows.iter().enumerate() {
            let shares = [("precision", row.precision), ("recall", row.recall)]
                .into_iter()
                .chain(row.rank_metrics.0.iter().map(|(m, v)| (m.as_str(), *v)));
            for (name, value) in shares {
                if let Some(v) = value.filter(|v| !(0.0..=1.0).contains(v)) {
                    return Err(crate::error::Error::input(
                        &self.path,
                        self.entry_at(i),
                        format!("{name} {v}: expected a share in [0, 1]"),
                    ));
                }
            }
            if let Some(first) = seen.insert(row.key(), i) {
                return Err(crate::error::Error::input(
                    &self.path,
                    self.entry_at(i),
                    format!(
                        "{:?} is in the report twice (first at {}): not one run's rows",
                        row.key(),
                        self.entry_at(first)
                    ),
                ));
            }
        }
        Ok(self)
    }

    /// Read every report in `paths`, skipping the paper layout's sidecar manifests that a
    /// shell glob over a report folder picks up too; returns the reports and the skipped paths.
    pub(crate) fn load_all(paths: &[PathBuf]) -> Result<(Vec<LoadedReport>, Vec<PathBuf>)> {
        let (mut reports, mut skipped) = (Vec::new(), Vec::new());
        for path in paths {
            let parsed = read_report(path)?;
            if !parsed.array && !parsed.has_cases && parsed.tool.as_deref() == Some("tenure-eval") {
                skipped.push(path.clone());
            } else {
                reports.push(LoadedReport::from_parsed(path, parsed)?);
            }
        }
        Ok((reports, skipped))
    }

    /// Interpret a report already in memory; `path` names it in messages (and, for the paper
    /// layout, locates its sidecar manifest).
    pub fn from_value(path: &Path, value: &Value) -> Result<LoadedReport> {
        let sidecar = sidecar_manifest(path, value.get("manifest").is_some());
        LoadedReport::from_parts(path, value, sidecar)
    }

    /// Interpret a report and, for the paper layout, its sidecar manifest, both in memory.
    pub fn from_parts(path: &Path, value: &Value, sidecar: Option<Value>) -> Result<LoadedReport> {
        let (entries, provider, summary, ingestion, manifest) = match value {
            Value::Array(entries) => (
                entries.clone(),
                None,
                None,
                None,
                recorded(path, None, sidecar)?,
            ),
            Value::Object(_) => {
                let report: PmbReport<Value> = crate::io::parse_value(path, "$", value.clone())?;
                let ingestion = report.ingestion.and_then(|i| i.total_ms);
                let manifest = recorded(path, report.manifest, sidecar)?;
                (
                    report.cases,
                    report.provider,
                    report.retrieval,
                    ingestion,
                    manifest,
                )
            }
            _ => return Err(not_a_report(path)),
        };
        let kind = if entries
            .first()
            .is_some_and(|e| e.get("turnIndex").is_some())
        {
            Workload::Session
        } else {
            Workload::Static
        };
        let at = |i: usize| match value {
            Value::Array(_) => format!("$[{i}]"),
            _ => format!("$.cases[{i}]"),
        };
        let mut rows = Vec::with_capacity(entries.len());
        for (i, e) in entries.into_iter().enumerate() {
            rows.push(match kind {
                Workload::Static => case_row(crate::io::parse_value(path, &at(i), e)?),
                Workload::Session => turn_row(crate::io::parse_value(path, &at(i), e)?),
            });
        }
        let mut report =
            LoadedReport::assemble(path, kind, rows, provider, summary, ingestion, manifest);
        report.bare_array = matches!(value, Value::Array(_));
        report.rows_checked()
    }

    /// A loaded report from its rows and the blocks around them.
    pub(in crate::report) fn assemble(
        path: &Path,
        kind: Workload,
        rows: Vec<Row>,
        provider: Option<String>,
        summary: Option<Value>,
        ingestion: Option<f64>,
        manifest: Option<RecordedManifest>,
    ) -> LoadedReport {
        let case_count = match kind {
            Workload::Static => rows.len(),
            Workload::Session => {
                let mut ids: Vec<&str> = rows.iter().map(|r| r.case_id.as_str()).collect();
                ids.sort_unstable();
                ids.dedup();
                ids.len()
            }
        };
        let provider = provider.unwrap_or_else(|| {
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        let ours = manifest.as_ref().and_then(manifest_info);
        let named_by_us = ours.is_some();
        let backend = ours.unwrap_or_else(|| upstream_info(&provider));
        // Tables and legends name a run as `run` does: the model for cosine (tenure-eval's
        // cosine reports say `vector` like PrecisionMemBench's), the backend and its model for
        // the other backends of ours that score with a model (`composite-all-minilm-l6-v2`,
        // `composite+bitemporal-...`, `spreading-...`: three runs over one model are three
        // names), the backend id (`bm25`, not the `tenure` its file name keeps for upstream's
        // tools) for the rest of ours, and the provider for upstream's reports; then the run's
        // tag. A label given with `--label` replaces all of it (`report::label`).
        let given = manifest.as_ref().and_then(RecordedManifest::given_label);
        let provider = given.map(str::to_string).unwrap_or_else(|| {
            let base = match (&backend.model, named_by_us) {
                (Some(model), true) if backend.id != "cosine" => {
                    crate::report::label::with_model(&backend.label, model)
                }
                (Some(model), _) => model.clone(),
                (None, true) if backend.id != "http" => backend.id.clone(),
                _ => backend.provider.clone(),
            };
            crate::report::label::with_tag(&base, &backend)
        });
        LoadedReport {
            path: path.to_path_buf(),
            provider,
            backend,
            kind,
            rows,
            published_summary: summary,
            ingestion_ms: ingestion,
            case_count,
            manifest,
            pass_fail: true,
            bare_array: false,
        }
    }

    /// The label its run was given with `--label`, if any (the manifest's `runLabel` when
    /// `runLabelGiven`); [`Self::provider`] is then that label.
    pub(crate) fn given_label(&self) -> Option<&str> {
        self.manifest
            .as_ref()
            .and_then(RecordedManifest::given_label)
    }

    /// The suite its manifest names (`None` for upstream's reports, which have none).
    pub(crate) fn suite(&self) -> Option<&str> {
        self.manifest.as_ref().and_then(|m| m.suite.as_deref())
    }

    /// What its scores are, for figure legends: "bm25 (Lucene BM25 score)" or
    /// "cosine / all-minilm-l6-v2 (Atlas vector score, (1 + cos) / 2)"; the provider when the
    /// report has no manifest.
    pub(crate) fn score_label(&self) -> String {
        if self.manifest.is_none() {
            return self.provider.clone();
        }
        let b = &self.backend;
        let name = match (self.given_label(), &b.model) {
            (Some(given), _) => given.to_string(),
            (None, Some(model)) => {
                crate::report::label::with_tag(&format!("{} / {model}", b.id), b)
            }
            (None, None) => crate::report::label::with_tag(&b.id, b),
        };
        format!("{name} ({})", b.score_scale.describe())
    }

    /// Each row's position by its [`Row::key`] (the first row, for a repeated key): what pairs
    /// the rows of two runs without a search per row.
    pub(crate) fn positions(&self) -> std::collections::HashMap<String, usize> {
        let mut at = std::collections::HashMap::with_capacity(self.rows.len());
        for (i, row) in self.rows.iter().enumerate() {
            at.entry(row.key()).or_insert(i);
        }
        at
    }

    /// The file name.
    pub(crate) fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The summary block recomputed from the rows.
    pub(crate) fn summary(&self) -> Summary {
        let outcomes: Vec<Outcome> = self
            .rows
            .iter()
            .map(|r| Outcome {
                category: r.category.clone(),
                passed: r.passed,
                precision: r.precision,
                recall: r.recall,
                latency_ms: r.latency_ms.unwrap_or(0.0),
                errored: r.errored,
            })
            .collect();
        let turns = (self.kind == Workload::Session).then_some(self.rows.len());
        summarise(&outcomes, self.case_count, turns)
    }

    /// Whether latencies were reported at all.
    pub(crate) fn has_latency(&self) -> bool {
        self.rows.iter().any(|r| r.latency_ms.is_some())
    }

    /// Mean of the paper's drift, noise / (relevant + pinned), recomputed from every turn's
    /// lists (sessions): comparable across reports, whatever their `driftScore` means.
    pub(crate) fn mean_drift(&self) -> Option<f64> {
        mean(self.rows.iter().filter_map(|r| r.noise_drift))
    }

    /// Mean PrecisionMemBench drift (1 − precision): `precisionDriftScore` where the report
    /// carries it, else its `driftScore` (the external providers' reports define it that way;
    /// for Tenure's, precision 1 makes both 0).
    pub(crate) fn mean_precision_drift(&self) -> Option<f64> {
        mean(
            self.rows
                .iter()
                .filter_map(|r| r.precision_drift.or(r.drift)),
        )
    }

    /// [`Self::mean_precision_drift`] where a turn has a precision; `None` where none has (a run
    /// that retrieved nothing: its 0s are "0 where precision is null", not the best value),
    /// as the run table says "–". PrecisionMemBench's tables keep upstream's 0.0000.
    pub(crate) fn measured_precision_drift(&self) -> Option<f64> {
        self.rows
            .iter()
            .any(|r| r.precision.is_some())
            .then(|| self.mean_precision_drift())
            .flatten()
    }
}

/// The report at `path`, read in one pass.
fn read_report(path: &Path) -> Result<Parsed> {
    crate::report::read::parse::parse(path, &crate::io::read_bytes(path)?)
}
