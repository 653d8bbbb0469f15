//! The journal read back: the last word on a case wins, a torn line is survived, another run's
//! journal is named by its first difference.

use super::*;
use crate::backend::{ErrorKind, Reader, ScoreScale};
use std::path::PathBuf;

fn header() -> Header {
    Header {
        format: FORMAT,
        tool_version: "0.0.0".into(),
        kind: "static".into(),
        suite: "pmb".into(),
        profile: "head".into(),
        inputs: vec![("cases".into(), "abc".into())],
        total: 3,
        label: None,
        shard: None,
        started_at: None,
    }
}

fn built(settle: u64, url: &str) -> Built {
    Built {
        backend: BackendInfo {
            id: "http".into(),
            provider: "toy".into(),
            label: "toy".into(),
            model: None,
            text_policy: None,
            file_prefix: None,
            paper_primary: false,
            reader: Reader::External,
            score_scale: ScoreScale::None,
            tag: None,
            upstream_exact: false,
        },
        settings: serde_json::json!({"url": url, "settleMs": settle}),
        belief_count: 2,
        total_ms: 1.0,
        seeding: None,
        second_look: false,
    }
}

fn entry(i: usize, error: bool) -> Entry {
    Entry {
        i,
        id: format!("case-{i}"),
        calls: vec![Call {
            text: "redis".into(),
            hits: vec![Hit {
                id: "b-1".into(),
                score: Some(1.25),
                explanation: None,
            }],
        }],
        error: error.then(|| CaseError {
            kind: ErrorKind::Transient,
            message: "refused".into(),
            attempts: 3,
        }),
        mutation_error: None,
        latency_ms: 2.5,
        search_ms: Some(1.5),
        retries: 0,
    }
}

fn written(lines: &[Line], tail: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.jsonl");
    let mut w = JournalWriter::open(&path, false).unwrap();
    for line in lines {
        w.write(line).unwrap();
    }
    drop(w);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(tail);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn a_rerun_case_replaces_its_error_and_an_end_clears_the_stop() {
    let (_dir, path) = written(
        &[
            Line::Header(header()),
            Line::Built(built(0, "http://a")),
            Line::Case(entry(0, false)),
            Line::Case(entry(1, true)),
            Line::Stopped(Stopped {
                at: "case-1".into(),
                reason: "interrupted".into(),
            }),
            Line::Built(built(0, "http://a")),
            Line::Case(entry(1, false)),
            Line::Case(entry(2, false)),
            Line::End(End {
                backend_stats: None,
                rerun_failed: None,
            }),
        ],
        "",
    );
    let r = Recorded::read(&path).unwrap();
    assert_eq!(r.entries.len(), 3);
    assert_eq!(r.errored(), 0);
    assert!(r.stopped.is_none() && r.end.is_some());
    assert_eq!(r.entries[&1], entry(1, false));
}

#[test]
fn a_torn_last_line_is_ignored_and_a_bad_middle_line_is_an_error_naming_it() {
    let lines = [
        Line::Header(header()),
        Line::Built(built(0, "http://a")),
        Line::Case(entry(0, false)),
    ];
    let (_dir, path) = written(&lines, "{\"case\":{\"i\":1,\"id\":\"ca");
    let r = Recorded::read(&path).unwrap();
    assert_eq!(r.entries.len(), 1);
    // Torn, then the stop the Ctrl-C handler appends on a line of its own.
    let (_dir, path) = written(
        &lines,
        "{\"case\":{\"i\":1\n{\"stopped\":{\"at\":\"case-0\",\"reason\":\"interrupted\"}}\n",
    );
    let r = Recorded::read(&path).unwrap();
    assert_eq!(r.stopped.unwrap().at, "case-0");
    // Torn in the middle, with cases after it: not a kill, a damaged file.
    let (_dir, path) = written(&lines, "{\"case\":{\"i\":1\n{\"end\":{}}\n");
    let e = Recorded::read(&path).unwrap_err().to_string();
    assert!(
        e.contains("line 4") && e.contains("not a journal line"),
        "{e}"
    );
}

#[test]
fn another_runs_journal_is_named_by_its_first_difference_and_driving_settings_do_not_count() {
    let (_dir, path) = written(
        &[Line::Header(header()), Line::Built(built(0, "http://a"))],
        "",
    );
    let r = Recorded::read(&path).unwrap();
    assert_eq!(r.differs(&header(), &built(0, "http://b:9")), None);
    assert_eq!(
        r.differs(&header(), &built(50, "http://a")).unwrap(),
        "settings.settleMs: journal 0, now 50"
    );
    let mut other = header();
    other.inputs[0].1 = "def".into();
    assert_eq!(
        r.differs(&other, &built(0, "http://a")).unwrap(),
        "inputs: journal [[\"cases\",\"abc\"]], now [[\"cases\",\"def\"]]"
    );
}

#[test]
fn another_format_is_refused() {
    let mut h = header();
    h.format = 2;
    let (_dir, path) = written(&[Line::Header(h)], "");
    let e = Recorded::read(&path).unwrap_err().to_string();
    assert!(e.contains("journal format 2"), "{e}");
}
