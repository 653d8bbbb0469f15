//! `--compat pmb --suite pmb` is PrecisionMemBench's harness, against a provider whose answers
//! depend on the exact text it is sent: `serve --backend cosine` (MiniLM vectors of the texts
//! it is seeded with). tests/golden/pmb-harness-cosine/ holds what PrecisionMemBench's own
//! harness produced against that server (its two reports and every request the server
//! received; PROVENANCE.md says how); our client must send the same requests in the same order
//! and write the same reports, latencies excepted.

use crate::common::{http_run, read_json, repo, same_json, spawn_serve};
use serde_json::Value;
use std::path::Path;
use std::process::Child;

const GOLDEN: &str = "tests/golden/pmb-harness-cosine";

/// `serve --backend cosine` logging its requests to `log`, killed when dropped.
struct LoggingServe {
    child: Child,
    url: String,
}

impl LoggingServe {
    fn start(log: &Path) -> LoggingServe {
        let log = log.to_str().unwrap();
        let (child, url) = spawn_serve(&[
            "--suite",
            "pmb",
            "--backend",
            "cosine",
            "--port",
            "0",
            "--quiet",
            "--request-log",
            log,
        ]);
        LoggingServe { child, url }
    }
}

impl Drop for LoggingServe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn measured(field: &str) -> bool {
    field.contains("atency")
}

/// Entries equal field by field (upstream's fields; measured ones excepted), and the summary.
/// Returns (equal entries, entries).
fn equal_entries(kind: &str, upstream: &Value, ours: &Value) -> (usize, usize) {
    let (theirs, mine) = (
        upstream["cases"].as_array().unwrap(),
        ours["cases"].as_array().unwrap(),
    );
    assert_eq!(theirs.len(), mine.len(), "{kind}: entry count");
    let mut equal = 0;
    for (t, o) in theirs.iter().zip(mine) {
        let differing: Vec<_> = t
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, v)| !measured(k) && !same_json(v, &o[k.as_str()]))
            .map(|(k, v)| format!("{k}: upstream {v}, ours {}", o[k.as_str()]))
            .collect();
        if differing.is_empty() {
            equal += 1;
        } else {
            eprintln!("{kind} {}: {differing:?}", t["caseId"]);
        }
    }
    for (field, value) in upstream["retrieval"].as_object().unwrap() {
        if !measured(field) {
            assert!(
                same_json(value, &ours["retrieval"][field]),
                "{kind} summary {field}: upstream {value}, ours {}",
                ours["retrieval"][field]
            );
        }
    }
    (equal, theirs.len())
}

#[test]
fn compat_equals_precisionmembenchs_harness_against_an_embedding_provider() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("requests.jsonl");
    let served = LoggingServe::start(&log);
    let mut counts = Vec::new();
    for (kind, stem) in [("static", ""), ("session", "session-")] {
        let run = http_run(
            kind,
            &["--suite", "pmb"],
            "pmb",
            &served.url,
            "tenure-eval",
            &["--compat", "pmb"],
        );
        let ours = run.written();
        // What ran is recorded: PrecisionMemBench's copy of the suite.
        assert_eq!(
            ours["manifest"]["suiteCopy"], "tenurehq/precisionMemBench 18c7955",
            "{kind}"
        );
        let upstream = read_json(&format!("{GOLDEN}/{stem}retrieval-report-tenure-eval.json"));
        counts.push(equal_entries(kind, &upstream, &ours));
    }
    assert_eq!(counts, [(77, 77), (12, 12)]);
    drop(served);

    let lines = |path: &Path| -> Vec<Value> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (upstream, ours) = (lines(&repo(GOLDEN).join("requests.jsonl")), lines(&log));
    assert_eq!(upstream.len(), 158);
    let equal = upstream.iter().zip(&ours).filter(|(t, o)| t == o).count();
    for (i, (t, o)) in upstream.iter().zip(&ours).enumerate() {
        assert_eq!(t, o, "request {}", i + 1);
    }
    assert_eq!((equal, ours.len()), (158, 158));
}

#[test]
fn the_two_copies_of_pmb_differ_where_provenance_says() {
    use tenure_eval::suite::{Suite, SuiteSource};
    let tenure = Suite::load(&SuiteSource::Builtin("pmb".into())).unwrap();
    let harness = tenure.harness_copy().unwrap().unwrap();
    assert_eq!(tenure.copy, Some("tenurehq/tenure dc348a8"));
    assert_eq!(harness.copy, Some("tenurehq/precisionMemBench 18c7955"));
    let text = |s: &Suite| {
        let b = s
            .corpus
            .iter()
            .find(|b| b.id == "b-comm-response-length")
            .unwrap();
        tenure_eval::backend::http::wire::belief_text(b)
    };
    assert!(text(&tenure)
        .ends_with("opening style — prevents affirmations and restating the question."));
    assert!(text(&harness)
        .ends_with("opening style. Prevents affirmations and restating the question."));
    let differing: Vec<_> = tenure
        .corpus
        .iter()
        .zip(&harness.corpus)
        .filter(|(a, b)| {
            tenure_eval::backend::http::wire::belief_text(a)
                != tenure_eval::backend::http::wire::belief_text(b)
        })
        .map(|(a, _)| a.id.as_str())
        .collect();
    assert_eq!(differing, ["b-comm-response-length"]);
    let category = |s: &Suite| {
        s.cases
            .iter()
            .find(|c| c.case_id == "cross-scope-one-empty-domain-does-not-degrade")
            .and_then(|c| c.category.clone())
    };
    assert_eq!(category(&tenure).as_deref(), Some("Cross-user isolation"));
    assert_eq!(category(&harness).as_deref(), Some("Scope disambiguation"));
    // Queries, users, scopes and expectations are the same.
    let queries = |s: &Suite| {
        s.cases
            .iter()
            .map(|c| (c.query.clone(), c.user_id.clone(), c.scope.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(queries(&tenure), queries(&harness));
}

#[test]
fn the_example_providers_config_loads_every_entry_and_key() {
    use tenure_eval::backend::http::providers::{load, BeliefToText};
    let path = repo("examples/providers.config.json");
    let (name, mine) = load(&path, " Mine ").unwrap();
    assert_eq!(name, "mine");
    assert_eq!(
        (mine.env_var.as_str(), mine.default_url.as_str()),
        ("MINE_URL", "http://127.0.0.1:8090")
    );
    assert_eq!(mine.belief_to_text, BeliefToText::CanonicalNameAliases);
    assert!(mine.supports_update && !mine.wait_after_seed);
    assert_eq!(load(&path, "mem0").unwrap().1.seed_delay_ms, 5500);
    assert_eq!(load(&path, "tenure-eval").unwrap().1.seed_delay_ms, 0);
    // docs/providers.md explains every key the entry type has.
    let docs = std::fs::read_to_string(repo("docs/providers.md")).unwrap();
    for key in [
        "envVar",
        "defaultUrl",
        "seedDelayMs",
        "beliefToText",
        "supportsUpdate",
        "waitAfterSeed",
        "supportsMultiScope",
    ] {
        assert!(
            docs.contains(&format!("| `{key}` |")),
            "{key} not explained"
        );
    }
}
