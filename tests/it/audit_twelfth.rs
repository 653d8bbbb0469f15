//! What a twelfth audit found, each kept closed here: a turn's `driftScore` (what Figure 2 and
//! the tables read) edited in a report that `verify` still called verified.

use crate::common::{pmb_session, read_json, tenure_eval_with};
use serde_json::Value;

/// Write `value` to `name` in `dir` and `verify` it (the report alone: no manifest beside it).
fn verify_edited(dir: &std::path::Path, name: &str, value: &Value) -> (Option<i32>, String) {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    let out = tenure_eval_with(&["verify", "--no-inputs"], &[&path]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `driftScore` means what its writer meant: in a report of ours the paper's noise share (with
/// PrecisionMemBench's 1 − precision beside it as `precisionDriftScore`), in PrecisionMemBench's
/// own reports 1 − precision, 0 where precision is null. `verify` checks each by its rule; the
/// published session reports, read as they are, still verify.
#[test]
fn verify_checks_a_turns_drift_by_the_rule_of_the_report_that_wrote_it() {
    let dir = tempfile::tempdir().unwrap();
    let ours: Value =
        serde_json::from_slice(&std::fs::read(pmb_session(dir.path())).unwrap()).unwrap();
    let (code, said) = verify_edited(dir.path(), "ours.json", &ours);
    assert_eq!(code, Some(0), "{said}");
    // A turn with nothing of noise: its noise share is 0, whatever its precision.
    let i = ours["cases"]
        .as_array()
        .unwrap()
        .iter()
        .position(|t| t["noiseBeliefIds"].as_array().unwrap().is_empty())
        .unwrap();
    let mut edited = ours.clone();
    edited["cases"][i]["driftScore"] = 0.3.into();
    let (code, said) = verify_edited(dir.path(), "ours-edited.json", &edited);
    assert_eq!(code, Some(1), "{said}");
    let expected = format!("$.cases[{i}].driftScore is 0.3 but the noise share of its lists");
    assert!(said.contains(&expected), "{said}");

    // PrecisionMemBench's published report of mem0 (a golden copy).
    let theirs = read_json("tests/golden/pmb-baseline/session-retrieval-report-mem0.json");
    let (code, said) = verify_edited(dir.path(), "mem0.json", &theirs);
    assert_eq!(code, Some(0), "{said}");
    let turn = &theirs["cases"][3];
    let precision = turn["retrievalPrecision"].as_f64().unwrap();
    assert!((turn["driftScore"].as_f64().unwrap() - (1.0 - precision)).abs() < 1e-12);
    let mut edited = theirs.clone();
    edited["cases"][3]["driftScore"] = 0.5.into();
    let (code, said) = verify_edited(dir.path(), "mem0-edited.json", &edited);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("$.cases[3].driftScore is 0.5 but 1 − its retrievalPrecision (0 when null)"),
        "{said}"
    );
}
