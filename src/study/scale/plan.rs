//! The scale study's plan, carried out: which sizes this process measures (every size, or its
//! shard's), each measured by the caller (the command line gives each size a process of its own,
//! so that each size's peak memory is its own, and that process calls [`ScalePlan::measure_one`]
//! or [`ScalePlan::measure_vectors_one`]), and the files the study writes beside its rows: a
//! shard's rows for `merge` ([`super::shard`]) and the figure ([`super::figure`]).

use super::figure::{scale_figure, ScalePoint};
use super::shard::{self, Rows, Settings};
use super::vectors::{self, VectorRow};
use super::{measure, Outputs, ScaleRow};
use crate::backend::cosine::HnswParams;
use crate::embed::places::user_cache;
use crate::error::{Error, Result};
use crate::render::{write_figure, FigureFormat};
use crate::shard::Shard;
use crate::suite::Suite;
use std::path::{Path, PathBuf};

/// What `scale` was asked for, whichever study (BM25 or `--vectors`).
#[derive(Debug, Clone)]
pub(crate) struct ScalePlan {
    /// Store sizes, in beliefs (or vectors), in the order given.
    pub sizes: Vec<usize>,
    /// Seed of the synthetic corpus and queries.
    pub seed: u64,
    /// Generated queries searched per size.
    pub queries: usize,
    /// The suite's static cases repeated to this many (`--case-count`).
    pub case_count: Option<usize>,
    /// Each size's static report (`scale-<beliefs>.json`), or a shard's rows, go here.
    pub out: Option<PathBuf>,
    /// Each size's corpus, queries and answers for another engine go here, one folder per size.
    pub export: Option<PathBuf>,
    /// The figure's file and format.
    pub plot: Option<(PathBuf, FigureFormat)>,
    /// Only this shard of the sizes (dealt by position).
    pub shard: Option<Shard>,
    /// `--vectors`: the graph's candidate list while searching (default: the study's).
    pub ef_search: Option<usize>,
    /// `--vectors`: where built graphs are kept (default: [`default_index_cache`]).
    pub index_cache: Option<PathBuf>,
    /// The table's format, recorded in a shard's settings: shards of different formats are
    /// not one study's.
    pub format: String,
}

/// Where `scale --vectors` keeps built graphs unless told: `indexes` beside the user cache's
/// embedding stores (`TENURE_EVAL_CACHE` moves both).
pub(crate) fn default_index_cache() -> Option<PathBuf> {
    user_cache().and_then(|c| c.parent().map(|p| p.join("indexes")))
}

impl ScalePlan {
    /// The sizes this process measures: all of them, or its shard's.
    pub(crate) fn sizes(&self) -> Vec<usize> {
        match self.shard {
            Some(shard) => shard::sizes(&self.sizes, shard),
            None => self.sizes.clone(),
        }
    }

    /// One size of the BM25 study, in this process: its row, with its static report in `out`
    /// and its export in `export/<size>` when asked for.
    pub(crate) fn measure_one(&self, suite: &Suite, size: usize) -> Result<ScaleRow> {
        if let Some(dir) = &self.out {
            std::fs::create_dir_all(dir).map_err(|e| Error::Output {
                path: dir.clone(),
                source: e,
            })?;
        }
        let report = self
            .out
            .as_ref()
            .map(|d| d.join(format!("scale-{size}.json")));
        let export = self.export.as_ref().map(|d| d.join(size.to_string()));
        let outputs = Outputs {
            report: report.as_deref(),
            export: export.as_deref(),
        };
        measure(
            suite,
            size,
            self.seed,
            self.queries,
            self.case_count,
            outputs,
        )
    }

