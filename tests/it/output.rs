//! Output faults through the real binary: a full stdout is an error (exit 3, said on stderr),
//! a reader that went away ends the command quietly (exit 0), a closed or full stderr loses
//! messages but never aborts the run; no panic (exit 101) in any case.

use crate::common::repo;
use std::fs::OpenOptions;
use std::process::{Command, Stdio};

fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tenure-eval"));
    c.args(args).current_dir(repo(""));
    c
}

fn dev_full() -> std::fs::File {
    OpenOptions::new().write(true).open("/dev/full").unwrap()
}

#[test]
fn a_full_stdout_is_exit_3_with_a_message() {
    for args in [
        vec!["validate", "--suite", "pmb"],
        vec![
            "tables",
            "tests/golden/pmb-baseline/retrieval-report-mem0.json",
        ],
        vec![
            "verify",
            "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        ],
    ] {
        let out = command(&args).stdout(dev_full()).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("cannot write <stdout>"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_closed_stdout_is_a_quiet_exit_0() {
    let mut child = command(&["validate", "--suite", "pmb"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    // Its warnings about the suite still go to stderr; no error, no panic.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("error") && !stderr.contains("panicked"),
        "{stderr}"
    );
}

#[test]
fn a_full_stderr_does_not_abort_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = command(&[
        "run",
        "--suite",
        "pmb",
        "--out",
        dir.path().to_str().unwrap(),
    ])
    .stderr(dev_full())
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(dir
        .path()
        .join("pmb/retrieval-report-tenure.json")
        .is_file());
    assert!(String::from_utf8_lossy(&out.stdout).contains("| pmb "));
}
