//! Input files from a shell: a pipe (`<(...)`), `/dev/stdin` and `-` are read to their end, as
//! every Unix tool reads them; one input at a time may come from stdin; only what cannot be
//! read (a folder) is refused.

use crate::common::repo;
use std::process::Command;

fn bash(script: &str) -> std::process::Output {
    Command::new("bash")
        .args(["-c", script])
        .env("B", env!("CARGO_BIN_EXE_tenure-eval"))
        .current_dir(repo(""))
        .output()
        .unwrap()
}

#[test]
fn a_process_substitution_and_stdin_are_inputs() {
    let ok = bash(
        "\"$B\" validate --corpus <(cat seeds/pmb/beliefs.seed.json) --cases - \
         < cases/pmb/retrieval.cases.json",
    );
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(stdout.contains("35 beliefs, 77 static cases"), "{stdout}");
    // /dev/stdin is stdin too.
    let dev = bash(
        "cat seeds/pmb/beliefs.seed.json | \"$B\" validate --corpus /dev/stdin \
         --cases cases/pmb/retrieval.cases.json",
    );
    assert!(
        dev.status.success(),
        "{}",
        String::from_utf8_lossy(&dev.stderr)
    );
    // Two inputs from one stdin: the second is refused by name, exit 2.
    let twice = bash("\"$B\" validate --corpus - --cases - < seeds/pmb/beliefs.seed.json");
    let stderr = String::from_utf8_lossy(&twice.stderr);
    assert_eq!(twice.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("standard input was read already"),
        "{stderr}"
    );
    // A folder cannot be read.
    let folder = bash("\"$B\" validate --corpus seeds --cases cases/pmb/retrieval.cases.json");
    let stderr = String::from_utf8_lossy(&folder.stderr);
    assert_eq!(folder.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("seeds: file: cannot read file: it is a folder"),
        "{stderr}"
    );
}
