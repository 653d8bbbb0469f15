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

/// One `rank_reference.py --lines` process answering many requests in turn.
pub struct RankReference {
    child: std::process::Child,
    answers: std::io::BufReader<std::process::ChildStdout>,
}

impl RankReference {
    pub fn start() -> RankReference {
        let python = std::env::var_os("TENURE_EVAL_PYTHON").expect("TENURE_EVAL_PYTHON is not set");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/rank_reference.py");
        let mut child = Command::new(python)
            .arg(script)
            .arg("--lines")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let answers = std::io::BufReader::new(child.stdout.take().unwrap());
        RankReference { child, answers }
    }

    /// The answer to `request`, as [`rank_reference`] gives it.
    pub fn ask(&mut self, request: &serde_json::Value) -> serde_json::Value {
        use std::io::{BufRead, Write};
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{request}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        self.answers.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "rank_reference.py failed on {request}");
        serde_json::from_str(&line).unwrap()
    }
}

impl Drop for RankReference {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}
