//! Reports, the file format: upstream-shaped JSON (spec §H) plus a manifest; the typed schema,
//! file names, the writer (streamed and in memory, one entry serialiser), the one-pass reader
//! into rows, where a loaded report came from, and external systems' entries. Analyses over
//! reports are `analysis`, their renderings `render`.

pub mod label;
pub mod rank_block;
pub mod read;
pub mod repeats;
pub mod schema;
pub mod write;
pub use crate::io::write_atomic;
pub use read::recorded::RecordedManifest;
pub use read::{same_json, LoadedReport, Row};
pub use write::json;

use crate::backend::{BackendInfo, Workload};
use crate::profile::Profile;
use crate::run::{SessionRun, StaticRun};
use crate::suite::{Anomaly, Excluded, InputFile, Suite};
use serde::Serialize;

/// Which upstream report layout to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Paper tag: a bare array of case entries (the manifest goes to a sidecar file).
    Paper,
    /// PrecisionMemBench: `{provider, retrieval, cases, ingestion}` (+ `manifest`).
    Pmb,
}

impl Shape {
    /// The layout each profile's upstream wrote.
    pub fn of(profile: Profile) -> Shape {
        match profile {
            Profile::Paper => Shape::Paper,
            Profile::Head => Shape::Pmb,
        }
    }
}

/// What produced a report, and from which exact inputs.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// Always `tenure-eval`.
    pub tool: &'static str,
    /// Crate version.
    pub version: &'static str,
    /// Suite name.
    pub suite: String,
    /// Pipeline profile.
    pub profile: Profile,
    /// Backend id.
    pub backend: String,
    /// Who the backend is (provider, label, reader, score scale): what tables, claims and
    /// figures read instead of guessing from names.
    pub backend_info: BackendInfo,
    /// Backend settings.
    pub backend_settings: serde_json::Value,
    /// The run's label (see [`label`]): `--label`, or the backend's label and its tag.
    pub run_label: String,
    /// The label was given (`--label`): readers name the report by it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub run_label_given: bool,
    /// The memory system's provider name (`--name`, else `--provider`'s, else `http`), for an
    /// external system.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Whose copy of a built-in suite ran (`tenurehq/precisionMemBench 18c7955` for an
    /// external system on `pmb`, `tenurehq/tenure dc348a8` otherwise); absent for custom files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suite_copy: Option<&'static str>,
    /// Input files with their sha256.
    pub inputs: Vec<InputFile>,
    /// Whether the input is the file its benchmark released (LoCoMo's `locomo10.json` by its
    /// sha256); absent for suites in our own formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub released_input: Option<bool>,
    /// Input anomalies and what became of each (LoCoMo's evidence strings).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub anomalies: Vec<Anomaly>,
    /// Questions of the input that are not cases, with the reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<Excluded>,
    /// What an overlay of corrections did to the answer key (LoCoMo's `--corrections`; the
    /// overlay's files and their sha256 are among `inputs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrections: Option<crate::suite::locomo::Applied>,
    /// Run start (RFC 3339). Measured.
    pub started_at: String,
    /// Static cases sent at once (`--concurrency`) when more than one: the latencies were
    /// measured under it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cases_in_flight: Option<usize>,
    /// A remote backend's counters: requests per endpoint, failed requests, warnings.
    /// Measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_stats: Option<serde_json::Value>,
    /// Extra attempts after transient failures. Measured.
    #[serde(skip_serializing_if = "is_zero")]
    pub retries: u32,
    /// Search-only latency of an external system (entries without a search left out).
    /// Measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_latency: Option<serde_json::Value>,
    /// The run stopped before its end (a failed run's partial report): the last case it
    /// finished and why it stopped; its journal can continue it (`--resume`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<crate::run::journal::Stopped>,
    /// The config file whose flags the run took (`tenure-eval.toml`), with its sha256.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config: Option<ConfigFile>,
    /// The shard this run was (`--shard K/N`): its report holds that shard's cases only, and
    /// `merge` makes the whole run's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::shard::Shard>,
    /// The cases the run chose (`--case`, `--category`, `--limit`): its report holds those only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection: Option<crate::suite::select::Selection>,
    /// Why the system's answers make no good run though no case errored (compat mode's failed
    /// calls read as no results: `job::health`): the report is a failed one, and readers that
    /// take a report as a run refuse it (`LoadedReport::finished`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unhealthy: Option<String>,
    /// A `--rerun-failed` run: its passes may be second tries (docs/journal.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerun_failed: Option<crate::run::journal::Rerun>,
}

