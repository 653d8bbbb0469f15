//! The scale study: a suite's corpus planted in a synthetic store of a given size
//! ([`crate::suite::synthetic`]), indexed by BM25; build time, search latency on generated
//! queries, and the suite's own static cases run against the grown store (does precision hold as
//! the store grows?). Its parts: the export for Lucene ([`export`]), the figure ([`figure`]), the
//! vector rows ([`vectors`]: exact and HNSW cosine search at the same sizes), the split by size
//! across processes ([`shard`]) and the plan that measures the sizes and writes the study's
//! files ([`plan`]).

pub(crate) mod export;
pub(crate) mod figure;
pub(crate) mod plan;
pub(crate) mod shard;
pub(crate) mod vectors;

use crate::backend::bm25::Bm25Backend;
use crate::backend::{Backend, BackendFactory, Hit, SearchRequest};
use crate::error::{Error, Result};
use crate::eval::qrels::Qrels;
use crate::eval::rank::{parse_measures, DEFAULT_MEASURES};
use crate::eval::summary::percentile;
use crate::render::table::{number_cell, Table};
use crate::report::write::stream::StaticStream;
use crate::report::Shape;
use crate::run::{run_static_each, Silent};
use crate::suite::synthetic::{self, Rng};
use crate::suite::{Belief, Suite, DEFAULT_USER};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;
use std::time::Instant;

/// What one size measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ScaleRow {
    /// Beliefs in the store (the suite's planted among them).
    pub beliefs: usize,
    /// Index segments the build wrote.
    pub segments: usize,
    /// BM25 index build, ms. Measured.
    pub build_ms: f64,
    /// Generated queries searched (top 10, one user's beliefs).
    pub queries: usize,
    /// Median search time, µs; `None` when no query ran (a store of the suite alone has no
    /// generated belief to search: an audit found its latency printed as 0). Measured.
    pub search_p50_us: Option<f64>,
    /// 95th percentile search time, µs (`None` as above). Measured.
    pub search_p95_us: Option<f64>,
    /// The suite's static cases: median context build time, ms (2 decimals). Measured.
    pub case_p50_ms: f64,
    /// The suite's static cases passed.
    pub passed: usize,
    /// The suite's static cases.
    pub cases: usize,
    /// Their mean precision.
    pub precision: Option<f64>,
    /// Their mean recall.
    pub recall: Option<f64>,
    /// The process's peak resident memory, MiB (Linux; measured in a process of its own per
    /// size by `tenure-eval scale`). Measured.
    pub peak_rss_mib: Option<f64>,
}

/// Hands an index built beforehand to the runner (built once, timed here).
struct Prebuilt(Mutex<Option<Box<dyn Backend>>>);

impl BackendFactory for Prebuilt {
    fn build(&self, _corpus: &[Belief]) -> Result<Box<dyn Backend>> {
        self.0
            .lock()
            .ok()
            .and_then(|mut b| b.take())
            .ok_or_else(|| Error::backend("scale", "the prebuilt index was already used"))
    }
}

/// Where a size's by-products go: the static report of the suite's cases (which cases the grown
/// store fails, and why) and the side-by-side export ([`export`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Outputs<'a> {
    /// The static report's file.
    pub report: Option<&'a std::path::Path>,
    /// The folder of the corpus, queries and answers for another engine.
    pub export: Option<&'a std::path::Path>,
}

/// One generated query: an alias of a generated belief, searched for that belief's user.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Probe<'c> {
    /// Whose beliefs are searched.
    pub user_id: &'c str,
    /// The query text.
    pub text: &'c str,
}

/// `n` generated queries over `generated` (at most 8 per belief), drawn from `seed`.
pub(crate) fn probes(generated: &[Belief], n: usize, seed: u64) -> Vec<Probe<'_>> {
    let mut rng = Rng::new(seed ^ 0x5EED);
    (0..n.min(generated.len() * 8))
        .map(|_| {
            let belief = &generated[rng.below(generated.len())];
            Probe {
                user_id: &belief.user_id,
                text: &belief.aliases[rng.below(belief.aliases.len())],
            }
        })
        .collect()
}

/// The top 10 of `probe` (min score as configured), as a search of the scale study runs it.
pub(crate) fn search(backend: &dyn Backend, probe: &Probe) -> Result<Vec<Hit>> {
    backend
        .search(&SearchRequest::of_user(probe.user_id, probe.text, 10))
        .map_err(|e| Error::backend("bm25", e))
}

