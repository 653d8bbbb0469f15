//! A backend that fails is recorded, not fatal: a case whose search fails (transiently, then
//! for good) is marked in a complete report, every other case is evaluated, and the job's exit
//! code is 3. Session mutations on a backend without updates re-add the belief.

use crate::common::builtin;
use std::sync::atomic::{AtomicU32, Ordering};
use tenure_eval::backend::bm25::Bm25Backend;
use tenure_eval::backend::Workload;
use tenure_eval::backend::{
    Backend, BackendError, BackendFactory, BackendInfo, ErrorKind, Hit, SearchRequest,
};
use tenure_eval::job::{pass, JobOutcome, PassOptions};
use tenure_eval::report::LoadedReport;
use tenure_eval::run::{run_sessions, Silent};
use tenure_eval::suite::Belief;

/// BM25, except that searches for one message fail: transiently first, then for good.
struct Flaky {
    inner: Bm25Backend,
    fail_on: String,
    calls: AtomicU32,
}

impl Backend for Flaky {
    fn info(&self) -> &BackendInfo {
        self.inner.info()
    }
    fn settings(&self) -> serde_json::Value {
        self.inner.settings()
    }
    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
        if request.message != self.fail_on {
            return self.inner.search(request);
        }
        match self.calls.fetch_add(1, Ordering::SeqCst) {
            0 => Err(BackendError::transient("503 Service Unavailable")),
            _ => Err(BackendError::permanent("400 Bad Request: query too long")),
        }
    }
    fn insert(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.inner.insert(belief)
    }
}

struct FlakyFactory(String);

impl BackendFactory for FlakyFactory {
    fn build(&self, corpus: &[Belief]) -> tenure_eval::Result<Box<dyn Backend>> {
        Ok(Box::new(Flaky {
            inner: Bm25Backend::build(corpus)?,
            fail_on: self.0.clone(),
            calls: AtomicU32::new(0),
        }))
    }
}

#[test]
fn an_errored_case_is_recorded_and_the_others_are_evaluated() {
    let suite = builtin("pmb");
    // A case whose query no other case shares.
    let failing = suite
        .cases
        .iter()
        .find(|c| suite.cases.iter().filter(|d| d.query == c.query).count() == 1)
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let outcome = pass(
        &suite,
        &FlakyFactory(failing.query.clone()),
        Workload::Static,
        dir.path(),
        &PassOptions {
            concurrency: 1,
            measures: &[],
            max_errors: 10,
            label: None,
            config: None,
        },
        &mut Silent,
    )
    .unwrap();
    assert_eq!(outcome.errored, 1);
    // Every other case passes, as through plain BM25 (77/77).
    assert_eq!(outcome.row.summary.total_passed, 76);
    assert_eq!(outcome.row.summary.total_cases, 77);
    assert_eq!(outcome.row.summary.errored, 1);

    // The written report is complete and marks the case.
    let path = &outcome.reports[0];
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 77);
    let entry = cases
        .iter()
        .find(|c| c["caseId"] == failing.case_id.as_str())
        .unwrap();
    assert_eq!(entry["passed"], false);
    assert_eq!(entry["failures"], serde_json::json!([]));
    assert_eq!(entry["retrievalPrecision"], serde_json::Value::Null);
    assert_eq!(entry["error"]["kind"], "permanent");
    assert_eq!(entry["error"]["attempts"], 2);
    assert_eq!(entry["error"]["message"], "400 Bad Request: query too long");
    assert_eq!(report["retrieval"]["errored"], 1);
    assert_eq!(cases.iter().filter(|c| c.get("error").is_some()).count(), 1);
    // Readers see it too, and no temp file is left behind.
    let loaded = LoadedReport::load(path).unwrap();
    assert_eq!(
        tenure_eval::analysis::verify::verify(path, true, None).unwrap(),
        Vec::<String>::new(),
        "an errored entry (not passed, no failures) is consistent"
    );
    assert_eq!(loaded.rows.iter().filter(|r| r.errored).count(), 1);
    assert!(
        loaded.disagreements().is_empty(),
        "{:?}",
        loaded.disagreements()
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // A failed run's report goes beside the good one, in failed/ (out of `*.json` globs).
    assert_eq!(names, ["failed"]);
    assert!(dir
        .path()
        .join("failed/retrieval-report-tenure.json")
        .is_file());
    assert_eq!(outcome.errors.len(), 1);
    assert_eq!(
        (outcome.errors[0].count, outcome.errors[0].first.as_str()),
        (1, failing.case_id.as_str())
    );

    let job = JobOutcome {
        passes: vec![outcome],
        checks: Vec::new(),
    };
    assert_eq!(job.exit_code(), 3);
}

#[test]
fn a_clean_report_has_no_error_keys() {
    let suite = builtin("pmb");
    let dir = tempfile::tempdir().unwrap();
    let outcome = pass(
        &suite,
        &FlakyFactory("no case asks this".into()),
        Workload::Static,
        dir.path(),
        &PassOptions {
            concurrency: 1,
            measures: &[],
            max_errors: 10,
            label: None,
            config: None,
        },
        &mut Silent,
    )
    .unwrap();
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&outcome.reports[0]).unwrap()).unwrap();
    let cases = report["cases"].as_array().unwrap();
    assert!(cases.iter().all(|c| c.get("error").is_none()));
    assert!(report["retrieval"].get("errored").is_none());
    assert_eq!(outcome.row.summary.total_passed, 77);
    let job = JobOutcome {
        passes: vec![outcome],
        checks: Vec::new(),
    };
    assert_eq!(job.exit_code(), 0);
}

/// BM25 without updates: `replace` is `Unsupported`.
struct NoUpdates(Bm25Backend);

impl Backend for NoUpdates {
    fn info(&self) -> &BackendInfo {
        self.0.info()
    }
    fn settings(&self) -> serde_json::Value {
        self.0.settings()
    }
    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
        self.0.search(request)
    }
    fn insert(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.0.insert(belief)
    }
}

struct NoUpdatesFactory;

impl BackendFactory for NoUpdatesFactory {
    fn build(&self, corpus: &[Belief]) -> tenure_eval::Result<Box<dyn Backend>> {
        Ok(Box::new(NoUpdates(Bm25Backend::build(corpus)?)))
    }
}

#[test]
fn sessions_re_add_a_belief_when_the_backend_cannot_update_it() {
    let suite = builtin("pmb");
    assert_eq!(
        NoUpdates(Bm25Backend::build(&suite.corpus).unwrap())
            .replace(&suite.corpus[0])
            .unwrap_err()
            .kind,
        ErrorKind::Unsupported
    );
    // Re-added, the updated belief carries `allkeys-lru`, which turn 10 and the next session
    // case need: without the re-add they fail; with it every turn passes.
    let run = run_sessions(&suite, &NoUpdatesFactory, &mut Silent).unwrap();
    assert_eq!(run.errored(), 0);
    assert_eq!(run.summary().total_passed, 12);
}