/// A config file as a manifest records it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigFile {
    /// As found or given.
    pub path: String,
    /// Hex sha256 of its bytes.
    pub sha256: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Manifest {
    /// Manifest of a run of `suite` with `backend`.
    pub(crate) fn new(
        suite: &Suite,
        backend: &BackendInfo,
        backend_settings: &serde_json::Value,
        started_at: &str,
    ) -> Manifest {
        Manifest {
            tool: "tenure-eval",
            version: env!("CARGO_PKG_VERSION"),
            suite: suite.label(),
            profile: suite.profile,
            backend: backend.id.clone(),
            backend_info: backend.clone(),
            backend_settings: backend_settings.clone(),
            run_label: label::derived(backend),
            run_label_given: false,
            name: (backend.reader == crate::backend::Reader::External)
                .then(|| backend.provider.clone()),
            suite_copy: suite.copy,
            inputs: suite.inputs.clone(),
            released_input: suite.released,
            anomalies: suite.anomalies.clone(),
            excluded: suite.excluded.clone(),
            corrections: suite.corrections.clone(),
            started_at: started_at.to_string(),
            cases_in_flight: None,
            backend_stats: None,
            retries: 0,
            search_latency: None,
            stopped: None,
            config: None,
            shard: None,
            selection: suite.selection.clone(),
            unhealthy: None,
            rerun_failed: None,
        }
    }

    /// The same, recording why the system's answers make no good run, when they do not.
    pub(crate) fn unhealthy(mut self, why: Option<String>) -> Manifest {
        self.unhealthy = why;
        self
    }

    /// The same, recording the shard the run was.
    pub(crate) fn sharded(mut self, shard: Option<crate::shard::Shard>) -> Manifest {
        self.shard = shard;
        self
    }

    /// The same, recording the config file the run took its flags from.
    pub(crate) fn configured(mut self, config: Option<&ConfigFile>) -> Manifest {
        self.config = config.cloned();
        self
    }

    /// The same, named by `given` (`--label`) when there is one.
    pub(crate) fn labelled(mut self, given: Option<&str>) -> Manifest {
        if let Some(given) = given {
            self.run_label = given.to_string();
            self.run_label_given = true;
        }
        self
    }

    fn measured<'a>(
        mut self,
        run_backend: &BackendInfo,
        stats: &Option<serde_json::Value>,
        retries: u32,
        contexts: impl Iterator<Item = &'a crate::context::Context>,
    ) -> Manifest {
        self.backend_stats = stats.clone();
        self.retries = retries;
        if run_backend.reader == crate::backend::Reader::External {
            self.search_latency = Some(write::external::search_latency(contexts));
        }
        self
    }

    /// Manifest of a static run of `suite`.
    pub fn for_static(suite: &Suite, run: &StaticRun) -> Manifest {
        Manifest::new(suite, &run.backend, &run.backend_settings, &run.started_at)
            .measured(
                &run.backend,
                &run.backend_stats,
                run.retries,
                run.results.iter().map(|r| &r.context),
            )
            .stopped(&run.stopped)
            .in_flight(run.in_flight)
            .rerun(run.rerun)
    }

    /// Manifest of a session run of `suite`.
    pub fn for_sessions(suite: &Suite, run: &SessionRun) -> Manifest {
        Manifest::new(suite, &run.backend, &run.backend_settings, &run.started_at)
            .measured(
                &run.backend,
                &run.backend_stats,
                run.retries,
                run.turns.iter().map(|t| &t.context),
            )
            .stopped(&run.stopped)
            .rerun(run.rerun)
    }

    /// The same, recording a `--rerun-failed` run's second look.
    fn rerun(mut self, rerun: Option<crate::run::journal::Rerun>) -> Manifest {
        self.rerun_failed = rerun;
        self
    }

    /// The same, recording `cases` sent at once when more than one.
    fn in_flight(mut self, cases: usize) -> Manifest {
        self.cases_in_flight = (cases > 1).then_some(cases);
        self
    }

    fn stopped(mut self, stopped: &Option<crate::run::journal::Stopped>) -> Manifest {
        self.stopped = stopped.clone();
        self
    }
}

