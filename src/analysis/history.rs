//! Run history: each run's summary appended to a folder (`--history DIR`), read back as one
//! series per run label, suite and kind, and the last two runs of each compared with the exact
//! McNemar test `compare` uses, so that a regression is flagged by the test, not by eye
//! (docs/history.md).
//!
//! The folder holds `history.jsonl`, one line per pass: when it ran (the report's `startedAt`),
//! its label, suite and kind, its profile and a digest of its input files, the system's commit
//! when given, every summary and rank measure, and each case's pass/fail (what the paired test
//! needs), with the report it came from. A series is one label, suite, kind, profile and set of
//! inputs: an audit found a run at another profile, and one on an edited corpus, read as the
//! system's regression of one series.

use crate::error::{Error, Result};
use crate::eval::stats::{mcnemar_exact, mean};
use crate::report::LoadedReport;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file in a history folder.
pub(crate) const FILE: &str = "history.jsonl";

/// One pass as history keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Entry {
    /// When it ran (RFC 3339; the report's `startedAt`).
    pub date: String,
    /// Its run label.
    pub label: String,
    /// The suite.
    pub suite: String,
    /// `static` or `session`.
    pub kind: String,
    /// The memory system's commit (`--commit`), when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The suite's profile, when the report records one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The first 12 hex digits of the sha256 of its input files' sha256s, sorted and joined
    /// by newlines; none for a built-in suite (`LoadedReport::recorded_inputs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<String>,
    /// The report it summarises.
    pub report: String,
    /// Every measure: `passRate`, `totalPassed`, `meanPrecision`, `meanRecall`, rank means.
    pub metrics: Vec<(String, f64)>,
    /// Each case (or `CASE turn N`) and whether it passed, in report order.
    pub cases: Vec<(String, bool)>,
}

impl Entry {
    /// The entry of `report`, run at the system's `commit`.
    pub(crate) fn of(report: &LoadedReport, commit: Option<&str>) -> Entry {
        let s = report.summary();
        let mut metrics = vec![
            ("passRate".to_string(), s.pass_rate),
            ("totalPassed".to_string(), s.total_passed as f64),
        ];
        metrics.extend(s.mean_precision.map(|p| ("meanPrecision".to_string(), p)));
        metrics.extend(s.mean_recall.map(|r| ("meanRecall".to_string(), r)));
        let mut names: Vec<&String> = Vec::new();
        for row in &report.rows {
            for m in row.rank_metrics.keys() {
                if !names.contains(&m) {
                    names.push(m);
                }
            }
        }
        for name in names {
            let values = report
                .rows
                .iter()
                .filter_map(|r| r.rank_metrics.get(name).flatten());
            metrics.extend(mean(values).map(|v| (name.clone(), v)));
        }
        Entry {
            date: report
                .manifest
                .as_ref()
                .and_then(|m| m.started_at.clone())
                .unwrap_or_default(),
            label: report.provider.clone(),
            suite: report.suite().unwrap_or("?").to_string(),
            kind: report.kind.label().to_string(),
            commit: commit.map(str::to_string),
            profile: report.manifest.as_ref().and_then(|m| m.profile.clone()),
            inputs: report
                .recorded_inputs()
                .map(|shas| crate::io::sha256_hex(shas.join("\n").as_bytes())[..12].to_string()),
            report: report.path.display().to_string(),
            metrics,
            cases: report.rows.iter().map(|r| (r.key(), r.passed)).collect(),
        }
    }

    /// The value of `metric`.
    pub(crate) fn metric(&self, metric: &str) -> Option<f64> {
        self.metrics
            .iter()
            .find(|(m, _)| m == metric)
            .map(|(_, v)| *v)
    }
}

impl Entry {
    /// The same run: everything but the report's path (a run dated to the millisecond, with
    /// the same figures, is one run; `merge --history` twice appended the merged run twice, and
    /// the copy read as "no regression").
    fn same_run(&self, other: &Entry) -> bool {
        Entry {
            report: String::new(),
            ..self.clone()
        } == Entry {
            report: String::new(),
            ..other.clone()
        }
    }
}

/// Append `entries` to the history in `dir` (created when missing), one line each, but those
/// the history holds already ([`Entry::same_run`]); returns the file, how many were left out
/// so, and the whole history as it now stands (read once, for the page).
pub(crate) fn append(dir: &Path, entries: &[Entry]) -> Result<(PathBuf, usize, Vec<Entry>)> {
    let path = dir.join(FILE);
    let output = |source| Error::Output {
        path: path.clone(),
        source,
    };
    let mut history = if path.exists() {
        read(dir)?
    } else {
        Vec::new()
    };
    let (held, entries): (Vec<&Entry>, Vec<&Entry>) = entries
        .iter()
        .partition(|e| history.iter().any(|h| h.same_run(e)));
    crate::io::create_folder(dir).map_err(output)?;
    let mut text = String::new();
    for e in &entries {
        text.push_str(&serde_json::to_string(e).expect("entries serialize"));
        text.push('\n');
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(output)?;
    file.write_all(text.as_bytes()).map_err(output)?;
    history.extend(entries.into_iter().cloned());
    Ok((path, held.len(), history))
}

/// The history in `dir`, in the order it was written.
pub(crate) fn read(dir: &Path) -> Result<Vec<Entry>> {
    let path = dir.join(FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::input(&path, "file", format!("no history to read ({e})")))?;
    let entries: Vec<Entry> = crate::io::json_lines(&path, &text, "a history entry")?;
    // A run twice (a history concatenated or merged by hand): its last change compared the run
    // with itself, "no regression", and the gate passed (a nineteenth audit). The writer never
    // appends a run it holds; the reader refuses one.
    let lines: Vec<usize> = (text.lines().enumerate())
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, _)| n + 1)
        .collect();
    let run = |e: &Entry| {
        (
            e.date.clone(),
            e.label.clone(),
            e.suite.clone(),
            e.kind.clone(),
        )
    };
    let mut seen = std::collections::HashMap::new();
    for (e, line) in entries.iter().zip(&lines) {
        if let Some(first) = seen.insert(run(e), *line) {
            return Err(Error::input(
                &path,
                format!("line {line}"),
                format!(
                    "the run of line {first} again ({} {} {}, {}); expected each run once",
                    e.label, e.suite, e.kind, e.date
                ),
            ));
        }
    }
    Ok(entries)
}

