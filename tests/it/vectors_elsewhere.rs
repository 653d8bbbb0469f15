//! Vectors computed elsewhere, the round trip a researcher makes: `embed --export-texts` lists
//! every text a suite needs (here PMB, whose sessions change a belief's text mid-session),
//! Python onnxruntime computes MiniLM vectors for exactly those texts (`scripts/embed_reference.py`,
//! saved as numpy's default float64), `embed --import-vectors` takes them (converting, and
//! saying so) and reports no text missing, and the run needs nothing more. A partial import
//! says how many texts still lack a vector and which command lists them, and that command lists
//! exactly those. Needs what `tests/it/service.rs` needs.

use crate::common::{builtin, repo, tenure_eval};
use serde_json::Value;
use std::path::Path;
use tenure_eval::embed::{needed_texts, TextPolicy};

fn ok(out: &std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Embed each exported text with the reference embedder; write the rows as float64 `.npy`.
fn embed_elsewhere(python: &Path, model: &Path, texts: &Path, npy: &Path) {
    let script = format!(
        "import json, sys, numpy as np\n\
         sys.path.insert(0, {scripts:?})\n\
         from embed_reference import Embedder\n\
         rows = [json.loads(l) for l in open({texts:?}, encoding='utf-8')]\n\
         v = Embedder({model:?}, 1).embed([r['text'] for r in rows], 32)\n\
         np.save({npy:?}, v.astype(np.float64))\n",
        scripts = repo("scripts").to_str().unwrap(),
        texts = texts.to_str().unwrap(),
        model = model.to_str().unwrap(),
        npy = npy.to_str().unwrap(),
    );
    let status = std::process::Command::new(python)
        .args(["-c", &script])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn exported_texts_embedded_elsewhere_import_and_run_with_nothing_missing() {
    let Some((model, python)) = crate::service::setup() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let texts = dir.path().join("texts.jsonl");
    ok(&tenure_eval(&[
        "embed",
        "--export-texts",
        "--suite",
        "pmb",
        "--out",
        &p("texts.jsonl"),
    ]));
    // Every text the run needs, each once, with its role and policy.
    let suite = builtin("pmb");
    let policy = TextPolicy::of(suite.profile);
    let needed = needed_texts(&suite, policy);
    // `--suite pmb` covers both of its copies: Tenure's texts, then those of PrecisionMemBench's
    // copy (what the http backend and `serve` run) that Tenure's lacks: one belief's text.
    let harness = suite
        .harness_copy()
        .unwrap()
        .expect("pmb has PrecisionMemBench's copy");
    let mut both = needed.clone();
    for t in needed_texts(&harness, policy) {
        if !both.contains(&t) {
            both.push(t);
        }
    }
    assert_eq!(both.len(), needed.len() + 1);
    let exported = lines(&texts);
    assert_eq!(exported.len(), both.len());
    // No blank text: no search is made for a blank message, and services refuse to embed one.
    // The run below, with pmb's empty and whitespace-only messages, still misses no vector.
    assert!(
        exported
            .iter()
            .all(|l| !l["text"].as_str().unwrap().trim().is_empty()),
        "a blank text was exported"
    );
    for (line, t) in exported.iter().zip(&both) {
        assert_eq!(line["text"], t.text.as_str());
        assert_eq!(line["role"], t.role.name());
        assert_eq!(line["policy"], policy.name(t.role));
    }
    // The texts file --import-vectors takes for a .npy: the same records, as a JSON list.
    std::fs::write(p("texts.json"), Value::from(exported.clone()).to_string()).unwrap();
    embed_elsewhere(&python, &model, &texts, Path::new(&p("v.npy")));
    let stores = p("stores");
    let stderr = ok(&tenure_eval(&[
        "embed",
        "--model",
        "elsewhere",
        "--suite",
        "pmb",
        "--store-dir",
        &stores,
        "--import-vectors",
        &p("v.npy"),
        "--texts",
        &p("texts.json"),
    ]));
    assert!(
        stderr.contains("float64") && stderr.contains("converted to float32"),
        "{stderr}"
    );
    let all = format!(
        "0 of its {} needed texts still have no vector",
        needed.len()
    );
    assert!(stderr.contains(&all), "{stderr}");
    let reports = tempfile::tempdir().unwrap();
    ok(&tenure_eval(&[
        "run",
        "--suite",
        "pmb",
        "--backend",
        "cosine",
        "--quiet",
        "--model",
        "elsewhere",
        "--store-dir",
        &stores,
        "--out",
        reports.path().to_str().unwrap(),
    ]));
    let report: Value = serde_json::from_slice(
        &std::fs::read(
            reports
                .path()
                .join("pmb/elsewhere-retrieval-report-vector.json"),
        )
        .unwrap(),
    )
    .unwrap();
    // MiniLM computed in Python passes what the built-in MiniLM store passes (11 of 77).
    assert_eq!(
        report["retrieval"]["totalPassed"], 11,
        "{}",
        report["retrieval"]
    );

    // A partial import: every text but the first. The line says one is missing and names the
    // command that lists it; that command lists exactly it.
    let jsonl: String = exported[1..]
        .iter()
        .map(|l| {
            let mut l = l.clone();
            l["vector"] = Value::from(vec![0.5f32; 384]);
            format!("{l}\n")
        })
        .collect();
    std::fs::write(p("partial.jsonl"), jsonl).unwrap();
    let stderr = ok(&tenure_eval(&[
        "embed",
        "--model",
        "partial",
        "--suite",
        "pmb",
        "--store-dir",
        &stores,
        "--import-vectors",
        &p("partial.jsonl"),
    ]));
    let command = format!(
        "`tenure-eval embed --export-texts --missing --suite pmb --model partial --store-dir \
         {stores} --out missing.jsonl` lists them"
    );
    let line = format!(
        "1 of its {} needed texts still have no vector; {command}",
        needed.len()
    );
    assert!(stderr.contains(&line), "{stderr}");
    // pmb's two copies are two lines, each naming its copy (both said "suite pmb").
    for copy in [
        "tenurehq/tenure dc348a8): ",
        "tenurehq/precisionMemBench 18c7955): ",
    ] {
        assert_eq!(stderr.matches(copy).count(), 1, "{stderr}");
    }
    ok(&tenure_eval(&[
        "embed",
        "--export-texts",
        "--missing",
        "--suite",
        "pmb",
        "--model",
        "partial",
        "--store-dir",
        &stores,
        "--out",
        &p("missing.jsonl"),
    ]));
    assert_eq!(lines(Path::new(&p("missing.jsonl"))), [exported[0].clone()]);

    // A custom suite's hint names its files, never the refused `--suite custom`.
    let out = tenure_eval(&[
        "run",
        "--corpus",
        "seeds/pmb/beliefs.seed.json",
        "--cases",
        "cases/pmb/retrieval.cases.json",
        "--backend",
        "cosine",
        "--model",
        "partial",
        "--store-dir",
        &stores,
        "--out",
        reports.path().to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--export-texts --corpus seeds/pmb/beliefs.seed.json --cases cases/pmb/retrieval.cases.json")
            && !stderr.contains("--suite custom"),
        "{stderr}"
    );

    // A .npy without --texts: what is missing, not "invalid UTF-8".
    let out = tenure_eval(&[
        "embed",
        "--model",
        "x",
        "--store-dir",
        &stores,
        "--import-vectors",
        &p("v.npy"),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a .npy matrix holds no texts: give --texts"),
        "{stderr}"
    );
}
