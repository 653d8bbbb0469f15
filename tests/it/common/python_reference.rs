//! Drives `scripts/embed_reference.py` (Python onnxruntime on a model folder) and
//! `scripts/mpnet_reference.py` (all-mpnet-base-v2 in plain numpy) with the venv's Python
//! (`TENURE_EVAL_PYTHON`). Shared by tests/onnx.rs and benches/embed_throughput.rs.

use std::path::Path;
use std::process::{Command, Stdio};

/// Run the reference on `model` with `args`, feeding `texts`; its JSON answer.
pub fn run(model: &Path, args: &[&str], texts: &[&str]) -> serde_json::Value {
    drive("embed_reference.py", model, args, texts)
}

/// all-mpnet-base-v2's vectors of `texts` by the numpy forward over `source` (the
/// sentence-transformers folder holding model.safetensors).
#[allow(dead_code)] // the bench binary shares this module and uses only `run`
pub fn mpnet(source: &Path, texts: &[&str]) -> Vec<Vec<f32>> {
    serde_json::from_value(drive("mpnet_reference.py", source, &[], texts)["vectors"].take())
        .unwrap()
}

fn drive(script: &str, model: &Path, args: &[&str], texts: &[&str]) -> serde_json::Value {
    let python = std::env::var_os("TENURE_EVAL_PYTHON").expect("TENURE_EVAL_PYTHON is not set");
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(script);
    let mut child = Command::new(python)
        .arg(&script)
        .arg(model)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = serde_json::to_vec(&serde_json::json!({ "texts": texts })).unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), &input).unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{} failed on {}",
        script.display(),
        model.display()
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