/// One label's runs of one suite and kind, oldest first.
#[derive(Debug, Clone)]
pub(crate) struct Series<'a> {
    /// The run label.
    pub label: &'a str,
    /// The suite.
    pub suite: &'a str,
    /// Its runs' profile, when recorded.
    pub profile: Option<String>,
    /// Its runs' inputs digest ([`Entry::inputs`]), when recorded.
    pub inputs: Option<String>,
    /// The suite as the series is shown: its name, then its profile and its inputs' digest
    /// where another series of the label, suite and kind differs in them.
    pub shown: String,
    /// `static` or `session`.
    pub kind: &'a str,
    /// Its runs, in the order they were written.
    pub runs: Vec<&'a Entry>,
}

/// The series of `entries`, in the order each first appears. A line written before history
/// recorded profiles and inputs (neither field) joins the series of its label, suite and kind
/// whatever they are: an upgrade does not split a system's history.
pub(crate) fn series(entries: &[Entry]) -> Vec<Series<'_>> {
    let fits = |a: &Option<String>, b: &Option<String>| a.is_none() || b.is_none() || a == b;
    let mut out: Vec<Series<'_>> = Vec::new();
    for e in entries {
        let found = out.iter_mut().find(|s| {
            (s.label, s.suite, s.kind) == (&e.label[..], &e.suite[..], &e.kind[..])
                && fits(&s.profile, &e.profile)
                && fits(&s.inputs, &e.inputs)
        });
        match found {
            Some(s) => {
                s.profile = s.profile.take().or_else(|| e.profile.clone());
                s.inputs = s.inputs.take().or_else(|| e.inputs.clone());
                s.runs.push(e);
            }
            None => out.push(Series {
                label: &e.label,
                suite: &e.suite,
                kind: &e.kind,
                profile: e.profile.clone(),
                inputs: e.inputs.clone(),
                shown: String::new(),
                runs: vec![e],
            }),
        }
    }
    // Each named by what tells it from another series of its label, suite and kind.
    let named: Vec<String> = (out.iter())
        .map(|s| {
            let kin = || {
                (out.iter()).filter(|o| (o.label, o.suite, o.kind) == (s.label, s.suite, s.kind))
            };
            let mut shown = s.suite.to_string();
            if let (true, Some(profile)) = (kin().any(|o| o.profile != s.profile), &s.profile) {
                shown.push_str(&format!(" (profile {profile})"));
            }
            if let (true, Some(inputs)) = (kin().any(|o| o.inputs != s.inputs), &s.inputs) {
                shown.push_str(&format!(" (inputs {inputs})"));
            }
            shown
        })
        .collect();
    for (s, shown) in out.iter_mut().zip(named) {
        s.shown = shown;
    }
    out
}

/// The last two runs of a series, compared case by case.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Change {
    /// The earlier run's date.
    pub from: String,
    /// The later run's date.
    pub to: String,
    /// Cases that passed before and fail now.
    pub pass_to_fail: Vec<String>,
    /// Cases that failed before and pass now.
    pub fail_to_pass: Vec<String>,
    /// Exact McNemar p over the discordant pairs.
    pub p: f64,
    /// More cases broke than were mended, and McNemar's p is below `alpha`.
    pub regression: bool,
}

/// The change between the last two runs of `series` (none with fewer than two), flagged as a
/// regression at level `alpha`.
pub(crate) fn last_change(series: &Series<'_>, alpha: f64) -> Option<Change> {
    let [.., before, after] = series.runs.as_slice() else {
        return None;
    };
    let mut pass_to_fail = Vec::new();
    let mut fail_to_pass = Vec::new();
    for (case, passed) in &after.cases {
        if let Some((_, was)) = before.cases.iter().find(|(c, _)| c == case) {
            match (was, passed) {
                (true, false) => pass_to_fail.push(case.clone()),
                (false, true) => fail_to_pass.push(case.clone()),
                _ => {}
            }
        }
    }
    let p = mcnemar_exact(pass_to_fail.len() as u64, fail_to_pass.len() as u64);
    Some(Change {
        from: before.date.clone(),
        to: after.date.clone(),
        regression: pass_to_fail.len() > fail_to_pass.len() && p < alpha,
        pass_to_fail,
        fail_to_pass,
        p,
    })
}

/// Refuse a measure no run of `entries` recorded (it would show as a column of dashes; an
/// audit found `--metric bogus` so), naming the measures recorded.
pub(crate) fn check_metrics(entries: &[Entry], metrics: &[String]) -> Result<(), String> {
    let Some(m) = metrics
        .iter()
        .find(|m| !entries.iter().any(|e| e.metric(m).is_some()))
    else {
        return Ok(());
    };
    let mut known: Vec<&str> = (entries.iter())
        .flat_map(|e| e.metrics.iter().map(|(m, _)| m.as_str()))
        .collect();
    known.sort_unstable();
    known.dedup();
    Err(format!(
        "--metric {m}: no run of the history records it; recorded: {}",
        known.join(", ")
    ))
}
