//! LoCoMo's other two databases (`--unit observations|summaries`) and its answer key's
//! corrections as a layer (`--corrections`), on the released file and the locomo-audit (both
//! in the data folder): what each item stands for, gold that follows from it, LoCoMo's own
//! recall over each database equal to its evaluation code's, and a corrected view that names
//! itself, records its overlay and refuses an overlay made for another file.

use crate::common::needs::{data_file, locomo_file, needs, Need};
use crate::common::{tenure_eval, tenure_eval_ok};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use tenure_eval::suite::locomo::{observation_covers, LocomoSource};
use tenure_eval::suite::{Suite, SuiteSource, Unit};

fn load(unit: Unit, corrections: &[PathBuf]) -> Suite {
    Suite::load(&SuiteSource::Locomo(LocomoSource {
        data: locomo_file(),
        unit,
        corrections: corrections.to_vec(),
    }))
    .unwrap()
}

fn audit() -> PathBuf {
    data_file("locomo-audit")
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn observations_and_summaries_stand_for_the_turns_they_cover() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let turns = load(Unit::Turns, &[]);
    let observations = load(Unit::Observations, &[]);
    let summaries = load(Unit::Summaries, &[]);
    // 2,541 observations and 272 session summaries in the released file.
    assert_eq!(observations.corpus.len(), 2541);
    assert_eq!(summaries.corpus.len(), 272);
    assert_eq!(observations.corpus[0].id, "conv-26/O0");
    assert_eq!(observations.label(), "locomo-observations");
    assert!(summaries.corpus[0]
        .canonical_name
        .starts_with("Caroline and Melanie"));
    // An observation citing two turns in one string stands for both (gpt_utils.py splits it).
    let covers = observation_covers(&locomo_file()).unwrap();
    assert_eq!(covers.len(), 2541);
    assert!(covers
        .values()
        .any(|c| c == &["D22:21".to_string(), "D22:23".to_string()]));
    // Every question is a case or excluded, in each database; an observation case's gold is
    // exactly the observations citing one of its evidence turns.
    let turn_gold = |id: &str| -> HashSet<String> {
        let case = turns.cases.iter().find(|c| c.case_id == id).unwrap();
        let gold = &case.expect.relevant_beliefs.as_ref().unwrap().must_include;
        gold.iter()
            .map(|g| g.split_once('/').unwrap().1.to_string())
            .collect()
    };
    for suite in [&observations, &summaries] {
        assert_eq!(
            suite.cases.len() + suite.excluded.len(),
            1986,
            "{}",
            suite.label()
        );
    }
    for case in &observations.cases {
        let evidence = turn_gold(&case.case_id);
        let user = case.case_id.split('/').next().unwrap();
        let gold: HashSet<&String> = (case
            .expect
            .relevant_beliefs
            .as_ref()
            .unwrap()
            .must_include
            .iter())
        .collect();
        let citing: HashSet<&String> = (covers.iter())
            .filter(|(id, c)| {
                id.starts_with(&format!("{user}/")) && c.iter().any(|d| evidence.contains(d))
            })
            .map(|(id, _)| id)
            .collect();
        assert_eq!(gold, citing, "{}", case.case_id);
    }
    let uncited = observations.excluded.len() - 4;
    assert!(uncited > 0, "some questions' evidence no observation cites");
    assert!(observations.excluded.iter().any(|e| e
        .reason
        .starts_with("no item stands for its evidence turns")));
    // A summary case's gold is the sessions of its evidence, as the sessions unit's.
    let sessions = load(Unit::Sessions, &[]);
    for (a, b) in summaries.cases.iter().zip(&sessions.cases) {
        assert_eq!(a.case_id, b.case_id);
        let gold = |c: &tenure_eval::suite::StaticCase| {
            c.expect
                .relevant_beliefs
                .as_ref()
                .unwrap()
                .must_include
                .clone()
        };
        assert_eq!(gold(a), gold(b));
    }
}

