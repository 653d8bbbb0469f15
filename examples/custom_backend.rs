//! # Writing a backend
//!
//! A tutorial in the manner of tantivy's examples: a small retrieval backend written against
//! tenure-eval's public API, run on the `pmb` suite (77 static cases, 12 session turns), with
//! the same context builder, assertions, metrics and reports as the built-in backends.
//!
//! Run it with `cargo run --release --example custom_backend`; the test command runs it too.
//!
//! The backend here is deliberately naive: a belief scores one point per distinct query word
//! that is also a word of its canonical name or one of its aliases. No BM25, no fuzziness, no
//! bigrams. Its numbers show what those buy.

use serde_json::json;
use tenure_eval::backend::{
    Backend, BackendError, BackendFactory, BackendInfo, Explanation, Hit, Reader, ScoreScale,
    SearchRequest, TermMatch,
};
use tenure_eval::report::{json as report_json, Manifest, Shape};
use tenure_eval::run::{run_sessions, run_static, Silent};
use tenure_eval::suite::{Belief, Suite, SuiteSource};

// ---------------------------------------------------------------------------------------------
// Step 1: the index. A backend owns whatever it needs; here, each belief version with its
// words. Versions are kept in write order, which is also the tie order below.
// ---------------------------------------------------------------------------------------------

struct Version {
    belief: Belief,
    /// Lower-cased words of the canonical name and the aliases.
    words: Vec<String>,
    /// False once a newer version of the same belief replaced it.
    live: bool,
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn version(belief: &Belief) -> Version {
    let mut all = words(&belief.canonical_name);
    for alias in &belief.aliases {
        all.extend(words(alias));
    }
    all.sort();
    all.dedup();
    Version {
        belief: belief.clone(),
        words: all,
        live: true,
    }
}

struct WordOverlap {
    versions: Vec<Version>,
    info: BackendInfo,
}

// ---------------------------------------------------------------------------------------------
// Step 2: the `Backend` trait. Four things to say:
// - `info`: who you are. Reports, tables and figures read this, never your name: the provider
//   name goes into PrecisionMemBench-shaped reports, `reader` picks which upstream context
//   rules apply (Tenure's text reader here), `score_scale` how scores are written.
// - `search`: filtered (every hit must pass `request.filter.admits`), ordered, limited.
// - `insert` and `replace`: session turns create and update beliefs. A backend that cannot
//   update leaves `replace` out; sessions then re-add the belief, as PrecisionMemBench does.
// Failures are `BackendError`s: transient ones are retried, any other is recorded on its
// case, and the run goes on.
// ---------------------------------------------------------------------------------------------

impl Backend for WordOverlap {
    fn info(&self) -> &BackendInfo {
        &self.info
    }

    fn settings(&self) -> serde_json::Value {
        json!({"score": "distinct query words in canonical name or aliases", "minScore": 1})
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
        let query = words(request.text);
        let mut hits: Vec<(usize, Vec<String>)> = self
            .versions
            .iter()
            .enumerate()
            .filter(|(_, v)| v.live && request.filter.admits(&v.belief))
            .map(|(i, v)| {
                let mut matched: Vec<String> = query
                    .iter()
                    .filter(|w| v.words.binary_search(w).is_ok())
                    .cloned()
                    .collect();
                matched.sort();
                matched.dedup();
                (i, matched)
            })
            .filter(|(_, matched)| !matched.is_empty())
            .collect();
        // Ties: more words first, then write order. A stable sort keeps write order for equal
        // scores, so the same request always gives the same list.
        hits.sort_by_key(|h| std::cmp::Reverse(h.1.len()));
        hits.truncate(request.limit);
        Ok(hits
            .into_iter()
            .map(|(i, matched)| {
                let score = matched.len() as f32;
                // An explanation: one leaf per matched word, like tantivy's `Explanation`.
                let leaves = matched
                    .into_iter()
                    .map(|term| {
                        let path = "names".to_string();
                        Explanation::term(
                            1.0,
                            TermMatch {
                                path,
                                term,
                                collapsed: false,
                            },
                        )
                    })
                    .collect();
                Hit {
                    id: self.versions[i].belief.id.clone(),
                    score: Some(score),
                    explanation: Some(Explanation::node(score, "sum of", leaves)),
                }
            })
            .collect())
    }

    fn insert(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.versions.push(version(belief));
        Ok(())
    }

    fn replace(&mut self, belief: &Belief) -> Result<(), BackendError> {
        let old = self
            .versions
            .iter_mut()
            .find(|v| v.live && v.belief.id == belief.id)
            .ok_or_else(|| BackendError::permanent(format!("no belief {:?}", belief.id)))?;
        old.live = false;
        self.versions.push(version(belief));
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Step 3: a factory. The runner builds a fresh backend over the seed corpus for each pass
// (static, then session); built-in backends get theirs from `BackendConfig`.
// ---------------------------------------------------------------------------------------------

struct WordOverlapFactory;

impl BackendFactory for WordOverlapFactory {
    fn build(&self, corpus: &[Belief]) -> tenure_eval::Result<Box<dyn Backend>> {
        Ok(Box::new(WordOverlap {
            versions: corpus.iter().map(version).collect(),
            info: BackendInfo {
                id: "word-overlap".into(),
                provider: "word-overlap".into(),
                label: "word-overlap".into(),
                model: None,
                text_policy: None,
                file_prefix: None,
                paper_primary: false,
                reader: Reader::Text,
                score_scale: ScoreScale::None,
                // No settings that change results: nothing to add to the run's label.
                tag: None,
                upstream_exact: false,
            },
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// Step 4: run the suite. `run_static` and `run_sessions` take any factory; the report
// functions write the same JSON the command line writes.
// ---------------------------------------------------------------------------------------------

fn main() -> tenure_eval::Result<()> {
    let suite = Suite::load(&SuiteSource::Builtin("pmb".into()))?;

    let static_run = run_static(&suite, &WordOverlapFactory, &mut Silent)?;
    let s = static_run.summary();
    println!(
        "static: {}/{} passed, {} by active retrieval, mean precision {:.2}",
        s.total_passed,
        s.total_cases,
        s.active_retrieval_passes,
        s.mean_precision.unwrap_or(0.0)
    );

    let session_run = run_sessions(&suite, &WordOverlapFactory, &mut Silent)?;
    // `None` when no turn was measured (every one errored): a drift of nothing is no 0.
    let drift = match session_run.mean_drift_scores() {
        Some((drift, precision)) => format!("{drift:.2} (1 − precision {precision:.2})"),
        None => "– (no turn measured)".into(),
    };
    println!(
        "session: {}/{} turns passed, mean drift {drift}",
        session_run.summary().total_passed,
        session_run.turns.len()
    );

    // The report a `tenure-eval run` would write, with this backend's info in its manifest.
    let manifest = Manifest::for_static(&suite, &static_run);
    let report = report_json::static_report(&static_run, &manifest, Shape::Pmb).body;
    assert_eq!(report["provider"], "word-overlap");
    assert_eq!(report["cases"].as_array().map(Vec::len), Some(77));

    // Which failures are left is where the real backend earns its keep: print the first few.
    for r in static_run.results.iter().filter(|r| !r.passed()).take(3) {
        println!("  {}: {}", r.case_id, r.failures.join("; "));
    }
    Ok(())
}
