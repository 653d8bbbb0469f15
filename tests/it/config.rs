//! `tenure-eval.toml` (issue 36): a bare command runs what the nearest file says, a flag on the
//! command line wins, and a bad file is exit 2 naming the file, the line and the key.

use crate::common::cli;
use serde_json::Value;
use std::path::Path;

/// `tenure-eval ARGS` run from `dir`.
fn from(dir: &Path, args: &[&str]) -> std::process::Output {
    cli(args).current_dir(dir).output().unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn backends_of(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("reports/pmb"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("retrieval-report-"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_bare_run_runs_what_the_nearest_file_says_and_the_command_line_wins() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tenure-eval.toml");
    std::fs::write(
        &file,
        "[defaults]\nquiet = true\n\n[run]\nsuite = \"pmb\"\nbackend = [\"bm25\", \"bm25-text\"]\nout = \"reports\"\n",
    )
    .unwrap();
    // From a subfolder: the file is found in the parent, and `out` is read from where the
    // command runs.
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let o = from(&sub, &["run"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "quiet = true from [defaults]");
    assert_eq!(
        backends_of(&sub),
        [
            "retrieval-report-bm25-text.json",
            "retrieval-report-tenure.json"
        ]
    );
    // The manifest records the file and its bytes' sha256.
    let report: Value = serde_json::from_slice(
        &std::fs::read(sub.join("reports/pmb/retrieval-report-tenure.json")).unwrap(),
    )
    .unwrap();
    let sha = tenure_eval::io::sha256_hex(&std::fs::read(&file).unwrap());
    assert_eq!(report["manifest"]["config"]["sha256"], sha.as_str());
    assert!(report["manifest"]["config"]["path"]
        .as_str()
        .unwrap()
        .ends_with("tenure-eval.toml"));

    // --backend on the command line wins: only BM25 runs.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let o = from(&other, &["run", "--backend", "bm25"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(backends_of(&other), ["retrieval-report-tenure.json"]);

    // `config` says where each setting comes from.
    let o = from(&sub, &["config", "run"]);
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("backend ="))
        .unwrap();
    assert!(
        line.contains("[\"bm25\", \"bm25-text\"]") && line.ends_with("tenure-eval.toml:6 [run]"),
        "{line}"
    );
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("quiet ="))
        .unwrap();
    assert!(line.ends_with("tenure-eval.toml:2 [defaults]"), "{line}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("max-errors = 10") && l.ends_with("default")),
        "{text}"
    );
    // --config none: no file; the built-in default (bm25 to reports/) runs.
    let none = dir.path().join("none");
    std::fs::create_dir(&none).unwrap();
    let o = from(
        &none,
        &["run", "--config", "none", "--quiet", "--out", "reports"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(backends_of(&none), ["retrieval-report-tenure.json"]);
}

#[test]
fn a_bad_file_is_exit_2_naming_the_file_the_line_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |text: &str, said: &[&str]| {
        let file = dir.path().join("tenure-eval.toml");
        std::fs::write(&file, text).unwrap();
        let o = from(dir.path(), &["run", "--out", "reports"]);
        assert_eq!(o.status.code(), Some(2), "{text}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(&file.display().to_string()), "{e}");
        for s in said {
            assert!(e.contains(s), "{text}: expected {s:?} in {e}");
        }
        assert!(!dir.path().join("reports").exists(), "nothing ran");
    };
    refused(
        "[run]\nsuite = \"pmb\"\nbakend = [\"bm25\"]\n",
        &[
            "line 3, [run] bakend",
            "is not a flag of `run`; did you mean `backend`?",
        ],
    );
    refused(
        "[run]\nbackend = [\"bm26\"]\n",
        &["line 2, [run] backend", "invalid value 'bm26'"],
    );
    refused(
        "[run]\nquiet = \"yes\"\n",
        &["line 2, [run] quiet", "is a switch"],
    );
    refused("[runn]\nquiet = true\n", &["[runn]", "not a command"]);
    refused("[run]\nconcurrency = 0\n", &["line 2, [run] concurrency"]);
    refused("[run\n", &["line 1"]);
    // A [defaults] key no command has (a typo: the flag is min-score) was left to "the
    // commands that have it", none, and ignored by all.
    refused(
        "[defaults]\nmin_score = 8\n",
        &[
            "line 2, [defaults] min_score",
            "is not a flag of any command",
        ],
    );
}

/// A setting of the file that a command would ignore is said on stderr, with its line and
/// table, and left (one file serves many commands and runs); the same flag given on the command
/// line is refused. An audit found `[run] backend` ignored by `run --replay`, and `[static]
/// model` by a BM25 run, without a word.
#[test]
fn a_setting_the_command_does_not_use_is_said_and_the_flag_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tenure-eval.toml"),
        "[static]\nsuite = \"pmb\"\nbackend = [\"bm25\"]\nmodel = \"hashed:64\"\nout = \"reports\"\n\n\
         [run]\nsuite = \"pmb\"\nbackend = [\"bm25-text\"]\nout = \"reports\"\n",
    )
    .unwrap();
    let o = from(dir.path(), &["static", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "tenure-eval.toml line 4, [static] model = \"hashed:64\": not used by this command \
             (--model applies to --backend cosine"
        ),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o).matches("note:").count(), 1, "said once");
    let o = from(dir.path(), &["static", "--quiet", "--model", "hashed:64"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--model applies to"), "{}", stderr(&o));

    // A replay re-scores the recording's backends: the file's `backend` is not used, said.
    let o = from(dir.path(), &["run", "--quiet", "--record", "rec"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = from(dir.path(), &["run", "--quiet", "--replay", "rec"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "line 9, [run] backend = [\"bm25-text\"]: not used by this command (--replay \
             re-scores the recording's own backends"
        ),
        "{}",
        stderr(&o)
    );
    let o = from(
        dir.path(),
        &["run", "--quiet", "--replay", "rec", "--backend", "bm25"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// A model named twice is refused wherever it was named; named twice by the file, the refusal
/// names the file's line (it said "--model hashed is given twice" of a flag never typed).
#[test]
fn a_model_twice_in_the_file_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tenure-eval.toml"),
        "[models]\nsuite = \"pmb\"\nmodel = [\"hashed\", \"hashed\"]\n",
    )
    .unwrap();
    let o = from(dir.path(), &["models", "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--model hashed is given twice (")
            && stderr(&o).contains(
                "tenure-eval.toml line 3, [models] model = [\"hashed\", \"hashed\"]): each \
                 model runs once"
            ),
        "{}",
        stderr(&o)
    );
}

/// A label the file set, refused with two backends, names the file's line: "--label names
/// one run" of a flag never typed left the user to find where it came from.
#[test]
fn a_label_from_the_file_refused_with_two_backends_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tenure-eval.toml"),
        "[defaults]\nlabel = \"nightly\"\n",
    )
    .unwrap();
    let o = from(
        dir.path(),
        &[
            "run",
            "--suite",
            "pmb",
            "--backend",
            "bm25,bm25-text",
            "--quiet",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2 backends are chosen")
            && stderr(&o).contains("tenure-eval.toml line 2, [defaults] label = \"nightly\")"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path().join("reports").exists(), "nothing written");
    // Given on the command line, the refusal names no file.
    let o = from(
        dir.path(),
        &[
            "run",
            "--suite",
            "pmb",
            "--backend",
            "bm25,bm25-text",
            "--label",
            "x",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("tenure-eval.toml"), "{}", stderr(&o));
}

/// A command with subcommands (`temporal`) has no flags of its own, and a config file sets
/// top-level commands' flags: a `[defaults]` setting its subcommands take was skipped in
/// silence (`temporal eval` printed markdown under `format = "json"`), and `[temporal]` was
/// refused as "not a flag of `temporal` (its flags: )". The first is said, the second names
/// the subcommands.
#[test]
fn a_setting_for_a_commands_subcommands_is_said_or_refused_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tenure-eval.toml");
    std::fs::write(
        dir.path().join("s.jsonl"),
        "{\"id\":\"a\",\"text\":\"It is bad.\"}\n",
    )
    .unwrap();
    std::fs::write(&file, "[defaults]\nformat = \"json\"\n").unwrap();
    let o = from(dir.path(), &["temporal", "classify", "s.jsonl"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 2, [defaults] format: not used by `temporal`"),
        "{}",
        stderr(&o)
    );
    // A key only a subcommand has is no typo; a typo is still one, under `temporal` too.
    std::fs::write(&file, "[defaults]\nlivechat = \"x\"\n").unwrap();
    let o = from(dir.path(), &["validate", "--suite", "pmb"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(&file, "[defaults]\nmin_score = 2\n").unwrap();
    let o = from(dir.path(), &["temporal", "classify", "s.jsonl"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not a flag of any command"),
        "{}",
        stderr(&o)
    );
    std::fs::write(&file, "[temporal]\nformat = \"json\"\n").unwrap();
    let o = from(dir.path(), &["temporal", "classify", "s.jsonl"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`temporal` takes its flags in its subcommands (classify, eval"),
        "{}",
        stderr(&o)
    );
}
