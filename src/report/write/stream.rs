//! Static reports written case by case, so that memory does not grow with the number of
//! cases: each entry is laid out as it finishes into an unnamed spill file beside the report,
//! the summary is kept as a few numbers a case, and the report is assembled at the end
//! (summary first, as upstream orders it) and renamed into place; the same bytes as a report
//! built in memory ([`crate::report::write::json::static_report`] and [`crate::report::rank_block::annotate`]; the unit
//! test below holds them equal).
//!
//! A careful external client's reports are not streamed: they leave failed cases out under
//! `upstream_exact` and time searches across all cases (`job::pass` keeps those in memory).

use crate::backend::BackendInfo;
use crate::backend::Workload;
use crate::error::{Error, Result};
use crate::eval::qrels::Qrels;
use crate::eval::rank::Measure;
use crate::eval::summary::{summarise, Outcome, Summary};
use crate::report::rank_block::RankTally;
use crate::report::read::row::case_row;
use crate::report::read::{LoadedReport, Row};
use crate::report::write::json::{self, ScoreStyle};
use crate::report::{Manifest, Shape};
use crate::run::{CaseResult, StaticRun};
use crate::suite::Suite;
use serde_json::Value;
use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

/// A static report being written.
pub struct StaticStream<'a> {
    shape: Shape,
    qrels: &'a Qrels,
    tally: RankTally<'a>,
    spill: BufWriter<std::fs::File>,
    dir: PathBuf,
    style: Option<ScoreStyle>,
    /// What the summary needs of each case written.
    kept: Vec<Outcome>,
    rows: Vec<Row>,
    entry: Vec<u8>,
    /// The run's given label (`--label`), for the manifest.
    label: Option<String>,
    /// The config file the flags came from, for the manifest.
    config: Option<crate::report::ConfigFile>,
    /// The shard the run is, for the manifest.
    shard: Option<crate::shard::Shard>,
    /// Why the system's answers make no good run, for the manifest (set before `finish`).
    pub(crate) unhealthy: Option<String>,
}

fn spill_error(dir: &Path, source: std::io::Error) -> Error {
    Error::Output {
        path: dir.to_path_buf(),
        source,
    }
}

