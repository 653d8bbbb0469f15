//! Drives `scripts/rank_reference.py` (ir_measures, scipy) with the venv's Python
//! (`TENURE_EVAL_PYTHON`): the reference values of the rank-metric and significance tests.

use std::path::Path;
use std::process::{Command, Stdio};

/// Ask `scripts/rank_reference.py` (ir_measures, scipy) for `request`; its JSON answer.
pub fn rank_reference(request: &serde_json::Value) -> serde_json::Value {
    let python = std::env::var_os("TENURE_EVAL_PYTHON").expect("TENURE_EVAL_PYTHON is not set");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/rank_reference.py");
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = serde_json::to_vec(request).unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), &input).unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "rank_reference.py failed on {request}"
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