    /// One size of the vector study, in this process, on every core.
    pub(crate) fn measure_vectors_one(&self, size: usize) -> Result<VectorRow> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let params = HnswParams {
            ef_search: self.ef_search.unwrap_or(vectors::STUDY_PARAMS.ef_search),
            ..vectors::STUDY_PARAMS
        };
        let cache = self.index_cache.clone().or_else(default_index_cache);
        vectors::measure(size, params, threads, cache.as_deref())
    }

    /// The BM25 study: each of this process's sizes through `measure`, in order; then a shard's
    /// rows written for `merge`, and the figure drawn, when asked for.
    pub(crate) fn run(
        &self,
        suite: &Suite,
        measure: impl FnMut(usize) -> Result<ScaleRow>,
    ) -> Result<Vec<ScaleRow>> {
        // A size is the whole store, the suite's own beliefs included: a smaller one ran at the
        // suite's size in silence (the suite alone, its size, is a row of its own, with no
        // generated belief to search and so no search latency).
        let own = suite.corpus.len();
        if let Some(size) = self.sizes.iter().find(|s| **s < own) {
            return Err(Error::Usage(format!(
                "--sizes {size}: a size is the store's whole size, and {} holds {own} beliefs of \
                 its own; give that size (the suite alone) or more",
                suite.label()
            )));
        }
        if self.sizes.is_empty() {
            return Err(Error::Usage(format!(
                "{} holds {own} beliefs of its own, more than every default size: give --sizes",
                suite.label()
            )));
        }
        let rows = self.each(measure)?;
        if let Some(shard) = self.shard {
            self.write_shard(Some(suite), shard, &Rows::Bm25(rows.clone()))?;
        }
        if let Some((file, format)) = &self.plot {
            let points: Vec<ScalePoint> = rows
                .iter()
                .map(|r| ScalePoint {
                    beliefs: r.beliefs as f64,
                    build_ms: r.build_ms,
                    search_p50_us: r.search_p50_us,
                    search_p95_us: r.search_p95_us,
                    precision: r.precision,
                })
                .collect();
            let title = format!("Suite {} planted in synthetic stores (BM25)", suite.label());
            write_figure(file, &scale_figure(&points, &title)?, *format)?;
        }
        Ok(rows)
    }

    /// The vector study: each of this process's sizes through `measure`; then a shard's rows
    /// written for `merge`. It writes no report, so `out` names only a shard's folder.
    pub(crate) fn run_vectors(
        &self,
        measure: impl FnMut(usize) -> Result<VectorRow>,
    ) -> Result<Vec<VectorRow>> {
        if self.out.is_some() && self.shard.is_none() {
            return Err(Error::Usage(
                "scale --vectors writes no report: --out only names a shard's folder (--shard K/N)"
                    .into(),
            ));
        }
        let rows = self.each(measure)?;
        if let Some(shard) = self.shard {
            self.write_shard(None, shard, &Rows::Vectors(rows.clone()))?;
        }
        Ok(rows)
    }

    /// Each of this process's sizes through `measure`, in order.
    fn each<T>(&self, measure: impl FnMut(usize) -> Result<T>) -> Result<Vec<T>> {
        self.sizes().into_iter().map(measure).collect()
    }

    /// A shard's rows and the settings that make shards one study, into `out`.
    fn write_shard(&self, suite: Option<&Suite>, shard: Shard, rows: &Rows) -> Result<()> {
        let settings = Settings {
            study: rows.study(),
            // The label (`locomo-sessions`): shards of two units of one file are two studies.
            suite: suite.map_or_else(String::new, Suite::label),
            inputs: suite.map_or_else(Vec::new, Suite::input_digests),
            sizes: self.sizes.clone(),
            seed: self.seed,
            queries: self.queries,
            case_count: self.case_count,
            ef_search: self.ef_search,
            format: self.format.clone(),
            tool_version: env!("CARGO_PKG_VERSION").into(),
        };
        let dir: &Path = self.out.as_deref().ok_or_else(|| {
            Error::Usage("scale --shard K/N writes its rows to --out DIR: name it".into())
        })?;
        shard::write(dir, &settings, shard, rows)
    }
}
