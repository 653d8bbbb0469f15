//! Real Lucene (8.x, Debian's liblucene8-java, installed by `scripts/setup-lucene.sh`) on a grown
//! store: the scale study's corpus and queries, exported by `scale --export`, indexed and
//! searched by `scripts/lucene/ScaleLucene.java` with the suite's query; every answer must be
//! ours, id for id and score for score (float32), ties in the same order: the generated queries
//! and every search the suite's static cases made in the grown store.

use crate::common::needs::{lucene_classpath, needs, Need};
use crate::common::{repo, tenure_eval_ok};
use serde_json::Value;
use std::process::Command;

fn run(program: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(program)
        .args(args)
        .current_dir(repo(""))
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn lucene_gives_our_answers_on_a_grown_store() {
    if !needs(&[Need::Lucene]) {
        return;
    }
    let classpath = lucene_classpath().unwrap();
    let classpath = classpath.as_str();
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("export");
    tenure_eval_ok(
        &[
            "scale",
            "--suite",
            "pmb",
            "--sizes",
            "20k",
            "--queries",
            "300",
            "--export",
            export.to_str().unwrap(),
            "--quiet",
        ],
        &[],
    );
    let classes = dir.path().join("classes");
    run(
        "javac",
        &[
            "-d",
            classes.to_str().unwrap(),
            "-cp",
            classpath,
            "scripts/lucene/ScaleLucene.java",
        ],
    );
    let cp = format!("{classpath}:{}", classes.display());
    let lucene: Value = serde_json::from_slice(&run(
        "java",
        &[
            "-cp",
            &cp,
            "ScaleLucene",
            export.join("20000").to_str().unwrap(),
        ],
    ))
    .unwrap();
    assert!(
        lucene["lucene"].as_str().unwrap().starts_with("8."),
        "{}",
        lucene["lucene"]
    );
    assert_eq!(lucene["beliefs"], 20_000);
    assert_eq!(lucene["queries"], 300);
    assert_eq!(
        lucene["sameAnswers"], 300,
        "first difference: {}",
        lucene["firstDifference"]
    );
    // The suite's own cases, planted in the grown store, searched with their scope filters and
    // pinned exclusions: 72 of pmb's 77 search (the rest have an empty query or no budget).
    assert_eq!(lucene["caseSearches"], 72);
    assert_eq!(lucene["sameCaseAnswers"], 72);
    // The answers compared are real ones: most queries find several beliefs, some at equal
    // scores (ties, in doc id order on both sides).
    let queries = std::fs::read_to_string(export.join("20000/queries.tsv")).unwrap();
    let answers: Vec<Vec<&str>> = queries
        .lines()
        .map(|l| {
            let pairs = l.split('\t').nth(2).unwrap();
            pairs.split('\u{1f}').filter(|p| !p.is_empty()).collect()
        })
        .collect();
    assert_eq!(answers.len(), 300);
    let hits: usize = answers.iter().map(Vec::len).sum();
    assert!(hits > 1000, "{hits} hits in all");
    let tied = answers.iter().any(|a| {
        a.windows(2)
            .any(|w| w[0].split(' ').nth(1) == w[1].split(' ').nth(1))
    });
    assert!(tied, "no tie among the answers");
}