/// `tenure-eval locomo`'s recall over observations and summaries is LoCoMo's: its evaluation
/// code's expressions (scripts/locomo_recall_reference.py) over the same rankings, each
/// observation flattened into the dialog ids it cites, give the same mean at every depth.
#[test]
fn locomos_recall_over_observations_and_summaries_is_its_evaluation_codes() {
    if !needs(&[Need::Locomo, Need::Python3]) {
        return;
    }
    let data = locomo_file();
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for unit in ["observations", "summaries"] {
        tenure_eval_ok(
            &[
                "run",
                "--suite",
                "locomo",
                "--unit",
                unit,
                "--backend",
                "bm25-text",
                "--quiet",
                "--data",
            ],
            &[&data, Path::new("--out"), dir.path()],
        );
        files.push(
            dir.path()
                .join(format!("locomo-{unit}/retrieval-report-bm25-text.json")),
        );
    }
    let mut paths: Vec<&Path> = vec![&data];
    paths.extend(files.iter().map(PathBuf::as_path));
    let out = tenure_eval_ok(&["locomo", "--format", "json", "--data"], &paths);
    let ours: Value = serde_json::from_slice(&out.stdout).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/locomo_recall_reference.py");
    for (run, file) in ours.as_array().unwrap().iter().zip(&files) {
        let all = run["cells"].as_array().unwrap().last().unwrap();
        assert_eq!(
            (all["group"].as_str(), all["questions"].as_u64()),
            (Some("all"), Some(1986))
        );
        for (d, k) in [1, 5, 10, 25, 50].iter().enumerate() {
            let reference = std::process::Command::new("python3")
                .arg(&script)
                .args([&data, file])
                .arg(k.to_string())
                .output()
                .unwrap();
            assert!(
                reference.status.success(),
                "{}",
                String::from_utf8_lossy(&reference.stderr)
            );
            let theirs: Value = serde_json::from_slice(&reference.stdout).unwrap();
            for cell in run["cells"].as_array().unwrap() {
                let group = cell["group"].as_str().unwrap();
                let Some(t) = theirs.get(group) else {
                    assert_eq!(group, "all (1-4)");
                    continue;
                };
                let v = cell["recallAccuracy"][d].as_f64().unwrap();
                assert!(
                    (v - t.as_f64().unwrap()).abs() < 1e-12,
                    "{} {group} acc@{k}: ours {v}, LoCoMo's {t}",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn corrections_replace_wrong_citations_and_name_the_corrected_view() {
    if !needs(&[Need::Locomo, Need::LocomoAudit]) {
        return;
    }
    let corrected = load(Unit::Turns, &[audit()]);
    assert_eq!(corrected.label(), "locomo-corrected");
    let applied = corrected.corrections.clone().unwrap();
    assert_eq!(applied.evidence_replaced, 57);
    assert_eq!(applied.counted.values().sum::<usize>(), 156 - 57);
    assert_eq!(applied.counted["HALLUCINATION"], 33);
    // Ten overlay files beside the data, each with its sha256.
    let overlay: Vec<_> = corrected
        .inputs
        .iter()
        .filter(|i| i.role == "corrections")
        .collect();
    assert_eq!(overlay.len(), 10);
    // locomo_0_qa1: D1:12 cited, D1:14 correct.
    let gold = |suite: &Suite| {
        let case = suite
            .cases
            .iter()
            .find(|c| c.case_id == "conv-26/q1")
            .unwrap();
        case.expect
            .relevant_beliefs
            .as_ref()
            .unwrap()
            .must_include
            .clone()
    };
    let released = load(Unit::Turns, &[]);
    assert_eq!(gold(&released), ["conv-26/D1:12"]);
    assert_eq!(gold(&corrected), ["conv-26/D1:14"]);
    // A run of the corrected view writes its own folder and records the overlay.
    let dir = tempfile::tempdir().unwrap();
    let out = tenure_eval_ok(
        &[
            "run",
            "--suite",
            "locomo",
            "--backend",
            "bm25-text",
            "--data",
        ],
        &[
            &locomo_file(),
            Path::new("--corrections"),
            &audit(),
            Path::new("--out"),
            dir.path(),
        ],
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("57 questions' evidence replaced"));
    let report = read(
        &dir.path()
            .join("locomo-corrected/retrieval-report-bm25-text.json"),
    );
    assert_eq!(report["manifest"]["suite"], "locomo-corrected");
    assert_eq!(report["manifest"]["corrections"]["evidenceReplaced"], 57);
    // `locomo` reads the corrected report against the corrected evidence, and only so.
    let file = dir
        .path()
        .join("locomo-corrected/retrieval-report-bm25-text.json");
    let refused = tenure_eval(&[
        "locomo",
        "--data",
        locomo_file().to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("give the same --corrections"));
    tenure_eval_ok(
        &["locomo", "--format", "json", "--data"],
        &[&locomo_file(), Path::new("--corrections"), &audit(), &file],
    );
    // The tables say whose gold they are measured against (only the JSON's suite said it).
    let table = tenure_eval_ok(
        &["locomo", "--data"],
        &[&locomo_file(), Path::new("--corrections"), &audit(), &file],
    );
    let table = String::from_utf8_lossy(&table.stdout);
    assert_eq!(
        table
            .matches("· the corrected view (locomo-audit's gold)")
            .count(),
        3,
        "{table}"
    );
}

#[test]
fn an_overlay_for_another_file_is_refused_naming_the_entry() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let write = |entries: Value| {
        let path = dir.path().join("errors_conv_0.json");
        std::fs::write(&path, serde_json::to_vec(&entries).unwrap()).unwrap();
        path
    };
    let entry = |question: &str, id: &str| {
        json!([{"question_id": id, "question": question, "error_type": "WRONG_CITATION",
                "cited_evidence": ["D1:12"], "correct_evidence": ["D1:14"]}])
    };
    for (overlay, expect) in [
        (
            entry("When did Melanie paint a lake?", "locomo_0_qa1"),
            "$[0].question",
        ),
        (
            entry("When did Melanie paint a sunrise?", "locomo_0_qa9999"),
            "$[0].question_id",
        ),
        (
            entry("When did Melanie paint a sunrise?", "conv-26/q1"),
            "expected locomo_K_qaJ",
        ),
        (json!([{"question_id": "locomo_0_qa1"}]), "$[0]"),
    ] {
        let file = write(overlay);
        let out = tenure_eval(&[
            "validate",
            "--suite",
            "locomo",
            "--data",
            locomo_file().to_str().unwrap(),
            "--corrections",
            file.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("errors_conv_0.json") && err.contains(expect),
            "{expect}: {err}"
        );
    }
    // The right question, corrected: validate says what the overlay does.
    let file = write(entry("When did Melanie paint a sunrise?", "locomo_0_qa1"));
    let out = tenure_eval_ok(
        &["validate", "--suite", "locomo", "--data"],
        &[&locomo_file(), Path::new("--corrections"), &file],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("locomo-corrected: corrections: 1 questions' evidence replaced"),
        "{text}"
    );
}
