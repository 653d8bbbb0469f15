//! `tenure-eval models` as the field compares models: rank measures, a chance row (a random
//! vector per text) and each model's paired test against it; the built-in hashed bag of words
//! against MiniLM's store on pmb; the cosine similarity floor and its sweep.

use crate::common::{tenure_eval_ok, tenure_eval_with};
use serde_json::Value;

fn models_json(args: &[&str]) -> Vec<Value> {
    let out = tenure_eval_ok(
        &[
            &[
                "models", "--suite", "pmb", "--quiet", "--format", "json", "--out",
            ],
            args,
        ]
        .concat(),
        &[],
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn minilm_and_a_hashed_bag_of_words_differ_in_ndcg_and_chance_is_marked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let rows = models_json(&[
        out,
        "--model",
        "all-minilm-l6-v2",
        "--model",
        "hashed",
        "--model",
        "random:128",
    ]);
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["model"].as_str().unwrap_or("–"))
        .collect();
    assert_eq!(
        names,
        [
            "–",
            "all-minilm-l6-v2",
            "hashed-bow-384",
            "random-128",
            "random-384"
        ]
    );
    let ndcg = |i: usize| -> f64 {
        let m = rows[i]["measures"].as_array().unwrap();
        assert_eq!(m[0][0], "nDCG@10");
        m[0][1].as_f64().unwrap()
    };
    // Pass/fail cannot tell them apart (11/77 each: top-k cosine has no floor); nDCG@10 can.
    for i in 1..4 {
        assert_eq!(rows[i]["staticSummary"]["totalPassed"], 11, "{}", names[i]);
    }
    assert!(
        ndcg(1) > ndcg(2) + 0.05,
        "MiniLM {} vs hashed {}",
        ndcg(1),
        ndcg(2)
    );
    assert!(
        ndcg(2) > ndcg(4) + 0.2,
        "hashed {} vs chance {}",
        ndcg(2),
        ndcg(4)
    );
    let test = |i: usize| &rows[i]["vsChance"];
    assert_eq!(test(1)["distinguishable"], true);
    assert_eq!(test(2)["distinguishable"], true);
    // Another random model is chance too: not distinguishable.
    assert_eq!(test(3)["distinguishable"], false, "{}", test(3));
    assert!(test(3)["pAdjusted"].as_f64().unwrap() >= 0.05);
    assert!(
        rows[4]["vsChance"].is_null(),
        "the chance row is not tested against itself"
    );

    let md = tenure_eval_ok(
        &[
            "models",
            "--suite",
            "pmb",
            "--quiet",
            "--out",
            out,
            "--model",
            "hashed",
            "--model",
            "random:128",
        ],
        &[],
    );
    let text = String::from_utf8(md.stdout).unwrap();
    assert!(text.contains("| nDCG@10 | R@10 | RR"), "{text}");
    assert!(
        text.contains("**Not distinguishable from chance: random-128**"),
        "{text}"
    );
    assert!(text.contains("≈ chance (p = "), "{text}");
}

