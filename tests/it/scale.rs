//! `tenure-eval scale`: a store no larger than the suite is the suite (77/77, precision 1);
//! grown stores are generated deterministically (same seed, same outcomes) and searched.

use crate::common::tenure_eval_ok;
use serde_json::Value;

fn rows(sizes: &str, seed: &str) -> Vec<Value> {
    let out = tenure_eval_ok(
        &[
            "scale",
            "--suite",
            "pmb",
            "--sizes",
            sizes,
            "--seed",
            seed,
            "--queries",
            "50",
            "--format",
            "json",
            "--quiet",
        ],
        &[],
    );
    serde_json::from_slice::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// The fields that are not measurements.
fn outcome(row: &Value) -> Value {
    let mut row = row.clone();
    for key in [
        "buildMs",
        "searchP50Us",
        "searchP95Us",
        "caseP50Ms",
        "peakRssMib",
    ] {
        assert!(row.as_object_mut().unwrap().remove(key).is_some(), "{key}");
    }
    row
}

#[test]
fn the_suite_alone_reproduces_bm25_and_grown_stores_are_deterministic() {
    let a = rows("35,3k", "7");
    assert_eq!(a.len(), 2);
    // 35 beliefs: the pmb corpus itself, nothing generated.
    assert_eq!(a[0]["beliefs"], 35);
    assert_eq!(
        (a[0]["passed"].as_u64(), a[0]["cases"].as_u64()),
        (Some(77), Some(77))
    );
    assert_eq!(a[0]["precision"], 1.0);
    assert_eq!(a[1]["beliefs"], 3000);
    assert_eq!(a[1]["queries"], 50);
    assert_eq!(a[1]["recall"], 1.0);
    if cfg!(target_os = "linux") {
        assert!(a[1]["peakRssMib"].as_f64().unwrap() > 1.0);
    }
    // Same seed, same store, same outcome; another seed, another store.
    let b = rows("3k", "7");
    assert_eq!(outcome(&a[1]), outcome(&b[0]));
    let c = rows("3k", "8");
    assert_eq!(c[0]["beliefs"], 3000);
    assert!(c[0]["passed"].as_u64().unwrap() <= 77);
}
