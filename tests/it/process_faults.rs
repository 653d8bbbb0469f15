//! Process faults during report writes, through the real binary: a signal removes the
//! temporary file in flight (exit 130, no report), a kill -9's leftover is swept by the next
//! write into the folder, a torn or mixed report/manifest pair is caught by `verify`, and
//! concurrent runs into one folder leave consistent pairs. The environment variable
//! `TENURE_EVAL_FAULT_WRITE_DELAY_MS` holds each write between its temporary file and the
//! rename, so the fault lands at that point every time.

use crate::common::repo;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn spawn(args: &[&str], delay_ms: u64) -> Child {
    crate::common::cli(&[])
        .args(args)
        .current_dir(repo(""))
        .env("TENURE_EVAL_FAULT_WRITE_DELAY_MS", delay_ms.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn temp_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    name.starts_with(".tenure-eval-") && name.ends_with(".tmp")
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Wait until a temporary file appears in `dir` (the child is inside a write).
fn wait_for_temp(dir: &Path) -> PathBuf {
    let start = Instant::now();
    loop {
        if let Some(tmp) = temp_files(dir).pop() {
            return tmp;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no write started in {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// `static --suite pmb` into a new folder, each write held 10 s before its rename.
fn pmb_run_held_in_its_write() -> (tempfile::TempDir, Child) {
    let out = tempfile::tempdir().unwrap();
    let args = [
        "static",
        "--suite",
        "pmb",
        "--quiet",
        "--out",
        out.path().to_str().unwrap(),
    ];
    let child = spawn(&args, 10_000);
    (out, child)
}

#[test]
fn a_signal_during_a_write_removes_the_temporary_file_and_exits_130() {
    for name in ["INT", "TERM"] {
        let (out, child) = pmb_run_held_in_its_write();
        let dir = out.path().join("pmb");
        let tmp = wait_for_temp(&dir);
        signal(&child, name);
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(130), "SIG{name}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("interrupted"));
        assert!(!tmp.exists(), "SIG{name}: {} left behind", tmp.display());
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(
            left,
            Vec::<std::ffi::OsString>::new(),
            "SIG{name}: no report, no temporary file"
        );
    }
}

#[test]
fn a_kill_9_leftover_is_swept_by_the_next_write_and_a_live_runs_file_is_not() {
    let (out, mut child) = pmb_run_held_in_its_write();
    let dir = out.path().join("pmb");
    let leftover = wait_for_temp(&dir);
    child.kill().unwrap(); // SIGKILL: nothing can clean up
    child.wait().unwrap();
    assert!(leftover.exists());
    // A temporary file of a process that still runs (this test) is another run's: kept.
    let live = dir.join(format!(".tenure-eval-{}-live.tmp", std::process::id()));
    std::fs::write(&live, b"partial").unwrap();

    let output = crate::common::cli(&[])
        .args([
            "static",
            "--suite",
            "pmb",
            "--quiet",
            "--out",
            out.path().to_str().unwrap(),
        ])
        .current_dir(repo(""))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(!leftover.exists(), "the dead run's temporary file is swept");
    assert!(live.exists(), "a live run's temporary file is left alone");
    assert!(dir.join("retrieval-report-tenure.json").is_file());
}

/// The paper suite as custom files, all its cases or all but the last (two runs that write
/// the same report path with other contents); the suite arguments.
fn paper_files(dir: &Path, all: bool) -> Vec<String> {
    let mut cases = crate::common::read_json("cases/paper/retrieval.cases.json");
    if !all {
        cases.as_array_mut().unwrap().pop();
    }
    let cases_path = dir.join(if all { "all.json" } else { "fewer.json" });
    std::fs::write(&cases_path, cases.to_string()).unwrap();
    let corpus = repo("seeds/paper/beliefs.seed.json");
    [
        "--corpus",
        corpus.to_str().unwrap(),
        "--cases",
        cases_path.to_str().unwrap(),
        "--profile",
        "paper",
    ]
    .map(str::to_string)
    .to_vec()
}

/// Run the static cases of `suite` into `out`: a report and its sidecar manifest.
fn paper_pair(out: &Path, suite: &[String]) -> (PathBuf, PathBuf) {
    let args: Vec<&str> = suite.iter().map(String::as_str).collect();
    let output = crate::common::cli(&[])
        .args(
            [
                &["static", "--quiet", "--out", out.to_str().unwrap()],
                &args[..],
            ]
            .concat(),
        )
        .current_dir(repo(""))
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let dir = std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let report = report_in(&dir);
    let manifest = report.with_extension("manifest.json");
    assert!(manifest.is_file());
    (report, manifest)
}

/// The report in `dir` (not its sidecar manifest).
fn report_in(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p.to_string_lossy().ends_with(".manifest.json")
        })
        .unwrap()
}

fn verify(report: &Path) -> (i32, String) {
    let output = crate::common::cli(&[])
        .arg("verify")
        .arg(report)
        .current_dir(repo(""))
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    )
}

#[test]
fn a_report_paired_with_another_writes_manifest_fails_verify() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (report, manifest) = paper_pair(a.path(), &paper_files(a.path(), true));
    assert_eq!(verify(&report).0, 0, "{}", verify(&report).1);
    let recorded: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    assert_eq!(
        recorded["report"]["sha256"].as_str().unwrap(),
        tenure_eval::io::sha256_hex(&std::fs::read(&report).unwrap())
    );
    // The same report path from another run (one case fewer), and the first run's manifest
    // beside it: what a kill between the renames, or two runs, leave.
    let (other, _) = paper_pair(&b.path().join("out"), &paper_files(b.path(), false));
    std::fs::copy(&other, &report).unwrap();
    let (code, said) = verify(&report);
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("the pair comes from two different writes"),
        "{said}"
    );
}

#[test]
fn concurrent_runs_into_one_folder_leave_a_consistent_pair() {
    let files = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    for _ in 0..3 {
        let runs: Vec<Child> = [true, false]
            .into_iter()
            .map(|all| {
                let suite = paper_files(files.path(), all);
                let mut args = vec!["static", "--quiet", "--out", o];
                args.extend(suite.iter().map(String::as_str));
                spawn(&args, 150)
            })
            .collect();
        for run in runs {
            assert_eq!(run.wait_with_output().unwrap().status.code(), Some(0));
        }
        let dir = out.path().join("custom");
        let report = report_in(&dir);
        let (code, said) = verify(&report);
        assert_eq!(code, 0, "{said}");
        assert!(temp_files(&dir).is_empty());
    }
}
