//! The paper's tables (`tables --style paper`) from a paper-suite run, beside PrecisionMemBench's
//! published cosine session report.

use crate::common::{repo, tenure_eval_into, tenure_eval_ok};

#[test]
fn paper_tables_from_a_paper_run_and_the_published_cosine_sessions() {
    let dir = tempfile::tempdir().unwrap();
    tenure_eval_into(&["run", "--suite", "paper"], dir.path());
    let paper = dir.path().join("paper");
    let vector = repo("tests/golden/pmb-baseline/session-retrieval-report-vector.json");
    let out = tenure_eval_ok(
        &["tables", "--style", "paper", "--format", "json"],
        &[
            &paper.join("retrieval-report.json"),
            &paper.join("session-retrieval-report.json"),
            &vector,
        ],
    );
    let tables: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = |i: usize| tables[i]["rows"].as_array().unwrap().clone();
    // JSON cells are typed: counts are numbers, n/m is {count, total}, a dash is null.
    let cell = |r: &serde_json::Value, j: usize| r[j].as_u64().unwrap();

    // Table 2: the 60 paper cases under HEAD's categories, and the 12 session turns.
    let distribution = rows(0);
    let find = |name: &str| distribution.iter().find(|r| r[0] == name).unwrap().clone();
    assert_eq!(cell(&find("Alias resolution"), 1), 21);
    assert_eq!(cell(&find("Scope disambiguation"), 1), 9);
    assert_eq!(cell(&find("Session-level noise isolation"), 2), 12);
    assert_eq!((cell(&find("Total"), 1), cell(&find("Total"), 2)), (60, 12));
    let categorised: u64 = distribution
        .iter()
        .filter(|r| r[0] != "Total")
        .filter_map(|r| r[1].as_u64())
        .sum::<u64>();
    assert_eq!(categorised, 60);
    assert!(distribution.iter().all(|r| r[0] != "Uncategorised"));

    // Headline: BM25 72/72 with mean precision 1.00; the cosine report is session-only.
    let headline = rows(1);
    assert_eq!(
        headline[0],
        serde_json::json!([
            "bm25",
            {"count": 60, "total": 60},
            {"count": 12, "total": 12},
            {"count": 72, "total": 72},
            1.0
        ])
    );
    assert_eq!(
        headline[1],
        serde_json::json!(["vector", null, {"count": 0, "total": 12}, null, null])
    );

    // Noise isolation, one definition for both (the paper's noise / (relevant + pinned),
    // recomputed from each turn's lists): BM25 0 on every critical turn; the published cosine
    // report 0.33, 0.39, 0.06 there and 0.06 over all turns. (Its own `driftScore` is
    // 1 − precision: 1.00, 0.94, 0.94 and 0.91, which this table used to print beside BM25's
    // noise share under one heading.)
    let noise = rows(2);
    assert_eq!(noise[0], serde_json::json!(["bm25", 0.0, 0.0, 0.0, 0.0]));
    assert_eq!(
        noise[1],
        serde_json::json!(["vector", 0.33, 0.39, 0.06, 0.06])
    );
}

/// `static --suite paper` prints the categories `tables --style paper` assigns (each of the
/// tag's 60 uncategorised cases takes its HEAD category), not 60 "Uncategorised"; the paper
/// report itself stays as the tag's, without categories.
#[test]
fn the_paper_suites_run_table_has_head_categories() {
    let dir = tempfile::tempdir().unwrap();
    let out = tenure_eval_ok(
        &["static", "--suite", "paper", "--quiet", "--out"],
        &[dir.path()],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("| Alias resolution                 | 21    | 21     |"),
        "{text}"
    );
    assert!(!text.contains("Uncategorised"), "{text}");
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("paper/retrieval-report.json")).unwrap(),
    )
    .unwrap();
    assert!(report
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e.get("category").is_none()));
}