/// Upstream file name of a report. The paper tag wrote `retrieval-report.json` (and
/// `retrieval-report-vector.json`), PrecisionMemBench publishes
/// `retrieval-report-<provider>.json` and `<model>-retrieval-report-vector.json`; `session-`
/// variants alike. The backend says its prefix (a cosine run under a text policy other than
/// its profile's adds the policy: `<model>.<policy>-retrieval-report-vector.json`) and whether
/// it is the paper's own system, whose paper-layout files carry no provider. A run's label
/// ([`label`]) adds its tag before `.json`; a given label (`--label`) replaces the prefix and
/// provider: `retrieval-report-NAME.json`.
pub(crate) fn file_name(
    kind: Workload,
    profile: Profile,
    backend: &BackendInfo,
    given: Option<&str>,
) -> String {
    let stem = match kind {
        Workload::Static => "retrieval-report",
        Workload::Session => "session-retrieval-report",
    };
    if let Some(given) = given {
        return format!("{stem}-{given}.json");
    }
    let name = if backend.paper_primary && Shape::of(profile) == Shape::Paper {
        label::with_tag(stem, backend)
    } else {
        label::with_tag(&format!("{stem}-{}", backend.provider), backend)
    };
    match &backend.file_prefix {
        Some(prefix) => format!("{prefix}-{name}.json"),
        None => format!("{name}.json"),
    }
}

/// A report as written: its JSON in the upstream layout and, in the paper layout, the sidecar
/// manifest (PrecisionMemBench's layout carries its manifest inline).
#[derive(Debug, Clone, PartialEq)]
pub struct ReportFile {
    /// The report: a bare array of entries (paper) or `{provider, retrieval, cases, …}` (PMB).
    pub body: serde_json::Value,
    /// The paper layout's `*.manifest.json`; `None` when the manifest is inline.
    pub sidecar: Option<serde_json::Value>,
}

/// Write a report (and its sidecar manifest, if any) atomically; return the paths written.
///
/// The paper layout's pair is two renames. The sidecar records the report's sha256
/// (`report.sha256`), so a pair torn by a kill between the renames, or mixed by another run, is
/// caught by `verify`. Runs writing into one folder take turns (`io::FolderLock`), so two
/// concurrent runs leave the pair of one of them, never a mix.
pub fn write_report(
    path: &std::path::Path,
    report: &ReportFile,
) -> crate::Result<Vec<std::path::PathBuf>> {
    let bytes = json::to_bytes(&report.body);
    write_report_with(path, report.sidecar.as_ref(), |out| out.write_all(&bytes))
}

/// A report built in memory (sessions; an external system's static cases): rank metrics added
/// (judged by `qrels` on `measures`), written, and read back from memory.
pub(crate) fn write_in_memory(
    path: &std::path::Path,
    mut report: ReportFile,
    qrels: &crate::eval::qrels::Qrels,
    measures: &[crate::eval::rank::Measure],
) -> crate::Result<(Vec<std::path::PathBuf>, LoadedReport)> {
    rank_block::annotate(&mut report.body, qrels, measures);
    let reports = write_report(path, &report)?;
    let loaded = LoadedReport::from_parts(path, &report.body, report.sidecar)?;
    Ok((reports, loaded))
}

/// [`write_report`] for a report written piece by piece by `write` (a streamed report); the
/// sidecar's sha256 is taken as the bytes go by.
pub(crate) fn write_report_with(
    path: &std::path::Path,
    sidecar: Option<&serde_json::Value>,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> crate::Result<Vec<std::path::PathBuf>> {
    let Some(manifest) = sidecar else {
        crate::io::write_atomic_with(path, write)?;
        return Ok(vec![path.to_path_buf()]);
    };
    let _turn = crate::io::FolderLock::take(path)?;
    let mut sha256 = String::new();
    crate::io::write_atomic_with(path, |out| {
        let mut hashing = crate::io::Hashing::new(out);
        write(&mut hashing)?;
        sha256 = hashing.hex();
        Ok(())
    })?;
    let mut manifest = manifest.clone();
    if let Some(m) = manifest.as_object_mut() {
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
        m.insert(
            "report".into(),
            serde_json::json!({"file": file, "sha256": sha256}),
        );
    }
    let sidecar = path.with_extension("manifest.json");
    write_atomic(&sidecar, &json::to_bytes(&manifest))?;
    Ok(vec![path.to_path_buf(), sidecar])
}