impl<'a> StaticStream<'a> {
    /// A report of `shape` to be written into `dir`, its entries judged by `qrels` on
    /// `measures`.
    pub fn new(
        dir: &Path,
        shape: Shape,
        qrels: &'a Qrels,
        measures: &'a [Measure],
    ) -> Result<StaticStream<'a>> {
        crate::io::create_folder(dir).map_err(|e| spill_error(dir, e))?;
        let spill = tempfile::tempfile_in(dir).map_err(|e| spill_error(dir, e))?;
        Ok(StaticStream {
            shape,
            qrels,
            tally: RankTally::new(measures),
            spill: BufWriter::new(spill),
            dir: dir.to_path_buf(),
            style: None,
            kept: Vec::new(),
            rows: Vec::new(),
            entry: Vec::new(),
            label: None,
            config: None,
            shard: None,
            unhealthy: None,
        })
    }

    /// The next case, in file order, answered by `backend`.
    pub fn push(&mut self, backend: &BackendInfo, r: &CaseResult) -> Result<()> {
        let style = *self.style.get_or_insert(ScoreStyle::of(backend, false));
        let mut entry = json::case_entry(r, self.shape, style);
        // A case the backend failed on has no ranking to judge: no block, and no part in the
        // means (its measures read 0.0, and its summary's means were of nothing).
        if r.error.is_none() {
            entry.rank_metrics =
                self.tally
                    .judge(self.qrels, &entry.case_id, None, &entry.relevant_beliefs);
        }
        self.entry.clear();
        serde_json::to_writer_pretty(&mut self.entry, &entry)
            .map_err(|e| spill_error(&self.dir, e.into()))?;
        // The entry's lines, indented to its depth in the report (JSON strings hold no raw
        // line breaks, so every line break is layout).
        let indent: &[u8] = match self.shape {
            Shape::Pmb => b"    ",
            Shape::Paper => b"  ",
        };
        let out = &mut self.spill;
        let mut write = || -> std::io::Result<()> {
            if !self.kept.is_empty() {
                out.write_all(b",\n")?;
            }
            for (i, line) in self.entry.split(|&b| b == b'\n').enumerate() {
                if i > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(indent)?;
                out.write_all(line)?;
            }
            Ok(())
        };
        write().map_err(|e| spill_error(&self.dir, e))?;
        self.kept.push(r.outcome());
        self.rows.push(case_row(entry));
        Ok(())
    }

    /// The same, its manifest recording the shard the run is.
    pub(crate) fn sharded(mut self, shard: Option<crate::shard::Shard>) -> Self {
        self.shard = shard;
        self
    }

    /// The same, its manifest recording the config file the flags came from.
    pub(crate) fn configured(mut self, config: Option<&crate::report::ConfigFile>) -> Self {
        self.config = config.cloned();
        self
    }

    /// Named by `given` (`--label`) when there is one.
    pub(crate) fn labelled(mut self, given: Option<&str>) -> Self {
        self.label = given.map(str::to_string);
        self
    }

    /// Cases the backend failed on, so far.
    pub(crate) fn errored(&self) -> usize {
        self.kept.iter().filter(|k| k.errored).count()
    }

    /// Write the report of `run` (of `suite`) to `path` (and its sidecar manifest, for the
    /// paper shape); return the paths written, the report as loaded, and its summary.
    pub fn finish(
        self,
        path: &Path,
        run: &StaticRun,
        suite: &Suite,
    ) -> Result<(Vec<PathBuf>, LoadedReport, Summary)> {
        let summary = summarise(&self.kept, self.kept.len(), None);
        let manifest = Manifest::for_static(suite, run)
            .labelled(self.label.as_deref())
            .configured(self.config.as_ref())
            .sharded(self.shard)
            .unhealthy(self.unhealthy.clone());
        let ingestion = json::tenure_ingestion(&run.ingestion);
        let crate::report::ReportFile {
            body: mut skeleton,
            sidecar,
        } = json::wrap(
            self.shape,
            &run.backend,
            &summary,
            Vec::<Value>::new(),
            ingestion,
            &manifest,
        );
        if let (Some(Value::Object(s)), Some(block)) =
            (skeleton.get_mut("retrieval"), self.tally.summary())
        {
            s.insert("rankMetrics".into(), block);
        }
        let text = json::to_bytes(&skeleton);
        let (open, close): (&[u8], &[u8]) = match self.shape {
            Shape::Pmb => (b"\n  \"cases\": [", b"\n  "),
            Shape::Paper => (b"[", b"\n"),
        };
        let at = text
            .windows(open.len())
            .position(|w| w == open)
            .map(|i| i + open.len())
            .ok_or_else(|| Error::backend("report", "the report skeleton has no case list"))?;
        let mut spill = self
            .spill
            .into_inner()
            .map_err(|e| spill_error(&self.dir, e.into_error()))?;
        spill.rewind().map_err(|e| spill_error(&self.dir, e))?;
        let any = !self.kept.is_empty();
        let written = crate::report::write_report_with(path, sidecar.as_ref(), |out| {
            out.write_all(&text[..at])?;
            if any {
                out.write_all(b"\n")?;
                std::io::copy(&mut spill, out)?;
                out.write_all(close)?;
            }
            out.write_all(&text[at..])
        })?;
        let (provider, published, ingestion_ms, manifest) = match &skeleton {
            Value::Object(map) => (
                map.get("provider")
                    .and_then(Value::as_str)
                    .map(String::from),
                map.get("retrieval").cloned(),
                map.get("ingestion")
                    .and_then(|i| i.get("totalMs"))
                    .and_then(Value::as_f64),
                crate::report::read::origin::recorded(path, map.get("manifest").cloned(), None)?,
            ),
            _ => (
                None,
                None,
                None,
                crate::report::read::origin::recorded(path, None, sidecar)?,
            ),
        };
        let loaded = LoadedReport::assemble(
            path,
            Workload::Static,
            self.rows,
            provider,
            published,
            ingestion_ms,
            manifest,
        );
        Ok((written, loaded, summary))
    }
}
