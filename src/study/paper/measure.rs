//! What `claims` measures from: the paper suite run now (BM25, and cosine over the committed
//! MiniLM vectors), or reports checked to be the paper suite's.

use crate::backend::cosine::CosineConfig;
use crate::backend::{BackendConfig, ScoreScale};
use crate::embed::source::DEFAULT_MODEL;
use crate::error::Result;
use crate::report::{json, LoadedReport, Manifest, Shape};
use crate::run::{run_sessions, run_static, Silent};
use crate::suite::{Suite, SuiteSource};
use std::path::Path;

/// Refuse reports of another suite: the claims are the paper's, about its 60 static cases and
/// 12 session turns, and a `pmb` report would only "differ" everywhere. A report belongs to the
/// paper suite when every case it lists is one of the paper suite's.
pub(crate) fn check_paper_reports(reports: &[LoadedReport]) -> Result<()> {
    let suite = Suite::load(&SuiteSource::Builtin("paper".into()))?;
    let known = |id: &str| {
        suite.cases.iter().any(|c| c.case_id == id)
            || suite.sessions.iter().any(|c| c.case_id == id)
    };
    for (i, report) in reports.iter().enumerate() {
        if let Some(row) = report.rows.iter().find(|r| !known(&r.case_id)) {
            return Err(crate::error::Error::Usage(format!(
                "{}: case {:?} is not one of the paper suite's; claims are measured on `paper` \
                 reports (tenure-eval run --suite paper)",
                report.path.display(),
                row.case_id
            )));
        }
        // An audit found each of these taken as the paper's run, with exit 0: a shard's, a
        // selection's (`--limit`) or a stopped run's report; one at other settings
        // (`--min-score 2.5`, every BM25 claim then "reproduced"); and, of two reports of one
        // kind, the first read and the other ignored.
        report.whole_run_on(&suite)?;
        if let Some(tag) = &report.backend.tag {
            return Err(crate::error::Error::Usage(format!(
                "{}: a run at other settings than the paper's ({tag}); the claims are the \
                 paper's, at its settings",
                report.path.display()
            )));
        }
        // Claims read one BM25 and one cosine report of each kind (ClaimSources); others (a
        // fusion's) are not read, so only these may not come twice.
        let which = match report.backend.score_scale {
            ScoreScale::LuceneBm25 => "BM25",
            ScoreScale::VectorSimilarity => "cosine",
            _ => continue,
        };
        let same = |r: &&LoadedReport| {
            r.kind == report.kind && r.backend.score_scale == report.backend.score_scale
        };
        if let Some(other) = reports[..i].iter().find(same) {
            return Err(crate::error::Error::Usage(format!(
                "{} and {}: two {which} {} reports; claims reads one of each",
                other.path.display(),
                report.path.display(),
                report.kind.label()
            )));
        }
    }
    Ok(())
}

/// The reports of the `paper` suite, run now and kept in memory (what `claims` measures when it
/// is given no report): BM25, and cosine with the committed all-MiniLM-L6-v2 vectors when
/// their store is found (from the repository root). Also says why cosine was left out, if it
/// was.
pub(crate) fn measure_paper() -> Result<(Vec<LoadedReport>, Option<String>)> {
    let suite = Suite::load(&SuiteSource::Builtin("paper".into()))?;
    let mut reports = in_memory(&suite, &BackendConfig::bm25(), "")?;
    let mut cosine = BackendConfig::cosine(CosineConfig::new(DEFAULT_MODEL));
    match cosine.prepare(&suite, &mut |_, _| {}) {
        Ok(()) => {
            reports.extend(in_memory(&suite, &cosine, &format!("{DEFAULT_MODEL}-"))?);
            Ok((reports, None))
        }
        Err(e) => Ok((
            reports,
            Some(format!("cosine rows not measured: {e} (run from the repository root, where embeddings/ holds the committed {DEFAULT_MODEL} vectors)")),
        )),
    }
}

/// The static and session reports of `config` on `suite`, in memory.
fn in_memory(suite: &Suite, config: &BackendConfig, prefix: &str) -> Result<Vec<LoadedReport>> {
    let static_run = run_static(suite, config, &mut Silent)?;
    let session_run = run_sessions(suite, config, &mut Silent)?;
    let s = json::static_report(
        &static_run,
        &Manifest::for_static(suite, &static_run),
        Shape::Pmb,
    );
    let t = json::session_report(
        &session_run,
        &Manifest::for_sessions(suite, &session_run),
        Shape::Pmb,
    );
    let named = |kind: &str| format!("paper/{prefix}{kind}-report (in memory)");
    Ok(vec![
        LoadedReport::from_parts(Path::new(&named("retrieval")), &s.body, None)?,
        LoadedReport::from_parts(Path::new(&named("session-retrieval")), &t.body, None)?,
    ])
}