/// Measure `suite` planted in a store of `size` beliefs generated from `seed`, searched with
/// `queries` generated queries, each once untimed (warm-up) and once timed; then the suite's
/// static cases run against it, repeated up to `cases` cases if given (a long run's memory).
pub(crate) fn measure(
    suite: &Suite,
    size: usize,
    seed: u64,
    queries: usize,
    cases: Option<usize>,
    outputs: Outputs,
) -> Result<ScaleRow> {
    let mut scopes: Vec<String> = suite
        .corpus
        .iter()
        .filter(|b| b.user_id == DEFAULT_USER)
        .flat_map(|b| b.scope.iter().cloned())
        .collect();
    scopes.sort();
    scopes.dedup();
    // A size no machine holds is said, not left to the kernel's OOM killer (it took the
    // machine's memory first).
    drop(synthetic::room::<Belief>(Some(size), "beliefs").map_err(|e| Error::backend("scale", e))?);
    let corpus = synthetic::corpus(&suite.corpus, size, &scopes, seed);
    let start = Instant::now();
    let backend = Bm25Backend::build(&corpus)?;
    let build_ms = start.elapsed().as_secs_f64() * 1000.0;
    let segments = backend.index().segment_count();

    let probes = probes(&corpus[suite.corpus.len()..], queries, seed);
    let answers = probes
        .iter()
        .map(|p| search(&backend, p))
        .collect::<Result<Vec<_>>>()?;
    let mut times = Vec::with_capacity(probes.len());
    for probe in &probes {
        let start = Instant::now();
        search(&backend, probe)?;
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    if let Some(dir) = outputs.export {
        export::write(dir, &corpus, &probes, &answers)?;
    }
    drop(answers);
    drop(probes);

    let grown = Suite {
        corpus,
        cases: match cases {
            Some(n) => synthetic::cases(&suite.cases, n),
            None => suite.cases.clone(),
        },
        sessions: Vec::new(),
        // Labelled as the scale study's (`pmb-scale`): its report is no run of the suite, and
        // `tables`, `verify`, `compare` and the studies took it as one (an audit).
        view: Some(crate::suite::SCALE),
        ..suite.clone()
    };
    // The cases' report is streamed (report::stream): a run of many cases keeps a few numbers
    // a case in memory. Without a report file it goes to a temporary folder.
    let scratch;
    let path = match outputs.report {
        Some(path) => path.to_path_buf(),
        None => {
            scratch = tempfile::tempdir().map_err(|e| Error::Output {
                path: std::env::temp_dir(),
                source: e,
            })?;
            scratch.path().join("scale.json")
        }
    };
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let qrels = Qrels::of(&grown);
    let measures = parse_measures(DEFAULT_MEASURES).map_err(|e| Error::backend("scale", e))?;
    let mut stream = StaticStream::new(dir, Shape::of(suite.profile), &qrels, &measures)?;
    // With an export, the cases' searches are recorded for the other engine to answer too.
    let log = export::SearchLog::default();
    let backend: Box<dyn Backend> = match outputs.export {
        Some(_) => Box::new(export::Recording::new(Box::new(backend), log.clone())),
        None => Box::new(backend),
    };
    let factory = Prebuilt(Mutex::new(Some(backend)));
    let run = run_static_each(&grown, &factory, &mut Silent, 1, &mut |b, r| {
        stream.push(b, &r)
    })?;
    let (_, _, summary) = stream.finish(&path, &run, &grown)?;
    if let Some(dir) = outputs.export {
        export::write_cases(dir, &log)?;
    }
    Ok(ScaleRow {
        beliefs: grown.corpus.len(),
        segments,
        build_ms,
        queries: times.len(),
        search_p50_us: (!times.is_empty()).then(|| percentile(&times, 0.5)),
        search_p95_us: (!times.is_empty()).then(|| percentile(&times, 0.95)),
        case_p50_ms: summary.p50_latency_ms,
        passed: summary.total_passed,
        cases: summary.total_cases,
        precision: summary.mean_precision,
        recall: summary.mean_recall,
        peak_rss_mib: peak_rss_mib(),
    })
}

/// This process's peak resident set (`VmHWM`), MiB; `None` off Linux.
pub(crate) fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// A size written as `1k`, `10k`, `1m` or a plain number.
pub(crate) fn parse_size(s: &str) -> std::result::Result<usize, String> {
    let t = s.trim().to_ascii_lowercase();
    let (digits, unit) = match t.strip_suffix('k') {
        Some(d) => (d, 1_000),
        None => match t.strip_suffix('m') {
            Some(d) => (d, 1_000_000),
            None => (t.as_str(), 1),
        },
    };
    // `checked_mul`: 18446744073709551m overflowed (a panic; in release, a wrapped size).
    match digits.parse::<usize>().map(|n| (n, n.checked_mul(unit))) {
        Ok((n, Some(size))) if n > 0 => Ok(size),
        Ok((_, None)) => Err(format!("{s:?}: more beliefs than this machine can count")),
        _ => Err(format!("{s:?}: expected a size such as 1000, 10k or 1m")),
    }
}

/// The study's table.
pub(crate) fn table(rows: &[ScaleRow]) -> Table {
    Table {
        title: "Scale: the suite planted in a synthetic store".into(),
        header: [
            "Beliefs",
            "Segments",
            "Build ms",
            "Queries",
            "Search p50 µs",
            "Search p95 µs",
            "Case p50 ms",
            "Passed",
            "Precision",
            "Recall",
            "Peak RSS MiB",
        ]
        .map(String::from)
        .to_vec(),
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    r.beliefs.to_string(),
                    r.segments.to_string(),
                    format!("{:.0}", r.build_ms),
                    r.queries.to_string(),
                    number_cell(r.search_p50_us, 0),
                    number_cell(r.search_p95_us, 0),
                    format!("{:.2}", r.case_p50_ms),
                    format!("{}/{}", r.passed, r.cases),
                    number_cell(r.precision, 2),
                    number_cell(r.recall, 2),
                    number_cell(r.peak_rss_mib, 0),
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1k"), Ok(1000));
        assert_eq!(parse_size("1M"), Ok(1_000_000));
        assert_eq!(parse_size("350"), Ok(350));
        assert!(parse_size("0").is_err() && parse_size("ten").is_err());
    }
}