#[test]
fn a_cosine_floor_drops_hits_below_it_and_a_list_sweeps() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "pmb",
            "--backend",
            "cosine",
            "--cosine-floor",
            "0.4,0.5",
            "--quiet",
            "--out",
            out,
        ],
        &[],
    );
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "pmb",
            "--backend",
            "cosine",
            "--quiet",
            "--out",
            out,
        ],
        &[],
    );
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("pmb").join(name)).unwrap())
            .unwrap()
    };
    let none = read("all-minilm-l6-v2-retrieval-report-vector.json");
    let mut passed = vec![none["retrieval"]["totalPassed"].as_u64().unwrap()];
    for floor in [0.4, 0.5] {
        let report = read(&format!(
            "all-minilm-l6-v2-retrieval-report-vector-floor{floor}.json"
        ));
        let set = report["manifest"]["backendSettings"]["cosineFloor"]
            .as_f64()
            .unwrap();
        assert_eq!(set as f32, floor as f32);
        // Atlas's score is (1 + cos) / 2: a floor F keeps scores of at least (1 + F) / 2.
        let min = (1.0 + floor) / 2.0;
        for entry in report["cases"].as_array().unwrap() {
            for hit in entry["searchScores"].as_array().into_iter().flatten() {
                let score = hit["score"].as_f64().unwrap();
                // Score 0: a belief the context builder added by relation expansion, not a
                // search hit.
                if score == 0.0 {
                    continue;
                }
                assert!(score >= min - 1e-3, "{floor}: {score}");
            }
        }
        passed.push(report["retrieval"]["totalPassed"].as_u64().unwrap());
    }
    // A floor lets cosine return nothing where nothing is expected: more passes than none.
    assert!(passed[1] > passed[0] && passed[2] > passed[0], "{passed:?}");
    let bad = tenure_eval_with(
        &[
            "run",
            "--suite",
            "pmb",
            "--backend",
            "bm25",
            "--cosine-floor",
            "0.4",
        ],
        &[],
    );
    assert_eq!(bad.status.code(), Some(2), "the floor is cosine's");
}

#[test]
fn the_table_comes_as_csv_and_latex_with_the_json_rows_figures() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let args = [
        "models", "--suite", "pmb", "--quiet", "--model", "hashed", "--out", out,
    ];
    let rows = models_json(&[out, "--model", "hashed"]);
    let csv = tenure_eval_ok(&[&args[..], &["--format", "csv"]].concat(), &[]);
    let csv = String::from_utf8(csv.stdout).unwrap();
    assert!(csv.starts_with("table,row,column,value\n"), "{csv}");
    // Each model row's nDCG@10 in the CSV is the JSON row's, at two decimals.
    for (i, row) in rows.iter().enumerate() {
        let ndcg = row["measures"]
            .as_array()
            .and_then(|m| m.iter().find(|p| p[0] == "nDCG@10"))
            .map(|p| p[1].as_f64().unwrap())
            .unwrap_or_else(|| panic!("{row}"));
        let line = format!(",{},nDCG@10,{ndcg:.2}\n", i + 1);
        assert!(csv.contains(&line), "{line:?} not in\n{csv}");
    }
    // With no note under it, the verdict's column names the measure tested (the first).
    assert!(csv.contains(",1,vs chance (nDCG@10),"), "{csv}");
    let latex = tenure_eval_ok(&[&args[..], &["--format", "latex"]].concat(), &[]);
    let latex = String::from_utf8(latex.stdout).unwrap();
    assert!(
        latex.contains("\\begin{table") && latex.contains("nDCG@10"),
        "{latex}"
    );
    assert!(latex.contains("Embedding models"), "{latex}");
}

/// A floor sweep's rows are each tested against chance at their own floor: a random vector per
/// text with the same floor, since a floor drops chance's hits as it drops a model's.
#[test]
fn a_floor_sweeps_chance_rows_carry_the_floor_and_each_row_is_tested_against_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let rows = models_json(&[out, "--model", "hashed", "--cosine-floor", "0.3,0.5"]);
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["model"].as_str().unwrap_or("–"))
        .collect();
    assert_eq!(
        names,
        [
            "–",
            "hashed-bow-384-floor0.3",
            "hashed-bow-384-floor0.5",
            "random-384",
            "random-384-floor0.3",
            "random-384-floor0.5"
        ],
        "{rows:?}"
    );
    let ndcg = |r: &Value| r["measures"][0][1].as_f64().unwrap();
    for (row, chance) in [(0, 3), (1, 4), (2, 5)] {
        let test = &rows[row]["vsChance"];
        let difference = test["meanDifference"].as_f64().unwrap();
        assert!(
            (difference - (ndcg(&rows[row]) - ndcg(&rows[chance]))).abs() < 1e-9,
            "row {row} against chance row {chance}: {test}"
        );
    }
    for chance in &rows[3..] {
        assert!(chance["vsChance"].is_null(), "{chance}");
    }
}
