//! Output faults through the real binary: a full stdout is an error (exit 3, said on stderr),
//! a reader that went away ends the command quietly (exit 0), a closed or full stderr loses
//! messages but never aborts the run; no panic (exit 101) in any case.

use crate::common::repo;
use std::fs::OpenOptions;
use std::process::{Command, Stdio};

fn command(args: &[&str]) -> Command {
    let mut c = crate::common::cli(&[]);
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

#[test]
fn special_files_are_written_through_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("summary.md");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("summary-link.md");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = command(&[
        "run",
        "--suite",
        "pmb",
        "--quiet",
        "--out",
        dir.path().to_str().unwrap(),
        "--junit",
        "/dev/null",
        "--summary-md",
        link.to_str().unwrap(),
    ])
    .output()
    .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // /dev/null is still the device (as root, a rename would have replaced it), the link is
    // still a link, and its target holds the summary.
    let null = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target).unwrap().contains("| pmb "));
}

#[test]
fn verify_does_not_hang_on_an_input_that_is_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let out = command(&[
        "static",
        "--suite",
        "pmb",
        "--quiet",
        "--out",
        dir.path().to_str().unwrap(),
    ])
    .output()
    .unwrap();
    assert!(out.status.success());
    let fifo = dir.path().join("corpus.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let path = dir.path().join("pmb/retrieval-report-tenure.json");
    let mut report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    report["manifest"]["inputs"][0]["path"] = fifo.to_str().unwrap().into();
    std::fs::write(&path, report.to_string()).unwrap();
    let mut child = command(&["verify", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("verify still running after 30 s on a FIFO input");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    // An input that cannot be read is the user's to fix (exit 2), not a mismatch (exit 1).
    let stderr = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("corpus.fifo (from this folder) cannot be read to check its sha256"),
        "{stderr}"
    );
}
